"""The user's own ``safe.directory`` entries, read from their global git config without running
anything (git runs with the global config off: evidence/git/process.py).

git refuses a repository another user owns ("dubious ownership") unless ``safe.directory``
names it. The entries the user wrote (``git config --global --add safe.directory PATH``) are
read here from the global config files, as git would find them, and handed to every git process
through ``GIT_CONFIG_COUNT`` (command-line scope, which git honours for this key). Only
``[safe]`` sections of the files themselves are read; ``[include]``d files are not followed.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

__all__ = ["dubious_hint", "global_config_files", "safe_directories"]


def global_config_files() -> tuple[str, ...]:
    """The user's global git config files, in the order git reads them."""
    named = os.environ.get("GIT_CONFIG_GLOBAL")
    if named is not None:
        return (named,) if named else ()
    home = os.environ.get("HOME") or str(Path.home())
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    return (os.path.join(xdg, "git", "config"), os.path.join(home, ".gitconfig"))


def safe_directories() -> tuple[str, ...]:
    """The ``safe.directory`` values of the user's global config, in order (an empty value
    clears the ones before it, as in git)."""
    stamps = []
    for file in global_config_files():
        try:
            stat = os.stat(file)
        except OSError:
            continue
        stamps.append((file, stat.st_mtime_ns, stat.st_size))
    return _read(tuple(stamps))


@cache
def _read(files: tuple[tuple[str, int, int], ...]) -> tuple[str, ...]:
    """The entries of these files (named with their modification time and size: a file that
    changes is read again)."""
    found: list[str] = []
    for file, _, _ in files:
        try:
            text = Path(file).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        for value in _safe_values(text):
            if value:
                found.append(value)
            else:
                found.clear()
    return tuple(found)


def _safe_values(text: str) -> list[str]:
    """The ``directory`` values of ``[safe]`` sections of one config file's text."""
    values: list[str] = []
    section = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            end = line.find("]")
            header = line[1:end] if end > 0 else ""
            # `[safe "sub"]` is another section than `[safe]`
            section = header.strip().lower() if '"' not in header else "(subsection)"
            rest = line[end + 1 :].strip() if end > 0 else ""
            if not rest or rest[0] in "#;":
                continue
            line = rest  # `[safe] directory = x` on one line
        if section != "safe":
            continue
        key, equals, value = line.partition("=")
        if key.strip().lower() != "directory":
            continue
        values.append(_value(value) if equals else "")
    return values


def _value(text: str) -> str:
    """A config value: quotes removed, ``\\\\`` escapes read, an unquoted comment dropped."""
    out: list[str] = []
    quoted = False
    escape = False
    for char in text.strip():
        if escape:
            out.append({"n": "\n", "t": "\t", "b": "\b"}.get(char, char))
            escape = False
        elif char == "\\":
            escape = True
        elif char == '"':
            quoted = not quoted
        elif char in "#;" and not quoted:
            break
        else:
            out.append(char)
    return "".join(out).strip()


def dubious_hint(message: str) -> str | None:
    """What to do about git's "dubious ownership" refusal in ``message`` (None for others)."""
    if "dubious ownership" not in message:
        return None
    where = message.split("repository at ", 1)[-1].strip().strip("'")
    return (
        f"git refuses {where}: another user owns it. If you trust it, add it to your global "
        f"git config (assay reads safe.directory there): git config --global --add "
        f"safe.directory {where}"
    )
