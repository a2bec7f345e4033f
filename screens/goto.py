"""Go to a line of the open file, or to the next line holding some text."""

from __future__ import annotations

from collections.abc import Sequence

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Input, Label

from screens.dialog import Dialog, dialog_css, relabel


def parse_line(text: str, *, current: int, max_line: int) -> int | None:
    """A typed target: ``42``, ``:42``, ``+5``/``-5`` relative to ``current``, ``$`` for the end."""
    text = text.strip().removeprefix(":").strip()
    if text == "$":
        return max_line if max_line > 0 else None
    try:
        if text[:1] in "+-" and text[1:].isdigit():
            target = current + int(text)
        elif text.isdigit():
            target = int(text)
        else:
            return None
    except ValueError:
        return None
    return target if 1 <= target <= max_line else None


def parse_range(text: str, *, max_line: int) -> tuple[int, int] | None:
    """A typed range ``231-236`` (in order, within the file), else None."""
    first, dash, last = text.strip().removeprefix(":").strip().partition("-")
    if not dash or not first.strip().isdigit() or not last.strip().isdigit():
        return None
    start, end = int(first), int(last)
    if not 1 <= start <= end <= max_line:
        return None
    return (start, end)


class GotoLine(Dialog[int | None]):
    """Ask for a line number; dismisses with it (1-based, in range), or None on escape.

    A range ``A-B`` dismisses with A and leaves ``(A, B)`` in ``selected``, for callers that
    select those lines (the permalink then cites them).
    """

    DEFAULT_CSS = dialog_css(__file__, "goto.tcss")
    BINDINGS = [Binding("escape", "close", "Close", id="close_dialog", tooltip="Cancel")]

    def __init__(self, max_line: int, current: int = 1) -> None:
        super().__init__()
        self.max_line = max_line
        self.current = current
        self.selected: tuple[int, int] | None = None

    def compose(self) -> ComposeResult:
        with Vertical(classes="lookup-dialog") as box:
            box.border_title = "Go to line"
            yield Input(placeholder=self._hint(), id="goto-input")
            yield Label(self._where(), id="goto-status")

    def _hint(self) -> str:
        return f"1-{self.max_line}, A-B, +N, -N or $"

    def _where(self) -> Content:
        return Content(f"line {self.current} of {self.max_line}")

    def on_mount(self) -> None:
        self.query_one("#goto-input", Input).focus()

    def reopen(self, max_line: int, current: int = 1) -> None:
        self.max_line, self.current, self.selected = max_line, current, None
        field = self.query_one("#goto-input", Input)
        field.value = ""
        field.placeholder = self._hint()
        status = self.query_one("#goto-status", Label)
        relabel(status, self._where())
        status.remove_class("-error")
        field.focus()

    @on(Input.Submitted, "#goto-input")
    def _submitted(self, event: Input.Submitted) -> None:
        self.selected = parse_range(event.value, max_line=self.max_line)
        if self.selected is not None:
            self.dismiss(self.selected[0])
            return
        target = parse_line(event.value, current=self.current, max_line=self.max_line)
        if target is None:
            status = self.query_one("#goto-status", Label)
            relabel(status, Content(f"not a line of this file (1-{self.max_line})"))
            status.add_class("-error")
            return
        self.dismiss(target)

    def action_close(self) -> None:
        self.dismiss(None)


def find_in_lines(
    lines: Sequence[str], needle: str, *, after: int, backwards: bool = False
) -> int | None:
    """The next line (1-based, wrapping) after ``after`` whose text holds ``needle`` (any case)."""
    if not needle or not lines:
        return None
    wanted = needle.casefold()
    count = len(lines)
    for step in range(1, count + 1):
        index = (after - 1 - step) % count if backwards else (after - 1 + step) % count
        if wanted in lines[index].casefold():
            return index + 1
    return None


def match_notice(
    lines: Sequence[str], needle: str, *, line: int, after: int, backwards: bool = False
) -> str:
    """Where a found line is among the lines holding ``needle``: ``match 3 of 7``, and whether
    the search wrapped past the end (or, ``backwards``, the start) of the file from ``after``."""
    wanted = needle.casefold()
    matches = [n for n, text in enumerate(lines, 1) if wanted in text.casefold()]
    if line not in matches:
        return ""
    notice = f"match {matches.index(line) + 1} of {len(matches)}"
    if len(matches) == 1:
        return notice + " (the only one)"
    if backwards and line >= after:
        notice += " (wrapped to the bottom)"
    elif not backwards and line <= after:
        notice += " (wrapped to the top)"
    return notice


def find_again(lines: Sequence[str], needle: str, *, at: int, step: int) -> tuple[int | None, str]:
    """The next (``step`` 1) or previous (-1) line from ``at`` holding ``needle``, and what to
    say of it (``match 3 of 7``, or that the file does not hold it)."""
    backwards = step < 0
    line = find_in_lines(lines, needle, after=at, backwards=backwards)
    if line is None:
        return None, f"{needle!r} is not in this file"
    return line, match_notice(lines, needle, line=line, after=at, backwards=backwards)


class FindInFile(Dialog[int | None]):
    """Ask for text; dismisses with the next line holding it after the cursor, or None."""

    DEFAULT_CSS = dialog_css(__file__, "goto.tcss")
    BINDINGS = [Binding("escape", "close", "Close", id="close_dialog", tooltip="Cancel")]

    def __init__(self, lines: Sequence[str], current: int = 1, *, text: str = "") -> None:
        super().__init__()
        self.lines = lines
        self.current = current
        self._text = text
        self.text = text  # the last text searched, for "find next"
        self.notice = ""  # where the line found is among the matches: "match 3 of 7"

    def compose(self) -> ComposeResult:
        with Vertical(classes="lookup-dialog") as box:
            box.border_title = "Find in file"
            yield Input(self._text, placeholder="text…", id="find-input")
            yield Label("", id="find-status")

    def on_mount(self) -> None:
        self.query_one("#find-input", Input).focus()

    @on(Input.Submitted, "#find-input")
    def _submitted(self, event: Input.Submitted) -> None:
        self.text = event.value
        line = find_in_lines(self.lines, event.value, after=self.current)
        if line is None:
            status = self.query_one("#find-status", Label)
            relabel(status, Content("not found in this file"))
            status.add_class("-error")
            return
        self.notice = match_notice(self.lines, event.value, line=line, after=self.current)
        self.dismiss(line)

    def action_close(self) -> None:
        self.dismiss(None)
