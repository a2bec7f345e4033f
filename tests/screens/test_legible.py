"""Issue 23, legible: every text a reviewer reads (the record, its quotes, the source, the list's
rows and headings, the pane titles, the header, the status line and the keys) meets WCAG AA,
4.5:1, in both themes, measured on what the app draws (its screenshot's colours, dim text and
tints blended), not on a list of theme colours; borders and marks 3:1."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from rendered import DRAWING, Cell, contrast, low_contrast, screen_backgrounds, screen_cells
from textual.app import App
from textual.geometry import Region
from textual.notifications import SeverityLevel
from textual.pilot import Pilot
from textual.widget import Widget

from keymaps import load_keymap
from screens.review.history import Location
from screens.review.screen import ReviewScreen
from screens.themes import DARK, LIGHT
from screens.widgets.dialog_lines import DialogLines
from screens.widgets.drawn_bar import DrawnBar
from screens.widgets.footer import KeysBar
from tui.factory import make_demo_app


def areas(screen: ReviewScreen) -> dict[str, list[Region]]:
    """Where each pane's text is drawn: its content (scrollbars left out) and its border's
    top and bottom rows (title, subtitle)."""
    named: dict[str, Widget] = {
        "records": screen.records_pane,
        "record": screen.record_pane,
        "source": screen.source_view,
        "quote info": screen.quote_info,
        "header": screen.query_one("#review-header"),
        "status line": screen.query_one("#target"),
        "keys": screen.query_one(KeysBar),
    }
    if screen.quote_diff is not None:
        named["diff"] = screen.query_one("#diff")
    found: dict[str, list[Region]] = {}
    for name, widget in named.items():
        region = widget.region
        if not region.area:
            continue
        content = widget.scrollable_content_region
        bar = getattr(widget, "bar", None)  # a scrollbar the pane draws in its own lines
        if isinstance(bar, DrawnBar):
            content = Region(content.x, content.y, content.width - bar.width, content.height)
        found[name] = [content]
        if widget.styles.border_top[0]:
            found[name] += [region.crop_size((region.width, 1))]
            found[name] += [Region(region.x, region.bottom - 1, region.width, 1)]
    return found


def text_count(cells: dict[tuple[int, int], Cell], region: Region) -> int:
    return sum(
        1
        for (x, y), cell in cells.items()
        if region.contains(x, y) and not DRAWING.match(cell.char)
    )


async def measured(
    screen: ReviewScreen, pilot: Pilot[Any], app: App[Any]
) -> tuple[list[str], dict[str, int]]:
    await pilot.pause()
    await pilot.pause()
    cells = screen_cells(app)
    low: list[str] = []
    counts: dict[str, int] = {}
    for name, regions in areas(screen).items():
        counts[name] = sum(text_count(cells, region) for region in regions)
        for region in regions:
            low += [f"{name} {line}" for line in low_contrast(cells, region)]
    return low, counts


async def reviewing_record(app: App[Any], record_id: str, quote: int | None = None) -> ReviewScreen:
    """The demo's review screen, settled, on a record (``quote``: on that quote of it)."""
    screen = next(s for s in app.screen_stack if isinstance(s, ReviewScreen))
    await screen.settle()
    index = next(n for n, r in enumerate(screen.session.records) if r.id == record_id)
    screen.go(Location(index, quote if quote is not None else 0), on_quote=quote is not None)
    await screen.settle()
    return screen


