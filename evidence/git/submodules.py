"""Submodules: where a clone keeps the repository of each (``modules/<name>`` in its git
directory, as `git submodule update` makes it), so that a file inside one is read at the commit
the revision pins, by git plumbing in that repository. Nothing is cloned, fetched or checked
out; a submodule this clone lacks is said to be missing, never guessed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path

__all__ = [
    "absolute_url",
    "common_directory",
    "inside_submodules",
    "module_directories",
    "submodule_names",
    "submodules",
    "tree_directory",
]

_SECTION = re.compile(r'\s*\[\s*submodule\s+"((?:[^"\\]|\\.)*)"\s*\]')
_SETTING = re.compile(r"\s*(path|url)\s*=\s*((?:.*\S)?)\s*$", re.IGNORECASE)


def submodule_names(gitmodules: str) -> dict[str, str]:
    """Each submodule's path -> its name, from a ``.gitmodules`` text (git's config format;
    a name is its path unless the file says otherwise)."""
    return {path: name for path, (name, _url) in submodules(gitmodules).items()}


def submodules(gitmodules: str) -> dict[str, tuple[str, str]]:
    """Each submodule's path -> (its name, its URL as written, "" when none)."""
    found: dict[str, tuple[str, str]] = {}
    name: str | None = None
    values: dict[str, str] = {}

    def done() -> None:
        if name is not None and values.get("path"):
            found[values["path"].strip("/")] = (name, values.get("url", ""))

    for line in gitmodules.splitlines():
        section = _SECTION.match(line)
        if section is not None or line.lstrip().startswith("["):
            done()
            name = re.sub(r"\\(.)", r"\1", section.group(1)) if section is not None else None
            values = {}
            continue
        setting = _SETTING.match(line)
        if name is not None and setting is not None:
            value = setting.group(2)
            if len(value) >= 2 and value[0] == value[-1] == '"':
                value = value[1:-1]
            values[setting.group(1).lower()] = value
    done()
    return found


def absolute_url(url: str, superproject: str | None) -> str | None:
    """A submodule's URL made absolute as git makes it: a relative one (``../zlib``) is taken
    from the superproject's remote URL, a ``..`` for each of its last parts; None when that
    is not known."""
    if not url.startswith(("./", "../")):
        return url or None
    if not superproject:
        return None
    base = superproject.rstrip("/")
    parts = url.split("/")
    while parts and parts[0] in (".", ".."):
        if parts.pop(0) == "..":
            cut = max(base.rfind("/"), base.rfind(":"))
            if cut < 0 or base[:cut].endswith(("/", ":")) and base[cut] == "/":
                return None  # above the host
            base = base[:cut] if base[cut] == "/" else base[: cut + 1]
    rest = "/".join(parts)
    return base + rest if base.endswith(":") else f"{base}/{rest}"


def common_directory(git_dir: Path) -> Path:
    """The git directory a worktree's own names as its main one (``commondir``), else itself."""
    try:
        named = (git_dir / "commondir").read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return git_dir
    return (git_dir / named).resolve() if named else git_dir


def module_directories(git_dir: Path, path: str, names: Mapping[str, str]) -> Iterator[Path]:
    """Where a clone may keep the submodule at ``path``: ``modules/<its name>``, then
    ``modules/<its path>``. A name climbing out of ``modules`` (``..``) is not followed: git
    refuses such names too."""
    modules = common_directory(git_dir) / "modules"
    seen: set[str] = set()
    for name in (names.get(path), path):
        if not name or name in seen:
            continue
        seen.add(name)
        parts = name.split("/")
        if any(part in ("", ".", "..") for part in parts) or "\\" in name:
            continue
        candidate = modules.joinpath(*parts)
        if (candidate / "objects").is_dir():
            yield candidate


def tree_directory(path: str | Path) -> str:
    """The directory of its work tree that ``path`` is, as ``git rev-parse --show-prefix`` says
    (`Revision.root`), told from the file system without git: "" at a work tree's top, for a
    git directory, or when no ``.git`` is above it (git would then say it is no repository)."""
    here = Path(path).resolve()
    if (here / "HEAD").is_file() and (here / "objects").is_dir():
        return ""  # a bare repository (or a git directory)
    parts: list[str] = []
    for directory in (here, *here.parents):
        if (directory / ".git").exists():
            return "/".join(reversed(parts))
        parts.append(directory.name)
    return ""


def inside_submodules(
    wanted: list[str], links: Mapping[str, str], root: str = ""
) -> tuple[list[str], dict[str, list[str]]]:
    """Split the paths a search was given (normalized; none: the whole tree, or ``root``)
    between this repository and its submodules at ``links`` (path -> pinned commit): the
    paths searched here, and per submodule the paths inside it searched there ([]: all of
    it, for a submodule inside a directory searched here)."""
    into: dict[str, list[str]] = {}
    here: list[str] = []
    for path in wanted:
        tried = [f"{root}/{path}" if path else root, path] if root else [path]
        held = next(
            (
                (link, candidate[len(link) + 1 :])
                for candidate in tried
                for link in links
                if candidate.startswith(link + "/")
            ),
            None,
        )
        if held is None:
            here.append(path)
        elif into.get(held[0]) != []:
            into.setdefault(held[0], []).append(held[1])
    covering = [f"{root}/{path}".strip("/") if root else path for path in here] or (
        [] if wanted else [root]
    )
    for link in links:
        for path in covering:
            if path in ("", ".", link) or link.startswith(path.rstrip("/") + "/"):
                into[link] = []
    return here, into
