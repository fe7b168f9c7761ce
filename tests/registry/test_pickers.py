"""Pickers that scale: owner, premises and animal fields are type-ahead searches answering at
most ten matches in one query, scoped to the municipality; "New person" keeps what was typed
and comes back with the new person chosen; a likely duplicate person is named before it is made."""

from datetime import date
from urllib.parse import urlencode

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from dogtag.accounts.models import Role
from dogtag.registry import actions
from dogtag.registry.models import Person, Premises
from tests.base import BaseTestCase, make_user, on

PERSON = {"kind": "individual", "name": "Pat Owner", "street": "12 Main St", "city": "Benton",
          "state": "WI", "postal_code": "53803"}  # fmt: skip


@on(date(2026, 11, 29))
class PickerTests(BaseTestCase):
    def test_the_owner_field_is_a_type_ahead_search_not_a_list_of_everyone(self):
        for n in range(30):
            actions.create_person(acting_user=self.clerk, municipality=self.benton, name=f"Owner {n:02d}",
                                  street=f"{n} Elm St", city="Benton", postal_code="53803")  # fmt: skip
        self.login(self.clerk)
        page = self.client.get(reverse("animal-new", args=["benton"]))
        self.assertContains(page, f'hx-get="{reverse("pick-people", args=["benton"])}"')
        self.assertNotContains(page, "Owner 17")  # no <option> per person
        url = reverse("pick-people", args=["benton"])
        self.client.get(url, {"owner_q": "Ow"})  # warm the session
        with CaptureQueriesContext(connection) as queries:
            r = self.client.get(url, {"owner_q": "Owner"})
        self.assertEqual(r.content.decode().count('data-pick="'), 10)
        # the session, the user, the second factor, the roles, the municipality (twice) and one for the matches
        self.assertLessEqual(len(queries), 8, [q["sql"] for q in queries])
        r = self.client.get(url, {"owner_q": "17 Elm"})
        self.assertContains(r, 'data-label="Owner 17, 17 Elm St"')
        # another municipality's people are not found
        actions.create_person(acting_user=self.webster_clerk, municipality=self.webster, name="Owner Webster",
                              street="1 Elm St", city="Webster", postal_code="54893")  # fmt: skip
        self.assertNotContains(self.client.get(url, {"owner_q": "Webster"}), "Owner Webster")
        # the chosen owner is posted as its id
        owner = Person.objects.get(name="Owner 17")
        r = self.client.post(reverse("animal-new", args=["benton"]),
                             {"owner": owner.pk, "owner_role": "owner", "species": "dog", "name": "Biscuit",
                              "sex": "female", "birth_date": "2024-01-01"})  # fmt: skip
        self.assertEqual(r.status_code, 302, r.content.decode()[-2000:])
        self.assertEqual(owner.ownerships.get().animal.name, "Biscuit")

    def test_new_person_keeps_what_was_typed_and_returns_to_the_form_with_the_person_chosen(self):
        self.login(self.clerk)
        back = reverse("animal-new", args=["benton"])
        r = self.client.get(reverse("person-new", args=["benton"]), {"name": "Robin Newcomer", "next": back})
        self.assertContains(r, 'value="Robin Newcomer"')
        r = self.client.post(f"{reverse('person-new', args=['benton'])}?next={back}",
                             {**PERSON, "name": "Robin Newcomer", "street": "3 Birch Ln"})  # fmt: skip
        robin = Person.objects.get(name="Robin Newcomer")
        self.assertRedirects(r, f"{back}?owner={robin.pk}")
        self.assertContains(self.client.get(r.url), 'value="Robin Newcomer, 3 Birch Ln')
        # an address outside the site is not followed
        r = self.client.post(f"{reverse('person-new', args=['benton'])}?next=https://evil.example/",
                             {**PERSON, "name": "Sam Other", "street": "4 Birch Ln"})  # fmt: skip
        self.assertRedirects(r, reverse("person", args=[Person.objects.get(name="Sam Other").pk]))

    def test_a_likely_duplicate_person_is_named_before_a_second_is_made(self):
        self.login(self.clerk)
        url = reverse("person-new", args=["benton"])
        r = self.client.post(url, {**PERSON, "name": "pat  owner", "street": "12 MAIN ST"})
        self.assertContains(r, f"Pat Owner, 12 Main St is already on record (person #{self.owner.pk})")
        self.assertEqual(Person.objects.filter(name__iexact="pat owner").count(), 1)
        r = self.client.post(url, {**PERSON, "confirm_not_duplicate": "on"})
        self.assertEqual(r.status_code, 302)
        self.assertEqual(Person.objects.filter(name="Pat Owner").count(), 2)

    def test_the_kennel_and_transfer_forms_choose_people_and_premises_by_search(self):
        for n in range(12):
            actions.create_person(acting_user=self.clerk, municipality=self.benton, name=f"Keeper {n:02d}",
                                  street=f"{n} Ash St", city="Benton", postal_code="53803")  # fmt: skip
        self.login(self.clerk)
        pages = {
            "kennel": (reverse("kennel-new", args=["benton"]), ("owner", "premises")),
            "transfer": (reverse("animal-transfer", args=[self.dog.pk]), ("to_person",)),
        }
        for what, (url, fields) in pages.items():
            page = self.client.get(url)
            self.assertNotContains(page, "Keeper 07", msg_prefix=what)  # no <option> per person
            for field in fields:
                self.assertContains(page, f'name="{field}_q"', msg_prefix=what)
            # back from "New person" on its own page (no JavaScript): the person is chosen
            back = self.client.get(url, {fields[0]: self.owner.pk})
            self.assertContains(back, 'value="Pat Owner, 12 Main St"', msg_prefix=what)


