"""Drift as the review screen shows it: a record's badge, the rows under a drifted quote, the
line a note records (the drift itself is computed by evidence/drift.py in a worker,
screens/review/drift.py)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from textual.content import Content

from evidence.text import clipped
from screens.safe import visible
from screens.widgets.lists import Row
from screens.widgets.quote_diff import diff_sides

if TYPE_CHECKING:
    from evidence.drift import Drift
    from evidence.drift_files import FileDrift
    from evidence.git.changes import CommitInfo
    from evidence.model import Quote, Record
    from screens.session import ReviewSession

#: one symbol per status; a record shows its quotes' worst (first in this order)
DRIFT_SYMBOLS: dict[str, str] = {
    "deleted": "⊘",
    "file_deleted": "⊘",
    "unreadable": "?",
    "changed": "Δ",
    "moved": "↕",
    "unchanged": "=",
    "not_anchored": " ",
}
DRIFT_STYLES: dict[str, str] = {
    "⊘": "$text-error",
    "Δ": "$text-warning",
    "?": "$text-warning",
    "↕": "$text-accent",
    "=": "$text-muted",
    " ": "",
}
_WORST = list(DRIFT_SYMBOLS)
#: a cited file's own statuses (`FileDrift.status`) as a passage's, for a record's badge
_AS_PASSAGE = {"edited": "unchanged", "renamed": "moved"}
#: the symbol of each of a cited file's own statuses
CITED_SYMBOLS = {**DRIFT_SYMBOLS, "edited": "~", "renamed": "↕"}


def worst_drift(session: ReviewSession, record: Record) -> str:
    """The symbol of the record's worst drift, its quotes' and its cited files' ("" when drift
    is not known); a file cited whole and edited counts as unchanged (the claim may hold)."""
    statuses = [d.status.value for q in record.quotes if (d := session.drifts.get(q))]
    statuses += [_AS_PASSAGE.get(d.status, d.status) for d in session.record_cited_drifts(record)]
    if not session.drifts and not session.cited_drifts:
        return ""
    if not statuses:
        return " "
    return DRIFT_SYMBOLS[min(statuses, key=_WORST.index)]


def _span(drift: Drift) -> str:
    if drift.lines is None:
        return ""
    first, last = drift.lines
    return f":{first}" if first == last else f":{first}-{last}"


def drift_summary(drift: Drift, short: str) -> str:
    """One line for a note: ``at 8df75ac: changed, now api/auth.py:39-46 (score 87), 1 commit``."""
    status = drift.status.value.replace("_", " ")
    text = f"at {short}: {status}"
    if drift.status.value == "unreadable":
        text += f", {drift.why or f'{drift.path}: its text cannot be read here'}"
    elif drift.path and drift.status.value not in ("deleted", "file_deleted"):
        text += f", now {drift.path}{_span(drift)}"
    elif drift.path and drift.near is not None:
        text += f" (its place: {drift.path}:{drift.near[0]}-{drift.near[1]})"
    if drift.elsewhere:  # moved out of its file: every other file that holds it verbatim
        others = "".join(f"; also {path}:{a}-{b}" for path, (a, b) in drift.elsewhere[1:])
        text += f" (left its file{others})"
    if drift.renamed_from:
        text += f" (renamed from {drift.renamed_from})"
    if drift.whitespace:
        text += f" (only whitespace: {drift.whitespace})"
    elif drift.status.value == "changed":
        unchanged = ", the quoted text unchanged" if drift.quoted_unchanged else ""
        text += f" (score {drift.score:.0f}{unchanged})"
    if drift.commits:
        ids = ", ".join(commit.id[:7] for commit in drift.commits)
        text += f"; commits {ids}"
    return text


def cited_drift_summary(drift: FileDrift, short: str) -> str:
    """One line for a cited file at the newer revision: ``at 8df75ac: edited by 2 commits``,
    ``renamed to lib/a.py``, or its lines' drift as a passage's (without the commits)."""
    now = drift.drift
    if drift.lines is not None:
        return drift_summary(now, short).split("; commits")[0]
    moved = f", now {now.path}" if now.renamed_from else ""
    if drift.status == "edited":
        count = len(now.commits)
        by = f" by {count} commit{'s' if count != 1 else ''}" if count else " (its text differs)"
        return f"at {short}: edited{by}{moved}"
    if drift.status == "renamed":
        return f"at {short}: renamed to {now.path}"
    if drift.status == "unchanged":
        return f"at {short}: unchanged"
    return drift_summary(now, short).split("; commits")[0]


def cited_drifts_line(drifts: list[FileDrift], short: str) -> str:
    """A record's cited files at the newer revision in one line for its note: ``drift of cited
    files at 8df75ac: api/server.py edited by 1 commit; worker/src/digest.js file deleted``."""
    said = []
    for drift in drifts:
        named = drift.path if drift.lines is None else f"{drift.path}:{_lines(drift.lines)}"
        said.append(f"{named} {cited_drift_summary(drift, short).removeprefix(f'at {short}: ')}")
    return f"drift of cited files at {short}: " + "; ".join(said)


def _lines(span: tuple[int, int]) -> str:
    return str(span[0]) if span[0] == span[1] else f"{span[0]}-{span[1]}"


def drift_rows(session: ReviewSession, quote: Quote, n: int, short: str) -> Iterator[Row]:
    """Under a quote: where its passage is at the newer revision, then one row per commit that
    touched it (enter shows the commit: ``commit-N-K``)."""
    drift = session.drifts.get(quote)
    if drift is None or drift.status.value == "not_anchored":
        return
    symbol = DRIFT_SYMBOLS[drift.status.value]
    yield Row(
        Content.assemble(
            "    ",
            (symbol, DRIFT_STYLES[symbol]),
            " ",
            (visible(drift_summary(drift, short).split("; commits")[0]), "$text-muted"),
        ),
        disabled=True,
    )
    yield from commit_rows(drift.commits, f"commit-{n}")


#: a cited file's commits listed under it (a file cited whole may have hundreds); the rest
#: counted, `assay check --against --format json` lists them all
MAX_FILE_COMMITS = 5


def commit_rows(
    commits: Sequence[CommitInfo], prefix: str, most: int | None = None
) -> Iterator[Row]:
    """One row per commit, newest first (enter shows it: ``PREFIX-K``), the first ``most``."""
    for k, commit in enumerate(commits[:most]):
        subject = clipped(commit.subject, 72)
        yield Row(
            Content.assemble(
                ("      ● ", "$text-accent"),
                (commit.id[:7], "$text-primary"),
                (f" {visible(commit.date[:10])} {visible(commit.author)}: ", "$text-muted"),
                visible(subject),
            ),
            id=f"{prefix}-{k}",
        )
    if most is not None and len(commits) > most:
        more = f"      … {len(commits) - most} more (assay check --against --format json lists all)"
        yield Row(Content.styled(more, "$text-muted"), disabled=True)


def drift_diff_content(drift: Drift | None, short: str, what: str = "passage") -> Content:
    """What `d` shows while the source pane is at REV: the cited passage (``what``: or the
    lines a record names of a cited file) against its counterpart at REV (red: only at the
    cited revision, green: only at REV)."""
    if drift is None:
        return Content.styled("no drift for this quote", "$text-muted")
    said = f"the cited {what} {drift_summary(drift, short)}"
    head = Content.styled(visible(said), "$text-accent")
    if drift.whitespace:  # the same but for whitespace: a diff of words would mark little
        said = "the same text at REV but for its whitespace"
        return Content("\n").join([head, Content.styled(said, "$text-muted")])
    if not drift.diff:
        same = drift.status.value in ("unchanged", "moved")
        said = "the same text at REV" if same else "nothing to compare at REV"
        return Content("\n").join([head, Content.styled(said, "$text-muted")])
    cited, now = diff_sides(drift.diff, ("cited   ", "at REV  "), "underline", " ")
    legend = Content.styled(
        "underlined red: only cited · underlined green: only at REV", "$text-muted"
    )
    return Content("\n").join([head, cited, now, legend])


#: a whole file's diff shown in the diff pane: its first lines, the rest counted (the diff
#: pane lays out every line it is given; the commits under the file show the rest)
MAX_FILE_DIFF_LINES = 500


def file_diff_content(said: str, cited: Sequence[str], now: Sequence[str]) -> Content:
    """What `d` shows for a file cited whole while the source pane shows it at REV: ``said``
    (what became of it), then the file's lines at the cited revision against REV's, as a
    unified diff (red: only at the cited revision, green: only at REV)."""
    import difflib  # on `d` at REV only, not at launch

    patch = list(difflib.unified_diff(cited, now, "cited", "at REV", n=2, lineterm=""))
    parts = [Content.styled(visible(said), "$text-accent")]
    for line in patch[2:MAX_FILE_DIFF_LINES]:  # not the ---/+++ header: the title says it
        parts.append(_patch_line(line))
    if len(patch) > MAX_FILE_DIFF_LINES:
        parts.append(Content.styled(f"… {len(patch) - MAX_FILE_DIFF_LINES} more lines", "i"))
    if not patch:
        parts.append(Content.styled("the same text at REV", "$text-muted"))
    return Content("\n").join(parts)


def commit_content(message: str, patch: str) -> Content:
    """The commit modal's text: its message, then its diff, every line as data."""
    parts: list[Content] = [Content(visible(message.rstrip(), multiline=True)), Content("")]
    for line in patch.splitlines():
        if line.startswith(("+++", "---", "diff ", "index ", "rename ", "similarity ")):
            parts.append(Content.styled(visible(line), "bold"))
        else:
            parts.append(_patch_line(line))
    if not patch.strip():
        parts.append(Content.styled("(no change to the quoted file in this commit)", "i"))
    return Content("\n").join(parts)


def _patch_line(line: str) -> Content:
    """A line of a unified diff's hunk, as data: added green, removed red, a hunk's head."""
    style = {"+": "$text-success", "-": "$text-error"}.get(line[:1], "")
    style = "$text-accent" if line.startswith("@@") else style
    return Content.styled(visible(line), style) if style else Content(visible(line))


def drift_counts_said(drifts: Sequence[Drift], cited: Sequence[FileDrift]) -> str:
    """The drift's notice: how many quotes and cited files are in each state at REV."""
    from evidence.drift_model import drift_counts
    from evidence.drift_report import cited_drift_counts

    counts = drift_counts(list(drifts))
    parts = [", ".join(f"{n} {s.replace('_', ' ')}" for s, n in counts.items() if n)]
    if cited:
        files = cited_drift_counts(list(cited))
        said = ", ".join(f"{n} {s.replace('_', ' ')}" for s, n in files.items() if n)
        parts.append(f"cited files: {said}")
    # a report may quote nothing, or quote and cite nothing at the cited revision
    return "; ".join(part for part in parts if part) or "no quote or cited file to follow"
