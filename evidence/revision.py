"""A read-only view of one git revision, safe to use on an untrusted repository.

Every read is git plumbing (evidence/git/) with the safe environment and ``-c`` options of
evidence/git/process.py: `rev-parse` resolves the revision (a plain subprocess: no GitPython
before the app's first frame); the tree, blobs, the commit's subject and author and the remotes
come through GitPython (evidence/git/reader.py), opened on first use; `grep` streams from a
subprocess. Nothing reads the work tree or the index; a Git LFS file's content is read, as data,
from the LFS objects when its SHA-256 is its pointer's (evidence/git/lfs.py).
"""

from __future__ import annotations

import os
import stat
import threading
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from functools import cached_property
from pathlib import Path

from evidence.git.blobs import (
    BINARY_PROBE,
    DEFAULT_CACHE_CHARS,
    Decoded,
    TextCache,
    decode_blob,
    has_wide_mark,
)
from evidence.git.grep import BadPattern, GrepHit, Syntax
from evidence.git.lfs import LfsObjects, parse_pointer
from evidence.git.objects import holds_object
from evidence.git.process import (
    SAFE_CONFIG,
    MissingObjectError,
    RevisionError,
    error_line,
    run_git,
    safe_environment,
)
from evidence.git.reader import CommitSummary, RepoReader
from evidence.git.resolve import resolve_commit
from evidence.git.spelling import Spelled, TreeSpelling
from evidence.git.tree import TreeEntry, normalize_path, parse_tree
from evidence.model import FileState
from evidence.search import RevisionSearch
from evidence.source_file import SourceFile
from evidence.text import shown_path

__all__ = [
    "BINARY_PROBE",
    "BadPattern",
    "DEFAULT_CACHE_CHARS",
    "DEFAULT_MAX_SIZE",
    "SAFE_CONFIG",
    "CommitSummary",
    "GrepHit",
    "MissingObjectError",
    "Revision",
    "RevisionError",
    "SourceFile",
    "Syntax",
    "TreeEntry",
    "decode_blob",
    "holds_object",
    "normalize_path",
    "safe_environment",
]

#: files larger than this are reported as ``too_large`` and never decoded
DEFAULT_MAX_SIZE = 5 * 1024 * 1024