HX = {"HTTP_HX_REQUEST": "true"}


@on(date(2026, 11, 29))
class NewRecordInPlaceTests(BaseTestCase):
    """A picker's "New person / New premises" opens in place (an htmx fragment inside the page's
    form, so no <form> of its own), posts through the registry's action and comes back as the
    picker with the new record chosen; without JavaScript its own page comes back to the form."""

    def new(self, kind, data=None, field="owner", **query):
        url = reverse("person-new" if kind == "people" else "premises-new", args=["benton"])
        if data is None:
            return self.client.get(url, {"field": field, **query}, **HX)
        return self.client.post(f"{url}?field={field}", data, **HX)

    def test_new_person_in_place_keeps_what_was_typed_and_comes_back_chosen(self):
        self.login(self.clerk)
        page = self.client.get(reverse("animal-new", args=["benton"]))
        self.assertContains(page, f'hx-get="{reverse("person-new", args=["benton"])}?field=owner"')
        self.assertContains(page, f'hx-get="{reverse("premises-new", args=["benton"])}?field=premises"')
        r = self.new("people", owner_q="Robin Newcomer")
        self.assertNotContains(r, "<form")  # it sits inside the page's form
        self.assertNotContains(r, "<html")
        self.assertContains(r, f'hx-post="{reverse("person-new", args=["benton"])}?field=owner"')
        self.assertContains(r, 'name="new-owner-name" value="Robin Newcomer"')  # prefixed: never the animal's name
        self.assertNotContains(r, " required")  # the page's own Save is not blocked by the closed form's fields
        # the page's own fields are posted along (hx-post takes the enclosing form) and ignored
        data = {"name": "Maple", "owner_q": "Robin", "new-owner-kind": "individual", "new-owner-name": "Robin Newcomer",
                "new-owner-street": "3 Birch Ln", "new-owner-city": "Benton", "new-owner-state": "WI",
                "new-owner-postal_code": "53803"}  # fmt: skip
        r = self.new("people", data)
        robin = Person.objects.get(name="Robin Newcomer")
        self.assertEqual((robin.municipality, robin.street), (self.benton, "3 Birch Ln"))
        self.assertEqual(r["HX-Retarget"], "closest [data-picker]")
        self.assertEqual(r["HX-Reswap"], "outerHTML")
        self.assertContains(r, f'name="owner" value="{robin.pk}"')
        self.assertContains(r, 'id="id_owner" name="owner_q" value="Robin Newcomer, 3 Birch Ln"')
        self.assertFalse(Person.objects.filter(name="Maple").exists())

    def test_bad_input_is_named_by_field_and_nothing_is_made(self):
        self.login(self.clerk)
        people = Person.objects.count()
        r = self.new("people", {"new-owner-kind": "individual", "new-owner-name": "", "new-owner-street": "3 Birch Ln",
                                "new-owner-email": "not-an-address"})  # fmt: skip
        self.assertEqual(r.status_code, 200)
        self.assertFalse(r.has_header("HX-Retarget"))  # the form again, in place
        self.assertContains(r, 'id="id_new-owner-name_error">This field is required.')
        self.assertContains(r, 'id="id_new-owner-email_error">Enter a valid email address.')
        self.assertContains(r, 'value="3 Birch Ln"')  # what was typed is kept
        r = self.new("premises", {"new-premises-street": "9 Elm St", "new-premises-use": "castle"}, field="premises")
        self.assertContains(r, 'id="id_new-premises-use_error">Select a valid choice.')
        self.assertEqual(Person.objects.count(), people)
        # a field name that is not one is not echoed into the page: the kind's own field is used
        r = self.client.get(reverse("person-new", args=["benton"]), {"field": '"><script>'}, **HX)
        self.assertContains(r, 'name="new-owner-name"')

    def test_a_likely_duplicate_is_named_in_place_until_the_clerk_confirms(self):
        self.login(self.clerk)
        data = {"new-owner-kind": "individual", "new-owner-name": "pat owner", "new-owner-street": "12 MAIN ST",
                "new-owner-city": "Benton", "new-owner-state": "WI", "new-owner-postal_code": "53803"}  # fmt: skip
        r = self.new("people", data)
        self.assertContains(r, f"Pat Owner, 12 Main St is already on record (person #{self.owner.pk})")
        self.assertContains(r, 'name="new-owner-confirm_not_duplicate"')
        self.assertEqual(Person.objects.filter(name__iexact="pat owner").count(), 1)
        r = self.new("people", {**data, "new-owner-confirm_not_duplicate": "on"})
        self.assertEqual(r["HX-Retarget"], "closest [data-picker]")
        self.assertEqual(Person.objects.filter(name__iexact="pat owner").count(), 2)

    def test_new_premises_in_place_comes_back_chosen(self):
        self.login(self.clerk)
        r = self.new("premises", field="premises", premises_q="40 Hen House Rd")
        self.assertContains(r, 'name="new-premises-street" value="40 Hen House Rd"')
        r = self.new("premises", {"new-premises-street": "40 Hen House Rd", "new-premises-use": "farm"},
                     field="premises")  # fmt: skip
        made = Premises.objects.get(street="40 Hen House Rd")
        self.assertEqual(made.municipality, self.benton)
        self.assertContains(r, f'name="premises" value="{made.pk}"')
        self.assertContains(r, 'value="40 Hen House Rd"')

    def test_scoped_to_the_municipality(self):
        for user in (self.outsider, self.resident):
            self.login(user)
            self.assertEqual(self.new("people").status_code, 404)
            r = self.new("premises", {"new-premises-street": "1 Nowhere", "new-premises-use": "farm"}, field="premises")
            self.assertEqual(r.status_code, 404)
        self.assertFalse(Premises.objects.filter(street="1 Nowhere").exists())

    def test_without_javascript_the_own_page_comes_back_with_the_record_chosen(self):
        form = reverse("hen-permit-new", args=["cedarburg"])
        cedarburg_clerk = make_user("celia", (self.cedarburg, Role.CLERK))
        self.login(cedarburg_clerk)
        new = reverse("premises-new", args=["cedarburg"])
        # the picker's plain link, followed from the hen permit form (its Referer)
        r = self.client.get(new, {"field": "premises"}, HTTP_REFERER=f"http://testserver{form}?renewal_of=x")
        self.assertRedirects(r, f"{new}?{urlencode({'field': 'premises', 'next': form + '?renewal_of=x'})}",
                             fetch_redirect_response=False)  # fmt: skip
        r = self.client.post(r.url, {"street": "40 Hen House Rd", "use": "single-family"})
        made = Premises.objects.get(street="40 Hen House Rd")
        self.assertRedirects(r, f"{form}?renewal_of=x&premises={made.pk}", fetch_redirect_response=False)
        page = self.client.get(r.url)
        self.assertContains(page, f'name="premises" value="{made.pk}"')
        self.assertContains(page, 'value="40 Hen House Rd"')
        # another site's page is never the way back
        r = self.client.get(new, {"field": "premises"}, HTTP_REFERER="https://evil.example/m/")
        self.assertEqual(r.status_code, 200)
        r = self.client.post(f"{new}?field=premises", {"street": "41 Hen House Rd", "use": "single-family"})
        self.assertRedirects(r, reverse("premises", args=[Premises.objects.get(street="41 Hen House Rd").pk]))
