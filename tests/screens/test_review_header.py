"""The review header shows the cited commit's subject, author and date: untrusted text made
visible, never markup, cut to the room the rest of the line leaves (never wrapped)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from textual.app import App, ComposeResult

from evidence.revision import CommitSummary
from keymaps import load_keymap
from screens.review.screen import ReviewScreen
from screens.widgets.review_header import ReviewHeader, commit_content
from tui.factory import make_demo_app

WHEN = datetime(2026, 3, 9, 10, 0, tzinfo=timezone(timedelta(hours=2)))
COMMIT = CommitSummary("Add escalation digest, banner and runbook", "Mira Okafor", WHEN)


def test_the_subject_is_cut_first_then_the_author_then_the_subject() -> None:
    whole = "Add escalation digest, banner and runbook — Mira Okafor, 2026-03-09"
    assert commit_content(COMMIT, 100).plain == whole
    assert commit_content(COMMIT, 40).plain == "Add escalatio… — Mira Okafor, 2026-03-09"
    assert commit_content(COMMIT, 30).plain == "Add escalation d… — 2026-03-09"
    assert commit_content(COMMIT, 24).plain == "Mira Okafor, 2026-03-09"
    assert commit_content(COMMIT, 12).plain == "2026-03-09"
    assert commit_content(COMMIT, 9).plain == ""
    for room in range(0, 80):
        assert commit_content(COMMIT, room).cell_length <= room


def test_untrusted_commit_text_is_shown_not_obeyed() -> None:
    hostile = CommitSummary("[bold red]x[/] \x1b[2J\x07 done\u202e", "[link=x]eve[/]\x1b]8;;", WHEN)
    shown = commit_content(hostile, 200)
    assert "[bold red]x[/]" in shown.plain and "[link=x]eve[/]" in shown.plain
    assert not any(char in shown.plain for char in "\x1b\x07\u202e")
    assert not any("bold" in str(span.style) for span in shown.spans)


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 50)])
async def test_the_header_stays_one_line_with_the_commit(
    size: tuple[int, int], tmp_path: Path, sample: Path
) -> None:
    app = make_demo_app(tmp_path, reviewer="r", keymap=load_keymap(user=False))
    async with app.run_test(size=size) as pilot:
        screen = next(s for s in app.screen_stack if isinstance(s, ReviewScreen))
        await pilot.pause()
        await screen.settle()
        await pilot.pause()
        assert screen.commit is not None and screen.commit.author == "Mira Okafor"
        header = screen.query_one(ReviewHeader)
        text = str(header.render())
        assert "\n" not in text and len(text) <= size[0] and header.region.height == 1
        assert "records 0/22" in text and "7 failing" in text
        assert ("reviewed" in text) == (size[0] >= 120)  # the counts are never shortened for it
        if size[0] >= 120:
            assert "2026-03-09" in text  # the counts leave room for the date at least
        if size[0] >= 200:
            assert "Add escalation digest, banner and runbook" in text
    app.close()


class HeaderOnly(App[None]):
    def compose(self) -> ComposeResult:
        yield ReviewHeader()


@pytest.mark.parametrize("width", [80, 86, 89, 90, 100, 120])
async def test_a_long_reviewer_name_is_cut_to_some_of_it_or_left_out(width: int) -> None:
    """The reviewer gives way to the counts: cut with an ellipsis while a few of its letters
    fit, left out rather than cut to a stub ("Se…") that names no one."""
    app = HeaderOnly()
    async with app.run_test(size=(width, 10)) as pilot:
        header = app.query_one(ReviewHeader)
        header.show(
            system="Kestrel",
            revision="@802776d (stated)",
            failed=False,
            reviewer="Seraphina Okonkwo-Lindqvist",
            progress="records 2/22 · quotes 1/34 · 7 failing",
        )
        await pilot.pause()
        text = str(header.render())
        assert len(text) <= width and "records 2/22 · quotes 1/34 · 7 failing" in text
        assert text.startswith(" assay  Kestrel  @802776d (stated)")
        shown = text.split("(stated)", 1)[1].split("records")[0].strip()
        if shown:
            assert shown == "Seraphina Okonkwo-Lindqvist" or (
                shown.endswith("…") and len(shown) >= 6 and "Seraphina".startswith(shown[:5])
            ), shown
            assert not shown.endswith(" …"), shown  # cut at a space: "Seraphina…"
        assert (shown != "") == (width >= 86), (width, shown)


@pytest.mark.parametrize("width", [80, 86, 90, 100])
async def test_where_the_revision_came_from_goes_before_the_revision_is_cut(width: int) -> None:
    # at 80x24 with a drift's counts the header read "@802776d (s…": a stub naming nothing
    app = HeaderOnly()
    async with app.run_test(size=(width, 10)) as pilot:
        header = app.query_one(ReviewHeader)
        progress = "Δ 8df75ac · records 0/22 · quotes 0/34 · 7 failing"
        header.show(
            system="Kestrel", revision="@802776d (stated)", failed=False, reviewer="",
            progress=progress,
        )  # fmt: skip
        await pilot.pause()
        text = str(header.render())
        assert len(text) <= width and text.endswith(progress)
        assert " …" not in text and "(s…" not in text, text
        left = text.split("Δ")[0].strip()
        assert left == ("assay  Kestrel  @802776d" + (" (stated)" if width >= 90 else ""))
