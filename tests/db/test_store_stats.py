"""Progress, verdict counts, disagreements and agreement (percent and Cohen's kappa)."""

from __future__ import annotations

import pytest
from storekit import make_record, make_report, reportset

from db.keys import ItemRef
from db.stats import agreement, cohen_kappa, percent_done, summary
from db.store import VerdictStore
from evidence.model import Kind


def test_cohen_kappa_textbook_example() -> None:
    # 50 items: both yes 20, yes/no 5, no/yes 10, both no 15 -> po 0.7, pe 0.5, kappa 0.4
    pairs = [("y", "y")] * 20 + [("y", "n")] * 5 + [("n", "y")] * 10 + [("n", "n")] * 15
    assert cohen_kappa(pairs) == pytest.approx(0.4)


def test_cohen_kappa_edges() -> None:
    assert cohen_kappa([]) is None
    assert cohen_kappa([("a", "a")] * 4) is None  # chance agreement is 1: undefined
    assert cohen_kappa([("a", "a"), ("b", "b")]) == pytest.approx(1.0)
    assert cohen_kappa([("a", "b"), ("b", "a")]) == pytest.approx(-1.0)


def review(store: VerdictStore, reviewer: str, verdicts: str) -> None:
    codes = {"c": "confirmed", "r": "refuted", "u": "unclear", "s": "skip"}
    for number, code in enumerate(verdicts):
        if code != ".":
            item = ItemRef("KESTREL/agentic-system-runtime-report", f"R{number}")
            store.give(item, codes[code], reviewer=reviewer)


def test_agreement_per_pair_leaves_skip_out(store: VerdictStore) -> None:
    review(store, "ann", "ccrru.s")
    review(store, "bob", "crrru.c")
    review(store, "cy", ".......")
    pairs = agreement(store.current_all())
    assert len(pairs) == 1  # cy gave nothing
    (pair,) = pairs
    assert (pair.first, pair.second, pair.items, pair.agreed) == ("ann", "bob", 5, 4)
    assert pair.percent == pytest.approx(80.0)
    # ann c c r r u, bob c r r r u: po 0.8, pe (2*1 + 2*3 + 1*1)/25 = 0.36
    assert pair.kappa == pytest.approx((0.8 - 0.36) / (1 - 0.36))


def test_summary(store: VerdictStore) -> None:
    report = make_report(
        [
            make_record("R0", ["a = 1", "b = 2"]),
            make_record("R1", kind=Kind.ROUTE),
            make_record("R2", kind=Kind.ROUTE),
        ]
    )
    store.register(reportset(report))
    review(store, "ann", "cr")
    review(store, "bob", "rr")
    quote = report.records[0].quotes[0]
    store.give(ItemRef.for_quote(report, report.records[0], quote), "unclear", reviewer="bob")
    store.give(ItemRef("OSPREY/agentic-system-workflow-report", "W1"), "skip", reviewer="bob")
    data = summary(store)
    assert data["events"] == 6
    assert data["reviewers"] == ["ann", "bob"]
    assert data["verdicts"]["bob"] == {"confirmed": 0, "refuted": 2, "unclear": 1, "skip": 1}
    progress = {(p["report"], p["kind"]): (p["reviewed"], p["total"]) for p in data["progress"]}
    identity = report.identity
    assert progress == {
        (identity, "claim"): (1, 1),
        (identity, "quote"): (1, 2),
        (identity, "route"): (1, 2),
        ("OSPREY/agentic-system-workflow-report", "record"): (1, None),
    }
    assert [d["item"] for d in data["disagreements"]] == [f"{identity}#R0"]
    (pair,) = data["agreement"]
    assert (pair["items"], pair["agreed"], pair["percent"]) == (2, 1, 50.0)
    # 5 items registered: 3 records, 2 quotes
    per_reviewer = {
        (p["reviewer"], p["report"]): (p["reviewed"], p["total"]) for p in data["reviewer_progress"]
    }
    assert per_reviewer == {
        ("ann", identity): (2, 5),
        ("bob", identity): (3, 5),
        ("bob", "OSPREY/agentic-system-workflow-report"): (1, None),
    }


@pytest.mark.parametrize(
    ("done", "total", "shown"),
    [(0, 5, "0%"), (1, 1097, "<1%"), (11, 1097, "1%"), (1096, 1097, "99%"), (5, 5, "100%")],
)
def test_progress_never_reads_done_before_it_is_nor_nothing_after_a_verdict(
    done: int, total: int, shown: str
) -> None:
    # `assay stats` rounded: one item of 1,097 left read "100%", and the audit's floor read
    # one reviewed as "0%"
    assert percent_done(done, total) == shown
