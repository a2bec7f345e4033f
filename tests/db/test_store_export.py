"""Export in every format, and jsonl import: stable, idempotent, validated."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from storekit import REPORT, REV, ROUTE, anchors, fill, make_record, make_report, qref, reportset

from db.event_text import admitted
from db.events import find_disagreements
from db.export import FIELDS, event_line, parse_events, render
from db.keys import ItemRef, Verdict
from db.store import Event, StoreError, VerdictStore


@pytest.fixture
def filled(store: VerdictStore) -> VerdictStore:
    store.register(reportset(REPORT), anchors(), revision=REV)
    fill(store)
    return store


def test_jsonl_is_sorted_and_keeps_the_contract_fields(filled: VerdictStore) -> None:
    lines = render(filled, "jsonl").splitlines()
    assert len(lines) == filled.count() == 9
    rows = [json.loads(line) for line in lines]
    assert all(list(row) == list(FIELDS) for row in rows)
    assert rows == sorted(rows, key=lambda row: (row["at"], row["event"]))
    assert len({row["event"] for row in rows}) == 9
    assert rows[1]["quote"] == qref(0).quote and rows[0]["quote"] is None
    assert rows[1]["revision"] == REV and rows[1]["at"].endswith("Z")


def test_control_characters_are_escaped_in_jsonl(filled: VerdictStore) -> None:
    text = render(filled, "jsonl")
    assert "\x1b" not in text and "\x9b" not in text
    assert "\\u009b" in text
    notes = [json.loads(line)["note"] for line in text.splitlines()]
    assert "[click](javascript:x) <b>bold</b> \x1b[31mred\x9b" in notes


def test_export_import_export_is_identical(filled: VerdictStore, tmp_path: Path) -> None:
    exported = render(filled, "jsonl")
    with VerdictStore.open(tmp_path / "fresh.sqlite3") as fresh:
        result = fresh.import_events(parse_events(exported, "a.jsonl"))
        assert (result.added, result.present, result.conflicts) == (9, 0, ())
        # but a note's terminal controls, taken as their pictures (db/event_text.py)
        pictured = exported.replace("\\u001b", "\u241b").replace("\\u009b", "\ufffd")
        assert pictured != exported and render(fresh, "jsonl") == pictured
        for reviewer in ("ann", "bob"):
            taken = {key: admitted(e, "") for key, e in filled.current(reviewer).items()}
            assert fresh.current(reviewer) == taken
        # undo still knows what was undone
        assert isinstance(filled.undo("ann"), Event)
        assert fresh.undo("ann") == Event(**{**fresh.events()[-1].__dict__})


def test_import_twice_changes_nothing(filled: VerdictStore) -> None:
    events = parse_events(render(filled, "jsonl"), "mine.jsonl")
    result = filled.import_events(events)
    assert (result.added, result.present, result.conflicts) == (0, 9, ())
    assert filled.count() == 9


def test_import_keeps_the_stored_event_on_an_id_conflict(filled: VerdictStore) -> None:
    first = filled.events()[0]
    forged = Event(**{**first.__dict__, "verdict": Verdict.REFUTED})
    result = filled.import_events([forged])
    assert result.conflicts == (first.event,)
    assert filled.events()[0] == first


def test_json_format_reads_back(filled: VerdictStore) -> None:
    document = json.loads(render(filled, "json"))
    assert document["format"] == "assay-verdicts"
    assert len(document["events"]) == 9
    assert {(row["reviewer"], row["item"]) for row in document["current"]} == {
        (e.reviewer, e.item) for e in filled.current_all()
    }
    taken = [admitted(event, "") for event in filled.events()]
    assert parse_events(render(filled, "json"), "x.json") == taken


def test_csv_history_has_one_row_per_event(filled: VerdictStore) -> None:
    rows = list(csv.reader(io.StringIO(render(filled, "csv", history=True))))
    assert rows[0] == list(FIELDS)
    assert len(rows) == 10
    assert "ünïcode — and\ntwo lines" in [row[FIELDS.index("note")] for row in rows]


def test_md_summary(filled: VerdictStore) -> None:
    text = render(filled, "md")
    assert "## KESTREL/agentic-system-runtime-report" in text
    assert "### RT-CLM-retries — Retries stop after three (claim)" in text
    # each quote whole and literal, in a code span
    assert "- quote 1: src/app.py line 40: exact — `if retries > 3:`\n" in text
    assert "- quote 2: src/config.py line 7: fuzzy 82 — `MAX = 3`\n" in text
    assert "- quote 3: src/app.py: missing — `give_up()`\n" in text
    assert "  - ann: **refuted**\n    > line 40 says \\>= 3\n  - bob: **refuted**" in text
    # notes are data: markup escaped, control characters shown
    assert "\\[click\\](javascript:x) \\<b\\>bold\\</b\\>" in text
    assert "\x1b" not in text and "\x9b" not in text
    # the route's refuted verdict was undone, bob's skip stays
    route = text.split("### RT-RTE-upload", 1)[1]
    assert "bob: **skip**" in route and "ann" not in route


def test_sarif_one_result_per_quote_with_verdicts_as_suppressions(filled: VerdictStore) -> None:
    log = json.loads(render(filled, "sarif"))
    assert log["version"] == "2.1.0"
    run = log["runs"][0]
    assert run["tool"]["driver"]["name"] == "assay"
    results = run["results"]
    assert len(results) == 3
    first, second, third = results
    assert first["ruleId"] == "quote-verified" and first["level"] == "note"
    assert first["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "src/app.py"},
        "region": {"startLine": 40, "endLine": 40},
    }
    # ann refuted with a note, bob refuted without one
    assert {
        (s["properties"]["reviewer"], s["status"], s.get("justification"))
        for s in first["suppressions"]
    } == {("ann", "accepted", "line 40 says >= 3"), ("bob", "accepted", None)}
    # bob unclear, ann confirmed: only bob's verdict is a suppression
    assert second["ruleId"] == "quote-fuzzy"
    assert [(s["properties"]["reviewer"], s["status"]) for s in second["suppressions"]] == [
        ("bob", "underReview")
    ]
    assert second["properties"]["verdicts"] == {"ann": "confirmed", "bob": "unclear"}
    # a note without a verdict is no suppression
    assert "suppressions" not in third
    assert third["ruleId"] == "quote-missing" and third["level"] == "error"
    assert run["properties"]["revisions"] == [REV]
    for result in results:
        assert run["tool"]["driver"]["rules"][result["ruleIndex"]]["id"] == result["ruleId"]


def test_sarif_location_is_a_uri_reference(store: VerdictStore) -> None:
    record = make_record("R1", [("x = 1", "docs/read me#1.md")])
    report = make_report([record])
    store.register(reportset(report))
    (result,) = json.loads(render(store, "sarif"))["runs"][0]["results"]
    location = result["locations"][0]["physicalLocation"]["artifactLocation"]
    assert location == {"uri": "docs/read%20me%231.md"}
    assert result["ruleId"] == "quote-unchecked" and result["level"] == "none"


def test_sarif_unclear_is_under_review(store: VerdictStore) -> None:
    store.register(reportset(REPORT), anchors())
    store.give(qref(1), "unclear", note="cannot tell", reviewer="bob")
    result = json.loads(render(store, "sarif"))["runs"][0]["results"][1]
    assert result["suppressions"][0]["status"] == "underReview"
    assert result["suppressions"][0]["justification"] == "cannot tell"


def test_export_of_one_reviewer(filled: VerdictStore) -> None:
    rows = [json.loads(line) for line in render(filled, "jsonl", reviewer="bob").splitlines()]
    assert {row["reviewer"] for row in rows} == {"bob"}


def line(**changes: object) -> str:
    data: dict[str, object] = {
        "item": "S/runtime#R1",
        "report": "S/runtime",
        "record": "R1",
        "quote": None,
        "reviewer": "ann",
        "verdict": "confirmed",
        "note": None,
        "at": "2026-11-29T10:00:00.000000Z",
        "revision": None,
        "event": "e1",
    }
    data.update(changes)
    return json.dumps({k: v for k, v in data.items() if v is not ...})


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "x.jsonl:1: not JSON"),
        (line(verdict="maybe"), "unknown verdict 'maybe'"),
        (line(event=...), "missing field"),
        (line(reviewer=""), "reviewer must be a non-empty string"),
        (line(note=3), "note must be a string or null"),
        (line(item="S/runtime#R2"), "does not match"),
        (line(at="yesterday"), "not an ISO 8601 time"),
        (line(at="2026-11-29T10:00:00"), "x.jsonl:1: at '2026-11-29T10:00:00' has no UTC offset"),
        (line(at="0001-01-01T00:30:00+01:00"), "x.jsonl:1: at '0001-01-01T00:30:00.+01:00' is out"),
        ("[1, 2]", "expected a JSON object"),
        (line() + "\n" + line(verdict="refuted"), "used for two different events"),
    ],
)
def test_bad_input_is_refused_with_its_line(text: str, message: str) -> None:
    with pytest.raises(StoreError, match=message):
        parse_events(text, "x.jsonl")


@pytest.mark.parametrize(
    ("at", "stored"),
    [
        ("2026-11-29T10:00:00+00:00", "2026-11-29T10:00:00.000000Z"),
        # another tool's, or a hand-edited, time with its own offset: the same instant in UTC
        ("2026-12-01T10:00:00+02:00", "2026-12-01T08:00:00.000000Z"),
        ("2026-11-30T21:15:00.5-05:30", "2026-12-01T02:45:00.500000Z"),
        ("2026-12-01T00:30:00+0100", "2026-11-30T23:30:00.000000Z"),
        ("0005-01-01T00:00:00Z", "0005-01-01T00:00:00.000000Z"),  # sorts as text: 4 digits
    ],
)
def test_other_iso_times_are_normalized(at: str, stored: str) -> None:
    (event,) = parse_events(line(at=at) + "\n\n", "x.jsonl")
    assert event.at == stored


def test_import_lists_disagreements(filled: VerdictStore) -> None:
    found = {d.item: dict(d.verdicts) for d in filled.disagreements()}
    assert found == {qref(1).key: {"ann": Verdict.CONFIRMED, "bob": Verdict.UNCLEAR}}


@pytest.mark.parametrize("apart", [1, 5_000])
def test_disagreements_are_read_of_the_items_two_reviewers_touched(
    store: VerdictStore, monkeypatch: pytest.MonkeyPatch, apart: int
) -> None:
    # only those are read (apart: past it, every current verdict at once, as before)
    monkeypatch.setattr("db.store.CONTESTED_READ_APART", apart)
    items = [ItemRef("S/runtime", f"R{n}") for n in range(30)]
    for n, item in enumerate(items):
        store.give(item, "confirmed", reviewer="ann")
        if n % 3 == 0:  # bob differs on these, agrees on every third after, skips the rest
            store.give(item, "refuted", reviewer="bob")
        elif n % 3 == 1:
            store.give(item, "confirmed", reviewer="bob")
        else:
            store.give(item, "skip", reviewer="bob")
    store.give(items[3], "confirmed", reviewer="bob")  # since agreeing: no longer a disagreement
    expected = find_disagreements(store.current_all())
    assert [d.item for d in expected] == sorted(item.key for item in items[::3] if item != items[3])
    assert store.disagreements() == expected
    some = {items[0].key, items[1].key, items[6].key}
    assert store.disagreements(some) == find_disagreements(store.current_all(), some)
    assert store.disagreements([items[1].key]) == []


def test_delete_character_is_escaped_in_ascii_exports(store: VerdictStore) -> None:
    store.note(ItemRef.for_record(REPORT, ROUTE), "rub\x7bout\x7f", reviewer="ann")
    text = render(store, "jsonl")
    assert text.isascii() and "\x7f" not in text and "\\u007f" in text
    assert json.loads(text)["note"] == "rub{out\x7f"
    assert parse_events(text, "x.jsonl")[0].note == "rub{out\u2421"  # imported as its picture


def test_import_in_several_transactions(
    filled: VerdictStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("db.store.IMPORT_BATCH", 2)
    events = filled.events()
    with VerdictStore.open(tmp_path / "fresh.sqlite3") as fresh:
        fresh.import_events(events[:3])
        result = fresh.import_events(events + events[:1])
        assert (result.added, result.present, result.conflicts) == (6, 4, ())
        assert fresh.events() == events


def test_an_import_stopped_half_way_says_what_was_saved(
    filled: VerdictStore, tmp_path: Path
) -> None:
    # was "...; nothing was saved, try again" after the first transactions had been committed
    events = filled.events()
    unstorable = Event(**{**events[5].__dict__, "note": "cut \ud800"})
    with VerdictStore.open(tmp_path / "fresh.sqlite3") as fresh:
        with pytest.raises(StoreError) as stopped:
            fresh.import_events([*events[:5], unstorable, *events[6:]], batch=2)
        message = str(stopped.value)
        assert message.startswith("importing events failed: the text holds characters")
        assert message.endswith(
            "; the first 4 of the 9 events were saved, the rest were not: run it again to add "
            "them (what was saved is not added twice)"
        )
        assert "nothing was saved" not in message
        assert fresh.events() == events[:4]
        result = fresh.import_events(events, batch=2)  # again: the rest added, none doubled
        assert (result.added, result.present) == (5, 4)
        assert fresh.events() == events


def test_sqlite_encodes_lines_exactly_as_python_does(filled: VerdictStore) -> None:
    lines = render(filled, "jsonl").splitlines()
    assert lines == [event_line(event) for event in filled.events()]


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(note=st.text(alphabet=st.characters(blacklist_categories=["Cs"]), min_size=1))
def test_any_note_exports_the_same_from_sqlite_and_python(store: VerdictStore, note: str) -> None:
    event = store.note(ItemRef.for_record(REPORT, ROUTE), note, reviewer="ann")
    last = render(store, "jsonl").splitlines()[-1]
    assert last == event_line(event)
    assert json.loads(last)["note"] == note


def test_line_separators_never_split_a_jsonl_line(store: VerdictStore) -> None:
    note = "one\u2028two\u2029three\x85four\x1cfive"
    store.note(ItemRef.for_record(REPORT, ROUTE), note, reviewer="ann")
    text = render(store, "jsonl")
    assert len(text.splitlines()) == 1
    (event,) = parse_events(text.replace("\n", "\r\n"), "crlf.jsonl")
    assert event.note == "one\u2028two\u2029three\ufffdfour\u241cfive"  # controls as pictures


def test_every_format_reports_how_many_events_it_covers(filled: VerdictStore) -> None:
    from db.export import FORMATS, write

    everyone = filled.count()
    for reviewer in (None, *filled.reviewers()):
        expected = everyone if reviewer is None else len(filled.events(reviewer))
        for fmt in FORMATS:  # md and sarif count the history without reading it
            assert write(filled, fmt, io.StringIO(), reviewer=reviewer) == expected, fmt
    assert filled.count("nobody") == 0


def test_a_large_document_is_written_compact_and_reads_back_the_same(tmp_path: Path) -> None:
    # json's indenting encoder is pure Python: a 135,130-result SARIF log took 40 s to indent
    from db.export import INDENTED_UP_TO

    with VerdictStore.open(tmp_path / "v.db") as store:
        items = [ItemRef("ruff/ruff", f"Q000:{n}") for n in range(INDENTED_UP_TO + 1)]
        store.give_many(items, "refuted", reviewer="ann", note="quote style\x1b[2J")
        text = render(store, "json")
        store.give(items[0], "confirmed", reviewer="bob")
    assert text.count("\n") == 1  # one line: not indented
    assert "\x1b" not in text  # escaped as the indented form is
    document = json.loads(text)
    assert len(document["events"]) == INDENTED_UP_TO + 1
    assert document["current"][0]["note"] == "quote style\x1b[2J"
    taken = [admitted(event, "") for event in store_events(tmp_path / "v.db")[:-1]]
    assert parse_events(text, "export.json") == taken


def store_events(path: Path) -> list[Event]:
    with VerdictStore.open(path, readonly=True) as store:
        return store.events()
