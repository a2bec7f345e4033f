"""The records pane on its own: its cursor, keys, clicks and what it draws."""

from __future__ import annotations

from pathlib import Path

import pytest
from screenkit import Refreshes
from textual.app import App, ComposeResult

from evidence.model import ReportSet
from evidence.reports.loading import load_reports
from evidence.sample import SAMPLE_REPORTS
from screens.session import ReviewSession
from screens.widgets.records_pane import RecordsPane


class PaneApp(App[None]):
    def __init__(self, session: ReviewSession) -> None:
        super().__init__()
        self.session = session
        self.seen: list[tuple[str, int]] = []

    def compose(self) -> ComposeResult:
        yield RecordsPane(self.session, id="records")

    def on_mount(self) -> None:
        pane = self.query_one(RecordsPane)
        pane.fill("all", 0)
        pane.focus()

    def on_records_pane_record_highlighted(self, event: RecordsPane.RecordHighlighted) -> None:
        self.seen.append(("highlighted", event.index))

    def on_records_pane_record_selected(self, event: RecordsPane.RecordSelected) -> None:
        self.seen.append(("selected", event.index))


def many_reports(tmp_path: Path, copies: int) -> ReviewSession:
    sources = sorted((Path(__file__).parents[2] / "sample_data" / "reports").glob("*.txt"))
    for n in range(copies):
        for source in sources:
            (tmp_path / f"{n:03d}-{source.name}").write_bytes(source.read_bytes())
    return ReviewSession(load_reports([tmp_path]), "t")


async def test_the_cursor_moves_over_records_not_headings(sample_reports: ReportSet) -> None:
    app = PaneApp(ReviewSession(sample_reports, "t"))
    async with app.run_test(size=(40, 30)) as pilot:
        pane = app.query_one(RecordsPane)
        assert pane.highlighted is not None and pane.rows[pane.highlighted] == 0
        assert app.seen == []  # filling does not announce a move
        for _ in range(len(pane.rows)):
            await pilot.press("down")
        await pilot.pause()
        moves = [index for kind, index in app.seen if kind == "highlighted"]
        last = max(n for n in pane.rows if n >= 0)
        assert moves == sorted(set(moves)) and moves[-1] == last  # each record once, in order
        assert set(moves) == {n for n in pane.rows if n > 0}  # headings were stepped over
        await pilot.press("home")
        await pilot.pause()
        assert pane.rows[pane.highlighted] == 0
        await pilot.press("end")
        await pilot.press("enter")
        await pilot.pause()
        assert app.seen[-1] == ("selected", last)


async def test_a_click_chooses_the_record_under_the_pointer(sample_reports: ReportSet) -> None:
    app = PaneApp(ReviewSession(sample_reports, "t"))
    async with app.run_test(size=(40, 30)) as pilot:
        pane = app.query_one(RecordsPane)
        line = next(n for n, index in enumerate(pane.rows) if index == 3)
        heading = pane.rows.index(-1)
        await pilot.click(RecordsPane, offset=(5, heading))  # padding 0 1, no border here
        await pilot.pause()
        assert app.seen == []  # a heading cannot be chosen
        await pilot.click(RecordsPane, offset=(5, line))
        await pilot.pause()
        assert app.seen == [("highlighted", 3), ("selected", 3)]
        assert pane.highlighted == line


async def test_a_long_list_draws_only_the_lines_on_screen(tmp_path: Path) -> None:
    session = many_reports(tmp_path, 40)
    app = PaneApp(session)
    async with app.run_test(size=(40, 20)) as pilot:
        pane = app.query_one(RecordsPane)
        await pilot.pause()
        assert len(pane.rows) > 800
        assert pane.virtual_size.height == len(pane.rows)
        assert 0 < len(pane._drawn) <= 20  # what was drawn: the lines on screen
        await pilot.press("end")
        await pilot.pause()
        assert pane.highlighted is not None
        top = int(pane.scroll_y)
        assert top > 0 and top <= pane.highlighted < top + pane.scrollable_content_region.height
        await pilot.press("pageup")
        await pilot.pause()
        assert pane.highlighted < len(pane.rows) - 15
        assert int(pane.scroll_y) <= pane.highlighted


