"""Guarantees that held under attack, shown here where no test elsewhere shows them end to end.

The others (configured programs and hooks never run, remote helpers refused, markup literal,
damaged databases refused, a writer killed mid-run) are shown by the tests docs/security.md
names; these add terminal sequences through every command's output, and kill -9 in the middle
of `assay import` and of a sync.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from clikit import ROOT, assay
from synckit import REPORT

from db.export import event_line
from db.keys import ItemRef
from db.store import Event, VerdictStore
from evidence.sample import CITED_REVISION, SAMPLE_REPORTS

#: what must never reach a terminal raw: CSI, OSC with BEL, C1 CSI, bidi override, CR
RAW = ("\x1b", "\x07", "\x9b", "\u202e", "\r")
HOSTILE = "\x1b]0;owned\x07\x1b[2J\x9b31m\u202eevil\r"


def _hostile_inputs(tmp_path: Path) -> tuple[Path, Path]:
    """The sample runtime report with escapes in its title, a label, a claim and a quote; a
    SARIF log with them in a message, a rule and a path."""
    text = (SAMPLE_REPORTS / "kestrel-runtime-report.txt").read_text(encoding="utf-8")
    text = text.replace("Kestrel runtime report", f"Kestrel {HOSTILE} runtime report", 1)
    text = text.replace("Label: Kestrel HTTP API", f"Label: Kestrel {HOSTILE} API", 1)
    text = text.replace("A station device sends", f"A {HOSTILE} station device sends", 1)
    text = text.replace(
        '    header = request.headers.get("authorization", "")', f"    {HOSTILE}", 1
    )
    report = tmp_path / "report.txt"
    report.write_text(text, encoding="utf-8")
    result = {
        "ruleId": f"rule{HOSTILE}",
        "message": {"text": f"found {HOSTILE}"},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": {"uri": f"api/{HOSTILE}.py"},
                    "region": {"startLine": 1, "snippet": {"text": HOSTILE}},
                }
            }
        ],
    }
    sarif = tmp_path / "scan.sarif"
    sarif.write_text(
        json.dumps(
            {
                "version": "2.1.0",
                "runs": [{"tool": {"driver": {"name": HOSTILE}}, "results": [result]}],
            }
        ),
        encoding="utf-8",
    )
    return report, sarif


def _assert_nothing_raw(result: subprocess.CompletedProcess[str], what: str) -> None:
    for stream in (result.stdout, result.stderr):
        found = [char for char in RAW if char in stream]
        assert found == [], (what, found, stream[:500])


def test_terminal_sequences_reach_no_output(tmp_path: Path, sample: Path) -> None:
    report, sarif = _hostile_inputs(tmp_path)
    db = tmp_path / "v.sqlite3"
    with VerdictStore.open(db) as store:
        store.give(
            ItemRef(REPORT, f"R{HOSTILE}"), "refuted", reviewer=f"ada{HOSTILE}", note=HOSTILE
        )
    events = tmp_path / f"bob{HOSTILE[:9]}.jsonl"
    with VerdictStore.open(db, readonly=True) as store:
        line = json.loads(event_line(store.events()[0]))
    events.write_text(json.dumps(dict(line, event="b" * 32)) + "\n", encoding="utf-8")
    repo = ["--repo", str(sample), "--rev", CITED_REVISION]
    runs = {
        "parse": ["parse", str(report), str(sarif)],
        "check": ["check", *repo, str(report)],
        "check sarif": ["check", *repo, str(sarif)],
        "check json": ["check", "--format", "json", *repo, str(report), str(sarif)],
        "import": ["import", str(events), "--db", str(db)],
        "stats": ["stats", "--db", str(db)],
        "export md": ["export", "--format", "md", "--db", str(db)],
        "export csv": ["export", "--format", "csv", "--db", str(db)],
        "show": ["show", "--repo", str(sample), "--rev", CITED_REVISION, f"api/{HOSTILE}.py"],
        "grep": ["grep", "--repo", str(sample), "--rev", CITED_REVISION, HOSTILE],
        "sync": ["sync", "--db", str(db), "--remote", str(tmp_path / f"v{HOSTILE}.git")],
    }
    for what, args in runs.items():
        result = assay(*args, env={"XDG_DATA_HOME": str(tmp_path / "data")})
        assert result.returncode in (0, 1, 2, 6), (what, result.returncode, result.stderr)
        assert "internal error" not in result.stderr, (what, result.stderr)
        _assert_nothing_raw(result, what)


IMPORTER = """
import sys
from pathlib import Path
from db.export import parse_events
from db.store import VerdictStore
db, source = sys.argv[1:]
events = parse_events(Path(source).read_text(encoding="utf-8"), source)
with VerdictStore.open(Path(db)) as store:
    print("ready", flush=True)
    store.import_events(events, batch=500)
