"""Issue 17, "Drift: in the app": the review app on the sample with drift against its tip, under
Pilot: badges, the drifted filter, the source pane at REV, commit rows and their modal, the
note, `A` asking for REV, and `assay review --against` refusing an unknown REV."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from screenkit import index_of, on_top, press, watch_notices
from textual.app import App
from textual.content import Content
from textual.pilot import Pilot
from textual.widgets import Input, Static

from evidence.sample import CITED_REVISION, SAMPLE_REPORTS, TIP_REVISION
from keymaps import load_keymap
from screens.drift_dialogs import AgainstDialog, CommitScreen
from screens.review.history import Location
from screens.review.screen import ReviewScreen
from tui.app import AssayApp
from tui.cli import cli
from tui.factory import make_demo_app

REGISTRY = "KS-OBJ-station-registry"  # quote [1]: stations.py 20045-20048, changed to 20051-20054
SYNC = "KS-CMP-sync-worker"  # every quote unchanged
#: quotes nothing; cites web/src/api/client.ts, api/server.py and worker/src/digest.js
BOUNDARY = "workflow:selection-and-evidence-boundary"


async def opened(pilot: Pilot[Any], app: App[Any], record_id: str | None = None) -> ReviewScreen:
    screen = app.screen
    assert isinstance(screen, ReviewScreen)
    await screen.settle()
    await pilot.pause()
    if record_id is not None:
        screen.go(Location(index_of(screen, record_id), 0), on_quote=True)
        await screen.settle()
        await pilot.pause()
    return screen


def demo(tmp_path: Path, against: str | None = TIP_REVISION) -> AssayApp:
    return make_demo_app(tmp_path, reviewer="r", keymap=load_keymap(user=False), against=against)


def header(screen: ReviewScreen) -> str:
    return str(screen.query_one("#review-header").render())


async def test_against_opens_with_a_drift_badge_per_record(tmp_path: Path, sample: Path) -> None:
    app = demo(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, app)
        session = screen.session
        assert len(session.drifts) == sum(len(r.quotes) for r in session.records)
        assert "drift vs 8df75ac" in header(screen)
        badge = {r.id: screen.records_pane.prompt(n).drift for n, r in enumerate(session.records)}
        assert badge[REGISTRY] == "Δ"  # changed
        assert badge[SYNC] == "="  # unchanged
        assert "⊘" in badge.values()  # worker/src/digest.js was deleted
        assert "↕" in badge.values()  # moved passages
        row = str(screen.records_pane.prompt(index_of(screen, REGISTRY)))
        assert "Δ" in row


async def test_the_drifted_filter_lists_changed_and_deleted_quotes_and_cited_files_only(
    tmp_path: Path, sample: Path
) -> None:
    app = demo(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, app)
        assert "drifted" in screen.session.filters()
        while screen.filter != "drifted":
            await press(pilot, screen, "f")
        listed = {screen.session.records[n].id for n in screen.rows if n >= 0}
        breaks = {
            r.id
            for r in screen.session.records
            if any(screen.session.drifts[q].status.breaks for q in r.quotes)
            or any(d.breaks for d in screen.session.record_cited_drifts(r))
        }
        assert listed == breaks
        assert REGISTRY in listed and SYNC not in listed
        assert BOUNDARY in listed  # for worker/src/digest.js, deleted since
        assert str(screen.records_pane.border_subtitle).endswith("/22 drifted")


async def test_without_drift_there_is_no_drifted_filter(tmp_path: Path, sample: Path) -> None:
    app = demo(tmp_path, against=None)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, app)
        assert "drifted" not in screen.session.filters()
        assert screen.records_pane.prompt(index_of(screen, REGISTRY)).drift == ""
        assert "drift" not in header(screen)


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
async def test_t_shows_the_passage_at_its_new_lines_at_rev_and_back(
    tmp_path: Path, sample: Path, size: tuple[int, int]
) -> None:
    app = demo(tmp_path, "main")  # the source title names REV as the reviewer gave it
    async with app.run_test(size=size) as pilot:
        screen = await opened(pilot, app, REGISTRY)
        view = screen.source_view
        assert "@802776d" in str(view.border_title)
        assert view.marks.matched == (20045, 20048)
        await press(pilot, screen, "t")
        assert "@8df75ac (main)" in str(view.border_title)
        assert "REV" not in str(view.border_title)
        assert view.marks.matched == (20051, 20054)
        assert view.cursor_line == 20051
        assert view.path == "api/kestrel/stations.py"
        await press(pilot, screen, "t")
        assert "@802776d" in str(view.border_title)
        assert view.marks.matched == (20045, 20048)


async def test_the_line_under_the_source_says_what_became_of_the_quote(
    tmp_path: Path, sample: Path
) -> None:
    app = demo(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, app, REGISTRY)
        line = screen.quote_info
        assert str(line.render()).endswith("  Δ changed at 8df75ac, t: see it")
        await press(pilot, screen, "t")
        assert str(line.render()).endswith("  Δ changed at 8df75ac, t: back")
        await press(pilot, screen, "t")
        screen.go(Location(index_of(screen, SYNC), 0), on_quote=True)
        await screen.settle()
        await pilot.pause()
        assert "at 8df75ac" not in str(line.render())  # unchanged: nothing to say


async def test_t_on_a_quote_whose_file_was_deleted_says_so(tmp_path: Path, sample: Path) -> None:
    app = demo(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, app)
        record, n = next(
            (r, k)
            for r in screen.session.records
            for k, q in enumerate(r.quotes)
            if q.path == "worker/src/digest.js"
        )
        screen.go(Location(index_of(screen, record.id), n), on_quote=True)
        await screen.settle()
        await press(pilot, screen, "t")
        view = screen.source_view
        assert view.message is not None and "the quoted file was deleted" in view.message
        assert view.message.startswith("@8df75ac: ")  # given by its id: named once
        assert "worker/src/digest.js @8df75ac" in str(view.border_title)
        await press(pilot, screen, "t")
        assert view.message is None and view.path == "worker/src/digest.js"


async def test_commit_rows_open_the_commit_and_its_diff(tmp_path: Path, sample: Path) -> None:
    app = demo(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, app, REGISTRY)
        drift = screen.session.drifts[screen.session.records[index_of(screen, REGISTRY)].quotes[0]]
        assert [c.id[:7] for c in drift.commits] == ["9a94997"]
        pane = screen.record_pane
        row = pane.row_index("commit-0-0")
        assert row is not None
        assert "9a94997" in str(pane.row(row).prompt)
        screen.set_focus(pane)
        pane.move_to(row)
        await press(pilot, screen, "enter")
        modal = app.screen
        assert isinstance(modal, CommitScreen)
        body = modal.query_one("#commit-text", Static).content
        assert isinstance(body, Content)
        text = str(body)
        assert drift.commits[0].id in text
        assert drift.commits[0].subject in text
        assert "api/kestrel/stations.py" in text and "\n@@ " in text
        assert any(line.startswith("+") for line in text.splitlines())
        await press(pilot, screen, "escape")
        assert app.screen is screen


async def test_n_notes_the_drift_and_verdicts_stay_on_the_cited_revision(
    tmp_path: Path, sample: Path
) -> None:
    app = demo(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, app, REGISTRY)
        record = screen.session.records[index_of(screen, REGISTRY)]
        item = screen.session.quote_item(record, record.quotes[0])
        await press(pilot, screen, "N")
        note = screen.session.note(item)
        assert note.startswith("drift at 8df75ac: changed, now api/kestrel/stations.py:20051")
        assert "commits 9a94997" in note
        await press(pilot, screen, "c")
        event = screen.session.event(item)
        assert event is not None and event.revision == CITED_REVISION


async def test_a_asks_for_rev_and_computes_the_drift(tmp_path: Path, sample: Path) -> None:
    app = demo(tmp_path, against=None)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, app)
        await press(pilot, screen, "A")
        assert isinstance(app.screen, AgainstDialog)
        field = app.screen.query_one(Input)
        field.value = "main"
        await press(pilot, screen, "enter")
        await screen.settle()
        await pilot.pause()
        assert on_top(app) is screen
        assert screen.drift.against is not None
        assert screen.drift.against.commit == TIP_REVISION
        assert "drift vs 8df75ac" in header(screen)
        assert screen.records_pane.prompt(index_of(screen, REGISTRY)).drift == "Δ"


async def test_a_with_an_unknown_rev_says_so(tmp_path: Path, sample: Path) -> None:
    app = demo(tmp_path, against=None)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, app)
        notices = watch_notices(app)
        await press(pilot, screen, "A")
        app.screen.query_one(Input).value = "no-such-rev"
        await press(pilot, screen, "enter")
        await screen.settle()
        await pilot.pause()
        assert screen.drift.against is None and not screen.session.drifts
        errors = [n for n in notices if n.severity == "error"]
        assert errors and "drift against no-such-rev" in errors[0].message
        assert not errors[0].markup
        assert "drift" not in header(screen)


def test_review_with_an_unknown_against_exits_2(sample: Path, tmp_path: Path) -> None:
    args = ["review", str(SAMPLE_REPORTS), "--repo", str(sample), "--db", str(tmp_path / "v.db")]
    result = CliRunner().invoke(cli, [*args, "--against", "no-such-rev"])
    assert result.exit_code == 2
    assert "--against no-such-rev" in result.output
    assert "Traceback" not in result.output


def test_help_explains_the_drift_badges() -> None:
    from screens.help import help_content

    text = help_content(load_keymap(user=False)).plain
    assert "⊘" in text and "Δ" in text and "↕" in text
    assert "Drift against a revision" in text and "Note the drift" in text


def test_help_explains_the_match_symbols() -> None:
    from screens.help import help_content

    text = help_content(load_keymap(user=False)).plain
    assert "How a quote matched" in text
    for said in ("✓ in its cited file", "! there, but not at the lines claimed", "≈ fuzzy"):
        assert said in text
    assert "... for lines left out" in text


def test_the_drift_keys_are_bound_in_both_presets() -> None:
    for preset in ("default", "vim"):
        keymap = load_keymap(preset, user=False)
        assert keymap.keys_for("against") == ("A",)
        assert keymap.keys_for("source_against") == ("t",)
        assert keymap.keys_for("note_drift") == ("N",)


async def test_d_at_rev_compares_the_cited_passage_with_rev(tmp_path: Path, sample: Path) -> None:
    app = demo(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, app, REGISTRY)
        await press(pilot, screen, "t", "d")
        diff = screen.quote_diff
        assert diff is not None
        text = str(diff.render())
        assert "the cited passage at 8df75ac: changed" in text
        assert "normalise_code" in text  # only at REV
        await press(pilot, screen, "t")
        assert "the cited passage at" not in str(diff.render())


def test_commit_text_is_data_never_markup() -> None:
    from screens.widgets.drift_rows import commit_content

    body = commit_content("[bold red]subject[/] \x1b[31mred\x1b]0;title\x07", "+[link=x]y[/link]\n")
    text = body.plain
    assert "[bold red]subject[/]" in text and "+[link=x]y[/link]" in text
    assert "\x1b" not in text and "\x07" not in text


async def test_the_app_shows_the_drift_assay_check_computes(tmp_path: Path, sample: Path) -> None:
    """The drift view, `N` (and so the write-up, which carries the notes) and `assay check
    --against` give each quote the same answer: one computation, evidence/drift.py."""
    from evidence.check import run_check
    from evidence.reports.loading import load_reports
    from evidence.revision import Revision
    from screens.widgets.drift_rows import drift_summary

    with Revision.open(sample, CITED_REVISION) as cited, Revision.open(sample, "main") as tip:
        result = run_check(load_reports([SAMPLE_REPORTS]), cited, against=tip)
    from dataclasses import replace

    expected = {
        (q.quote.path, q.quote.report_line, q.quote.text): d
        for q, d in zip(result.quotes, result.drifts, strict=True)
    }
    app = demo(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, app)
        shown = {(q.path, q.report_line, q.text): d for q, d in screen.session.drifts.items()}
        # where a quote not anchored is at REV: check says it, the review looks when `t` asks
        # (test_rev_quotes.py), by the same `found_place`
        assert shown == {key: d and replace(d, found=None) for key, d in expected.items()}
        assert sum(d is not None and d.found is not None for d in expected.values()) == 2
        screen.go(Location(index_of(screen, REGISTRY), 0), on_quote=True)
        await screen.settle()
        await press(pilot, screen, "N")
        record = screen.session.records[index_of(screen, REGISTRY)]
        note = screen.session.note(screen.session.quote_item(record, record.quotes[0]))
        drift = shown[(record.quotes[0].path, record.quotes[0].report_line, record.quotes[0].text)]
        assert note == "drift " + drift_summary(drift, "8df75ac")


async def test_the_header_says_when_rev_does_not_descend_from_the_cited_one(
    tmp_path: Path, sample: Path
) -> None:
    app = demo(tmp_path, against=f"{CITED_REVISION}~1")
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await opened(pilot, app)
        assert screen.session.drifts
        assert "(ancestor)" in header(screen)


DELETED_REPORT = """\
Sync runtime report

