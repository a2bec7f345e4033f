"""A read-only view of one git revision, safe to use on an untrusted repository.

Every read goes through git plumbing run by this module: `rev-parse` to resolve the revision,
`ls-tree -r -z -l` for the tree, one long-lived `cat-file --batch` for blobs and `grep` at the
commit. Nothing reads the work tree or the index, and the environment plus `-c` overrides keep
the repository's own configuration from running programs (fsmonitor, hooks, textconv and diff
drivers, pagers, gpg, ssh, lazy fetches of a partial clone, replace refs).
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from types import TracebackType
from typing import IO, Literal

from evidence.model import FileState

#: files larger than this are reported as ``too_large`` and never decoded
DEFAULT_MAX_SIZE = 5 * 1024 * 1024
#: git's own rule: a NUL byte in the first 8000 bytes makes a file binary
BINARY_PROBE = 8000
#: decoded texts kept in memory, by total characters
DEFAULT_CACHE_CHARS = 256 * 1024 * 1024

_HEX40 = re.compile(r"[0-9a-f]{40}")
_REMOTE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._/-]{0,99}")

#: configuration that must not run a program, whatever the repository's config says
SAFE_CONFIG: tuple[str, ...] = (
    "core.fsmonitor=false",
    "core.hooksPath=/dev/null",
    "core.pager=cat",
    "core.sshCommand=false",
    "core.askPass=",
    "core.gitProxy=",
    "core.untrackedCache=false",
    "core.alternateRefsCommand=",
    "credential.helper=",
    "diff.external=",
    "gpg.program=false",
    "gpg.ssh.program=false",
    "gpg.x509.program=false",
    "protocol.allow=never",
    "gc.auto=0",
    "maintenance.auto=false",
    "color.ui=never",
    "grep.fallbackToNoIndex=false",
    "pager.grep=false",
)

#: environment variables that git reads and that a caller's environment must not inject
_DROPPED_ENV_PREFIXES = ("GIT_",)
_DROPPED_ENV = ("SSH_ASKPASS", "PAGER", "EDITOR", "VISUAL")


class RevisionError(Exception):
    """The repository or revision cannot be read; the message says which and why."""


class MissingObjectError(RevisionError):
    """An object the tree names is absent (e.g. a partial clone that may not fetch it)."""


@dataclass(frozen=True)
class TreeEntry:
    """One path of the tree at the revision."""

    path: str
    mode: str  # "100644", "100755", "120000", "160000"
    kind: str  # "blob", "link" or "commit"
    oid: str
    size: int  # 0 for submodules, -1 when the object is missing (partial clone)


@dataclass(frozen=True)
class SourceFile:
    """A file as it is at the revision, decoded for display and anchoring."""

    path: str
    state: FileState
    text: str
    invalid_utf8: bool = False
    symlink_target: str | None = None
    submodule: str | None = None  # the commit a submodule entry points at
    size: int = 0
    oid: str | None = None

    @cached_property
    def lines(self) -> list[str]:
        """The text split at newlines (as git and editors number them), without terminators."""
        if not self.text:
            return []
        lines = self.text.split("\n")
        if lines[-1] == "":
            lines.pop()
        return [line[:-1] if line.endswith("\r") else line for line in lines]

    @property
    def line_count(self) -> int:
        """How many lines the text has."""
        if not self.text:
            return 0
        return self.text.count("\n") + (0 if self.text.endswith("\n") else 1)

    @property
    def problem(self) -> str | None:
        """Why the file has no lines to show (missing, binary, too large, a link...), or None."""
        if self.state is FileState.MISSING:
            return f"{self.path} does not exist at this revision"
        if self.state is FileState.BINARY:
            return f"{self.path} is a binary file ({self.size:,} bytes)"
        if self.state is FileState.TOO_LARGE:
            return f"{self.path} is too large to show ({self.size:,} bytes)"
        if self.symlink_target is not None:
            return f"{self.path} is a symbolic link to {self.symlink_target}"
        if self.submodule is not None:
            return f"{self.path} is a submodule at commit {self.submodule}"
        return None


@dataclass(frozen=True)
class GrepHit:
    """One line matched by a grep at the revision; spans are character offsets in `text`."""

    path: str
    line: int
    text: str
    spans: tuple[tuple[int, int], ...] = ()


Syntax = Literal["basic", "extended", "perl"]


def safe_environment() -> dict[str, str]:
    """The environment every git subprocess runs with."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(_DROPPED_ENV_PREFIXES) and key not in _DROPPED_ENV
    }
    env.update(
        GIT_CONFIG_NOSYSTEM="1",
        GIT_CONFIG_GLOBAL="/dev/null",
        GIT_NO_REPLACE_OBJECTS="1",
        GIT_NO_LAZY_FETCH="1",
        GIT_TERMINAL_PROMPT="0",
        GIT_ASKPASS="",
        SSH_ASKPASS="",
        GIT_ALLOW_PROTOCOL="none",
        GIT_PROTOCOL_FROM_USER="0",
        GIT_OPTIONAL_LOCKS="0",
        GIT_ATTR_NOSYSTEM="1",
        GIT_PAGER="cat",
        GIT_EDITOR="false",
    )
    return env


