"""History between two commits through GitPython (`open_repo`): the commits, per-file diffs with
rename detection, and line-range history (what ``git log -L a,b:path OLD..NEW`` shows).

`load_history` runs two ``git log`` processes for a whole set of paths: one ``--raw -M`` over the
range to follow the paths through renames, one ``-p -U0`` limited to the names they had. Line
ranges are then mapped through the diff hunks in Python with the rules of git's line-log.c, so
no ``git log -L`` runs per range (tests compare the two on real repositories).

Only the first-parent chain is followed: a merge counts as one change against its first parent.
Every diff is asked for with the options that make its hunks git's own (myers, no indent
heuristic, no context) and with no program the repository configures (``--no-ext-diff
--no-textconv``, see evidence/git/repo.py).
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from evidence.git.process import RevisionError

if TYPE_CHECKING:
    import git

__all__ = [
    "CommitInfo",
    "FileChange",
    "History",
    "Hunk",
    "Ranges",
    "commits_between",
    "load_history",
    "map_ranges",
    "commit_patch",
    "path_diff",
]

#: 0-based half-open line ranges, sorted, disjoint, none empty (git's range_set)
Ranges = tuple[tuple[int, int], ...]

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
_LOG_OPTIONS = (
    "--first-parent",
    "--diff-merges=first-parent",
    "--no-show-signature",
    "--no-notes",
    "--encoding=UTF-8",
    "--no-abbrev",
    "-z",
)
_HUNK = re.compile(rb"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


@dataclass(frozen=True)
class CommitInfo:
    """A commit as drift reports it."""

    id: str
    subject: str
    author: str
    date: str  # author date, ISO 8601
    parents: tuple[str, ...] = ()

    def as_json(self) -> dict[str, str]:
        """The ``{"id", "subject", "author", "date"}`` of `assay check --against`."""
        return {"id": self.id, "subject": self.subject, "author": self.author, "date": self.date}


@dataclass(frozen=True)
class Hunk:
    """One hunk of a zero-context diff: 0-based starts and counts, as xdiff gives them."""

    old_start: int
    old_count: int
    new_start: int
    new_count: int


@dataclass(frozen=True)
class FileChange:
    """What one commit did to one file: paths before and after (None: added / deleted)."""

    commit: CommitInfo
    old_path: str | None
    new_path: str | None
    status: str  # git's raw status letter: M, A, D, R, T ...
    hunks: tuple[Hunk, ...] = ()


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
        fields = out[at + 1 :].split(b"\x00", 5)
        ident, parents, author, date, subject = (f.decode("utf-8", "replace") for f in fields[:5])
        commit = CommitInfo(ident, subject, author, date, tuple(parents.split()))
        cursor = at + 1 + sum(len(f) + 1 for f in fields[:5])
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
        for index, (status, old, new) in enumerate(entries):
            hunks = sections[index] if index < len(sections) else ()
            if status == "T":  # a type change is printed as a deletion and a creation
                hunks = ()
            changes.append(FileChange(commit, old, new, status, hunks))
        result.append((commit, changes))
        at = -1 if following == -1 else following + 1
    return result


def _patch_sections(patch: bytes) -> list[tuple[Hunk, ...]]:
    sections: list[list[Hunk]] = []
    for line in patch.split(b"\n"):
        if line.startswith(b"diff --git "):
            sections.append([])
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
    return [tuple(section) for section in sections]


def _range_spec(old: str, new: str) -> str:
    return f"{old}..{new}"


def commits_between(repo: git.Repo, old: str, new: str) -> list[CommitInfo]:
    """The commits reachable from `new` and not from `old`, newest first."""
    out = _git(repo, "log", _FORMAT, "-z", "--no-show-signature", "--encoding=UTF-8",
               _range_spec(old, new), "--")  # fmt: skip
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


# --- line ranges ---------------------------------------------------------------------------------


def _normalize(ranges: Iterable[tuple[int, int]]) -> Ranges:
    """Sorted, empty ranges dropped, overlapping or adjacent ones merged (git merges both)."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(r for r in ranges if r[0] < r[1]):
        if merged and merged[-1][1] >= start:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return tuple(merged)


