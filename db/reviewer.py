"""Who is reviewing: --reviewer, else git's user.name, else the login name."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path


def git_user_name() -> str | None:
    """git's user.name, read from the home directory (never from a repository under review)."""
    home = Path.home()
    # GIT_CEILING_DIRECTORIES: no repository above the home directory is looked for either.
    env = dict(os.environ, GIT_TERMINAL_PROMPT="0", GIT_CEILING_DIRECTORIES=str(home.parent))
    # A repository's own config could set anything; run outside every repository under review.
    env.pop("GIT_DIR", None)
    env.pop("GIT_WORK_TREE", None)
    try:
        result = subprocess.run(
            ["git", "config", "--get", "user.name"],
            cwd=home if home.is_dir() else "/",
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    name = result.stdout.strip()
    return name if result.returncode == 0 and name else None


def login_name() -> str | None:
    """The operating system's login name, if it can be found."""
    import getpass  # here: it loads termios, which nothing before the first frame needs

    try:
        name = getpass.getuser().strip()
    except (KeyError, OSError):
        return None
    return name or None


def reviewer_name(explicit: str | None = None) -> str:
    """The reviewer name to record: explicit, else git's user.name, else the login name."""
    if explicit is not None and explicit.strip():
        return explicit.strip()
    return git_user_name() or login_name() or "reviewer"
