"""Drift on every shape of history: merges both ways, release branches merged later,
criss-cross merges, cherry-picks, a newer revision that does not descend from the cited one.
Small real repositories; the commit lists are compared with real ``git log -L``."""

from __future__ import annotations

import random
import re
import subprocess
from pathlib import Path

import pytest
from evidencekit import git, make_repo

from evidence.drift import Drift, DriftStatus, Relation, follow_anchors, relation_of
from evidence.drift_report import drift_details
from evidence.git.history import load_history
from evidence.git.repo import open_repo
from evidence.model import Anchor, FileState, Quote, Tier
from evidence.revision import Revision

FILES = 3


def _lines(count: int, tag: str) -> list[str]:
    return [f"{tag} line {n} holds value {n * 7 % 13}" for n in range(1, count + 1)]


def _commit(root: Path, message: str) -> str:
    git(root, "add", "-A")
    git(root, "commit", "-q", "--allow-empty", "-m", message)
    return git(root, "rev-parse", "HEAD")


def _edit(root: Path, rng: random.Random, tag: str) -> None:
    path = root / f"f{rng.randrange(FILES)}.py"
    lines = path.read_text().splitlines()
    at = rng.randrange(len(lines))
    kind = rng.choice(["edit", "insert", "delete", "move"])
    if kind == "edit":
        lines[at] += f" {tag}"
    elif kind == "insert":
        lines[at:at] = [f"{tag} inserted {k}" for k in range(rng.randint(1, 4))]
    elif kind == "delete" and len(lines) > 12:
        del lines[at : at + rng.randint(1, 3)]
    else:  # a block cut and pasted elsewhere in the file
        block = lines[at : at + 3]
        del lines[at : at + 3]
        lines[rng.randrange(len(lines) + 1) : 0] = block
    path.write_text("".join(line + "\n" for line in lines))


def _merge(root: Path, rng: random.Random, other: str) -> None:
    side = rng.choice(["ours", "theirs"])
    git(root, "merge", "-q", "--no-ff", "--no-edit", f"-X{side}", other)


def random_history(root: Path, seed: int) -> tuple[str, str, str]:
    """Branches that fork, commit, merge each other both ways (criss-cross too) and take
    cherry-picks; returns the cited commit (on a side branch), main's tip and a branch tip that
    does not descend from the cited commit."""
    rng = random.Random(seed)
    make_repo(root, {f"f{n}.py": "\n".join(_lines(30, f"f{n}")) + "\n" for n in range(FILES)})
    branches = ["main"]
    cited = ""
    commits: list[str] = []
    for step in range(36):
        here = rng.choice(branches)
        git(root, "checkout", "-q", here)
        action = rng.choices(["commit", "branch", "merge", "cherry"], [6, 1, 2, 1])[0]
        if action == "branch" or len(branches) == 1:
            name = f"b{step}"
            git(root, "checkout", "-q", "-b", name)
            branches.append(name)
            action = "commit"
        if action == "merge":
            _merge(root, rng, rng.choice([b for b in branches if b != here]))
        elif action == "cherry" and commits:
            try:
                git(root, "cherry-pick", "-X", "theirs", "--allow-empty", rng.choice(commits))
            except subprocess.CalledProcessError:
                git(root, "cherry-pick", "--abort")
        else:
            for _ in range(rng.randint(1, 2)):
                _edit(root, rng, f"s{step}")
            commits.append(_commit(root, f"step {step}"))
        if step == 14:
            git(root, "checkout", "-q", "-b", "release")
            _edit(root, rng, "release")
            cited = _commit(root, "release")
            git(root, "branch", "-q", "old", f"{cited}~1")
            branches.append("release")
    git(root, "checkout", "-q", "main")
    for name in branches[1:]:
        _merge(root, rng, name)
    git(root, "checkout", "-q", "old")
    _edit(root, rng, "old")
    apart = _commit(root, "apart")
    return cited, git(root, "rev-parse", "main"), apart


