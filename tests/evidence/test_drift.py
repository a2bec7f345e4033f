"""Drift (evidence/drift.py, `assay check --against`): the sample's drift key, every status on
small real repositories, the JSON and text of the command, a bad REV."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from evidencekit import git, make_repo

from evidence.check import run_check
from evidence.drift import DriftStatus, follow_anchors
from evidence.drift_report import drift_details
from evidence.model import Anchor, FileState, Quote, Tier
from evidence.reports.loading import load_reports
from evidence.revision import Revision
from evidence.sample import ANSWER_KEY, CITED_REVISION, SAMPLE_REPORTS, TIP_REVISION, sample_repo
from tui.cli import cli


@pytest.fixture(scope="module")
def kestrel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return sample_repo(tmp_path_factory.mktemp("kestrel"))


def drift_key() -> list[dict[str, str]]:
    """The rows of the drift key in sample_data/README.md."""
    text = ANSWER_KEY.read_text(encoding="utf-8")
    table = text.split("<!-- drift-key:start -->")[1].split("<!-- drift-key:end -->")[0]
    rows = [line.strip() for line in table.strip().splitlines()]
    header = [cell.strip() for cell in rows[0].strip("|").split("|")]
    return [
        dict(zip(header, (c.strip() for c in row.strip("|").split("|")), strict=True))
        for row in rows[2:]
    ]


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["check", *args], catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_every_sample_quote_drifts_as_the_key_says(kestrel: Path) -> None:
    key = {(row["report"], int(row["marker line"])): row for row in drift_key()}
    assert len(key) == 34
    with Revision.open(kestrel, CITED_REVISION) as cited, Revision.open(kestrel, "main") as tip:
        result = run_check(load_reports([SAMPLE_REPORTS]), cited, against=tip)
    assert result.against == TIP_REVISION
    seen = set()
    for quote, drift in zip(result.quotes, result.drifts, strict=True):
        assert drift is not None
        row = key[(Path(quote.report.file).name, quote.quote.report_line)]
        seen.add((Path(quote.report.file).name, quote.quote.report_line))
        lines = "-" if drift.lines is None else f"{drift.lines[0]}-{drift.lines[1]}"
        got = (drift.status.value, drift.path or "-", lines, drift.renamed_from or "-")
        want = (row["status"], row["path at tip"], row["lines at tip"], row["renamed from"])
        assert got == want, row
        commits = "; ".join(commit.id[:7] for commit in drift.commits) or "-"
        assert commits == row["commits"], row
    assert seen == set(key)
    statuses = {row["status"] for row in key.values()}
    assert statuses >= {"unchanged", "moved", "changed", "file_deleted", "not_anchored"}
    assert any(row["renamed from"] != "-" for row in key.values())
    assert max(len(row["commits"].split("; ")) for row in key.values()) == 3


def test_check_against_json_and_exit_code(kestrel: Path) -> None:
    code, out, err = run(
        str(SAMPLE_REPORTS), "--repo", str(kestrel), "--against", "main", "--format", "json"
    )
    assert code == 1, err
    data = json.loads(out)
    assert data["against"] == TIP_REVISION and data["revision"] == CITED_REVISION
    assert data["relation"] == "descendant"
    fields = {
        "status",
        "path",
        "lines",
        "renamed_from",
        "score",
        "diff",
        "commits",
        "elsewhere",
        "near",
        "whitespace",
        "quoted_unchanged",
        "unreadable",
        "found",
    }
    assert all(set(quote["drift"]) == fields for quote in data["quotes"])
    # the quotes not anchored at the cited revision, looked for at REV (anchored quotes: null)
    found = {
        (q["record"], q["index"]): q["drift"]["found"]
        for q in data["quotes"]
        if q["drift"]["status"] == "not_anchored"
    }
    assert found == {
        ("KS-OBJ-station-db", 1): {
            "path": "api/kestrel/notes.py",
            "lines": [48, 49],
            "match": "whitespace",
        },
        ("KS-RTE-token-check", 0): {
            "path": "api/kestrel/permissions.py",
            "lines": [3, 3],
            "match": "exact",
        },
        ("workflow:what-counts-as-delivered", 2): None,
    }
    assert all(q["drift"]["found"] is None for q in data["quotes"] if (q["record"], q["index"])
               not in found)  # fmt: skip
    counts = data["summary"]["drift"]
    assert sum(counts.values()) == 34 and counts["file_deleted"] == 1
    changed = [q["drift"] for q in data["quotes"] if q["drift"]["status"] == "changed"]
    edited = next(d for d in changed if d["path"] == "api/kestrel/tickets.py")
    assert edited["lines"] == [14, 14] and 80 <= edited["score"] < 100
    assert [p for p in edited["diff"] if p["op"] != "equal"] == [
        {"op": "replace", "quote": "15", "source": "20"}
    ]
    commit = edited["commits"][0]
    assert commit == {
        "id": "9a949973db553e68062eb1762f07d89f52d759e5",
        "subject": "Move scopes to permissions, log requests, raise escalation delay",
        "author": "Mira Okafor",
        "date": "2026-03-16T11:15:00+00:00",
    }
    # without --against the document is as before
    code, out, _ = run(str(SAMPLE_REPORTS), "--repo", str(kestrel), "--format", "json")
    assert "against" not in json.loads(out) and "drift" not in json.loads(out)["quotes"][0]
    assert "relation" not in json.loads(out)


def test_check_against_text_lists_changed_first_and_ends_with_counts(kestrel: Path) -> None:
    code, out, _ = run(str(SAMPLE_REPORTS), "--repo", str(kestrel), "--against", "main")
    assert code == 1
    lines = out.splitlines()
    counts = next(line for line in lines if line.startswith("drift: "))
    assert counts.startswith("drift: 17 unchanged, 8 moved, 5 changed, 0 deleted, 1 file")
    # then the cited files, whose counts end the output with the drift's verdict
    assert lines[-1] == "cited files: 13 unchanged, 7 edited, 1 file deleted; FAIL"
    part = out[out.index(f"drift to {TIP_REVISION}") :]
    assert part.index("changed or deleted") < part.index("moved or renamed")
    assert "file deleted" in part and "744d82782d" in part
    assert "renamed from web/src/lib/format.ts" in part
    at = part.index("3 not found at the cited revision, 2 found at 8df75acb2bc5:")
    unanchored = part[at:].splitlines()
    assert unanchored[4] == "    found: api/kestrel/permissions.py:3 (exact)"
    assert unanchored[6] == "    not found there either"


def test_bad_against_is_a_message_not_a_traceback(kestrel: Path) -> None:
    code, out, err = run(str(SAMPLE_REPORTS), "--repo", str(kestrel), "--against", "no-such-rev")
    assert code == 2 and "no-such-rev" in err and "Traceback" not in err + out


def test_identical_revisions_drift_nothing(kestrel: Path) -> None:
    code, out, _ = run(str(SAMPLE_REPORTS), "--repo", str(kestrel), "--against", CITED_REVISION)
    assert code == 1  # the cited revision's own failures, no drift
    lines = out.splitlines()
    assert next(line for line in lines if line.startswith("drift: ")).startswith(
        "drift: 31 unchanged, 0 moved, 0 changed"
    )
    assert lines[-1] == "cited files: 21 unchanged; OK"


def test_the_check_and_the_drift_each_say_their_own_verdict(tmp_path: Path) -> None:
    # every quote verified at the cited revision, one passage changed since: the check's line
    # said FAIL beside "0 missing" (the drift's failure); each line now gives its own
    root = tmp_path / "r"
    cited = make_repo(root, {"gate.py": "def gate(token):\n    return token == SECRET\n"})
    (root / "gate.py").write_text("def gate(token):\n    return compare(token, SECRET)\n")
    git(root, "commit", "-qam", "constant time")
    report = tmp_path / "gate-runtime-report.md"
    report.write_text(
        "Gate runtime report\n\nType: agentic-system-analyses/types/runtime-report.md\n\n"
        f"Evidence is SRC-1 at revision {cited}.\n\nShared records\n\nComponents\n\n"
        "GT-CMP-gate\n\nLabel: the gate\n\n    return token == SECRET\n\n--- gate.py:2\n"
    )
    code, out, _ = run(str(report), "--repo", str(root), "--rev", cited)
    assert code == 0 and out.splitlines()[-1].endswith(
        "0 missing; 0 wrong range(s), 0 quoted file(s) missing; 0 of 0 cited path(s) missing; OK"
    )
    code, out, _ = run(str(report), "--repo", str(root), "--rev", cited, "--against", "main")
    lines = out.splitlines()
    check_line = next(line for line in lines if line.startswith("1 quotes: 1 exact"))
    assert code == 1  # the drift fails the command
    assert check_line.endswith("; OK")  # every quote verified
    assert lines[-1].startswith("drift: 0 unchanged, 0 moved, 1 changed")
    assert lines[-1].endswith("; FAIL")
    code, out, _ = run(str(report), "--repo", str(root), "--rev", cited, "--against", cited)
    assert code == 0 and out.splitlines()[-1].endswith("; OK")


def _anchor(path: str, lines: tuple[int, int]) -> Anchor:
    quote = Quote("", path, None, 1, 1, "R", 0)
    return Anchor(quote, FileState.OK, Tier.EXACT, 100.0, lines)


def test_each_status_on_a_small_repository(tmp_path: Path) -> None:
    root = tmp_path / "r"
    body = [f"def step_{n}(value):\n    return value * {n} + {n * 3}\n" for n in range(1, 9)]
    cited = make_repo(root, {"calc.py": "".join(body), "gone.py": "x = 1\n"})
    lines = "".join(body).splitlines()
    # step_2 deleted, step_5 edited, step_7 moved to the top, a header inserted
    moved = lines[12:14]
    edited = [lines[8], "    return value * 5 + 16"]
    rest = lines[:2] + lines[4:8] + edited + lines[10:12] + lines[14:]
    new = ["# header", "", *moved, *rest]
    (root / "calc.py").write_text("\n".join(new) + "\n")
    git(root, "rm", "-q", "gone.py")
    git(root, "commit", "-qam", "edit")
    tip = git(root, "rev-parse", "HEAD")
    anchors = [
        _anchor("calc.py", (1, 2)),  # step_1: shifted by the header
        _anchor("calc.py", (3, 4)),  # step_2: deleted
        _anchor("calc.py", (9, 10)),  # step_5: edited
        _anchor("calc.py", (13, 14)),  # step_7: moved to the top
        _anchor("gone.py", (1, 1)),
        _anchor("calc.py", (15, 16)),  # step_8: back at the same lines
        Anchor(Quote("", "nope.py", None, 1, 1, "R", 0), FileState.MISSING, Tier.MISSING, 0, None),
    ]
    with Revision.open(root, cited) as old, Revision.open(root, tip) as now:
        drifts = follow_anchors(anchors, old, now)
    statuses = [d.status if d else None for d in drifts]
    assert statuses == [
        DriftStatus.MOVED,
        DriftStatus.DELETED,
        DriftStatus.CHANGED,
        DriftStatus.MOVED,
        DriftStatus.FILE_DELETED,
        DriftStatus.UNCHANGED,  # as many lines removed above it as added
        DriftStatus.NOT_ANCHORED,
    ]
    assert [d.lines if d else None for d in drifts[:4]] == [(5, 6), None, (11, 12), (3, 4)]
    # step_2's place: the lines it stood between (step_1's last, step_3's first), now 6 and 7
    assert [d.near if d else None for d in drifts] == [None, (6, 7), None, None, None, None, None]
    assert drifts[2] is not None and drifts[2].diff is not None
    assert [(p.quote, p.source) for p in drifts[2].diff if p.op != "equal"] == [("5", "6")]
    assert all(d is not None and [c.id for c in d.commits] == [tip] for d in drifts[1:5])
    assert drifts[0] is not None and drifts[0].commits == ()


def test_a_passage_rewritten_in_place_is_deleted_with_its_place_shown(tmp_path: Path) -> None:
    # what a reviewer asks of a deleted passage: what stands where it stood now
    root = tmp_path / "r"
    head = [f"# line {n}" for n in range(1, 11)]
    passage = [
        "    before = 0",
        "    if entry.size <= LIMIT:",
        "        before = read(entry)",
        "    total = before",
    ]
    cited = make_repo(root, {"sync.py": "\n".join([*head, *passage, "# end"]) + "\n"})
    rewritten = [
        "    parts_known = {path: blob for path, blob in held.items() if path in wanted}",
        "        # what the remote holds, as written here",
        "    )",
        "    total = before",
    ]
    (root / "sync.py").write_text("\n".join(["# new", *head, *rewritten, "# end"]) + "\n")
    git(root, "commit", "-qam", "rewrite")
    tip = git(root, "rev-parse", "HEAD")
    with Revision.open(root, cited) as old, Revision.open(root, tip) as now:
        (drift,) = follow_anchors([_anchor("sync.py", (11, 14))], old, now)
    assert drift is not None and drift.status is DriftStatus.DELETED
    assert drift.lines is None and drift.near == (12, 15)
    assert drift.as_json()["near"] == [12, 15] and [c.id for c in drift.commits] == [tip]
    assert drift_details(drift)[0] == "    deleted: sync.py: passage gone (its place: 12-15)"


def test_lines_left_only_of_what_the_file_held_elsewhere_are_no_counterpart(
    tmp_path: Path,
) -> None:
    # the passage's own meaningful lines deleted, the two generic lines above them kept: they
    # are what every branch of the function ends with, not the passage
    root = tmp_path / "r"
    branch = ["        ):", "            return ranked"]
    step = [
        "",
        "        # 7. scattered: the characters occur in order but not together",
        "        ranked += self._rank_scattered(needle, pool, taken, limit - len(ranked))",
    ]
    body = ["    def rank(self):", "        if emit(a,", *branch, "        if emit(b,", *branch]
    cited = make_repo(
        root, {"finder.py": "\n".join([*body, *step, "        return ranked"]) + "\n"}
    )
    (root / "finder.py").write_text("\n".join([*body, "        return ranked"]) + "\n")
    git(root, "commit", "-qam", "drop the scattered step")
    tip = git(root, "rev-parse", "HEAD")
    with Revision.open(root, cited) as old, Revision.open(root, tip) as now:
        (drift,) = follow_anchors([_anchor("finder.py", (6, 9))], old, now)
    assert drift is not None and drift.status is DriftStatus.DELETED
    assert drift.near == (6, 7)


def test_file_names_git_would_quote_are_followed_through_edits_and_renames(
    tmp_path: Path,
) -> None:
    # a newline, a tab, a quote or a non-ASCII letter in a name: git quotes such names in all
    # but its -z output, and the history's pairs and patches must still name the file
    root = tmp_path / "r"
    names = ["we\nird.py", 'ta\tb "q".py', "naïve.py"]
    # each its own text: identical files renamed together could be paired either way
    bodies = [f"def f():\n    return 1\n\ndef g_{n}():\n    return {n}\n" for n in range(3)]
    cited = make_repo(root, dict(zip(names, bodies, strict=True)))
    for name, body in zip(names, bodies, strict=True):
        (root / name).write_text(body.replace("return 1\n", "return 10\n", 1), encoding="utf-8")
    git(root, "commit", "-qam", "edit f")
    edited = git(root, "rev-parse", "HEAD")
    for n, name in enumerate(names):
        git(root, "mv", name, f"moved\n{n}.py")
    git(root, "commit", "-qm", "move")
    tip = git(root, "rev-parse", "HEAD")
    anchors = [_anchor(name, lines) for name in names for lines in ((1, 2), (4, 5))]
    with Revision.open(root, cited) as old, Revision.open(root, tip) as now:
        drifts = follow_anchors(anchors, old, now)
    assert [(d.status, d.path, d.lines) if d else None for d in drifts] == [
        (status, f"moved\n{n}.py", lines)
        for n in range(len(names))
        for status, lines in ((DriftStatus.CHANGED, (1, 2)), (DriftStatus.UNCHANGED, (4, 5)))
    ]
    assert all(d is not None and d.renamed_from == names[n // 2] for n, d in enumerate(drifts))
    changed = [d for d in drifts if d is not None and d.status is DriftStatus.CHANGED]
    assert all([c.id for c in d.commits] == [edited] for d in changed)


_RENDER = (
    "def render_line(self, y):\n"
    "    line = int(self.scroll_y) + y\n"
    "    if line >= len(self._line_rows):\n"
    "        return Strip.blank(width, self.rich_style)\n"
    "    index = self._line_rows[line]\n"
    "    return self._draw(index)\n"
)


def _rows_file(root: Path) -> tuple[str, str, int]:
    """A file holding `_RENDER` among functions unlike it: the commit, its text and the line
    of the quoted passage (render_line's first four lines of body)."""
    head = "".join(f"def helper_{n}(value):\n    return value + {n}\n" for n in range(6))
    tail = "".join(f"def other_{n}(value):\n    return value * {n}\n" for n in range(6))
    text = head + _RENDER + tail
    return make_repo(root, {"rows.py": text}), text, 14


def test_a_passage_rewritten_in_place_is_not_a_sibling_like_it_added_by_another_commit(
    tmp_path: Path,
) -> None:
    # the quoted lines rewritten where they stand (70 alike), then another commit adds a
    # function more like the old text (84): drift named the newcomer and its commit
    root = tmp_path / "r"
    cited, text, first = _rows_file(root)
    rewritten = _RENDER.replace(
        "    line = int(self.scroll_y) + y\n    if line >= len(self._line_rows):\n"
        "        return Strip.blank(width, self.rich_style)\n",
        "    line = self._top + y\n    strip = None\n    if line < len(self._line_rows):\n",
    ).replace("    index = self._line_rows[line]\n", "        index = self._line_rows[line]\n")
    text = text.replace(_RENDER, rewritten)
    (root / "rows.py").write_text(text)
    git(root, "commit", "-qam", "rewrite in place")
    in_place = git(root, "rev-parse", "HEAD")
    sibling = (
        "def line_at(self, y):\n    line = int(self.scroll_y) + y\n"
        "    if not self._width or line >= len(self._line_rows):\n"
        "        return Strip.blank(width)\n    row = self._line_rows[line]\n    return row\n"
    )
    (root / "rows.py").write_text(text + sibling)
    git(root, "commit", "-qam", "a sibling")
    tip = git(root, "rev-parse", "HEAD")
    with Revision.open(root, cited) as old, Revision.open(root, tip) as now:
        (drift,) = follow_anchors([_anchor("rows.py", (first, first + 3))], old, now)
    assert drift is not None and drift.status is DriftStatus.CHANGED
    assert drift.lines == (first, first + 3) and 50 <= drift.score < 80
    assert [c.id for c in drift.commits] == [in_place]


@pytest.mark.parametrize("on_a_branch", [False, True])
def test_a_passage_moved_within_its_file_and_edited_is_where_its_commit_wrote_it(
    tmp_path: Path, on_a_branch: bool
) -> None:
    # one commit takes the passage out into a helper: what stays in its place still resembles
    # it (73), the helper more (85) and was written by the commit that changed its own lines
    root = tmp_path / "r"
    cited, text, first = _rows_file(root)
    calls = (
        "def render_line(self, y):\n    index = self._line_at(y)\n    if index is None:\n"
        "        return Strip.blank(width, self.rich_style)\n    return self._draw(index)\n"
    )
    helper = (
        "def _line_at(self, y):\n    line = int(self.scroll_y) + y\n"
        "    if line >= len(self._line_rows):\n        return None\n"
        "    index = self._line_rows[line]\n    return index\n"
    )
    if on_a_branch:
        git(root, "checkout", "-qb", "side")
    (root / "rows.py").write_text(text.replace(_RENDER, calls) + helper)
    git(root, "commit", "-qam", "a helper")
    moved = git(root, "rev-parse", "HEAD")
    if on_a_branch:  # the move reaches main through a merge, beside a commit of main's own
        git(root, "checkout", "-q", "main")
        (root / "notes.txt").write_text("x\n")
        git(root, "add", "notes.txt")
        git(root, "commit", "-qm", "notes")
        git(root, "merge", "-q", "--no-ff", "-m", "merge side", "side")
    tip = git(root, "rev-parse", "HEAD")
    with Revision.open(root, cited) as old, Revision.open(root, tip) as now:
        (drift,) = follow_anchors([_anchor("rows.py", (first, first + 3))], old, now)
    assert drift is not None and drift.status is DriftStatus.CHANGED
    assert drift.lines == (31, 34) and [c.id for c in drift.commits] == [moved]


def test_a_line_deleted_and_written_again_is_unchanged_naming_both_commits(
    tmp_path: Path,
) -> None:
    """The passage's text is back at its lines, but two commits touched it: git log -L names
    only the one that wrote the line again (the deletion falls at an end of the range it walks
    back), so the commit that deleted it is named too, from the path the lines took forward."""
    root = tmp_path / "r"
    lines = [f"def step_{n}(value):  return value * {n} + {n * 3}" for n in range(1, 9)]
    cited = make_repo(root, {"calc.py": "\n".join(lines) + "\n"})
    (root / "calc.py").write_text("\n".join(lines[:3] + lines[4:]) + "\n")
    git(root, "commit", "-qam", "step_4 deleted")
    deleted = git(root, "rev-parse", "HEAD")
    (root / "calc.py").write_text("\n".join(lines) + "\n")
    git(root, "commit", "-qam", "step_4 back")
    back = git(root, "rev-parse", "HEAD")
    with Revision.open(root, cited) as old, Revision.open(root, back) as now:
        drifts = follow_anchors([_anchor("calc.py", (4, 5)), _anchor("calc.py", (1, 2))], old, now)
    touched, untouched = drifts
    assert touched is not None and untouched is not None
    assert (touched.status, touched.lines) == (DriftStatus.UNCHANGED, (4, 5))
    assert [c.id for c in touched.commits] == [back, deleted]
    assert untouched.status is DriftStatus.UNCHANGED and untouched.commits == ()
