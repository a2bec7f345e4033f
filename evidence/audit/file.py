"""The audit file, ``assay.toml``: the systems of an audit, each with its repository and reports.

    database = "verdicts.sqlite3"        # optional: the audit's one verdict database
    [[system]]
    name = "Kestrel"
    repository = "repos/kestrel"         # relative to this file; absent: not on this machine
    reports = ["reports/kestrel-*.txt"]  # files, directories or globs (SARIF too)
    rev = "802776d..."                   # optional: when the reports state none
    against = "main"                     # optional: show drift against this revision

A bad file is one `AuditError` naming the file, the line and the key at fault; nothing else is
read or opened before the whole file is valid.
"""

from __future__ import annotations

import glob
import os
import re
import tomllib
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from evidence.limits import TooLarge, read_input
from evidence.text import unreadable

__all__ = [
    "AUDIT_NAME",
    "Audit",
    "AuditError",
    "AuditSystem",
    "find_audit",
    "load_audit",
    "name_key",
    "parse_audit",
]

#: the audit file's name in a directory
AUDIT_NAME = "assay.toml"

SYSTEM_KEYS = ("name", "repository", "reports", "rev", "against")
TOP_KEYS = ("database", "system")
_HEADER = re.compile(r"^\s*\[\[\s*system\s*\]\]")
_TABLE = re.compile(r"^\s*\[")
_KEY = re.compile(r"""^\s*(?:"([^"]*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*[=.]""")  # a.b = too
_GLOB = re.compile(r"[*?\[]")
_NUL = "{key}: a path cannot hold a NUL character (\\u0000)"


class AuditError(Exception):
    """The audit file cannot be used; the message is one line naming the file, line and key."""


@dataclass(frozen=True)
class AuditSystem:
    """One system of an audit: where its repository is and which reports are about it."""

    name: str
    repository: Path | None  # absolute; None when the file names none
    reports: tuple[Path, ...]  # the report files and directories the patterns matched
    rev: str | None = None
    against: str | None = None
    line: int = 0  # the line of its [[system]] header

    @property
    def available(self) -> bool:
        """Whether its repository is on this machine (a directory)."""
        # os.path: Path.is_dir raises on a name too long, and the file's paths are untrusted
        return self.repository is not None and os.path.isdir(self.repository)

    @property
    def report_paths(self) -> list[str]:
        """The reports as `load_reports` takes them."""
        return [str(path) for path in self.reports]


@dataclass(frozen=True)
class Audit:
    """A loaded audit file: its systems in file order."""

    path: Path
    systems: tuple[AuditSystem, ...]
    database: Path | None = None

    @property
    def base(self) -> Path:
        """The directory relative paths of the file start from."""
        return self.path.parent

    def system(self, name: str) -> AuditSystem | None:
        """The system of that name, if the audit has it."""
        return next((system for system in self.systems if system.name == name), None)


def find_audit(directory: str | Path = ".") -> Path | None:
    """``assay.toml`` in ``directory``, if there is one."""
    candidate = Path(directory) / AUDIT_NAME
    return candidate if candidate.is_file() else None


def load_audit(path: str | Path) -> Audit:
    """Read and check an audit file (AuditError: one line naming the file, line and key)."""
    path = Path(path)
    try:
        text = read_input(path).decode("utf-8-sig")  # a BOM, as Notepad writes, left out
    except UnicodeDecodeError:
        raise AuditError(f"{path}: not UTF-8 text") from None
    except OSError as error:
        raise AuditError(f"{path}: {unreadable(error)}") from None
    except TooLarge as error:
        raise AuditError(f"{path}: {error}") from None
    return parse_audit(text, path)


class _Lines:
    """Where each key of the file is written: (system index or None, key) -> line."""

    def __init__(self, text: str) -> None:
        self.keys: dict[tuple[int | None, str], int] = {}
        self.headers: list[int] = []
        table: int | None = None
        other_table = False
        for number, line in enumerate(text.splitlines(), start=1):
            if _HEADER.match(line):
                self.headers.append(number)
                table, other_table = len(self.headers) - 1, False
                continue
            if _TABLE.match(line):
                other_table = True
                continue
            found = _KEY.match(line)
            if found and not other_table:
                key = next(group for group in found.groups() if group is not None)
                self.keys.setdefault((table, key), number)

    def of(self, system: int | None, key: str | None = None) -> int:
        if key is not None and (system, key) in self.keys:
            return self.keys[(system, key)]
        if system is not None and system < len(self.headers):
            return self.headers[system]
        return 1


