"""What a record read from SARIF says about its result: baseline state and suppression.

Read back from the record's fields and statuses (evidence/sarif/results.py writes them), so the
review screen's filters need nothing but the Record.
"""

from __future__ import annotations

from evidence.model import Kind, Record

__all__ = ["baseline_state", "suppression_state"]


def baseline_state(record: Record) -> str | None:
    """The result's ``baselineState`` (new, unchanged, updated, absent), None when not given or
    not a SARIF result."""
    if record.kind is not Kind.RESULT:
        return None
    return next((value for name, value in record.statuses if name == "baseline"), None)


def suppression_state(record: Record) -> str | None:
    """accepted (suppressed), underReview or rejected for a result with suppressions; None for
    one without (or a report's record)."""
    if record.kind is not Kind.RESULT:
        return None
    return next((value for name, value in record.statuses if name == "suppressed"), None)
