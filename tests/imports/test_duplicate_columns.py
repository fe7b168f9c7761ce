"""A roll with a column Dogtag reads twice is refused whole, naming the column (issue 27, finding 9)."""

from dogtag.imports.files import RollError
from tests.base import BaseTestCase
from tests.imports.test_import import HEADER, plan, roll, row


class DuplicateColumnTests(BaseTestCase):
    def test_a_roll_with_a_column_twice_is_refused_naming_it(self):
        content = roll([*row(), "2020-01-01"], header=[*HEADER, "birth_date"])
        with self.assertRaisesMessage(RollError, "has the column 'birth_date' 2 times"):
            plan(self.benton, "roll.csv", content)

    def test_a_column_dogtag_does_not_read_may_repeat(self):
        content = roll([*row(), "x", "y"], header=[*HEADER, "notes", "notes"])
        self.assertEqual(plan(self.benton, "roll.csv", content).problems, [])
