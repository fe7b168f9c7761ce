from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from dogtag.lib.contact_fields import PhoneField, ZipCodeField
from dogtag.lib.dates import today
from dogtag.lib.forms import DateInput, Form
from dogtag.lib.uploads import UploadField
from dogtag.licensing.payment_fields import PaymentFields
from dogtag.portal.models import MunicipalityContact
from dogtag.portal.quote import held_documents, licensed_species
from dogtag.registry.models import Animal, Municipality, birth_date_too_early, earliest_birth_date

# The fields a resident fills in, in the order the page shows them; `data` keeps them as typed.
OWNER = ("name", "street", "city", "postal_code", "phone")
DOG = ("species", "animal_name", "breed", "color", "sex", "altered", "birth_date", "acquired_on")
RABIES = (
    "certificate_serial",
    "vaccinated_on",
    "expires_on",
    "vaccine_type",
    "vaccine_serial",
    "rabies_tag_number",
    "veterinarian_name",
    "veterinarian_address",
    "veterinarian_phone",
)
TEXT_FIELDS = OWNER + DOG + RABIES


class StartForm(Form):
    municipality = forms.ModelChoiceField(
        Municipality.objects.all(), label=_("Where do you live?"), empty_label=_("Choose your village, town or city")
    )
    email = forms.EmailField(
        label=_("Your email address"), help_text=_("We email you a link to come back to your application.")
    )
    license_year = forms.TypedChoiceField(coerce=int, empty_value=None, required=False, label=_("License year"))

    def __init__(self, *args, years: list[int], **kwargs):
        """`years`: the license years on sale in any municipality; a choice only in December,
        once a clerk holds next year's tags."""
        super().__init__(*args, **kwargs)
        if len(years) > 1:
            self.fields["license_year"].choices = [(y, gettext("%(year)s license") % {"year": y}) for y in years]
            # The year a clerk would choose: next year's, this year's expiring December 31.
            self.fields["license_year"].initial = years[-1]
            self.fields["license_year"].help_text = gettext(
                "Next year's licenses go on sale before January 1; a %(next)s license is valid "
                "through December 31, %(next)s, while a %(this)s license would expire on December 31, "
                "%(this)s. Choose %(this)s only if your animal still needs a license for %(this)s."
            ) % {"next": years[-1], "this": years[0]}
        else:
            del self.fields["license_year"]


def _date(label, **kw):
    return forms.DateField(label=label, widget=DateInput(), **kw)


