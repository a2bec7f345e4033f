"""Who is reviewing: --reviewer, else git's user.name, else the login name."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path


def git_user_name() -> str | None:
    """git's user.name, read from the home directory (never from a repository under review)."""
    return _git_result(_start_git())


def _start_git() -> subprocess.Popen[str] | None:
    """Start `git config --get user.name` in the home directory, not waiting for it."""
    home = Path.home()
    # GIT_CEILING_DIRECTORIES: no repository above the home directory is looked for either.
    env = dict(os.environ, GIT_TERMINAL_PROMPT="0", GIT_CEILING_DIRECTORIES=str(home.parent))
    # A repository's own config could set anything; run outside every repository under review.
    env.pop("GIT_DIR", None)
    env.pop("GIT_WORK_TREE", None)
    try:
        return subprocess.Popen(
            ["git", "config", "--get", "user.name"],
            cwd=home if home.is_dir() else "/",
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
    except (OSError, subprocess.SubprocessError):
        return None


def _git_result(process: subprocess.Popen[str] | None) -> str | None:
    if process is None:
        return None
    try:
        out, _ = process.communicate(timeout=5)
    except subprocess.SubprocessError:
        process.kill()
        process.wait()
        return None
    name = out.strip()
    return name if process.returncode == 0 and name else None


def login_name() -> str | None:
    """The operating system's login name, if it can be found."""
    import getpass  # here: it loads termios, which only this fallback needs

    try:
        name = getpass.getuser().strip()
    except (KeyError, OSError):
        return None
    return name or None


def reviewer_name(explicit: str | None = None) -> str:
    """The reviewer name to record: explicit, else git's user.name, else the login name."""
    return reviewer_lookup(explicit)()


def reviewer_lookup(explicit: str | None = None) -> ReviewerLookup:
    """Start finding the reviewer name (as `reviewer_name`); call the result to wait for it."""
    return ReviewerLookup(explicit)


class ReviewerLookup:
    """The reviewer name, being found: git is asked at once, in a process of its own.

    git answers while the caller goes on: a command starts the lookup first and takes the name
    (by calling this) when it builds the app, its imports done meanwhile. `close()` stops a
    lookup whose name is never taken (a command that fails first).
    """

    def __init__(self, explicit: str | None = None) -> None:
        self._name = explicit.strip() if explicit is not None and explicit.strip() else None
        self._process = _start_git() if self._name is None else None

    def __call__(self) -> str:
        """The name: explicit, else git's answer (waited for), else the login name."""
        if self._name is None:
            process, self._process = self._process, None
            self._name = _git_result(process) or login_name() or "reviewer"
        return self._name

    def close(self) -> None:
        """Stop a git lookup whose answer is not needed."""
        process, self._process = self._process, None
        if process is not None:
            if process.poll() is None:
                process.kill()
            process.communicate()  # reaps it and closes its pipe
