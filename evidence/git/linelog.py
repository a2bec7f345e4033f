"""Line ranges through a loaded history (evidence/git/history.py's `load_history`): carried
forward from the cited commit to the newer one, and back from the newer one the way
``git log -L a,b:path OLD..NEW`` walks, every parent of a merge included.

The backward walk is line-log.c's: commits in git's topological order, newest first; a commit
takes the ranges its children handed it; an ordinary commit is listed when its diff against its
parent touches them; a merge hands everything to the first parent whose diff leaves them alone
(and is not listed), else it is listed and hands each parent what that parent's diff gives. All
the ranges asked for walk together, so a history is walked once, not once per range.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from evidence.git.changes import CommitInfo, FileChange, Ranges, map_ranges, union

__all__ = ["History", "Relation"]

#: entries waiting at a commit: per path, (number of the range asked for, its ranges there)
_Pending = dict[str, list[tuple[int, Ranges]]]


class Relation(StrEnum):
    """How the newer revision stands to the cited one."""

    DESCENDANT = "descendant"  # the cited commit is in its history (or is it)
    DIVERGED = "diverged"  # neither is in the other's history
    ANCESTOR = "ancestor"  # the newer revision is in the cited commit's history
    #: neither found in the other's history, in a shallow clone: git cannot tell (the history
    #: between them may be cut), and lists only the commits it has
    SHALLOW = "shallow"


@dataclass
class History:
    """The changes between `old` and `new` of the files of interest.

    `commits` are those of ``OLD..NEW`` in git's topological order (newest first) and
    `changes` what each did to the files against each of its parents (key: commit number,
    parent number). `chain` is one path of commits from `old` to `new`, oldest first, as
    (commit number, parent number) steps, first parents preferred; a file is followed along its
    own path, which at a merge takes a parent the merge left the file as it was (the branch
    that changed it, as ``git log -- PATH`` does); when `new` does not descend from `old` there
    is no such path and `direct` (the diff of `old` against `new`) stands for it."""

    old: str
    new: str
    relation: Relation
    commits: tuple[CommitInfo, ...]
    changes: dict[tuple[int, int], tuple[FileChange, ...]]
    chain: tuple[tuple[int, int], ...] = ()
    direct: tuple[FileChange, ...] = ()
    #: every (commit, parent) pair's file changes without hunks (renames), and the names loaded
    raw: dict[tuple[int, int], tuple[FileChange, ...]] = field(default_factory=dict, repr=False)
    names: set[str] = field(default_factory=set, repr=False)
    _by_old: dict[tuple[int, int, str], FileChange] = field(default_factory=dict, repr=False)
    _by_new: dict[tuple[int, int, str], FileChange] = field(default_factory=dict, repr=False)
    _touched: dict[tuple[int, int], set[str]] = field(default_factory=dict, repr=False)
    _numbers: dict[str, int] = field(default_factory=dict, repr=False)
    #: per (commit, parent) pair, every name its changes involve (either side)
    _involved: dict[tuple[int, int], set[str]] = field(default_factory=dict, repr=False)
    #: per path at `old`: where it is at `new` and its changes along its forward path
    _paths: dict[str, tuple[str | None, tuple[FileChange, ...]]] = field(
        default_factory=dict, repr=False
    )
    _descends: set[str] | None = field(default=None, repr=False)
    #: the commits from `old`, oldest first, with their parents from `old` (k, id) (read once)
    _from_old: list[tuple[int, list[tuple[int, str]]]] | None = field(default=None, repr=False)
    #: per name, the commits whose diffs against a parent involve it
    _by_name: dict[str, set[int]] | None = field(default=None, repr=False)
    #: per path at `old`: the commits from `old` whose diffs involve it, with their parents
    _steps: dict[str, tuple[list[tuple[int, list[tuple[int, str]]]], str]] = field(
        default_factory=dict, repr=False
    )
    #: the names some merge's diffs involve, and the renames either way (read once)
    _at_merges: set[str] | None = field(default=None, repr=False)
    _links: dict[str, set[str]] | None = field(default=None, repr=False)
    #: per name, the changes of `chain` (or the direct diff): (position on it, change)
    _on_chain: dict[str, list[tuple[int, FileChange]]] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self._numbers = {commit.id: number for number, commit in enumerate(self.commits)}
        self._index(self.changes)
        for change in self.direct:
            if change.old_path is not None:
                self._by_old[-1, 0, change.old_path] = change

    def _index(self, changes: dict[tuple[int, int], tuple[FileChange, ...]]) -> None:
        for (number, parent), found in changes.items():
            for change in found:
                if change.old_path is not None:
                    self._by_old[number, parent, change.old_path] = change
                if change.new_path is not None:
                    self._by_new[number, parent, change.new_path] = change
                    self._touched.setdefault((number, parent), set()).add(change.new_path)
                names = (change.old_path, change.new_path)
                self._involved.setdefault((number, parent), set()).update(n for n in names if n)

    def add_changes(self, changes: dict[tuple[int, int], tuple[FileChange, ...]]) -> None:
        """Take in more files' changes (the files a passage moved to)."""
        for key, found in changes.items():
            self.changes[key] = self.changes.get(key, ()) + found
        self._index(changes)
        self._paths, self._at_merges, self._links, self._on_chain = {}, None, None, None
        self._steps, self._by_name = {}, None

    def _names_of(self, path: str) -> set[str]:
        """Every name the file takes in the changes loaded (renames either way)."""
        if self._links is None:
            self._links = {}
            for found in self.changes.values():
                for change in found:
                    old, new = change.old_path, change.new_path
                    if old and new and old != new:
                        self._links.setdefault(old, set()).add(new)
                        self._links.setdefault(new, set()).add(old)
        names, todo = {path}, [path]
        while todo:
            for other in self._links.get(todo.pop(), set()) - names:
                names.add(other)
                todo.append(other)
        return names

    def _merged(self, names: set[str]) -> bool:
        """Whether a merge's diff against one of its parents involves the file (`names`)."""
        if self._at_merges is None:
            self._at_merges = set()
            for (number, _), involved in self._involved.items():
                if len(self.commits[number].parents) > 1:
                    self._at_merges |= involved
        return not names.isdisjoint(self._at_merges)

    def _quiet_chain(self, names: set[str]) -> tuple[tuple[int, int], ...]:
        """`chain`, but at a merge the first parent descending from `old` whose diff leaves the
        file (`names`) alone, when one does: the commits of the branch that changed it are on
        the way, not the merge that brought them."""
        if self._descends is None:  # the commits `_reached` from `old`
            self._descends = {self.old, *(self.commits[n].id for n, _ in self._reached())}
        descends = self._descends
        steps: list[tuple[int, int]] = []
        number: int | None = 0
        while number is not None:
            commit = self.commits[number]
            ks = [k for k, parent in enumerate(commit.parents) if parent in descends]
            quiet = [k for k in ks if not self._involved.get((number, k), set()) & names]
            k = (quiet or ks)[0]
            steps.append((number, k))
            parent = commit.parents[k]
            number = None if parent == self.old else self._numbers[parent]
        return tuple(reversed(steps))

    def path_at_new(self, path: str) -> tuple[str | None, list[FileChange]]:
        """Where the file at `path` in `old` is in `new` (None: deleted), and its changes on
        the way (along its forward path, or the direct diff)."""
        if self.relation is Relation.DESCENDANT and path not in self._paths:
            names = self._names_of(path)
            if self._merged(names):  # its own path may leave `chain` at a merge
                current: str | None = path
                steps: list[FileChange] = []
                for number, parent in self._quiet_chain(names):
                    change = self._by_old.get((number, parent, current or ""))
                    if current is not None and change is not None:
                        steps.append(change)
                        current = change.new_path
                self._paths[path] = (current, tuple(steps))
        if path in self._paths:
            current, found = self._paths[path]
            return current, list(found)
        return self._along_chain(path)

    def _along_chain(self, path: str) -> tuple[str | None, list[FileChange]]:
        """`path_at_new` along `chain` (or the direct diff)."""
        if self._on_chain is None:
            self._on_chain = {}
            steps = [(-1, 0)] if self.relation is not Relation.DESCENDANT else list(self.chain)
            for position, (number, parent) in enumerate(steps):
                for change in (
                    self.changes.get((number, parent), ()) if number >= 0 else self.direct
                ):
                    if change.old_path is not None:
                        self._on_chain.setdefault(change.old_path, []).append((position, change))
        current: str | None = path
        steps_taken: list[FileChange] = []
        position = -1
        while current is not None:
            later = [(p, c) for p, c in self._on_chain.get(current, ()) if p > position]
            if not later:
                break
            position, change = later[0]
            steps_taken.append(change)
            current = change.new_path
        return current, steps_taken

    def follow(self, path: str, ranges: Ranges) -> tuple[str | None, Ranges, list[CommitInfo]]:
        """Lines of the file at `path` in `old` carried to `new`: the path there (None when
        deleted), the ranges there, and the commits on the way whose diff touched them,
        newest first (none for the direct diff, which is no commit); where the file's own path
        credits a merge, its lines' own path through every side (`_follow_sides`)."""
        current, steps = self.path_at_new(path)
        asked = ranges
        touched: list[CommitInfo] = []
        merged_after = False
        for at, change in enumerate(steps):
            if change.opaque:  # no lines in its diff: the commit that made it binary or a link
                hit = True
            else:
                ranges, hit = map_ranges(ranges, change.hunks, forward=True)
            if hit and change.commit.id:
                touched.append(change.commit)
            if not ranges:
                # deleted on this side: a merge after it may keep them from another side (a
                # conflict resolved with that side's text)
                merged_after = any(len(later.commit.parents) > 1 for later in steps[at + 1 :])
                break
        if merged_after or any(len(commit.parents) > 1 for commit in touched):
            # a merge that changed the file against every parent: another side may hold the
            # lines as the merge left them, and its commits changed them (a branch's deletion)
            return self._follow_sides(path, asked)
        return current, ranges, touched[::-1]

    def _follow_sides(
        self, path: str, ranges: Ranges
    ) -> tuple[str | None, Ranges, list[CommitInfo]]:
        """`follow` through every line of history from `old`: a merge takes the lines from its
        first parent whose diff leaves them alone, with that side's commits (line-log.c's rule,
        forward), preferring a side that holds them (an empty one cannot tell that the merge
        wrote them again); a merge that changed them against every parent wrote them itself,
        and every side's commits led there."""
        steps, last = self._side_steps(path)
        at: dict[str, tuple[str | None, Ranges, frozenset[int]]] = {
            self.old: (path, ranges, frozenset())
        }
        for number, parents in steps:
            sides: list[tuple[bool, str | None, Ranges, frozenset[int]]] = []
            for k, standing in parents:
                current, held, touched = at[standing]
                change = self._by_old.get((number, k, current)) if current is not None else None
                if change is None or not held:  # no lines left for its diff to touch
                    sides.append((False, change.new_path if change else current, held, touched))
                    continue
                if change.opaque:  # no lines in its diff: made binary or a link
                    mapped, hit = held, bool(held)
                else:
                    mapped, hit = map_ranges(held, change.hunks, forward=True)
                sides.append((hit, change.new_path, mapped, touched))
            quiet = [side for side in sides if not side[0]]
            if quiet:
                _, current, held, touched = next((side for side in quiet if side[2]), quiet[0])
            else:
                # the merge wrote them: from its first parent that still holds them (one side
                # deleting the file while the other kept it renamed is no deletion by the merge)
                _, current, held, _ = next((side for side in sides if side[2]), sides[0])
                touched = frozenset({number}).union(*(side[3] for side in sides))
            at[self.commits[number].id] = (current, held, touched)
        current, held, touched = at[last]
        return current, held, [self.commits[number] for number in sorted(touched)]

    def _side_steps(self, path: str) -> tuple[list[tuple[int, list[tuple[int, str]]]], str]:
        """The commits from `old` whose diffs involve the file at `path`, oldest first, each with
        its parents from `old` as (parent number, the commit standing for it), and the commit
        standing for `new`: one that leaves the file alone stands for its first parent from
        `old` (the one ``git log -- PATH`` follows)."""
        if path not in self._steps:
            if self._by_name is None:
                self._by_name = {}
                for (number, _), involved in self._involved.items():
                    for name in involved:
                        self._by_name.setdefault(name, set()).add(number)
            names = self._names_of(path)
            relevant = set().union(*(self._by_name.get(name, set()) for name in names))
            stands = {self.old: self.old}
            steps: list[tuple[int, list[tuple[int, str]]]] = []
            for number, parents in self._reached():
                commit = self.commits[number]
                if number in relevant:
                    stands[commit.id] = commit.id
                    steps.append((number, [(k, stands[p]) for k, p in parents]))
                else:
                    stands[commit.id] = stands[parents[0][1]]
            self._steps[path] = (steps, stands.get(self.new, self.old))
        return self._steps[path]

    def _reached(self) -> list[tuple[int, list[tuple[int, str]]]]:
        """The commits from `old`, oldest first, each with its parents from `old` (k, id)."""
        if self._from_old is None:
            self._from_old, reached = [], {self.old}
            for number in range(len(self.commits) - 1, -1, -1):
                commit = self.commits[number]
                parents = [(k, p) for k, p in enumerate(commit.parents) if p in reached]
                if parents:
                    reached.add(commit.id)
                    self._from_old.append((number, parents))
        return self._from_old

    def line_log(self, path: str, ranges: Ranges) -> list[CommitInfo]:
        """The commits of ``git log -L`` for `ranges` of `path` at `new`, newest first."""
        return self.line_logs([(path, ranges)])[0]

    def line_logs(self, wanted: Sequence[tuple[str, Ranges]]) -> list[list[CommitInfo]]:
        """`line_log` of each (path, ranges) at `new`, in one walk of the history."""
        found: list[list[CommitInfo]] = [[] for _ in wanted]
        if not self.commits or self.commits[0].id != self.new:
            return found
        pending: dict[int, _Pending] = {0: {}}
        for number, (path, ranges) in enumerate(wanted):
            if ranges:
                pending[0].setdefault(path, []).append((number, ranges))
        for number, commit in enumerate(self.commits):
            state = pending.pop(number, None)
            if not state:
                continue
            parents = [self._numbers.get(parent) for parent in commit.parents]
            if len(parents) > 1:
                self._merge(number, commit, parents, state, pending, found)
                continue
            target = parents[0] if parents else None
            touched = self._touched.get((number, 0), set())
            handed: _Pending = {}
            for name in [name for name in state if name in touched]:
                change = self._by_new[number, 0, name]
                for asked, ranges in _consolidated(state.pop(name)):
                    mapped, hit = map_ranges(ranges, change.hunks, forward=False)
                    if hit:
                        _listed(found[asked], commit)
                    if mapped and change.old_path is not None:
                        handed.setdefault(change.old_path, []).append((asked, mapped))
            if target is not None:
                _hand(pending, target, state)
                _hand(pending, target, handed)
        return found

    def _merge(
        self,
        number: int,
        commit: CommitInfo,
        parents: list[int | None],
        state: _Pending,
        pending: dict[int, _Pending],
        found: list[list[CommitInfo]],
    ) -> None:
        touched = set().union(*(self._touched.get((number, k), set()) for k in range(len(parents))))
        # untouched against every parent: the first parent takes them all, as git's walk does
        quiet = {name: entries for name, entries in state.items() if name not in touched}
        if parents[0] is not None:
            _hand(pending, parents[0], quiet)
        by_asked: dict[int, dict[str, Ranges]] = {}
        for name, entries in state.items():
            if name in quiet:
                continue
            for asked, ranges in entries:
                held = by_asked.setdefault(asked, {})
                held[name] = union(held.get(name, ()), ranges)
        for asked, held in by_asked.items():
            candidates: list[_Pending] = []
            for k in range(len(parents)):
                candidate: _Pending = {}
                changed = False
                for name, ranges in held.items():
                    change = self._by_new.get((number, k, name))
                    if change is None:
                        candidate.setdefault(name, []).append((asked, ranges))
                        continue
                    mapped, hit = map_ranges(ranges, change.hunks, forward=False)
                    changed = changed or hit
                    if mapped and change.old_path is not None:
                        candidate.setdefault(change.old_path, []).append((asked, mapped))
                if not changed:
                    candidates = [candidate if j == k else {} for j in range(len(parents))]
                    break
                candidates.append(candidate)
            else:
                _listed(found[asked], commit)
            for k, candidate in enumerate(candidates):
                target = parents[k]
                if target is not None and candidate:
                    _hand(pending, target, candidate)


def _listed(commits: list[CommitInfo], commit: CommitInfo) -> None:
    if not commits or commits[-1] is not commit:
        commits.append(commit)


def _consolidated(entries: list[tuple[int, Ranges]]) -> list[tuple[int, Ranges]]:
    """One entry per range asked for (two children may hand the same one down)."""
    if len(entries) < 2:
        return entries
    held: dict[int, Ranges] = {}
    for asked, ranges in entries:
        held[asked] = union(held.get(asked, ()), ranges)
    return list(held.items())


def _hand(pending: dict[int, _Pending], target: int, entries: _Pending) -> None:
    if not entries:
        return
    there = pending.get(target)
    if there is None:
        pending[target] = entries
        return
    for name, listed in entries.items():
        there.setdefault(name, []).extend(listed)
