"""A changed passage told about its own quote: a quote of part of a long line (a function of a
minified script) was `changed` with the diff of the whole line from its start, where the first
change shown was far from the quote, and whether the quoted words changed was not said."""

from __future__ import annotations

import json
from pathlib import Path

from evidencekit import git, make_repo

from evidence.anchoring.diff import char_diff
from evidence.drift import DriftStatus, follow_anchors
from evidence.drift_focus import CONTEXT, around_quote
from evidence.drift_model import Drift
from evidence.drift_report import drift_details
from evidence.model import Anchor, FileState, Quote, Tier
from evidence.revision import Revision
from screens.widgets.drift_rows import drift_summary


def function(n: int) -> str:
    return f"function f{n}(a,b){{return a*{n % 7 + 2}+b}}"


#: one line of 300 functions, as a minifier writes them
MINIFIED = ";".join(map(function, range(300))) + "\n"


def drift_of_quote(root: Path, cited: str, path: str, text: str) -> Drift:
    quote = Quote(text, path, (1, 1), 1, 1, "R", 0, inline=True)
    anchor = Anchor(quote, FileState.OK, Tier.EXACT, 100.0, (1, 1))
    with Revision.open(root, cited) as old, Revision.open(root, "HEAD") as now:
        (drift,) = follow_anchors([anchor], old, now)
    assert drift is not None
    return drift


def test_a_quote_of_part_of_a_long_line_is_shown_its_own_change(tmp_path: Path) -> None:
    root = tmp_path / "r"
    cited = make_repo(root, {"app.min.js": MINIFIED})
    edited = MINIFIED.replace("function f3(a,b)", "function g3(a,b)")  # far before the quote
    edited = edited.replace("function f200(a,b)", "function f200(a,b,c)")
    (root / "app.min.js").write_text(edited)
    git(root, "commit", "-qam", "f200 takes c")
    drift = drift_of_quote(root, cited, "app.min.js", function(200))
    assert drift.status is DriftStatus.CHANGED and not drift.quoted_unchanged
    assert drift.diff is not None
    cited_side = "".join(part.quote for part in drift.diff)
    assert cited_side.startswith("…") and cited_side.endswith("…")
    assert function(200) in cited_side
    assert len(cited_side) <= len(function(200)) + 2 * CONTEXT + 2
    changes = [part for part in drift.diff if part.op != "equal"]
    assert [(part.quote, part.source) for part in changes] == [("", ",c")]  # not f3's
    head, diff, *_ = drift_details(drift)
    assert head.endswith(", score 100") and "quoted text" not in head
    assert diff.startswith("    diff:  …") and "(a,b{+,c+})" in diff


def test_a_quote_whose_line_changed_elsewhere_is_said_unchanged(tmp_path: Path) -> None:
    root = tmp_path / "r"
    cited = make_repo(root, {"app.min.js": MINIFIED, "short.py": "check(token); log(user)\n"})
    (root / "app.min.js").write_text(MINIFIED.replace("function f3(a,b)", "function g3(a,b)"))
    (root / "short.py").write_text("check(token); audit(user)\n")
    git(root, "commit", "-qam", "renamed f3; audit")
    drift = drift_of_quote(root, cited, "app.min.js", function(200))
    assert drift.status is DriftStatus.CHANGED and drift.quoted_unchanged
    assert drift.diff is not None and all(part.op == "equal" for part in drift.diff)
    assert drift_details(drift)[0].endswith(", score 100, the quoted text unchanged")
    assert "the quoted text unchanged" in drift_summary(drift, "abc1234")
    assert json.loads(json.dumps(drift.as_json()))["quoted_unchanged"] is True
    # a short line: its whole diff is shown (all of it within reach of the quote)
    short = drift_of_quote(root, cited, "short.py", "check(token)")
    assert short.quoted_unchanged and short.diff is not None
    assert "".join(part.quote for part in short.diff) == "check(token); log(user)"
    assert [part.op for part in short.diff if part.op != "equal"] == ["replace"]


def test_a_quote_not_in_the_passage_as_written_or_there_twice_keeps_the_whole_diff() -> None:
    before, after = "a = f(x) ; b = f(x) ; c = 1", "a = f(x) ; b = f(x) ; c = 2"
    diff = char_diff(before.split(), after.split())
    changed = Drift(DriftStatus.CHANGED, "p.py", (1, 1), score=90.0, diff=diff)
    assert around_quote(changed, "f(x)") == changed  # twice: which one is not known
    assert around_quote(changed, "g(y)") == changed  # not as written (a fuzzy quote)
    assert around_quote(changed, "c  =\n 1") == Drift(
        DriftStatus.CHANGED, "p.py", (1, 1), score=90.0, diff=diff, quoted_unchanged=False
    )
    same = Drift(DriftStatus.UNCHANGED, "p.py", (1, 1), score=100.0)
    assert around_quote(same, "a = f(x)") is same and around_quote(None, "x") is None


def test_the_cited_side_of_a_diff_is_the_passage_word_for_word() -> None:
    # what around_quote finds the quote in
    for before, after in [
        ("if  x:\n    return   f(a, b)", "if x:\n    return g(a, b, c)"),
        ("alpha beta gamma", "alpha gamma"),
        ("x", "completely different words here"),
    ]:
        parts = char_diff(before.split(), after.split())
        assert "".join(part.quote for part in parts).split() == before.split()
        assert "".join(part.source for part in parts).split() == after.split()
