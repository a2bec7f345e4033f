"""Issue 25, the audit screen on the sample audit (Kestrel, Heron, Osprey without a repository),
driven by keys under Pilot at 120x40 and 80x24, against a real database: the systems and their
counts, opening a system and coming back with the counts updated, `/` across the systems, the
filters, verdicts, and the keys (bindings with ids, both presets, help)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from db import VerdictStore
from keymaps import Keymap, load_keymap
from screens.audit.screen import AuditScreen, SystemsList
from screens.audit.system_review import SystemReviewScreen
from screens.find import FindScreen
from screens.help import HelpScreen
from screens.review.messages import AnchorProgress
from tui.audit_app import make_demo_audit_app

SIZES = [(120, 40), (80, 24)]


def demo(tmp_path: Path, keymap: Keymap, anchors: Path | None = None) -> Any:
    """The sample audit's app, its database and anchoring cache in ``tmp_path``."""
    return make_demo_audit_app(
        tmp_path, reviewer="tester", keymap=keymap, anchor_cache=anchors or tmp_path / "anchors"
    )


def current(app: Any) -> Any:
    """The app's screen now (not narrowed by an earlier assertion)."""
    return app.screen


def rows(screen: Any) -> list[str]:
    systems = screen.query_one(SystemsList)
    return [str(systems.row(n).prompt) for n in range(systems.row_count)]


async def counted(pilot: Pilot[Any], screen: Any) -> None:
    """Wait until the database's counts are read and drawn (a worker may start another)."""
    for _ in range(2):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
    assert screen.counted


async def open_system(pilot: Pilot[Any], name: str) -> SystemReviewScreen:
    """Move the cursor to a system's row, press enter, wait until its review is settled."""
    audit = pilot.app.screen
    assert isinstance(audit, AuditScreen)
    names = [audit.state.entries[index].name for index in audit.order]
    audit.query_one(SystemsList).move_to(0)
    await pilot.press(*["j"] * names.index(name), "enter")
    review = pilot.app.screen
    assert isinstance(review, SystemReviewScreen)
    await review.settle()
    await pilot.pause()
    return review


def header_of(audit: AuditScreen) -> str:
    return str(audit.query_one("#audit-header").render())


@pytest.mark.parametrize("size", SIZES)
async def test_the_systems_what_needs_attention_first(
    tmp_path: Path, sample: Path, keymap: Keymap, size: tuple[int, int]
) -> None:
    app = demo(tmp_path, keymap)
    async with app.run_test(size=size) as pilot:
        screen = app.screen
        assert isinstance(screen, AuditScreen)
        await counted(pilot, screen)
        shown = rows(screen)
        # nothing anchored nor reviewed yet: the most unreviewed first; no repository last
        assert [row.split()[1] for row in shown] == ["Kestrel", "Heron", "Osprey"]
        # not anchored: not checked (`·`), not a ✓ that reads as checked and holding
        assert shown[0].startswith("· Kestrel") and shown[2].startswith("∅ Osprey")
        assert "0% 0/56" in shown[0]
        header = header_of(screen)
        # the counts first, each whole or left out: at 80 columns "3 sy…" said nothing
        assert len(header) <= size[0] and "…" not in header
        # nothing anchored yet: "0 failing" would say none fail; it says how many are unknown
        assert "reviewed 0% (0/74) · 0 failing · 0 no path (2 not checked)" in header
        if size[0] >= 120:
            assert header.endswith(" · 3 systems · 1 without a repository · tester")
        else:
            assert header.endswith(" (2 not checked)")
        status = str(screen.query_one("#audit-status").render())
        assert status.startswith("Kestrel: not checked yet (enter checks it")
        columns = str(screen.query_one("#audit-columns").render())
        assert "failing" in columns and "reviewed" in columns
        if size[0] >= 120:
            assert "reviewers" in columns
        assert all(len(row) <= size[0] - 4 for row in shown)  # one line each, no wrap
        await pilot.press("j", "j")
        status = str(screen.query_one("#audit-status").render())
        assert "Osprey: repository not on this machine" in status
        footer = str(screen.query_one("KeysBar").render())
        assert "Open" in footer and "Quit" in footer


