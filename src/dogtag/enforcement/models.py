"""Animal control: cases (complaints, impoundments, bites and quarantines, dangerous and vicious
dog declarations, citations) and the legal clocks on them.

Every deadline is a `Deadline` row computed by the rule engine and stored with the citations it
returned, so the case page, "my cases" and the calendar feed show the same date with the same
"why". Nothing is deleted: a case is closed with a reason, a deadline is met or superseded, a
citation is voided.
"""

from django.conf import settings
from django.db import models
from django.utils import timezone

from dogtag.lib.dates import shown, today  # noqa: F401 - `today` is the fields' default (migrations name it here)
from dogtag.licensing.models import License
from dogtag.registry.models import Animal, Person, Scoped


class Case(Scoped):
    class Kind(models.TextChoices):
        COMPLAINT = "complaint", "Complaint"
        IMPOUNDMENT = "impoundment", "Impoundment"
        BITE = "bite", "Bite and rabies quarantine"
        EXPOSURE = "exposure", "Exposure to a rabid animal"
        DISTRICT = "district", "District rabies quarantine"
        DECLARATION = "declaration", "Dangerous or vicious dog"
        CITATION = "citation", "Citation"

    kind = models.CharField(max_length=12, choices=Kind.choices)
    title = models.CharField(max_length=200)
    animal = models.ForeignKey(Animal, null=True, blank=True, on_delete=models.PROTECT, related_name="cases")
    owner = models.ForeignKey(Person, null=True, blank=True, on_delete=models.PROTECT, related_name="cases")
    officer = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT)
    opened_on = models.DateField(default=today)
    closed_on = models.DateField(null=True, blank=True)
    close_reason = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["-opened_on", "-pk"]

    def __str__(self):
        return f"{self.get_kind_display()} #{self.pk}: {self.title}"

    @property
    def is_open(self):
        return self.closed_on is None

    def open_deadlines(self):
        return self.deadlines.filter(done_on=None, superseded=False)

    def next_deadline(self):
        return self.open_deadlines().order_by("due_on", "pk").first()


class DeadlineQuerySet(models.QuerySet):
    def open(self):
        return self.filter(done_on=None, superseded=False, case__closed_on=None)


class Deadline(Scoped):
    """A legal clock on a case: the last day (or moment) to do something, with the law."""

    case = models.ForeignKey(Case, on_delete=models.PROTECT, related_name="deadlines")
    key = models.CharField(max_length=60, help_text="what it is for, e.g. claim_by, examination.first")
    label = models.CharField(max_length=200)
    due_on = models.DateField()
    due_at = models.DateTimeField(null=True, blank=True, help_text="when the law counts hours")
    citations = models.JSONField(default=list, blank=True)
    notes = models.JSONField(default=list, blank=True)
    done_on = models.DateField(null=True, blank=True)
    done_note = models.CharField(max_length=300, blank=True)
    superseded = models.BooleanField(default=False)

    objects = DeadlineQuerySet.as_manager()

    class Meta:
        ordering = ["due_on", "pk"]
        indexes = [
            # A case's next pending deadline, one index entry away ("My cases" orders open cases by it).
            models.Index(
                fields=["case", "due_on", "id"],
                condition=models.Q(done_on=None, superseded=False),
                name="pending_deadlines",
            )
        ]

    def __str__(self):
        return f"{self.label}: {shown(self.due_on)}"

    @property
    def overdue(self):
        return self.done_on is None and not self.superseded and self.due_on < today()