class Revision:
    """One commit of one repository, read through git plumbing only."""

    def __init__(
        self,
        repo_path: Path,
        git_dir: Path,
        commit: str,
        *,
        max_size: int = DEFAULT_MAX_SIZE,
        cache_chars: int = DEFAULT_CACHE_CHARS,
        root: str = "",
    ) -> None:
        self.repo_path = repo_path
        #: the directory of the tree that cited paths are relative to ("": the top), when the
        #: repository was opened at a directory inside its work tree (a monorepo's system)
        self.root = root
        self.git_dir = git_dir
        self.commit = commit
        self.short = commit[:7]
        self.max_size = max_size
        self._texts = TextCache(cache_chars)
        self._git = RepoReader(git_dir, repo_path, f"revision {self.short} of {repo_path}")
        self._entries: dict[str, TreeEntry] | None = None
        self._entries_lock = threading.Lock()
        self._spelling: TreeSpelling | None = None
        self._submodules: dict[str, Revision | None] = {}
        self._submodules_lock = threading.Lock()
        self._lfs = LfsObjects(self._git.lfs_directories)

    # --- opening ---------------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        repo: str | Path,
        rev: str | None = None,
        *,
        max_size: int = DEFAULT_MAX_SIZE,
        cache_chars: int = DEFAULT_CACHE_CHARS,
    ) -> Revision:
        """Open `repo` (work tree or bare) at `rev` (None = HEAD); raises RevisionError."""
        repo_path = Path(repo).expanduser()
        try:
            is_directory = stat.S_ISDIR(repo_path.stat().st_mode)
        except (FileNotFoundError, NotADirectoryError):
            raise RevisionError(f"repository {shown_path(repo_path)} does not exist") from None
        except OSError as error:  # a name too long, a loop of links, a directory not searchable
            raise RevisionError(
                f"repository {shown_path(repo_path)} cannot be read ({error.strerror or error})"
            ) from None
        if not is_directory:
            raise RevisionError(f"repository {shown_path(repo_path)} is not a directory")
        found = run_git(None, repo_path, "rev-parse", "--absolute-git-dir", "--show-prefix")
        if found.returncode != 0:
            message = error_line(found.stderr)
            if "safe.directory" in message:  # a repository, but not one git will read
                raise RevisionError(message)
            # git's own "not a git repository (or any of the parent directories): .git" would
            # say it twice; any other reason (a permission, a damaged .git) is given
            why = "" if message.startswith("not a git repository") else f" ({message})"
            raise RevisionError(f"{shown_path(repo_path)} is not a git repository{why}")
        said = found.stdout.split(b"\n")
        git_dir = Path(os.fsdecode(said[0]))
        commit = resolve_commit(git_dir, repo_path, rev)
        # a directory inside a work tree: the reports' paths are read from there first (as git
        # reads ./paths there), and `repo_path` is the work tree's top
        root = os.fsdecode(said[1]).strip("/") if len(said) > 1 else ""
        top = repo_path.resolve()
        for _ in root.split("/") if root else ():
            top = top.parent
        return cls(top, git_dir, commit, max_size=max_size, cache_chars=cache_chars, root=root)

    # --- lifetime --------------------------------------------------------------------------

    def close(self) -> None:
        """Stop the cat-file processes and drop cached texts."""
        self._git.close()
        self._texts.clear()
        for inner in filter(None, self._submodules.values()):
            inner.close()

    def __enter__(self) -> Revision:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Revision({str(self.repo_path)!r}, {self.commit!r})"

    def after_fork(self) -> None:
        """In a forked child process: forget the parent's locks and cat-file process (the child
        starts its own when it needs one; the texts read so far stay cached)."""
        self._entries_lock = threading.Lock()
        self._submodules_lock = threading.Lock()
        self._texts.after_fork()
        self._git.after_fork()
        for inner in filter(None, self._submodules.values()):
            inner.after_fork()

    # --- the tree --------------------------------------------------------------------------

    def entries(self) -> dict[str, TreeEntry]:
        """Every path of the tree at the revision (files, symlinks, submodules)."""
        with self._entries_lock:
            if self._entries is None:
                raw = self._git.run("ls-tree", "-r", "-z", "-l", "--full-tree", self.commit)
                self._entries = parse_tree(raw)
            return self._entries

    def paths(self) -> list[str]:
        """Every path at the revision, sorted."""
        return sorted(self.entries())

    def exists(self, path: str) -> bool:
        """True when `path` is a file, symlink or submodule at the revision (as the tree
        spells it: `spell`; inside a submodule this clone has)."""
        return self.held(path) is True

    def held(self, path: str) -> bool | None:
        """Whether the revision holds `path` (`exists`); None when it is inside a submodule
        this clone does not have, so that nobody here can tell."""
        spelled = self.spell(path)
        if spelled.found or spelled.submodule is None:
            return spelled.found
        inner = self.submodule(*spelled.submodule)
        return None if inner is None else inner.exists(_inner(spelled))

    def spell(self, path: str) -> Spelled:
        """Where a cited path is in the tree: as written, through a symlinked directory, in
        the other Unicode form of its name, or inside a submodule (evidence/git/spelling.py)."""
        return self._spelled().find(path)

    def _spelled(self) -> TreeSpelling:
        entries = self.entries()
        with self._entries_lock:
            if self._spelling is None:
                self._spelling = TreeSpelling(entries, self._link_target, root=self.root)
            return self._spelling

    def _link_target(self, entry: TreeEntry) -> str:
        return self.read_blob(entry.oid).decode("utf-8", "surrogateescape")

    # --- blobs -----------------------------------------------------------------------------

    def read_blob(self, oid: str) -> bytes:
        """The raw bytes of a blob (by id, as listed in `entries()`)."""
        return self._git.read(oid)

    def iter_blobs(self, oids: Sequence[str]) -> Iterator[tuple[str, bytes]]:
        """Stream many blobs through a dedicated cat-file process (for whole-revision scans)."""
        return self._git.stream(oids)

    def scan(self, paths: Iterable[str] | None = None) -> Iterator[tuple[str, bytes]]:
        """Stream (path, bytes) for the files at `paths` (default: every file under the size
        limit) through one cat-file process, caching their decoded texts for later `read`s."""
        entries = self.entries()
        if paths is None:
            chosen = [(e.path, e) for e in entries.values() if e.kind == "blob" and e.size >= 0]
        else:  # each under the name asked for, found as `read` finds it (`spell`)
            chosen = []
            for path in map(normalize_path, paths):
                entry = None if self.root else entries.get(path)
                if entry is None and (spelled := self.spell(path)).found:
                    entry = entries[spelled.path]
                if entry is not None and entry.kind == "blob" and entry.size >= 0:
                    chosen.append((path, entry))
        by_oid: dict[str, list[str]] = {}
        for name, entry in chosen:
            if entry.size <= self.max_size:
                by_oid.setdefault(entry.oid, []).append(name)
        for oid, data in self.iter_blobs(list(by_oid)):
            self._texts.put(oid, self._decode(data))
            for path in by_oid[oid]:
                yield path, data

    def remember_blob(self, oid: str, data: bytes) -> None:
        """Cache the decoded text of a blob read elsewhere (as `scan` does for its files)."""
        self._texts.put(oid, self._decode(data))

    def contents(self, data: bytes) -> bytes:
        """A blob's file content, for the word index: the blob, but what a Git LFS pointer names
        when this clone has it, and UTF-16 or UTF-32 text as UTF-8."""
        if has_wide_mark(data):
            decoded = decode_blob(data)
            return data if decoded.binary else decoded.text.encode("utf-8", "surrogatepass")
        pointer = parse_pointer(data)
        if pointer is None:
            return data
        content = self._lfs.read(pointer, self.max_size, probe=BINARY_PROBE)
        return data if content is None else content

    def _decode(self, data: bytes) -> Decoded:
        """`decode_blob`, and for a Git LFS pointer, its content as this clone has it."""
        pointer = parse_pointer(data)
        if pointer is None:
            return decode_blob(data)
        content = self._lfs.read(pointer, self.max_size)
        decoded = decode_blob(content) if content is not None else Decoded("", False, False)
        decoded.lfs, decoded.absent = pointer, content is None
        return decoded

    def cached_text(self, oid: str) -> str | None:
        """The decoded text of a blob if it is in the cache (binary files are not texts)."""
        decoded = self._texts.get(oid)
        return None if decoded is None or decoded.binary else decoded.text

    def _decoded(self, entry: TreeEntry) -> Decoded:
        cached = self._texts.get(entry.oid)
        if cached is not None:
            return cached
        decoded = self._decode(self.read_blob(entry.oid))
        self._texts.put(entry.oid, decoded)
        return decoded

    def line_count(self, path: str) -> int | None:
        """How many lines the file has at the revision; None when its text is not here (absent,
        binary, too large, a link, in a submodule or in Git LFS not fetched)."""
        source = self.read(path)
        return source.line_count if source.text_here and source.symlink_target is None else None

    def read(self, path: str, *, ending: bool = False) -> SourceFile:
        """The file at `path` at the revision; never raises for a path. A symlink inside the
        tree is followed (`via` says so); one leaving it, or a loop, is read as the link.
        ``ending``: a path the tree does not hold is read as the file it ends with
        (`TreeSpelling.ending`), as a report's quote is; a SARIF path is the repository's."""
        # a name as the tree lists it first: a backslash or an end space is its own (the finder)
        entry = None if self.root else self.entries().get(path)
        path = path if entry is not None else normalize_path(path)
        entry = entry or (None if self.root else self.entries().get(path))
        via = ""
        if entry is None:
            spelled = self.spell(path)
            if ending and not spelled.found and spelled.submodule is None:
                spelled = self._spelled().ending(path) or spelled
            if spelled.submodule is not None:
                return self._read_inside(spelled)
            if not spelled.found:
                directory = self._spelled().directory(path)
                return SourceFile(
                    directory or path, FileState.MISSING, "", directory=bool(directory)
                )
            path, via, entry = spelled.path, spelled.via, self.entries()[spelled.path]
        if entry.kind == "link":
            target = self.resolve_link(path)
            if target is not None and target != path:
                raw = self._spelled().target(entry)  # read by resolve_link
                via = "; ".join(note for note in (via, f"{path} is a symlink to {raw}") if note)
                path, entry = target, self.entries()[target]
        source = self._read_entry(path, entry)
        return replace(source, via=via) if via else source

    def _read_inside(self, spelled: Spelled) -> SourceFile:
        """A file inside a submodule, read in the submodule's repository at the commit this
        revision pins, when this clone has it (evidence/git/submodules.py)."""
        assert spelled.submodule is not None
        prefix, commit = spelled.submodule
        inner = self.submodule(prefix, commit)
        if inner is None:
            return SourceFile(spelled.path, FileState.MISSING, "", inside=spelled.submodule)
        source = inner.read(_inner(spelled))
        read_in = f"read in the submodule {prefix} at commit {commit[:12]}"
        inside = source.inside and (f"{prefix}/{source.inside[0]}", source.inside[1])
        via = "; ".join(note for note in (spelled.via, read_in, source.via) if note)
        return replace(source, path=spelled.path, via=via, inside=inside)

    def submodule(self, path: str, commit: str) -> Revision | None:
        """The submodule at `path` at `commit`, from the repository this clone keeps for it;
        None when it keeps none or that one lacks the commit."""
        from evidence.git.submodules import module_directories, submodule_names

        with self._submodules_lock:
            if path in self._submodules:
                return self._submodules[path]
            names = submodule_names(self.read(".gitmodules").text)
            found = None
            for git_dir in module_directories(self.git_dir, path, names):
                try:
                    pinned = resolve_commit(git_dir, git_dir, commit)
                except RevisionError:
                    continue  # kept, but not fetched as far as this commit
                found = Revision(self.repo_path / path, git_dir, pinned, max_size=self.max_size)
                break
            self._submodules[path] = found
            return found

    def _read_entry(self, path: str, entry: TreeEntry) -> SourceFile:
        if entry.kind == "commit":
            return SourceFile(path, FileState.OK, "", submodule=entry.oid, oid=entry.oid)
        if entry.size > self.max_size:
            return SourceFile(path, FileState.TOO_LARGE, "", size=entry.size, oid=entry.oid)
        try:
            if entry.kind == "link":
                target = self.read_blob(entry.oid).decode("utf-8", "replace")
                return SourceFile(
                    path, FileState.OK, "", symlink_target=target, size=entry.size, oid=entry.oid
                )
            decoded = self._decoded(entry)
        except MissingObjectError:
            return SourceFile(path, FileState.MISSING, "", size=entry.size, oid=entry.oid)
        lfs = decoded.lfs
        size = entry.size if lfs is None else lfs.size
        if lfs is not None and lfs.size > self.max_size:
            return SourceFile(path, FileState.TOO_LARGE, "", size=size, oid=entry.oid, lfs=lfs)
        if decoded.absent:
            return SourceFile(path, FileState.MISSING, "", size=size, oid=entry.oid, lfs=lfs)
        if decoded.binary:
            return SourceFile(path, FileState.BINARY, "", size=size, oid=entry.oid, lfs=lfs)
        return SourceFile(
            path,
            FileState.OK,
            decoded.text,
            invalid_utf8=decoded.invalid_utf8,
            size=size,
            oid=entry.oid,
            lfs=lfs,
            encoding=decoded.encoding,
        )

    def resolve_link(self, path: str, *, ending: bool = False) -> str | None:
        """The file a path finally names, symlinks inside the tree followed (of files and of
        directories on the way); None when it is not in the tree or a link leaves it.
        ``ending``: as `read` takes it."""
        return self._spelled().resolve(path, ending=ending)

    # --- grep ------------------------------------------------------------------------------

    def grep(
        self,
        pattern: str,
        *,
        fixed: bool = False,
        ignore_case: bool = False,
        paths: Iterable[str] = (),
        cancel: threading.Event | None = None,
        syntax: Syntax = "perl",
        word: bool = False,
    ) -> Iterator[GrepHit]:
        """Lines matching `pattern` at the revision, streamed in path order; binary files skipped.

        `syntax` picks the regex dialect when not `fixed` ("perl" falls back to "extended" when
        this git lacks PCRE). A bad pattern, or a path the tree lacks, raises RevisionError.
        The submodules this clone has are searched too, as rg searches a checkout's, their hits
        after this repository's; a path inside one it has not is an error (evidence/search.py).
        """
        how = {"fixed": fixed, "ignore_case": ignore_case, "syntax": syntax, "word": word}
        return self._search.grep(pattern, list(paths), cancel, **how)

    @cached_property
    def _search(self) -> RevisionSearch:
        return RevisionSearch(self)

    def spelling(self) -> TreeSpelling:
        """How cited paths are found in this revision's tree (evidence/git/spelling.py)."""
        return self._spelled()

    def lfs_present(self) -> bool:
        """True when the clone keeps Git LFS objects (a search then reads their contents)."""
        return self._lfs.present()

    @cached_property
    def _pcre(self) -> bool:
        probe = ("grep", "-q", "-P", "-e", "x", self.commit, "--", ":(literal).git-probe")
        return run_git(self.git_dir, self.git_dir, *probe).returncode in (0, 1)

    def has_pcre(self) -> bool:
        """True when this git can grep with Perl-compatible regexes."""
        return self._pcre

    # --- other facts -----------------------------------------------------------------------

    def remote_url(self, name: str = "origin") -> str | None:
        """The configured URL of a remote, as written in the repository's config; without an
        origin, the one remote's (a clone made with `-o github`)."""
        url = self._git.remote_url(name)
        if url is None and name == "origin" and len(names := self._git.remote_names()) == 1:
            return self._git.remote_url(names[0])
        return url

    def commit_summary(self) -> CommitSummary:
        """The revision's subject line, author and author date; RevisionError when unreadable."""
        return self._git.commit_summary(self.commit)


def _inner(spelled: Spelled) -> str:
    """The path inside the submodule that holds a spelled path."""
    assert spelled.submodule is not None
    return spelled.path[len(spelled.submodule[0]) + 1 :]
