"""Drift's fit of a changed passage's counterpart (evidence.drift_windows.fitted): the runs it
leaves unscored change nothing, it picks what scoring every widening picks, ties included."""

from __future__ import annotations

import random

from rapidfuzz import fuzz
from rapidfuzz.distance import LCSseq

from evidence.drift_windows import FIT_REACH, _Runs, fitted, most_alike_run
from evidence.model import LineRange

WORDS = ["a", "b", "ab", "ba", "x = 1", "return", "(", ")", "<g>", "</g>"]


def _plain(passage: list[str], lines: list[str], span: LineRange) -> LineRange:
    """Every widening scored in full, nearest of equals: the measure `fitted` must agree with."""
    text = " ".join(" ".join(passage).split())
    first, last = span

    def alike(a: int, b: int) -> float:
        return float(fuzz.ratio(text, " ".join(" ".join(lines[a - 1 : b]).split())))

    best = (alike(first, last), 0, span)
    for a in range(max(1, first - FIT_REACH), first + 1):
        for b in range(last, min(len(lines), last + FIT_REACH) + 1):
            key = (alike(a, b), -(first - a + b - last), (a, b))
            if key[:2] > best[:2]:
                best = key
    return best[2]


def _line(rng: random.Random, long: bool) -> str:
    if rng.random() < 0.2:
        return rng.choice(["", "   ", "\t"])  # blank: a widening over it reads the same
    size = rng.randint(20, 60) if long else rng.randint(1, 5)
    return "  " * rng.randint(0, 2) + " ".join(rng.choice(WORDS) for _ in range(size))


def _case(rng: random.Random) -> tuple[list[str], list[str], LineRange]:
    long = rng.random() < 0.3
    passage = [_line(rng, long) for _ in range(rng.randint(1, 6))]
    counterpart = [line for line in passage if rng.random() < 0.8]
    counterpart = [_line(rng, long) if rng.random() < 0.3 else line for line in counterpart]
    counterpart = counterpart or [_line(rng, long)]
    before = [_line(rng, long) for _ in range(rng.randint(0, 5))]
    after = [_line(rng, long) for _ in range(rng.randint(0, 5))]
    if rng.random() < 0.3:  # the passage's own lines beside it: equal scores, other distances
        before += rng.sample(passage, 1)
        after = rng.sample(passage, 1) + after
    lines = before + counterpart + after
    return passage, lines, (len(before) + 1, len(before) + len(counterpart))


def test_fitted_picks_the_span_plain_scoring_picks() -> None:
    rng = random.Random(7)
    cases = [_case(rng) for _ in range(1500)]
    assert [fitted(*case) for case in cases] == [_plain(*case) for case in cases]


def test_fitted_takes_the_nearest_and_then_the_earlier_of_equal_widenings() -> None:
    passage = ["x = 1 return"]
    # one line more either side scores the same: the line before wins, as scoring each does
    lines = ["x", "x = 1", "return", "1"]
    assert fitted(passage, lines, (2, 3)) == _plain(passage, lines, (2, 3))
    # blank lines about it read the same as none: the span itself stays
    lines = ["", "  ", "x = 1", "return", "", "\t"]
    assert fitted(passage, lines, (3, 4)) == (3, 4) == _plain(passage, lines, (3, 4))


def test_a_run_said_0_is_below_the_cutoff_and_any_other_is_its_ratio() -> None:
    rng = random.Random(11)
    for _ in range(300):
        passage, lines, (first, last) = _case(rng)
        text = " ".join(" ".join(passage).split())
        runs = _Runs(text, lines, (first, last))
        cutoff = runs.alike(first, last, 0.0)
        spans = [
            (a, b)
            for a in range(max(1, first - FIT_REACH), first + 1)
            for b in range(last, min(len(lines), last + FIT_REACH) + 1)
        ]
        rng.shuffle(spans)  # in any order, not only fitted's: each bound holds on its own
        for a, b in spans:
            run = " ".join(" ".join(lines[a - 1 : b]).split())
            exact = float(fuzz.ratio(text, run))
            said = runs.alike(a, b, cutoff)
            assert said == exact or (said == 0.0 and exact < cutoff)
            cutoff = max(cutoff, said)
            # what it keeps as the most a run has in common with the passage is no less
            assert LCSseq.similarity(text, run) <= runs._common.get((a, b), (0, len(run)))[1]


def test_the_nearest_of_equal_runs_is_chosen() -> None:
    # rapidfuzz, given the best score so far as its cutoff, says 0 for some exact ties (its
    # similarity against cutoff / 100 in floats): the nearer of two equal runs was lost
    passage, like = "gamma self self count", "self beta value self delta value"
    assert fuzz.ratio(passage, like, score_cutoff=fuzz.ratio(passage, like)) == 0  # the trap
    lines = [like, "zzzz", like, "zzzz zzzz zzzz zzzz"]
    assert most_alike_run([passage], lines, (3, 3), [])[0] == (3, 3)
