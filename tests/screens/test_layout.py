"""Issue 23, a layout that gives the record room: the panes' widths follow the terminal's (the
records list as wide as whole ids need, within its share; the record and the source share the
rest), ids cut in the middle stay apart, and `l` keeps what every pane shows."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.app import App
from textual.content import Content
from textual.message import Message
from textual.pilot import Pilot

from evidence.model import Kind
from keymaps import load_keymap
from screens.review.history import Location
from screens.review.panes import pane_widths
from screens.review.screen import ReviewScreen
from screens.widgets.record_pane import RecordPane
from screens.widgets.records_pane import RecordRow, ResultRow, cut_id
from tui.factory import make_demo_app


async def opened(pilot: Pilot[Any], app: App[Any], size: tuple[int, int]) -> ReviewScreen:
    screen = next(s for s in app.screen_stack if isinstance(s, ReviewScreen))
    await screen.settle()
    await pilot.pause()
    return screen


def listed_names(screen: ReviewScreen) -> dict[str, str]:
    """Record id -> the name its row shows in the records list (every row, scrolled or not)."""
    pane = screen.records_pane
    width = pane.scrollable_content_region.width
    shown: dict[str, str] = {}
    for row, index in enumerate(pane.rows):
        record = screen.session.records[index] if index >= 0 else None
        if record is None or record.kind is Kind.NARRATIVE:
            continue
        text = str(pane.prompt(index).content(width))
        assert len(text) <= width, text
        shown[record.id] = text[4:].split("  ")[0].rstrip("✎")  # after the indent and badge
        assert row >= 0
    return shown


def test_pane_widths_follow_the_terminal() -> None:
    # side by side: the list within a fifth (at least 30), the record 43% of what is left
    assert pane_widths(120, 48, records_shown=True) == (30, 39)
    assert pane_widths(250, 48, records_shown=True) == (48, 87)  # whole ids: 48 wanted
    assert pane_widths(250, 48, records_shown=False) == (48, 108)
    assert pane_widths(160, 48, records_shown=True) == (32, 55)
    # narrow: the list keeps the left column, the record goes above the source
    assert pane_widths(80, 48, records_shown=True) == (28, None)


def test_ids_are_cut_in_the_middle_and_stay_apart() -> None:
    assert cut_id("RT-RTE-knowledge-edit", 12) == "RT-…dge-edit"
    assert cut_id("RT-RTE-knowledge-edit", 40) == "RT-RTE-knowledge-edit"
    assert cut_id("RT-RTE-knowledge-edit", 16) == "RT-RTE-…dge-edit"
    # an annotation's id ("On" and the record it annotates) cut after its space
    assert cut_id("On KS-RTE-ticket-escalation", 11) == "On…calation"
    many = ["RT-RTE-knowledge-edit", "RT-RTE-knowledge-read", "RT-RTE-kb-search"]
    for room in range(9, 22):
        cut = [cut_id(each, room) for each in many]
        assert len(set(cut)) == 3 and all(len(each) <= room for each in cut), cut


def test_a_whole_name_comes_before_its_quotes_marks() -> None:
    row = RecordRow("·", "KS-RTE-ticket-escalation", "✓3", quotes=[("·", False)] * 3)
    assert str(row.content(40)).endswith("KS-RTE-ticket-escalation  ✓3 [···]")
    assert str(row.content(35)).endswith("KS-RTE-ticket-escalation  ✓3")  # no open marks
    assert str(row.content(26)).endswith("KS-RTE-…scalation  ✓3")  # the status stays


def test_a_title_cut_just_after_a_space_ends_in_its_last_word() -> None:
    # "Forcing cases and …": the space before the ellipsis; the marks keep their column
    title, other = "Forcing cases and enforcement scope", "Forcing casesXandXenforcementXscope"
    for width in range(14, 42):
        cut = str(RecordRow("·", title, "✓1", is_id=False).content(width))
        assert " …" not in cut, (width, cut)
        assert len(cut) == len(str(RecordRow("·", other, "✓1", is_id=False).content(width))), width


@pytest.mark.parametrize("size", [(120, 40), (250, 60), (80, 24)], ids=lambda s: f"{s[0]}x{s[1]}")
async def test_widths_follow_the_terminal_and_names_stay_apart(
    tmp_path: Path, sample: Path, size: tuple[int, int]
) -> None:
    app = make_demo_app(tmp_path, reviewer="w", keymap=load_keymap(user=False))
    async with app.run_test(size=size) as pilot:
        screen = await opened(pilot, app, size)
        records, record, view = screen.records_pane, screen.record_pane, screen.source_view
        width = size[0]
        names = listed_names(screen)
        # no two rows look the same, and a cut id keeps its own tail
        assert len(set(names.values())) == len(names), names
        for record_id, name in names.items():
            head, cut, tail = name.partition("…")
            assert name == record_id or (cut and record_id.startswith(head)), name
            assert record_id.endswith(tail), name
        if width == 250:  # room enough: every id whole, the record and the source share the rest
            assert all(name == record_id for record_id, name in names.items()), names
            assert records.region.width < 60
            assert record.region.width >= 80 and view.region.width >= 110
        elif width == 120:  # the record wider than the 33 columns it had, the source as wide
            assert records.region.width == 30
            assert record.region.width >= 39 and view.region.width >= 51
        else:
            assert records.region.width == 28 and record.region.width == width - 28
        assert (
            records.region.width
            + record.region.width
            + (view.region.width if view.region.x > record.region.x else 0)
            == width
        )
    app.close()


@pytest.mark.parametrize("size", [(250, 50), (120, 40), (80, 24)], ids=lambda s: f"{s[0]}x{s[1]}")
async def test_the_panes_are_laid_out_once_at_their_widths(
    tmp_path: Path, sample: Path, size: tuple[int, int]
) -> None:
    # the widths are set before the first layout: no pane is laid out (and drawn) first at the
    # stylesheet's widths, then again at its own
    resized: list[events.Resize] = []

    def hook(message: Message) -> None:
        if isinstance(message, events.Resize):
            resized.append(message)

    app = make_demo_app(tmp_path, reviewer="w", keymap=load_keymap(user=False))
    async with app.run_test(size=size, message_hook=hook) as pilot:
        screen = await opened(pilot, app, size)
        records = screen.records_pane.region
        # what spans the panes' whole height: the records list, the row beside it, the record
        # beside the source (from 120 columns), and the row of all of them
        kept = {records.width, size[0] - records.width, size[0]}
        if size[0] >= 120:
            kept.add(screen.record_pane.region.width)
        widths = {event.size.width for event in resized if event.size.height == records.height}
        assert records.width in widths and widths <= kept, (widths, kept)
    app.close()


@pytest.mark.parametrize("size", [(120, 40), (80, 24)], ids=lambda s: f"{s[0]}x{s[1]}")
async def test_hiding_the_list_keeps_every_pane_where_it_was(
    tmp_path: Path, sample: Path, size: tuple[int, int]
) -> None:
    app = make_demo_app(tmp_path, reviewer="w", keymap=load_keymap(user=False))
    async with app.run_test(size=size) as pilot:
        screen = await opened(pilot, app, size)
        index = next(
            n for n, r in enumerate(screen.session.records) if r.id == "KS-RTE-ticket-escalation"
        )
        screen.go(Location(index, 1), on_quote=True)
        await screen.settle()
        for _ in range(20):
            await pilot.pause()
        record, view, records = screen.record_pane, screen.source_view, screen.records_pane
        # each pane read away from where it opened
        record.scroll_to(y=4, animate=False, immediate=True)
        view.scroll_to(x=6, y=view.scroll_y + 6, animate=False, immediate=True)
        records.scroll_to(y=2, animate=False, immediate=True)
        await pilot.pause()
        before = (record.top_line(), view.scroll_x, view.scroll_y, records.scroll_y)
        assert before[0] != (0, 0) and before[1] == 6
        await pilot.press("l")
        await pilot.pause()
        await pilot.pause()
        assert records.region.width == 0
        # the record rewrapped wider still starts with the same row; the source at its line
        top_row = record.top_line()[0]
        assert top_row == before[0][0] or record.max_scroll_y == 0
        assert view.scroll_x == 6 and abs(view.scroll_y - before[2]) <= 1
        await pilot.press("l")
        await pilot.pause()
        await pilot.pause()
        after = (record.top_line(), view.scroll_x, view.scroll_y, records.scroll_y)
        assert after == before
        # a key typed right after l moves its pane: the view kept does not undo it
        view.focus()
        await pilot.press("l", "0")
        await pilot.pause()
        await pilot.pause()
        assert view.scroll_x == 0
    app.close()


def test_a_cut_ends_after_a_word_and_keeps_its_column_when_asked() -> None:
    from textual.content import Content

    from screens.widgets.cut import cut

    text = Content.assemble(("B324", "bold"), " auth.py:40 ", ("Use of weak MD5", "$text-muted"))
    assert str(cut(text, 21)) == "B324 auth.py:40 Use…"  # not "Use …"
    assert str(cut(text, 21, pad=True)) == "B324 auth.py:40 Use… "
    assert cut(text, 80) is text and str(cut(text, 0)) == ""
    assert str(cut(text, 22)) == "B324 auth.py:40 Use o…"  # no space at the cut: as before
    # the ellipsis is styled as the message it ends
    ellipsis = cut(text, 21)
    assert [span.style for span in ellipsis.spans if span.end == 20] == ["$text-muted"]
    # a result's line, cut in the records list: the marks after it stay in their column
    row = ResultRow("·", "B324", "auth.py:40", "Use of weak MD5 hash", "✗")
    other = ResultRow("·", "B324", "auth.py:40", "UseXofXweakXMD5Xhash", "✗")
    for width in range(30, 48):
        assert len(str(row.content(width))) == len(str(other.content(width))), width
        assert " …" not in str(row.content(width)), width


async def test_the_record_panes_title_leaves_out_the_kind_before_the_border_cuts_it(
    tmp_path: Path, sample: Path
) -> None:
    # at 80x24 the border cut "runtime:forcing-cases-and-enforcement-scope  narrative" to
    # "…-scope  …": the kind goes first, whole; again when the terminal is resized
    long_id = "runtime:forcing-cases-and-enforcement-scope"
    app = make_demo_app(tmp_path, reviewer="w", keymap=load_keymap(user=False))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await screen.settle()
        records = screen.session.records
        index = next(n for n, r in enumerate(records) if r.id == long_id)
        screen.go(Location(index, None))
        await pilot.pause()
        pane = screen.record_pane

        def title() -> str:
            return Content.from_markup(pane.border_title or "").plain

        assert title() == long_id
        await pilot.resize_terminal(200, 50)
        await pilot.pause()
        assert title() == f"{long_id}  narrative"
        short = next(n for n, r in enumerate(records) if r.id == "KS-CMP-api-server")
        screen.go(Location(short, 0))
        await pilot.pause()
        assert title() == "KS-CMP-api-server  component"
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert title() == "KS-CMP-api-server  component"  # it fits
    app.close()


async def test_the_record_panes_title_is_fitted_to_the_width_to_come_before_a_layout(
    tmp_path: Path, sample: Path
) -> None:
    # the launch shows the first record before the first layout: its title is fitted to the width
    # the panes will have (`expect_width`), not set whole and fitted again on the layout's Resize
    # (which drew every line of the pane a second time before the first frame)
    long_id = "runtime:forcing-cases-and-enforcement-scope"
    app = make_demo_app(tmp_path, reviewer="w", keymap=load_keymap(user=False))
    async with app.run_test(size=(120, 40)):
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await screen.settle()
        record = next(r for r in screen.session.records if r.id == long_id)
        pane = RecordPane(screen.session)
        pane.display = False  # never laid out
        await screen.mount(pane)
        pane.expect_width(40)
        pane.show(record, None)
        assert pane.outer_size.width == 0
        assert Content.from_markup(pane.border_title or "").plain == cut_id(long_id, 34)
    app.close()