Type: agentic-system-analyses/types/agentic-system-runtime-report.md

Runtime account

Evidence

Evidence is SRC-1 at revision {rev}.

Shared records

Claims

SY-CLM-count

Label: The count

The sync counts what the remote held:

    before = 0
    if entry.size <= LIMIT:
        before = read(entry)
    total = before

--- sync.py:11-14
"""


PASSAGE = [
    "    before = 0",
    "    if entry.size <= LIMIT:",
    "        before = read(entry)",
    "    total = before",
]


def sync_review(tmp_path: Path, tip_lines: list[str]) -> tuple[AssayApp, str]:
    """The review of DELETED_REPORT, whose passage is sync.py:11-14 at the cited commit, with
    drift against a commit whose sync.py is `tip_lines` (and that commit's id)."""
    import subprocess

    from evidence.reports.loading import load_reports
    from tui.factory import make_app

    repo = tmp_path / "repo"
    repo.mkdir()

    def commit(lines: list[str]) -> str:
        (repo / "sync.py").write_text("\n".join(lines) + "\n")
        for args in (
            ["add", "."],
            ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "c"],
        ):
            subprocess.run(["git", *args], cwd=repo, check=True)
        return subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=repo, check=True, capture_output=True, text=True
        ).stdout.strip()

    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    cited = commit([*HEAD_LINES, *PASSAGE, "# end"])
    tip = commit(tip_lines)
    report = tmp_path / "sync-runtime-report.txt"
    report.write_text(DELETED_REPORT.format(rev=cited), encoding="utf-8")
    keymap = load_keymap(user=False)
    app = make_app(load_reports([report]), repo, cited, tmp_path / "v.db", "r", keymap, against=tip)
    return app, tip


