"""History between two commits through GitPython (`open_repo`): the commits, per-file diffs with
rename detection, and line-range history (what ``git log -L a,b:path OLD..NEW`` shows).

`load_history` reads a whole set of paths at once, whatever the shape of the history (merges
either way, release branches, a newer revision that does not descend from the cited one): the
commits of ``OLD..NEW`` in git's topological order, then two ``git diff-tree --stdin`` runs over
every (commit, parent) pair, one ``--raw -M`` to follow the paths through renames, one
``-p -U0`` limited to the names they had. Line ranges are then carried through the hunks in
Python with the rules of git's line-log.c (evidence/git/linelog.py), so no ``git log -L`` runs
per range (tests compare the two on real repositories).

Every diff is asked for with the options that make its hunks git's own (myers, no indent
heuristic, no context) and with no program the repository configures (``--no-ext-diff
--no-textconv``, see evidence/git/repo.py).
"""

from __future__ import annotations

import os
import re
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

from evidence.git.changes import CommitInfo, FileChange, Hunk, Ranges, map_ranges
from evidence.git.linelog import History, Relation
from evidence.git.process import RevisionError

if TYPE_CHECKING:
    import git

__all__ = [
    "CommitInfo",
    "FileChange",
    "History",
    "Hunk",
    "Ranges",
    "Relation",
    "commit_patch",
    "commits_between",
    "extend_history",
    "kept_history",
    "linked_names",
    "load_history",
    "map_ranges",
    "path_diff",
    "relation",
    "written_files",
]

