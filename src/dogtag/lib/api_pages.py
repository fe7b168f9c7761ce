"""Every list of the API comes in pages: django-ninja's page-number pagination, with the page size's
default and limit written into the OpenAPI document. `GET /api/v1/animals?page=2&page_size=50`
answers `{"items": [...], "count": 1234}`; a page past the last is an empty `items`, a page size
above the limit a 422 naming `page_size` (and a page above `LAST_PAGE`, `page`)."""

from ninja import Field, Schema
from ninja.pagination import PageNumberPagination, paginate

PAGE_SIZE = 100
MAX_PAGE_SIZE = 500
LAST_PAGE = 1_000_000  # an offset every database can take


class Pages(PageNumberPagination):
    class Input(Schema):
        page: int = Field(1, ge=1, le=LAST_PAGE, description="the page to answer, from 1")
        page_size: int = Field(
            PAGE_SIZE, ge=1, le=MAX_PAGE_SIZE, description=f"records a page, at most {MAX_PAGE_SIZE}"
        )

    def __init__(self, *, ordering, **kwargs):
        self.ordering = ordering
        super().__init__(page_size=PAGE_SIZE, max_page_size=MAX_PAGE_SIZE, **kwargs)

    def paginate_queryset(self, queryset, pagination, request, **params):
        return super().paginate_queryset(queryset.order_by(*self.ordering), pagination, request, **params)


def paged(*ordering):
    """Pages of the list an operation answers, in `ordering`; it ends with the primary key, so each
    record is on exactly one page however many share the fields before it."""
    if ordering[-1] not in ("pk", "-pk"):
        raise ValueError(f"A paged list's order must end with pk or -pk: {ordering}")
    return paginate(Pages, ordering=ordering)
