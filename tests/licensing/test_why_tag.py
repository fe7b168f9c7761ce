"""The counter's "why?" of a figure, rendered once for each set of citations and language."""

from django.test import SimpleTestCase
from django.utils import translation

from dogtag.licensing.templatetags.counter import why
from dogtag.rules.decision import Citation

CITES = [Citation("benton", "§ 115-3A(1)", "Every owner of a dog more than five months of age …")]


class WhyTests(SimpleTestCase):
    def test_each_language_gets_its_own_rendering_of_the_same_citations(self):
        with translation.override("en"):
            self.assertIn("<summary>why?", why(CITES))
        with translation.override("es"):
            self.assertIn("<summary>¿por qué?", why(CITES))
        with translation.override("en"):
            self.assertIn("<summary>why?", why(CITES))