class Complaint(Scoped):
    class Kind(models.TextChoices):
        AT_LARGE = "at-large", "At large"
        BARKING = "barking", "Barking or howling"
        BITE = "bite", "Bite or attack"
        CHASING = "chasing", "Chasing vehicles"
        KILLING = "killing", "Killing or worrying a domestic animal"
        FECES = "feces", "Feces not cleaned up"
        DAMAGE = "damage", "Damage to property"
        UNLICENSED = "unlicensed", "Untagged or unlicensed"
        CRUELTY = "cruelty", "Cruelty or neglect"
        VICIOUS = "vicious", "Vicious behaviour"

    case = models.ForeignKey(Case, on_delete=models.PROTECT, related_name="complaints")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    formal_written = models.BooleanField("formal written complaint", default=False)
    sworn = models.BooleanField("signed statement made under oath", default=False)
    complainant_name = models.CharField(max_length=200)
    complainant_address = models.CharField(max_length=300, blank=True)
    animal = models.ForeignKey(Animal, null=True, blank=True, on_delete=models.PROTECT)
    owner = models.ForeignKey(Person, null=True, blank=True, on_delete=models.PROTECT)
    animal_description = models.CharField(max_length=300, blank=True)
    observed_on = models.DateField()
    observed_time = models.CharField("approximate time", max_length=30, blank=True)
    place = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    filed_on = models.DateField(default=today)
    # What the engine said the moment this complaint was recorded (barking: a violation?).
    finding = models.JSONField(null=True, blank=True)
    # The written notice to the owner (Cedarburg: the police's; Sampson: received from the Town
    # Board) and the repeat after it (seen at large again; the noise went on).
    police_notice_on = models.DateField("written notice to the owner", null=True, blank=True)
    observed_again_on = models.DateField("repeated on", null=True, blank=True)

    class Meta:
        ordering = ["filed_on", "pk"]

    def __str__(self):
        return f"{self.get_kind_display()} complaint by {self.complainant_name}, {shown(self.filed_on)}"


class Impoundment(Scoped):
    class Reason(models.TextChoices):
        AT_LARGE = "at-large", "At large"
        UNLICENSED = "unlicensed", "Untagged or unlicensed"
        BITE = "bite", "Bit a person (observation)"
        VICIOUS = "vicious", "Vicious or dangerous"
        NUISANCE = "nuisance", "Nuisance"
        QUARANTINE = "quarantine", "Not confined during a rabies quarantine"
        OTHER = "other", "Other"

    class Notice(models.TextChoices):
        IN_PERSON = "in-person", "In person"
        MAIL = "mail", "By mail"
        POSTING = "posting", "Posted in public places (owner unknown)"

    class Disposition(models.TextChoices):
        OWNER = "owner", "Released to the owner"
        OTHER_PERSON = "other-person", "Released to another person"
        SOLD = "sold", "Sold"
        EUTHANIZED = "euthanized", "Humanely euthanized"
        RESEARCH = "research", "Released for scientific or research purposes"

    case = models.OneToOneField(Case, on_delete=models.PROTECT, related_name="impoundment")
    animal = models.ForeignKey(Animal, null=True, blank=True, on_delete=models.PROTECT)
    description = models.CharField("description of the animal", max_length=300)
    impounded_on = models.DateField(default=today)
    found_at = models.CharField(max_length=200)
    reason = models.CharField(max_length=12, choices=Reason.choices)
    officer_saw_or_heard = models.BooleanField("the officer saw or heard the violation", default=False)
    sworn_complaint = models.BooleanField("a signed statement of a complaining witness made under oath", default=False)
    basis_decision = models.JSONField(default=dict, blank=True)
    bit_person = models.BooleanField("bit a person before impoundment", default=False)
    held_at = models.CharField("held at", max_length=200)
    impoundment_number = models.PositiveSmallIntegerField(default=1)
    notice_method = models.CharField(max_length=10, choices=Notice.choices, blank=True)
    notice_on = models.DateField(null=True, blank=True)
    notice_received_on = models.DateField(null=True, blank=True)
    posted_at = models.CharField("posted at (public places)", max_length=300, blank=True)
    release_decision = models.JSONField(null=True, blank=True)
    disposition = models.CharField(max_length=12, choices=Disposition.choices, blank=True)
    disposed_on = models.DateField(null=True, blank=True)
    disposed_to = models.CharField(max_length=200, blank=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT)
    fee_paid = models.DecimalField(max_digits=9, decimal_places=2, null=True, blank=True)
    license_note = models.CharField(max_length=300, blank=True)

    def __str__(self):
        return f"Impoundment of {self.description} on {shown(self.impounded_on)}"

    @property
    def owner_known(self):
        return self.case.owner_id is not None


