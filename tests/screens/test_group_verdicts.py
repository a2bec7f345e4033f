"""A verdict on a whole group of scanner results (`C R U S`): asked once, the results the filter
shows written in one transaction (notes kept), undone and redone by one key, refused where there
is no group."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from rendered import low_contrast, screen_cells
from screenkit import press, reviewing, settle, watch_notices
from test_sarif_triage import listed, scans

from db import Verdict, VerdictStore
from evidence.sample import CITED_REVISION
from keymaps import Keymap
from screens.group_verdict import GroupVerdictScreen
from screens.review.screen import ReviewScreen
from screens.themes import DARK, LIGHT
from screens.widgets.dialog_lines import DialogLines
from tui.app import AssayApp
from tui.cli import cli
from tui.factory import make_app, make_demo_app


def scans_app(db: Path, sample: Path, keymap: Keymap, theme: str = DARK) -> AssayApp:
    """The review of ruff's and Bandit's results of the sample, reviewer "t"."""
    return make_app(scans(sample), sample, CITED_REVISION, db, "t", keymap, theme=theme)


def results_of(screen: ReviewScreen, rule: str) -> list[int]:
    return [n for n, r in enumerate(screen.session.records) if r.section == rule]


def verdicts(screen: ReviewScreen, positions: list[int]) -> list[Verdict | None]:
    session = screen.session
    return [session.verdict(session.record_item(session.records[n])) for n in positions]


async def test_a_group_is_refuted_at_once_and_undone_together(
    tmp_path: Path, sample: Path, keymap: Keymap
) -> None:
    db = tmp_path / "t.db"
    app = scans_app(db, sample, keymap)
    notices = watch_notices(app)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = reviewing(app)
        await settle(pilot, screen)
        up045, f401 = results_of(screen, "UP045"), results_of(screen, "F401")
        assert len(up045) == 3 and f401
        await press(pilot, screen, "n", "e")  # a note on the group's second result
        await pilot.press(*"annotations only")
        await press(pilot, screen, "ctrl+s")
        noted = screen.location.record

        await press(pilot, screen, "R")
        dialog = app.screen
        assert isinstance(dialog, GroupVerdictScreen)
        assert dialog.question.splitlines()[0] == "Refute 3 results of rule UP045?"
        assert dialog.yes_label == "Refute 3"
        assert "typing → a note, then enter: Refute 3" in str(dialog.status())
        await press(pilot, screen, "escape")  # not given: nothing is written
        assert app.screen is screen and verdicts(screen, up045) == [None] * 3

        await press(pilot, screen, "R", "enter")  # no note typed: each keeps its own
        assert verdicts(screen, up045) == [Verdict.REFUTED] * 3
        assert verdicts(screen, f401) == [None] * len(f401)  # the next rule's: untouched
        session = screen.session
        assert session.note(session.record_item(session.records[noted])) == "annotations only"
        assert notices[-1].message == "3 results of rule UP045: refuted"
        rows = screen.records_pane.rows
        drawn = listed(screen)
        assert all(drawn[rows.index(n)].lstrip().startswith("✗") for n in up045)
        assert session.progress().records_refuted == 3
        with VerdictStore.open(db, readonly=True) as store:  # in the database, one event each
            stored = store.current("t")
            assert len(stored) == 3
            assert {event.verdict for event in stored.values()} == {Verdict.REFUTED}

        await press(pilot, screen, "n", "n", "n")  # elsewhere: undo goes back to the group
        await press(pilot, screen, "z")
        assert screen.location.record == noted  # the record shown when it was given
        assert notices[-1].message == "undone: refuted on 3 results of rule UP045"
        assert verdicts(screen, up045) == [None] * 3
        assert session.note(session.record_item(session.records[noted])) == "annotations only"
        assert session.progress().records_refuted == 0
        await press(pilot, screen, "Z")
        assert notices[-1].message == "redone: 3 results of rule UP045 refuted"
        assert verdicts(screen, up045) == [Verdict.REFUTED] * 3
        await press(pilot, screen, "z")
        assert verdicts(screen, up045) == [None] * 3
        await press(pilot, screen, "q")
    app.close()
    with VerdictStore.open(db, readonly=True) as store:
        assert set(store.current("t")) == {  # the note alone is left
            session.record_item(session.records[noted]).key
        }


async def test_the_filter_decides_which_results_of_the_group(
    tmp_path: Path, sample: Path, keymap: Keymap
) -> None:
    app = scans_app(tmp_path / "t.db", sample, keymap)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = reviewing(app)
        await settle(pilot, screen)
        up045 = results_of(screen, "UP045")
        await press(pilot, screen, "r", "f")  # the first refuted; only the unreviewed listed
        assert screen.filter == "unreviewed"
        assert screen.location.record in up045[1:]  # the next one the filter shows
        await press(pilot, screen, "C")
        dialog = app.screen
        assert isinstance(dialog, GroupVerdictScreen)
        assert dialog.question.splitlines()[:2] == [
            "Confirm 2 results of rule UP045?",
            "The filter (unreviewed) hides 1 result of the group: they are left as they are.",
        ]
        given_on = screen.location.record
        await press(pilot, screen, "enter")
        assert verdicts(screen, up045) == [Verdict.REFUTED, Verdict.CONFIRMED, Verdict.CONFIRMED]
        # what is left to do: the group no longer listed, the next group's first result shown
        pane = screen.records_pane
        assert not set(up045) & set(pane.rows)
        assert screen.record is not None and screen.record.section == "F401"
        assert pane.highlighted is not None
        assert pane.rows[pane.highlighted] == screen.location.record
        assert pane.border_subtitle == "8/11 unreviewed"
        await press(pilot, screen, "z")  # undone: listed again, shown where it was given
        assert set(up045[1:]) <= set(pane.rows) and screen.location.record == given_on
        assert pane.border_subtitle == "10/11 unreviewed"
        await press(pilot, screen, "q")
    app.close()


async def test_no_group_verdict_without_scanner_results(tmp_path: Path, keymap: Keymap) -> None:
    app = make_demo_app(tmp_path, reviewer="t", keymap=keymap)
    notices = watch_notices(app)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = reviewing(app)
        await settle(pilot, screen)
        assert not screen.check_action("verdict", ("refuted", "group"))
        assert screen.check_action("verdict", ("refuted",))
        await press(pilot, screen, "R", "S", "v")
        assert app.screen is screen  # nothing asked, nothing given
        assert not screen.session.current
        # each press is answered: the keys are for a scan's results
        said = [n.message for n in notices if "scan's results" in n.message]
        assert len(said) == 3 and all(n.severity == "warning" for n in notices[-3:])
        await press(pilot, screen, "n")  # an ordinary key says nothing of the kind
        assert len([n for n in notices if "scan's results" in n.message]) == 3
        await press(pilot, screen, "q")
    app.close()


def test_a_large_group_is_said_as_it_starts() -> None:
    from db import ItemRef
    from screens.review.changes import GroupChange, Redone, Undone
    from screens.review.groups import SAY_SAVING, GaveGroup, GroupTarget, saving
    from screens.review.history import Location

    def target(count: int) -> GroupTarget:
        items = tuple(ItemRef("ruff/ruff", f"Q000:{n}") for n in range(count))
        label = f"{count:,} results of rule Q000"
        return GroupTarget(items, label, Location(0, None), count, "all")

    big, small = target(SAY_SAVING), target(SAY_SAVING - 1)
    assert saving(GaveGroup(big, "refuted")) == "saving 5,000 results of rule Q000: refuted…"
    assert saving(GaveGroup(small, "refuted")) is None  # its notice when done is enough
    change = GroupChange(big.items, big.location, big.label, Verdict.SKIP, ())
    assert saving(Undone(change)) == "undoing skip on 5,000 results of rule Q000…"
    assert saving(Redone(change)) == "redoing skip on 5,000 results of rule Q000…"


async def test_a_note_typed_with_the_verdict_is_each_results_justification(
    tmp_path: Path, sample: Path, keymap: Keymap
) -> None:
    db = tmp_path / "t.db"
    app = scans_app(db, sample, keymap)
    notices = watch_notices(app)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = reviewing(app)
        await settle(pilot, screen)
        up045 = results_of(screen, "UP045")
        await press(pilot, screen, "R")
        await pilot.press(*"annotations: 3.9 still supported")
        await press(pilot, screen, "enter")
        session = screen.session
        notes = [session.note(session.record_item(session.records[n])) for n in up045]
        assert notes == ["annotations: 3.9 still supported"] * 3
        assert notices[-1].message == (
            "3 results of rule UP045: refuted, noted: annotations: 3.9 still supported"
        )
        await press(pilot, screen, "q")
    app.close()
    out = tmp_path / "triaged.sarif"
    result = CliRunner().invoke(
        cli, ["export", "--db", str(db), "--format", "sarif", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    ruff = json.loads(out.read_text())["runs"][0]["results"]
    suppressed = [r for r in ruff if "suppressions" in r]
    assert {r["ruleId"] for r in suppressed} == {"UP045"} and len(suppressed) == 3
    assert {r["suppressions"][0]["justification"] for r in suppressed} == {
        "annotations: 3.9 still supported"
    }


@pytest.mark.parametrize("theme", [DARK, LIGHT])
async def test_the_question_reads_at_aa(
    tmp_path: Path, sample: Path, keymap: Keymap, theme: str
) -> None:
    # measured as drawn: Textual's buttons drew "No" at 3.78:1 and a warning border at 2.93:1
    app = scans_app(tmp_path / "t.db", sample, keymap, theme=theme)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = reviewing(app)
        await settle(pilot, screen)
        await pilot.press("R", *"quote style")
        for _ in range(6):
            await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, GroupVerdictScreen)
        cells = screen_cells(app)
        region = dialog.query_one("#group-dialog").region
        text = "".join(
            cell.char
            for (x, y), cell in sorted(cells.items(), key=lambda c: c[0][::-1])
            if region.contains(x, y)
        )
        assert "Refute3resultsofruleUP045?" in text and "enter:Refute3" in text
        assert low_contrast(cells, region) == []  # text 4.5:1, borders 3:1
        assert low_contrast(cells, dialog.query_one(DialogLines).region) == []
        await press(pilot, screen, "escape")
    app.close()


async def test_a_note_pasted_from_a_terminal_is_one_every_reviewer_can_read(
    tmp_path: Path, sample: Path, keymap: Keymap
) -> None:
    # a terminal's output pasted into the group's note: its escapes are kept as their pictures,
    # as the note editor keeps them (the others' sync refuses a note holding them)
    from textual import events
    from textual.widgets import Input

    app = scans_app(tmp_path / "t.db", sample, keymap)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = reviewing(app)
        await settle(pilot, screen)
        up045 = results_of(screen, "UP045")
        await press(pilot, screen, "R")
        app.screen.query_one(Input).post_message(events.Paste("exit \x1b[31m1\x1b[0m"))
        await pilot.pause()
        await press(pilot, screen, "enter")
        await screen.settle()
        session = screen.session
        notes = [session.note(session.record_item(session.records[n])) for n in up045]
        assert notes == ["exit ␛[31m1␛[0m"] * 3
        await press(pilot, screen, "q")
    app.close()
