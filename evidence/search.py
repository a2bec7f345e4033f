"""A search of one revision, as rg would search its checkout: git grep's hits in the tree, the
lines of texts git reads otherwise (Windows-1252, read as `Revision.read` reads them) or counts
binary (UTF-16), the Git LFS contents the clone has, and the hits in its submodules.

UI-free; `Revision.grep` (evidence/revision.py) is the way in. The revision is seen through
`Searched`, what a search needs of it, so that this module does not import that one.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from functools import cached_property, partial
from itertools import chain
from pathlib import Path
from typing import Any, Protocol

from evidence.git import grep as git_grep
from evidence.git.grep import GrepHit, Syntax
from evidence.git.process import RevisionError
from evidence.git.spelling import TreeSpelling, Unsearched
from evidence.git.submodules import inside_submodules
from evidence.git.tree import TreeEntry, normalize_path
from evidence.model import FileState
from evidence.source_file import SourceFile

__all__ = ["RevisionSearch", "Searched"]


class Searched(Protocol):
    """What a search needs of a revision."""

    git_dir: Path
    commit: str
    root: str
    short: str

    def entries(self) -> dict[str, TreeEntry]: ...
    def read(self, path: str) -> SourceFile: ...
    def read_blob(self, oid: str) -> bytes: ...
    def spelling(self) -> TreeSpelling: ...
    def has_pcre(self) -> bool: ...
    def lfs_present(self) -> bool: ...
    def submodule(self, path: str, commit: str) -> Searched | None: ...

    def grep(
        self,
        pattern: str,
        *,
        fixed: bool = ...,
        ignore_case: bool = ...,
        paths: Any = ...,
        cancel: threading.Event | None = ...,
        syntax: Syntax = ...,
        word: bool = ...,
    ) -> Iterator[GrepHit]: ...


class RevisionSearch:
    """Searches of one revision; what they learn of its tree once (its UTF-16 texts) is kept."""

    def __init__(self, revision: Searched) -> None:
        self.revision = revision

    def grep(
        self, pattern: str, paths: list[str], cancel: threading.Event | None, **how: Any
    ) -> Iterator[GrepHit]:
        """`Revision.grep`: ``how`` holds its fixed, ignore_case, syntax and word."""
        revision = self.revision
        wanted = [self._searched_name(path) for path in paths]
        links = git_grep.gitlinks(revision.git_dir, revision.commit)  # as rg searches them
        here, into = inside_submodules(wanted, links, revision.root)
        inner = {link: revision.submodule(link, links[link]) for link in into}
        lacked = {
            f"{link}/{path}": link for link in into if inner[link] is None for path in into[link]
        }
        if lacked:  # asked for by name: not found, as the search would say nothing
            raise RevisionError(Unsearched(list(lacked), lacked).said(revision.short))
        hits = self._grep_here(pattern, here, cancel, **how) if here or not wanted else iter(())
        searches = []
        for link, found in sorted(inner.items()):
            try:  # a path it lacks is said now, as this repository's are
                inside = (
                    found.grep(pattern, paths=into[link], cancel=cancel, **how) if found else ()
                )
            except RevisionError as error:
                raise RevisionError(f"in the submodule {link}: {error}") from None
            searches.append(git_grep.prefixed(link, inside))
        return chain(hits, *searches)

    def _grep_here(
        self,
        pattern: str,
        wanted: list[str],
        cancel: threading.Event | None,
        *,
        fixed: bool,
        ignore_case: bool,
        syntax: Syntax,
        word: bool,
    ) -> Iterator[GrepHit]:
        """`grep` in this repository's own tree (its submodules' commits hold no lines)."""
        revision = self.revision
        git_dir, commit = revision.git_dir, revision.commit
        spell = revision.root or not git_grep.held_as_written(git_dir, commit, wanted)
        try:
            paths = revision.spelling().searched(wanted) if spell else wanted
        except Unsearched as lacking:
            raise RevisionError(lacking.said(revision.short)) from None
        hits = git_grep.grep(
            git_dir,
            commit,
            pattern,
            fixed=fixed,
            ignore_case=ignore_case,
            paths=paths,
            cancel=cancel,
            syntax=syntax,
            word=word,
            has_pcre=revision.has_pcre,
            read_file=self._file_bytes,
        )
        spans = git_grep.matcher(
            pattern, fixed=fixed, ignore_case=ignore_case, syntax=syntax, word=word
        )
        hits = git_grep.as_read(hits, self._eight_bit_lines, spans)
        wide = partial(self._wide_texts, paths)  # UTF-16 texts: git counts them binary
        hits = git_grep.then_read(hits, spans, wide, self._wide_lines, cancel)
        if not revision.lfs_present():
            return hits
        return git_grep.with_lfs_content(
            hits,
            spans,
            revision.entries(),
            revision.read_blob,
            partial(git_grep.pointer_paths, git_dir, commit, paths),  # after git's
            self._lfs_lines,
            cancel,
        )

    @cached_property
    def _wide(self) -> list[str]:
        commit = self.revision.commit
        known = _wide_known(commit)
        if known is None:  # reading every blob of the tree: 3 s at 200 MB, once a commit
            known = git_grep.wide_paths(self.revision.git_dir, commit, [])
            _keep_wide(commit, known)
        return known

    def _wide_texts(self, paths: list[str]) -> list[str]:
        """The UTF-16 texts under ``paths``, of the tree's listed once (git reads every file)."""
        return [path for path in self._wide if git_grep.is_under(path, paths)]

    def _wide_lines(self, path: str) -> list[str] | None:
        source = self.revision.read(path)
        return source.lines if source.encoding.startswith("UTF-") and source.text else None

    def _eight_bit_lines(self, path: str) -> list[str] | None:
        source = self.revision.read(path)  # Windows-1252 text, as show reads it (not UTF-8 astray)
        return source.lines if source.encoding != "utf-8" else None

    def _searched_name(self, path: str) -> str:
        """A path given to a search, normalized unless the tree lists it as given (a
        backslash or an end space in a name)."""
        plain = normalize_path(path)
        if plain == path or self.revision.root:
            return plain
        revision = self.revision
        held = git_grep.held_as_written(revision.git_dir, revision.commit, [path])
        return path if held else plain

    def _file_bytes(self, path: str) -> bytes | None:
        entry = self.revision.entries().get(path)
        blob = entry is not None and entry.kind == "blob"
        return self.revision.read_blob(entry.oid) if entry is not None and blob else None

    def _lfs_lines(self, path: str) -> list[str] | None:
        """The lines of an LFS file's content as this clone has it (None: not an LFS file, or
        its content not here)."""
        source = self.revision.read(path)
        return source.lines if source.lfs is not None and source.state is FileState.OK else None


#: the UTF-16 texts of each commit searched, kept in the user cache (a commit's tree never
#: changes): a command's or a relaunched review's first search does not read the tree again
WIDE = "wide"
_WIDE_MAGIC, _WIDE_VERSION = b"assay wide texts\n", 1


def _wide_file(commit: str) -> Path:
    from evidence.cache_files import SUFFIX, user_cache

    return user_cache(WIDE) / f"{commit}{SUFFIX}"


def _wide_known(commit: str) -> list[str] | None:
    from evidence.cache_files import read

    def decoded(paths: object) -> list[str] | None:
        ok = isinstance(paths, list) and all(isinstance(path, str) for path in paths)
        return paths if ok else None  # type: ignore[return-value]

    return read(_wide_file(commit), _WIDE_MAGIC, _WIDE_VERSION, commit, decoded)


def _keep_wide(commit: str, paths: list[str]) -> None:
    from evidence.cache_files import prune, write

    path = _wide_file(commit)
    if write(path, _WIDE_MAGIC, _WIDE_VERSION, commit, paths):
        prune(path.parent, keep=4096, max_bytes=64 * 1024 * 1024)