class BiteReport(Scoped):
    case = models.OneToOneField(Case, on_delete=models.PROTECT, related_name="bite")
    # None while the animal is unknown or a stray: described here, linked when identified.
    animal = models.ForeignKey(Animal, null=True, blank=True, on_delete=models.PROTECT)
    animal_description = models.CharField("the animal, if unknown or a stray", max_length=300, blank=True)
    victim_name = models.CharField(max_length=200)
    victim_address = models.CharField(max_length=300, blank=True)
    victim_phone = models.CharField(max_length=30, blank=True)
    bitten_on = models.DateField()
    place = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    reported_by = models.CharField(max_length=200, blank=True)

    def __str__(self):
        return f"Bite by {self.animal or self.animal_description or 'an unknown animal'} on {shown(self.bitten_on)}"


class QuarantineOrder(Scoped):
    class Kind(models.TextChoices):
        BITE = "bite", "After a bite"
        EXPOSURE = "exposure", "After exposure to a rabid animal"

    class Place(models.TextChoices):
        ISOLATION_FACILITY = "isolation_facility", "Isolation facility"
        OWNER_PREMISES = "owner_premises", "The owner's premises"
        VETERINARIAN_WITHIN_CITY = "veterinarian_within_city", "A licensed veterinarian within the City"

    class LabResult(models.TextChoices):
        PENDING = "", "—"
        NEGATIVE = "negative", "Negative for rabies"
        POSITIVE = "positive", "Positive for rabies"
        UNSATISFACTORY = "unsatisfactory", "Unsatisfactory specimen"

    case = models.OneToOneField(Case, on_delete=models.PROTECT, related_name="quarantine")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    animal = models.ForeignKey(Animal, on_delete=models.PROTECT)
    ordered_at = models.DateTimeField(default=timezone.now)
    currently_immunized = models.BooleanField()
    place = models.CharField(max_length=30, choices=Place.choices, blank=True)
    facility = models.CharField("facility or premises", max_length=200, blank=True)
    decision = models.JSONField(default=dict, blank=True)
    exposed_on = models.DateField(null=True, blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)
    extended_until = models.DateField(null=True, blank=True)
    extension_reason = models.CharField(max_length=300, blank=True)
    released_on = models.DateField(null=True, blank=True)
    release_certificate = models.CharField("veterinarian's certificate", max_length=300, blank=True)
    released_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    revaccinated_on = models.DateField(null=True, blank=True)
    symptoms_on = models.DateField(null=True, blank=True)
    symptoms = models.CharField(max_length=300, blank=True)
    euthanized_on = models.DateField(null=True, blank=True)
    lab_submitted_on = models.DateField(null=True, blank=True)
    laboratory = models.CharField(max_length=200, blank=True)
    lab_result = models.CharField(max_length=15, choices=LabResult.choices, blank=True)
    lab_result_on = models.DateField(null=True, blank=True)
    notified = models.CharField("who was notified of the result", max_length=300, blank=True)

    def __str__(self):
        return f"Quarantine of {self.animal} ({self.get_kind_display().lower()})"


class Examination(Scoped):
    class Which(models.TextChoices):
        FIRST = "first", "First day of isolation"
        INTERVENING = "intervening", "An intervening day"
        LAST = "last", "Last day of isolation"

    order = models.ForeignKey(QuarantineOrder, on_delete=models.PROTECT, related_name="examinations")
    which = models.CharField(max_length=12, choices=Which.choices)
    examined_on = models.DateField()
    veterinarian = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    signs_of_rabies = models.BooleanField(default=False)
    findings = models.TextField()

    class Meta:
        ordering = ["examined_on", "pk"]

    def __str__(self):
        return f"Examination ({self.get_which_display().lower()}) on {shown(self.examined_on)}"


