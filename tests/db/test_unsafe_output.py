"""One unsafe-text rule for every output: every code point of evidence/text.py's unsafe
categories (controls, format characters, line and paragraph separators), put in reviewer names,
notes, labels and record ids, comes out of export (every format, the write-up), import, stats,
sync and parse escaped; newlines and tabs only where a format keeps them."""

from __future__ import annotations

import re
import sys
import unicodedata
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from storekit import make_record, make_report, reportset

from db.keys import ItemRef
from db.store import VerdictStore
from db.sync.engine import SyncResult
from evidence.text import UNSAFE_CATEGORIES
from tui.cli import cli
from tui.commands.sync import report as sync_report

UNSAFE = [
    chr(code)
    for code in range(sys.maxunicode + 1)
    if not 0xD800 <= code <= 0xDFFF and unicodedata.category(chr(code)) in UNSAFE_CATEGORIES
]
EVERY = "".join(UNSAFE)
#: what each output may keep: newlines between lines, tabs inside csv cells and quotes
KEPT = {"\n", "\t"}


def leaked(text: str) -> set[str]:
    """Unsafe characters in an output that its rule does not keep."""
    return {char for char in text if char in UNSAFE_SET} - KEPT


UNSAFE_SET = frozenset(UNSAFE)


def invoke(*args: str | Path) -> str:
    result = CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stdout + result.stderr


#: what `assay import` refuses outside a note, as sync does (db/event_text.py): terminal and
#: bidi controls
REFUSED = re.compile(r"[\x00-\x1f\x7f-\x9f\u200e\u200f\u2028-\u202e\u2066-\u2069]")


def database(path: Path, text: str) -> Path:
    """Two reviewers who disagree, their names, notes, a label and a record id holding text."""
    report = make_report([make_record(f"RT-CLM-{text}", [f"x = {text}"], label=text)])
    record = report.records[0]
    with VerdictStore.open(path) as store:
        store.register(reportset(report), remote=f"https://example.com/{text}")
        quote = ItemRef.for_quote(report, record, record.quotes[0])
        store.give(quote, "refuted", note=f"note {text}", reviewer=f"ann{text}")
        store.give(quote, "confirmed", note=text, reviewer=f"=bob{text}")
    return path


def every_output(tmp_path: Path, text: str) -> dict[str, str]:
    """What each command prints for a database holding ``text`` everywhere."""
    db = database(tmp_path / "v.db", text)
    outputs = {}
    for fmt in ("jsonl", "json", "csv", "md", "sarif"):
        outputs[fmt] = invoke("export", "--db", db, "--format", fmt)
    outputs["csv --history"] = invoke("export", "--db", db, "--format", "csv", "--history")
    outputs["stats"] = invoke("stats", "--db", db)
    outputs["stats json"] = invoke("stats", "--db", db, "--format", "json")
    events = tmp_path / "events.jsonl"
    events.write_text(outputs["jsonl"], encoding="utf-8")
    refused = CliRunner().invoke(cli, ["import", str(events), "--db", str(tmp_path / "o.db")])
    if refused.exit_code:  # a record id or reviewer name with a control: as sync refuses it
        assert refused.exit_code == 2 and "holds terminal control characters" in refused.stderr
    outputs["import refused"] = refused.stdout + refused.stderr
    # the rest, taken: its names in the disagreements listed
    taken = database(tmp_path / "taken.db", REFUSED.sub("", text) or "x")
    events.write_text(invoke("export", "--db", taken), encoding="utf-8")
    outputs["import"] = invoke("import", events, "--db", tmp_path / "other.db")
    assert "disagreement(s) between reviewers" in outputs["import"]
    return outputs


def test_every_unsafe_code_point_is_escaped_in_every_output(tmp_path: Path) -> None:
    assert len(UNSAFE) > 200  # C0, DEL, C1, format characters (tags too), separators
    for name, output in every_output(tmp_path, EVERY).items():
        assert not leaked(output), (name, sorted(map(ord, leaked(output)))[:10])


def test_sync_messages_escape_every_unsafe_code_point(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    offline = SyncResult(EVERY, EVERY, offline=EVERY, pending=1, problems=[EVERY])
    refused = SyncResult(EVERY, EVERY, error=EVERY, problems=[EVERY])
    synced = SyncResult(EVERY, EVERY, received=1)
    for result in (offline, refused, synced):
        sync_report(result, tmp_path / EVERY.replace("/", ""))
    out, err = capsys.readouterr()
    assert not leaked(out + err)


def test_parse_escapes_every_unsafe_code_point(tmp_path: Path) -> None:
    path = tmp_path / "tiny-runtime-report.txt"
    text = EVERY.replace("\n", "").replace("\r", "")
    path.write_text(
        f"Tiny runtime report\n\nType: x-runtime-report.md\n\nShared records\n\nClaims\n\n"
        f"TY-CLM-a\n\nLabel: {text}\n\nx = {text} --- src/app.py\n",
        encoding="utf-8",
    )
    assert not leaked(invoke("parse", path))


@settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.text(alphabet=st.sampled_from([*UNSAFE, "a", "=", "-", " ", "`"]), min_size=1))
def test_mixed_text_is_escaped_in_every_output(
    tmp_path_factory: pytest.TempPathFactory, text: str
) -> None:
    for name, output in every_output(tmp_path_factory.mktemp("mixed"), text).items():
        assert not leaked(output), name
