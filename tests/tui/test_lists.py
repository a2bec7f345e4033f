"""PaneList caches component styles but follows focus and theme changes like OptionList."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import OptionList

from tui.widgets.lists import PaneList

NAME = "option-list--option-highlighted"


class TwoLists(App[None]):
    def compose(self) -> ComposeResult:
        yield PaneList(id="a")
        yield PaneList(id="b")


def same_as_uncached(widget: PaneList) -> bool:
    return widget.get_component_styles(NAME).background == (
        OptionList.get_component_styles(widget, NAME).background
    )


async def test_cached_styles_follow_focus_and_theme() -> None:
    app = TwoLists()
    async with app.run_test() as pilot:
        first, second = app.query_one("#a", PaneList), app.query_one("#b", PaneList)
        for widget in (first, second):
            widget.add_options(["one", "two"])
        seen = set()
        for focused in (first, second, first):
            focused.focus()
            await pilot.pause()
            for widget in (first, second):
                assert same_as_uncached(widget)
                seen.add(str(widget.get_component_styles(NAME).background))
        assert len(seen) == 2  # focused and unfocused highlights differ, and both were seen
        app.theme = "textual-light"
        await pilot.pause()
        assert same_as_uncached(first) and same_as_uncached(second)


async def test_moving_the_highlight_redraws_only_the_rows_it_left_and_reached() -> None:
    app = TwoLists()
    async with app.run_test(size=(40, 30)) as pilot:
        pane = app.query_one("#a", PaneList)
        pane.add_options([f"option {n}" for n in range(40)])
        pane.highlighted = 2
        await pilot.pause()
        pane._dirty_regions.clear()  # as after a frame is drawn
        pane.highlighted = 5
        rows = sorted(region.y for region in pane._dirty_regions)
        assert [region.height for region in pane._dirty_regions] == [1, 1]
        assert rows[1] - rows[0] == 3  # the row left and the row reached, nothing between
