"""What a review says of the scan it opens: the reviewer's verdicts that followed their findings
from the scan before (db/carry.py; nothing stale), and a scan whose run says it failed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from screenkit import git, review_once

from db.keys import ItemRef
from db.store import VerdictStore
from evidence.model import Report, ReportSet
from evidence.reports.loading import load_reports
from keymaps import Keymap

CODE = "subprocess.call(cmd, shell=True)"


def commit(repo: Path, source: str) -> str:
    (repo / "src").mkdir(parents=True, exist_ok=True)
    (repo / "src" / "run.py").write_text(source, encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "-c", "user.name=A", "-c", "user.email=a@example.org", "commit", "-qm", "edit")
    return git(repo, "rev-parse", "HEAD").strip()


def scanned(path: Path, line: int, **run_fields: Any) -> Path:
    """Bandit's shape: no fingerprints, so the result's id is its rule and location."""
    region = {"startLine": line, "endLine": line, "snippet": {"text": CODE}}
    location = {"physicalLocation": {"artifactLocation": {"uri": "src/run.py"}, "region": region}}
    result = {"ruleId": "B602", "message": {"text": "shell=True"}, "locations": [location]}
    run = {"tool": {"driver": {"name": "Bandit"}}, "results": [result], **run_fields}
    path.write_text(json.dumps({"version": "2.1.0", "runs": [run]}), encoding="utf-8")
    return path


async def test_a_verdict_follows_its_finding_into_the_next_scan(
    tmp_path: Path, keymap: Keymap
) -> None:
    repo, db = tmp_path / "repo", tmp_path / "verdicts.db"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    first = commit(repo, f"import subprocess\n{CODE}\n")
    before = scanned(tmp_path / "before.sarif", 2)
    await review_once(repo, before, first, db, keymap)
    (report,) = load_reports([before]).reports
    with VerdictStore.open(db) as store:
        item = ItemRef.for_record(report, report.records[0])
        store.give(item, "refuted", note="cmd is a constant", reviewer="ada", revision=first)

    second = commit(repo, f"import subprocess\n\nCMD = 'ls'\n{CODE}\n")
    after = scanned(tmp_path / "after.sarif", 4)
    (moved,) = load_reports([after]).reports[0].records
    assert moved.id != report.records[0].id
    seen = await review_once(repo, after, second, db, keymap)
    assert seen.current == {moved.id: "refuted"}
    assert seen.stale == 0
    assert any("verdicts and notes on 1 result of the scan before" in n for n in seen.said)
    with VerdictStore.open(db) as store:
        assert store.stale(ReportSet((load_reports([after]).reports[0],)), "ada") == []
        (state,) = store.current("ada").values()
        assert (state.note, state.revision) == ("cmd is a constant", first)  # judged there


async def test_a_scan_whose_run_failed_is_said_to_be_incomplete(
    tmp_path: Path, keymap: Keymap
) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    rev = commit(repo, f"import subprocess\n{CODE}\n")
    failed = {"executionSuccessful": False, "exitCode": 1}
    scan = scanned(tmp_path / "scan.sarif", 2, invocations=[failed])
    seen = await review_once(repo, scan, rev, tmp_path / "verdicts.db", keymap)
    assert "Bandit: the scan may be incomplete: the tool says its run failed (exit code 1)" in (
        seen.said
    )
    whole = scanned(tmp_path / "whole.sarif", 2, invocations=[{"executionSuccessful": True}])
    seen = await review_once(repo, whole, rev, tmp_path / "verdicts.db", keymap)
    assert not any("incomplete" in notice for notice in seen.said)


def located_scan(path: Path, lines: list[int]) -> Path:
    """ruff's shape: no snippet, one message for every function without a docstring."""
    results = [
        {
            "ruleId": "D103",
            "message": {"text": "Missing docstring in public function"},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": "src/run.py"},
                        "region": {"startLine": line},
                    }
                }
            ],
        }
        for line in lines
    ]
    run = {"tool": {"driver": {"name": "ruff"}}, "results": results}
    path.write_text(json.dumps({"version": "2.1.0", "runs": [run]}), encoding="utf-8")
    return path


