"""`assay audit init`: an audit file written from a directory of reports.

Reports are grouped by the system they are about; each system's repository is looked for among
the search directories: a repository holding the revision its reports state, else one whose
remote or directory is named after the system. A system whose repository was not found gets a
commented ``repository`` line to fill in.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from evidence.model import Report
from evidence.revision import Revision, RevisionError

__all__ = ["Found", "SystemReports", "find_repositories", "group_reports", "match", "render"]

#: how deep below a search directory repositories are looked for
SEARCH_DEPTH = 2
_WORD = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True)
class SystemReports:
    """The reports of one system found in the directory, and the revisions they state."""

    name: str
    files: tuple[Path, ...]
    revisions: tuple[str, ...]


@dataclass(frozen=True)
class Found:
    """A system's repository, and why it was taken (None: not found)."""

    repository: Path | None
    reason: str


def group_reports(reports: Iterable[Report]) -> list[SystemReports]:
    """The reports by system (SARIF runs under their scanner's name), in order of appearance."""
    files: dict[str, list[Path]] = {}
    revisions: dict[str, list[str]] = {}
    for report in reports:
        name = report.system or "unnamed"
        path = Path(report.file.split("#", 1)[0])  # a SARIF file's runs are `file#n`
        if path not in files.setdefault(name, []):
            files[name].append(path)
        for mention in report.revisions:
            if mention.sha not in revisions.setdefault(name, []):
                revisions[name].append(mention.sha)
    return [
        SystemReports(name, tuple(paths), tuple(revisions.get(name, ())))
        for name, paths in files.items()
    ]


def _is_repository(path: Path) -> bool:
    return (path / ".git").exists() or ((path / "HEAD").is_file() and (path / "objects").is_dir())


def find_repositories(search: Sequence[str | Path]) -> list[Path]:
    """Git repositories (work trees or bare) at or below the search directories, two levels."""
    found: list[Path] = []
    for top in search:
        level = [Path(top)]
        for _ in range(SEARCH_DEPTH + 1):
            below: list[Path] = []
            for directory in level:
                if _is_repository(directory):
                    resolved = directory.resolve()
                    if resolved not in found:
                        found.append(resolved)
                    continue
                try:
                    below += sorted(
                        p for p in directory.iterdir() if p.is_dir() and p.name[0] != "."
                    )
                except OSError:
                    continue
            level = below
    return found


def _plain(name: str) -> str:
    return _WORD.sub("", name.lower())


def _remote_name(repository: Path) -> str | None:
    try:
        with Revision.open(repository) as revision:
            url = revision.remote_url()
    except RevisionError:
        return None
    if not url:
        return None
    return url.rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1].removesuffix(".git")


def _holds(repository: Path, rev: str) -> bool:
    try:
        with Revision.open(repository, rev):
            return True
    except RevisionError:
        return False


def match(system: SystemReports, repositories: Sequence[Path]) -> Found:
    """The repository of a system: one holding its stated revision, else one whose remote, else
    whose directory, is named after it."""
    for rev in system.revisions:
        for repository in repositories:
            if _holds(repository, rev):
                return Found(repository, f"holds the stated revision {rev[:12]}")
    wanted = _plain(system.name)
    for repository in repositories:
        remote = _remote_name(repository)
        if remote and _plain(remote) == wanted:
            return Found(repository, f"its remote is {remote}")
    for repository in repositories:
        if _plain(repository.name) == wanted:
            return Found(repository, "named after the system")
    return Found(None, "")


def _string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a TOML basic string


def _relative(path: Path, base: Path) -> str:
    """Relative to the audit file when near it (the audit moves with its reports), else
    absolute."""
    try:
        relative = Path(os.path.relpath(path, base))
    except ValueError:  # another drive
        return path.as_posix()
    if relative.parts[:3] == ("..", "..", ".."):
        return path.resolve().as_posix()
    return relative.as_posix()


def render(
    systems: Sequence[tuple[SystemReports, Found]], base: Path, search: Sequence[str | Path]
) -> str:
    """The text of the audit file (paths relative to ``base``, where it is written)."""
    out = [
        "# assay audit: one [[system]] table per system (README.md, 'Audits').",
        "# Paths are relative to this file. Written by `assay audit init`.",
    ]
    searched = (
        f"not found in {', '.join(str(each) for each in search)}"
        if search
        else "not looked for (no --search given)"
    )
    for system, found in systems:
        out += ["", "[[system]]", f"name = {_string(system.name)}"]
        if found.repository is not None:
            where = _string(_relative(found.repository, base))
            out.append(f"repository = {where}  # {found.reason}")
        else:
            out.append(f'# repository = ""  # {searched}: the path of its repository')
        out.append("reports = [")
        out += [f"  {_string(_relative(path, base))}," for path in system.files]
        out.append("]")
        if len(system.revisions) > 1:
            listed = ", ".join(rev[:12] for rev in system.revisions)
            out.append(f'rev = "{system.revisions[0]}"  # the reports state several: {listed}')
        elif not system.revisions and found.repository is not None:
            out.append('rev = "HEAD"  # the reports state no revision: name the one they cite')
        elif not system.revisions:
            out.append('# rev = ""  # the reports state no revision: name the one they cite')
        out.append('# against = "main"  # show what became of each quote at this revision')
    return "\n".join(out) + "\n"