class DistrictQuarantine(Scoped):
    case = models.OneToOneField(Case, on_delete=models.PROTECT, related_name="district")
    declared_on = models.DateField()
    ends_on = models.DateField(help_text="as the local health department directs")
    area = models.CharField(max_length=300)
    ordered_by = models.CharField(max_length=200, help_text="e.g. the county health department")
    posted_at = models.CharField("notices posted at", max_length=400, blank=True)
    decision = models.JSONField(default=dict, blank=True)

    def __str__(self):
        return f"District rabies quarantine from {shown(self.declared_on)}"


class Declaration(Scoped):
    """An officer's finding that a dog is potentially dangerous, dangerous or vicious."""

    class Classification(models.TextChoices):
        POTENTIALLY_DANGEROUS = "potentially_dangerous", "Potentially dangerous"
        DANGEROUS = "dangerous", "Dangerous"
        VICIOUS = "vicious", "Vicious"

    class Service(models.TextChoices):
        PERSONAL_SERVICE = "personal_service", "Personal service"
        CERTIFIED_MAIL = "certified_mail", "Certified mail"
        REGULAR_MAIL = "regular_mail", "Regular mail"
        DOOR_POSTING = "door_posting", "Posted on the front door"

    class Status(models.TextChoices):
        IN_FORCE = "in-force", "In force"
        AFFIRMED = "affirmed", "Affirmed"
        MODIFIED = "modified", "Modified"
        REVERSED = "reversed", "Reversed"
        OVERTURNED = "overturned", "Overturned on appeal"
        WAIVED = "waived", "Waived"

    case = models.OneToOneField(Case, on_delete=models.PROTECT, related_name="declaration")
    animal = models.ForeignKey(Animal, on_delete=models.PROTECT)
    classification = models.CharField(max_length=25, choices=Classification.choices)
    ground = models.CharField(max_length=300)
    evidence = models.TextField(help_text="what the finding rests on")
    incidents = models.JSONField(default=list, blank=True)
    classification_decision = models.JSONField(default=dict, blank=True)
    determined_on = models.DateField()
    service_method = models.CharField(max_length=20, choices=Service.choices, blank=True)
    mailed_on = models.DateField(null=True, blank=True)
    served_on = models.DateField(null=True, blank=True)
    received_on = models.DateField(null=True, blank=True)
    refused = models.BooleanField(default=False)
    posted_on = models.DateField(null=True, blank=True)
    effective_on = models.DateField("notice effective on", null=True, blank=True)
    written_notice_on = models.DateField("written notification (DNA test) on", null=True, blank=True)
    contest_requested_on = models.DateField(null=True, blank=True)
    contest_timely = models.BooleanField(null=True, blank=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.IN_FORCE)
    status_reason = models.CharField(max_length=300, blank=True)
    # River Hills § 2.14(6)[h]: a dog declared dangerous or vicious by another agency
    declared_by = models.CharField("declared by (agency, municipality, county or state)", max_length=200, blank=True)
    moved_in_on = models.DateField("moved into the municipality on", null=True, blank=True)
    owner_notified_on = models.DateField("the owner notified the police and the clerk on", null=True, blank=True)
    registered_on = models.DateField("registered here on", null=True, blank=True)

    IN_FORCE_STATUSES = (Status.IN_FORCE, Status.AFFIRMED, Status.MODIFIED)

    def __str__(self):
        return f"{self.animal} declared {self.get_classification_display().lower()} on {shown(self.determined_on)}"

    @property
    def in_force(self):
        """Not reversed, overturned or waived."""
        return self.status in self.IN_FORCE_STATUSES

    @property
    def contested(self):
        return bool(self.contest_timely) or self.appeals.filter(timely=True).exists()