async def test_a_system_left_still_takes_in_what_its_work_brings(
    tmp_path: Path, sample: Path, keymap: Keymap
) -> None:
    """A system's review left for the audit is kept, not taken down: work that comes back while
    it is away (reads, anchoring, writes) is still taken in (`Part.screen_up`), and it shows
    it when opened again."""
    app = demo(tmp_path, keymap)
    async with app.run_test(size=(120, 40)) as pilot:
        audit = app.screen
        assert isinstance(audit, AuditScreen)
        await counted(pilot, audit)
        review = await open_system(pilot, "Heron")
        await pilot.press("escape")
        assert current(app) is audit
        parts = (review.arrivals, review.verdicts, review.sources, review.drift)
        assert all(part.screen_up for part in parts)
        review.arrivals.post_message(AnchorProgress(1, 2))  # taken in while away
        await pilot.pause()
        assert "1/2" in str(review.header.widget.render())
        await pilot.press("enter")
        assert current(app) is review


@pytest.mark.parametrize("size", SIZES)
async def test_open_a_system_give_verdicts_and_come_back(
    tmp_path: Path, sample: Path, keymap: Keymap, size: tuple[int, int]
) -> None:
    app = demo(tmp_path, keymap)
    async with app.run_test(size=size) as pilot:
        audit = app.screen
        assert isinstance(audit, AuditScreen)
        await counted(pilot, audit)
        review = await open_system(pilot, "Heron")
        assert review.session.anchored
        assert review.record is not None and review.record.id == "runtime:evidence-and-claimed-work"
        await pilot.press("n", "c")  # the gauge reader, confirmed
        await review.settle()
        await pilot.press("escape")
        assert current(app) is audit
        await counted(pilot, audit)
        heron = next(e for e in audit.state.entries if e.name == "Heron")
        assert heron.reviewed == 1 and heron.reviewers == ("tester",)
        # anchoring found 3 failing quotes and 1 missing cited path: Heron needs attention first
        assert (heron.failing, heron.citations_missing) == (3, 1)
        assert rows(audit)[0].startswith("✗ Heron")  # checked: failing quotes
        assert rows(audit)[1].startswith("· Kestrel")  # still not checked
        assert "1/13" in rows(audit)[0]
        assert "3 failing · 1 no path (1 not checked)" in header_of(audit)  # Kestrel's unknown
        # the verdict is in the audit's database
        with VerdictStore.open(tmp_path / "demo.db", readonly=True) as store:
            assert [e.record for e in store.current("tester").values()] == ["HR-CMP-gauge-reader"]
        # opened again: the same review, where it was
        await pilot.press("enter")
        assert current(app) is review and review.record.id == "HR-CMP-gauge-reader"
        # still whole: its store writer saves the next verdict
        await pilot.press("u")
        await review.settle()
        with VerdictStore.open(tmp_path / "demo.db", readonly=True) as store:
            assert [e.verdict for e in store.current("tester").values()] == ["unclear"]


async def test_a_system_without_a_repository_is_readable(
    tmp_path: Path, sample: Path, keymap: Keymap
) -> None:
    app = demo(tmp_path, keymap)
    async with app.run_test(size=(120, 40)) as pilot:
        await counted(pilot, app.screen)
        review = await open_system(pilot, "Osprey")
        assert review.revision is None
        assert "no repository on this machine" in str(review.revision_error)
        assert [r.id for r in review.session.records] == [
            "workflow:selected-workflow",
            "workflow:review-and-confirmation",
        ]
        await pilot.press("n")
        assert review.record is not None and review.record.id == "workflow:review-and-confirmation"
        await pilot.press("escape")
        assert isinstance(app.screen, AuditScreen)