_FORMAT = "--format=%x01%H%x00%P%x00%an%x00%aI%x00%s%x00"
#: what makes the hunks those line-log.c computes, whatever the repository's config says
_DIFF_OPTIONS = (
    "--no-ext-diff",
    "--no-textconv",
    "--no-color",
    "--no-relative",
    "--no-indent-heuristic",
    "--diff-algorithm=myers",
    "--inter-hunk-context=0",
    "--submodule=short",
    "-O/dev/null",
    "-M",
)
#: a header per (commit, parent) pair: its commit id only (positions tell the pairs apart)
_PAIR_FORMAT = "--format=%x01%H%x00%x00%x00%x00%x00"
#: from this many names on, the patches are asked for whole and the names picked out after
MANY_NAMES = 256
_PAIR_OPTIONS = ("--stdin", "-r", "--always", "--root", "--no-abbrev", "-z")
_HUNK = re.compile(rb"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


# --- running and parsing git log -----------------------------------------------------------------


def _git(repo: git.Repo, command: str, *args: str, stdin: bytes | None = None) -> bytes:
    import git as gitpython

    try:
        if stdin is None:
            out = getattr(repo.git, command)(*args, stdout_as_string=False)
        else:
            with tempfile.TemporaryFile() as source:
                source.write(stdin)
                source.seek(0)
                out = getattr(repo.git, command)(*args, istream=source, stdout_as_string=False)
    except gitpython.GitCommandError as error:
        stderr = error.stderr if isinstance(error.stderr, str) else str(error.stderr)
        message = stderr.strip().splitlines()[-1:] or ["no message"]
        text = message[0].strip().removeprefix("stderr: ").strip("'").removeprefix("fatal: ")
        raise RevisionError(f"git {command} failed: {text}") from None
    return bytes(out)


def _decode(raw: bytes) -> str:
    return os.fsdecode(raw) if raw else raw.decode()


def _parse_log(out: bytes) -> list[tuple[CommitInfo, list[FileChange]]]:
    """The commits of ``git log -z --raw [-p]`` output with their file changes, in its order.

    Raw entries are read field by field (paths are NUL-terminated and may hold newlines); the
    patch that follows is split into one section per ``diff --git`` line, in raw-entry order."""
    result: list[tuple[CommitInfo, list[FileChange]]] = []
    at = out.find(b"\x01")
    while at != -1:
        # the header's five fields found in place: splitting what follows the header copied the
        # rest of the output for every commit (quadratic: 10 s of a 536-commit history's 11)
        fields = []
        cursor = at + 1
        for _ in range(5):
            end = out.index(b"\x00", cursor)
            fields.append(out[cursor:end])
            cursor = end + 1
        ident, parents, author, date, subject = (f.decode("utf-8", "replace") for f in fields)
        commit = CommitInfo(ident, subject, author, date, tuple(parents.split()))
        while cursor < len(out) and out[cursor : cursor + 1] in (b"\x00", b"\n"):
            cursor += 1
        entries: list[tuple[str, str | None, str | None]] = []
        while out[cursor : cursor + 1] == b":":
            end = out.index(b"\x00", cursor)
            meta = out[cursor + 1 : end].split()
            status = meta[4][:1].decode()
            first_end = out.index(b"\x00", end + 1)
            first = _decode(out[end + 1 : first_end])
            cursor = first_end + 1
            second = None
            if status in "RC":
                second_end = out.index(b"\x00", cursor)
                second = _decode(out[cursor:second_end])
                cursor = second_end + 1
            if status == "A":
                entries.append((status, None, first))
            elif status == "D":
                entries.append((status, first, None))
            else:
                entries.append((status, first, second if second is not None else first))
        while out[cursor : cursor + 1] == b"\x00":
            cursor += 1
        if out[cursor : cursor + 1] in (b"", b"\x01"):  # no patch: the next commit, if any
            following = cursor - 1 if cursor < len(out) else -1
        else:
            following = out.find(b"\n\x01", cursor)
        patch = out[cursor : len(out) if following == -1 else max(following, cursor)]
        sections = _patch_sections(patch)
        changes = []
        index = 0
        for status, old, new in entries:
            hunks, binary = sections[index] if index < len(sections) else ((), False)
            index += 1
            if status == "T":  # a type change is printed as a deletion and a creation: two
                hunks = ()
                index += 1
            changes.append(FileChange(commit, old, new, status, hunks, binary=binary))
        result.append((commit, changes))
        at = -1 if following == -1 else following + 1
    return result


def _patch_sections(patch: bytes) -> list[tuple[tuple[Hunk, ...], bool]]:
    """Each file's hunks in a patch, and whether git found it binary (no lines printed)."""
    sections: list[list[Hunk]] = []
    binary: list[bool] = []
    for line in patch.split(b"\n"):
        if line.startswith(b"diff --git "):
            sections.append([])
            binary.append(False)
        elif line.startswith(b"Binary files ") and sections:
            binary[-1] = True
        elif line.startswith(b"@@ ") and sections:
            found = _HUNK.match(line)
            if found is None:
                continue
            a, b, c, d = found.groups()
            old_count = 1 if b is None else int(b)
            new_count = 1 if d is None else int(d)
            # a header names the line before an empty side; xdiff's start is 0-based
            old_start = int(a) - 1 if old_count else int(a)
            new_start = int(c) - 1 if new_count else int(c)
            sections[-1].append(Hunk(old_start, old_count, new_start, new_count))
    return [(tuple(section), flag) for section, flag in zip(sections, binary, strict=True)]


def _range_spec(old: str, new: str) -> str:
    return f"{old}..{new}"


def commits_between(repo: git.Repo, old: str, new: str) -> list[CommitInfo]:
    """The commits reachable from `new` and not from `old`, in git's topological order (the
    order of ``git log -L``), newest first."""
    out = _git(repo, "log", _FORMAT, "-z", "--no-show-signature", "--encoding=UTF-8",
               "--topo-order", _range_spec(old, new), "--")  # fmt: skip
    return [commit for commit, _ in _parse_log(out)]


def path_diff(repo: git.Repo, old: str, new: str, path: str) -> FileChange | None:
    """How `path` at commit `old` differs at commit `new` (renames detected), or None when it
    does not."""
    raw = _git(repo, "diff", *_DIFF_OPTIONS, "--raw", "-z", "--no-abbrev", old, new, "--")
    wrapped = b"\x01" + b"\x00" * 5 + b"\n" + raw
    pairs = [c for _, changes in _parse_log(wrapped) for c in changes if c.old_path == path]
    if not pairs:
        return None
    pair = pairs[0]
    names = [":(literal)" + name for name in {pair.old_path, pair.new_path} if name]
    patch = _git(repo, "diff", *_DIFF_OPTIONS, "--raw", "-z", "-p", "-U0", old, new, "--", *names)
    wrapped = b"\x01" + b"\x00" * 5 + b"\n" + patch
    for _, changes in _parse_log(wrapped):
        for change in changes:
            if change.old_path == path:
                return change
    return pair


def commit_patch(repo: git.Repo, commit: CommitInfo, paths: Sequence[str]) -> tuple[str, str]:
    """`commit`'s whole message, and what it changed in `paths` against its first parent as a
    unified diff (three lines of context, renames detected, no program the repository
    configures)."""
    message = _git(repo, "show", "-s", "--no-show-signature", "--format=%B", commit.id)
    parent = commit.parents[0] if commit.parents else _EMPTY_TREE
    names = [":(literal)" + name for name in dict.fromkeys(paths) if name]
    out = _git(repo, "diff", *_DIFF_OPTIONS, "-p", "-U3", parent, commit.id, "--", *names)
    return message.decode("utf-8", "replace"), out.decode("utf-8", "replace")


#: git's empty tree: what a root commit is compared with
_EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"


# --- the history of a set of paths --------------------------------------------------------------


def relation(repo: git.Repo, old: str, new: str) -> Relation:
    """How commit `new` stands to commit `old`."""
    if not _git(repo, "rev-list", "-n", "1", _range_spec(new, old), "--").strip():
        return Relation.DESCENDANT
    if not _git(repo, "rev-list", "-n", "1", _range_spec(old, new), "--").strip():
        return Relation.ANCESTOR
    # a CI checkout (depth 1) or a clone made with --depth: the path between them may be cut
    if _git(repo, "rev-parse", "--is-shallow-repository").strip() == b"true":
        return Relation.SHALLOW
    return Relation.DIVERGED


def _pairs_diff(
    repo: git.Repo, pairs: Sequence[tuple[str, str | None]], *args: str
) -> list[list[FileChange]]:
    """``git diff-tree`` of each (commit, parent) pair (parent None: a root commit), in order."""
    if not pairs:
        return []
    listing = "".join(
        f"{commit} {parent}\n" if parent else f"{commit}\n" for commit, parent in pairs
    )
    out = _git(repo, "diff-tree", *_PAIR_OPTIONS, _PAIR_FORMAT, *_DIFF_OPTIONS, *args,
               stdin=listing.encode())  # fmt: skip
    parsed = _parse_log(out)
    if len(parsed) != len(pairs):
        raise RevisionError(f"git diff-tree gave {len(parsed)} diffs for {len(pairs)} pairs")
    return [changes for _, changes in parsed]


def _closure(raw: dict[tuple[int, int], tuple[FileChange, ...]], paths: Iterable[str]) -> set[str]:
    """Every name the files at `paths` take in any commit of the range (renames either way)."""
    names = set(paths)
    links: dict[str, set[str]] = {}
    for changes in raw.values():
        for change in changes:
            if change.old_path and change.new_path and change.old_path != change.new_path:
                links.setdefault(change.old_path, set()).add(change.new_path)
                links.setdefault(change.new_path, set()).add(change.old_path)
    todo = list(names)
    while todo:
        for other in links.get(todo.pop(), ()):
            if other not in names:
                names.add(other)
                todo.append(other)
    return names


def linked_names(history: History, path: str) -> set[str]:
    """`path` and every name renames in the range link it to, at either end or between."""
    return _closure(history.raw, (path,))


def _chain(commits: Sequence[CommitInfo], old: str) -> tuple[tuple[int, int], ...]:
    """One path of (commit number, parent number) steps from `old` to the newest commit, oldest
    first, first parents preferred (commits newest first, all descending from `old`'s side)."""
    numbers = {commit.id: number for number, commit in enumerate(commits)}
    descends = {old}
    for commit in reversed(commits):
        if any(parent in descends for parent in commit.parents):
            descends.add(commit.id)
    steps: list[tuple[int, int]] = []
    current = commits[0] if commits else None
    while current is not None and current.id != old:
        number = numbers[current.id]
        k = next(k for k, parent in enumerate(current.parents) if parent in descends)
        steps.append((number, k))
        parent = current.parents[k]
        current = None if parent == old else commits[numbers[parent]]
    return tuple(reversed(steps))


def load_history(repo: git.Repo, old: str, new: str, paths: Iterable[str]) -> History:
    """The changes between commits `old` and `new` of the files at `paths` in `old`."""
    paths = list(paths)
    how = relation(repo, old, new)
    commits = commits_between(repo, old, new)
    pairs: list[tuple[int, int, str | None]] = []
    for number, commit in enumerate(commits):
        if not commit.parents:
            pairs.append((number, 0, None))
        pairs.extend((number, k, parent) for k, parent in enumerate(commit.parents))
    found = _pairs_diff(repo, [(commits[n].id, p) for n, _, p in pairs], "--raw", "-M")
    raw = {(n, k): tuple(changes) for (n, k, _), changes in zip(pairs, found, strict=True)}
    direct: tuple[FileChange, ...] = ()
    chain: tuple[tuple[int, int], ...] = ()
    if how is Relation.DESCENDANT:
        chain = _chain(commits, old)
    else:
        direct = tuple(path_changes(repo, old, new, paths))
    history = History(old, new, how, tuple(commits), {}, chain, direct)
    history.raw = raw
    extend_history(repo, history, paths)
    return history


#: histories kept per (repository, old, new): reading a range's commits and renames is most of
#: following one more file through it (this repository, 1,286 commits: 0.49 of 0.54 s)
KEPT_HISTORIES = 2
_kept: OrderedDict[tuple[str, str, str], tuple[threading.RLock, History]] = OrderedDict()
_kept_lock = threading.Lock()


def _forget_kept() -> None:
    """In a forked child (an audit's systems checked in processes): the parent's threads may
    have held these locks at the fork, and no thread of the child would release them."""
    global _kept, _kept_lock
    _kept, _kept_lock = OrderedDict(), threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_kept)