HEAD_LINES = [f"# line {n}" for n in range(1, 11)]


async def test_t_on_a_deleted_passage_shows_what_stands_in_its_place(tmp_path: Path) -> None:
    rewritten = [
        "    parts_known = {path: blob for path, blob in held.items() if path in wanted}",
        "        # what the remote holds, as written here",
        "    )",
        "    total = before",
    ]
    app, tip = sync_review(tmp_path, ["# new", *HEAD_LINES, *rewritten, "# end"])
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await opened(pilot, app, "SY-CLM-count")
        (drift,) = screen.session.drifts.values()
        assert drift.status.value == "deleted" and drift.near == (12, 15)
        view = screen.source_view
        await press(pilot, screen, "t")
        assert f"@{tip[:7]}" in str(view.border_title)
        assert "deleted (its place: 12-15)" in str(view.border_title)
        assert view.marks.matched is None and view.marks.claimed == (12, 15)
        assert view.cursor_line == 12 and view.path == "sync.py"
        assert str(screen.quote_info.render()).endswith(
            f"  ⊘ deleted at {tip[:7]} (its place: 12-15), t: back"
        )
        rows = screen.record_pane
        pane = "\n".join(str(rows.row(n).prompt) for n in range(rows.row_count))
        assert "deleted (its place: sync.py:12-15)" in pane