def _git_log_l(root: Path, spec: str, path: str, first: int, last: int) -> list[str]:
    out = git(root, "log", f"-L{first},{last}:{path}", "--format=@%H", "-s", spec)
    return re.findall(r"^@([0-9a-f]{40})$", out, re.MULTILINE)


@pytest.fixture(scope="module", params=[1, 2, 3])
def shaped(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, str, str, str]:
    root = tmp_path_factory.mktemp(f"shape{request.param}") / "repo"
    return (root, *random_history(root, request.param))


def test_line_log_equals_git_log_l_on_merged_histories(shaped: tuple[Path, str, str, str]) -> None:
    root, cited, tip, apart = shaped
    assert int(git(root, "rev-list", "--merges", "--count", f"{cited}..{tip}")) >= 3
    rng = random.Random(7)
    listed: set[str] = set()
    for new in (tip, apart):
        repo = open_repo(root)
        try:
            paths = [f"f{n}.py" for n in range(FILES)]
            history = load_history(repo, cited, new, paths)
            wanted, expected = [], []
            for path in paths:
                size = len(git(root, "show", f"{new}:{path}").splitlines())
                for _ in range(10):
                    first = rng.randint(1, size)
                    last = min(size, first + rng.randint(0, 5))
                    wanted.append((path, ((first - 1, last),)))
                    expected.append(_git_log_l(root, f"{cited}..{new}", path, first, last))
            got = [[c.id for c in found] for found in history.line_logs(wanted)]
            assert got == expected
            listed.update(c for found in expected for c in found)
        finally:
            repo.close()
    merges = set(git(root, "rev-list", "--merges", f"{cited}..{tip}").split())
    assert len(listed) >= 5 and listed & merges


def _anchors(root: Path, cited: str, rng: random.Random) -> list[Anchor]:
    made: list[Anchor] = []
    for n in range(FILES):
        path = f"f{n}.py"
        size = len(git(root, "show", f"{cited}:{path}").splitlines())
        for _ in range(12):
            first = rng.randint(1, size - 1)
            quote = Quote("", path, None, len(made) + 1, 1, "R", 0)
            made.append(Anchor(quote, FileState.OK, Tier.EXACT, 100.0, (first, first + 1)))
    return made


def test_drift_says_same_text_only_when_it_is_and_lists_git_log_l(
    shaped: tuple[Path, str, str, str],
) -> None:
    """Same text only when it is; the commits are git log -L's at the lines drift names, and
    the commits it cannot see, that removed one of the passage's own lines."""
    root, cited, tip, apart = shaped
    anchors = _anchors(root, cited, random.Random(11))
    for new, relation in ((tip, Relation.DESCENDANT), (apart, Relation.DIVERGED)):
        with Revision.open(root, cited) as old, Revision.open(root, new) as now:
            assert relation_of(old, now) is relation
            drifts = follow_anchors(anchors, old, now)
            for anchor, drift in zip(anchors, drifts, strict=True):
                assert drift is not None and anchor.lines is not None
                first, last = anchor.lines
                before = old.read(anchor.quote.path).lines[first - 1 : last]
                if drift.status in (DriftStatus.UNCHANGED, DriftStatus.MOVED):
                    assert drift.path is not None and drift.lines is not None
                    a, b = drift.lines
                    assert now.read(drift.path).lines[a - 1 : b] == before
                    assert (drift.status is DriftStatus.UNCHANGED) == (drift.lines == anchor.lines)
                if drift.path is not None and drift.lines is not None:
                    expected = _git_log_l(root, f"{cited}..{new}", drift.path, *drift.lines)
                    listed = [c.id for c in drift.commits]
                    assert [c for c in listed if c in expected] == expected
                    for extra in set(listed) - set(expected):
                        assert _removed(root, extra, anchor.quote.path) & set(before), extra


def _removed(root: Path, commit: str, path: str) -> set[str]:
    """The lines `commit` removed from `path` (against its parent)."""
    out = git(root, "show", "--format=", "-U0", commit, "--", path)
    return {line[1:] for line in out.splitlines() if line.startswith("-") and line[:3] != "---"}


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)