def _git_base(git_dir: Path | None) -> list[str]:
    command = ["git", "--no-pager", "--no-replace-objects"]
    for setting in SAFE_CONFIG:
        command += ["-c", setting]
    if git_dir is not None:
        command.append(f"--git-dir={git_dir}")
    return command


def _first_line(text: str) -> str:
    for line in text.splitlines():
        line = line.strip()
        if line:
            return line.removeprefix("fatal: ").removeprefix("error: ")
    return "no message"


def _decode_path(raw: bytes) -> str:
    return raw.decode("utf-8", "surrogateescape")


def _is_binary(data: bytes) -> bool:
    return b"\0" in data[:BINARY_PROBE]


def normalize_path(path: str) -> str:
    """A cited path as the tree spells it: no leading ``./`` or ``/``, no backslashes."""
    path = path.strip().replace("\\", "/")
    while path.startswith("./"):
        path = path[2:]
    path = path.lstrip("/")
    while "//" in path:
        path = path.replace("//", "/")
    return path.rstrip("/")


class _Decoded:
    """What is cached per blob id."""

    __slots__ = ("text", "invalid_utf8", "binary")

    def __init__(self, text: str, invalid_utf8: bool, binary: bool) -> None:
        self.text = text
        self.invalid_utf8 = invalid_utf8
        self.binary = binary


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
    ) -> None:
        self.repo_path = repo_path
        self.git_dir = git_dir
        self.commit = commit
        self.short = commit[:7]
        self.max_size = max_size
        self._cache_chars = cache_chars
        self._cached_chars = 0
        self._cache: OrderedDict[str, _Decoded] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._entries: dict[str, TreeEntry] | None = None
        self._entries_lock = threading.Lock()
        self._batch: subprocess.Popen[bytes] | None = None
        self._batch_lock = threading.Lock()
        self._closed = False

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
        if not repo_path.exists():
            raise RevisionError(f"repository {repo_path} does not exist")
        if not repo_path.is_dir():
            raise RevisionError(f"repository {repo_path} is not a directory")
        env = safe_environment()
        found = subprocess.run(
            [*_git_base(None), "rev-parse", "--absolute-git-dir"],
            cwd=repo_path,
            env=env,
            capture_output=True,
            stdin=subprocess.DEVNULL,
            check=False,
        )
        if found.returncode != 0:
            message = _first_line(found.stderr.decode("utf-8", "replace"))
            raise RevisionError(f"{repo_path} is not a git repository ({message})")
        git_dir = Path(os.fsdecode(found.stdout.rstrip(b"\n")))
        commit = cls._resolve(git_dir, repo_path, rev, env)
        return cls(repo_path.resolve(), git_dir, commit, max_size=max_size, cache_chars=cache_chars)

    @staticmethod
    def _resolve(git_dir: Path, repo_path: Path, rev: str | None, env: dict[str, str]) -> str:
        name = "HEAD" if rev is None else rev.strip()
        if not name or "\0" in name or "\n" in name:
            raise RevisionError(f"invalid revision {rev!r}")
        if name.startswith("-"):
            raise RevisionError(f"invalid revision {name!r}: a revision cannot start with '-'")
        result = subprocess.run(
            [
                *_git_base(git_dir),
                "rev-parse",
                "--verify",
                "--quiet",
                "--end-of-options",
                f"{name}^{{commit}}",
            ],
            cwd=git_dir,
            env=env,
            capture_output=True,
            stdin=subprocess.DEVNULL,
            check=False,
        )
        commit = result.stdout.decode("ascii", "replace").strip()
        if result.returncode != 0 or not _HEX40.fullmatch(commit):
            hint = ""
            if (git_dir / "shallow").exists():
                hint = "; the repository is a shallow clone, fetch the full history"
            elif rev is None:
                hint = "; the repository has no commits"
            raise RevisionError(f"revision {name} not found in {repo_path}{hint}")
        return commit

    # --- lifetime --------------------------------------------------------------------------

    def close(self) -> None:
        """Stop the cat-file process and drop cached texts."""
        with self._batch_lock:
            self._closed = True
            batch, self._batch = self._batch, None
            if batch is not None:
                self._stop(batch)
        with self._cache_lock:
            self._cache.clear()
            self._cached_chars = 0

    @staticmethod
    def _stop(process: subprocess.Popen[bytes]) -> None:
        for stream in (process.stdin, process.stdout, process.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        try:
            process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def __enter__(self) -> Revision:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __del__(self) -> None:
        batch = getattr(self, "_batch", None)
        if batch is not None and batch.poll() is None:
            try:
                batch.kill()
                batch.wait(timeout=1)
            except Exception:  # noqa: BLE001 - best effort at interpreter shutdown
                pass

    def __repr__(self) -> str:
        return f"Revision({str(self.repo_path)!r}, {self.commit!r})"

    # --- running git -----------------------------------------------------------------------

    def _command(self, *args: str) -> list[str]:
        return [*_git_base(self.git_dir), *args]

    def _completed(self, *args: str) -> subprocess.CompletedProcess[bytes]:
        """git with `args`, in the safe environment, run to completion (output captured)."""
        return subprocess.run(
            self._command(*args),
            cwd=self.git_dir,
            env=safe_environment(),
            capture_output=True,
            stdin=subprocess.DEVNULL,
            check=False,
        )

    def _start_batch(self) -> subprocess.Popen[bytes]:
        """A `cat-file --batch` process, in the safe environment."""
        return subprocess.Popen(
            self._command("cat-file", "--batch"),
            cwd=self.git_dir,
            env=safe_environment(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )

    def _run(self, *args: str) -> bytes:
        result = self._completed(*args)
        if result.returncode != 0:
            message = _first_line(result.stderr.decode("utf-8", "replace"))
            raise RevisionError(f"git {args[0]} failed in {self.repo_path}: {message}")
        return result.stdout

    # --- the tree --------------------------------------------------------------------------

    def entries(self) -> dict[str, TreeEntry]:
        """Every path of the tree at the revision (files, symlinks, submodules)."""
        with self._entries_lock:
            if self._entries is None:
                self._entries = self._list_tree()
            return self._entries

    def _list_tree(self) -> dict[str, TreeEntry]:
        raw = self._run("ls-tree", "-r", "-z", "-l", "--full-tree", self.commit)
        entries: dict[str, TreeEntry] = {}
        for record in raw.split(b"\0"):
            if not record:
                continue
            meta, _, raw_path = record.partition(b"\t")
            fields = meta.split()
            if len(fields) != 4:
                continue
            mode, kind, oid, size = (field.decode("ascii", "replace") for field in fields)
            path = _decode_path(raw_path)
            if kind == "blob":
                # ls-tree prints "BAD" as the size of an object the repository lacks
                length = int(size) if size.isdigit() else -1
                entries[path] = TreeEntry(
                    path, mode, "link" if mode == "120000" else "blob", oid, length
                )
            elif kind == "commit":
                entries[path] = TreeEntry(path, mode, "commit", oid, 0)
        return entries

    def paths(self) -> list[str]:
        """Every path at the revision, sorted."""
        return sorted(self.entries())

    def exists(self, path: str) -> bool:
        """True when `path` is a file, symlink or submodule at the revision."""
        return normalize_path(path) in self.entries()

    # --- blobs -----------------------------------------------------------------------------

    def _batch_process(self) -> subprocess.Popen[bytes]:
        if self._closed:
            raise RevisionError(f"revision {self.short} of {self.repo_path} is closed")
        if self._batch is None or self._batch.poll() is not None:
            self._batch = self._start_batch()
        return self._batch

    def read_blob(self, oid: str) -> bytes:
        """The raw bytes of a blob (by id, as listed in `entries()`)."""
        if not _HEX40.fullmatch(oid):
            raise RevisionError(f"not an object id: {oid!r}")
        with self._batch_lock:
            process = self._batch_process()
            assert process.stdin is not None and process.stdout is not None
            try:
                process.stdin.write(oid.encode("ascii") + b"\n")
                process.stdin.flush()
                return _read_batch_reply(process.stdout, oid)
            except (OSError, ValueError) as error:
                self._batch = None
                self._stop(process)
                message = f"reading {oid} from {self.repo_path} failed: {error}"
                raise RevisionError(message) from None

    def iter_blobs(self, oids: Sequence[str]) -> Iterator[tuple[str, bytes]]:
        """Stream many blobs through a dedicated cat-file process (for whole-revision scans)."""
        for oid in oids:
            if not _HEX40.fullmatch(oid):
                raise RevisionError(f"not an object id: {oid!r}")
        process = self._start_batch()
        assert process.stdin is not None and process.stdout is not None
        stdin = process.stdin

        def feed() -> None:
            try:
                for oid in oids:
                    stdin.write(oid.encode("ascii") + b"\n")
                stdin.close()
            except (OSError, ValueError):
                pass

        writer = threading.Thread(target=feed, daemon=True)
        writer.start()
        try:
            for oid in oids:
                yield oid, _read_batch_reply(process.stdout, oid)
        finally:
            process.kill()
            writer.join(timeout=2)
            self._stop(process)

    def scan(self, paths: Iterable[str] | None = None) -> Iterator[tuple[str, bytes]]:
        """Stream (path, bytes) for the files at `paths` (default: every file under the size
        limit) through one cat-file process, caching their decoded texts for later `read`s."""
        entries = self.entries()
        if paths is None:
            chosen = [e for e in entries.values() if e.kind == "blob" and e.size >= 0]
        else:
            chosen = [
                entry
                for entry in (entries.get(normalize_path(path)) for path in paths)
                if entry is not None and entry.kind == "blob" and entry.size >= 0
            ]
        by_oid: dict[str, list[str]] = {}
        for entry in chosen:
            if entry.size <= self.max_size:
                by_oid.setdefault(entry.oid, []).append(entry.path)
        for oid, data in self.iter_blobs(list(by_oid)):
            self._remember(oid, decode_blob(data))
            for path in by_oid[oid]:
                yield path, data

    def after_fork(self) -> None:
        """In a forked child process: forget the parent's locks and cat-file process (the child
        starts its own when it needs one; the texts read so far stay cached)."""
        self._cache_lock = threading.Lock()
        self._entries_lock = threading.Lock()
        self._batch_lock = threading.Lock()
        self._batch = None

    def remember_blob(self, oid: str, data: bytes) -> None:
        """Cache the decoded text of a blob read elsewhere (as `scan` does for its files)."""
        self._remember(oid, decode_blob(data))

    def cached_text(self, oid: str) -> str | None:
        """The decoded text of a blob if it is in the cache (binary files are not texts)."""
        with self._cache_lock:
            decoded = self._cache.get(oid)
        return None if decoded is None or decoded.binary else decoded.text

    def _remember(self, oid: str, decoded: _Decoded) -> None:
        with self._cache_lock:
            if oid in self._cache:
                self._cache.move_to_end(oid)
                return
            self._cache[oid] = decoded
            self._cached_chars += len(decoded.text)
            while self._cached_chars > self._cache_chars and len(self._cache) > 1:
                _, dropped = self._cache.popitem(last=False)
                self._cached_chars -= len(dropped.text)

    def _decoded(self, entry: TreeEntry) -> _Decoded:
        with self._cache_lock:
            cached = self._cache.get(entry.oid)
            if cached is not None:
                self._cache.move_to_end(entry.oid)
                return cached
        decoded = decode_blob(self.read_blob(entry.oid))
        self._remember(entry.oid, decoded)
        return decoded

    def read(self, path: str) -> SourceFile:
        """The file at `path` at the revision; never raises for a path."""
        path = normalize_path(path)
        entry = self.entries().get(path)
        if entry is None:
            return SourceFile(path, FileState.MISSING, "")
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
        if decoded.binary:
            return SourceFile(path, FileState.BINARY, "", size=entry.size, oid=entry.oid)
        return SourceFile(
            path,
            FileState.OK,
            decoded.text,
            invalid_utf8=decoded.invalid_utf8,
            size=entry.size,
            oid=entry.oid,
        )

    def resolve_link(self, path: str, *, hops: int = 8) -> str | None:
        """The path a symlink inside the tree finally points at, or None if it leaves the tree."""
        path = normalize_path(path)
        for _ in range(hops):
            entry = self.entries().get(path)
            if entry is None or entry.kind != "link":
                return path if entry is not None else None
            target = self.read_blob(entry.oid).decode("utf-8", "surrogateescape")
            if target.startswith("/"):
                return None
            parts = path.split("/")[:-1]
            for part in target.split("/"):
                if part in ("", "."):
                    continue
                if part == "..":
                    if not parts:
                        return None
                    parts.pop()
                else:
                    parts.append(part)
            path = "/".join(parts)
        return None

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
        this git lacks PCRE). A bad pattern raises RevisionError.
        """
        if "\0" in pattern or "\n" in pattern:
            raise RevisionError("a search pattern cannot contain a newline or NUL")
        if not pattern:
            raise RevisionError("empty search pattern")
        if fixed:
            mode = "-F"
        elif syntax == "perl":
            mode = "-P" if self.has_pcre() else "-E"
        elif syntax == "extended":
            mode = "-E"
        else:
            mode = "-G"
        args = [
            "grep",
            "-n",
            "-z",
            "-I",
            "--full-name",
            "--no-color",
            "--no-textconv",
            "--no-recurse-submodules",
            mode,
        ]
        if ignore_case:
            args.append("-i")
        if word:
            args.append("-w")
        args += ["-e", pattern, self.commit, "--"]
        # "" and "." mean the whole tree; every other path is a literal pathspec, never a glob
        wanted = [normalize_path(path) for path in paths]
        args += [f":(literal){path}" for path in wanted if path not in ("", ".")]
        spans_of = _span_finder(pattern, fixed=fixed, ignore_case=ignore_case, mode=mode, word=word)
        process = subprocess.Popen(
            self._command(*args),
            cwd=self.git_dir,
            env=safe_environment(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert process.stdout is not None and process.stderr is not None
        prefix = self.commit.encode("ascii") + b":"
        done = threading.Event()
        if cancel is not None:
            # git may search for seconds without printing a line: stop it as soon as asked
            threading.Thread(target=_kill_on, args=(cancel, done, process), daemon=True).start()
        try:
            for raw in process.stdout:
                if cancel is not None and cancel.is_set():
                    return
                parts = raw.rstrip(b"\n").split(b"\0", 2)
                if len(parts) != 3:
                    continue
                raw_path, raw_line, raw_text = parts
                path = _decode_path(raw_path.removeprefix(prefix))
                text = raw_text.decode("utf-8", "replace").removesuffix("\r")
                try:
                    line = int(raw_line)
                except ValueError:
                    continue
                yield GrepHit(path, line, text, spans_of(text))
            process.wait()
            if cancel is not None and cancel.is_set():
                return
            if process.returncode not in (0, 1):
                message = _first_line(process.stderr.read().decode("utf-8", "replace"))
                raise RevisionError(f"search for {pattern!r} failed: {message}")
        finally:
            done.set()
            if process.poll() is None:
                process.kill()
            self._stop(process)

    @cached_property
    def _pcre(self) -> bool:
        probe = ("grep", "-q", "-P", "-e", "x", self.commit, "--", ":(literal).git-probe")
        return self._completed(*probe).returncode in (0, 1)

    def has_pcre(self) -> bool:
        """True when this git can grep with Perl-compatible regexes."""
        return self._pcre

    # --- other facts -----------------------------------------------------------------------

    def remote_url(self, name: str = "origin") -> str | None:
        """The configured URL of a remote, as written in the repository's config."""
        if not _REMOTE_NAME.fullmatch(name) or ".." in name:
            return None
        result = self._completed("config", "--get", f"remote.{name}.url")
        url = result.stdout.decode("utf-8", "replace").strip()
        return url if result.returncode == 0 and url else None


def _kill_on(
    cancel: threading.Event, done: threading.Event, process: subprocess.Popen[bytes]
) -> None:
    """Kill `process` once `cancel` is set, unless `done` is set first."""
    while not done.is_set():
        if cancel.wait(0.05):
            if process.poll() is None:
                process.kill()
            return


def decode_blob(data: bytes) -> _Decoded:
    """Decode file bytes for display: binary detection, BOM, invalid UTF-8 flagged."""
    if _is_binary(data):
        return _Decoded("", False, True)
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return _Decoded(data.decode("utf-8"), False, False)
    except UnicodeDecodeError:
        return _Decoded(data.decode("utf-8", "replace"), True, False)


def _read_batch_reply(stdout: IO[bytes], oid: str) -> bytes:
    header = stdout.readline()
    if not header:
        raise ValueError("git cat-file stopped")
    fields = header.split()
    if len(fields) == 2 and fields[1] == b"missing":
        raise MissingObjectError(f"object {oid} is missing from the repository")
    if len(fields) != 3:
        raise ValueError(f"unexpected reply {header[:80]!r}")
    size = int(fields[2])
    data = stdout.read(size)
    stdout.read(1)  # the newline after the content
    if len(data) != size:
        raise ValueError("short read from git cat-file")
    return data


def _span_finder(pattern: str, *, fixed: bool, ignore_case: bool, mode: str, word: bool) -> _Spans:
    """Character spans of the matches in a hit's line, computed with Python's re."""
    flags = re.IGNORECASE if ignore_case else 0
    if fixed:
        source = re.escape(pattern)
    elif mode == "-G":
        source = _basic_to_python(pattern)
    else:
        source = pattern
    if word:
        source = rf"(?<!\w)(?:{source})(?!\w)"
    try:
        compiled = re.compile(source, flags)
    except (re.error, RecursionError, OverflowError):
        return _Spans(None)
    return _Spans(compiled)


class _Spans:
    def __init__(self, compiled: re.Pattern[str] | None) -> None:
        self.compiled = compiled

    def __call__(self, text: str) -> tuple[tuple[int, int], ...]:
        if self.compiled is None:
            return ()
        spans = []
        for match in self.compiled.finditer(text):
            if match.end() > match.start():
                spans.append((match.start(), match.end()))
            if len(spans) >= 100:
                break
        return tuple(spans)


def _basic_to_python(pattern: str) -> str:
    """Translate a POSIX basic regex (grep's default) to Python's dialect, best effort."""
    out: list[str] = []
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if char == "\\" and index + 1 < len(pattern):
            following = pattern[index + 1]
            out.append(following if following in "(){}|+?" else "\\" + following)
            index += 2
            continue
        out.append("\\" + char if char in "(){}|+?" else char)
        index += 1
    return "".join(out)