def parse_audit(text: str, path: Path) -> Audit:
    """An Audit from the file's text (``path`` names it and anchors relative paths)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise AuditError(f"{path}: not valid TOML: {error}") from None
    except RecursionError:  # tomllib recurses once per nested array: `[[[[...` crashed it
        raise AuditError(f"{path}: not valid TOML: nested too deeply") from None
    lines = _Lines(text)

    def fail(system: int | None, key: str | None, message: str) -> AuditError:
        return AuditError(f"{path}:{lines.of(system, key)}: {message}")

    for key in data:
        if key not in TOP_KEYS:
            raise fail(None, key, f"unknown key {key!r} (expected {', '.join(TOP_KEYS)})")
    base = path.parent
    database = data.get("database")
    if database is not None and (not isinstance(database, str) or not database):
        raise fail(None, "database", "database: a path (a string) is expected")
    if database is not None and "\0" in database:
        raise fail(None, "database", _NUL.format(key="database"))
    tables = data.get("system", [])
    if not isinstance(tables, list) or not tables:
        raise fail(None, "system", "no [[system]] table: an audit names at least one system")
    systems: list[AuditSystem] = []
    for index, table in enumerate(tables):
        systems.append(_system(table, index, base, fail, lines.of(index)))
    names = [unicodedata.normalize("NFC", system.name) for system in systems]
    keys = [name_key(system.name) for system in systems]
    for index, key in enumerate(keys):
        if key not in keys[:index]:
            continue
        name, first = systems[index].name, systems[keys.index(key)]
        if names[index] in names[:index]:
            raise fail(index, "name", f"name: system {name!r} is named twice")
        raise fail(
            index,
            "name",
            f"name: system {name!r} and system {first.name!r} (line {first.line}) differ only in"
            " case, which an audit would mix up (a scan's results are kept under the name in"
            " lower case): rename one",
        )
    return Audit(path, tuple(systems), _under(base, database) if database else None)


def name_key(name: str) -> str:
    """A system's name as an audit tells systems apart: as it reads ("Café" typed on a Mac, in
    NFD, is the name written elsewhere in NFC) and in any case."""
    return unicodedata.normalize("NFC", name).casefold()


Fail = Callable[[int | None, str | None, str], AuditError]


def _system(table: object, index: int, base: Path, fail: Fail, line: int) -> AuditSystem:
    if not isinstance(table, dict):
        raise fail(index, None, "[[system]]: a table is expected")
    for key in table:
        if key not in SYSTEM_KEYS:
            raise fail(index, key, f"unknown key {key!r} (expected {', '.join(SYSTEM_KEYS)})")
    name = table.get("name")
    if not isinstance(name, str) or not name.strip():
        raise fail(index, "name" if "name" in table else None, "name: a system needs a name")
    for key in ("repository", "rev", "against"):
        value = table.get(key)
        if value is not None and (not isinstance(value, str) or not value.strip()):
            raise fail(index, key, f"{key}: a non-empty string is expected")
    if "\0" in table.get("repository", ""):  # the file system calls raise on it
        raise fail(index, "repository", _NUL.format(key="repository"))
    patterns = table.get("reports")
    if isinstance(patterns, str):
        patterns = [patterns]
    if (
        not isinstance(patterns, list)
        or not patterns
        or not all(isinstance(each, str) and each for each in patterns)
    ):
        raise fail(
            index,
            "reports" if "reports" in table else None,
            f"reports: system {name!r} needs a list of report files, directories or globs",
        )
    reports: list[Path] = []
    for pattern in patterns:
        matched = _expand(base, pattern)
        if not matched:
            what = "matches no file" if _GLOB.search(pattern) else "no such file or directory"
            raise fail(index, "reports", f"reports: {pattern!r} {what}")
        reports += [each for each in matched if each not in reports]
    repository = table.get("repository")
    where = _under(base, repository).resolve() if repository else None
    # os.path: see `available`; a file there read as "repository not on this machine"
    if where is not None and os.path.exists(where) and not os.path.isdir(where):
        raise fail(index, "repository", f"repository: {repository!r} is a file, not a directory")
    return AuditSystem(
        name.strip(),
        where,
        tuple(reports),
        table.get("rev"),
        table.get("against"),
        line,
    )


def _under(base: Path, written: str) -> Path:
    """A path of the file: relative to its directory, ``~/`` the home directory (as a shell and
    git's own config read it: "~/src/kestrel" was a directory named "~" beside the file)."""
    if written == "~" or written.startswith("~/"):
        return Path(written).expanduser()
    return base / written


def _expand(base: Path, pattern: str) -> list[Path]:
    target = _under(base, pattern)
    if not _GLOB.search(pattern):
        return [target] if os.path.exists(target) else []  # not Path.exists: see available
    return [Path(each) for each in sorted(glob.glob(str(target), recursive=True))]
