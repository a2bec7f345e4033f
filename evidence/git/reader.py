"""One repository's objects, remotes and commits read through GitPython, safely.

`RepoReader` opens the repository with `open_repo` (persistent SAFE_CONFIG options and the safe
environment) the first time it is asked, so that a command that only resolves a revision never
imports GitPython. Single blobs come from GitPython's persistent ``cat-file --batch`` (one per
reader, under a lock: it is not thread-safe); a stream of many blobs gets a ``cat-file`` of its
own, started by GitPython's Git command object and fed by a thread so that neither pipe fills up;
the tree is ``ls-tree`` through the same object. Remotes come from GitPython's config reader,
which reads files and runs nothing. Nothing reads the work tree or the index.
"""

from __future__ import annotations

import contextlib
import re
import subprocess
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING

from evidence.git.process import (
    OBJECT_ID,
    MissingObjectError,
    RevisionError,
    error_line,
    partial_clone_message,
    run_git,
    stop,
)
from evidence.git.repo import open_repo
from evidence.text import shown_path

if TYPE_CHECKING:
    import git

__all__ = ["CommitSummary", "RepoReader"]

_REMOTE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._/-]{0,99}")


@dataclass(frozen=True)
class CommitSummary:
    """Who wrote a commit, when, and its subject line (untrusted text: show it with `visible`)."""

    subject: str
    author: str
    date: datetime  # the author date, in the author's time zone


def _read_reply(stdout: IO[bytes], oid: str) -> bytes:
    """The content cat-file prints for ``oid``; ValueError when its output is not a reply."""
    header = stdout.readline()
    if not header:
        raise ValueError("git cat-file stopped")
    fields = header.split()
    if len(fields) == 2 and fields[1] == b"missing":
        raise MissingObjectError(_missing(oid))
    if len(fields) != 3:
        raise ValueError(f"unexpected reply {header[:80]!r}")
    size = int(fields[2])
    data = stdout.read(size)
    stdout.read(1)  # the newline after the content
    if len(data) != size:
        raise ValueError("short read from git cat-file")
    return data


#: how many bytes of blobs git may write ahead of the reader (Linux's default limit for a pipe)
STREAM_PIPE_BYTES = 1024 * 1024


def widen_pipe(pipe: IO[bytes]) -> None:
    """Let git inflate the next blobs while this process works on the last one: a default
    64 KB pipe holds about one file, so git waits on every read."""
    try:
        import fcntl
    except ImportError:
        return
    command = getattr(fcntl, "F_SETPIPE_SZ", None)  # Linux only
    if command is not None:
        with contextlib.suppress(OSError, ValueError):  # refused: the pipe stays as it is
            fcntl.fcntl(pipe.fileno(), command, STREAM_PIPE_BYTES)


def _missing(oid: str) -> str:
    return f"object {oid} is missing from the repository"


def _check_ids(oids: Sequence[str]) -> None:
    for oid in oids:
        if not OBJECT_ID.fullmatch(oid):
            raise RevisionError(f"not an object id: {oid!r}")


