"""Systems named as people name them: wide characters, spaces, markup-like text, and control
characters that the screen shows as symbols. The audit screen's columns stay where their titles
are, whatever a name holds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from auditkit import REPORT, make_repo
from rich.cells import cell_len

from evidence.audit.check import check_audit
from evidence.audit.file import load_audit
from keymaps import load_keymap
from screens.audit.screen import AuditScreen, SystemsList
from tui.audit_app import load_state, make_audit_app

FILES = {"src/app.py": "def handler():\n    return compute(42)\n\nLIMIT = 12\n"}
#: name as TOML writes it -> the name itself
NAMES = {
    "名前 スペース Système": "名前 スペース Système",
    "[bold]Red[/bold] [@click=app.quit]x[/]": "[bold]Red[/bold] [@click=app.quit]x[/]",
    "Esc\\u001b[31mRed\\u0007 \\u202eevil": "Esc\x1b[31mRed\x07 \u202eevil",
    "Tab\\tin it": "Tab\tin it",
    "Plain": "Plain",
}


def make_named_audit(root: Path) -> Path:
    """One repository, one report per system of NAMES (each titled with its name)."""
    rev = make_repo(root / "repo", FILES)
    tables = []
    for index, (written, name) in enumerate(NAMES.items()):
        report = root / "reports" / f"r{index}.txt"
        report.parent.mkdir(parents=True, exist_ok=True)
        report.write_text(REPORT.format(system=name, prefix=f"S{index}", rev=rev), "utf-8")
        tables.append(
            f'[[system]]\nname = "{written}"\nrepository = "repo"\nreports = ["{report.name}"]\n'
        )
    audit = root / "reports" / "assay.toml"
    audit.write_text("\n".join(tables).replace('"repo"', '"../repo"'), encoding="utf-8")
    return audit


def rows(screen: AuditScreen) -> list[str]:
    systems = screen.query_one(SystemsList)
    return [str(systems.row(n).prompt) for n in range(systems.row_count)]


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
async def test_every_row_keeps_the_columns_whatever_the_name_holds(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    audit = load_audit(make_named_audit(tmp_path))
    assert [system.name for system in audit.systems] == list(NAMES.values())
    anchors = tmp_path / "anchors"
    check_audit(audit, anchor_cache=anchors, processes=1)
    app = make_audit_app(
        load_state(audit), tmp_path / "v.db", "ada", load_keymap(user=False), anchor_cache=anchors
    )
    async with app.run_test(size=size) as pilot:
        screen: Any = app.screen
        assert isinstance(screen, AuditScreen)
        for _ in range(2):
            await app.workers.wait_for_complete()
            await pilot.pause()
        shown = rows(screen)
        assert len(shown) == len(NAMES)
        header = str(screen.query_one("#audit-columns").render())
        # each row as wide as every other and as the titles: a name's wide characters and the
        # symbols its controls became were cut by characters, not cells, pushing the counts
        # right and cutting the last column
        widths = {cell_len(row) for row in shown}
        assert widths == {cell_len(header)}, shown
        last = {row.split()[-1] for row in shown}
        assert last == {"never" if size[0] == 120 else "1"}, shown  # the last column whole
        for row in shown:
            assert "\t" not in row and "\x1b" not in row and "\u202e" not in row
    app.close()


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
async def test_more_systems_than_the_screen_holds_keep_their_last_column(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    # the rows were cut to the list's width before its scrollbar came: each lost its last
    # two cells, the last column's count ("no path") shown as "…" at 80 columns
    rev = make_repo(tmp_path / "repo", FILES)
    tables = []
    for index in range(40):
        report = tmp_path / f"s{index:02d}-report.txt"
        report.write_text(REPORT.format(system=f"S{index:02d}", prefix="X", rev=rev), "utf-8")
        tables.append(f'[[system]]\nname = "S{index:02d}"\nrepository = "repo"\n')
        tables[-1] += f'reports = ["{report.name}"]\n'
    path = tmp_path / "assay.toml"
    path.write_text("\n".join(tables), encoding="utf-8")
    audit = load_audit(path)
    anchors = tmp_path / "anchors"
    check_audit(audit, anchor_cache=anchors, processes=1)
    app = make_audit_app(
        load_state(audit), tmp_path / "v.db", "ada", load_keymap(user=False), anchor_cache=anchors
    )
    async with app.run_test(size=size) as pilot:
        screen: Any = app.screen
        for _ in range(2):
            await app.workers.wait_for_complete()
            await pilot.pause()
        systems = screen.query_one(SystemsList)
        assert systems.max_scroll_y > 0  # the scrollbar is there
        room = systems.row_width  # the content's width less the bar's columns
        assert room == systems.scrollable_content_region.width - SystemsList.BAR
        shown = rows(screen)
        assert all(cell_len(row) <= room for row in shown), (room, shown[0])
        assert not any("…" in row for row in shown), shown[0]
    app.close()


LONG = "Alpha field-station telemetry gateway"


@pytest.mark.parametrize(
    ("size", "checked"), [((120, 40), False), ((80, 24), False), ((80, 24), True)]
)
async def test_the_status_line_keeps_the_name_and_the_filter(
    tmp_path: Path, size: tuple[int, int], checked: bool
) -> None:
    # at 80 columns the line under the systems was cut before the filter it names, and a long
    # repository path or the way to check pushed it out
    from auditkit import make_audit

    path = make_audit(tmp_path / "a-directory-with-a-long-name" / "of-an-audit-of-many-systems")
    path.write_text(path.read_text().replace('"Alpha"', f'"{LONG}"'), encoding="utf-8")
    audit = load_audit(path)
    anchors = tmp_path / "anchors"
    if checked:
        check_audit(audit, anchor_cache=anchors, processes=1)
    app = make_audit_app(
        load_state(audit), tmp_path / "v.db", "ada", load_keymap(user=False), anchor_cache=anchors
    )
    async with app.run_test(size=size) as pilot:
        screen: Any = app.screen
        for _ in range(2):
            await app.workers.wait_for_complete()
            await pilot.pause()
        for filter_name in ("all", "unreviewed"):
            await pilot.press(*["k"] * len(rows(screen)))
            for row in range(len(rows(screen))):
                if row:
                    await pilot.press("j")
                name = screen.state.entries[screen.order[row]].name
                status = screen.query_one("#audit-status")
                text = str(status.render())
                assert cell_len(text) <= status.content_region.width, text
                assert text.startswith(f"{name}: "), text
                assert f"filter: {filter_name}" in text, text
                entry = screen.state.entries[screen.order[row]]
                if size[0] >= 120 and entry.system.repository is not None:
                    # room for its repository too: its last directories at least
                    assert text.endswith(entry.system.repository.name), text
            await pilot.press("f", "f")
    app.close()
