"""The review screen redrawn: the first frame styled as a full restyle would, a resize laid out
again, and keys (tab, d, a verdict) that repaint and restyle only the panes they change."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from screenkit import index_of, review_screen, settle

from keymaps import load_keymap
from screens.review.history import Location
from screens.review.screen import ReviewScreen
from tui.factory import make_demo_app

SIZE = (120, 40)


def _styles(screen: ReviewScreen) -> list[tuple[str, ...]]:
    return [
        (
            type(widget).__name__,
            str(widget.styles.background),
            str(widget.styles.color),
            str(widget.styles.border),
            str(widget.styles.display),
        )
        for widget in screen.walk_children()
    ]


async def test_first_frame_styles_equal_a_full_restyle(tmp_path: Path) -> None:
    # the screen skips Textual's restyle of every widget on its first resume (each was styled
    # as it mounted): nothing may look different from a full restyle, in either theme
    for theme in ("assay-light", "assay-dark"):
        app = make_demo_app(tmp_path, reviewer="ann", keymap=load_keymap(user=False), theme=theme)
        try:
            async with app.run_test(size=(120, 40)) as pilot:
                screen = review_screen(app)
                await settle(pilot, screen)

                before = _styles(screen)
                app.refresh_css()
                await pilot.pause()
                await pilot.pause()
                assert _styles(screen) == before, theme
                assert len(before) > 10
        finally:
            app.close()


async def test_terminal_resize_lays_the_screen_out_again(tmp_path: Path, sample: Path) -> None:
    # a Resize for the size already laid out is skipped; a new size must still be laid out
    app = make_demo_app(tmp_path, reviewer="z", keymap=load_keymap(user=False))
    async with app.run_test(size=(200, 50)) as pilot:
        screen = review_screen(app)
        await settle(pilot, screen)
        wide = screen.records_pane.region
        assert not screen.has_class("-narrow")
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        assert screen.has_class("-narrow")
        assert screen.records_pane.region != wide
        assert screen.query_one("KeysBar").region.y == 23  # the bottom line of the new size
        await pilot.resize_terminal(200, 50)
        await pilot.pause()
        await pilot.pause()
        assert not screen.has_class("-narrow")
        assert screen.records_pane.region == wide
        assert screen.query_one("KeysBar").region.y == 49
    app.close()


async def test_keys_typed_right_after_tab_go_to_the_new_pane(tmp_path: Path, sample: Path) -> None:
    from textual import events

    app = make_demo_app(tmp_path, reviewer="t", keymap=load_keymap(user=False))
    async with app.run_test(size=SIZE) as pilot:
        screen = review_screen(app)
        await settle(pilot, screen)
        screen.go(Location(index_of(screen, "KS-RTE-ticket-escalation"), 0))
        await settle(pilot, screen)
        record = screen.location.record
        # as a terminal delivers "\tj" read at once: both keys queued before either is handled
        app.post_message(events.Key("tab", "\t"))
        app.post_message(events.Key("j", "j"))
        await settle(pilot, screen)
        assert screen.focused is screen.record_pane
        assert screen.location.record == record  # j moved in the record pane, not the records
        # the record's body is longer than the pane: j read one more line of it
        assert screen.record_pane.scroll_y == 1
    app.close()


async def test_a_verdict_redraws_the_record_pane_where_the_reviewer_is_reading(
    tmp_path: Path, sample: Path
) -> None:
    app = make_demo_app(tmp_path, reviewer="v", keymap=load_keymap(user=False))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = review_screen(app)
        await settle(pilot, screen)
        screen.go(Location(index_of(screen, "KS-RTE-ticket-escalation"), 2), on_quote=True)
        await settle(pilot, screen)
        pane = screen.record_pane
        pane.focus()
        pane.scroll_to(y=1, animate=False, immediate=True, force=True)  # reading near the top
        await pilot.pause()
        assert pane.highlighted is not None and pane.scroll_y == 1
        await pilot.press("c")  # a verdict on the quote under the cursor
        await settle(pilot, screen)
        assert pane.scroll_y == 1  # the rows were rebuilt, the view stayed
        assert screen.record is not None and screen.quote is not None
        assert (
            screen.session.verdict(screen.session.quote_item(screen.record, screen.quote))
            is not None
        )
    app.close()


async def test_tab_repaints_the_panes_it_moves_between_not_the_screen(
    tmp_path: Path, sample: Path
) -> None:
    from screenkit import Refreshes

    app = make_demo_app(tmp_path, reviewer="t", keymap=load_keymap(user=False))
    async with app.run_test(size=SIZE) as pilot:
        screen = review_screen(app)
        await settle(pilot, screen)
        screen.records_pane.focus()
        await pilot.pause()
        whole = Refreshes(screen)
        await pilot.press("tab")
        await pilot.pause()
        assert screen.focused is screen.record_pane
        assert whole.calls == []  # the screen itself (every line of every pane) not repainted
    app.close()


@pytest.mark.parametrize("size", [(120, 40), (80, 24)], ids=["beside", "over"])
async def test_d_restyles_the_source_pane_only(
    tmp_path: Path, sample: Path, size: tuple[int, int]
) -> None:
    app = make_demo_app(tmp_path, reviewer="t", keymap=load_keymap(user=False))
    async with app.run_test(size=size) as pilot:
        screen = review_screen(app)
        await settle(pilot, screen)
        screen.go(Location(index_of(screen, "KS-RTE-note-sync"), 1))
        await settle(pilot, screen)
        restyled: list[str] = []
        for widget in (screen.records_pane, screen.record_pane, screen.source_view):
            original = widget.notify_style_update

            def counted(widget: Any = widget, original: Any = original) -> None:
                restyled.append(widget.id)
                original()

            widget.notify_style_update = counted  # type: ignore[method-assign]
        diff = screen.query_one("#diff")
        for shown in (True, False, True):
            await pilot.press("d")
            await settle(pilot, screen)
            assert diff.display == shown and diff.region.height > 0 if shown else not diff.region
            over = size == (80, 24) and shown
            assert screen.source_view.display is not over  # narrow: the diff over the source
        assert "records" not in restyled and "record" not in restyled
    app.close()


async def test_the_first_tab_into_the_source_changes_none_of_its_scrollbars_styles(
    tmp_path: Path, sample: Path
) -> None:
    # Textual styles a view's scrollbar when the view's styles next change: left to the first
    # focus, that focus set every rule of the bar and laid the screen out again a frame later
    # (the first tab into the source pane took 30-50 ms, every later one 10)
    app = make_demo_app(tmp_path, reviewer="t", keymap=load_keymap(user=False))
    async with app.run_test(size=SIZE) as pilot:
        screen = review_screen(app)
        await settle(pilot, screen)
        view = screen.source_view
        assert not view.has_focus
        bar = view.horizontal_scrollbar
        before = dict(bar.styles.get_rules())
        assert before.get("scrollbar_size_horizontal") == 1
        while not view.has_focus:
            await pilot.press("tab")
            await settle(pilot, screen)
        assert dict(bar.styles.get_rules()) == before
    app.close()