print("done", flush=True)
"""


def test_import_killed_mid_run_loses_no_confirmed_verdict(tmp_path: Path) -> None:
    db = tmp_path / "v.sqlite3"
    with VerdictStore.open(db) as store:
        mine = store.give(ItemRef(REPORT, "R-1"), "confirmed", reviewer="ada")
        template = json.loads(event_line(mine))
    lines = []
    for number in range(40_000):
        record = f"B-{number}"
        item = ItemRef(REPORT, record).key
        event = dict(template, event=f"{number:032x}", reviewer="bob", record=record, item=item)
        lines.append(json.dumps(event))
    source = tmp_path / "bob.jsonl"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    importer = subprocess.Popen(
        [sys.executable, "-c", IMPORTER, str(db), str(source)],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        text=True,
    )
    assert importer.stdout is not None
    assert importer.stdout.readline() == "ready\n"
    for _ in range(2000):  # until a batch has landed (or the import is over)
        with VerdictStore.open(db, readonly=True) as store:
            if store.count("bob") or importer.poll() is not None:
                break
    os.kill(importer.pid, signal.SIGKILL)
    importer.communicate(timeout=30)
    with VerdictStore.open(db) as store:  # opening for writing recovers the WAL
        assert store.integrity_check() == ["ok"]
        assert store.current("ada")[mine.item] == mine
        landed = store.count("bob")
        assert landed % 500 == 0  # whole batches or none: no half-written transaction
        again = store.import_events([e for e in store.events("ada")] + _events(source), batch=5000)
        assert again.added == 40_000 - landed and store.count("bob") == 40_000


def _events(source: Path) -> list[Event]:
    from db.export import parse_events

    return list(parse_events(source.read_text(encoding="utf-8"), str(source)))


SYNCER = """
import sys, time
from pathlib import Path
from db.store import VerdictStore
from db.sync.engine import sync
db, remote, data = sys.argv[1:]

def hold(attempt):
    print("pushing", flush=True)
    time.sleep(60)  # killed here, its commit made and not pushed

with VerdictStore.open(Path(db)) as store:
    sync(store, remote=remote, reviewer="ada", data_dir=Path(data), before_push=hold)
"""


def test_sync_killed_mid_run_loses_nothing(tmp_path: Path) -> None:
    from synckit import bare_remote, give, run_sync

    remote = bare_remote(tmp_path / "verdicts.git")
    ben = VerdictStore.open(tmp_path / "ben.sqlite3")
    try:
        give(ben, "ben", {"R-1": "refuted"})
        run_sync(ben, remote, "ben", tmp_path / "b")
    finally:
        ben.close()
    db = tmp_path / "ada.sqlite3"
    with VerdictStore.open(db) as store:
        mine = store.give(ItemRef(REPORT, "R-1"), "confirmed", reviewer="ada")
    syncer = subprocess.Popen(
        [sys.executable, "-c", SYNCER, str(db), str(remote), str(tmp_path / "a")],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        text=True,
    )
    assert syncer.stdout is not None
    assert syncer.stdout.readline() == "pushing\n"  # ben's event imported, ada's not yet sent
    os.kill(syncer.pid, signal.SIGKILL)
    syncer.communicate(timeout=30)
    with VerdictStore.open(db) as store:
        assert store.integrity_check() == ["ok"]
        assert store.current("ada")[mine.item] == mine
        again = run_sync(store, remote, "ada", tmp_path / "a")  # its lock died with it
        assert again.ok and again.sent == 1
        assert {e.reviewer for e in store.events()} == {"ada", "ben"}