@pytest.mark.parametrize("size", SIZES)
async def test_find_across_systems(
    tmp_path: Path, sample: Path, keymap: Keymap, size: tuple[int, int]
) -> None:
    app = demo(tmp_path, keymap)
    async with app.run_test(size=size) as pilot:
        await counted(pilot, app.screen)
        await pilot.press("slash")
        dialog = app.screen
        assert isinstance(dialog, FindScreen)
        await pilot.press(*"HR-CLM-upload")
        await pilot.pause()
        assert dialog.shown[0].label.startswith("Heron  HR-CLM-upload-retries")
        await pilot.press("enter")
        review = app.screen
        assert isinstance(review, SystemReviewScreen)
        await review.settle()
        await pilot.pause()
        assert review.record is not None and review.record.id == "HR-CLM-upload-retries"
        await pilot.press("escape", "slash", *"RETRY_DELAYS")  # a quote: selected for verdicts
        await pilot.pause()
        assert app.screen.shown[0].kind == "quote"
        await pilot.press("enter")
        await pilot.pause()
        assert current(app) is review and review.quote is not None
        assert review.verdicts.target().label == "quote [1] of HR-CLM-upload-retries"
        await pilot.press("escape")  # escape gives the verdict keys back to the record first
        await pilot.pause()
        assert current(app) is review and review.verdicts.target().label.startswith("record")
        await pilot.press("escape", "slash", *"retry.js")  # a file quoted in another system
        await pilot.pause()
        assert app.screen.shown[0].label == "Kestrel  worker/src/retry.js"


async def test_filters(tmp_path: Path, sample: Path, keymap: Keymap) -> None:
    app = demo(tmp_path, keymap)
    async with app.run_test(size=(120, 40)) as pilot:
        audit = app.screen
        assert isinstance(audit, AuditScreen)
        await counted(pilot, audit)
        await pilot.press("f")  # failing, before anything is checked: an empty list, explained
        assert audit.state.filter == "failing" and rows(audit) == []
        status = str(audit.query_one("#audit-status").render())
        assert status.startswith("no system shown · filter: failing"), status
        assert "2 not checked yet, not known to fail" in status
        await pilot.press("f", "f", "f", "f")  # all again
        await open_system(pilot, "Heron")
        await pilot.press("escape")
        await counted(pilot, audit)
        seen = {}
        for _ in range(5):
            await pilot.press("f")
            seen[audit.state.filter] = [row.split()[1] for row in rows(audit)]
        assert seen["failing"] == ["Heron"]
        assert seen["unreviewed"] == ["Heron", "Kestrel", "Osprey"]
        assert seen["drifted"] == [] and seen["disagreements"] == []
        assert seen["all"] == ["Heron", "Kestrel", "Osprey"]


