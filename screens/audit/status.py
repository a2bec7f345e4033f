"""The audit screen's two fitted lines. Under the systems: the system under the cursor, what is
known of it, the filter, and its repository. The name and the filter are what the line is read
for: the longer wordings, the repository path and then the rest give way first. The header: the
audit's sums, then the reviewer and the audit's directory, each whole or left out."""

from __future__ import annotations

import re
from collections.abc import Sequence

from rich.cells import cell_len

from evidence.text import visible
from screens.audit.systems import FILTERS, AuditEntry, AuditState
from screens.widgets.cut import cut_text

SEP = " · "
#: the fewest cells of a repository path worth showing (its last directories)
MIN_DETAIL = 16


def status_text(
    state: AuditState, entry: AuditEntry | None, width: int, *, listed: bool = True
) -> str:
    """The status line for the system under the cursor (None: none; ``listed`` False: the
    filter leaves none)."""
    name = state.filter
    filters = [f"filter: {name} ({FILTERS[name]})", f"filter: {name}"]
    if entry is None and listed:
        return fit("", [""], filters, "", width).removeprefix(SEP)
    if entry is None:  # say so, and what the filter cannot know yet
        unchecked = state.totals()["unchecked"]
        unknown = (
            f"; {unchecked} not checked yet, not known to fail"
            if unchecked and name == "failing"
            else ""
        )
        more = [f"{each}{unknown}{SEP}f: the next filter" for each in filters]
        return fit(
            "no system shown", [""], [*more, f"filter: {name}{unknown}", filters[-1]], "", width
        )
    repository = "" if entry.system.repository is None else str(entry.system.repository)
    if entry.error:
        states, detail = [entry.error.split("\n", 1)[0]], ""
    elif not entry.available:
        states = [
            "repository not on this machine; its records and quotes are readable, not checked",
            "repository not on this machine (readable, not checked)",
        ]
        detail = repository or "assay.toml names none"
    elif entry.unchecked:
        states = [
            "not checked yet (enter checks it; `assay check` checks every system)",
            "not checked yet (enter checks it)",
        ]
        detail = repository
    elif entry.citations_missing is None:  # its anchors kept without its cited paths
        states = [
            f"quotes checked, {entry.failing or 0:,} failing; cited paths not checked yet (enter"
            " checks them)",
            f"quotes checked, {entry.failing or 0:,} failing; cited paths not yet",
        ]
        detail = repository
    else:
        states = [f"checked, {entry.failing or 0:,} failing, {entry.citations_missing:,} no path"]
        detail = repository
    return fit(entry.name, states, filters, detail, width)


def fit(name: str, states: Sequence[str], filters: Sequence[str], detail: str, width: int) -> str:
    """``name: state · filter · detail`` in ``width`` cells: of the wordings given (longest
    first), the richest that leaves the detail its last MIN_DETAIL cells (its last whole names);
    else without the detail; else the state, then the name, cut."""
    name, detail = _plain(name), _plain(detail)
    heads = [f"{name}: {_plain(state)}" if state else name for state in states]
    pairs = sorted(
        ((head, each) for head in heads for each in filters),
        key=lambda pair: -cell_len(pair[0]) - cell_len(pair[1]),
    )
    for head, shown in pairs if detail else ():
        room = width - cell_len(head + SEP + shown + SEP)
        path = _cut_path(detail, room)
        if path and room >= min(MIN_DETAIL, cell_len(detail)):
            return head + SEP + shown + SEP + path
    for head, shown in pairs:
        if cell_len(head + SEP + shown) <= width:
            return head + SEP + shown
    shown = filters[-1]
    room = max(1, width - cell_len(SEP + shown))
    return cut_text(heads[-1], room) + SEP + shown


def _plain(text: str) -> str:
    return visible(text).replace("\t", " ")


def _cut_path(path: str, width: int) -> str:
    """``path`` in ``width`` cells: whole, else its last whole names after "…" ("…/a/b"); ""
    when not even its last name fits (a name cut short names nothing)."""
    if cell_len(path) <= width:
        return path
    for cut in re.finditer(r"[/\\]", path):  # the longest end that fits
        if cell_len(path[cut.start() :]) + 1 <= width:
            return "…" + path[cut.start() :]
    return ""


#: the reviewer's name is left out rather than cut to fewer cells (with its ellipsis)
MIN_REVIEWER = 6


def header_text(counts: Sequence[str], reviewer: str, path: str, width: int) -> str:
    """The audit's header line in ``width`` cells: ``counts`` (the first always, cut if it
    must be) while each fits whole, then the reviewer (cut, down to MIN_REVIEWER cells) and
    the audit's directory (its last whole names), each left out rather than cut to a stub."""
    head, *rest = counts
    text = cut_text(head, width)
    for part in rest:
        if cell_len(text + SEP + part) > width:
            return text
        text += SEP + part
    reviewer = _plain(reviewer)
    room = width - cell_len(text + SEP)
    if reviewer and room >= min(MIN_REVIEWER, cell_len(reviewer)):
        text += SEP + cut_text(reviewer, room)
    room, path = width - cell_len(text + SEP), _plain(path)
    shown = _cut_path(path, room)
    if shown and room >= min(MIN_DETAIL, cell_len(path)):
        text += SEP + shown
    return text