def _drift(root: Path, cited: str, new: str, quotes: list[tuple[str, int, int]]) -> list[Drift]:
    anchors = [
        Anchor(Quote("", path, None, n, 1, "R", 0), FileState.OK, Tier.EXACT, 100.0, (a, b))
        for n, (path, a, b) in enumerate(quotes, start=1)
    ]
    with Revision.open(root, cited) as old, Revision.open(root, new) as now:
        drifts = follow_anchors(anchors, old, now)
    assert all(drift is not None for drift in drifts)
    return [drift for drift in drifts if drift is not None]


WORKFLOW = """\
name: ci
on: [push]
jobs:
  lint:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-python@v5
      - run: pip install pre-commit
      - run: pre-commit run --all-files
      - uses: pre-commit-ci/lite-action@5d6cc0eb514c891a40562a58a8e71576c5c7fb43 # v1.1.0
        if: always()
"""

TERMINAL = """\
def echo(message, file=None, color=None):
    out = str(message)
    if should_strip(file):
        out = strip_ansi(out)
    elif not color:
        out = strip_ansi(out)
    file.write(out)
    file.flush()
"""


def test_the_two_real_cases_on_a_release_branch_merged_later(tmp_path: Path) -> None:
    """The issue's two cases in miniature: the cited commit is a release tag on a maintenance
    branch merged into main later, so it is not on main's first-parent chain."""
    root = tmp_path / "r"
    make_repo(root, {".github/workflows/ci.yml": WORKFLOW, "termui.py": TERMINAL})
    git(root, "checkout", "-q", "-b", "maintenance")
    _write(root, {"NOTES.txt": "release notes\n"})
    cited = _commit(root, "release 8.1.7")
    git(root, "tag", "v8.1.7")
    git(root, "checkout", "-q", "main")
    workflow = WORKFLOW.replace(
        "      - uses: pre-commit-ci/lite-action@5d6cc0eb514c891a40562a58a8e71576c5c7fb43"
        " # v1.1.0\n        if: always()\n",
        "",
    ).replace("lint:", "lint:\n    timeout-minutes: 10")
    workflow += "".join(f"  job{n}:\n    runs-on: ubuntu-latest\n" for n in range(6))
    _write(root, {".github/workflows/ci.yml": workflow})
    _commit(root, "ci: drop the pre-commit.ci step")
    _write(root, {"termui.py": TERMINAL.replace(
        "elif not color:", "elif should_strip_ansi(file, resolve_color_default(color)):"
    )})  # fmt: skip
    rewrite = _commit(root, "echo: decide stripping in one place")
    git(root, "merge", "-q", "--no-ff", "--no-edit", "maintenance")
    tip = git(root, "rev-parse", "HEAD")
    uses, elif_ = _drift(
        root, cited, tip, [(".github/workflows/ci.yml", 11, 11), ("termui.py", 5, 6)]
    )
    assert uses.status is DriftStatus.DELETED and uses.lines is None
    assert elif_.status is DriftStatus.CHANGED and elif_.lines == (5, 6) and elif_.score < 100
    assert elif_.diff is not None and any(part.op != "equal" for part in elif_.diff)
    assert [c.id for c in elif_.commits] == [rewrite]
    assert [c.id for c in elif_.commits] == _git_log_l(root, f"{cited}..{tip}", "termui.py", 5, 6)


