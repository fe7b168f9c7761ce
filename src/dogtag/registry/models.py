"""The registry: municipalities, people, premises, animals, owners over time and rabies
certificates. Every row belongs to one Municipality (DESIGN.md, layer rule 3)."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.db.models.functions import Upper
from django.utils.translation import gettext_lazy as _

from dogtag.lib import plausible_dates
from dogtag.lib.dates import shown, today  # noqa: F401 - `today` is the fields' default (migrations name it here)
from dogtag.lib.plausible_dates import BORN, HAPPENED, RUNS
from dogtag.registry.names import person_key


class Municipality(models.Model):
    class Kind(models.TextChoices):
        VILLAGE = "village", "Village"
        TOWN = "town", "Town"
        CITY = "city", "City"

    name = models.CharField(max_length=100)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    county = models.CharField(max_length=100)
    rule_pack = models.CharField(max_length=50, unique=True, help_text="Rule pack id, e.g. wi-benton")
    slug = models.SlugField(unique=True)
    # The municipality's seal, a PNG or JPEG checked by its content (lib/uploads.py), on its
    # screens and its documents; stored through the storage API.
    seal = models.FileField(upload_to="seals/", blank=True)
    # Raised by every ruling recorded or voided (registry/rulings.py): each process's cache of the
    # municipality's ruled packs is keyed by it, so no page queries the rulings to find them unchanged.
    rulings_version = models.PositiveIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["name"]
        verbose_name_plural = "municipalities"

    def __str__(self):
        return f"{self.get_kind_display()} of {self.name}"


class Scoped(models.Model):
    municipality = models.ForeignKey(Municipality, on_delete=models.PROTECT)

    class Meta:
        abstract = True


class Person(Scoped):
    class Kind(models.TextChoices):
        INDIVIDUAL = "individual", "Individual"
        ENTITY = "entity", "Entity (business, shelter, organisation)"

    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.INDIVIDUAL)
    name = models.CharField(max_length=200)
    street = models.CharField("mailing address", max_length=200)
    city = models.CharField(max_length=100)
    state = models.CharField(max_length=2, default="WI")
    postal_code = models.CharField(max_length=10)
    phone = models.CharField(max_length=30, blank=True)
    email = models.EmailField(blank=True)
    language = models.CharField(
        max_length=8, default="en", help_text="the language of the emails and documents sent to them (LANGUAGES)"
    )
    match_key = models.TextField(
        blank=True, editable=False, help_text="name and street normalised (registry/names.py), set by clean()"
    )

    class Meta:
        ordering = ["name"]
        indexes = [models.Index(fields=["municipality", "match_key"], name="person_match_key")]

    def __str__(self):
        return self.name

    def clean(self):
        self.match_key = person_key(self.name, self.street)

    @property
    def address(self):
        return f"{self.street}, {self.city}, {self.state} {self.postal_code}"


class Premises(Scoped):
    class Use(models.TextChoices):
        SINGLE_FAMILY = "single-family", "Single-family"
        MULTI_FAMILY = "multi-family", "Multi-family"
        DUPLEX = "duplex", "Duplex"
        CONDOMINIUM = "condominium", "Condominium"
        BUSINESS = "business", "Business"
        FARM = "farm", "Farm"

    street = models.CharField("address", max_length=200)
    use = models.CharField(max_length=20, choices=Use.choices)
    parcel_number = models.CharField(max_length=50, blank=True)

    class Meta:
        ordering = ["street"]
        verbose_name_plural = "premises"

    def __str__(self):
        return self.street


def earliest_birth_date():
    return plausible_dates.earliest()


def birth_date_too_early(day) -> str:
    return plausible_dates.problem(plausible_dates.Kind.BORN, day, "Birth date")


class Animal(Scoped):
    class Species(models.TextChoices):
        DOG = "dog", _("Dog")
        CAT = "cat", _("Cat")
        HEN = "hen", _("Hen")
        OTHER = "other", _("Other")

    class Sex(models.TextChoices):
        MALE = "male", _("Male")
        FEMALE = "female", _("Female")
        UNKNOWN = "unknown", _("Unknown")

    class Status(models.TextChoices):
        ACTIVE = "active", _("Active")
        DIED = "died", _("Died")
        TRANSFERRED = "transferred", _("Transferred")
        MOVED_AWAY = "moved-away", _("Moved away")
        MISSING = "missing", _("Missing")

    class WorkingStatus(models.TextChoices):
        NONE = "", "None"
        SERVICE = "service", "Service dog"
        LEADER = "leader", "Leader dog for a blind or deaf person"
        LAW_ENFORCEMENT = "law-enforcement", "Law-enforcement dog"
        EDUCATIONAL_SCIENTIFIC = "educational-scientific", "Kept for educational or scientific purposes"

    species = models.CharField(max_length=10, choices=Species.choices, default=Species.DOG)
    name = models.CharField(max_length=100)
    breed = models.CharField(max_length=100, blank=True)
    color = models.CharField(max_length=100, blank=True)
    sex = models.CharField(max_length=10, choices=Sex.choices)
    altered = models.BooleanField("spayed or neutered", default=False)
    altered_evidence = models.CharField(
        "evidence of spaying or neutering",
        max_length=200,
        blank=True,
        help_text="e.g. the veterinarian's certificate, clinic and date",
    )
    birth_date = models.DateField(null=True, blank=True)
    birth_date_estimated = models.BooleanField(default=False)
    acquired_on = models.DateField("date acquired", null=True, blank=True)
    brought_in_on = models.DateField("date brought into the municipality", null=True, blank=True)
    microchip = models.CharField(max_length=30, blank=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.ACTIVE)
    working_status = models.CharField(max_length=25, choices=WorkingStatus.choices, blank=True, default="")
    premises = models.ForeignKey(Premises, null=True, blank=True, on_delete=models.PROTECT)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                fields=["municipality", "microchip"],
                condition=~Q(microchip=""),
                name="unique_microchip_per_municipality",
            )
        ]
        indexes = [
            # A page of a municipality's animals in name order, and a name search, read from the index alone.
            models.Index(fields=["municipality", "name", "status", "species"], name="animals_by_name"),
            models.Index(Upper("microchip"), name="animal_microchip_upper"),
        ]

    def __str__(self):
        return f"{self.name} ({self.get_species_display().lower()})"

    @property
    def breed_and_color(self) -> str:
        """`Golden Retriever, golden`; what is on record only, or "not recorded"."""
        return ", ".join(x for x in (self.breed, self.color) if x) or "not recorded"

    def clean(self):
        errors = {}
        plausible_dates.check(errors, BORN, self.birth_date, "birth_date", "Birth date")
        plausible_dates.check(errors, HAPPENED, self.acquired_on, "acquired_on", "Date acquired")
        plausible_dates.check(errors, HAPPENED, self.brought_in_on, "brought_in_on", "Date brought in")
        if self.birth_date and self.acquired_on and self.acquired_on < self.birth_date:
            errors.setdefault(
                "acquired_on",
                f"Date acquired {shown(self.acquired_on)} is before the birth date {shown(self.birth_date)}.",
            )
        if self.birth_date and self.brought_in_on and self.brought_in_on < self.birth_date:
            errors.setdefault(
                "brought_in_on",
                f"Date brought in {shown(self.brought_in_on)} is before the birth date {shown(self.birth_date)}.",
            )
        if self.species == self.Species.HEN and self.sex == self.Sex.MALE:
            errors["sex"] = "A hen is female; a male chicken is a rooster."
        if self.altered and not self.altered_evidence.strip():
            errors["altered_evidence"] = "Say what shows the animal is spayed or neutered (s. 174.05(2): on evidence)."
        if self.microchip:
            clash = Animal.objects.filter(municipality_id=self.municipality_id, microchip=self.microchip).exclude(
                pk=self.pk
            )
            if clash.exists():
                errors["microchip"] = f"Microchip {self.microchip} is already registered to {clash.first()}."
        if errors:
            raise ValidationError(errors)

    def current_owners(self, on=None):
        return self.ownerships.current(on).select_related("person")


class OwnershipQuerySet(models.QuerySet):
    def current(self, on=None):
        on = on or today()
        return self.filter(Q(ended_on__isnull=True) | Q(ended_on__gte=on), started_on__lte=on)


class Ownership(Scoped):
    """Who owns, keeps or harbors an animal, from when to when (s. 174.001(5): 'owner'
    includes one who harbors or keeps a dog)."""

    class Role(models.TextChoices):
        OWNER = "owner", "Owner"
        KEEPER = "keeper", "Keeper"
        HARBORER = "harborer", "Harborer"

    animal = models.ForeignKey(Animal, on_delete=models.PROTECT, related_name="ownerships")
    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="ownerships")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.OWNER)
    started_on = models.DateField()
    ended_on = models.DateField(null=True, blank=True)

    objects = OwnershipQuerySet.as_manager()

    class Meta:
        ordering = ["-started_on"]

    def __str__(self):
        return f"{self.person}, {self.get_role_display().lower()} of {self.animal} from {shown(self.started_on)}"

    def clean(self):
        errors = {}
        plausible_dates.check(errors, RUNS, self.started_on, "started_on", "Start")
        plausible_dates.check(errors, RUNS, self.ended_on, "ended_on", "End")
        if self.ended_on and self.started_on and self.ended_on < self.started_on and "ended_on" not in errors:
            errors["ended_on"] = f"End {shown(self.ended_on)} is before the start {shown(self.started_on)}."
        if errors:
            raise ValidationError(errors)


class RabiesVaccination(Scoped):
    """A veterinarian's rabies vaccination certificate, with the owner and animal as the
    certificate states them at the time (s. 95.21(2))."""

    animal = models.ForeignKey(Animal, on_delete=models.PROTECT, related_name="vaccinations")
    certificate_serial = models.CharField("certificate serial number", max_length=50)
    owner_name = models.CharField("owner's name", max_length=200)
    owner_address = models.CharField("owner's address", max_length=300)
    animal_name = models.CharField("animal's name", max_length=100)
    sex = models.CharField(max_length=10, choices=Animal.Sex.choices)
    altered = models.BooleanField("spayed or neutered")
    breed = models.CharField(max_length=100)
    color = models.CharField(max_length=100)
    vaccinated_on = models.DateField("vaccination date")
    vaccine_type = models.CharField(max_length=100, help_text="e.g. killed virus, 3-year")
    vaccine_serial = models.CharField("manufacturer's serial number", max_length=100)
    expires_on = models.DateField("expiration date")
    veterinarian_name = models.CharField("veterinarian's name", max_length=200)
    veterinarian_address = models.CharField("veterinarian's address", max_length=300)
    veterinarian_phone = models.CharField("veterinarian's telephone", max_length=30)
    rabies_tag_number = models.CharField("rabies tag number", max_length=50)
    voided_at = models.DateTimeField(null=True, blank=True)
    void_reason = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["-vaccinated_on"]
        constraints = [
            models.UniqueConstraint(fields=["municipality", "certificate_serial"], name="unique_certificate_serial")
        ]
        indexes = [
            # The certificates covering a day, read from the index alone (`enforcement.district`).
            models.Index(
                fields=["animal", "voided_at", "expires_on", "vaccinated_on", "rabies_tag_number"],
                name="certificates_in_force",
            ),
            models.Index(Upper("rabies_tag_number"), name="rabies_tag_number_upper"),
        ]

    def __str__(self):
        return f"Rabies certificate {self.certificate_serial} ({shown(self.vaccinated_on)})"

    def clean(self):
        errors = self.date_problems()
        if self.certificate_serial:
            clash = RabiesVaccination.objects.filter(
                municipality_id=self.municipality_id, certificate_serial=self.certificate_serial
            ).exclude(pk=self.pk)
            if clash.exists():
                errors["certificate_serial"] = f"Certificate {self.certificate_serial} is already recorded."
        if errors:
            raise ValidationError(errors)

    def date_problems(self) -> dict:
        """{field: why} for the certificate's dates (a clinic's file checks a batch's serials at once)."""
        errors = {}
        plausible_dates.check(errors, HAPPENED, self.vaccinated_on, "vaccinated_on", "Vaccination date")
        plausible_dates.check(errors, RUNS, self.expires_on, "expires_on", "Expiration date")
        birth = self.animal.birth_date if self.animal_id else None
        if birth and self.vaccinated_on and self.vaccinated_on < birth:
            errors.setdefault(
                "vaccinated_on",
                f"Vaccination date {shown(self.vaccinated_on)} is before the animal's birth date {shown(birth)}.",
            )
        if self.vaccinated_on and self.expires_on and self.expires_on <= self.vaccinated_on:
            errors.setdefault(
                "expires_on",
                f"Expiration date {shown(self.expires_on)} must be after "
                f"the vaccination date {shown(self.vaccinated_on)}.",
            )
        return errors

    @property
    def current_tag_number(self):
        latest = self.duplicate_tags.order_by("-issued_on", "-pk").first()
        return latest.tag_number if latest else self.rabies_tag_number