async def test_a_changed_record_redraws_only_its_line(sample_reports: ReportSet) -> None:
    session = ReviewSession(sample_reports, "t")
    app = PaneApp(session)
    async with app.run_test(size=(40, 30)) as pilot:
        pane = app.query_one(RecordsPane)
        await pilot.pause()
        line = pane.rows.index(2)

        def drawn_lines() -> list[list[str]]:  # the row as drawn, in each style it was drawn in
            return [
                [strip.text for strip in lines]
                for (row, state, *_), lines in pane._drawn.items()
                if (row, state) == (line, "")
            ]

        drawn = drawn_lines()
        assert len(drawn) == 1
        repainted = Refreshes(pane)
        pane.update_row(2)
        assert [region.height for region in repainted.regions] == [1]
        assert drawn_lines() == []
        await pilot.pause()
        assert drawn_lines() == drawn


async def test_names_are_cut_to_the_width_and_the_cursor_drawn_in_its_colours(
    sample_reports: ReportSet,
) -> None:
    app = PaneApp(ReviewSession(sample_reports, "t"))
    async with app.run_test(size=(24, 30)) as pilot:
        pane = app.query_one(RecordsPane)
        await pilot.pause()
        width = pane.scrollable_content_region.width
        texts = [pane.render_line(y).text for y in range(len(pane.rows))]
        assert all(len(text) == width for text in texts)
        assert any(text.rstrip().endswith("…") for text in texts)  # a long name, cut
        assert pane.highlighted is not None
        # the rows as drawn, the scrollbar's column (drawn in the same lines) left out
        cursor = pane.render_line(pane.highlighted).crop(0, pane.row_width)
        other = pane.render_line(pane.rows.index(1)).crop(0, pane.row_width)
        cursor_style = list(cursor)[-1].style
        other_style = list(other)[-1].style
        assert cursor_style is not None and other_style is not None
        assert cursor_style.bgcolor != other_style.bgcolor


def test_each_report_lists_its_own_records_in_order(tmp_path: Path) -> None:
    # the rows are made from the records grouped per report once (2,000 records: `f` listed
    # every record once per report), in the order the review steps through them
    session = many_reports(tmp_path, 3)
    rows = session.rows("all")
    listed = [row.record for row in rows if row.record is not None]
    assert listed == session.records
    reports, report = iter(session.reportset.reports), None
    for row in rows:
        if row.kind == "report":  # the reports' headings, in the order they were loaded
            report = next(reports)
            assert row.text == (report.title or report.file)
        elif row.record is not None:
            assert report is not None and row.record.report == report.file
            assert session.report_of(row.record) is report
    assert next(reports, None) is None
    assert "new results" not in session.filters()  # no SARIF results loaded
    for name in session.filters():
        listed = [row.record for row in session.rows(name) if row.record is not None]
        assert listed == [r for r in session.records if session.visible(r, name)], name


def test_annotations_and_steps_found_from_indexes_as_by_a_scan(tmp_path: Path) -> None:
    from evidence.model import Kind

    session = many_reports(tmp_path, 2)
    found = 0
    for n, record in enumerate(session.records):
        expected = (
            () if record.kind is Kind.ANNOTATION else session.reportset.annotations_for(record.id)
        )
        assert session.annotations(record) == expected
        found += bool(expected)
        rank = session.order.index(n)
        assert session.next_index(n, 1) == session.order[(rank + 1) % len(session.order)]
        assert session.next_index(n, -1) == session.order[rank - 1]
    assert found  # the sample's annotations are found


def test_progress_kept_per_record_is_a_whole_recount(tmp_path: Path) -> None:
    # a verdict recounts the records it is on: the totals must be those of a count from scratch
    # after verdicts, changes, undos, notes alone, and a whole new set of current verdicts
    from db.events import Event
    from db.keys import ItemRef, Verdict

    session = many_reports(tmp_path, 2)

    def event(n: int, ref: ItemRef, verdict: Verdict | None, note: str | None = None) -> Event:
        return Event(
            f"e{n}", ref.key, ref.report, ref.record, ref.quote, "t", verdict, note, "", None
        )

    def recount(events: dict[str, Event]) -> object:
        fresh = ReviewSession(session.reportset, "t")
        fresh.current = dict(events)
        return fresh.progress()

    assert session.progress() == recount({})
    quoted = [r for r in session.records if r.quotes]
    steps = [
        (session.record_item(quoted[0]), Verdict.CONFIRMED, None),
        (session.quote_item(quoted[0], quoted[0].quotes[0]), Verdict.REFUTED, None),
        (session.record_item(quoted[1]), Verdict.SKIP, None),
        (session.record_item(quoted[0]), Verdict.REFUTED, None),  # changed
        (session.quote_item(quoted[1], quoted[1].quotes[-1]), None, "a note alone"),
        (session.record_item(quoted[1]), None, None),  # undone
        (session.record_item(session.records[-1]), Verdict.UNCLEAR, None),
    ]
    for n, (item, verdict, note) in enumerate(steps):
        session.apply(event(n, item, verdict, note))
        assert session.progress() == recount(session.current), n
    assert session.progress().records_reviewed > 0 and session.progress().quotes_refuted > 0
    kept = dict(session.current)
    session.current = {}
    assert session.progress() == recount({})
    session.current = kept
    assert session.progress() == recount(kept)