def test_cherry_pick_criss_cross_and_merges_both_ways(tmp_path: Path) -> None:
    root = tmp_path / "r"
    body = "".join(f"def f{n}(x):\n    return x + {n}\n\n" for n in range(12))
    make_repo(root, {"m.py": body})
    git(root, "checkout", "-q", "-b", "side")
    _write(root, {"m.py": body.replace("x + 3\n", "x + 33\n")})
    fix = _commit(root, "fix f3 on side")
    git(root, "checkout", "-q", "main")
    _write(root, {"m.py": body.replace("x + 9\n", "x + 99\n")})
    _commit(root, "change f9 on main")
    git(root, "cherry-pick", fix)  # the fix, picked onto main too
    git(root, "checkout", "-q", "side")
    git(root, "merge", "-q", "--no-edit", "main")  # main into side
    cited = git(root, "rev-parse", "HEAD")
    git(root, "checkout", "-q", "main")
    git(root, "merge", "-q", "--no-edit", "side~1")  # criss-cross: each side merged the other
    _write(root, {"m.py": (root / "m.py").read_text().replace("x + 5\n", "x + 55\n")})
    _commit(root, "change f5 on main")
    git(root, "checkout", "-q", "side")
    _write(root, {"m.py": (root / "m.py").read_text().replace("x + 1\n", "x + 11\n")})
    _commit(root, "change f1 on side")
    git(root, "checkout", "-q", "main")
    git(root, "merge", "-q", "--no-edit", "side")
    tip = git(root, "rev-parse", "HEAD")
    quotes = [("m.py", 3 * n + 1, 3 * n + 2) for n in range(12)]
    drifts = _drift(root, cited, tip, quotes)
    statuses = [d.status for d in drifts]
    assert statuses[1] is statuses[5] is DriftStatus.CHANGED
    assert {statuses[n] for n in (0, 2, 3, 4, 6, 7, 8, 9, 10, 11)} == {DriftStatus.UNCHANGED}
    for drift in drifts:
        assert drift.path == "m.py" and drift.lines is not None
        expected = _git_log_l(root, f"{cited}..{tip}", "m.py", *drift.lines)
        assert [c.id for c in drift.commits] == expected
    # the other way round: main's tip against the side's, which does not descend from it
    apart = git(root, "rev-parse", "side~1")
    with Revision.open(root, tip) as old, Revision.open(root, apart) as now:
        assert relation_of(old, now) is Relation.ANCESTOR
    back = _drift(root, tip, apart, quotes)
    assert [d.status for d in back][1] is DriftStatus.CHANGED and back[1].commits == ()


def test_moves_across_files(tmp_path: Path) -> None:
    root = tmp_path / "r"
    helper = "def parse_header(line):\n    name, _, value = line.partition(':')\n"
    rest = "def other():\n    return 1\n"
    # most of gone.py goes nowhere: no file takes over from it
    filler = "".join(f"def unused_{n}():\n    return {n} * {n}\n" for n in range(4))
    make_repo(
        root, {"a.py": helper + rest, "gone.py": "def lonely():\n    return 'alone'\n" + filler}
    )
    cited = git(root, "rev-parse", "HEAD")
    _write(root, {"a.py": rest, "pkg/headers.py": "import re\n\n" + helper})
    _write(
        root,
        {
            "pkg/copy.py": helper,
            "pkg/lonely.py": "# kept\ndef lonely():\n    return 'alone'\n" + rest * 9,
        },
    )
    (root / "gone.py").unlink()
    tip = _commit(root, "split a.py into modules")
    parse, lonely = _drift(root, cited, tip, [("a.py", 1, 2), ("gone.py", 1, 2)])
    assert parse.status is DriftStatus.MOVED
    assert set(parse.elsewhere) == {("pkg/headers.py", (3, 4)), ("pkg/copy.py", (1, 2))}
    assert (parse.path, parse.lines) == parse.elsewhere[0]
    assert lonely.status is DriftStatus.MOVED
    assert (lonely.path, lonely.lines) == ("pkg/lonely.py", (2, 3))
    assert lonely.renamed_from is None and lonely.elsewhere == (("pkg/lonely.py", (2, 3)),)
    assert [c.id for c in lonely.commits] == [tip]
    assert [tip] == _git_log_l(root, f"{cited}..{tip}", "pkg/lonely.py", 2, 3)
    text = " ".join(drift_details(parse))
    assert "left its file" in text and "also" in text


