"""A quote far along a long line (a function of a minified script, a cell of a wide table) is
brought into view sideways: the source pane showed the line's first 50 columns, and the quote,
130,000 columns on, could be reached only by scrolling half a pane at a time."""

from __future__ import annotations

from pathlib import Path

from test_review_drift import opened
from test_review_paths import git, make_repo

from evidence.model import Quote
from evidence.reports.loading import load_reports
from keymaps import load_keymap
from screens.review.history import Location
from screens.widgets.source_layout import SIDE_CONTEXT, sideways
from screens.widgets.source_lines import quote_column
from tui.app import AssayApp
from tui.factory import make_app

REPORT = """\
Mini runtime report

Type: agentic-system-analyses/types/agentic-system-runtime-report.md

Runtime account

Evidence

Evidence is SRC-1 at revision {rev}.

Shared records

Components

MN-CMP-far

Label: Far along

The function far along the bundle (SRC-1, app.min.js):

{far} --- app.min.js:1

And one at the line's start:

{near} --- app.min.js:1
"""


def function(n: int) -> str:
    return f"function f{n}(a,b){{return a*{n % 7 + 2}+b}}"


#: a minified script: one line of 4,000 functions
BUNDLE = ";".join(map(function, range(4000))) + "\n"


def review_of_a_bundle(tmp_path: Path, far: int) -> AssayApp:
    """The review of a report quoting the bundle's function ``far`` and its first one."""
    repo = tmp_path / "repo"
    make_repo(repo, {"app.min.js": BUNDLE})
    rev = git(repo, "rev-parse", "HEAD")
    report = tmp_path / "mini-runtime-report.txt"
    report.write_text(REPORT.format(rev=rev, far=function(far), near=function(0)), "utf-8")
    keymap = load_keymap(user=False)
    return make_app(load_reports([report]), repo, rev, tmp_path / "v.db", "r", keymap)


def test_sideways_scrolls_only_to_a_cell_out_of_view() -> None:
    assert sideways(10, 0, 60) is None  # in view
    assert sideways(55, 0, 60) == 55 - SIDE_CONTEXT  # at the right edge: moved in
    assert sideways(5000, 0, 60) == 5000 - SIDE_CONTEXT
    assert sideways(3, 4000, 60) == 0  # back to the start of the line
    assert sideways(4020, 4000, 60) is None
    assert sideways(5000, 0, 0) is None  # not laid out yet


def test_a_quote_starts_at_its_region_or_where_its_first_line_is_found() -> None:
    line = "    x = 1; run(payload, timeout=30)"
    lines = ["first", line]
    quote = Quote("run(payload, timeout=30)", "a.py", (2, 2), 1, 1, "R", 0, inline=True)
    assert quote_column(quote, lines, 2) == line.index("run(")
    located = quote._replace(text="", columns=(12, 20))  # a SARIF region: its start column
    assert quote_column(located, lines, 2) == 11
    collapsed = quote._replace(text="x = 1; run(payload,\ntimeout=30) and more")
    assert quote_column(collapsed, lines, 2) == line.index("x = 1")
    assert quote_column(quote._replace(text="not there"), lines, 2) is None
    # a line repeating the quote's first 40 characters: the quote's own place, not the first
    call = "f(alpha_beta_gamma_delta_epsilon_zeta_eta, {});"
    repeated = f"{call.format(1)} {call.format(2)}"
    whole = quote._replace(text=call.format(2))
    assert quote_column(whole, [repeated], 1) == repeated.index(call.format(2)) > 0
    assert quote_column(quote, lines, 3) is None


async def test_the_source_pane_shows_a_quote_far_along_its_line(tmp_path: Path) -> None:
    app = review_of_a_bundle(tmp_path, far=3000)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened(pilot, app, "MN-CMP-far")
        view = screen.source_view
        start = BUNDLE.index(function(3000))
        assert view.scroll_x == start - SIDE_CONTEXT  # the quote, 8 columns of code before it
        drawn = "".join(view.render_line(view.cursor_line - 1 - int(view.scroll_y)).text.split())
        assert "".join(function(3000).split())[:20] in drawn
        record = screen.location.record
        screen.go(Location(record, 1), on_quote=True)  # the next quote: the line's start again
        await screen.settle()
        await pilot.pause()
        assert view.scroll_x == 0


async def test_a_grep_hit_far_along_its_line_is_brought_into_view(tmp_path: Path) -> None:
    from screenkit import on_top, settle

    from screens.grep import GrepScreen

    app = review_of_a_bundle(tmp_path, far=1)
    async with app.run_test(size=(80, 24)) as pilot:
        review = await opened(pilot, app, "MN-CMP-far")
        view = review.source_view
        assert view.scroll_x == 0  # the quote is at the line's start
        await pilot.press("G")
        await pilot.pause()
        assert isinstance(app.screen, GrepScreen)
        await pilot.press(*"f3000[(]", "enter")
        await settle(pilot, review)
        await pilot.press("f4", "enter")
        await settle(pilot, review)
        assert on_top(app) is review and view.path == "app.min.js"
        assert view.scroll_x == BUNDLE.index("f3000(") - SIDE_CONTEXT


async def test_browse_opens_a_grep_hit_at_its_match(tmp_path: Path) -> None:
    from test_lookup_browse import settle

    from evidence.revision import Revision
    from screens.widgets.source_view import SourceView
    from tui.factory import make_browse_app

    repo = tmp_path / "repo"
    make_repo(repo, {"app.min.js": BUNDLE})
    with Revision.open(repo) as revision:
        app = make_browse_app(revision)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            screen = app.screen
            await pilot.press("G")
            await pilot.pause()
            await pilot.press(*"f3000[(]", "enter")
            await settle(pilot)
            await pilot.press("f4", "enter")
            await settle(pilot)
            assert app.screen is screen
            view = screen.query_one(SourceView)
            assert view.path == "app.min.js"
            assert view.scroll_x == BUNDLE.index("f3000(") - SIDE_CONTEXT
