"""Stable item keys: report identity + record id (+ hash of the normalized quote text)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from storekit import make_record, make_report

from db.keys import (
    ItemRef,
    make_key,
    normalize_quote,
    quote_hash,
    quote_items,
    record_quote_hashes,
)


def test_record_key_uses_identity_not_file() -> None:
    record = make_record("RT-CLM-one")
    first = make_report([record], file="000_abc.txt")
    renamed = make_report([record], file="elsewhere/kestrel-runtime.txt")
    key = ItemRef.for_record(first, first.records[0]).key
    assert key == "KESTREL/agentic-system-runtime-report#RT-CLM-one"
    assert ItemRef.for_record(first, first.records[0]) == ItemRef.for_record(
        renamed, renamed.records[0]
    )


def test_other_system_or_member_gives_other_key() -> None:
    record = make_record("RT-CLM-one")
    runtime = make_report([record])
    workflow = make_report([record], member="workflow")
    other = make_report([record], system="OSPREY")
    keys = {ItemRef.for_record(r, r.records[0]).key for r in (runtime, workflow, other)}
    assert len(keys) == 3


def test_quote_key_survives_markdown_damage_and_collapsed_newlines() -> None:
    original = "def handle(request):\n    return `route`(request.*path*)"
    damaged = "• def handle(request): return route(request.path)"
    assert normalize_quote(original) == normalize_quote(damaged)
    assert quote_hash(original) == quote_hash(damaged)


def test_numbered_bullets_are_markdown_damage() -> None:
    assert normalize_quote("1. first = 1\n2. second = 2") == "first = 1 second = 2"


def test_edited_token_changes_the_hash() -> None:
    assert quote_hash("if retries > 3:") != quote_hash("if retries >= 3:")


def test_identical_quotes_of_one_record_get_distinct_keys() -> None:
    record = make_record("RT-CLM-twice", ["x = 1", "x  =  1", "y = 2"])
    report = make_report([record])
    refs = [ItemRef.for_quote(report, record, quote) for quote in record.quotes]
    assert len({ref.key for ref in refs}) == 3
    assert refs[0].quote == quote_hash("x = 1")
    assert [ref.quote for ref in refs] == record_quote_hashes(record)
    assert quote_items(report, record) == refs  # all of them at once: the same items


def test_quote_key_shape() -> None:
    record = make_record("On RT-CLM-one (2)", ["value = compute()"])
    report = make_report([record])
    ref = ItemRef.for_quote(report, record, record.quotes[0])
    assert ref.key == make_key(ref.report, "On RT-CLM-one (2)", ref.quote)
    assert ref.record_key == ItemRef.for_record(report, record).key
    assert ref.key.startswith(ref.record_key + "#")
    assert ref.quote is not None and len(ref.quote) == 12


# list markers are left out: "1. x" or "- x" at a line start is damage, "1.\nx" or "-\nx" is not
@given(st.text(alphabet=st.characters(blacklist_characters="-+•‣◦0123456789")))
def test_hash_ignores_whitespace_layout(text: str) -> None:
    relaid = "\n  ".join(text.split())
    assert quote_hash(text) == quote_hash(relaid)