def test_a_module_split_up_continues_in_the_file_holding_most_of_it(tmp_path: Path) -> None:
    """No part holds half of it (no rename git would see): the largest part takes over."""
    root = tmp_path / "r"
    parts = [
        "".join(f"def {name}_{n}(text):\n    return text.{name}({n})\n" for n in range(count))
        for name, count in (("split", 4), ("strip", 3), ("count", 3))
    ]
    cited = make_repo(root, {"tools.py": "".join(parts)})
    (root / "tools.py").unlink()
    _write(root, {"tools/split.py": parts[0].replace("split(2)", "rsplit(2, 1)"),
                  "tools/strip.py": parts[1], "tools/count.py": parts[2]})  # fmt: skip
    tip = _commit(root, "split tools.py into a package")
    edited, same = _drift(root, cited, tip, [("tools.py", 5, 6), ("tools.py", 7, 8)])
    assert (edited.status, edited.path, edited.renamed_from) == (
        DriftStatus.CHANGED, "tools/split.py", "tools.py"
    )  # fmt: skip
    assert edited.lines == (5, 6) and edited.score >= 80
    assert (same.status, same.path, same.lines) == (DriftStatus.UNCHANGED, "tools/split.py", (7, 8))


def test_a_shallow_clone_is_not_called_diverged(tmp_path: Path) -> None:
    """A CI checkout (or any clone made with --depth) cuts the history between the cited
    commit and REV: git finds neither in the other's history, and drift said "diverged: REV
    does not descend from the cited revision" of a REV that does. It says the clone is shallow
    and what git cannot tell; the answers still come from the text at REV."""
    from evidence.drift_report import relation_note

    origin = tmp_path / "origin"
    make_repo(origin, {"a.py": "".join(line + "\n" for line in _lines(20, "a"))})
    cited = git(origin, "rev-parse", "HEAD")
    for n in range(4):  # the history a depth of 2 cuts
        lines = (origin / "a.py").read_text().splitlines()
        lines.insert(0, f"# header {n}")
        _write(origin, {"a.py": "".join(line + "\n" for line in lines)})
        tip = _commit(origin, f"header {n}")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "2", f"file://{origin}", str(clone))
    git(clone, "fetch", "-q", "--depth", "1", "origin", cited)
    with Revision.open(clone, cited) as old, Revision.open(clone, tip) as now:
        assert relation_of(old, now) is Relation.SHALLOW
    assert "shallow clone: git cannot tell" in relation_note(tip, Relation.SHALLOW)
    (moved,) = _drift(clone, cited, tip, [("a.py", 3, 4)])
    assert moved.status is DriftStatus.MOVED and moved.lines == (7, 8)
    # the whole history fetched: it descends
    git(clone, "fetch", "-q", "--unshallow", "origin")
    with Revision.open(clone, cited) as old, Revision.open(clone, tip) as now:
        assert relation_of(old, now) is Relation.DESCENDANT


def test_a_line_still_at_its_place_is_unchanged_where_git_aligned_it_with_a_copy(
    tmp_path: Path,
) -> None:
    """bench_drift_accuracy, seed 51423: a one-line passage still verbatim at its own line came
    back "moved" to another copy of it, where git's diff had aligned it. The claim's lines still
    hold: unchanged (its commits are git log -L's at those lines)."""
    root = tmp_path / "r"
    old = ["C", "R", "C", "B", "A", "R"]
    new = ["R", "R", "R", "R", "C"]  # git's diff carries the old line 2 to line 1
    make_repo(root, {"f.txt": "".join(f"{word} line\n" for word in old)})
    cited = git(root, "rev-parse", "HEAD")
    _write(root, {"f.txt": "".join(f"{word} line\n" for word in new)})
    tip = _commit(root, "edit")
    (drift,) = _drift(root, cited, tip, [("f.txt", 2, 2)])
    assert drift.status is DriftStatus.UNCHANGED and drift.lines == (2, 2)
    assert [c.id for c in drift.commits] == _git_log_l(root, f"{cited}..{tip}", "f.txt", 2, 2)