def counted_one_by_one(session: ReviewSession) -> tuple[int, ...]:
    """The six totals of `progress`, from every record's verdict and its quotes' in turn."""
    from db.keys import Verdict

    totals = [0] * 6
    for record in session.records:
        verdicts = [(0, session.record_verdict(record))]
        verdicts += [(3, session.verdict(session.quote_item(record, q))) for q in record.quotes]
        for base, verdict in verdicts:
            if verdict is Verdict.SKIP:
                totals[base + 2] += 1
            elif verdict is not None:
                totals[base] += 1
                totals[base + 1] += verdict is Verdict.REFUTED
    return tuple(totals)


@pytest.mark.parametrize("shape", ["reports", "sarif"])
def test_the_first_count_visits_the_records_with_verdicts_only_and_misses_none(
    tmp_path: Path, shape: str
) -> None:
    # a scan of 135,130 results counted every record when its verdicts were read or it was
    # anchored (0.5 s on the event loop): a record nothing is given on counts nothing
    from db.events import Event
    from db.keys import Verdict

    if shape == "sarif":
        logs = Path(__file__).parents[1] / "evidence" / "sarif"
        scans = [logs / "codeql-kestrel.sarif", logs / "semgrep-kestrel.sarif"]
        session = ReviewSession(load_reports(scans), "t")
    else:
        session = many_reports(tmp_path, 2)
    marks = [Verdict.CONFIRMED, Verdict.REFUTED, Verdict.SKIP, Verdict.UNCLEAR, None]
    events: dict[str, Event] = {}
    for n, record in enumerate(session.records[:: 1 if shape == "sarif" else 3]):
        # the record itself, or one of its quotes (a result's only location: the result's)
        items = [session.record_item(record)]
        items += [session.quote_item(record, quote) for quote in record.quotes[n % 2 :][:1]]
        ref = items[n % len(items)]
        verdict, note = marks[n % len(marks)], None if n % 5 else "a note alone"
        events[ref.key] = Event(
            f"e{n}", ref.key, ref.report, ref.record, ref.quote, "t", verdict, note, "", None
        )
    session.current = events
    assert session.progress()[3:] == counted_one_by_one(session)
    assert sum(session.progress()[3:]) >= 5


def test_a_filters_rows_are_kept_until_what_it_depends_on_changes(tmp_path: Path) -> None:
    # `f` on a large review listed every record through the filter at each press: its rows are
    # kept, and made again after a verdict, new anchors or new drifts; always as a scan lists
    from db.events import Event
    from db.keys import Verdict
    from evidence.model import Anchor, FileState, Tier

    session = many_reports(tmp_path, 2)

    def scanned(name: str) -> list[object]:
        return [r for r in session.records if session.visible(r, name)]

    def listed(name: str) -> list[object]:
        return [row.record for row in session.rows(name) if row.record is not None]

    first = session.rows("unreviewed")
    assert session.rows("unreviewed") is first  # nothing changed: the same rows
    record = next(r for r in session.records if r.quotes)
    ref = session.record_item(record)
    done = Event("e1", ref.key, ref.report, ref.record, None, "t", Verdict.REFUTED, None, "", None)
    session.apply(done)
    assert record not in listed("unreviewed") and record in listed("refuted")
    assert listed("unreviewed") == scanned("unreviewed")
    quote = record.quotes[0]
    assert record not in listed("failing quotes")
    missing = Anchor(quote, FileState.OK, Tier.MISSING, 0.0, None)
    session.anchors = {quote: missing}  # anchored again: a new dict
    assert record in listed("failing quotes")
    assert listed("failing quotes") == scanned("failing quotes")
    session.current = {}
    assert listed("refuted") == [] and listed("unreviewed") == scanned("unreviewed")


def test_records_found_by_id_as_by_a_scan(tmp_path: Path) -> None:
    session = many_reports(tmp_path, 2)
    ids = {record.id for record in session.records} | {"no-such-record"}
    for record_id in sorted(ids):
        declared = session.reportset.record(record_id)
        expected = (
            session.index_of(declared)
            if declared is not None
            else next((n for n, r in enumerate(session.records) if r.id == record_id), None)
        )
        assert session.find(record_id) == expected, record_id
    assert session.find("no-such-record") is None


