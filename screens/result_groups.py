"""The SARIF results of a review as the records pane lists them: grouped by rule, file or severity.

UI-free, like the session that holds it: the facts each result is grouped by are read once, and
each grouping is computed once, as the session is made (evidence/sarif/triage.py groups them).
"""

from __future__ import annotations

from typing import NamedTuple

from evidence.model import Kind, Record, ReportSet
from evidence.sarif.rebase import is_sarif_report
from evidence.sarif.triage import GROUPINGS, Group, by_places, group_results, result_facts

__all__ = ["GROUPING_NOTICES", "GroupHeading", "ResultGroups"]

#: what each grouping shows, in words (the notice when it is chosen)
GROUPING_NOTICES: dict[str, str] = {
    "rule": "SARIF results grouped by rule, the worst rules first",
    "file": "SARIF results grouped by file",
    "severity": "SARIF results grouped by severity, the worst first",
}


class GroupHeading(NamedTuple):
    """A group's heading: its label and what follows it (count, severity, rule name, tool)."""

    label: str
    detail: str


class ResultGroups:
    """The review's results (records of SARIF runs) and the grouping the reviewer chose."""

    def __init__(self, reportset: ReportSet, records: list[Record]) -> None:
        sarif = [report for report in reportset.reports if is_sarif_report(report)]
        tools = {report.file: report.system for report in sarif}
        self.files = frozenset(tools)
        #: the runs' titles, each once, in the order loaded (``ruff 0.17.6 · Bandit 1.9.4``)
        self.title = " · ".join(dict.fromkeys(report.title or report.file for report in sarif))
        self.several_tools = len(set(tools.values())) > 1
        # in file and line order once: each grouping keeps that order within its groups
        self.facts = by_places(
            [
                (n, result_facts(record, tools.get(record.report, "")))
                for n, record in enumerate(records)
                if record.kind is Kind.RESULT and record.report in tools
            ]
        )
        self.grouping = GROUPINGS[0]
        # the first grouping now, the list's order; the others by `prepare` (in the anchoring
        # worker, after the first frame): a key press then only lists them
        self._groups: dict[str, list[Group]] = {
            self.grouping: group_results(self.facts, self.grouping, by_place=True)
        }
        self._records = records
        self._group_of: dict[str, dict[int, Group]] = {}  # grouping -> position -> its group

    def __bool__(self) -> bool:
        return bool(self.facts)

    def prepare(self) -> None:
        """Group the results every other way (off the event loop: each way is a pass over them
        all, 0.1 s at 135,000 results)."""
        for grouping in GROUPINGS:
            if grouping not in self._groups:
                self._groups[grouping] = group_results(self.facts, grouping, by_place=True)

    def groups(self) -> list[Group]:
        """The groups of the current grouping, in the order listed (grouped now when `prepare`
        has not yet: the same groups)."""
        found = self._groups.get(self.grouping)
        if found is None:
            found = self._groups[self.grouping] = group_results(
                self.facts, self.grouping, by_place=True
            )
        return found

    def group_of(self, position: int) -> Group | None:
        """The group of the current grouping a result is listed in (None: not a result)."""
        found = self._group_of.get(self.grouping)
        if found is None:  # made at the first group verdict of each grouping, not at the load
            found = {n: group for group in self.groups() for n in group.members}
            self._group_of[self.grouping] = found
        return found.get(position)

    def list_order(self, count: int) -> list[int]:
        """The positions of ``count`` records in the order listed: the reports' records as
        they come, then the results in their groups."""
        grouped = [position for group in self.groups() for position in group.members]
        if len(grouped) == count:
            return grouped
        return sorted(set(range(count)).difference(grouped)) + grouped

    def next_grouping(self) -> str:
        """Group by the next way of GROUPINGS; returns it."""
        at = GROUPINGS.index(self.grouping)
        self.grouping = GROUPINGS[(at + 1) % len(GROUPINGS)]
        return self.grouping

    def heading(self, group: Group, shown: int) -> GroupHeading:
        """``B608  5 · warning · hardcoded_sql_expressions``: the count (``2/5`` when a filter
        shows only some), the worst severity (rule and file groups), the rule's name and tool."""
        total = len(group.members)
        parts = [f"{shown:,}/{total:,}" if shown != total else f"{total:,}"]
        if self.grouping != "severity":
            parts.append(group.severity)
        if self.grouping == "rule":
            first = self._records[group.members[0]]
            name = next((value for key, value in first.fields if key == "rule name"), "")
            if name and name != group.label:
                parts.append(name)
            if self.several_tools and group.tool:
                parts.append(group.tool)
        label = group.label or ("(no file)" if self.grouping == "file" else "(no rule)")
        return GroupHeading(label, " · ".join(parts))
