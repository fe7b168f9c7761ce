"""The key a person is matched on when an old roll is imported: the name and the street, lowered,
punctuation gone and common street words abbreviated ("12 Main Street." and "12 main st" are one
address). Kept on the person (Person.match_key, set by its clean(), so by every registry action
that saves one) so an import matches a batch of owners by one indexed lookup, not by normalising
every person on record."""

import re
from functools import lru_cache

ABBREVIATIONS = {
    "street": "st",
    "avenue": "ave",
    "road": "rd",
    "drive": "dr",
    "lane": "ln",
    "north": "n",
    "south": "s",
    "east": "e",
    "west": "w",
    "court": "ct",
    "place": "pl",
    "boulevard": "blvd",
}
PUNCTUATION = re.compile(r"[^\w\s]")


@lru_cache(maxsize=1 << 14)  # a roll names each owner twice or so, in a row; streets repeat more
def normalise(text: str) -> str:
    words = PUNCTUATION.sub(" ", text.lower()).split()
    return " ".join(ABBREVIATIONS.get(w, w) for w in words)


def person_key(name: str, street: str) -> str:
    """`name|street`, both normalised (a normalised text has no `|`)."""
    return f"{normalise(name or '')}|{normalise(street or '')}"
