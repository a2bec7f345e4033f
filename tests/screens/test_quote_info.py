"""The line under the source: what it says of a quote fits its three lines, shorter words first,
and what is still cut ends with an ellipsis (never cut silently)."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.content import Content

from evidence.model import Anchor, Elsewhere, FileState, Quote, Tier
from screens.widgets.quote_info import QuoteInfo


class Holder(App[None]):
    CSS = "QuoteInfo { width: 40; height: auto; min-height: 2; max-height: 3; padding: 0 1; }"

    def compose(self) -> ComposeResult:
        yield QuoteInfo()


def missing(path: str, found: list[str]) -> Anchor:
    """A quote missing from ``path`` (which exists), found in the ``found`` files."""
    quote = Quote("x = 1", path, (3, 3), 10, 11, "R-1", 0)
    places = tuple(Elsewhere(other, (5, 5), Tier.EXACT) for other in found)
    return Anchor(quote, FileState.OK, Tier.MISSING, 0, None, elsewhere=places)


def shown(info: QuoteInfo) -> list[str]:
    return [strip.text.rstrip() for strip in info.render_lines(info.region.reset_offset)]


async def test_the_shorter_words_when_the_whole_text_needs_more_lines() -> None:
    app = Holder()
    async with app.run_test(size=(60, 10)) as pilot:
        info = app.query_one(QuoteInfo)
        anchor = missing("src/a/long/path/module.py", ["src/b.py"])
        info.show(anchor.quote, anchor, opened=None)
        await pilot.pause()
        lines = shown(info)
        assert len(lines) == 3
        said = " ".join(" ".join(lines).split())
        assert "not in the cited file" in said and "found in src/b.py:5" in said
        assert "enter: open it" in said and said.endswith("d: diff")
        assert "…" not in said


async def test_what_still_does_not_fit_ends_with_an_ellipsis() -> None:
    app = Holder()
    async with app.run_test(size=(60, 10)) as pilot:
        info = app.query_one(QuoteInfo)
        far = "src/" + "/".join(f"directory{n}" for n in range(8)) + "/module.py"
        anchor = missing("src/a.py", [far, "src/c.py"])
        info.show(anchor.quote, anchor, opened=None)
        await pilot.pause()
        lines = shown(info)
        assert len(lines) == 3 and info.size.height == 3
        assert lines[-1].endswith("…"), lines
        # the lines before the last are as wrapped, not cut
        assert "found in src/directory0" in " ".join(" ".join(lines).split())


async def test_a_short_text_is_left_as_it_is() -> None:
    app = Holder()
    async with app.run_test(size=(60, 10)) as pilot:
        info = app.query_one(QuoteInfo)
        quote = Quote("x = 1", "src/a.py", (3, 3), 10, 11, "R-1", 0)
        anchor = Anchor(quote, FileState.OK, Tier.EXACT, 100, (3, 3), range_ok=True)
        info.show(quote, anchor, opened=None)
        await pilot.pause()
        said = " ".join(" ".join(shown(info)).split())
        assert said == "[1] ✓ exact 100 line 3 as claimed"


def test_a_key_hint_wraps_whole() -> None:
    # at 80x24 a normalized quote's line read "… lines 2-3  d: what" then "differs"
    from screens.widgets.quote_info import hints_whole, quote_info

    quote = Quote("x = 1", "src/a.py", None, 10, 11, "R-1", 0)
    anchor = Anchor(quote, FileState.OK, Tier.NORMALIZED, 100, (2, 3))
    for verdict in (None, Content("confirmed"), Content("refuted by two reviewers")):
        text = quote_info(quote, anchor, verdict)
        assert text.plain.endswith("  d: what differs")
        for width in range(16, text.cell_length + 1):
            lines = [line.plain.strip() for line in hints_whole(text, width).wrap(width)]
            assert sum("d: what differs" in line for line in lines) == 1, (width, lines)
            assert all(line.endswith(("differs", "lines 2-3")) or "d:" not in line
                       for line in lines), (width, lines)  # fmt: skip


def test_as_claimed_wraps_whole() -> None:
    # at 80x24 a long line range left "as" at a line's end and "claimed" alone below it
    from screens.widgets.quote_info import hints_whole, quote_info

    quote = Quote("x = 1", "src/a.py", (20045, 20048), 10, 11, "R-1", 0)
    anchor = Anchor(quote, FileState.OK, Tier.WHITESPACE, 100, (20045, 20048), range_ok=True)
    text = quote_info(quote, anchor, Content("open"))
    assert text.plain.endswith("  as claimed")
    for width in range(16, text.cell_length + 1):
        lines = [line.plain.strip() for line in hints_whole(text, width).wrap(width)]
        assert sum("as claimed" in line for line in lines) == 1, (width, lines)


async def test_a_hint_kept_whole_at_one_width_flows_back_when_the_line_widens() -> None:
    # the line break before a hint is taken where it is drawn: a pane widened after `show`
    # (the records list hidden) put "as claimed" back on the first line
    app = Holder()
    async with app.run_test(size=(100, 10)) as pilot:
        info = app.query_one(QuoteInfo)
        info.styles.width = 52  # "as" would end the first line
        await pilot.pause()
        quote = Quote("x = 1", "src/a.py", (20045, 20048), 10, 11, "R-1", 0)
        anchor = Anchor(quote, FileState.OK, Tier.WHITESPACE, 100, (20045, 20048), range_ok=True)
        info.show(quote, anchor, opened=None, verdict=Content("open"))
        await pilot.pause()
        assert [line.strip() for line in shown(info)][-1] == "as claimed", shown(info)
        info.styles.width = 90
        await pilot.pause()
        assert shown(info)[0].strip().endswith("as claimed"), shown(info)