async def test_a_passage_only_reindented_says_which_line_and_how(tmp_path: Path) -> None:
    """A line moved into the block above (the same words): the record pane and `d` at REV say
    which line was re-indented, not a diff that marks nothing."""
    indented = [*PASSAGE[:3], "        total = before"]
    app, tip = sync_review(tmp_path, ["# new", *HEAD_LINES, *indented, "# end"])
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await opened(pilot, app, "SY-CLM-count")
        (drift,) = screen.session.drifts.values()
        assert (drift.status.value, drift.lines) == ("changed", (12, 15))
        said = "(only whitespace: line 15 re-indented from 4 spaces to 8 spaces)"
        rows = screen.record_pane
        pane = "\n".join(str(rows.row(n).prompt) for n in range(rows.row_count))
        assert f"changed, now sync.py:12-15 {said}" in pane
        await press(pilot, screen, "t", "d")
        diff = screen.quote_diff
        assert diff is not None
        text = str(diff.render())
        assert said in text
        assert "the same text at REV but for its whitespace" in text
        assert "underlined red" not in text


async def at_record(pilot: Pilot[Any], screen: ReviewScreen, record_id: str) -> int:
    """The record shown, the verdict keys on it (no quote): its index."""
    index = index_of(screen, record_id)
    screen.go(Location(index, None))
    await screen.settle()
    await pilot.pause()
    return index