def _difference(ranges: Ranges, cuts: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for start, end in ranges:
        pieces = [(start, end)]
        for cut_start, cut_end in cuts:
            next_pieces = []
            for a, b in pieces:
                if cut_end <= a or b <= cut_start:
                    next_pieces.append((a, b))
                    continue
                if a < cut_start:
                    next_pieces.append((a, cut_start))
                if cut_end < b:
                    next_pieces.append((cut_end, b))
            pieces = next_pieces
        out.extend(p for p in pieces if p[0] < p[1])
    return out


def _old(hunk: Hunk) -> tuple[int, int]:
    return hunk.old_start, hunk.old_start + hunk.old_count


def _new(hunk: Hunk) -> tuple[int, int]:
    return hunk.new_start, hunk.new_start + hunk.new_count


def map_ranges(ranges: Ranges, hunks: Sequence[Hunk], *, forward: bool) -> tuple[Ranges, bool]:
    """`ranges` carried across one file diff, and whether a hunk touched them.

    Backward (new to old) is line-log.c's range_set_map_across_diff: the hunks overlapping a
    range are touched, the rest of the range shifts by the hunks before it, and the touched
    hunks' other side is added. Forward applies the same rule with the sides swapped."""
    sides = (_new, _old) if forward else (_old, _new)
    pairs = [(sides[0](h), sides[1](h)) for h in hunks]
    # pairs: (other side, this side); `ranges` are on this side
    touched = [
        (other, this)
        for other, this in pairs
        if any(not (this[1] <= a or b <= this[0]) for a, b in ranges)
    ]
    rest = _normalize(_difference(ranges, [this for _, this in touched]))
    shifted: list[tuple[int, int]] = []
    index, offset = 0, 0
    for start, end in rest:
        while index < len(pairs) and start >= pairs[index][1][0]:
            other, this = pairs[index]
            offset += (other[1] - other[0]) - (this[1] - this[0])
            index += 1
        shifted.append((start + offset, end + offset))
    return _normalize([*shifted, *(other for other, _ in touched)]), bool(touched)


# --- the history of a set of paths --------------------------------------------------------------


@dataclass
class History:
    """The first-parent changes between `old` and `new` of the files that held some paths at
    `old`; `linear` is False when `old` is not on `new`'s first-parent chain (one step, the
    whole diff, stands for all the commits then)."""

    old: str
    new: str
    commits: tuple[CommitInfo, ...]  # oldest first
    changes: tuple[tuple[FileChange, ...], ...]  # per commit, the files of interest
    linear: bool = True
    _by_old: dict[tuple[int, str], FileChange] = field(default_factory=dict, repr=False)
    _by_new: dict[tuple[int, str], FileChange] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        for number, changes in enumerate(self.changes):
            for change in changes:
                if change.old_path is not None:
                    self._by_old[number, change.old_path] = change
                if change.new_path is not None:
                    self._by_new[number, change.new_path] = change

    def path_at_new(self, path: str) -> tuple[str | None, list[FileChange]]:
        """Where the file at `path` in `old` is in `new` (None: deleted), and its changes."""
        current: str | None = path
        steps: list[FileChange] = []
        for number in range(len(self.changes)):
            if current is None:
                break
            change = self._by_old.get((number, current))
            if change is None:
                continue
            steps.append(change)
            current = change.new_path
        return current, steps

    def follow(self, path: str, ranges: Ranges) -> tuple[str | None, Ranges, list[CommitInfo]]:
        """Lines of the file at `path` in `old` carried to `new`: the path there (None when
        deleted), the ranges there, and the commits that touched them, newest first."""
        current, steps = self.path_at_new(path)
        touched: list[CommitInfo] = []
        for change in steps:
            ranges, hit = map_ranges(ranges, change.hunks, forward=True)
            if hit and change.commit.id:
                touched.append(change.commit)
            if not ranges:
                break
        return current, ranges, touched[::-1]

    def line_log(self, path: str, ranges: Ranges) -> list[CommitInfo]:
        """The commits of ``git log -L`` for `ranges` of `path` at `new`, newest first."""
        current: str | None = path
        found: list[CommitInfo] = []
        for number in range(len(self.changes) - 1, -1, -1):
            if current is None or not ranges:
                break
            change = self._by_new.get((number, current))
            if change is None:
                continue
            ranges, hit = map_ranges(ranges, change.hunks, forward=False)
            if hit and change.commit.id:
                found.append(change.commit)
            current = change.old_path
        return found


def _names(entries: list[tuple[CommitInfo, list[FileChange]]], paths: Iterable[str]) -> set[str]:
    """Every name the files at `paths` take through the range (renames followed)."""
    names = set(paths)
    current = {path: path for path in names}  # name now -> name at old
    for _, changes in entries:
        for change in changes:
            if change.old_path in current and change.new_path != change.old_path:
                origin = current.pop(change.old_path)
                if change.new_path is not None:
                    current[change.new_path] = origin
                    names.add(change.new_path)
    return names


def load_history(repo: git.Repo, old: str, new: str, paths: Iterable[str]) -> History:
    """The changes between commits `old` and `new` of the files at `paths` in `old`."""
    paths = list(paths)
    spec = _range_spec(old, new)
    raw = _parse_log(_git(repo, "log", _FORMAT, *_LOG_OPTIONS, *_DIFF_OPTIONS, "--raw",
                          "--reverse", spec, "--"))  # fmt: skip
    chain = [commit for commit, _ in raw]
    linear = not chain or (chain[0].parents[:1] == (old,))
    if not linear:
        direct = path_changes(repo, old, new, paths)
        return History(old, new, (), (tuple(direct),), linear=False)
    names = _names(raw, paths)
    touched = {c.old_path for _, cs in raw for c in cs} | {c.new_path for _, cs in raw for c in cs}
    wanted = sorted(name for name in names & touched if name)
    by_commit: dict[str, list[FileChange]] = {}
    if wanted:
        # the names on standard input: one command line, however many, so renames pair up
        listing = "--\n" + "".join(f":(literal){name}\n" for name in wanted)
        out = _git(repo, "log", _FORMAT, *_LOG_OPTIONS, *_DIFF_OPTIONS, "--raw", "-p", "-U0",
                   "--stdin", spec, stdin=listing.encode("utf-8", "surrogateescape"))  # fmt: skip
        for commit, found in _parse_log(out):
            by_commit.setdefault(commit.id, []).extend(found)
    changes = tuple(tuple(by_commit.get(commit.id, ())) for commit in chain)
    return History(old, new, tuple(chain), changes)


def path_changes(repo: git.Repo, old: str, new: str, paths: Iterable[str]) -> list[FileChange]:
    """The direct diff of `old` against `new` for the files at `paths` in `old`."""
    raw = _git(repo, "diff", *_DIFF_OPTIONS, "--raw", "-z", "--no-abbrev", old, new, "--")
    step = CommitInfo("", "", "", "")
    entries = _parse_log(b"\x01" + b"\x00" * 5 + b"\n" + raw)
    wanted = {c.old_path for _, cs in entries for c in cs if c.old_path} & set(paths)
    names = sorted(_names(entries, wanted))
    if not names:
        return []
    pathspecs = [":(literal)" + name for name in names]
    patch = _git(repo, "diff", *_DIFF_OPTIONS, "--raw", "-z", "-p", "-U0", old, new, "--",
                 *pathspecs)  # fmt: skip
    parsed = _parse_log(b"\x01" + b"\x00" * 5 + b"\n" + patch)
    return [
        FileChange(step, c.old_path, c.new_path, c.status, c.hunks) for _, cs in parsed for c in cs
    ]