TWO = "def a():\n    return 1\n\ndef b():\n    return 2\n"


async def two_judged(tmp_path: Path, keymap: Keymap) -> tuple[Path, Path, Report]:
    """A repository of two functions without a docstring (TWO), their scan reviewed and each
    result refuted with a note ("a is private", "b is private"): (repo, database, the scan)."""
    repo, db = tmp_path / "repo", tmp_path / "verdicts.db"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    first = commit(repo, TWO)
    before = located_scan(tmp_path / "before.sarif", [1, 4])
    await review_once(repo, before, first, db, keymap)
    (report,) = load_reports([before]).reports
    with VerdictStore.open(db) as store:
        for record, why in zip(report.records, ("a is private", "b is private"), strict=True):
            item = ItemRef.for_record(report, record)
            store.give(item, "refuted", note=why, reviewer="ada", revision=first)
    return repo, db, report


async def test_one_more_of_a_finding_is_told_apart_through_the_diff(
    tmp_path: Path, keymap: Keymap
) -> None:
    # two functions without a docstring move down two lines and a third is added below them:
    # the message is the same for all three, so only the diff between the two revisions tells
    # which two went on (in line order the first two would pair: the second with the new one)
    repo, db, _report = await two_judged(tmp_path, keymap)

    second = commit(repo, "import os\n\n" + TWO + "\ndef c():\n    return 3\n")
    after = located_scan(tmp_path / "after.sarif", [3, 6, 9])
    seen = await review_once(repo, after, second, db, keymap)
    records = load_reports([after]).reports[0].records
    assert seen.current == {records[0].id: "refuted", records[1].id: "refuted"}
    assert seen.stale == 0
    with VerdictStore.open(db) as store:
        notes = {e.record: e.note for e in store.current("ada").values()}
    assert notes == {records[0].id: "a is private", records[1].id: "b is private"}


async def test_a_verdict_leaves_the_line_another_finding_took(
    tmp_path: Path, keymap: Keymap
) -> None:
    # a function added above two without a docstring: ids are lines, so the new function's
    # result has the first one's id, the first one's has the second's: each verdict must go
    # where git's diff carried its function, and the new function's result stays unreviewed
    repo, db, report = await two_judged(tmp_path, keymap)

    second = commit(repo, "def c():\n    return 3\n\n" + TWO)
    after = located_scan(tmp_path / "after.sarif", [1, 4, 7])
    records = load_reports([after]).reports[0].records
    assert [r.id for r in records[:2]] == [r.id for r in report.records]  # the same ids
    seen = await review_once(repo, after, second, db, keymap)
    assert seen.current == {records[1].id: "refuted", records[2].id: "refuted"}
    with VerdictStore.open(db) as store:
        notes = {e.record: e.note for e in store.current("ada").values()}
    assert notes == {records[1].id: "a is private", records[2].id: "b is private"}
    # opened again: nothing moves twice
    seen = await review_once(repo, after, second, db, keymap)
    assert seen.current == {records[1].id: "refuted", records[2].id: "refuted"}


def scan_of(path: Path, file: str, lines: list[int]) -> Path:
    """Bandit's shape (a snippet, no fingerprints) of CODE at these lines of ``file``."""
    results = [
        {
            "ruleId": "B602",
            "message": {"text": "shell=True"},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": file},
                        "region": {"startLine": line, "endLine": line, "snippet": {"text": CODE}},
                    }
                }
            ],
        }
        for line in lines
    ]
    run = {"tool": {"driver": {"name": "Bandit"}}, "results": results}
    path.write_text(json.dumps({"version": "2.1.0", "runs": [run]}), encoding="utf-8")
    return path


