"""evidence/git/history.py: line-range history against real ``git log -L``, renames, deletions,
and the hostile repository (no diff driver, textconv, external diff or pager runs)."""

from __future__ import annotations

import multiprocessing
import random
import re
import threading
from pathlib import Path

import pytest
from evidencekit import arm, git, make_repo

from evidence.git.history import (
    commit_patch,
    commits_between,
    kept_history,
    load_history,
    map_ranges,
    path_diff,
)
from evidence.git.repo import open_repo


def _lines(count: int, tag: str) -> list[str]:
    return [f"{tag} line {n} value {n * 7 % 13}" for n in range(1, count + 1)]


def _write(root: Path, path: str, lines: list[str]) -> None:
    target = root / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("".join(line + "\n" for line in lines), encoding="utf-8")


def _commit(root: Path, message: str) -> str:
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message)
    return git(root, "rev-parse", "HEAD")


@pytest.fixture(scope="module")
def churned(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    """A repository with 24 commits of edits, insertions, deletions and renames after `cited`."""
    root = tmp_path_factory.mktemp("churn") / "repo"
    files: dict[str, str | bytes] = {
        f"src/m{n}.py": "\n".join(_lines(60, f"m{n}")) + "\n" for n in range(4)
    }
    cited = make_repo(root, files)
    rng = random.Random(17)
    names = sorted(files)
    contents = {name: _lines(60, name[4:6]) for name in names}
    for step in range(24):
        name = rng.choice(names)
        lines = contents[name]
        kind = rng.choice(["edit", "insert", "delete", "edit", "insert", "rename"])
        at = rng.randrange(len(lines))
        if kind == "edit":
            for k in range(at, min(len(lines), at + rng.randint(1, 4))):
                lines[k] = lines[k] + f" edited {step}"
        elif kind == "insert":
            lines[at:at] = [f"inserted {step} {k}" for k in range(rng.randint(1, 6))]
        elif kind == "delete" and len(lines) > 20:
            del lines[at : at + rng.randint(1, 5)]
        else:
            new = name.replace(".py", f"_r{step}.py")
            git(root, "mv", name, new)
            names[names.index(name)] = new
            contents[new] = contents.pop(name)
            name = new
        _write(root, name, contents[name])
        _commit(root, f"step {step}: {kind} {name}")
    return root, cited, git(root, "rev-parse", "HEAD")


def _git_log_l(root: Path, spec: str, path: str, first: int, last: int) -> list[str]:
    out = git(root, "log", f"-L{first},{last}:{path}", "--format=@%H", "-s", spec)
    return re.findall(r"^@([0-9a-f]{40})$", out, re.MULTILINE)


def test_line_log_is_what_git_log_l_gives(churned: tuple[Path, str, str]) -> None:
    root, cited, tip = churned
    repo = open_repo(root)
    try:
        paths = sorted(git(root, "ls-tree", "-r", "--name-only", cited).splitlines())
        history = load_history(repo, cited, tip, paths)
        rng = random.Random(3)
        compared = 0
        for path in git(root, "ls-tree", "-r", "--name-only", tip).splitlines():
            size = len((git(root, "show", f"{tip}:{path}") + "\n").splitlines())
            for _ in range(12):
                first = rng.randint(1, size)
                last = min(size, first + rng.randint(0, 8))
                ours = [c.id for c in history.line_log(path, ((first - 1, last),))]
                assert ours == _git_log_l(root, f"{cited}..{tip}", path, first, last), (
                    path,
                    first,
                    last,
                )
                compared += 1
        assert compared == 48
    finally:
        repo.close()


def test_following_lines_forward_lands_where_git_log_l_starts(
    churned: tuple[Path, str, str],
) -> None:
    """Lines carried from the cited revision to the tip: untouched ones keep their text, and the
    commits of their history are git log -L's for where they landed."""
    root, cited, tip = churned
    repo = open_repo(root)
    try:
        paths = sorted(git(root, "ls-tree", "-r", "--name-only", cited).splitlines())
        history = load_history(repo, cited, tip, paths)
        rng = random.Random(5)
        for path in paths:
            before = git(root, "show", f"{cited}:{path}").splitlines()
            for _ in range(10):
                first = rng.randint(1, len(before))
                last = min(len(before), first + rng.randint(0, 5))
                now, ranges, touched = history.follow(path, ((first - 1, last),))
                assert now is not None
                after = git(root, "show", f"{tip}:{now}").splitlines()
                if not touched:
                    (start, end) = ranges[0]
                    assert len(ranges) == 1
                    assert after[start:end] == before[first - 1 : last]
                    continue
                if ranges:
                    span = (ranges[0][0] + 1, ranges[-1][1])
                    logged = [c.id for c in history.line_log(now, ((span[0] - 1, span[1]),))]
                    assert logged == _git_log_l(root, f"{cited}..{tip}", now, *span)
    finally:
        repo.close()


def test_renames_deletions_and_commits(tmp_path: Path) -> None:
    root = tmp_path / "r"
    body = [f"line {n} of a file long enough to be found renamed" for n in range(1, 9)]
    cited = make_repo(root, {"a.txt": "\n".join(body) + "\n", "gone.txt": "x\ny\n"})
    git(root, "mv", "a.txt", "b.txt")
    body[2] = "three"
    _write(root, "b.txt", ["0", *body])
    git(root, "rm", "-q", "gone.txt")
    second = _commit(root, "rename, insert, edit, delete")
    repo = open_repo(root)
    try:
        assert [c.id for c in commits_between(repo, cited, second)] == [second]
        assert commits_between(repo, cited, second)[0].subject == "rename, insert, edit, delete"
        history = load_history(repo, cited, second, ["a.txt", "gone.txt"])
        assert history.follow("a.txt", ((0, 2),))[:2] == ("b.txt", ((1, 3),))
        now, ranges, touched = history.follow("a.txt", ((2, 3),))
        assert (now, ranges, [c.id for c in touched]) == ("b.txt", ((3, 4),), [second])
        now, ranges, touched = history.follow("gone.txt", ((0, 1),))
        assert (now, ranges, [c.id for c in touched]) == (None, (), [second])
        change = path_diff(repo, cited, second, "a.txt")
        assert change is not None and (change.old_path, change.new_path) == ("a.txt", "b.txt")
        assert len(change.hunks) == 2
    finally:
        repo.close()


def test_map_ranges_follows_line_log_rules() -> None:
    from evidence.git.history import Hunk

    insert_above = (Hunk(0, 0, 0, 3),)
    assert map_ranges(((5, 8),), insert_above, forward=True) == (((8, 11),), False)
    assert map_ranges(((8, 11),), insert_above, forward=False) == (((5, 8),), False)
    edit_inside = (Hunk(6, 1, 6, 2),)
    assert map_ranges(((5, 8),), edit_inside, forward=True) == (((5, 9),), True)
    deleted = (Hunk(4, 5, 4, 0),)
    assert map_ranges(((5, 8),), deleted, forward=True) == ((), True)


def test_hostile_repository_runs_nothing_through_history(tmp_path: Path) -> None:
    root = tmp_path / "hostile"
    cited = make_repo(
        root,
        {
            "src/app.py": "def handler(request):\n    return check(request)\n",
            "old.py": "a = 1\nb = 2\n",
            "lost.txt": "this blob will be deleted\n",
            ".gitattributes": "* diff=evil filter=evil\n",
        },
    )
    (root / "src" / "app.py").write_text("def handler(request):\n    return None\n")
    git(root, "mv", "old.py", "new.py")
    tip = _commit(root, "second")
    for key, value in (
        ("log.showSignature", "true"),
        ("diff.algorithm", "patience"),
        ("diff.interHunkContext", "10"),
        ("diff.orderFile", "/dev/null"),
    ):
        git(root, "config", key, value)
    marks = tmp_path / "marks"
    marks.mkdir()
    arm(root, marks)
    repo = open_repo(root)
    try:
        history = load_history(repo, cited, tip, ["src/app.py", "old.py"])
        now, _, touched = history.follow("src/app.py", ((1, 2),))
        assert now == "src/app.py" and [c.id for c in touched] == [tip]
        assert history.follow("old.py", ((0, 2),))[:2] == ("new.py", ((0, 2),))
        assert [c.id for c in history.line_log("src/app.py", ((0, 2),))] == [tip]
        assert [c.id for c in commits_between(repo, cited, tip)] == [tip]
        assert path_diff(repo, cited, tip, "src/app.py") is not None
        # the app's commit modal: the message and the file's diff, no driver or textconv run
        message, patch = commit_patch(repo, commits_between(repo, cited, tip)[0], ["src/app.py"])
        assert message.strip() == "second"
        assert "-    return check(request)" in patch and "+    return None" in patch
    finally:
        repo.close()
    assert sorted(path.name for path in marks.iterdir()) == []


def test_a_file_become_a_link_leaves_the_next_files_hunks_their_own(tmp_path: Path) -> None:
    """git prints a type change as two patches (the file deleted, the link created): the files
    after it in the same commit still get their own hunks, and their commits are git log -L's."""
    root = tmp_path / "r"
    body = _lines(10, "b")
    cited = make_repo(root, {"a.txt": "\n".join(body) + "\n", "b.txt": "\n".join(body) + "\n"})
    (root / "a.txt").unlink()
    (root / "a.txt").symlink_to("b.txt")
    body[7] = body[7] + " edited"
    _write(root, "b.txt", body)
    tip = _commit(root, "a.txt a link, b.txt edited")
    repo = open_repo(root)
    try:
        history = load_history(repo, cited, tip, ["a.txt", "b.txt"])
        now, ranges, touched = history.follow("b.txt", ((7, 8),))
        assert (now, ranges, [c.id for c in touched]) == ("b.txt", ((7, 8),), [tip])
        assert history.follow("b.txt", ((1, 3),))[1:] == (((1, 3),), [])
        for first, last in ((8, 8), (2, 3)):
            logged = [c.id for c in history.line_log("b.txt", ((first - 1, last),))]
            assert logged == _git_log_l(root, f"{cited}..{tip}", "b.txt", first, last)
    finally:
        repo.close()


def test_a_kept_history_extended_file_by_file_follows_as_one_read_for_each(
    churned: tuple[Path, str, str],
) -> None:
    # the review follows each file opened through the range's history read once: a file's
    # names and changes must not depend on the files loaded before it
    root, cited, head = churned
    paths = [f"src/m{n}.py" for n in range(4)]
    repo = open_repo(root)
    try:
        kept = []
        for path in paths:
            with kept_history(repo, cited, head, [path]) as history:
                kept.append(history)
                found = [history.follow(path, ((a, a + 5),)) for a in range(0, 55, 9)]
            alone = load_history(repo, cited, head, [path])
            assert found == [alone.follow(path, ((a, a + 5),)) for a in range(0, 55, 9)], path
        assert all(history is kept[0] for history in kept)  # read once, then extended
    finally:
        repo.close()


def _follow_in_child(root: Path, cited: str, head: str) -> None:
    """A forked child's work: follow a file through the range (its exit code says it ended)."""
    repo = open_repo(root)
    with kept_history(repo, cited, head, ["src/m1.py"]) as history:
        history.follow("src/m1.py", ((0, 5),))
    repo.close()


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="no fork here")
def test_a_forked_child_follows_a_range_its_parent_was_following(
    churned: tuple[Path, str, str],
) -> None:
    # an audit checks its systems in forked processes: a history held by another thread of the
    # parent at the fork must not leave the child waiting for a lock no thread of it holds
    root, cited, head = churned
    holding, release = threading.Event(), threading.Event()

    def hold() -> None:
        repo = open_repo(root)
        with kept_history(repo, cited, head, ["src/m0.py"]):
            holding.set()
            release.wait(60)
        repo.close()

    thread = threading.Thread(target=hold)
    thread.start()
    try:
        assert holding.wait(30)
        child = multiprocessing.get_context("fork").Process(
            target=_follow_in_child, args=(root, cited, head)
        )
        child.start()
        child.join(30)
        if child.is_alive():
            child.kill()
            child.join()
        assert child.exitcode == 0, "the child waited"
    finally:
        release.set()
        thread.join()
