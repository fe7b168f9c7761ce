"""A decision resting on a section whose adopted text Dogtag lacks (the pack's `text_gaps`).

The answer keeps what the text holds up to the cut, cites the cut-off or missing section with
what staff must do ("the adopted text of § 98-23 after B(5) is not in Dogtag: ask the clerk for
it"), and drops any note saying the law sets nothing: with the text cut off, nobody knows that.
A section the answer already cites with the words where its text stops (Sampson Section 9's
"penalized by the Town of") is cited once: that citation says the text is incomplete.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

from .decision import Citation, Decision

# The engine's words for "this law has no such rule" (dangerous_dogs._section, keeping, animals).
_SETS_NONE = re.compile(r"\bsets no\b|\bno rule\b|\bsets none\b|\bhas no\b", re.I)
_WHOLE_LAW = re.compile(r"^(?:this|the) (?:ordinance|law|text)\b", re.I)


def _says_none(note: str, gaps: Sequence[Citation]) -> bool:
    """A note saying the law (or a cut-off section) sets nothing: untrue while the text is cut off.
    A note on another section ("§ 115-4 sets no offense") stands."""
    if not _SETS_NONE.search(note):
        return False
    return bool(_WHOLE_LAW.search(note)) or any(g.section in note for g in gaps)


def with_gaps(decision: Decision, gaps: Sequence[Citation]) -> Decision:
    if not gaps:
        return decision
    notes = tuple(n for n in decision.notes if not _says_none(n, gaps))
    notes += tuple(dict.fromkeys(g.incomplete for g in gaps if g.incomplete))
    citations, added = list(decision.citations), []
    for gap in gaps:
        same = next((i for i, c in enumerate(citations) if _same_words(c, gap)), None)
        if same is None:
            added.append(gap)
        else:
            citations[same] = dataclasses.replace(citations[same], incomplete=gap.incomplete)
    return Decision(decision.value, (*citations, *added), notes, decision.not_set)


def _same_words(cited: Citation, gap: Citation) -> bool:
    """`cited` quotes the gap's section up to where its text stops (a missing section has no words)."""
    return (cited.jurisdiction, cited.section) == (gap.jurisdiction, gap.section) and gap.quote in cited.quote
