"""A search of one revision, as rg would search its checkout: git grep's hits in the tree, the
lines of texts git reads otherwise (Windows-1252, read as `Revision.read` reads them) or counts
binary (UTF-16, UTF-32), line 1 of UTF-8 texts without their byte order mark, the Git LFS
contents the clone has, and the hits in its submodules.

UI-free; `Revision.grep` (evidence/revision.py) is the way in. The revision is seen through
`Searched`, what a search needs of it, so that this module does not import that one.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from functools import cached_property, partial
from itertools import chain
from pathlib import Path
from typing import Any, Protocol

from evidence.git import grep as git_grep
from evidence.git.grep import GrepHit, Syntax
from evidence.git.marks import UTF8_MARK, Marked, marked_paths
from evidence.git.process import RevisionError
from evidence.git.spelling import TreeSpelling, Unsearched
from evidence.git.submodules import inside_submodules
from evidence.git.tree import TreeEntry, normalize_path
from evidence.model import FileState
from evidence.source_file import SourceFile

__all__ = ["RevisionSearch", "Searched"]

#: the spans of a pattern's matches in a line (`evidence.git.grep.matcher`)
_Spans = Callable[[str], tuple[tuple[int, int], ...]]


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
    """Searches of one revision; what they learn of its tree once (its texts that start with a
    byte order mark) is kept."""

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
        judged: set[str] = set()  # the UTF-8 texts whose line 1 git judged, mark and all
        hits = _unmarked(hits, spans, judged)  # before as_read takes the mark off a line astray
        hits = git_grep.as_read(hits, self._eight_bit_lines, spans)
        wide = partial(self._wide_texts, paths)  # UTF-16 and UTF-32 texts: git counts them binary
        hits = git_grep.then_read(hits, spans, wide, self._wide_lines, cancel)
        if not fixed and any(anchor in pattern for anchor in _LINE_START):
            hits = chain(hits, self._first_lines(paths, spans, judged, cancel))
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
    def _marked(self) -> Marked:
        commit = self.revision.commit
        known = _marks_known(commit)
        if known is None:  # reading every blob of the tree: 3 s at 200 MB, once a commit
            known = marked_paths(self.revision.git_dir, commit, [])
            _keep_marks(commit, known)
        return known

    def _wide_texts(self, paths: list[str]) -> list[str]:
        """The UTF-16 and UTF-32 texts under ``paths``, of the tree's listed once (git reads
        every file)."""
        return [path for path in self._marked.wide if git_grep.is_under(path, paths)]

    def _wide_lines(self, path: str) -> list[str] | None:
        source = self.revision.read(path)
        wide = source.encoding in ("UTF-16", "UTF-32")
        return source.lines if wide and source.text else None

    def _first_lines(
        self,
        paths: list[str],
        spans_of: _Spans,
        judged: set[str],
        cancel: threading.Event | None,
    ) -> Iterator[GrepHit]:
        """Line 1 of the UTF-8 texts under ``paths`` that start with a byte order mark, matched
        without it, but those git judged (`_unmarked`): git read line 1 with the mark in front,
        and ``^`` missed it. git reads those lines, far quicker than their blobs are decoded."""
        revision = self.revision
        marked = [p for p in self._marked.utf8 if git_grep.is_under(p, paths) and p not in judged]
        for start in range(0, len(marked), _PATHS_A_RUN):
            if cancel is not None and cancel.is_set():
                return
            firsts = git_grep.grep(
                revision.git_dir,
                revision.commit,
                _UTF8_START,
                fixed=False,
                ignore_case=False,
                paths=marked[start : start + _PATHS_A_RUN],
                cancel=cancel,
                syntax="extended",
                word=False,
                has_pcre=revision.has_pcre,
                read_file=self._file_bytes,
            )
            for hit in git_grep.as_read(firsts, self._eight_bit_lines, spans_of):
                text = hit.text.removeprefix(_MARK)
                spans = spans_of(text)
                if hit.line == 1 and spans:
                    yield GrepHit(hit.path, 1, text, spans)

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


def _unmarked(hits: Iterator[GrepHit], spans_of: _Spans, judged: set[str]) -> Iterator[GrepHit]:
    """git's hits, line 1 of a UTF-8 text with a byte order mark read without it (the paths of
    those go in ``judged``); none where the match needed the mark ("^[^#]" matched it)."""
    for hit in hits:
        if hit.line == 1 and hit.text.startswith(_MARK):
            judged.add(hit.path)
            text = hit.text.removeprefix(_MARK)
            spans = spans_of(text)
            if hit.spans and not spans:  # Python's re agrees with git, but not without the mark
                continue
            hit = GrepHit(hit.path, hit.line, text, spans)
        yield hit


_MARK = UTF8_MARK.decode("utf-8")
#: line 1 of a UTF-8 text with a byte order mark, as git reads it
_UTF8_START = os.fsdecode(b"^" + UTF8_MARK)
#: what a pattern that only matches at a line's start may hold (else the mark is no matter)
_LINE_START = ("^", "\\A", "(?<")
#: the paths one search of line 1 names on git's command line
_PATHS_A_RUN = 500

#: the texts with a byte order mark of each commit searched, kept in the user cache (a commit's
#: tree never changes): a command's or a relaunched review's first search does not read it again
#: (not in "wide", the UTF-16 lists of older versions: each would read the other's as a miss)
MARKS = "marks"
_MARKS_MAGIC, _MARKS_VERSION = b"assay marked texts\n", 1


def _marks_file(commit: str) -> Path:
    from evidence.cache_files import SUFFIX, user_cache

    return user_cache(MARKS) / f"{commit}{SUFFIX}"


def _marks_known(commit: str) -> Marked | None:
    from evidence.cache_files import read

    def decoded(wide: object, utf8: object) -> Marked | None:
        lists = (wide, utf8)
        ok = all(isinstance(v, list) and all(isinstance(p, str) for p in v) for v in lists)
        return Marked(wide, utf8) if ok else None  # type: ignore[arg-type]

    return read(_marks_file(commit), _MARKS_MAGIC, _MARKS_VERSION, commit, decoded)


def _keep_marks(commit: str, marked: Marked) -> None:
    import shutil

    from evidence.cache_files import prune, user_cache, write

    path = _marks_file(commit)
    if write(path, _MARKS_MAGIC, _MARKS_VERSION, commit, marked.wide, marked.utf8):
        prune(path.parent, keep=4096, max_bytes=64 * 1024 * 1024)
        # the older versions' lists, which nothing reads since "marks" replaced them
        shutil.rmtree(user_cache(_UNREAD_LISTS), ignore_errors=True)


#: the cache of the UTF-16 lists kept by the versions of 2026-12-06 (up to 64 MB)
_UNREAD_LISTS = "wide"
