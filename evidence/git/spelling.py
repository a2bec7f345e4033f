"""A cited path as the tree spells it: through symlinked directories and the other Unicode form
of its name, or inside a submodule (whose files another repository holds).

Reports are written far from the tree they cite: a name typed on one system is composed (NFC,
"café") where macOS wrote it decomposed (NFD); a path goes through a directory that is a
symlink in the tree (``docs -> site/docs``); vendored code sits in a submodule. Git finds none
of these by the path as written, and each would read "file missing". Pure: it works on the
entries of `git ls-tree` and a reader of symlink targets, so it is tested without git.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping
from typing import NamedTuple

from evidence.git.tree import TreeEntry, normalize_path

__all__ = ["ENDING_NOTE", "Spelled", "TreeSpelling", "Unsearched", "link_target"]

#: how the note of a path read as the tree's file it ends with starts (`TreeSpelling.ending`)
ENDING_NOTE = "path read as"
#: symlinks followed in one path before it counts as a loop
MAX_HOPS = 8


class Unsearched(ValueError):
    """Paths given to a search that the tree does not hold (nor a link in it leads to), and
    those inside a submodule (``inside``: the path to the submodule's)."""

    def __init__(self, paths: list[str], inside: dict[str, str]) -> None:
        super().__init__(", ".join(paths))
        self.paths = paths
        self.inside = inside

    def said(self, short: str) -> str:
        """Why a search cannot cover its paths, at the revision ``short``."""
        return "; ".join(
            f"{path} is inside the submodule {self.inside[path]}, which this clone does not have"
            if path in self.inside
            else f"{path}: no such file or directory at {short}"
            for path in self.paths
        )


class Spelled(NamedTuple):
    """Where a cited path is in the tree."""

    path: str  # the tree's path when found, else the path as cited (normalized)
    found: bool
    via: str = ""  # how it was found when not as written (a symlink, another Unicode form)
    submodule: tuple[str, str] | None = None  # (its path, its commit): the path is inside it


def link_target(link: str, target: str) -> str | None:
    """The tree path a symlink at ``link`` pointing at ``target`` names; None when it leaves
    the tree (absolute, or above the root)."""
    if target.startswith("/"):
        return None
    parts = link.split("/")[:-1]
    for part in target.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if not parts:
                return None
            parts.pop()
        else:
            parts.append(part)
    return "/".join(parts)


class TreeSpelling:
    """Finds cited paths in one tree's entries (``read_link``: a symlink entry's target)."""

    def __init__(
        self,
        entries: Mapping[str, TreeEntry],
        read_link: Callable[[TreeEntry], str],
        *,
        root: str = "",
    ) -> None:
        """``root``: the directory cited paths are relative to (a system inside a monorepo);
        a path not under it is looked for from the top, saying so."""
        self._entries = entries
        self._read_link = read_link
        self._targets: dict[str, str] = {}  # a link's target by its blob: read once
        self._root = normalize_path(root)
        self._composed: dict[str, str | None] | None = None  # NFC name -> the tree's, if one
        self._directories: set[str] | None = None  # every directory of the tree, when asked
        self._composed_directories: dict[str, str | None] | None = None

    def find(self, path: str) -> Spelled:
        """The tree's path for ``path`` (under the root first), following symlinked
        directories on the way."""
        return self._find_cited(normalize_path(path))

    def ending(self, path: str) -> Spelled | None:
        """The tree's file that the longest ending of ``path`` names, keeping a directory:
        a path of the writer's checkout (``/home/me/work/app/src/a.py``, ``C:\\work\\app\\
        src\\a.py``, ``../app/src/a.py``) is the tree's ``src/a.py``. A file name alone
        (``a.py``) names any directory's, and is not taken; nor is a path whose first directory
        is the tree's (``services/billing/api/server.py`` when ``services/`` holds no billing):
        that is a wrong path here, not another checkout's. Only a report's quote is read so
        (`Revision.read`'s ``ending``): a SARIF path is the repository's (SARIF 3.4.4), and a
        cited path stays as written, its near miss suggested."""
        path = normalize_path(path)
        parts = path.split("/")
        if len(parts) < 3 or self._here(parts[0]):
            return None
        for start in range(1, len(parts) - 1):
            spelled = self._find_cited("/".join(parts[start:]))
            if spelled.found or spelled.submodule is not None:
                read = (
                    f"{ENDING_NOTE} {spelled.path}, the tree's file it ends with"
                    f" ({path} is not in the tree)"
                )
                return spelled._replace(via="; ".join(note for note in (read, spelled.via) if note))
        return None

    def _here(self, directory: str) -> bool:
        """``directory`` is one of the tree's (under the root, or at the top)."""
        directories = self._tree_directories()
        under = f"{self._root}/{directory}" if self._root else directory
        return under in directories or directory in directories

    def _tree_directories(self) -> set[str]:
        """Every directory of the tree (built when first asked)."""
        if self._directories is None:
            self._directories = {name[:end] for name in self._entries for end in _slashes(name)}
        return self._directories

    def _find_cited(self, path: str) -> Spelled:
        if not self._root:
            return self._find(path)
        if path == self._root or path.startswith(self._root + "/"):
            # a path of the whole tree (grep's, the finder's) as written first
            whole = self._find(path)
            if whole.found or whole.submodule is not None:
                return whole
            under = self._find(f"{self._root}/{path}")
            return under if under.found or under.submodule is not None else whole
        under = self._find(f"{self._root}/{path}" if path else self._root)
        if under.found or under.submodule is not None:
            return under
        top = self._find(path)
        if not top.found and top.submodule is None:
            return Spelled(path, False, under.via)
        read = f"{path} is not under {self._root}: read from the top of the tree"
        return top._replace(via="; ".join(note for note in (read, top.via) if note))

    def searched(self, paths: list[str]) -> list[str]:
        """What a search of ``paths`` covers, each as the tree spells it (no path: the root):
        under the root first (as a search run there would), through symlinks (rg and grep
        follow a link they are given), in the other Unicode form of a name. `Unsearched` names
        the paths the tree does not hold (a search of them would find nothing, and say so)."""
        root = self._root
        if not paths:
            return [root] if root else []
        found: list[str] = []
        lacking: list[str] = []
        inside: dict[str, str] = {}
        for path in map(normalize_path, paths):
            if path in ("", "."):
                found.append(root)
                continue
            tried = [path]
            if root and path != root and not path.startswith(root + "/"):
                tried.insert(0, f"{root}/{path}")
            spelled = next(filter(None, map(self._searched_as, tried)), None)
            if spelled is None:
                lacking.append(path)
                submodule = next(filter(None, (self._find(p).submodule for p in tried)), None)
                if submodule is not None:
                    inside[path] = submodule[0]
            else:
                found.append(spelled)
        if lacking:
            raise Unsearched(lacking, inside)
        return found

    def _searched_as(self, path: str) -> str | None:
        """The tree's file or directory that a search of ``path`` covers, links followed."""
        for _ in range(MAX_HOPS + 1):
            spelled = self._find(path)
            if spelled.submodule is not None:
                return None  # git searches no submodule: nothing there would be found
            if spelled.found:
                entry = self._entries[spelled.path]
                if entry.kind != "link":
                    return spelled.path
                target = link_target(spelled.path, self.target(entry))
                if target is None:
                    return None
                path = target
                continue
            directory = self._directory(path)
            if directory is not None:
                return directory
            step = self._through_prefix(path)
            if not isinstance(step, tuple):
                return None
            path = step[0]
        return None

    def directory(self, path: str) -> str | None:
        """The tree's directory ``path`` names (under the root first), through symlinks and
        in the other Unicode form of its name; None when it names none."""
        path = normalize_path(path).rstrip("/")
        tried = [f"{self._root}/{path}".rstrip("/"), path] if self._root else [path]
        for candidate in tried:
            found = self._searched_as(candidate)
            if found is not None and self._directory(found) == found:
                return found
        return None

    def _directory(self, path: str) -> str | None:
        """``path`` when it is a directory of the tree, or the one directory it names in the
        other Unicode form."""
        if path in self._tree_directories():
            return path
        if path.isascii():
            return None
        if self._composed_directories is None:
            composed: dict[str, str | None] = {}
            for name in self._tree_directories():
                if not name.isascii():
                    key = unicodedata.normalize("NFC", name)
                    composed[key] = None if key in composed else name
            self._composed_directories = composed
        return self._composed_directories.get(unicodedata.normalize("NFC", path))

    def target(self, entry: TreeEntry) -> str:
        """What a symlink entry points at, as written (each link read once)."""
        found = self._targets.get(entry.oid)
        if found is None:
            found = self._targets[entry.oid] = self._read_link(entry)
        return found

    def _find(self, path: str) -> Spelled:
        cited = path
        via: list[str] = []
        for _ in range(MAX_HOPS + 1):
            if path in self._entries:
                return Spelled(path, True, "; ".join(via))
            other = self._other_form(path)
            if other is not None:
                via.append(f"{path} is spelled {ascii(other)[1:-1]} in the tree")
                return Spelled(other, True, "; ".join(via))
            step = self._through_prefix(path)
            if isinstance(step, Spelled):
                return step._replace(via="; ".join(via)) if via else step
            if step is None:
                break
            path, note = step
            via.append(note)
        return Spelled(cited, False, "; ".join(via))

    def resolve(self, path: str, *, ending: bool = False) -> str | None:
        """The file a path finally names, symlinks (of files and directories) followed; None
        when it is not in the tree or a link leaves it. With ``ending``, a path the tree
        holds only by its ending (`ending`) names that file."""
        spelled = self.find(path)
        if ending and not spelled.found and spelled.submodule is None:
            spelled = self.ending(path) or spelled
        path = spelled.path
        for _ in range(MAX_HOPS):
            if not spelled.found:
                return None
            entry = self._entries[path]
            if entry.kind != "link":
                return path
            target = link_target(path, self.target(entry))
            if target is None:
                return None
            spelled = self._find(target)  # a link names a path of the whole tree
            path = spelled.path
        return None

    def _through_prefix(self, path: str) -> tuple[str, str] | Spelled | None:
        """The path with its first symlinked directory replaced by the link's target (and a
        note saying so), a `Spelled` when a submodule or a file holds it, or None."""
        parts = path.split("/")
        for end in range(1, len(parts)):
            prefix = "/".join(parts[:end])
            entry = self._entries.get(prefix)
            if entry is None:
                continue
            if entry.kind == "commit":
                return Spelled(path, False, submodule=(prefix, entry.oid))
            if entry.kind != "link":
                return None  # a file where a directory should be
            raw = self.target(entry)
            target = link_target(prefix, raw)
            if target is None:
                return None
            rest = "/".join(parts[end:])
            return (f"{target}/{rest}" if target else rest), f"{prefix} is a symlink to {raw}"
        return None

    def _other_form(self, path: str) -> str | None:
        """The one tree path equal to ``path`` in Unicode's composed form (NFC), if any."""
        if path.isascii():
            return None
        if self._composed is None:
            composed: dict[str, str | None] = {}
            for name in self._entries:
                if not name.isascii():
                    key = unicodedata.normalize("NFC", name)
                    composed[key] = None if key in composed else name  # two: not guessed
            self._composed = composed
        return self._composed.get(unicodedata.normalize("NFC", path))


def _slashes(path: str) -> list[int]:
    """Where each directory of ``path`` ends (the index of each "/")."""
    return [index for index, char in enumerate(path) if char == "/"]