async def test_verdicts_follow_their_findings_into_a_renamed_file(
    tmp_path: Path, keymap: Keymap
) -> None:
    # src/run.py renamed src/jobs.py, a line added above both findings: the same findings,
    # which git's diff calls a rename; their verdicts must not go stale
    repo, db = tmp_path / "repo", tmp_path / "verdicts.db"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    body = f"import subprocess\n\n\ndef a():\n    {CODE}\n\n\ndef b():\n    {CODE}\n"
    first = commit(repo, body)
    before = scan_of(tmp_path / "before.sarif", "src/run.py", [5, 9])
    await review_once(repo, before, first, db, keymap)
    (report,) = load_reports([before]).reports
    with VerdictStore.open(db) as store:
        for record, why in zip(report.records, ("a: constant", "b: user input"), strict=True):
            verdict = "refuted" if why.startswith("a") else "confirmed"
            item = ItemRef.for_record(report, record)
            store.give(item, verdict, note=why, reviewer="ada", revision=first)

    git(repo, "mv", "src/run.py", "src/jobs.py")
    (repo / "src" / "jobs.py").write_text('"""Jobs."""\n' + body, encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "-c", "user.name=A", "-c", "user.email=a@example.org", "commit", "-qm", "mv")
    second = git(repo, "rev-parse", "HEAD").strip()
    after = scan_of(tmp_path / "after.sarif", "src/jobs.py", [6, 10])
    records = load_reports([after]).reports[0].records
    seen = await review_once(repo, after, second, db, keymap)
    assert seen.current == {records[0].id: "refuted", records[1].id: "confirmed"}
    assert seen.stale == 0
    assert any("verdicts and notes on 2 results of the scan before" in n for n in seen.said)
    with VerdictStore.open(db) as store:
        notes = {e.record: e.note for e in store.current("ada").values()}
    assert notes == {records[0].id: "a: constant", records[1].id: "b: user input"}


def scan_at(path: Path, *found: tuple[int, str]) -> Path:
    """Bandit's shape: a B602 result of each (line, code) of src/run.py."""
    results = [
        {
            "ruleId": "B602",
            "message": {"text": "shell=True"},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": "src/run.py"},
                        "region": {"startLine": line, "endLine": line, "snippet": {"text": code}},
                    }
                }
            ],
        }
        for line, code in found
    ]
    run = {"tool": {"driver": {"name": "Bandit"}}, "results": results}
    path.write_text(json.dumps({"version": "2.1.0", "runs": [run]}), encoding="utf-8")
    return path


async def test_a_teammates_verdict_received_after_a_rescan_shows_on_his_finding(
    tmp_path: Path, keymap: Keymap
) -> None:
    # ada rescans: her finding goes from line 2 to 4 and another takes line 2 (its id); ben's
    # verdict on the id, given on the scan before, comes in after (as a sync brings it): the
    # review shows it on the finding he judged, not on the one that holds the id now
    from db.events import now_at
    from db.keys import Verdict
    from db.writes import new_event

    other = "subprocess.call(other, shell=True)"
    repo, db = tmp_path / "repo", tmp_path / "verdicts.db"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    first = commit(repo, f"import subprocess\n{CODE}\n")
    before = scan_at(tmp_path / "before.sarif", (2, CODE))
    await review_once(repo, before, first, db, keymap)
    second = commit(repo, f"import subprocess\n{other}\nx = 1\n{CODE}\n")
    after = scan_at(tmp_path / "after.sarif", (2, other), (4, CODE))
    await review_once(repo, after, second, db, keymap)
    (report,) = load_reports([before]).reports
    took, moved = load_reports([after]).reports[0].records
    assert took.id == report.records[0].id
    judged = ItemRef.for_record(report, report.records[0])
    with VerdictStore.open(db) as store:
        store.import_events([new_event(judged, "ben", Verdict.REFUTED, "ok", now_at(), first)])
    seen = await review_once(repo, after, second, db, keymap)
    assert seen.others == {moved.id: [("ben", Verdict.REFUTED)]}
