"""Issue 14, point 8: `assay export --format md` is a write-up a reviewer can hand over, `--format
csv` the current state (a row per record and per quote), `--history` the event log."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from storekit import REPORT, REV, anchors, fill, make_record, make_report, reportset

from db.export import render
from db.gone import lines_words
from db.keys import ItemRef
from db.store import VerdictStore
from db.writeup import CSV_FIELDS, markdown
from evidence.citations import CitedPath, CitedState
from evidence.model import Kind, Record
from tui.cli import cli

MISSING = CitedPath("runtime.md", "RT-CLM-retries", "SRC-1", "src/gone.py", 9, CitedState.ABSENT)
NEAR = CitedPath(
    "runtime.md", "RT-CLM-retries", "SRC-1", "src/app.pyy", 9, CitedState.NEAR_MISS, "src/app.py"
)
PRESENT = CitedPath("runtime.md", "RT-RTE-upload", "SRC-2", "src/app.py", 12, CitedState.PRESENT)


def registered(path: Path) -> VerdictStore:
    store = VerdictStore.open(path)
    store.register(
        reportset(REPORT),
        anchors(),
        revision=REV,
        repository="/src/kestrel",
        remote="https://example.com/kestrel.git",
        citations=[MISSING, NEAR, PRESENT],
    )
    fill(store)
    return store


def test_ranges_read_as_words() -> None:
    assert lines_words(17, 17) == "line 17"
    assert lines_words(17, 19) == "lines 17-19"
    assert lines_words(None, None) == ""


def test_md_is_a_write_up(tmp_path: Path) -> None:
    with registered(tmp_path / "v.db") as store:
        text = render(store, "md")
    head, _, rest = text.partition("## Summary")
    assert "- Repository: /src/kestrel (remote https://example.com/kestrel.git)" in head
    assert f"- Revision: {REV}" in head
    assert "- Reviewer(s): ann, bob" in head and "- Date: " in head
    assert "| | confirmed | refuted | unclear | skip | not reviewed |" in rest
    assert "| records | 1 | 0 | 0 | 1 | 0 |" in rest
    assert "| quotes | 1 | 2 | 1 | 0 | 1 |" in rest
    assert "- Failing quotes: 2" in rest
    assert "- Missing citations: 2 of 3 cited paths" in rest
    record = rest.split("### RT-CLM-retries", 1)[1].split("###", 1)[0]
    assert "- ann: **confirmed**" in record
    assert "- quote 1: src/app.py line 40: exact" in record
    assert "  - ann: **refuted**\n    > line 40 says \\>= 3" in record
    assert "- cited path missing: src/gone.py\n" in record
    assert "- cited path missing: src/app.pyy (closest: src/app.py)" in record


def test_md_of_several_systems_names_each_ones_revision(tmp_path: Path) -> None:
    # one database for two systems (an audit's, the demo's): "Revision: a, b" said not which
    # repository is at which
    heron = make_report([make_record("HR-CLM-kept", ["KEPT = True"])], system="HERON")
    with registered(tmp_path / "v.db") as store:
        store.register(reportset(heron), revision="b" * 40, repository="/src/heron")
        text = render(store, "md")
    head = text.partition("## Summary")[0]
    assert f"- Repository: /src/heron at {'b' * 40}\n" in head
    assert f"- Repository: /src/kestrel (remote https://example.com/kestrel.git) at {REV}" in head
    assert "- Revision:" not in head


def test_csv_is_the_current_state_and_history_the_event_log(tmp_path: Path) -> None:
    with registered(tmp_path / "v.db") as store:
        rows = list(csv.DictReader(io.StringIO(render(store, "csv"))))
        events = list(csv.reader(io.StringIO(render(store, "csv", history=True))))
        assert len(events) == store.count() + 1
    assert list(rows[0]) == list(CSV_FIELDS)
    quote_one = [row for row in rows if row["record"] == "RT-CLM-retries" and row["quote"] == "1"]
    assert [(r["reviewer"], r["verdict"], r["note"]) for r in quote_one] == [
        ("ann", "refuted", "line 40 says >= 3"),
        ("bob", "refuted", ""),
    ]
    assert quote_one[0]["quote_path"] == "src/app.py"
    assert (quote_one[0]["line_start"], quote_one[0]["line_end"]) == ("40", "40")
    assert quote_one[0]["quote_text"] == "if retries > 3:"
    assert quote_one[0]["anchor"] == "exact" and quote_one[0]["label"] == "Retries stop after three"
    assert quote_one[0]["kind"] == "claim"
    route = [row for row in rows if row["record"] == "RT-RTE-upload"]
    assert [(r["quote"], r["verdict"], r["reviewer"]) for r in route] == [("", "skip", "bob")]


def test_csv_lists_unreviewed_items(store: VerdictStore) -> None:
    report = make_report([make_record("R1", [("x = 1", "a.py")])])
    store.register(reportset(report))
    rows = list(csv.DictReader(io.StringIO(render(store, "csv"))))
    assert [(r["record"], r["quote"], r["anchor"], r["verdict"]) for r in rows] == [
        ("R1", "", "", ""),
        ("R1", "1", "not anchored", ""),
    ]


def test_export_command_history_flag(tmp_path: Path) -> None:
    registered(tmp_path / "v.db").close()
    runner = CliRunner()
    base = ["export", "--db", str(tmp_path / "v.db")]
    current = runner.invoke(cli, [*base, "--format", "csv"])
    history = runner.invoke(cli, [*base, "--format", "csv", "--history"])
    assert current.exit_code == 0 and history.exit_code == 0
    assert current.stdout.splitlines()[0] == ",".join(CSV_FIELDS)
    assert history.stdout.splitlines()[0].startswith("item,report,record")
    wrong = runner.invoke(cli, [*base, "--format", "md", "--history"])
    assert wrong.exit_code == 2 and "--history is for csv" in wrong.output
    jsonl = runner.invoke(cli, [*base, "--format", "jsonl"])
    assert len(jsonl.stdout.splitlines()) == 9  # unchanged: the event log


LONG = "KB_ROOT = os.environ.get('KB_ROOT', '/var/lib/kb') or Path.home() / '.kb' / 'store'"
TICKS = "run `make` or ``make test``"
BLOCK = "def f():\n    return `x`\n```\nnot a fence"


def test_md_shows_each_quote_whole_and_literal(store: VerdictStore) -> None:
    report = make_report([make_record("R1", [LONG, TICKS, BLOCK, "`tick`", "    x = 1\n"])])
    store.register(reportset(report))
    text = render(store, "md")
    # one line: a code span, whole (no cut at 60 characters), nothing Markdown-escaped
    assert f"- quote 1: src/app.py: not anchored — `{LONG}`\n" in text
    # the span's backticks outnumber any run inside; a leading backtick is padded
    assert f"- quote 2: src/app.py: not anchored — ``` {TICKS} ```\n" in text
    assert "- quote 4: src/app.py: not anchored — `` `tick` ``\n" in text
    # several lines: a fenced block under the item, its fence longer than any run inside
    fenced = "- quote 3: src/app.py: not anchored\n  ````\n" + "".join(
        f"  {line}\n" for line in BLOCK.split("\n")
    )
    assert fenced + "  ````\n" in text
    # a SARIF snippet's final newline ends its line: one line, no empty one fenced after it
    assert "- quote 5: src/app.py: not anchored — `     x = 1 `\n" in text


def test_md_keeps_an_entity_in_a_note_as_written(store: VerdictStore) -> None:
    # a note on web code, "&lt;script&gt; is escaped here", read as "<script> is escaped here"
    item = ItemRef.for_record(REPORT, REPORT.records[0])
    store.give(item, "refuted", note="the template writes &lt;b&gt; &amp; R&D", reviewer="ann")
    text = render(store, "md")
    assert "> the template writes \\&lt;b\\&gt; \\&amp; R\\&D\n" in text


def test_csv_cells_a_spreadsheet_would_run_are_neutralised(store: VerdictStore) -> None:
    report = make_report([make_record('=HYPERLINK("http://x")', ["+1+1"], label="@SUM(A1:A9)")])
    store.register(reportset(report))
    record = report.records[0]
    quote = ItemRef.for_quote(report, record, record.quotes[0])
    store.give(quote, "refuted", note="=cmd|' /C calc'!A0", reviewer="-ann")
    store.give(ItemRef.for_record(report, record), "unclear", note="\tx", reviewer="@bob")
    current = list(csv.DictReader(io.StringIO(render(store, "csv"))))
    history = list(csv.DictReader(io.StringIO(render(store, "csv", history=True))))
    for row in current + history:
        for name, cell in row.items():
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), (name, cell)
    assert {row["record"] for row in current} == {'\'=HYPERLINK("http://x")'}
    assert {row["label"] for row in current} == {"'@SUM(A1:A9)"}
    quoted = next(row for row in current if row["quote"] == "1")
    assert (quoted["quote_text"], quoted["note"], quoted["reviewer"]) == (
        "'+1+1",
        "'=cmd|' /C calc'!A0",
        "'-ann",
    )
    assert {row["reviewer"] for row in history} == {"'-ann", "'@bob"}
    assert "'\tx" in {row["note"] for row in history}


@pytest.mark.parametrize(
    "remote",
    [
        "https://x-access-token:SECRET@gitlab.example/kestrel.git",
        # a token in the query (GitLab's private_token, an access_token) or the fragment
        "https://gitlab.example/kestrel.git?private_token=SECRET",
        "https://x-access-token@gitlab.example/kestrel.git?access_token=SECRET#x-access-token",
    ],
)
def test_no_url_assay_writes_holds_a_token(tmp_path: Path, remote: str) -> None:
    store = VerdictStore.open(tmp_path / "v.db")
    store.register(
        reportset(REPORT),
        anchors(),
        revision=REV,
        repository="/src/kestrel",
        remote=remote,
    )
    with store:
        text = render(store, "md")
        stored = store.sources()
    assert "SECRET" not in text and "x-access-token" not in text
    assert "(remote https://gitlab.example/kestrel.git)" in text
    assert all("SECRET" not in (source["remote"] or "") for source in stored)


def test_stats_lists_each_disagreement_with_both_notes(tmp_path: Path) -> None:
    registered(tmp_path / "v.db").close()
    result = CliRunner().invoke(cli, ["stats", "--db", str(tmp_path / "v.db")])
    assert result.exit_code == 0, result.output
    tail = result.stdout.split("Disagreements: 1\n", 1)[1]
    assert tail.splitlines()[:4] == [
        f"  {ItemRef.for_quote(REPORT, REPORT.records[0], REPORT.records[0].quotes[1]).key}: "
        "ann confirmed, bob unclear",
        "    ann (confirmed): (no note)",
        "    bob (unclear): ünïcode — and",
        "                   two lines",
    ]
    data = CliRunner().invoke(cli, ["stats", "--db", str(tmp_path / "v.db"), "--format", "json"])
    (found,) = json.loads(data.stdout)["disagreements"]
    assert found["notes"] == {"ann": None, "bob": "ünïcode — and\ntwo lines"}


def test_md_lists_the_results_a_reviewer_judged_or_that_fail_and_counts_the_rest(
    tmp_path: Path, sample: Path
) -> None:
    # a scan's 135,130 results were each a heading "not reviewed" (a write-up of 800,000 lines)
    from evidence.anchoring import anchor_all
    from evidence.reports.loading import load_reports
    from evidence.revision import Revision
    from evidence.sample import CITED_REVISION
    from evidence.sarif.rebase import at_revision

    scan = Path(__file__).resolve().parents[1] / "evidence" / "sarif" / "codeql-kestrel.sarif"
    with Revision.open(sample, CITED_REVISION) as revision:
        loaded = at_revision(load_reports([scan]), revision)
        found = anchor_all(loaded, revision)
    results = [r for r in loaded.records() if r.kind.value == "result"]
    failing = {r.id for r in results if any(found[q].failing for q in r.quotes)}
    judged = next(r for r in results if r.id not in failing)
    noted = next(r for r in results if r.id not in failing and r is not judged)
    with VerdictStore.open(tmp_path / "v.db") as store:
        store.register(loaded, found, revision=CITED_REVISION)
        report = next(rep for rep in loaded.reports if judged in rep.records)
        store.give(ItemRef.for_record(report, judged), "refuted", reviewer="ann")
        other = next(rep for rep in loaded.reports if noted in rep.records)
        quote = noted.quotes[0]
        store.note(ItemRef.for_quote(other, noted, quote), "seen", reviewer="ann")
        text = render(store, "md")
    listed = {r.id for r in results if f"### {r.id} " in text}
    assert failing and listed == failing | {judged.id, noted.id}
    quiet = len(results) - len(listed)
    assert quiet > 0
    counted = [line for line in text.splitlines() if "not reviewed, none failing" in line]
    assert sum(int(line.split()[0].replace(",", "")) for line in counted) == quiet


def test_md_counts_a_rules_results_given_one_verdict_without_a_note(store: VerdictStore) -> None:
    # a verdict on a rule's every result (`R` in the review) wrote each of them as a heading
    def result(rule: str, n: int) -> Record:
        return make_record(f"{rule}:{n:04d}", kind=Kind.RESULT)._replace(section=rule)

    records = [result("Q000", n) for n in range(30)] + [result("B608", n) for n in range(3)]
    scan = make_report(records, system="ruff", member="scan", file="scan.sarif")
    store.register(reportset(scan), {}, revision=REV)
    items = {record.id: ItemRef.for_record(scan, record) for record in records}
    store.give_many([items[f"Q000:{n:04d}"] for n in range(25)], "refuted", reviewer="ann")
    store.give(items["Q000:0025"], "refuted", note="a real one", reviewer="ann")
    store.give_many([items[f"B608:{n:04d}"] for n in range(3)], "refuted", reviewer="ann")
    store.give(items["Q000:0024"], "confirmed", reviewer="bob")  # reviewers differ: listed
    text = render(store, "md")
    headed = {record.id for record in records if f"### {record.id} " in text}
    assert headed == {"Q000:0024", "Q000:0025", "B608:0000", "B608:0001", "B608:0002"}
    assert "- refuted: 24 (Q000 24)" in text.splitlines()
    assert "4 results not reviewed, none failing" in text
    assert "| records | 1 | 29 | 0 | 0 | 4 |" in text  # the summary counts every one
    only_ann = markdown(store, reviewer="ann")
    assert "- refuted: 25 (Q000 25)" in only_ann.splitlines()  # bob's verdict not shown
    # a group given with a note: counted with it, the note quoted once
    more = [result("E501", n) for n in range(22)]
    longer = make_report(more, system="ruff", member="long", file="long.sarif")
    store.register(reportset(scan, longer), {}, revision=REV)
    lines = [ItemRef.for_record(longer, record) for record in more]
    store.give_many(lines, "skip", reviewer="ann", note="line length: not in scope")
    written = markdown(store, reviewer="ann").splitlines()
    at = written.index("- skip, noted: 22 (E501 22)")
    assert written[at + 1] == "  > line length: not in scope"
    assert not any(line.startswith("### E501:") for line in written)


def test_md_says_which_scans_may_be_incomplete_until_a_complete_one_is_registered(
    store: VerdictStore,
) -> None:
    """A scan that failed, or could not read files, said so when the review opened; the
    write-up handed over later said nothing of it. Even a failed run with no result is named."""
    from evidence.sarif.reader import load_sarif

    def scan(tool: str, invocation: dict[str, object], *results: object) -> bytes:
        run = {"tool": {"driver": {"name": tool}}, "results": list(results)}
        run["invocations"] = [invocation]
        return json.dumps({"version": "2.1.0", "runs": [run]}).encode()

    where = {"physicalLocation": {"artifactLocation": {"uri": "src/a.py"}}}
    result = {"ruleId": "X", "message": {"text": "m"}, "locations": [where]}
    failed = {
        "executionSuccessful": False,
        "exitCode": 2,
        "toolExecutionNotifications": [
            {
                "level": "error",
                "message": {"text": "Could not parse [b]x[/b]"},
                "locations": [where],
            }
        ],
    }
    reports = [
        *load_sarif(scan("Bandit", failed, result), "bandit.sarif"),
        *load_sarif(scan("Semgrep", {"executionSuccessful": False}), "semgrep.sarif"),
    ]
    store.register(reportset(*reports))
    text = render(store, "md")
    assert "- Scans that may be incomplete: 2" in text
    bandit, semgrep = (report.identity for report in reports)
    assert f"  - {bandit}: the tool says its run failed (exit code 2)" in text
    assert (
        f"  - {bandit}: the tool reported 1 error while it ran: 'Could not parse \\[b\\]x\\[/b\\]'"
        in text
    )
    assert f"  - {semgrep}: the tool says its run failed" in text
    # the next scan of Bandit ran to its end: only Semgrep's is said
    (again,) = load_sarif(scan("Bandit", {"executionSuccessful": True}, result), "bandit.sarif")
    store.register(reportset(again))
    text = render(store, "md")
    assert "- Scans that may be incomplete: 1" in text and bandit not in text.split("## ")[1]
