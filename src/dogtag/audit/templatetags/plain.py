"""The clerk's words for the names Dogtag keeps inside: `proof_of_ownership` is "proof of
ownership", an audit event's `hearing.decide` is "Hearing decided"."""

from django import template

from dogtag.audit.display import action_label, words

register = template.Library()
register.filter("words", words)
register.filter("action_label", action_label)
