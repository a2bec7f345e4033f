"""Running git on an untrusted repository: the environment, the ``-c`` overrides, the errors.

Every git process runs with `safe_environment()` and a command line from `git_command`, so that
neither the caller's environment nor the repository's configuration can make git run a program
(fsmonitor, hooks, textconv and diff drivers, pagers, gpg, ssh, lazy fetches of a partial clone,
replace refs). Nothing reads the work tree or the index.
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
from pathlib import Path

from evidence.git.safe_directories import dubious_hint, safe_directories

__all__ = [
    "OBJECT_ID",
    "SAFE_CONFIG",
    "MissingObjectError",
    "RevisionError",
    "error_line",
    "git_command",
    "partial_clone_message",
    "run_git",
    "run_in_own_repository",
    "safe_environment",
    "stop",
]

#: a full object id as git prints it
OBJECT_ID = re.compile(r"[0-9a-f]{40}")

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
    # the user's own safe.directory entries: their global config is off (above)
    trusted = safe_directories()
    if trusted:
        env["GIT_CONFIG_COUNT"] = str(len(trusted))
        for index, directory in enumerate(trusted):
            env[f"GIT_CONFIG_KEY_{index}"] = "safe.directory"
            env[f"GIT_CONFIG_VALUE_{index}"] = directory
    return env


def git_command(git_dir: Path | None, *args: str) -> list[str]:
    """The command line of git with ``args``, with SAFE_CONFIG (and ``--git-dir`` if given).

    With a git directory, its work tree is given as that directory : nothing here
    reads a work tree, and a ``core.worktree`` naming one that is gone (a submodule removed
    since, a clone moved) would make git refuse every command."""
    command = ["git", "--no-pager", "--no-replace-objects"]
    for setting in SAFE_CONFIG:
        command += ["-c", setting]
    if git_dir is not None:
        command += [f"--git-dir={git_dir}", f"--work-tree={git_dir}"]
    command.extend(args)
    return command


def run_git(git_dir: Path | None, cwd: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    """git with ``args`` in the safe environment, run to completion (output captured)."""
    return subprocess.run(
        git_command(git_dir, *args),
        cwd=cwd,
        env=safe_environment(),
        capture_output=True,
        stdin=subprocess.DEVNULL,
        check=False,
    )


def run_in_own_repository(
    repo: Path, *args: str, stdin: bytes | None = None
) -> subprocess.CompletedProcess[bytes]:
    """git with ``args`` in a repository assay builds itself (the sample): porcelain allowed,
    hooks off, the safe environment; OSError when git cannot be started."""
    command = ["git", "-c", "core.hooksPath=/dev/null", "-C", str(repo), *args]
    env = {**safe_environment(), "LC_ALL": "C"}
    return subprocess.run(command, input=stdin, env=env, capture_output=True, check=False)


def partial_clone_message(repo_path: object) -> str:
    """What to say when git needs objects that a partial clone left on its remote."""
    return (
        f"{repo_path} is a partial clone (--filter): the blobs the revision cites are not in "
        "this clone, and assay never fetches while reading; fetch them with "
        f"`git -C {repo_path} fetch --refetch --no-filter origin`, or use a full clone"
    )


def error_line(stderr: bytes) -> str:
    """The first line of git's error output, without its ``fatal:``/``error:`` prefix; for a
    repository git calls of dubious ownership, what to do about it."""
    for line in stderr.decode("utf-8", "replace").splitlines():
        line = line.strip()
        if line:
            message = line.removeprefix("fatal: ").removeprefix("error: ")
            return dubious_hint(message) or message
    return "no message"


def stop(process: subprocess.Popen[bytes]) -> None:
    """Close a git process's pipes and wait for it (killed if it does not end in 2 s)."""
    for stream in (process.stdin, process.stdout, process.stderr):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()
    try:
        process.wait(timeout=2)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
