"""A private bare clone that exchanges files with a remote, driven by GitPython.

The clone is a cache: whatever matters lives elsewhere (the verdict database), so it can always
be rebuilt by fetching again. It has no work tree: files are read from the fetched commit and
new commits are built from objects written directly (GitPython's object database), so nothing
is ever checked out or merged by git (no filters, no merge drivers). Every git process runs
with the overrides and environment of transport.py; the clone's own configuration is reset to
what assay writes each time it is opened, so a setting added to it later is dropped, and it is
overridden on the command line anyway.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import re
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evidence.git.transport import (
    UserSettings,
    is_local,
    pack_commands,
    receive_hooks,
    remote_config,
    transport_environment,
)
from evidence.git.tree import TreeEntry, parse_tree

if TYPE_CHECKING:
    from git import Repo

__all__ = [
    "CLONE_CONFIG",
    "DAMAGED",
    "MISSING",
    "OFFLINE",
    "Exchange",
    "ExchangeError",
    "Fetched",
    "Pushed",
    "blob_id",
    "problem_of",
]

#: the whole configuration of the clone; anything else found there is dropped
CLONE_CONFIG = "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = true\n"

_BRANCH = re.compile(r"[A-Za-z0-9][A-Za-z0-9._/-]{0,199}")
_OBJECT_ID = re.compile(r"[0-9a-f]{40}")
_TREE_MODE = 0o040000
#: the environment that points git at the clone: a scratch clone must not inherit it
_CLONE_REDIRECTS = frozenset(
    {
        "GIT_DIR",
        "GIT_COMMON_DIR",
        "GIT_OBJECT_DIRECTORY",
        "GIT_ALTERNATE_OBJECT_DIRECTORIES",
        "GIT_INDEX_FILE",
    }
)


class ExchangeError(Exception):
    """The clone cannot be used; the message says why."""


#: why a remote could not be used (`Fetched.problem`)
OFFLINE = "offline"  # not reached (network, server, credentials): try again later
MISSING = "missing"  # reached, or a path: no repository there
DAMAGED = "damaged"  # reached: it sent an object that fails git's checks

_DAMAGED = re.compile(
    r"fsck error|object [0-9a-f]{40}: \w+:|bad object|did not send all necessary objects|"
    r"invalid object|corrupt (?:loose|packed) object"
)
_MISSING = re.compile(
    r"does not appear to be a git repository|[Rr]epository (?:'[^']*' )?not found|"
    r"not a git repository|invalid gitfile format"  # the last: a path naming a regular file
)


def problem_of(err: str) -> str:
    """OFFLINE, MISSING or DAMAGED for the error output of a failed fetch."""
    if _DAMAGED.search(err):
        return DAMAGED
    if _MISSING.search(err):
        return MISSING
    return OFFLINE


@dataclass(frozen=True)
class Fetched:
    """What a fetch found: the branch's commit (None: no such branch yet), or why it failed
    (``error``, and ``problem``: OFFLINE, MISSING or DAMAGED)."""

    commit: str | None
    error: str | None = None
    problem: str = OFFLINE


@dataclass(frozen=True)
class Pushed:
    """A push's outcome: done, rejected because the branch moved meanwhile, or another error."""

    ok: bool
    rejected: bool = False
    error: str | None = None
    busy: bool = False  # rejected: the remote's branch was locked, not moved


