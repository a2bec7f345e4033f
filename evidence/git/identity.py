"""The reviewer's git identity: ``git config --get user.name``, asked outside every repository.

The command starts at once and is answered later (`start_user_name`, then `user_name_of`), so
that git runs while the caller imports the rest of the app. Only this lookup reads the user's own
configuration: it runs in the home directory, never in a repository under review.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

__all__ = ["start_user_name", "stop_user_name", "user_name_of"]


def start_user_name() -> subprocess.Popen[str] | None:
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


def user_name_of(process: subprocess.Popen[str] | None) -> str | None:
    """The name a started lookup prints (waited for, at most 5 s), or None."""
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


def stop_user_name(process: subprocess.Popen[str]) -> None:
    """Stop a lookup whose answer is not needed (and reap it)."""
    if process.poll() is None:
        process.kill()
    process.communicate()  # reaps it and closes its pipe
