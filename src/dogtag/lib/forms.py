"""The pieces every app's forms are built from. Forms parse the input; the actions validate it
against the law, so the web, the API and any command apply the same checks."""

from django import forms


class Form(forms.Form):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)


class ActionForm(forms.ModelForm):
    """Parses the fields; the action validates the record (model clean and rules), so the
    same checks apply to the web, the API and the CLI."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)

    def _post_clean(self):
        pass


class DateInput(forms.DateInput):
    input_type = "date"


class ScopedForm(Form):
    """Every choice of a row (animal, person, premises) limited to the record's municipality."""

    def __init__(self, *args, municipality, **kwargs):
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            if isinstance(field, forms.ModelChoiceField):
                field.queryset = field.queryset.filter(municipality=municipality)