@contextmanager
def kept_history(repo: git.Repo, old: str, new: str, paths: Iterable[str]) -> Iterator[History]:
    """`load_history`, kept per (repository, old, new) and used by one thread at a time: a later
    call on the same range adds its paths' changes (`extend_history`) to what was read. A file's
    names and changes do not depend on the other files loaded (its names are every name renames
    link it to in the range). A newer revision that does not descend from the older is read each
    time: its direct diff is of the paths asked for."""
    paths = list(paths)
    key = (os.path.realpath(repo.git_dir), old, new)
    with _kept_lock:
        kept = _kept.get(key)
        if kept is not None:
            _kept.move_to_end(key)
    if kept is None:
        history = load_history(repo, old, new, paths)
        if history.relation is not Relation.DESCENDANT:
            yield history
            return
        with _kept_lock:
            kept = _kept.setdefault(key, (threading.RLock(), history))
            while len(_kept) > KEPT_HISTORIES:
                _kept.popitem(last=False)
    lock, history = kept
    with lock:
        extend_history(repo, history, paths)
        yield history


def extend_history(repo: git.Repo, history: History, paths: Iterable[str]) -> None:
    """Add the changes of the files at `paths` (at either end) that `history` lacks."""
    names = _closure(history.raw, paths) - history.names
    if not names:
        return
    history.names |= names
    keys = [key for key, changes in history.raw.items()
            if any(c.old_path in names or c.new_path in names for c in changes)]  # fmt: skip
    if not keys:
        return
    pairs = []
    for number, k in keys:
        commit = history.commits[number]
        pairs.append((commit.id, commit.parents[k] if commit.parents else None))
    # the names on the command line, when they are few (git matches every path against each)
    specs = [":(literal)" + name for name in sorted(names)] if len(names) <= MANY_NAMES else []
    found = _pairs_diff(repo, pairs, "--raw", "-p", "-U0", "--", *specs)
    changes: dict[tuple[int, int], tuple[FileChange, ...]] = {}
    for (number, k), listed in zip(keys, found, strict=True):
        commit = history.commits[number]
        changes[number, k] = tuple(
            FileChange(commit, c.old_path, c.new_path, c.status, c.hunks, k, c.binary)
            for c in listed
            if c.old_path in names or c.new_path in names
        )
    history.add_changes(changes)