class DuplicateRabiesTag(Scoped):
    """A replacement rabies tag, written on the certificate it belongs to."""

    vaccination = models.ForeignKey(RabiesVaccination, on_delete=models.PROTECT, related_name="duplicate_tags")
    tag_number = models.CharField("new tag number", max_length=50)
    issued_on = models.DateField()

    class Meta:
        ordering = ["issued_on"]
        indexes = [models.Index(Upper("tag_number"), name="duplicate_tag_number_upper")]

    def __str__(self):
        return f"Duplicate rabies tag {self.tag_number} ({shown(self.issued_on)})"


class Ruling(Scoped):
    """The municipality's ruling on a reading its rule pack leaves pending (`choice`): which reading
    it adopts, by whom (a Board resolution or an attorney's opinion, its number), ruled on
    `ruled_on` and in force from `effective_on`; answers for days before then keep the reading in
    force then. Never deleted: a later ruling on the same reading supersedes it from its own
    effective date; one recorded in error is voided (with its reason) and replaced."""

    class Instrument(models.TextChoices):
        ATTORNEY_OPINION = "attorney_opinion", "Attorney's opinion"
        BOARD_RESOLUTION = "board_resolution", "Board resolution"

    class Adopted(models.TextChoices):
        CHOICE = "choice", "Dogtag's reading"
        OTHER = "other", "The other reading"

    reading_id = models.CharField("reading", max_length=200, help_text="the provision's reading, as its pack names it")
    section = models.CharField(max_length=100, help_text="the section the reading is of, as cited when ruled")
    adopted = models.CharField("reading adopted", max_length=10, choices=Adopted.choices)
    adopted_words = models.TextField(help_text="the adopted reading's words, as the pack stated them when ruled")
    instrument = models.CharField("ruled by", max_length=20, choices=Instrument.choices)
    attorney = models.CharField("attorney's name", max_length=200)
    number = models.CharField("ruling or resolution number", max_length=60)
    ruled_on = models.DateField("date ruled")
    effective_on = models.DateField("effective date")
    note = models.TextField(blank=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(auto_now_add=True)
    voided_at = models.DateTimeField(null=True, blank=True)
    void_reason = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["reading_id", "-effective_on"]
        constraints = [
            models.UniqueConstraint(
                fields=["municipality", "reading_id", "effective_on"],
                condition=Q(voided_at=None),
                name="one_ruling_per_reading_per_day",
            )
        ]

    def __str__(self):
        who = f"{self.get_instrument_display()} {self.number} ({self.attorney})"
        return f"{who} on {self.section}, from {shown(self.effective_on)}"


class Amendment(Scoped):
    """An amendment of the municipality's ordinance, drafted by a clerk or an administrator as an
    overlay on its rule pack (`provisions`, as a pack writes them, quoting `words`), previewed on
    the municipality's records, and adopted once the Board has voted (`resolution`, `voted_on`):
    from `effective_on` every answer reads the amended provisions; answers for earlier days do not
    change. Never deleted: a draft or an adoption recorded in error is voided with its reason."""

    class Kind(models.TextChoices):
        LICENSE_TAX = "license_tax", "License tax"
        LATE_FEE = "late_fee", "Late fee"
        KENNEL_THRESHOLD = "kennel_threshold", "Kennel threshold"
        FORFEITURE_SCHEDULE = "forfeiture_schedule", "Forfeiture schedule"

    kind = models.CharField(max_length=20, choices=Kind.choices)
    title = models.CharField(max_length=200)
    section = models.CharField("section amended", max_length=100)
    words = models.TextField(
        "the amendment's words", help_text="as the Board would adopt them; the figures are quoted from them"
    )
    provisions = models.JSONField(help_text="the rule pack's provisions it replaces, as a pack writes them")
    effective_on = models.DateField("effective date")
    drafted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    drafted_at = models.DateTimeField(auto_now_add=True)
    resolution = models.CharField("resolution number", max_length=60, blank=True)
    voted_on = models.DateField("date of the Board's vote", null=True, blank=True)
    adopted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    adopted_at = models.DateTimeField(null=True, blank=True)
    voided_at = models.DateTimeField(null=True, blank=True)
    void_reason = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["-effective_on", "-pk"]

    def __str__(self):
        return f"{self.title} ({self.section}), from {shown(self.effective_on)}"

    @property
    def adopted(self) -> bool:
        return self.adopted_at is not None and self.voided_at is None

    def described(self) -> str:
        """The instrument, as an answer citing the amendment names it."""
        if self.adopted_at is None:
            return f"draft amendment of {self.section}"
        return f"Board resolution {self.resolution} of {shown(self.voted_on)}"

    @property
    def preview(self):
        """The latest preview asked for, or None."""
        return self.previews.order_by("-pk").first()


class AmendmentPreview(Scoped):
    """The municipality's records run through the law in force and as amended for one license
    year, by the worker (`reports/amendment_preview.py`): `result` holds its figures and the
    affected licenses. Kept apart from the amendment, so its audit events stay small."""

    class State(models.TextChoices):
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    amendment = models.ForeignKey(Amendment, on_delete=models.PROTECT, related_name="previews")
    year = models.PositiveIntegerField("license year")
    state = models.CharField(max_length=10, choices=State.choices, default=State.RUNNING)
    result = models.JSONField(null=True, blank=True)
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    requested_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-pk"]

    def __str__(self):
        return f"Preview of {self.amendment.title} for {self.year}"


class AnimalReport(Scoped):
    """What an owner (on the portal) or a clerk (at the counter) reports of an animal: lost, found
    again, deceased or moved away. Each report sets the animal's status; none is deleted, so the
    animal's history keeps every one (registry/reports.py)."""

    class Kind(models.TextChoices):
        LOST = "lost", _("Reported lost")
        FOUND = "found", _("Found again")
        DIED = "died", _("Deceased")
        MOVED_AWAY = "moved-away", _("Moved away")

    animal = models.ForeignKey(Animal, on_delete=models.PROTECT, related_name="reports")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    happened_on = models.DateField("date it happened")
    note = models.CharField(max_length=300, blank=True)
    # Reported by the owner on the portal (no account: `reported_by` is empty) or by staff.
    by_owner = models.BooleanField(default=False)
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-happened_on", "-pk"]

    def __str__(self):
        return f"{self.animal.name}: {self.get_kind_display().lower()} on {shown(self.happened_on)}"

    @property
    def who(self) -> str:
        return "the owner, online" if self.by_owner else "the clerk's office"


class RenewalCode(Scoped):
    """The short code printed on an animal's renewal notice for one license year: typed on the
    portal's front page, it opens that animal's renewal without an emailed link. Random over an
    unambiguous alphabet (lib/short_codes.py); valid while its license year is on sale."""

    animal = models.ForeignKey(Animal, on_delete=models.PROTECT, related_name="renewal_codes")
    license_year = models.PositiveIntegerField()
    code = models.CharField(max_length=16, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["animal", "license_year"], name="one_renewal_code_per_animal_year")
        ]

    def __str__(self):
        return f"Renewal code for {self.animal.name} ({self.license_year})"