class RepoReader:
    """The objects of one repository through one GitPython Repo, opened when first needed."""

    def __init__(self, git_dir: Path, repo_path: Path, label: str) -> None:
        self.git_dir = git_dir
        self.repo_path = repo_path
        self.label = label  # what a closed reader names in its error
        self._repo: git.Repo | None = None
        self._opening = threading.Lock()
        self._lock = threading.Lock()  # GitPython's persistent cat-file is not thread-safe
        self._closed = False

    def repo(self) -> git.Repo:
        """The GitPython Repo (opened with `open_repo` on first use); RevisionError once closed."""
        with self._opening:
            if self._closed:
                raise RevisionError(f"{self.label} is closed")
            if self._repo is None:
                self._repo = open_repo(self.git_dir)
            return self._repo

    # --- plumbing --------------------------------------------------------------------------

    def run(self, *args: str) -> bytes:
        """The output of a plumbing command through GitPython's Git command object."""
        # a Git attribute runs the subcommand of its name with the persistent options
        subcommand = getattr(self.repo().git, args[0].replace("-", "_"))
        status, out, err = subcommand(
            *args[1:],
            with_extended_output=True,
            with_exceptions=False,
            stdout_as_string=False,
            strip_newline_in_stdout=False,
        )
        if status != 0:
            raw = err.encode("utf-8", "replace") if isinstance(err, str) else err
            if b"lazy fetching disabled" in raw:
                raise RevisionError(partial_clone_message(self.repo_path))
            message = error_line(raw)
            raise RevisionError(f"git {args[0]} failed in {shown_path(self.repo_path)}: {message}")
        return out if isinstance(out, bytes) else out.encode("utf-8", "surrogateescape")

    # --- blobs -----------------------------------------------------------------------------

    def read(self, oid: str) -> bytes:
        """The raw bytes of one object, through GitPython's persistent ``cat-file --batch``."""
        _check_ids((oid,))
        repo = self.repo()
        with self._lock:
            for _ in range(2):  # a cat-file that died since the last read is started again
                try:
                    _, _, size, data = repo.git.get_object_data(oid)
                except ValueError as error:
                    if str(error).endswith(" missing'"):  # git replied "<oid> missing"
                        raise MissingObjectError(_missing(oid)) from None
                    failure: Exception = error
                except OSError as error:
                    failure = error
                else:
                    if len(data) == size:
                        return bytes(data)
                    failure = ValueError("short read from git cat-file")
                repo.git.clear_cache()  # the next read starts a fresh cat-file
            message = f"reading {oid} from {self.repo_path} failed: {failure}"
            raise RevisionError(message)

    def stream(self, oids: Sequence[str]) -> Iterator[tuple[str, bytes]]:
        """(oid, bytes) of many objects, in order, through a ``cat-file --batch`` of their own."""
        _check_ids(oids)
        started = self.repo().git.cat_file("--batch", as_process=True, istream=subprocess.PIPE)
        process: subprocess.Popen[bytes] = started.proc
        assert process.stdin is not None and process.stdout is not None
        stdin = process.stdin
        widen_pipe(process.stdout)

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
                yield oid, _read_reply(process.stdout, oid)
        finally:
            process.kill()
            writer.join(timeout=2)
            stop(process)

    # --- commits and config ----------------------------------------------------------------

    def commit_summary(self, commit: str) -> CommitSummary:
        """The subject, author and author date of ``commit`` (parsed by GitPython)."""
        _check_ids((commit,))
        repo = self.repo()
        try:
            with self._lock:
                found = repo.commit(commit)
                message = found.message
                author = found.author.name or found.author.email or ""
                date = found.authored_datetime
        except Exception as error:  # a hostile commit may be malformed anywhere
            raise RevisionError(f"cannot read commit {commit[:7]}: {error}") from None
        text = message.decode("utf-8", "replace") if isinstance(message, bytes) else message
        subject = text.strip().split("\n", 1)[0].strip() if text.strip() else ""
        return CommitSummary(subject, str(author), date)

    def remote_url(self, name: str = "origin") -> str | None:
        """The URL of a remote as the repository's own config writes it (the last one given)."""
        if not _REMOTE_NAME.fullmatch(name) or ".." in name:
            return None
        try:
            reader = self.repo().config_reader("repository")
            values = reader.get_values(f'remote "{name}"', "url")
        except Exception:  # no such section or option, or a config git rejects
            return None
        url = str(values[-1]).strip() if values else ""
        return url or None

    def remote_names(self) -> list[str]:
        """The names of the remotes the repository's own config has a section for."""
        try:
            sections = self.repo().config_reader("repository").sections()
        except Exception:  # a config git rejects
            return []
        found = (re.fullmatch(r'remote "(.*)"', section) for section in sections)
        return [match[1] for match in found if match is not None]

    def lfs_directories(self) -> list[Path]:
        """Where this repository's Git LFS objects are (evidence/git/lfs.py): ``lfs.storage``
        from its own config, else ``lfs/objects`` in its (a worktree's main) git directory. Read
        without GitPython: `assay grep` and a launch do not import it for this."""
        from evidence.git.lfs import objects_directories
        from evidence.git.submodules import common_directory

        common = common_directory(self.git_dir)  # a worktree's: its main git directory's
        found = run_git(self.git_dir, self.git_dir, "config", "--get", "lfs.storage")
        storage = found.stdout.decode("utf-8", "replace").strip() if found.returncode == 0 else ""
        return objects_directories(common, storage or None)

    # --- lifetime --------------------------------------------------------------------------

    def close(self) -> None:
        """Stop GitPython's cat-file processes; later reads raise RevisionError."""
        with self._opening:
            self._closed = True
            repo, self._repo = self._repo, None
        if repo is not None:
            with self._lock:
                repo.close()

    def after_fork(self) -> None:
        """In a forked child: forget the parent's locks and Repo (the child opens its own).

        The parent's cat-file processes are not the child's children: dropping their handles
        here closes the child's copies of the pipes and signals nothing."""
        self._opening = threading.Lock()
        self._lock = threading.Lock()
        self._repo = None