async def test_a_list_filled_again_draws_its_records_from_what_it_drew(
    sample_reports: ReportSet,
) -> None:
    from db.events import Event
    from db.keys import Verdict

    session = ReviewSession(sample_reports, "t")
    app = PaneApp(session)
    async with app.run_test(size=(60, 30)) as pilot:
        pane = app.query_one(RecordsPane)
        await pilot.pause()
        style = pane.get_visual_style()
        line = pane.rows.index(3)
        before = pane.draw_row(line, 40, style)
        pane.fill("unreviewed", 3)
        pane.fill("all", 3)
        assert pane.draw_row(pane.rows.index(3), 40, style) is before  # not drawn again
        ref = session.record_item(session.records[3])
        session.apply(
            Event("e1", ref.key, ref.report, ref.record, None, "t", Verdict.REFUTED, None, "", None)
        )
        after = pane.draw_row(pane.rows.index(3), 40, style)
        assert after is not before and after[0].text != before[0].text  # its badge changed
        assert pane.draw_row(pane.rows.index(3), 30, style)[0].cell_length <= 30


async def test_a_record_shown_out_of_view_comes_to_the_middle_of_the_list(
    tmp_path: Path,
) -> None:
    app = PaneApp(many_reports(tmp_path, 3))
    async with app.run_test(size=(40, 20)) as pilot:
        pane = app.query_one(RecordsPane)
        records = [n for n in pane.rows if n >= 0]
        height = pane.scrollable_content_region.height
        scrolls, tops = 0, [round(pane.scroll_y)]
        for record in records[1:]:  # as `n` goes through the review
            pane.show(record)
            await pilot.pause()
            line = pane.rows.index(record)
            top = round(pane.scroll_y)
            assert top <= line < top + height  # shown
            if top != tops[-1]:
                scrolls += 1
                # out of view at the bottom: brought to the middle (as far as the list goes),
                # not to the bottom edge
                end = top == round(pane.max_scroll_y)
                assert end or abs(line - (top + height // 2)) <= 1, (line, top, height)
            tops.append(top)
        # about one scroll per half a list, not one per record past the first screen
        assert 0 < scrolls <= 2 * len(pane.rows) // height + 1
        pane.show(records[0])  # back to the top, a far jump: in the middle too (or at the top)
        await pilot.pause()
        assert round(pane.scroll_y) <= pane.rows.index(records[0])
        await pilot.press("down", "down")  # the list's own cursor keys scroll as little as needed
        await pilot.pause()
        assert round(pane.scroll_y) == 0


def test_the_verdict_filters_read_the_kept_counts_as_the_verdicts_say(tmp_path: Path) -> None:
    # "unreviewed" and "refuted" over 120,000 results took 0.8 s a press, every record's verdict
    # looked up again; they read each record's kept counts now, and list as the verdicts say
    # (a result's verdict on its only location included); the other filters' rows are kept
    # across verdicts, which they do not read
    import random

    from db.events import Event
    from db.keys import Verdict

    sarif = Path(__file__).resolve().parents[1] / "evidence" / "sarif"
    reportset = load_reports(
        [SAMPLE_REPORTS, sarif / "ruff-kestrel.sarif", sarif / "bandit-kestrel.sarif"]
    )
    session = ReviewSession(reportset, "t")
    items = []
    for record in session.records:
        items.append(session.record_item(record))
        items += [session.quote_item(record, quote) for quote in record.quotes]

    def oracle(record: object, name: str) -> bool:
        keys = session.item_keys(record)  # type: ignore[arg-type]
        if name == "unreviewed":
            return session.record_verdict(record) is None  # type: ignore[arg-type]
        return any((e := session.current.get(k)) and e.verdict is Verdict.REFUTED for k in keys)

    rng = random.Random(5)
    unsuppressed = session.rows("unsuppressed")
    for n in range(300):
        ref = rng.choice(items)
        verdict = rng.choice([*Verdict, None])
        note = rng.choice([None, "seen"])
        session.apply(
            Event(f"e{n}", ref.key, ref.report, ref.record, ref.quote, "t", verdict, note, "", None)
        )
        if n % 25 == 0:
            for name in ("unreviewed", "refuted"):
                listed = [row.record for row in session.rows(name) if row.record is not None]
                in_order = [session.records[k] for k in session.order]
                assert listed == [r for r in in_order if oracle(r, name)], n
                assert all(session.visible(r, name) == oracle(r, name) for r in session.records)
    assert session.rows("unsuppressed") is unsuppressed  # made once: it reads no verdict