def test_a_passage_indented_into_a_block_and_edited_is_changed_not_deleted(
    tmp_path: Path,
) -> None:
    """bench_drift_accuracy, seed 7777, this repository's history: an `if output == "json":`
    and its echo, moved into a block (indented anew) with the echo wrapped, were "deleted": a
    run had to hold one of the passage's own lines as they were, indentation included."""
    root = tmp_path / "r"
    filler = "".join(f"    step_{n}(result)\n" for n in range(30))
    old = (
        'def run(output, result):\n    if output == "json":\n'
        "        click.echo(json.dumps(result, indent=2))\n" + filler + "    return 0\n"
    )
    new = (
        "def run(output, result):\n" + filler + '    try:\n        if output == "json":\n'
        "            click.echo(escaped(json.dumps(result, indent=2)))\n"
        "    finally:\n        close()\n    return 0\n"
    )
    make_repo(root, {"run.py": old})
    cited = git(root, "rev-parse", "HEAD")
    _write(root, {"run.py": new})
    tip = _commit(root, "into a block, further down")
    (drift,) = _drift(root, cited, tip, [("run.py", 2, 3)])
    assert drift.status is DriftStatus.CHANGED and drift.lines == (33, 34), drift


def test_a_method_removed_is_deleted_though_a_like_one_below_gains_a_line(
    tmp_path: Path,
) -> None:
    """bench_drift_accuracy, seed 48722, a generated history: one class's `__init__` removed
    while another class's, of nearly the same lines, gained one. The removed one is deleted:
    the like passage below is another claim's, not this one edited."""
    root = tmp_path / "r"
    first = (
        "class View:\n    '''A view.'''\n\n    def __init__(self, text):\n"
        "        self.text = text\n        self.lines = index(text)\n\n"
        "    def translated(self):\n        return self.text.upper()\n\n\n"
    )
    second = (
        "class Forms:\n    '''Forms.'''\n\n    def __init__(self, text):\n"
        "        self.text = text\n        self.exact = text.strip()\n{gap}\n"
        "    def collapsed(self):\n        return ' '.join(self.text.split())\n"
    )
    make_repo(root, {"forms.py": first + second.format(gap="")})
    cited = git(root, "rev-parse", "HEAD")
    removed = first.replace(
        "\n    def __init__(self, text):\n        self.text = text\n"
        "        self.lines = index(text)\n",
        "",
    )
    _write(root, {"forms.py": removed + second.format(gap="()")})
    tip = _commit(root, "drop View.__init__; edit Forms")
    (drift,) = _drift(root, cited, tip, [("forms.py", 3, 6)])
    assert drift.status is DriftStatus.DELETED, drift


def test_a_changed_passage_rewrapped_is_followed_to_its_last_line(tmp_path: Path) -> None:
    """Tried on this repository's history: a signature of three lines rewrapped over eight was
    "changed" at the first seven, and its diff called the return type deleted; a statement
    wrapped over three lines was cut at its second (a measure counting indentation)."""
    root = tmp_path / "r"
    filler = "".join(f"    step_{n} = {n}\n" for n in range(12))
    old = (
        "class Store:\n"
        "    def carry(\n"
        "        self, reports: Iterable[Report], *, reviewer: str, revision: str | None = None\n"
        "    ) -> Carried:\n"
        "        return self._carry(reports)\n" + filler + "    if all(line in known for line in"
        " run) or (own is not None and own.isdisjoint(run)):\n        pass\n"
    )
    new = (
        "class Store:\n    def carry(\n        self,\n        reports: Iterable[Report],\n"
        "        *,\n        reviewer: str,\n        revision: str | None = None,\n"
        "        lines_after: LinesAfter | None = None,\n    ) -> Carried:\n"
        "        return self._carry(reports)\n" + filler + "    if all(line in known for line in"
        " run) or (\n        own is not None and own.isdisjoint(line.strip() for line in run)\n"
        "    ):\n        pass\n"
    )
    make_repo(root, {"store.py": old})
    cited = git(root, "rev-parse", "HEAD")
    _write(root, {"store.py": new})
    tip = _commit(root, "rewrap")
    signature, statement = _drift(root, cited, tip, [("store.py", 2, 4), ("store.py", 18, 18)])
    assert signature.status is DriftStatus.CHANGED and signature.lines == (2, 9), signature
    assert not any(part.op == "delete" and "Carried" in part.quote for part in signature.diff or ())
    assert statement.status is DriftStatus.CHANGED and statement.lines == (23, 25), statement


