"""The command palette (ctrl+p, screens/palette.py): what it lists before and after typing, how
it reads and highlights commands, and what its keys do."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from screenkit import on_top, opened, wait_until
from textual.app import ComposeResult, SystemCommand
from textual.content import Content
from textual.markup import escape
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input, OptionList, Static

from screens.find import FindScreen
from screens.palette import Entry, Palette, in_order, matches
from screens.review.screen import ReviewScreen
from tui.app import AssayApp
from tui.factory import make_demo_app

SIZE = (120, 40)


def entries(*titles: str) -> list[Entry]:
    return [Entry(title, "", True) for title in titles]


def test_typed_commands_are_ranked_best_first_and_ties_keep_their_order() -> None:
    listed = entries("Next record", "Confirm", "Quit", "Next quote", "Close the note")
    found = [entry.title for entry, _offsets in matches("next", listed)]
    assert found == ["Next record", "Next quote"]  # a tie: in the order given
    found = [entry.title for entry, _offsets in matches("cn", listed)]
    assert set(found) == {"Confirm", "Close the note"}
    assert matches("zq", listed) == []
    # case does not matter, the characters in order do
    assert [entry.title for entry, _ in matches("NQ", listed)] == ["Next quote"]
    assert matches("qn", listed) == []


def is_in_order(query: str, text: str) -> bool:
    rest = iter(text)
    return all(char in rest for char in query)


@given(st.text("ab-]^\\[.*x \n", max_size=6), st.text("ab-]^\\[.*x \n", max_size=30))
def test_the_pre_filter_keeps_every_text_holding_the_query_in_order(query: str, text: str) -> None:
    assert (in_order(query).match(text) is not None) == is_in_order(query, text)
    entry = Entry(escape(text), "", True)
    if query.strip() and is_in_order(query.lower(), entry.lower):
        assert matches(query, [entry])  # the Matcher scores it too


def test_titles_are_read_as_markup_and_matched_as_they_read() -> None:
    # what a producer escaped shows literally, and is matched as shown (not its backslashes)
    title = escape("Go to KS-1 · [b]not bold[/b] [x]")
    entry = Entry(title, escape("[i]help[/i]"), False)
    assert entry.content.plain == "Go to KS-1 · [b]not bold[/b] [x]"
    assert not any("bold" in str(span.style) for span in entry.content.spans)
    assert matches("[b]not", [entry])
    prompt = entry.prompt()
    assert prompt.plain == "Go to KS-1 · [b]not bold[/b] [x]\n[i]help[/i]"
    # the help is dimmer than the title
    help_at = prompt.plain.index("\n") + 1
    assert any(
        span.start <= help_at and span.end == len(prompt.plain) and "dim" in str(span.style)
        for span in prompt.spans
    )
    # a title Textual's system commands give as markup is read as such
    assert Entry("[b]Keys[/b]", "", True).content.plain == "Keys"


def test_matched_characters_are_highlighted() -> None:
    [(entry, offsets)] = matches("nr", entries("Next record"))
    option = entry.highlighted(offsets)
    assert isinstance(option.prompt, Content)
    marked = {span.start for span in option.prompt.spans}
    assert marked == {0, 5}  # N(ext) r(ecord)


async def palette_of(pilot: Pilot[Any]) -> Palette:
    await pilot.press("ctrl+p")
    await wait_until(pilot, lambda: isinstance(on_top(pilot.app), Palette), "the palette")
    palette = on_top(pilot.app)
    assert isinstance(palette, Palette)
    return palette


def prompts(palette: Palette) -> list[str]:
    options = palette.query_one(OptionList)
    return [str(options.get_option_at_index(n).prompt) for n in range(options.option_count)]


def highlighted(palette: Palette) -> str:
    options = palette.query_one(OptionList)
    assert options.highlighted is not None
    return str(options.get_option_at_index(options.highlighted).prompt)


async def test_the_screens_actions_come_first_then_textuals(tmp_path: Path) -> None:
    app = make_demo_app(tmp_path, reviewer="p")
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot, app)
        palette = await palette_of(pilot)
        before = [prompt.split("\n")[0] for prompt in prompts(palette)]
        actions = [c.title for c in screen.palette_commands() if c.discover]
        assert before[: len(actions)] == actions
        assert {"Theme", "Quit"} <= set(before[len(actions) :])
        jumps = [f"Go to {record.id}" for record in screen.session.records]
        assert not any(title.startswith(jump) for title in before for jump in jumps)
        # an action the keymap leaves without a key says so (vim's `gg` in the default preset)
        helps = {c.title: c.help for c in screen.palette_commands() if c.discover}
        assert helps["Top of the pane (pressed twice)"] == "Move · (unbound)"
        assert helps["Next record"] == "Move · n"
    app.close()


async def test_keys_move_in_the_list_while_the_field_keeps_the_focus(tmp_path: Path) -> None:
    app = make_demo_app(tmp_path, reviewer="p")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, app)
        palette = await palette_of(pilot)
        options = palette.query_one(OptionList)
        field = palette.query_one(Input)
        assert options.highlighted == 0
        await pilot.press("down", "down")
        assert options.highlighted == 2
        await pilot.press("up")
        assert options.highlighted == 1
        await pilot.press("end")
        assert options.highlighted == options.option_count - 1
        await pilot.press("home")
        assert options.highlighted == 0
        await pilot.press("pagedown")
        paged = options.highlighted
        assert paged is not None and paged > 2
        await pilot.press("pageup")
        assert options.highlighted == 0
        assert palette.focused is field
        await pilot.press(*"to")
        assert field.value == "to" and palette.focused is field
    app.close()


async def test_enter_closes_the_palette_then_runs_the_command(tmp_path: Path) -> None:
    app = make_demo_app(tmp_path, reviewer="p")
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot, app)
        palette = await palette_of(pilot)
        await pilot.press(*"find")
        await wait_until(pilot, lambda: highlighted(palette).startswith("Find"), "Find first")
        await pilot.press("enter")
        # the command opened its dialog over the review screen, not over the palette
        await wait_until(pilot, lambda: isinstance(on_top(app), FindScreen), "find opened")
        assert app.screen_stack[-2] is screen
        assert palette not in app.screen_stack
        await pilot.press("escape")
        await wait_until(pilot, lambda: on_top(app) is screen, "find closed")
        # escape closes it and runs nothing
        assert await palette_of(pilot) is palette  # kept
        await pilot.press(*"find", "escape")
        await wait_until(pilot, lambda: on_top(app) is screen, "the palette closed")
        await pilot.pause()
        assert on_top(app) is screen
    app.close()


async def test_a_click_runs_the_command_clicked(tmp_path: Path) -> None:
    app = make_demo_app(tmp_path, reviewer="p")
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot, app)
        palette = await palette_of(pilot)
        await pilot.press(*"token-check")
        await wait_until(pilot, lambda: "token-check" in highlighted(palette), "a jump listed")
        options = palette.query_one(OptionList)
        await pilot.click(options, offset=(2, 0))
        await wait_until(pilot, lambda: on_top(app) is screen, "the palette closed")
        await screen.settle()
        assert screen.record is not None and screen.record.id == "KS-RTE-token-check"
    app.close()


class Changing(Screen[None]):
    """A screen whose one command changes with its state."""

    state = "one"

    def compose(self) -> ComposeResult:
        yield Static("beneath")

    def palette_commands(self) -> Iterator[SystemCommand]:
        yield SystemCommand(f"State {self.state}", "what the screen is in", lambda: None)


async def test_commands_are_gathered_at_each_opening_and_listed_anew_only_when_changed() -> None:
    app = AssayApp(Changing)
    async with app.run_test(size=SIZE) as pilot:
        screen = on_top(app)
        assert isinstance(screen, Changing)
        palette = await palette_of(pilot)
        first = list(palette.entries)
        assert prompts(palette)[0] == "State one\nwhat the screen is in"
        await pilot.press("escape")
        await wait_until(pilot, lambda: on_top(app) is screen, "closed")
        assert await palette_of(pilot) is palette
        assert all(a is b for a, b in zip(palette.entries, first, strict=True))  # the same
        await pilot.press("escape")
        await wait_until(pilot, lambda: on_top(app) is screen, "closed")
        screen.state = "two"
        await palette_of(pilot)
        assert prompts(palette)[0] == "State two\nwhat the screen is in"
        assert palette.entries[1:] == first[1:]  # the others kept
    app.close()


async def test_many_matches_are_listed_best_first_up_to_a_limit(tmp_path: Path) -> None:
    app = make_demo_app(tmp_path, reviewer="p")
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot, app)
        assert isinstance(screen, ReviewScreen)
        palette = await palette_of(pilot)
        await pilot.press("g", "o")
        listed = prompts(palette)
        total = len(matches("go", palette.entries))
        assert len(listed) == min(total, 50)
        await pilot.press(*"qqqqz")
        assert prompts(palette) == ["No matches found"]
        await pilot.press("enter")  # nothing to run
        assert on_top(app) is palette
    app.close()


@pytest.mark.parametrize("most", [22, 21])
async def test_the_palette_goes_to_each_record_up_to_so_many(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, most: int
) -> None:
    # 135,130 "Go to" commands made the palette's first opening take 1.1 s and each later one
    # 93 ms: past MAX_RECORD_JUMPS records, `/` (listed in the palette) finds them
    from screens.review import lookups

    monkeypatch.setattr(lookups, "MAX_RECORD_JUMPS", most)
    app = make_demo_app(tmp_path, reviewer="p")
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot, app)
        assert len(screen.session.records) == 22
        jumps = [c for c in screen.palette_commands() if not c.discover]
        assert len(jumps) == (22 if most == 22 else 0)
        assert any(c.title == "Find" for c in screen.palette_commands())
    app.close()
