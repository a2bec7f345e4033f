"""The record pane's cited files: every path the record cites, with its state at the revision.

Rows ``cite-N`` can be followed: a file opens in the source pane, a near miss opens the path
suggested for it, a wildcard (``src/*.py``) lists the files it matches to open one of; a
directory or an absent path says what it is.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from textual.content import Content

from evidence.citations import CitedState, cited_path, is_pattern, named_lines
from evidence.model import Record
from screens.safe import visible
from screens.widgets.drift_rows import (
    CITED_SYMBOLS,
    DRIFT_STYLES,
    MAX_FILE_COMMITS,
    cited_drift_summary,
    commit_rows,
)
from screens.widgets.lists import Row

if TYPE_CHECKING:
    from evidence.citations import CitedPath
    from screens.session import ReviewSession

#: state -> (symbol, style, words)
STATES: dict[CitedState | None, tuple[str, str, str]] = {
    CitedState.PRESENT: ("✓", "$text-success", "present"),
    CitedState.DIRECTORY: ("▸", "$text-success", "a directory"),
    CitedState.NEAR_MISS: ("✗", "$text-error", "absent"),
    CitedState.ABSENT: ("✗", "$text-error", "absent"),
    CitedState.UNCHECKED: ("?", "$text-warning", "inside a submodule not cloned here"),
    CitedState.PATTERN: ("▸", "$text-success", "files"),
    CitedState.PAST_END: ("✗", "$text-error", "past its end"),
    None: ("…", "$text-muted", "checking…"),
}


def cited_paths(session: ReviewSession, record: Record) -> list[tuple[str, CitedPath | None]]:
    """The record's cited paths, each once, with its checked state when known."""
    checked = session.cited(record)
    if checked is not None:
        return [(cited.path, cited) for cited in checked]
    paths = dict.fromkeys(cited_path(path) for c in record.citations for path in c.paths)
    return [(path, None) for path in paths]


def cited_line_range(record: Record, path: str) -> tuple[int, int] | None:
    """The lines the record names of a cited file (``api/server.py:78-86``), the first it
    names when it names several."""
    return named_lines(record).get(path)


def cited_rows(session: ReviewSession, record: Record, against: str = "") -> Iterator[Row]:
    """A ``─ cited files ─`` heading and one row per cited path (none without citations),
    each followed, once drift is known, by what became of it at REV (``against``: its short
    id) and the commits that did it (``filecommit-N-K``)."""
    paths = cited_paths(session, record)
    if not paths:
        return
    yield Row(Content.styled("─ cited files ─", "$text-accent"), disabled=True)
    for n, (path, cited) in enumerate(paths):
        symbol, style, _ = STATES[cited.state if cited is not None else None]
        words = _words(path, cited)
        pieces: list[tuple[str, str] | str] = [
            (symbol, style),
            " ",
            (visible(path), "$text-primary"),
        ]
        lines = cited_line_range(record, path)
        if lines is not None:  # Enter opens the file at them
            first, last = lines
            pieces.append((f":{first}" if first == last else f":{first}-{last}", "$text-muted"))
        pieces += [
            "  ",
            (words, style if cited is not None and cited.state.missing else "$text-muted"),
        ]
        if cited is not None and cited.suggestion and cited.state is CitedState.NEAR_MISS:
            pieces += [("  closest: ", "$text-muted"), (visible(cited.suggestion), "underline")]
        yield Row(Content.assemble(*pieces), id=f"cite-{n}")
        drift = session.cited_drifts.get((path, cited.lines)) if cited is not None else None
        if drift is not None:
            symbol = CITED_SYMBOLS[drift.status]
            style = DRIFT_STYLES.get(symbol, "$text-accent")
            said = visible(cited_drift_summary(drift, against))
            yield Row(
                Content.assemble("    ", (symbol, style), " ", (said, "$text-muted")),
                disabled=True,
            )
            yield from commit_rows(drift.drift.commits, f"filecommit-{n}", MAX_FILE_COMMITS)


def _words(path: str, cited: CitedPath | None) -> str:
    """What a cited path is, in words (``present``, ``12 files``, ``matches no file``)."""
    if cited is not None and is_pattern(path) and cited.state.missing:
        return "matches no file"
    if cited is not None and cited.state is CitedState.PATTERN:
        return f"{cited.matches} file{'s' if cited.matches != 1 else ''}"
    if cited is not None and cited.state is CitedState.PAST_END:
        return f"past its end: it has {cited.length} line{'s' if cited.length != 1 else ''}"
    return STATES[cited.state if cited is not None else None][2]


def cited_target(session: ReviewSession, record: Record, row_id: str) -> tuple[str | None, str]:
    """What following a ``cite-N`` row does: (a path to open, "") or (None, why not)."""
    paths = cited_paths(session, record)
    n = int(row_id.removeprefix("cite-"))
    if n >= len(paths):
        return None, ""
    path, cited = paths[n]
    if cited is None or cited.state in (CitedState.PRESENT, CitedState.PAST_END):
        return path, ""
    if cited.state is CitedState.NEAR_MISS and cited.suggestion:
        return cited.suggestion, ""
    if cited.state is CitedState.DIRECTORY:
        return None, f"{path} is a directory at the revision"
    if cited.state is CitedState.PATTERN:
        return None, ""  # the files it matches to choose from: `cited_pattern`
    if cited.state is CitedState.UNCHECKED:
        return None, f"{path} is inside a submodule this clone does not have"
    return None, f"{path} is not in the revision"


def cited_line(session: ReviewSession, record: Record, row_id: str) -> int | None:
    """The line a ``cite-N`` row's file opens at: the first the record names of it."""
    paths = cited_paths(session, record)
    n = int(row_id.removeprefix("cite-"))
    if n >= len(paths) or (lines := cited_line_range(record, paths[n][0])) is None:
        return None
    cited = paths[n][1]
    if cited is not None and cited.state is CitedState.PAST_END:
        return cited.length  # its last line: the lines named are past it
    return lines[0]


def cited_pattern(session: ReviewSession, record: Record, row_id: str) -> str | None:
    """The wildcard of a ``cite-N`` row matching files at the revision (None: another row)."""
    paths = cited_paths(session, record)
    n = int(row_id.removeprefix("cite-"))
    if n < len(paths) and (cited := paths[n][1]) is not None:
        return cited.path if cited.state is CitedState.PATTERN else None
    return None


def cited_summary(session: ReviewSession, record: Record) -> str:
    """The source pane's text for a record that quotes nothing but cites files."""
    paths = cited_paths(session, record)
    if not paths:
        return "this record quotes no source and cites no file"
    listed = ", ".join(f"{path} ({_words(path, cited)})" for path, cited in paths[:6])
    more = f" and {len(paths) - 6} more" if len(paths) > 6 else ""
    return (
        f"this record quotes nothing; it cites {listed}{more}. "
        "Enter on a cited file in the record pane opens it."
    )


def no_quote_message(session: ReviewSession, record: Record | None) -> str:
    """What the source pane says for a record without quotes: the files it cites and where its
    search hits are."""
    if record is None:
        return ""
    text = cited_summary(session, record)
    hits = sum(len(session.replays.get((s.record, s.line)) or ()) for s in record.searches)
    if hits:
        many = "hits" if hits > 1 else "hit"
        text += f" Its searches found {hits} {many}: pick one in the record pane."
    return text
