"""A regenerated report keeps its verdicts; the old verdict of an edited quote shows as stale."""

from __future__ import annotations

from storekit import make_record, make_report, reportset

from db.export import render
from db.keys import ItemRef, Verdict
from db.store import VerdictStore
from evidence.model import Kind, Record, Report

API_QUOTES = ["app = create_app()", "app.run(port=8080)"]


def original() -> Report:
    return make_report(
        [
            make_record("RT-CMP-api", API_QUOTES, kind=Kind.COMPONENT),
            make_record("RT-CLM-retries", ["if retries > 3:\n    raise GiveUp()"]),
            make_record("RT-RTE-upload", ["@route('/upload')"], kind=Kind.ROUTE),
        ],
        file="002_runtime.txt",
    )


def regenerated() -> Report:
    """Renamed, records reordered, one quote edited, another one damaged by Markdown."""
    return make_report(
        [
            make_record("RT-RTE-upload", ["`@route('/upload')`"], kind=Kind.ROUTE),
            make_record("RT-CLM-retries", ["if retries >= 3: raise GiveUp()"]),
            make_record("RT-CMP-api", API_QUOTES, kind=Kind.COMPONENT),
        ],
        file="reports/kestrel-runtime-v2.txt",
    )


def review(store: VerdictStore, report: Report) -> dict[str, Verdict]:
    given = {}
    for number, record in enumerate(report.records):
        verdict = list(Verdict)[number % 3]
        ref = ItemRef.for_record(report, record)
        store.give(ref, verdict, reviewer="ann")
        given[ref.key] = verdict
        for quote in record.quotes:
            qref = ItemRef.for_quote(report, record, quote)
            store.give(qref, Verdict.CONFIRMED, note=f"checked {quote.path}", reviewer="ann")
            given[qref.key] = Verdict.CONFIRMED
    return given


def keys(report: Report) -> set[str]:
    found = set()
    for record in report.records:
        found.add(ItemRef.for_record(report, record).key)
        found |= {ItemRef.for_quote(report, record, q).key for q in record.quotes}
    return found


def quote_ref(report: Report, record: Record, index: int = 0) -> ItemRef:
    return ItemRef.for_quote(report, record, record.quotes[index])


def test_regenerated_report_keeps_verdicts_and_flags_the_edited_quote(store: VerdictStore) -> None:
    old, new = original(), regenerated()
    given = review(store, old)
    current = store.current("ann")
    edited_old = quote_ref(old, old.records[1]).key
    edited_new = quote_ref(new, new.records[1]).key
    assert edited_old != edited_new
    # every item of the new report except the edited quote finds its verdict
    assert keys(new) - {edited_new} == keys(old) - {edited_old}
    for key in keys(new) - {edited_new}:
        assert current[key].verdict is given[key]
    assert edited_new not in current
    # the old verdict is not dropped: it is listed as stale, with its note
    stale = store.stale(reportset(new))
    assert [(s.event.item, s.reason) for s in stale] == [(edited_old, "quote changed")]
    assert stale[0].event.note == "checked src/app.py"
    assert store.stale(reportset(old)) == []


def test_removed_record_is_stale_and_other_reports_are_not_judged(store: VerdictStore) -> None:
    old = original()
    review(store, old)
    trimmed = make_report(list(old.records[:2]))
    reasons = {s.event.record: s.reason for s in store.stale(reportset(trimmed))}
    assert reasons == {"RT-RTE-upload": "record missing"}
    unrelated = make_report(list(old.records[:1]), system="OSPREY")
    assert store.stale(reportset(unrelated)) == []


def test_md_export_lists_the_stale_verdict(store: VerdictStore) -> None:
    old, new = original(), regenerated()
    store.register(reportset(old))
    review(store, old)
    store.register(reportset(new))
    summary = render(store, "md")
    stale_part = summary.split("## Stale verdicts", 1)[1]
    assert "RT-CLM-retries" in stale_part
    assert "RT-CLM-retries, quote 1 (src/app.py):" in stale_part  # what it was, not a hash
    assert "checked src/app.py" in stale_part
    assert "RT-CMP-api" not in stale_part


def test_what_each_stale_item_was_read_by_key_as_the_write_up_says_it(
    store: VerdictStore,
) -> None:
    """`what_was` finds a record's first quote through the (report, ord) index, not by reading
    every item of the report: it says what the write-up, reading them all, says."""
    from db.gone import first_quotes, what_it_was

    report = original()
    store.register(reportset(report))
    store.register(reportset(regenerated()))  # the old items stay, not present
    items = store.items()
    keys = [item["item"] for item in items]
    firsts = first_quotes(items, {(i["report"], i["record"]) for i in items})
    expected = {item["item"]: what_it_was(item, firsts) for item in items}
    # unknown keys (a teammate's imported verdicts) are left out, over several statements
    unknown = [f"{report.identity}::never-{n}" for n in range(1200)]
    found = store.what_was(unknown[:700] + keys + unknown[700:])
    assert {key: was.what for key, was in found.items()} == expected
    assert {was.quote_index for was in found.values()} == {None, 0, 1}
    api = ItemRef.for_record(report, report.records[0]).key
    assert found[api].what == "the record (label of RT-CMP-api, src/app.py)"  # its first quote


def test_stats_counts_each_reviewers_stale_verdicts(store: VerdictStore) -> None:
    """`assay stats` said nothing of them: a reviewer's verdicts on what the reports registered
    last no longer hold are counted per reviewer (the edited quote, the dropped record)."""
    from click.testing import CliRunner

    from db.stats import summary
    from tui.cli import cli

    old = original()
    store.register(reportset(old))
    review(store, old)
    store.give(quote_ref(old, old.records[1]), Verdict.REFUTED, note="no", reviewer="bo")
    trimmed = make_report([*regenerated().records[:2]], file="002_runtime.txt")
    store.register(reportset(trimmed))  # RT-CMP-api dropped, RT-CLM-retries' quote edited
    # ann: RT-CMP-api and its two quotes, the edited quote; bo: the edited quote
    assert summary(store)["stale"] == {"ann": 4, "bo": 1}
    shown = CliRunner().invoke(cli, ["stats", "--db", str(store.path)])
    assert "Stale verdicts and notes" in shown.output, shown.output
