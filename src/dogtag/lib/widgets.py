"""A form field's label and input written in Python, as Django's own form templates write them:
the attributes come from Django (`BoundField.build_widget_attrs`, the widget's `get_context`) and
only the markup of `input.html`, `select.html`, `select_option.html` and `label.html` is written
here, so the HTML is the same byte for byte (tests/lib/test_widgets.py compares the two). A widget
with another template (a textarea, radio buttons, a widget of our own) is left to Django.
"""

from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe

INPUT_TEMPLATES = {
    f"django/forms/widgets/{name}.html"
    for name in ("text", "number", "email", "url", "password", "hidden", "date", "datetime", "time", "search", "tel")
}
SELECT_TEMPLATES = {"django/forms/widgets/select.html"}
OPTION_TEMPLATE = "django/forms/widgets/select_option.html"


def _attrs(attrs: dict) -> str:
    """django/forms/widgets/attrs.html: ` name="value"`, a bare name for True, nothing for False."""
    return "".join(
        f" {conditional_escape(name)}" + ("" if value is True else f'="{conditional_escape(value)}"')
        for name, value in attrs.items()
        if value is not False
    )


def widget_html(field) -> SafeString:
    """`str(field)` (BoundField.as_widget) for text-like inputs and single selects."""
    widget = field.field.widget
    template = widget.template_name
    if (template not in INPUT_TEMPLATES and template not in SELECT_TEMPLATES) or field.field.localize:
        return field.as_widget()
    attrs = field.build_widget_attrs({}, widget)
    if field.auto_id and "id" not in widget.attrs:
        attrs.setdefault("id", field.auto_id)
    context = widget.get_context(field.html_name, field.value(), attrs)["widget"]
    name = conditional_escape(context["name"])
    if template in INPUT_TEMPLATES:
        value = context["value"]
        shown = "" if value is None else f' value="{conditional_escape(value)}"'
        kind = conditional_escape(context["type"])
        return mark_safe(f'<input type="{kind}" name="{name}"{shown}{_attrs(context["attrs"])}>')
    parts = [f'<select name="{name}"{_attrs(context["attrs"])}>']
    for group_name, options, _ in context["optgroups"]:
        if group_name:
            parts.append(f'\n  <optgroup label="{conditional_escape(group_name)}">')
        for option in options:
            if option["template_name"] != OPTION_TEMPLATE:
                return field.as_widget()
            parts.append(  # the option's template ends its line
                f'\n  <option value="{conditional_escape(option["value"])}"{_attrs(option["attrs"])}>'
                f"{conditional_escape(option['label'])}</option>\n"
            )
        if group_name:
            parts.append("\n  </optgroup>")
    parts.append("\n</select>")
    return mark_safe("".join(parts))


def label_html(field) -> SafeString:
    """`field.label_tag()` for a form without a label suffix or a required-field class."""
    form = field.form
    suffix = field.field.label_suffix if field.field.label_suffix is not None else form.label_suffix
    if suffix or hasattr(form, "required_css_class"):
        return field.label_tag()
    if not (field.field.widget.attrs.get("id") or field.auto_id):
        return conditional_escape(field.label)
    if not field.id_for_label:
        return format_html("<label>{}</label>", field.label)
    return format_html('<label for="{}">{}</label>', field.id_for_label, field.label)