async def test_each_cited_file_says_what_became_of_it_at_rev(tmp_path: Path, sample: Path) -> None:
    # a record quoting nothing but citing files had no drift at all: its cited
    # worker/src/digest.js, deleted since, went unsaid
    app = demo(tmp_path)
    notices = watch_notices(app)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, app)
        index = await at_record(pilot, screen, BOUNDARY)
        pane = screen.record_pane
        rows = [pane.row(n).prompt.plain for n in range(pane.row_count)]
        cited = rows.index("─ cited files ─")
        edit = "      ● 9a94997 2026-03-16 Mira Okafor: Move scopes to permissions"
        deletion = "      ● 744d827 2026-03-18 Mira Okafor: Rename the format helpers "
        assert [row[:66] for row in rows[cited + 1 : cited + 9]] == [
            "✓ web/src/api/client.ts  present",
            "    = at 8df75ac: unchanged",
            "✓ api/server.py  present",
            "    ~ at 8df75ac: edited by 1 commit",
            edit,
            "✓ worker/src/digest.js  present",
            "    ⊘ at 8df75ac: file deleted",
            deletion,
        ]
        # enter on a cited file's commit shows it, with its diff of that file
        screen.set_focus(pane)
        pane.move_to(pane.row_index("filecommit-1-0"))
        await press(pilot, screen, "enter")
        modal = app.screen
        assert isinstance(modal, CommitScreen)
        assert str(modal.query_one("#commit-text", Static).content).startswith("9a949973db")
        assert "api/server.py" in str(modal.query_one("#commit-text", Static).content)
        await press(pilot, screen, "escape")
        assert screen.records_pane.prompt(index).drift == "⊘"
        assert any("cited files: " in n.message and "1 file deleted" in n.message for n in notices)


async def test_n_on_a_record_notes_its_cited_files_drift(tmp_path: Path, sample: Path) -> None:
    # a record quoting nothing: `N` said "put the cursor on a quote" though its files drifted
    app = demo(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, app)
        index = await at_record(pilot, screen, BOUNDARY)
        await press(pilot, screen, "N")
        await screen.verdicts.writer.flush()
        note = screen.session.note(screen.session.record_item(screen.session.records[index]))
        assert note == (
            "drift of cited files at 8df75ac: web/src/api/client.ts unchanged; api/server.py"
            " edited by 1 commit; worker/src/digest.js file deleted"
        )


def test_a_cited_files_commits_are_listed_five_and_the_rest_counted() -> None:
    from evidence.git.changes import CommitInfo
    from screens.widgets.drift_rows import MAX_FILE_COMMITS, commit_rows

    commits = [CommitInfo(f"{n:040x}", f"change {n}", "A", "2026-01-01") for n in range(8)]
    rows = list(commit_rows(commits, "filecommit-2", MAX_FILE_COMMITS))
    assert [row.id for row in rows] == [f"filecommit-2-{k}" for k in range(5)] + [None]
    assert rows[-1].prompt.plain == "      … 3 more (assay check --against --format json lists all)"
    assert rows[-1].disabled
    assert len(list(commit_rows(commits[:5], "filecommit-2", MAX_FILE_COMMITS))) == 5