class Requirement(Scoped):
    """One thing the owner must do after a declaration, its deadline and the proof given."""

    declaration = models.ForeignKey(Declaration, on_delete=models.PROTECT, related_name="requirements")
    name = models.CharField(max_length=60)
    mandatory = models.BooleanField(default=True)
    imposed = models.BooleanField(default=True, help_text="a discretionary requirement is imposed by the officer")
    deadline = models.DateField(null=True, blank=True)
    stayed = models.BooleanField(default=False)
    amount = models.DecimalField(max_digits=11, decimal_places=2, null=True, blank=True)
    citations = models.JSONField(default=list, blank=True)
    proof = models.CharField(max_length=300, blank=True)
    proof_on = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ["deadline", "pk"]

    def __str__(self):
        return self.name.replace("_", " ")


class EscapeNotification(Scoped):
    """§ 2.14(6)[e](1)(viii) "Notification of Escape": the declared dog escaped and was at large,
    or bit or attacked a person or domestic animal, and when and how its owner or keeper told the
    police. "Immediately" has no number: whether the notice was immediate is the officer's finding."""

    class Event(models.TextChoices):
        ESCAPED_AT_LARGE = "escaped_at_large", "Escaped its enclosure or restraint and was at large"
        BIT_OR_ATTACKED_PERSON = "bit_or_attacked_person", "Bit or attacked a person"
        BIT_OR_ATTACKED_DOMESTIC_ANIMAL = "bit_or_attacked_domestic_animal", "Bit or attacked a domestic animal"

    class Method(models.TextChoices):
        TELEPHONE = "telephone", "By telephone"
        IN_PERSON = "in_person", "In person"
        IN_WRITING = "in_writing", "In writing"
        NOT_NOTIFIED = "not_notified", "Not notified — the police learned otherwise"

    declaration = models.ForeignKey(Declaration, on_delete=models.PROTECT, related_name="escape_notifications")
    event = models.CharField(max_length=40, choices=Event.choices)
    occurred_at = models.DateTimeField("happened at")
    description = models.TextField(blank=True)
    notice_method = models.CharField("the owner or keeper notified the police", max_length=20, choices=Method.choices)
    notified_at = models.DateTimeField("notified the police at", null=True, blank=True)
    immediate = models.BooleanField("the notice was immediate (the officer's finding)", default=False)
    decision = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["occurred_at", "pk"]

    def __str__(self):
        return f"{self.get_event_display()} on {shown(self.occurred_at)}"