@pytest.mark.parametrize("size", [(120, 40), (80, 24)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("theme", [DARK, LIGHT])
async def test_every_text_read_meets_aa(
    tmp_path: Path, sample: Path, theme: str, size: tuple[int, int]
) -> None:
    app = make_demo_app(tmp_path, reviewer="k", keymap=load_keymap(user=False), theme=theme)
    async with app.run_test(size=size) as pilot:
        screen = await reviewing_record(app, "KS-RTE-note-sync", quote=1)
        for _ in range(100):
            await pilot.pause()
            view = screen.source_view
            if view.line_count and view.is_highlighted(view.cursor_line):
                break
        problems: list[str] = []
        # the records list focused (its cursor row), then the record (a quote's row), then the
        # source with the diff open
        low, counts = await measured(screen, pilot, app)
        problems += low
        assert counts["record"] > 150 and counts["records"] > 150 and counts["source"] > 100
        screen.record_pane.focus()
        low, counts = await measured(screen, pilot, app)
        problems += low
        await pilot.press("d")
        screen.source_view.focus()
        low, counts = await measured(screen, pilot, app)
        problems += low
        assert counts["diff"] > 40 and counts["keys"] > 40 and counts["status line"] > 20
        assert problems == []
    app.close()


@pytest.mark.parametrize("theme", [DARK, LIGHT])
async def test_drift_reads_at_aa(tmp_path: Path, sample: Path, theme: str) -> None:
    # the drift's colours: its rows under the quotes, the line under the source, REV's marks
    from evidence.sample import TIP_REVISION

    keymap = load_keymap(user=False)
    app = make_demo_app(tmp_path, reviewer="k", keymap=keymap, theme=theme, against=TIP_REVISION)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await reviewing_record(app, "KS-OBJ-station-registry", quote=0)
        assert screen.session.drifts
        screen.record_pane.focus()
        low, counts = await measured(screen, pilot, app)
        assert "changed at" in str(screen.quote_info.render()) and counts["quote info"] > 60
        await pilot.press("t")
        screen.source_view.focus()
        more, _ = await measured(screen, pilot, app)
        assert low + more == []
    app.close()


@pytest.mark.parametrize(
    ("key", "dialog"),
    [("question_mark", "#help-dialog"), ("e", "#note-dialog"), ("slash", "#find-dialog")],
)
@pytest.mark.parametrize("theme", [DARK, LIGHT])
async def test_the_dialogs_read_at_aa(
    tmp_path: Path, sample: Path, theme: str, key: str, dialog: str
) -> None:
    app = make_demo_app(tmp_path, reviewer="k", keymap=load_keymap(user=False), theme=theme)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = next(s for s in app.screen_stack if isinstance(s, ReviewScreen))
        await screen.settle()
        await pilot.press(key)
        for _ in range(10):
            await pilot.pause()
        region = app.screen.query_one(dialog).region
        cells = screen_cells(app)
        assert text_count(cells, region) > 20  # its title, hint or text at least
        # text at 4.5:1; not its scrollbars (borders and marks are checked on the panes)
        assert low_contrast(cells, region, drawing=1.0) == []
        # and its own status line and keys, over the review's
        lines = app.screen.query_one(DialogLines).region
        assert text_count(cells, lines) > 10 and low_contrast(cells, lines, drawing=1.0) == []
    app.close()


@pytest.mark.parametrize("theme", [DARK, LIGHT])
async def test_a_verdict_under_the_cursor_reads_at_aa(
    tmp_path: Path, sample: Path, theme: str
) -> None:
    # the badge's colour is picked for the pane's background: a refuted record's ✗ read at
    # 2.1:1 (dark) and 1.0:1 (light) on the cursor's, the one row the reviewer is looking at
    app = make_demo_app(tmp_path, reviewer="k", keymap=load_keymap(user=False), theme=theme)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await reviewing_record(app, "KS-OBJ-station-db")
        screen.records_pane.focus()
        await pilot.press("r")
        await screen.settle()
        low, counts = await measured(screen, pilot, app)
        assert counts["records"] > 150
        assert [line for line in low if line.startswith("records")] == []
    app.close()


def bar_columns(widget: Widget) -> Region:
    """The columns of a pane's vertical scrollbar: drawn in its own lines, or Textual's."""
    content = widget.scrollable_content_region
    bar = getattr(widget, "bar", None)
    if isinstance(bar, DrawnBar):
        return Region(content.right - bar.width, content.y, bar.width, content.height)
    return Region(content.right, content.y, widget.scrollbar_size_vertical, content.height)


def thumb_and_track(app: App[Any], widget: Widget) -> set[str]:
    """The colours a pane's scrollbar is painted in (its thumb's and its track's)."""
    painted = screen_backgrounds(app)
    columns = bar_columns(widget)
    rows = range(columns.y, columns.bottom)
    return {painted[x, y] for x in range(columns.x, columns.right) for y in rows}


@pytest.mark.parametrize("theme", [DARK, LIGHT])
async def test_a_scrollbar_thumb_is_told_from_its_track(
    tmp_path: Path, sample: Path, theme: str
) -> None:
    # where the reviewer is in a pane: its thumb read at 1.55:1 (dark) and 1.93:1 (light)
    # against the track, Textual's default colours; WCAG 1.4.11 asks 3:1 of such a part
    app = make_demo_app(tmp_path, reviewer="k", keymap=load_keymap(user=False), theme=theme)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await reviewing_record(app, "KS-RTE-note-sync", quote=1)
        for _ in range(5):
            await pilot.pause()
        panes = (screen.records_pane, screen.record_pane)
        measured: list[tuple[str, str, float]] = []
        for pane in panes:
            colours = thumb_and_track(app, pane)
            assert len(colours) == 2, (pane.id, colours)  # a thumb on its track
            first, second = colours
            measured.append((first, second, contrast(first, second)))
            # and under the pointer (the hover colours)
            bar = bar_columns(pane)
            await pilot.hover(pane, offset=(bar.x - pane.region.x, bar.bottom - pane.region.y - 1))
            await pilot.pause()
            await pilot.pause()
            first, second = thumb_and_track(app, pane)
            measured.append((first, second, contrast(first, second)))
        assert [m for m in measured if m[2] < 3.0] == []
    app.close()


@pytest.mark.parametrize("theme", [DARK, LIGHT])
async def test_a_question_and_its_keys_read_at_aa(tmp_path: Path, sample: Path, theme: str) -> None:
    # the note's "discard?" drew Textual's buttons: the focused label at 3.62:1, bevels and the
    # light theme's warning border under 3:1
    app = make_demo_app(tmp_path, reviewer="k", keymap=load_keymap(user=False), theme=theme)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = next(s for s in app.screen_stack if isinstance(s, ReviewScreen))
        await screen.settle()
        await pilot.press("e", *"draft", "escape")
        for _ in range(8):
            await pilot.pause()
        region = app.screen.query_one("#confirm-dialog").region
        cells = screen_cells(app)
        said = "".join(
            c.char
            for (x, y), c in sorted(cells.items(), key=lambda i: i[0][::-1])
            if region.contains(x, y)
        )
        assert "y:Discard·n/esc:Keepediting" in said
        assert low_contrast(cells, region) == []  # text 4.5:1, its border 3:1
    app.close()


LOOKUPS = [  # keys pressed on a quote of KS-RTE-note-sync, the dialog's box
    (("o", *"api"), "#finder-box"),
    (("ctrl+g", *"token", "enter"), "#grep-box"),
    (("tab", "tab", "b"), "#backlinks-box"),
    (("colon", *"9999"), ".lookup-dialog"),
    (("ctrl+f", *"zzq"), ".lookup-dialog"),
    (("A", *"nope"), ".lookup-dialog"),
    (("ctrl+p", *"KS-RTE"), ".lookup-dialog"),
]


@pytest.mark.parametrize(
    ("keys", "box"), LOOKUPS, ids=lambda p: p[0] if isinstance(p, tuple) else p
)
@pytest.mark.parametrize("theme", [DARK, LIGHT])
async def test_the_lookups_read_at_aa(
    tmp_path: Path, sample: Path, theme: str, keys: tuple[str, ...], box: str
) -> None:
    """Their titles in the accent read at 3.17:1 in the light theme, and their rows' coloured
    parts (a path, a line number, a match, the palette's dimmed help) at 1-3.6:1 on the
    highlighted row: every row now drawn legible on its own background."""
    app = make_demo_app(tmp_path, reviewer="k", keymap=load_keymap(user=False), theme=theme)
    async with app.run_test(size=(120, 40)) as pilot:
        await reviewing_record(app, "KS-RTE-note-sync", quote=0)
        for key in keys:
            await pilot.press(key)
            await pilot.pause()
        for _ in range(10):
            await pilot.pause()
        region = app.screen.query_one(box).region
        cells = screen_cells(app)
        assert text_count(cells, region) > 10
        assert low_contrast(cells, region, drawing=1.0) == []
    app.close()


@pytest.mark.parametrize("theme", [DARK, LIGHT])
async def test_the_browse_screen_reads_at_aa(sample: Path, theme: str) -> None:
    # its title line drew the revision in the accent and the path in the secondary colour:
    # 2.9-3.0:1 in both themes
    from evidence.revision import Revision
    from evidence.sample import CITED_REVISION
    from tui.factory import make_browse_app

    revision = Revision.open(sample, CITED_REVISION)
    keymap = load_keymap(user=False)
    app = make_browse_app(revision, path="api/server.py", line=60, keymap=keymap, theme=theme)
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(20):
            await pilot.pause()
        await pilot.press("j", "j")
        for _ in range(5):
            await pilot.pause()
        cells = screen_cells(app)
        assert text_count(cells, app.screen.region) > 1000
        assert low_contrast(cells, app.screen.region, drawing=1.0) == []
    app.close()


@pytest.mark.parametrize("severity", ["information", "warning", "error"])
@pytest.mark.parametrize("theme", [DARK, LIGHT])
async def test_a_notice_reads_at_aa(
    tmp_path: Path, sample: Path, theme: str, severity: SeverityLevel
) -> None:
    # run_test leaves notices out unless asked (notifications=True): never measured before
    app = make_demo_app(tmp_path, reviewer="k", keymap=load_keymap(user=False), theme=theme)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        screen = next(s for s in app.screen_stack if isinstance(s, ReviewScreen))
        await screen.settle()
        app.clear_notifications()
        app.notify("your verdicts on 3 results followed them", severity=severity, timeout=30)
        for _ in range(10):
            await pilot.pause()
        (toast,) = app.screen.query("Toast")
        cells = screen_cells(app)
        assert text_count(cells, toast.region) > 30
        assert low_contrast(cells, toast.region) == []  # text 4.5:1, its bar 3:1
    app.close()
