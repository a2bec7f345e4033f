"""Drift on every shape of history (issue 22): merges both ways, release branches merged later,
criss-cross merges, cherry-picks, a newer revision that does not descend from the cited one.
Small real repositories; the commit lists are compared with real ``git log -L``."""

from __future__ import annotations

import random
import re
import subprocess
from pathlib import Path

import pytest
from evidencekit import git, make_repo

from evidence.drift import DriftStatus, Relation, follow_anchors, relation_of
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
                    assert [c.id for c in drift.commits] == expected