class ComplianceFailure(Scoped):
    """The officer's finding that the owner of a declared dog failed to comply with its
    requirements, and what the law made of it (River Hills § 2.14(6)[e](1)(ix)): the license it
    revoked; the vicious-dog permit is revoked from this day (ViciousDogPermit.revoked_by)."""

    declaration = models.ForeignKey(Declaration, on_delete=models.PROTECT, related_name="compliance_failures")
    found_on = models.DateField()
    failure = models.TextField("what the owner failed to comply with")
    revoked_license = models.ForeignKey(License, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    decision = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["found_on", "pk"]

    def __str__(self):
        return f"Failure to comply found on {shown(self.found_on)}"


class Hearing(Scoped):
    class Outcome(models.TextChoices):
        AFFIRMED = "affirmed", "Affirmed"
        MODIFIED = "modified", "Modified"
        REVERSED = "reversed", "Reversed"

    declaration = models.ForeignKey(Declaration, on_delete=models.PROTECT, related_name="hearings")
    scheduled_on = models.DateField()
    time = models.TimeField(null=True, blank=True)  # null only on hearings scheduled before it was asked
    place = models.CharField(max_length=200)
    interested_parties = models.TextField("interested parties notified by regular mail", blank=True)
    window = models.JSONField(default=dict, blank=True)
    held_on = models.DateField(null=True, blank=True)
    outcome = models.CharField(max_length=10, choices=Outcome.choices, blank=True)
    classification = models.CharField(max_length=25, choices=Declaration.Classification.choices, blank=True)
    findings = models.TextField(blank=True)
    comply_by = models.DateField("compliance schedule: comply by", null=True, blank=True)
    decision_sent_on = models.DateField(null=True, blank=True)
    decision_received_on = models.DateField(null=True, blank=True)

    def __str__(self):
        return f"Hearing on {shown(self.scheduled_on)}"

    @property
    def when(self) -> str:
        """`March 12, 2026 at 10:00 AM` (the date alone on a hearing scheduled without a time)."""
        day = f"{self.scheduled_on:%B} {self.scheduled_on.day}, {self.scheduled_on.year}"
        if self.time is None:
            return day
        return f"{day} at {self.time.hour % 12 or 12}:{self.time:%M} {'AM' if self.time.hour < 12 else 'PM'}"


class Appeal(Scoped):
    class Outcome(models.TextChoices):
        UPHELD = "upheld", "Determination upheld"
        OVERTURNED = "overturned", "Determination overturned"

    declaration = models.ForeignKey(Declaration, on_delete=models.PROTECT, related_name="appeals")
    filed_on = models.DateField()
    to = models.CharField(max_length=200)
    timely = models.BooleanField(null=True, blank=True)
    stay_granted = models.BooleanField(default=False)
    decided_on = models.DateField(null=True, blank=True)
    outcome = models.CharField(max_length=12, choices=Outcome.choices, blank=True)

    def __str__(self):
        return f"Appeal filed {shown(self.filed_on)}"


def as_cited(violation: str) -> str:
    """The section violated as the law cites it: an ordinance's "98-6" is "§ 98-6"; a statute
    already reads "s. 174.042" and takes no "§"."""
    return violation if violation.startswith(("s. ", "ss. ", "§")) else f"§ {violation}"


class Citation(Scoped):
    """A citation for a violation: the offense number from the person's history and the
    engine's forfeiture. Voided, never deleted; a later license does not erase it."""

    case = models.OneToOneField(Case, on_delete=models.PROTECT, related_name="citation")
    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="citations")
    animal = models.ForeignKey(Animal, null=True, blank=True, on_delete=models.PROTECT)
    violation = models.CharField(max_length=60, help_text="the section violated, e.g. 98-6 or s. 174.042")
    description = models.CharField(max_length=300)
    violated_on = models.DateField()
    days = models.PositiveSmallIntegerField(default=1, help_text="days the violation continued")
    offense_number = models.PositiveSmallIntegerField()
    minimum = models.DecimalField(max_digits=9, decimal_places=2, null=True)
    maximum = models.DecimalField(max_digits=9, decimal_places=2, null=True)
    forfeiture = models.DecimalField(max_digits=9, decimal_places=2)
    plus_costs = models.BooleanField(default=False)
    costs = models.DecimalField(max_digits=9, decimal_places=2, default=0)
    decision = models.JSONField(default=dict, blank=True)
    issued_on = models.DateField(default=today)
    court_date = models.DateField(null=True, blank=True)
    paid_on = models.DateField(null=True, blank=True)
    cured_on = models.DateField(null=True, blank=True)
    cure_note = models.CharField(max_length=300, blank=True)
    voided_at = models.DateTimeField(null=True, blank=True)
    void_reason = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["-issued_on", "-pk"]

    def __str__(self):
        return f"Citation #{self.pk}: {self.violation_cited}, {self.person}"

    @property
    def violation_cited(self) -> str:
        return as_cited(self.violation)


class CalendarKey(models.Model):
    """A per-user salt for the calendar feed's secret URL; rotating it revokes the old URL."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_key")
    salt = models.CharField(max_length=64)
