"""lib/widgets.py writes a field's label and input as Django's form templates do, byte for byte:
each field of the counter's form and of forms with other widgets, unbound, bound with errors and
bound with values that need escaping."""

from django import forms
from django.test import SimpleTestCase

from dogtag.lib.forms import DateInput, Form
from dogtag.lib.widgets import label_html, widget_html
from dogtag.licensing.forms import IssueForm, VoidForm


class Everything(Form):
    name = forms.CharField(max_length=20, help_text="As on the certificate")
    count = forms.IntegerField(min_value=0, max_value=9)
    born = forms.DateField(widget=DateInput())
    email = forms.EmailField(required=False)
    secret = forms.CharField(widget=forms.HiddenInput, required=False)
    kind = forms.ChoiceField(choices=[("", "—"), ("a", "A & <b>"), ("Group", [("g1", "G 1"), ("g2", "G 2")])])
    many = forms.MultipleChoiceField(choices=[("x", "X"), ("y", "Y")], required=False)
    notes = forms.CharField(widget=forms.Textarea, required=False)  # another template: Django's own
    flag = forms.BooleanField(required=False)  # a checkbox: Django's own
    fixed = forms.CharField(disabled=True, required=False, label='Said "so"')


class WidgetTests(SimpleTestCase):
    def assert_same(self, form):
        for field in form:
            with self.subTest(field=field.name, bound=form.is_bound):
                self.assertEqual(widget_html(field), str(field))
                self.assertEqual(label_html(field), field.label_tag())

    def test_the_counter_form_as_the_page_first_shows_it(self):
        self.assert_same(IssueForm(initial={"amount": "15.00", "method": "cash"}))

    def test_the_counter_form_with_errors(self):
        form = IssueForm({"method": "bitcoin", "amount": "1.234", "tag_serial": "0", "check_number": "x" * 40})
        self.assertFalse(form.is_valid())
        self.assertIn('aria-invalid="true"', widget_html(form["amount"]))
        self.assertIn('aria-describedby="id_tag_serial_error"', widget_html(form["tag_serial"]))
        self.assert_same(form)

    def test_values_that_need_escaping(self):
        form = IssueForm({"method": "check", "amount": "10", "check_number": '"><script>x</script>'})
        self.assertIn("&quot;&gt;&lt;script&gt;", widget_html(form["check_number"]))
        self.assert_same(form)

    def test_a_blank_choice_and_a_void_form(self):
        self.assert_same(VoidForm())
        self.assert_same(VoidForm({"reason": "", "refund_method": ""}))

    def test_other_widgets_required_help_text_groups_and_a_prefix(self):
        self.assert_same(Everything())
        bound = Everything({"name": "<Rex>", "count": "12", "born": "nope", "kind": "g2", "many": ["x", "y"]})
        self.assertFalse(bound.is_valid())
        self.assert_same(bound)
        self.assert_same(Everything(prefix="p", auto_id="f_%s"))
        self.assert_same(Everything(auto_id=False))
