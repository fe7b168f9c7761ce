"""Every list of the API comes in pages (lib/api_pages.py): each record on exactly one page, the
count of all of them, the page size's default and limit in the OpenAPI document, and a page's
statements the same however long the page."""

from datetime import date

from dogtag.accounts.actions import issue_api_token
from dogtag.lib.api_pages import MAX_PAGE_SIZE, PAGE_SIZE
from dogtag.registry.models import Animal
from tests.base import BaseTestCase, on


@on(date(2026, 11, 29))
class PagesTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        # Seven dogs of one name: their order is the primary key's, so none falls between pages.
        Animal.objects.bulk_create(
            Animal(municipality=cls.benton, name="Twin", sex="female", premises=cls.premises) for _ in range(7)
        )
        cls.benton_animals = set(Animal.objects.filter(municipality=cls.benton).values_list("pk", flat=True))

        cls.token = issue_api_token(acting_user=cls.clerk, user=cls.clerk, name="Benton's records system")[1]

    def get(self, **parameters):
        return self.client.get("/api/v1/animals", parameters, HTTP_AUTHORIZATION=f"Bearer {self.token}")

    def page(self, number, size, **filters):
        r = self.get(municipality="benton", page=number, page_size=size, **filters)
        self.assertEqual(r.status_code, 200, r.content)
        return r.json()

    def test_each_record_is_on_exactly_one_page_and_the_count_is_all_of_them(self):
        seen, number = [], 1
        while items := self.page(number, 3)["items"]:
            self.assertLessEqual(len(items), 3)
            seen += [a["id"] for a in items]
            number += 1
        self.assertEqual(len(seen), len(set(seen)), "no record on two pages")
        self.assertEqual(set(seen), self.benton_animals)
        self.assertEqual(self.page(1, 3)["count"], len(self.benton_animals))
        self.assertEqual(self.page(99, 3), {"items": [], "count": len(self.benton_animals)})

    def test_the_filters_are_counted_before_the_page(self):
        answer = self.page(1, 2, q="Twin")
        self.assertEqual((len(answer["items"]), answer["count"]), (2, 7))

    def test_a_page_size_above_the_limit_is_refused_naming_it(self):
        r = self.get(page_size=MAX_PAGE_SIZE + 1)
        self.assertEqual(r.status_code, 422)
        self.assertIn("query.page_size", r.json()["errors"])
        r = self.get(page=0)
        self.assertEqual(r.status_code, 422)
        self.assertIn("query.page", r.json()["errors"])

    def test_a_page_costs_the_same_statements_however_long(self):
        self.page(1, 1)  # the token's user and municipalities, remembered after the first request
        for size in (1, MAX_PAGE_SIZE):
            with self.assertNumQueries(2):  # the count, then the page
                self.page(1, size)

    def test_the_document_gives_every_list_its_page_size_default_and_limit(self):
        paths = self.client.get("/api/v1/openapi.json").json()["paths"]
        lists = {
            path: operation
            for path, operations in paths.items()
            for method, operation in operations.items()
            if method == "get" and "Paged" in str(operation["responses"]["200"])
        }
        self.assertEqual(
            set(lists),
            {
                "/api/v1/municipalities",
                "/api/v1/people",
                "/api/v1/premises",
                "/api/v1/animals",
                "/api/v1/animals/{pk}/ownerships",
                "/api/v1/animals/{pk}/vaccinations",
                "/api/v1/renewal-runs",
                "/api/v1/kennels",
                "/api/v1/cases",
                "/api/v1/municipalities/{slug}/hen-permits",
                "/api/v1/declarations/{pk}/vicious-dog-permits",
            },
        )
        for path, operation in lists.items():
            size = next(p for p in operation["parameters"] if p["name"] == "page_size")["schema"]
            self.assertEqual((size["default"], size["maximum"]), (PAGE_SIZE, MAX_PAGE_SIZE), path)
