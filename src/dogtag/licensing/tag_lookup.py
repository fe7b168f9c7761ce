"""The tag lookup: a found dog's tag to its license. One query (`lookup_query`) reads the license,
its municipality and all of its tags, and with a token's hash (dogtag/lean.py, which compiles it
once) whether that token is live; the answer is the plain dict `LicenseOut` describes (a test compares
it with the schema's own serialisation).
"""

import json

from django.db import connections
from django.db.models import Exists
from ninja.responses import NinjaJSONEncoder

from dogtag.accounts.tokens import live_tokens
from dogtag.licensing.models import Tag

# The license's own fields, in the answer's order.
LICENSE_FIELDS = (
    "license_year serial animal_id animal_name owner_name owner_address issued_on expires_on tax late_fee "
    "late_fee_trigger free_license county voided_at void_reason citations"
).split()
# (output key, Tag lookup path) for every column read; the license's columns repeat on each of its
# tag rows, the tag columns are the license's tags (not only the one looked up).
LICENSE_COLUMNS = [
    ("id", "license__id"),
    # The tag looked up: its municipality is the license's, and the one the user must serve.
    ("municipality_id", "license__tags__municipality_id"),
    ("municipality", "license__tags__municipality__slug"),
    *((name, f"license__{name}") for name in LICENSE_FIELDS),
]
TAG_COLUMNS = ["serial", "license_year", "status"]
COLUMNS = [*(path for _, path in LICENSE_COLUMNS), *TAG_COLUMNS]
# What the answer is sent as (the API operation and the lean path in front of Django: dogtag/lean.py).
CONTENT_TYPE = "application/json; charset=utf-8"


def lookup_query(slug, year, serial, token_hash=None):
    """The lookup's one query: every tag of the license tag `serial` of `year` in `slug` was issued
    to, as rows of COLUMNS; with `token_hash` each row ends with whether the token with this hash is
    live."""
    tags = Tag.objects.filter(
        license__tags__municipality__slug=slug, license__tags__license_year=year, license__tags__serial=serial
    ).order_by("license_year", "serial")
    if token_hash is None:
        return tags.values_list(*COLUMNS)
    return tags.annotate(token_live=Exists(live_tokens(token_hash))).values_list(*COLUMNS, "token_live")


def orm_rows(using, **arguments) -> list[tuple]:
    return list(lookup_query(**arguments).using(using))


def license_json(slug, year, serial, municipality_ids, using="default", token_hash=None, read=orm_rows) -> bytes | None:
    """The license tag `serial` of `year` in municipality `slug` was issued to, as `LicenseOut`'s
    JSON, or None if there is none among `municipality_ids` (not found and not served read the
    same, so a tag's existence elsewhere is not revealed). With `token_hash`, None too unless that
    token is live. `read` runs `lookup_query` (the ORM's, or lean.py's compiled once)."""
    low, high = connections[using].ops.integer_field_range(Tag._meta.get_field("serial").get_internal_type())
    if not (low <= year <= high and low <= serial <= high):
        return None  # no column holds it, so no tag has it (as the ORM answers an out-of-range lookup)
    rows = read(using, slug=slug, year=year, serial=serial, token_hash=token_hash)
    if not rows or (token_hash is not None and not rows[0][-1]):
        return None
    license = dict(zip([key for key, _ in LICENSE_COLUMNS], rows[0], strict=False))
    if license.pop("municipality_id") not in municipality_ids:
        return None
    width = len(LICENSE_COLUMNS)
    return answer(license, [dict(zip(TAG_COLUMNS, row[width:], strict=False)) for row in rows])


def answer(license: dict, tags: list[dict]) -> bytes:
    """`LicenseOut`'s JSON of `license` (its id, municipality and LICENSE_FIELDS) and its `tags`
    (`TagOut`'s fields), made without the schema's objects."""
    citations = license.pop("citations")
    license["tags"] = tags
    license["citations"] = [{key: c[key] for key in ("jurisdiction", "section", "quote")} for c in citations]
    return json.dumps(license, cls=NinjaJSONEncoder).encode()
