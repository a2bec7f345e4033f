"""What `ReviewSession` (screens/session.py) gives the panes: the records pane's rows and the
header's counts."""

from __future__ import annotations

from typing import NamedTuple

from evidence.model import Record


class Row(NamedTuple):
    """One row of the records pane: a report title, a section or group heading or a record."""

    kind: str  # "report", "section", "group" (of SARIF results) or "record"
    text: str
    record: Record | None = None
    position: int = -1  # of the record in ReviewSession.records
    detail: str = ""  # a group's count and severity


class Progress(NamedTuple):
    """The header's counts: records and quotes apart; skipped ones are not reviewed."""

    records: int
    quotes: int
    failing: int  # quotes whose anchor fails (fuzzy, missing, claimed range wrong)
    records_reviewed: int
    records_refuted: int
    records_skipped: int
    quotes_reviewed: int
    quotes_refuted: int
    quotes_skipped: int
