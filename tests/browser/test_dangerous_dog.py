"""River Hills § 2.14(6) in real Chromium: the officer declares a dog dangerous from the form's
fieldsets, serves the determination by certified mail, records the owner's timely request for a
hearing, sets the hearing inside its window and decides it, each step offered only when it comes
next; the owner's late notice of an escape leads to a citation page filled in; and the clerk's
transfer of the dog to a Village resident outside the household is refused, naming (vii).

Each step runs with the clock frozen on its day, counted back from today so the session cookie the
frozen server dates is still good in real time. Every expected date comes from the rule engine (its
YAML cases check them against the ordinance), so a deadline moved past a Sunday or a holiday
(s. 990.001(4)) is expected as moved, whatever day the test runs."""

import io
import re
from datetime import date, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone
from playwright.sync_api import expect

from dogtag import rules
from dogtag.lib.dates import shown
from dogtag.registry import actions as registry
from dogtag.registry.models import Municipality
from tests.base import on
from tests.browser.test_animal_control import save, shot
from tests.browser.test_registry import log_in

pytestmark = pytest.mark.django_db(transaction=True)


def fang_and_a_neighbour():
    call_command("demo", stdout=io.StringIO())
    clerk = get_user_model().objects.get(username="river-hills-clerk")
    village = Municipality.objects.get(slug="river-hills")
    people = [
        registry.create_person(
            acting_user=clerk, municipality=village, name=name, street=street, city="River Hills", postal_code="53217"
        )
        for name, street in (("Pat Owner", "1 Oak Ln"), ("Nell Neighbour", "3 Oak Ln"))
    ]
    registry.register_animal(
        acting_user=clerk,
        municipality=village,
        owner=people[0],
        name="Fang",
        breed="Mastiff",
        color="brown",
        sex="male",
        birth_date=date(2022, 1, 1),
        acquired_on=date(2022, 3, 1),
    )


def button(page, name):
    return page.locator("div.actions").get_by_role("link", name=name, exact=True)


def long_date(day):
    return f"{day:%B} {day.day}, {day.year}"