class ApplicationForm(Form):
    """Parses what the resident typed; every message says what to enter, in plain words."""

    name = forms.CharField(label=_("Your full name"), max_length=200)
    street = forms.CharField(label=_("Street address"), max_length=200)
    city = forms.CharField(label=_("City"), max_length=100)
    postal_code = ZipCodeField(label=_("ZIP code"))
    phone = PhoneField(label=_("Phone (optional)"), required=False)
    species = forms.ChoiceField(label=_("Dog or cat?"), required=False)
    animal_name = forms.CharField(label=_("Dog's name"), max_length=100)
    breed = forms.CharField(label=_("Breed"), max_length=100)
    color = forms.CharField(label=_("Color"), max_length=100)
    sex = forms.ChoiceField(label=_("Sex"), choices=[("", _("Choose")), *Animal.Sex.choices[:2]])  # male, female
    altered = forms.BooleanField(label=_("My dog is spayed or neutered"), required=False)
    birth_date = _date(_("Birth date (an estimate is fine)"))
    acquired_on = _date(_("Date you got the dog (optional)"), required=False)
    certificate_serial = forms.CharField(label=_("Rabies certificate number"), max_length=50)
    vaccinated_on = _date(_("Date of the rabies shot"))
    expires_on = _date(_("Rabies certificate expires on"))
    vaccine_type = forms.CharField(label=_("Vaccine type (as on the certificate)"), max_length=100)
    vaccine_serial = forms.CharField(label=_("Vaccine serial or lot number"), max_length=100)
    rabies_tag_number = forms.CharField(label=_("Rabies tag number"), max_length=50)
    veterinarian_name = forms.CharField(label=_("Veterinarian's name"), max_length=200)
    veterinarian_address = forms.CharField(label=_("Veterinarian's address"), max_length=300)
    veterinarian_phone = PhoneField(label=_("Veterinarian's phone"))
    rabies_certificate_file = UploadField(
        label=_("Photo or PDF of the rabies certificate"), required=False, help_text=_("JPEG, PNG or PDF, up to 5 MB.")
    )
    altered_evidence_file = UploadField(
        label=_("Photo or PDF showing the dog is spayed or neutered (only if it is)"),
        required=False,
        help_text=_("For example the veterinarian's record. JPEG, PNG or PDF, up to 5 MB."),
    )

    def __init__(self, *args, application=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.application = application
        # The animals the municipality's ordinance licenses (its pack): a choice only where it
        # licenses more than dogs (Cedarburg § 7-1-3(a)(1): "any dog or cat").
        self.licensed = licensed_species(application.municipality) if application else ("dog",)
        if len(self.licensed) > 1:
            self.fields["species"].required = True
            self.fields["species"].choices = [("", _("Choose"))] + [(s, Animal.Species(s).label) for s in self.licensed]
            self.fields["animal_name"].label = _("Your animal's name")
            self.fields["altered"].label = _("My animal is spayed or neutered")
            self.fields["acquired_on"].label = _("Date you got the animal (optional)")
            self.fields["altered_evidence_file"].label = _(
                "Photo or PDF showing the animal is spayed or neutered (only if it is)"
            )
        else:
            del self.fields["species"]

    def clean(self):
        data = super().clean()
        data.setdefault("species", self.licensed[0])
        on = today()
        born, shot, expires = data.get("birth_date"), data.get("vaccinated_on"), data.get("expires_on")
        if born and born > on:
            self.add_error("birth_date", gettext("The birth date cannot be in the future."))
        elif born and born < earliest_birth_date():
            self.add_error("birth_date", birth_date_too_early(born))
        if shot and shot > on:
            self.add_error("vaccinated_on", gettext("The date of the rabies shot cannot be in the future."))
        if shot and born and shot < born:
            self.add_error("vaccinated_on", gettext("The rabies shot cannot be before the birth date."))
        if shot and expires and expires <= shot:
            self.add_error("expires_on", gettext("The expiry date must be after the date of the shot."))
        app = self.application
        if app is not None:
            held = held_documents(app, data.get("certificate_serial"), on)
            if not app.rabies_certificate and not held["rabies"]:
                self.add_error("rabies_certificate_file", gettext("Upload a photo or PDF of the rabies certificate."))
            if data.get("altered") and not app.altered_evidence and not held["altered"]:
                self.add_error(
                    "altered_evidence_file",
                    gettext(
                        "Upload the evidence that your dog is spayed or neutered (Wis. Stats. s. 174.05(2): "
                        "the lower tax is charged on evidence), or untick “spayed or neutered”."
                    ),
                )
        return data


def draft_values(post) -> dict:
    """What the resident typed, valid or not, to keep in the draft."""
    values = {name: post.get(name, "").strip() for name in TEXT_FIELDS if name != "altered"}
    values["altered"] = post.get("altered") in ("on", "true", "1", "True")
    return values


class PayForm(Form):
    """How the resident will pay; never a card number (the processor's own page takes the card)."""

    provider = forms.ChoiceField(label=_("How will you pay?"), widget=forms.RadioSelect)

    def __init__(self, *args, providers, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["provider"].choices = [(p.key, p.label) for p in providers]
        self.fields["provider"].initial = providers[0].key if providers else None


class ApproveForm(PaymentFields):
    tag_serial = forms.IntegerField(
        required=False, min_value=1, label="Tag in hand (type or scan; blank: next in stock)"
    )


class RejectForm(Form):
    reason = forms.CharField(
        label="Why it is not approved (emailed to the resident)",
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 3}),
    )


class LookupForm(Form):
    q = forms.CharField(label=_("License tag or rabies tag number"), max_length=50)


class RenewalCodeForm(Form):
    code = forms.CharField(
        label=_("Renewal code"),
        max_length=20,
        help_text=_("The 8 letters and digits printed on your renewal notice, like 7KQ4-M2XD"),
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"}),
    )
    email = forms.EmailField(
        label=_("Your email address (only if we ask for it)"),
        required=False,
        help_text=_("Needed only if we have none on record for you: your renewal's link goes there."),
    )


class ChipForm(Form):
    chip = forms.CharField(
        label=_("Microchip number"),
        max_length=50,
        help_text=_(
            "15 digits, or 9 or 10 letters and digits on older chips, as a vet's or shelter's scanner shows it"
        ),
    )


class ContactForm(forms.ModelForm):
    class Meta:
        model = MunicipalityContact
        fields = ["clerk_office", "office_address", "clerk_phone", "clerk_hours", "police_name", "police_phone",
                  "police_hours"]  # fmt: skip
        field_classes = {"clerk_phone": PhoneField, "police_phone": PhoneField}
        labels = {
            "clerk_office": "Office",
            "office_address": "Office address",
            "clerk_phone": "Office phone",
            "clerk_hours": "Office hours",
            "police_name": "Police (or humane officer) line",
            "police_phone": "Police phone",
            "police_hours": "Police hours",
        }