def blob_id(data: bytes) -> str:
    """The object id git gives a file with these bytes."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


class Exchange:
    """A bare clone at ``path`` that fetches from and pushes to remotes."""

    def __init__(self, path: Path, repo: Repo, user: UserSettings, env: dict[str, str]) -> None:
        self.path = path
        self.repo = repo
        self.user = user
        self._env = env

    @classmethod
    def open(cls, path: Path, user: UserSettings, *, interactive: bool = False) -> Exchange:
        """Open the clone at ``path``, creating it (empty) if needed; ExchangeError if unusable."""
        import git

        env = transport_environment(user, interactive=interactive)
        # GitPython starts from os.environ: where the caller's environment points git at another
        # repository, point it back here
        env.update(
            GIT_DIR=str(path),
            GIT_COMMON_DIR=str(path),
            GIT_OBJECT_DIRECTORY=str(path / "objects"),
            GIT_ALTERNATE_OBJECT_DIRECTORIES="",
            GIT_INDEX_FILE=str(path / "index"),
        )
        try:
            path.mkdir(parents=True, exist_ok=True)
            if not (path / "HEAD").is_file():
                git.Git(str(path)).execute(
                    ["git", "init", "--quiet", "--bare", "--template=", str(path)], env=env
                )
            cls._reset(path)
            repo = git.Repo(str(path))
        except (OSError, git.GitError) as error:
            raise ExchangeError(f"cannot prepare the verdicts clone {path}: {error}") from None
        repo.git.update_environment(**env)
        repo.git.set_persistent_git_options(c=remote_config(user))
        return cls(path, repo, user, env)

    @staticmethod
    def _reset(path: Path) -> bool:
        """Give the clone assay's configuration back; True when something had to be undone."""
        changed = False
        config = path / "config"
        if not config.is_file() or config.read_text("utf-8", "replace") != CLONE_CONFIG:
            changed = config.exists()
            config.unlink(missing_ok=True)  # a symlink is replaced, never written through
            config.write_text(CLONE_CONFIG, encoding="utf-8")
        for redirect in ("commondir", "config.worktree", "objects/info/alternates"):
            target = path / redirect
            if target.exists() or target.is_symlink():
                target.unlink()
                changed = True
        return changed

    def close(self) -> None:
        """Stop GitPython's cat-file processes."""
        self.repo.close()

    @contextlib.contextmanager
    def lock(self) -> Iterator[None]:
        """Hold the clone for one sync; ExchangeError when another process holds it."""
        try:
            import fcntl
        except ImportError:  # no advisory locks here: go without
            yield
            return
        with open(self.path / "assay-sync.lock", "a+b") as handle:
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                raise ExchangeError("another sync of this database is running") from None
            try:
                yield
            finally:
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)

    @contextlib.contextmanager
    def written(self) -> Iterator[None]:
        """Git or the file system failing while the clone is written (a full disk): an
        ExchangeError that says so, not a traceback."""
        import git

        kept = "nothing is lost: the database keeps every verdict, the next sync sends them"
        try:
            yield
        except git.GitCommandError as error:
            said = " ".join(str(error.stderr).split())[:200] or f"exit {error.status}"
            message = f"git failed in the private clone {self.path} ({said}); {kept}"
            raise ExchangeError(message) from None
        except OSError as error:
            said = error.strerror or str(error)
            message = f"the private clone {self.path} could not be written ({said}); {kept}"
            raise ExchangeError(message) from None

    # --- running git ---------------------------------------------------------------------------

    def _git(self, *args: str) -> tuple[int, str, str]:
        status, out, err = self._execute(args)
        return status, out.decode("utf-8", "replace"), err

    def _execute(self, args: tuple[str, ...]) -> tuple[int, bytes, str]:
        status, out, err = self.repo.git.execute(
            ["git", *_config_options(self.user), *args],
            env=self._env,
            with_extended_output=True,
            with_exceptions=False,
            stdout_as_string=False,
        )
        if isinstance(err, bytes):
            err = err.decode("utf-8", "replace")
        return int(status or 0), bytes(out), str(err)

    @staticmethod
    def _message(err: str) -> str:
        lines = [line.strip() for line in err.splitlines() if line.strip()]
        wanted = [line for line in lines if line.startswith(("fatal:", "error:", "ssh:"))]
        line = (wanted or lines or ["no message"])[0]
        return line.removeprefix("fatal: ").removeprefix("error: ")

    # --- the remote ----------------------------------------------------------------------------

    def default_branch(self, remote: str) -> Fetched:
        """The remote's default branch name as ``commit`` (None when it has none yet)."""
        status, out, err = self._git("ls-remote", "--symref", "--", remote, "HEAD")
        if status != 0:
            return Fetched(None, self._message(err), problem_of(err))
        for line in out.splitlines():
            if line.startswith("ref: refs/heads/") and line.endswith("\tHEAD"):
                name = line[len("ref: refs/heads/") : -len("\tHEAD")]
                if _BRANCH.fullmatch(name) and ".." not in name:
                    return Fetched(name)
        return Fetched(None)

    def unborn_head(self, remote: str) -> str | None:
        """The branch an empty remote's HEAD names (None when it cannot be learnt).

        ``ls-remote`` does not print an unborn HEAD; a bare clone of the empty remote, made in
        a scratch directory of the clone with the same overrides, learns it from the server.
        """
        import subprocess
        import tempfile

        env = {key: value for key, value in self._env.items() if key not in _CLONE_REDIRECTS}
        with tempfile.TemporaryDirectory(prefix="head-", dir=self.path) as scratch:
            probe = Path(scratch) / "probe.git"
            command = [
                "git",
                *_config_options(self.user),
                "clone",
                "--bare",
                "--quiet",
                "--no-tags",
                "--template=",
                *self._pack_options(remote, "upload_pack"),
                "--",
                remote,
                str(probe),
            ]
            try:
                done = subprocess.run(
                    command, env=env, capture_output=True, stdin=subprocess.DEVNULL, check=False
                )
                head = (probe / "HEAD").read_text("utf-8", "replace").strip()
            except OSError:
                return None
        if done.returncode != 0 or not head.startswith("ref: refs/heads/"):
            return None
        name = head.removeprefix("ref: refs/heads/")
        return name if _BRANCH.fullmatch(name) and ".." not in name else None

    def fetch(self, remote: str, branch: str) -> Fetched:
        """Fetch the remote's branch into ``refs/remotes/origin/<branch>``."""
        self._check_branch(branch)
        tracking = f"refs/remotes/origin/{branch}"
        status, _out, err = self._git(
            "fetch",
            "--quiet",
            "--no-tags",
            "--no-recurse-submodules",
            "--no-write-fetch-head",
            "--no-auto-gc",
            *self._pack_options(remote, "upload_pack"),
            "--",
            remote,
            f"+refs/heads/{branch}:{tracking}",
        )
        if status != 0:
            if "couldn't find remote ref" in err:
                return Fetched(None)
            problem = problem_of(err)
            line = self._message(err)
            if problem == DAMAGED:  # the object and the check it failed, as fsck names them
                line = next((x for x in err.splitlines() if _DAMAGED.search(x)), line).strip()
                line = line.removeprefix("error: ").removeprefix("fatal: ")
            return Fetched(self.commit_of(tracking), line, problem)
        return Fetched(self.commit_of(tracking))

    def push(self, remote: str, commit: str, branch: str) -> Pushed:
        """Push ``commit`` to the remote's branch (a fast-forward only)."""
        self._check_branch(branch)
        status, out, err = self._git(
            "push",
            "--porcelain",
            "--no-verify",
            "--no-signed",
            *self._pack_options(remote, "receive_pack"),
            "--",
            remote,
            f"{commit}:refs/heads/{branch}",
        )
        if status == 0:
            self.set_ref(f"refs/remotes/origin/{branch}", commit)
            return Pushed(True)
        flags = [line for line in out.splitlines() if line.startswith("!\t")]
        if any("[rejected]" in line for line in flags):
            return Pushed(False, rejected=True, error="the remote branch moved meanwhile")
        if any(line.endswith("[remote rejected] (failed to update ref)") for line in flags):
            # the branch's lock held by another push (two reviewers syncing to one repository
            # on a shared disk at once): tried again as when the branch moved
            return Pushed(
                False,
                rejected=True,
                error=f"the remote could not update its branch {branch}: another push was "
                f"updating it, or a git that crashed there left refs/heads/{branch}.lock",
                busy=True,
            )
        if flags:
            reason = flags[0].split("\t")[-1]
            return Pushed(False, error=f"the remote refused the push: {reason}")
        return Pushed(False, error=self._message(err))

    def _pack_options(self, remote: str, name: str) -> list[str]:
        hooks = None
        if name == "receive_pack" and is_local(remote):
            hooks = receive_hooks(self.path / "receive-hooks")
        command = pack_commands(remote, hooks).get(name)
        return [f"--{name.replace('_', '-')}={command}"] if command else []

    @staticmethod
    def _check_branch(branch: str) -> None:
        if not _BRANCH.fullmatch(branch) or ".." in branch:
            raise ExchangeError(f"invalid branch name {branch!r}")

    # --- objects -------------------------------------------------------------------------------

    def commit_of(self, ref: str) -> str | None:
        """The commit a ref points at, or None."""
        status, out, _err = self._git("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
        commit = out.strip()
        return commit if status == 0 and _OBJECT_ID.fullmatch(commit) else None

    def set_ref(self, ref: str, commit: str) -> None:
        """Point a ref of the clone at a commit."""
        self._git("update-ref", "--no-deref", ref, commit)

    def last_change(self, commit: str, path: str) -> tuple[str, str] | None:
        """(commit id, "author <email>") of the latest commit up to ``commit`` that changed
        ``path``, or None when it cannot be told."""
        status, out, _err = self._git(
            "log",
            "-1",
            "--no-show-signature",
            "--format=%H%x00%an <%ae>",
            commit,
            "--",
            f":(literal){path}",
        )
        found, _, author = out.strip().partition("\0")
        if status != 0 or not _OBJECT_ID.fullmatch(found):
            return None
        return found, author

    def files(self, commit: str | None) -> dict[str, TreeEntry]:
        """Every file of a commit's tree (none for None), with its object id and size."""
        if commit is None:
            return {}
        status, out, err = self._execute(("ls-tree", "-r", "-z", "-l", "--full-tree", commit))
        if status != 0:
            raise ExchangeError(f"cannot list commit {commit[:12]}: {self._message(err)}")
        return parse_tree(out)

    def read(self, oid: str) -> bytes:
        """The bytes of a blob of the clone."""
        data: bytes = self.repo.odb.stream(bytes.fromhex(oid)).read()
        return data

    def commit(
        self,
        parent: str | None,
        changes: Mapping[str, bytes | None],
        *,
        author: tuple[str, str],
        message: str,
    ) -> str:
        """A new commit: the parent's tree with ``changes`` (path -> content, None: removed)
        written in."""
        from git import Actor, Commit, Tree

        files = {
            entry.path: (int(entry.mode, 8), bytes.fromhex(entry.oid))
            for entry in self.files(parent).values()
        }
        for path, data in changes.items():
            if data is None:
                files.pop(path, None)
            else:
                files[path] = (0o100644, self._store(b"blob", data))
        tree = Tree(self.repo, self._write_tree(files))
        actor = Actor(_header_text(author[0]) or "assay", _header_text(author[1]))
        stamp = f"{int(time.time())} +0000"
        parents = [Commit(self.repo, bytes.fromhex(parent))] if parent else []
        made = Commit.create_from_tree(
            self.repo,
            tree,
            message,
            parent_commits=parents,
            head=False,
            author=actor,
            committer=actor,
            author_date=stamp,
            commit_date=stamp,
        )
        return str(made.hexsha)

    def _store(self, kind: bytes, data: bytes) -> bytes:
        from gitdb import IStream

        stream = self.repo.odb.store(IStream(kind, len(data), io.BytesIO(data)))
        return bytes(stream.binsha)

    def _write_tree(self, files: Mapping[str, tuple[int, bytes]]) -> bytes:
        root: dict[str, Any] = {}
        for path, entry in files.items():
            node = root
            *folders, name = path.split("/")
            for folder in folders:
                child = node.get(folder)
                if not isinstance(child, dict):  # a file where a folder must be: replaced
                    child = node[folder] = {}
                node = child
            node[name] = entry
        return self._write_node(root)

    def _write_node(self, node: Mapping[str, Any]) -> bytes:
        entries = []
        for name, value in node.items():
            if isinstance(value, dict):
                entries.append((_TREE_MODE, name, self._write_node(value)))
            else:
                entries.append((value[0], name, value[1]))

        def order(entry: tuple[int, str, bytes]) -> bytes:
            raw = entry[1].encode("utf-8", "surrogateescape")
            return raw + b"/" if entry[0] == _TREE_MODE else raw

        data = b"".join(
            b"%o %s\0" % (mode, name.encode("utf-8", "surrogateescape")) + sha
            for mode, name, sha in sorted(entries, key=order)
        )
        return self._store(b"tree", data)


def _config_options(user: UserSettings) -> list[str]:
    options = []
    for setting in remote_config(user):
        options += ["-c", setting]
    return options


def _header_text(text: str) -> str:
    """Text fit for a commit's author line: no angle brackets, newlines or control characters."""
    return " ".join("".join(c for c in text if c.isprintable() and c not in "<>").split())
