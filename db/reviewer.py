"""Who is reviewing: --reviewer, else git's user.name, else the login name."""

from __future__ import annotations

from db.names import plain_name
from evidence.git.identity import start_user_name, stop_user_name, user_name_of


def git_user_name() -> str | None:
    """git's user.name, read from the home directory (never from a repository under review)."""
    return user_name_of(start_user_name())


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
        self._name = plain_name(explicit) if explicit is not None else ""
        self._process = start_user_name() if not self._name else None

    def __call__(self) -> str:
        """The name: explicit, else git's answer (waited for), else the login name (each
        without controls: `plain_name`)."""
        if not self._name:
            process, self._process = self._process, None
            name = plain_name(user_name_of(process) or "")
            if not name:  # asked only then: getpass loads termios
                name = plain_name(login_name() or "")
            self._name = name or "reviewer"
        return self._name

    def close(self) -> None:
        """Stop a git lookup whose answer is not needed."""
        process, self._process = self._process, None
        if process is not None:
            stop_user_name(process)