async def test_keys_are_bindings_with_ids_in_both_presets(
    tmp_path: Path, sample: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    user = tmp_path / "keymap.toml"
    user.write_text('preset = "vim"\nopen_system = "o"\naudit_return = "h"\n', encoding="utf-8")
    keymap = load_keymap("default", user_file=user)
    app = demo(tmp_path, keymap)
    async with app.run_test(size=(80, 24)) as pilot:
        audit = app.screen
        assert isinstance(audit, AuditScreen)
        ids = {b.id for b in AuditScreen.BINDINGS}  # type: ignore[union-attr]
        assert {"open_system", "find", "filter", "help", "quit"} <= ids
        await counted(pilot, audit)
        await pilot.press("enter")  # remapped away
        assert app.screen is audit
        await pilot.press("o")
        review = app.screen
        assert isinstance(review, SystemReviewScreen)
        await review.settle()
        await pilot.press("h")
        assert app.screen is audit
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = str(app.screen.query_one("#help-text").render())
        assert "Open the system" in text and "[open_system]" in text
        # the audit screen's own keys first, the review's after them
        here, _, rest = text.partition("Every key, on every screen")
        assert here.startswith("The audit screen") and "Open the system" in here
        assert "Filter" in here and "Next record" not in here and "Next record" in rest
        assert "Back to the audit" in text and "[audit_return]" in text


async def test_the_palette_opens_a_system_and_comes_back_when_their_keys_are_unbound(
    tmp_path: Path, sample: Path
) -> None:
    # audit_return = "" left no way back to the audit (the palette listed the review's
    # actions only), open_system = "" none into a system: both are in the palette now
    user = tmp_path / "keymap.toml"
    user.write_text('open_system = ""\naudit_return = ""\n', encoding="utf-8")
    app = demo(tmp_path, load_keymap("default", user_file=user))
    async with app.run_test(size=(80, 24)) as pilot:
        audit = app.screen
        assert isinstance(audit, AuditScreen)
        await counted(pilot, audit)
        helps = {c.title: c.help for c in audit.palette_commands()}
        assert helps["Open the system"] == "Audit · (unbound)"
        assert {"Find", "Filter", "Help"} <= set(helps)
        await pilot.press("enter", "escape")  # unbound: nothing
        assert app.screen is audit
        await pilot.press("ctrl+p", *"open the", "enter")
        await pilot.pause()
        review = app.screen
        assert isinstance(review, SystemReviewScreen)
        await review.settle()
        titles = [c.title for c in review.palette_commands()]
        assert titles[0] == "Back to the audit"
        await pilot.press("ctrl+p", *"back to the audit", "enter")
        await pilot.pause()
        assert app.screen is audit
    app.close()


async def test_counts_from_the_anchoring_cache_without_opening(
    tmp_path: Path, sample: Path, keymap: Keymap
) -> None:
    from evidence.audit.check import check_audit
    from evidence.audit.file import load_audit
    from evidence.sample_audit import sample_audit

    anchors = tmp_path / "anchors"
    check_audit(load_audit(sample_audit() / "assay.toml"), anchor_cache=anchors)
    app = demo(tmp_path, keymap, anchors)
    async with app.run_test(size=(120, 40)) as pilot:
        audit = app.screen
        assert isinstance(audit, AuditScreen)
        await counted(pilot, audit)
        found = {e.name: (e.failing, e.citations_missing) for e in audit.state.entries}
        assert found == {"Kestrel": (7, 0), "Heron": (3, 1), "Osprey": (None, None)}
        assert audit.reviews == {}  # nothing opened, nothing anchored
        assert [row.split()[1] for row in rows(audit)] == ["Kestrel", "Heron", "Osprey"]
        assert "10 failing · 1 no path · 3 systems" in header_of(audit)  # every readable one
        # reopening a system takes its anchors from the cache
        review = await open_system(pilot, "Heron")
        assert review.session.anchored
        assert sum(1 for a in review.session.anchors.values() if a.failing) == 3


async def test_drift_when_asked(tmp_path: Path, sample: Path, keymap: Keymap) -> None:
    from evidence.audit.check import check_audit
    from evidence.audit.file import load_audit
    from evidence.sample_audit import sample_audit

    anchors = tmp_path / "anchors"
    check_audit(load_audit(sample_audit() / "assay.toml"), anchor_cache=anchors)
    app = make_demo_audit_app(
        tmp_path, reviewer="tester", keymap=keymap, anchor_cache=anchors, against="main"
    )
    async with app.run_test(size=(120, 40)) as pilot:
        audit = app.screen
        assert isinstance(audit, AuditScreen)
        await counted(pilot, audit)
        # Kestrel: 5 quotes changed and 1 file deleted at its tip, and that file cited (the
        # records citing worker/src/digest.js count it once); Heron: the retry delays changed
        assert {e.name: e.drift for e in audit.state.entries} == {
            "Kestrel": 7,
            "Heron": 1,
            "Osprey": None,
        }
        assert "drift" in str(audit.query_one("#audit-columns").render())
        for _ in range(3):
            await pilot.press("f")
        assert audit.state.filter == "drifted"
        assert [row.split()[1] for row in rows(audit)] == ["Kestrel", "Heron"]


def test_a_systems_mark_says_what_is_known_of_it(tmp_path: Path) -> None:
    from evidence.audit.file import AuditSystem
    from screens.audit.systems import AuditEntry
    from screens.audit.table import mark

    here = AuditSystem("here", tmp_path, ())
    away = AuditSystem("away", tmp_path / "not-cloned", ())

    def entry(system: AuditSystem, **known: Any) -> AuditEntry:
        return AuditEntry(system, None, **known)

    assert mark(entry(here)) == "·"  # readable, never anchored
    assert mark(entry(here, failing=0, citations_missing=0)) == "✓"
    assert mark(entry(here, failing=2, citations_missing=0)) == "✗"
    assert mark(entry(here, failing=0, citations_missing=1)) == "✗"
    assert mark(entry(away)) == "∅"
    assert mark(entry(here, error="reports unreadable", failing=0, citations_missing=0)) == "!"


@pytest.mark.parametrize("theme", ["assay-dark", "assay-light"])
async def test_the_systems_read_at_aa_marks_included(
    tmp_path: Path, sample: Path, keymap: Keymap, theme: str
) -> None:
    # measured as drawn: two systems checked (their ✗ in the error colour), one unchecked (·)
    # and one without a repository (∅, in the warning colour)
    from rendered import low_contrast, screen_cells

    from evidence.audit.check import check_audit
    from evidence.audit.file import load_audit
    from evidence.sample_audit import sample_audit

    anchors = tmp_path / "anchors"
    check_audit(load_audit(sample_audit() / "assay.toml"), anchor_cache=anchors)
    app = make_demo_audit_app(
        tmp_path, reviewer="tester", keymap=keymap, anchor_cache=anchors, theme=theme
    )
    async with app.run_test(size=(120, 40)) as pilot:
        audit = app.screen
        assert isinstance(audit, AuditScreen)
        await counted(pilot, audit)
        assert [row[0] for row in rows(audit)] == ["✗", "✗", "∅"]
        systems = audit.query_one(SystemsList)
        for cursor in (0, 2):  # the cursor row's colours too
            systems.move_to(cursor)
            await pilot.pause()
            await pilot.pause()
            assert low_contrast(screen_cells(app), systems.region) == []
    app.close()


def test_the_tables_counts_are_grouped_and_shortened_to_fit_never_cut() -> None:
    from screens.audit.table import COLUMNS, count, reviewed_text

    assert [count(n) for n in (7, 1_000, 135_130, 1_234_567, 12_345_678)] == [
        "7",
        "1,000",
        "135,130",
        "1.2M",
        "12.3M",
    ]
    assert [count(n, 4) for n in (999, 1_000, 12_345, 135_130, 270_260)] == [
        "999",
        "1k",
        "12k",
        "135k",
        "270k",
    ]
    assert reviewed_text("50%", 135_130, 270_260) == "50% 135k/270k"
    assert reviewed_text("4%", 120, 3_000) == "4% 120/3,000"
    assert reviewed_text("40%", 1_200, 3_000) == "40% 1.2k/3k"  # "40% 1,200/3,000" would be cut
    width = next(c.width for c in COLUMNS if c.title == "reviewed")
    assert len(reviewed_text("100%", 999_999, 999_999)) <= width


def test_reviewed_items_are_counted_by_the_records_a_verdict_names(sample: Path) -> None:
    from db.keys import make_key, record_quote_hashes
    from evidence.audit.file import AUDIT_NAME, load_audit
    from evidence.sample_audit import sample_audit
    from tui.audit_app import load_state

    state = load_state(load_audit(sample_audit(None) / AUDIT_NAME))
    entry = next(e for e in state.entries if e.reportset is not None and e.quotes > 3)
    assert entry.reportset is not None
    every = []
    for report in entry.reportset.reports:
        for record in report.records:
            every.append(make_key(report.identity, record.id))
            every += [make_key(report.identity, record.id, h) for h in record_quote_hashes(record)]
    quoted = next(k for k in every if k.count("#") == 2)
    judged = frozenset(
        [
            every[0],  # a record
            quoted,  # one quote of a record (not the record itself)
            every[-1],
            quoted.rsplit("#", 1)[0] + "#0000000000",  # a quote no longer in its record
            "other/report#" + quoted.split("#", 1)[1],  # another system's report
        ]
    )
    assert entry.count_reviewed(judged) == len(judged & set(every)) == 3
    assert entry.count_reviewed(frozenset()) == 0


async def test_the_filter_is_said_on_the_list_not_over_it(tmp_path: Path, sample: Path) -> None:
    # a notice at 80x24 covered the list's last rows for seconds: the list's title and the
    # status line say the filter, with nothing drawn over the systems
    app = demo(tmp_path, load_keymap(user=False))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        audit = app.screen
        assert isinstance(audit, AuditScreen)
        await counted(pilot, audit)
        systems = audit.query_one(SystemsList)
        assert str(systems.border_title) == "Systems"
        await pilot.press("f", "f")
        for _ in range(10):  # a notice is drawn a few frames later
            await pilot.pause()
        assert audit.state.filter == "unreviewed"
        assert list(audit.query("Toast")) == []
        assert str(systems.border_title) == "Systems · unreviewed: 3 of 3"
        assert "filter: unreviewed" in str(audit.query_one("#audit-status").render())
        await pilot.press("f", "f", "f")
        assert str(systems.border_title) == "Systems"
