"""Names in wide characters (CJK, most emoji: two cells a character) are measured and cut in
cells, as the terminal draws them: a row measured in characters ran past its pane's edge, where
its status and its quotes' marks were cut off."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from rich.cells import cell_len
from textual.app import App, ComposeResult

from evidence.reports.loading import load_reports
from evidence.revision import CommitSummary
from screens.session import ReviewSession
from screens.widgets.cut import cut_text, keep_cells, pad_cells
from screens.widgets.records_pane import RecordRow, RecordsPane, ResultRow, cut_id
from screens.widgets.review_header import ReviewHeader

WIDE_TITLE = "検証の記録と主張とその他の長い題名です"
WIDE_ID = "KS-RTE-チケット-エスカレーション"
MARKS = [("✓", False), ("✗", True)]
NAMES = [(WIDE_TITLE, False), (WIDE_ID, True)]
WHEN = datetime(2026, 3, 9, 10, 0, tzinfo=UTC)


def test_plain_text_is_kept_and_cut_in_cells() -> None:
    assert keep_cells("ab検証cd", 3) == "ab"  # 検 would straddle the edge: left out
    assert keep_cells("ab検証cd", 4) == "ab検"
    assert keep_cells("abc", 5) == "abc"
    assert cut_text("検証の記録", 6) == "検証…"
    assert cut_text("Seraphina Okonkwo", 11) == "Seraphina…"  # no space before the ellipsis
    assert cut_text("検証", 4) == "検証" and cut_text("検証", 0) == ""
    assert pad_cells("検証", 6) == "検証  "
    for room in range(1, 30):
        assert cell_len(cut_text(WIDE_TITLE, room)) <= room


def test_a_wide_id_is_cut_in_its_middle_to_its_cells() -> None:
    for room in range(5, 40):
        cut = cut_id(WIDE_ID, room)
        assert cell_len(cut) <= room, (room, cut)
        assert cell_len(cut) >= min(room, cell_len(WIDE_ID)) - 1  # a wide one at the edge: 1
        if room < cell_len(WIDE_ID):
            assert "…" in cut and cut.endswith("ン")  # the tail, which tells ids apart, stays
    assert cut_id(WIDE_ID, 24) == "KS-RTE-…エスカレーション"
    # ASCII ids are cut as before
    assert cut_id("RT-RTE-knowledge-edit", 12) == "RT-…dge-edit"


@pytest.mark.parametrize("width", [24, 30, 40])
@pytest.mark.parametrize(
    ("name", "is_id"), [(WIDE_TITLE, False), (WIDE_ID, True)], ids=["title", "id"]
)
def test_a_row_of_a_wide_name_keeps_its_status_in_the_pane(
    width: int, name: str, is_id: bool
) -> None:
    row = RecordRow("·", name, "3✓", quotes=MARKS, is_id=is_id).content(width)
    assert row.cell_length <= width, row.plain
    assert "3✓" in row.plain  # the quotes' status, which the pane's edge cut off
    # the status in the same column as on a row of an ASCII name as long
    ascii_row = RecordRow("·", "x" * cell_len(name), "3✓", quotes=MARKS, is_id=is_id)
    plain, ascii_plain = row.plain, ascii_row.content(width).plain
    assert cell_len(plain[: plain.index("3✓")]) == ascii_plain.index("3✓"), (plain, ascii_plain)


def test_a_result_row_of_a_wide_message_keeps_its_place() -> None:
    row = ResultRow(
        "·", "js/検証-rule", "src/処理/受信.js:42", "入力値が検証されずに使われます", ""
    )
    for width in (30, 40, 60):
        shown = row.content(width)
        assert shown.cell_length <= width, shown.plain
        assert ":42" in shown.plain  # the line, the last thing a result's place gives up


class PaneApp(App[None]):
    def __init__(self, session: ReviewSession) -> None:
        super().__init__()
        self.session = session

    def compose(self) -> ComposeResult:
        yield RecordsPane(self.session, id="records")

    def on_mount(self) -> None:
        self.query_one(RecordsPane).fill("all", 0)


class HeaderOnly(App[None]):
    def compose(self) -> ComposeResult:
        yield ReviewHeader()


async def test_a_wide_reviewer_name_is_kept_beside_the_commit() -> None:
    """The commit's subject is given the room the reviewer leaves: measured in characters, a
    reviewer in wide characters left it too much, and the line's cut took the reviewer off."""
    app = HeaderOnly()
    async with app.run_test(size=(120, 10)) as pilot:
        header = app.query_one(ReviewHeader)
        commit = CommitSummary("Add escalation digest, banner and runbook", "Mira Okafor", WHEN)
        progress = "records 2/22 · quotes 1/34 · 7 failing"
        header.show(
            system="Kestrel", revision="@802776d (stated)", failed=False,
            reviewer="山田花子", progress=progress, commit=commit,
        )  # fmt: skip
        await pilot.pause()
        text = header.render()
        assert str(text).endswith(progress) and cell_len(str(text)) <= 120
        assert "山田花子" in str(text)


async def test_the_records_list_draws_a_wide_record_within_its_pane(tmp_path: Path) -> None:
    """A report whose narrative heading is in wide characters, as the records list draws it:
    each row in the pane's width, the record's quote status after its title."""
    for report in (Path(__file__).parents[2] / "sample_data" / "reports").glob("*.txt"):
        text = report.read_text(encoding="utf-8").replace("Request and escalation", WIDE_TITLE)
        (tmp_path / report.name).write_text(text, encoding="utf-8")
    session = ReviewSession(load_reports([tmp_path]), "t")
    wide = next(r for r in session.records if r.label == WIDE_TITLE)
    assert session.quote_status(wide)  # it quotes: its row has a status to keep
    app = PaneApp(session)
    async with app.run_test(size=(34, 40)) as pilot:
        await pilot.pause()
        pane = app.query_one(RecordsPane)
        width = pane.scrollable_content_region.width
        lines = [pane.render_line(y).text for y in range(pane.scrollable_content_region.height)]
        assert all(cell_len(line) <= width for line in lines), lines
        drawn = next(line for line in lines if "検証" in line)
        assert drawn.rstrip().endswith(session.quote_status(wide)), drawn