def test_a_file_renamed_two_ways_and_kept_both_is_unchanged_in_its_copy(tmp_path: Path) -> None:
    """bench_drift_accuracy, seed 7777, a generated history: two branches renamed one file
    two ways and the merge kept both; the first parent's copy was edited since, the other is
    the file as cited, byte for byte. The passage is unchanged there (as `git diff -M` pairs
    them), not moved in the edited copy."""
    root = tmp_path / "r"
    text = "".join(f"value_{n} = compute({n})\n" for n in range(20))
    make_repo(root, {"a.py": text})
    cited = git(root, "rev-parse", "HEAD")
    git(root, "checkout", "-q", "-b", "other")
    git(root, "mv", "a.py", "c.py")
    _commit(root, "rename to c.py")
    git(root, "checkout", "-q", "main")
    git(root, "mv", "a.py", "b.py")
    _commit(root, "rename to b.py")
    _write(root, {"b.py": "import compute\n\n" + text})
    _commit(root, "edit b.py")
    merged = subprocess.run(
        ["git", "merge", "-q", "--no-edit", "other"], cwd=root, capture_output=True, text=True
    )
    assert merged.returncode != 0 and "rename/rename" in merged.stdout + merged.stderr
    _write(root, {"c.py": text})  # resolved: the other branch's file as it had it
    tip = _commit(root, "keep both")
    assert (root / "b.py").exists()
    (drift,) = _drift(root, cited, tip, [("a.py", 5, 7)])
    assert (drift.status, drift.path, drift.lines) == (DriftStatus.UNCHANGED, "c.py", (5, 7))
    assert drift.renamed_from == "a.py"


def test_a_passage_moved_up_and_edited_in_one_change_is_changed_not_deleted(
    tmp_path: Path,
) -> None:
    """bench_drift_accuracy, seed 344669, a generated history: a block cut, pasted higher up
    and one of its lines edited in the same commit was "deleted" (git's diff deleted every
    line of it, and no run held one of its own lines as it was). A new line more like one of
    the passage's own lines than like any line the file had is that line, edited."""
    root = tmp_path / "r"
    head = '"""Docs."""\n\nimport subprocess\n\n\n'
    block = (
        "def start():\n    try:\n        return subprocess.Popen(['git'])\n"
        "    except (OSError, subprocess.SubprocessError):\n        return None\n"
    )
    tail = "".join(f"\n\ndef step_{n}(process):\n    return process.poll()\n" for n in range(6))
    tail += "\n\ndef stop(process):\n    if process is None:\n        return None\n"
    make_repo(root, {"identity.py": head + tail + "\n\n" + block})
    cited = git(root, "rev-parse", "HEAD")
    old_lines = (head + tail + "\n\n" + block).splitlines()
    first = old_lines.index("    except (OSError, subprocess.SubprocessError):") + 1
    edited = block.replace("(OSError, subprocess", "(OSError, ValueError, subprocess")
    _write(root, {"identity.py": head + edited + tail})
    tip = _commit(root, "move start() up, catch ValueError too")
    (drift,) = _drift(root, cited, tip, [("identity.py", first, first + 1)])
    assert drift.status is DriftStatus.CHANGED and drift.lines == (9, 10), drift


def test_a_passage_deleted_beside_a_sibling_edited_stays_deleted(tmp_path: Path) -> None:
    """The other side of the rule above: one of two near-equal functions deleted while the
    other is edited. The edited line is as like the sibling's old line as the passage's: it
    is the sibling's, and the passage is deleted, not changed there."""
    root = tmp_path / "r"
    first = "def first_limit(settings):\n    limit = settings.max_items or 100\n"
    second = "def second_limit(settings):\n    limit = settings.max_items or 200\n"
    rest = "    return clamp(limit)\n\n\n"
    make_repo(root, {"limits.py": first + rest + second + rest})
    cited = git(root, "rev-parse", "HEAD")
    _write(root, {"limits.py": second.replace("200", "300") + rest})
    tip = _commit(root, "one limit")
    (drift,) = _drift(root, cited, tip, [("limits.py", 2, 3)])
    assert drift.status is DriftStatus.DELETED, drift
