"""A changed passage's diff around the quote it holds.

Drift follows whole lines. A quote of part of a line (a call in a long statement, a function of
a minified script, a row of a generated table) was told `changed` with the diff of its lines from
their start: on a line of 240,000 characters the first change shown was one far from the quote,
and whether the quoted words themselves changed was not said. The diff is cut to the quote and
some context either side (an ellipsis where it is cut), and a quote still in the counterpart as
it was is said to be so (`Drift.quoted_unchanged`; still `changed`: its lines are).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from evidence.drift_model import Drift, DriftStatus
from evidence.model import Anchor, DiffPart

#: characters of the passage kept either side of the quote in its diff
CONTEXT = 40
_CUT = DiffPart("equal", "…", "…")


def focused(drifts: list[Drift | None], anchors: Sequence[Anchor]) -> list[Drift | None]:
    """Each changed passage's drift about its own quote (`around_quote`)."""
    return [around_quote(d, a.quote.text) for d, a in zip(drifts, anchors, strict=True)]


def around_quote(drift: Drift | None, quote: str) -> Drift | None:
    """``drift`` with its diff cut to the quote and CONTEXT characters either side, and whether
    the quote is in the counterpart unchanged; as it is when the quote is not in the cited
    passage as written (whitespace aside), or is there twice, or its diff says only whitespace
    changed."""
    if drift is None or drift.status is not DriftStatus.CHANGED or not drift.diff:
        return drift
    if drift.whitespace:
        return drift
    passage = "".join(part.quote for part in drift.diff)  # its words, spaces between
    words = quote.split()
    if not words:
        return drift
    found = re.finditer(r"\s+".join(map(re.escape, words)), passage)
    first, second = next(found, None), next(found, None)
    if first is None or second is not None:
        return drift
    start, end = first.span()
    whole = (0, len(passage))
    window = (max(0, start - CONTEXT), min(len(passage), end + CONTEXT))
    diff = drift.diff if window == whole else _cut(drift.diff, window)
    return replace(drift, diff=diff, quoted_unchanged=_intact(drift.diff, start, end))


def _intact(diff: Sequence[DiffPart], start: int, end: int) -> bool:
    """No change touches the cited text from ``start`` to ``end``, nor is inserted inside it."""
    at = 0
    for part in diff:
        after = at + len(part.quote)
        if part.op != "equal":
            if part.quote and at < end and start < after:
                return False
            if not part.quote and start < at < end:
                return False
        at = after
    return True


def _cut(diff: Sequence[DiffPart], window: tuple[int, int]) -> tuple[DiffPart, ...]:
    """The parts of ``diff`` within ``window`` of the cited text: equal text trimmed to it,
    a change across its edge kept whole; an ellipsis where parts were left out."""
    low, high = window
    kept: list[DiffPart] = []
    at = 0
    before = after = False
    for part in diff:
        end = at + len(part.quote)
        if not part.quote:  # only in the counterpart: it stands between two characters
            if low <= at <= high:
                kept.append(part)
            elif at < low:
                before = True
            else:
                after = True
        elif end <= low:
            before = True
        elif at >= high:
            after = True
        elif part.op == "equal" and (at < low or end > high):
            inner = part.quote[max(low - at, 0) : min(high, end) - at]
            before = before or at < low
            after = after or end > high
            kept.append(DiffPart("equal", inner, inner))
        else:
            kept.append(part)
        at = end
    return (*([_CUT] if before else []), *kept, *([_CUT] if after else []))
