"""`assay check --against` follows the files records cite, as it follows quotes: a file cited
with its lines as the passage of those lines, a file cited whole through its renames. It
followed only quotes, so a claim resting on `(SRC-1, src/a.py)` or on `src/a.py:3-4` in its prose
was said to hold however the newer revision had deleted, moved or rewritten what it named."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from evidencekit import git, make_repo
from test_reports_markdown import HEAD

from evidence.citations import CitedPath, CitedState
from evidence.drift_files import follow_cited
from evidence.revision import Revision
from tui.cli import cli

STEPS = "".join(f"def step_{n}(value):\n    return value * {n} + {n * 3}\n" for n in range(1, 7))


def _cited(path: str, lines: tuple[int, int] | None = None) -> CitedPath:
    return CitedPath("r.md", "R", "SRC-1", path, 1, CitedState.PRESENT, lines=lines)


def _commit(root: Path, message: str) -> str:
    git(root, "add", "-A")
    git(root, "commit", "-qm", message)
    return git(root, "rev-parse", "HEAD")


def test_each_cited_file_and_its_lines_on_a_linear_history(tmp_path: Path) -> None:
    root = tmp_path / "r"
    files = {"keep.py": "A = 1\n", "ren.py": "B = 2\n", "edit.py": "C = 3\n", "gone.py": "D\n"}
    cited = make_repo(root, {**files, "calc.py": STEPS})
    (root / "lib").mkdir()
    git(root, "mv", "ren.py", "lib/ren.py")
    (root / "edit.py").write_text("C = 4\n")
    git(root, "rm", "-q", "gone.py")
    lines = STEPS.splitlines()
    # a header above step_1 (its lines move down); step_3's body rewritten; step_6 deleted
    new = ["# header", *lines[:5], "    return value - 3", *lines[6:10]]
    (root / "calc.py").write_text("\n".join(new) + "\n")
    tip = _commit(root, "rework")
    wanted = [
        _cited("keep.py"),
        _cited("ren.py"),
        _cited("edit.py"),
        _cited("gone.py"),
        _cited("calc.py", (1, 2)),
        _cited("calc.py", (5, 6)),
        _cited("calc.py", (11, 12)),
        CitedPath("r.md", "R", "SRC-1", "nope.py", 1, CitedState.ABSENT),
        CitedPath("r.md", "R", "SRC-1", "lib", 1, CitedState.DIRECTORY),
    ]
    with Revision.open(root, cited) as old, Revision.open(root, tip) as now:
        found = follow_cited(wanted, old, now)
    got = {key: (d.status, d.drift.path, d.drift.lines, d.breaks) for key, d in found.items()}
    assert got == {
        ("keep.py", None): ("unchanged", "keep.py", None, False),
        ("ren.py", None): ("renamed", "lib/ren.py", None, False),
        ("edit.py", None): ("edited", "edit.py", None, False),  # cited whole: not broken
        ("gone.py", None): ("file_deleted", None, None, True),
        ("calc.py", (1, 2)): ("moved", "calc.py", (2, 3), False),
        ("calc.py", (5, 6)): ("changed", "calc.py", (6, 7), True),
        ("calc.py", (11, 12)): ("deleted", "calc.py", None, True),
    }
    assert [c.id for c in found["edit.py", None].drift.commits] == [tip]
    assert [c.id for c in found["gone.py", None].drift.commits] == [tip]
    assert found["keep.py", None].drift.commits == ()


def test_a_file_renamed_on_a_branch_and_edited_on_main_is_followed_through_the_merge(
    tmp_path: Path,
) -> None:
    root = tmp_path / "r"
    body = "".join(f"line {n} of the gate\n" for n in range(1, 21))
    cited = make_repo(root, {"gate.py": body, "other.py": "X = 1\n"})
    git(root, "checkout", "-qb", "topic")
    (root / "src").mkdir()
    git(root, "mv", "gate.py", "src/gate.py")
    renamed = _commit(root, "move the gate")
    git(root, "checkout", "-q", "main")
    (root / "gate.py").write_text(body.replace("line 3 ", "line three "))
    edited = _commit(root, "edit the gate")
    git(root, "merge", "-q", "--no-edit", "topic")
    tip = git(root, "rev-parse", "HEAD")
    assert "\nline three of the gate\n" in (root / "src" / "gate.py").read_text()  # merged
    with Revision.open(root, cited) as old, Revision.open(root, tip) as now:
        found = follow_cited([_cited("gate.py"), _cited("gate.py", (10, 12))], old, now)
    whole, lines = found["gate.py", None], found["gate.py", (10, 12)]
    assert (whole.status, whole.drift.path, whole.drift.renamed_from) == (
        "edited",
        "src/gate.py",
        "gate.py",
    )
    assert {c.id for c in whole.drift.commits} == {edited}  # the rename changed no line
    assert renamed not in {c.id for c in whole.drift.commits}
    # the lines the edit left alone: the same text at the same lines of the renamed file
    assert (lines.status, lines.drift.path, lines.drift.lines, lines.breaks) == (
        "renamed",
        "src/gate.py",
        (10, 12),
        False,
    )


def test_a_release_branch_that_does_not_descend_is_compared_directly(tmp_path: Path) -> None:
    root = tmp_path / "r"
    cited = make_repo(root, {"a.py": "A = 1\n", "b.py": "B = 1\n", "c.py": "C = 1\n"})
    git(root, "checkout", "-qb", "release", "HEAD")
    git(root, "commit", "-q", "--allow-empty", "-m", "branch point")
    git(root, "checkout", "-q", "main")
    (root / "a.py").write_text("A = 2\n")
    _commit(root, "cited from here")
    cited = git(root, "rev-parse", "HEAD")
    git(root, "checkout", "-q", "release")
    git(root, "rm", "-q", "b.py")
    release = _commit(root, "drop b")
    with Revision.open(root, cited) as old, Revision.open(root, release) as now:
        found = follow_cited([_cited("a.py"), _cited("b.py"), _cited("c.py")], old, now)
    assert {key[0]: d.status for key, d in found.items()} == {
        "a.py": "edited",  # differs from the cited revision, by no commit of its own
        "b.py": "file_deleted",
        "c.py": "unchanged",
    }


def _check(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["check", *args], catch_exceptions=False)
    return result.exit_code, result.stdout


def test_check_against_says_the_cited_files_and_fails_on_those_gone(tmp_path: Path) -> None:
    root = tmp_path / "r"
    cited = make_repo(root, {"src/a.py": "A = 1\n", "src/b.py": STEPS, "src/c.py": "C = 1\n"})
    report = tmp_path / "r.md"
    body = "It rests on `src/a.py`, on src/b.py:5-6 and on `src/c.py`."
    report.write_text(HEAD.format(rev=cited, body=body), encoding="utf-8")
    (root / "src" / "a.py").write_text("A = 2\n")
    edited = _commit(root, "edit a")
    code, out = _check(str(report), "--repo", str(root), "--against", edited)
    assert code == 0, out  # a file cited whole and edited: said, not failed
    assert "1 cited file(s) edited since (cited whole, no lines named):" in out
    assert "~ src/a.py  cited by PR-RTE-save (" in out
    assert f"    edited: 1 commit(s), the newest {edited[:10]}" in out
    assert out.splitlines()[-1] == "cited files: 2 unchanged, 1 edited; OK"
    (root / "src" / "b.py").write_text(STEPS.replace("value * 3", "value * 30"))
    git(root, "rm", "-q", "src/c.py")
    tip = _commit(root, "rewrite b, drop c")
    code, out = _check(str(report), "--repo", str(root), "--against", tip)
    assert code == 1, out
    assert "2 cited file(s) or lines changed or gone since the cited revision:" in out
    assert "✗ src/b.py:5-6  cited by PR-RTE-save (" in out
    assert "✗ src/c.py  cited by PR-RTE-save (" in out
    assert out.splitlines()[-1] == "cited files: 1 edited, 1 changed, 1 file deleted; FAIL"
    code, out = _check(str(report), "--repo", str(root), "--against", tip, "--format", "json")
    document = json.loads(out)
    drifts = {c["path"]: c["drift"] for c in document["citations"]}
    assert {path: (d["status"], d["breaks"]) for path, d in drifts.items()} == {
        "src/a.py": ("edited", False),
        "src/b.py": ("changed", True),
        "src/c.py": ("file_deleted", True),
    }
    assert drifts["src/b.py"]["lines"] == [5, 6] and drifts["src/b.py"]["diff"]
    assert drifts["src/a.py"]["score"] is None  # a whole file's text is not compared
    assert document["summary"]["cited_drift"]["file_deleted"] == 1
    code, out = _check(str(report), "--repo", str(root), "--format", "json")
    assert all("drift" not in c for c in json.loads(out)["citations"])  # no --against


def test_a_merge_that_edits_a_file_its_branch_renamed_keeps_it(tmp_path: Path) -> None:
    # main still at the cited commit; a branch renames gate.py and rewrites most of it; the
    # merge (no fast-forward) edits it once more. Against its first parent the merge deletes
    # gate.py (too unlike pkg/gate.py for git to pair them), against the branch it edits
    # pkg/gate.py: the file lives on, and was called deleted.
    root = tmp_path / "r"
    body = [f"line {n} of the gate" for n in range(1, 21)]
    cited = make_repo(root, {"gate.py": "\n".join(body) + "\n"})
    git(root, "checkout", "-qb", "topic")
    (root / "pkg").mkdir()
    git(root, "mv", "gate.py", "pkg/gate.py")
    renamed = _commit(root, "move the gate")
    rewritten = [f"rewritten {n}" if n % 4 else line for n, line in enumerate(body)]
    (root / "pkg" / "gate.py").write_text("\n".join(rewritten) + "\n")
    rewrite = _commit(root, "rewrite the gate")
    git(root, "checkout", "-q", "main")
    git(root, "merge", "-q", "--no-ff", "--no-commit", "topic")
    resolved = [*rewritten[:10], "resolved in the merge", *rewritten[11:]]
    (root / "pkg" / "gate.py").write_text("\n".join(resolved) + "\n")
    merge = _commit(root, "merge the gate")
    with Revision.open(root, cited) as old, Revision.open(root, merge) as now:
        found = follow_cited([_cited("gate.py"), _cited("gate.py", (5, 5))], old, now)
    whole, line = found["gate.py", None], found["gate.py", (5, 5)]
    assert (whole.status, whole.drift.path) == ("edited", "pkg/gate.py")
    # the rename moved no line; the branch's rewrite and the merge changed some
    assert [c.id for c in whole.drift.commits] == [merge, rewrite]
    assert renamed not in {c.id for c in line.drift.commits}
    # line 5 ("line 5 of the gate") survived the rewrite (every fourth line kept, from 0)
    assert rewritten[4] == body[4]
    assert (line.status, line.drift.path, line.drift.lines) == ("renamed", "pkg/gate.py", (5, 5))


def test_check_lists_fifty_files_edited_and_counts_the_rest(tmp_path: Path) -> None:
    root = tmp_path / "r"
    names = [f"src/m{n:02d}.py" for n in range(60)]
    cited = make_repo(root, dict.fromkeys(names, "A = 1\n"))
    report = tmp_path / "r.md"
    body = "It rests on " + ", ".join(f"`{name}`" for name in names) + "."
    report.write_text(HEAD.format(rev=cited, body=body), encoding="utf-8")
    for name in names:
        (root / name).write_text("A = 2\n")
    tip = _commit(root, "edit them all")
    code, out = _check(str(report), "--repo", str(root), "--against", tip)
    assert code == 0, out
    assert "60 cited file(s) edited since (cited whole, no lines named):" in out
    assert sum(1 for line in out.splitlines() if line.startswith("~ src/m")) == 50
    assert "… 10 more edited (--format json lists every one)" in out
    assert out.splitlines()[-1] == "cited files: 60 edited; OK"


def test_a_binary_file_cited_with_lines_is_followed_as_a_file(tmp_path: Path) -> None:
    # it has no lines to follow: its edit was "unreadable" and failed the drift
    root = tmp_path / "r"
    files = {"logo.png": b"\x89PNG\x00\x01" * 50, "keep.png": b"\x00\x02" * 9, "ed.png": b"\x00"}
    cited = make_repo(root, files)
    git(root, "rm", "-q", "logo.png")
    (root / "ed.png").write_bytes(b"\x00\x03" * 4)
    tip = _commit(root, "drop the logo")
    wanted = [_cited("logo.png", (1, 2)), _cited("keep.png", (1, 1)), _cited("ed.png", (1, 1))]
    with Revision.open(root, cited) as old, Revision.open(root, tip) as now:
        found = follow_cited(wanted, old, now)
    gone, kept, edited = (found[c.path, c.lines] for c in wanted)
    assert (edited.status, edited.breaks) == ("edited", False)
    assert (gone.status, gone.breaks, [c.id for c in gone.drift.commits]) == (
        "file_deleted",
        True,
        [tip],
    )
    assert (kept.status, kept.breaks) == ("unchanged", False)