def written_files(repo: git.Repo, old: str, new: str) -> list[str]:
    """The files at `new` that are not at `old` with the same content (added or modified)."""
    raw = _git(repo, "diff", *_DIFF_OPTIONS, "--no-renames", "--raw", "-z", "--no-abbrev", old,
               new, "--")  # fmt: skip
    entries = _parse_log(b"\x01" + b"\x00" * 5 + b"\n" + raw)
    return sorted({c.new_path for _, cs in entries for c in cs if c.new_path})


def path_changes(repo: git.Repo, old: str, new: str, paths: Iterable[str]) -> list[FileChange]:
    """The direct diff of `old` against `new` for the files at `paths` in `old`."""
    raw = _git(repo, "diff", *_DIFF_OPTIONS, "--raw", "-z", "--no-abbrev", old, new, "--")
    step = CommitInfo("", "", "", "")
    entries = _parse_log(b"\x01" + b"\x00" * 5 + b"\n" + raw)
    wanted = {c.old_path for _, cs in entries for c in cs if c.old_path} & set(paths)
    names = sorted(wanted | {c.new_path for _, cs in entries for c in cs
                             if c.old_path in wanted and c.new_path})  # fmt: skip
    if not names:
        return []
    pathspecs = [":(literal)" + name for name in names]
    patch = _git(repo, "diff", *_DIFF_OPTIONS, "--raw", "-z", "-p", "-U0", old, new, "--",
                 *pathspecs)  # fmt: skip
    parsed = _parse_log(b"\x01" + b"\x00" * 5 + b"\n" + patch)
    return [
        FileChange(step, c.old_path, c.new_path, c.status, c.hunks, binary=c.binary)
        for _, cs in parsed
        for c in cs
    ]