def test_an_officer_walks_a_river_hills_determination_to_the_hearing_decision(page, live_server):
    fang_and_a_neighbour()
    determined = timezone.localdate() - timedelta(days=14)
    received = determined + timedelta(days=1)
    window = rules.ask("wi-river-hills", "hearing_window", {"served_on": received}, received).value
    contest = rules.ask("wi-river-hills", "contest_deadline", {"served_on": received}, received).value
    declared = {"classification": "dangerous", "declared_on": determined, "determined_on": determined}
    requirements = rules.ask("wi-river-hills", "requirement_deadlines", declared, determined).value.requirements
    compliance = rules.ask("wi-river-hills", "compliance_deadline", {"determined_on": determined}, determined).value

    with on(determined):
        log_in(page, live_server, "officer")
        page.goto(f"{live_server.url}/m/river-hills/declarations/new/")
        finding = page.get_by_role("group", name="The finding")
        page.wait_for_load_state("load")  # htmx is deferred: typed before it runs, the search is never asked
        finding.get_by_label("Animal").fill("Fang")
        finding.get_by_role("option", name=re.compile(r"^Fang \(dog\)")).click()
        finding.get_by_label("Determined on").fill(determined.isoformat())
        finding.get_by_label("Evidence").fill("bite report of the victim, who will testify")
        incident = page.get_by_role("group", name="The incident it rests on")
        incident.get_by_label("Incident on").fill((determined - timedelta(days=3)).isoformat())
        incident.get_by_label("What happened").select_option("bite_injury")
        incident.get_by_label("Victim").select_option("person")
        save(page)
        expect(page.get_by_role("heading", level=1)).to_contain_text("Fang (dog) declared dangerous")
        # (vi) photographs "within ten (10) days of determination"
        photos = page.get_by_role("row", name=re.compile(r"^identification photographs"))
        expect(photos).to_contain_text(long_date(requirements["identification_photographs"].deadline))
        expect(photos).to_contain_text("§ 2.14(6)[e](1)(vi)")
        expect(button(page, "Service")).to_be_visible()
        expect(button(page, "Schedule the hearing")).to_have_count(0)

    with on(received):
        button(page, "Service").click()
        page.get_by_label("Service method").select_option("certified_mail")
        page.get_by_label("Mailed on").fill(determined.isoformat())
        page.get_by_label("Received on").fill(received.isoformat())
        save(page)
        # [c](3): the owner's written request "within 5 business days of service"
        request_row = page.get_by_role("row").filter(has_text="Last day for the owner's written request")
        expect(request_row).to_contain_text(long_date(contest.deadline))
        expect(request_row).to_contain_text("§ 2.14(6)[c](3)")
        expect(button(page, "Service")).to_have_count(0)

    with on(received + timedelta(days=1)):
        button(page, "Hearing requested").click()
        page.get_by_label("Written request received on").fill((received + timedelta(days=1)).isoformat())
        save(page)
        # (v): spay/neuter stayed while the hearing is pending
        expect(page.get_by_role("row").filter(has_text="spay neuter")).to_contain_text("stayed")
        button(page, "Schedule the hearing").click()
        page.get_by_label("Scheduled on").fill((window.earliest - timedelta(days=1)).isoformat())
        page.get_by_label("Time").fill("10:30")
        page.get_by_label("Place").fill("Village Hall")
        save(page)
        # the refusal beside the field (the error summary at the top links to it)
        # (a last day moved past a Sunday or holiday also names s. 990.001(4)(b) and s. 995.20)
        refusal = page.get_by_text(
            re.compile(
                "^" + re.escape(f"The hearing is held between {shown(window.earliest)} and {shown(window.latest)}")
                + re.escape(" (§ 2.14(6)[c](3)")
                + r"(, s\. 990\.001\(4\)\(b\), s\. 995\.20)?\)\.$"
            )
        )
        expect(refusal).to_be_visible()
        page.get_by_label("Scheduled on").fill(window.earliest.isoformat())
        save(page)
        expect(button(page, "Hearing decision")).to_be_visible()
        expect(page.get_by_text(re.compile(r"Hearing .* at 10:30 AM, Village Hall"))).to_be_visible()
        expect(page.locator("div.actions").get_by_role("link", name="Hearing notice (PDF)")).to_be_visible()

    with on(window.earliest):
        button(page, "Hearing decision").click()
        page.get_by_label("Held on").fill(window.earliest.isoformat())
        page.get_by_label("Outcome").select_option("affirmed")
        page.get_by_label("Findings").fill("The bite is proved; the dog is dangerous.")
        save(page)
        expect(button(page, "Decision received")).to_be_visible()
        comply = page.get_by_role("row").filter(has_text="Comply with the regulations")
        expect(comply).to_contain_text(long_date(compliance.last_day))

    with on(window.earliest + timedelta(days=1)):
        button(page, "Escape, bite or attack").click()
        page.get_by_label("What happened").select_option("escaped_at_large")
        page.get_by_label("When it happened").fill(f"{window.earliest}T21:00")
        page.get_by_label("The owner or keeper notified the police").select_option("not_notified")
        save(page)
        page.get_by_role("link", name="Cite the owner").click()
        expect(page.get_by_label("Description")).to_have_value(
            "Escaped its enclosure or restraint and was at large; the police not notified immediately"
        )
        page.go_back()
        shot(page, "dangerous-dog")

    with on(window.earliest + timedelta(days=2)):
        page.get_by_role("button", name="Log out officer").click()
        log_in(page, live_server, "river-hills-clerk")
        page.get_by_placeholder("Search (press /)").fill("Fang")
        page.get_by_placeholder("Search (press /)").press("Enter")
        page.get_by_role("link", name="Fang", exact=True).click()
        page.get_by_role("link", name="Transfer to a new owner").click()
        page.wait_for_load_state("load")  # htmx is deferred: typed before it runs, the search is never asked
        page.get_by_label("New owner", exact=True).fill("Nell")
        page.get_by_role("option", name=re.compile("Nell Neighbour")).click()
        page.get_by_label("Owner from").fill((window.earliest + timedelta(days=2)).isoformat())
        page.get_by_label("Does the new owner reside in the municipality?").select_option("yes")
        page.get_by_label("Does the new owner reside permanently in the owner's household and premises?").select_option(
            "no"
        )
        page.get_by_label(
            "Was the dog's status as a dangerous or vicious dog disclosed to the new owner?"
        ).select_option("yes")
        save(page)
        expect(page.locator("ul.errorlist")).to_contain_text("§ 2.14(6)[e](1)(vii)")
        expect(page.locator("ul.errorlist")).to_contain_text("same household and on the same premises")
