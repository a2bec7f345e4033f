"""`assay audit init`: an audit file written from a directory of reports.

Reports are grouped by the system they are about; each system's repository is looked for among
the search directories: a repository holding the revision its reports state, else one whose
remote or directory is named after the system. A system whose repository was not found gets a
commented ``repository`` line to fill in.

A SARIF file names its scanner, not the system: it goes to the repository that holds the files
its results name (`place_scans`), with the system of that repository's reports, else as a system
named after the repository; a scan no repository holds is grouped by its scanner's name.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from evidence.audit.file import name_key
from evidence.citations import PathIndex, cited_path
from evidence.git.tree import normalize_path
from evidence.model import Report, RevisionMention, evidence_revisions, short_revision
from evidence.revision import Revision, RevisionError
from evidence.sarif.rebase import is_sarif_report, repository_path

__all__ = [
    "Found",
    "SystemReports",
    "apart",
    "find_repositories",
    "group_reports",
    "in_directories",
    "match",
    "place_scans",
    "render",
]

#: how deep below a search directory repositories are looked for
SEARCH_DEPTH = 2
#: how far below the audit's folder `audit init` looks for reports (`report_folders`)
REPORT_DEPTH = 3
#: a scan's repository holds more than this share of the files its results name (paths of the
#: scanner's checkout are read by their longest suffix, so a file such as ``__init__.py`` at the
#: root is in most repositories: one file named is no evidence)
SCAN_SHARE = 0.5
#: a system's reports name paths under one directory of its repository: at least this share
#: of them, and more than at its top (a system of a monorepo)
DIRECTORY_SHARE = 0.5
_WORD = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True)
class SystemReports:
    """The reports of one system found in the directory, and the revisions they state."""

    name: str
    files: tuple[Path, ...]
    revisions: tuple[str, ...]
    named: str = ""  # the name its reports give, when the audit needs another (`apart`)


@dataclass(frozen=True)
class Found:
    """A system's repository, and why it was taken (None: not found)."""

    repository: Path | None
    reason: str


def group_reports(reports: Iterable[Report]) -> list[SystemReports]:
    """The reports by system (SARIF runs under their scanner's name; `place_scans` finds their
    systems), in order of appearance."""
    files: dict[str, list[Path]] = {}
    revisions: dict[str, list[RevisionMention]] = {}
    for report in reports:
        name = report.system or "unnamed"
        path = Path(report.file.split("#", 1)[0])  # a SARIF file's runs are `file#n`
        if path not in files.setdefault(name, []):
            files[name].append(path)
        revisions.setdefault(name, []).extend(report.revisions)
    return [
        SystemReports(name, tuple(paths), evidence_revisions(revisions.get(name, ())))
        for name, paths in files.items()
    ]


def _is_repository(path: Path) -> bool:
    return (path / ".git").exists() or ((path / "HEAD").is_file() and (path / "objects").is_dir())


def report_folders(base: Path, *, most: int | None = None) -> list[Path]:
    """``base`` and the folders below it, three levels down, that hold reports or scans (an
    audit's ``reports/`` and ``scans/``), in order; hidden folders and git repositories (a
    system's clone kept beside its reports) are not looked into; ``most``: the folders looked
    into at the most (a hint's search in a home directory)."""
    from evidence.reports.loading import holds_reports

    found: list[Path] = []
    level = [base]
    seen = 0
    for depth in range(REPORT_DEPTH + 1):
        below: list[Path] = []
        for directory in level:
            seen += 1
            if most is not None and seen > most:
                return found
            if depth and _is_repository(directory):
                continue
            if holds_reports(directory):
                found.append(directory)
            try:
                below += sorted(
                    p
                    for p in directory.iterdir()
                    if p.name[0] != "." and not p.is_symlink() and p.is_dir()
                )
            except OSError:
                continue
        level = below
    return found


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
                return Found(repository, f"holds the stated revision {short_revision(rev)}")
    wanted = _plain(system.name)
    for repository in repositories:
        remote = _remote_name(repository)
        if remote and _plain(remote) == wanted:
            return Found(repository, f"its remote is {remote}")
    for repository in repositories:
        if _plain(repository.name) == wanted:
            return Found(repository, "named after the system")
    return Found(None, "")


def _scans(reports: Iterable[Report]) -> dict[Path, tuple[set[str], list[str]]]:
    """The files each SARIF file's results name and the revisions its runs state, by file."""
    found: dict[Path, tuple[set[str], list[str]]] = {}
    for report in reports:
        if is_sarif_report(report):
            paths, revisions = found.setdefault(Path(report.file.split("#", 1)[0]), (set(), []))
            paths.update(q.path for record in report.records for q in record.quotes if q.path)
            revisions += [m.sha for m in report.revisions if m.sha not in revisions]
    return found


def _scanned(paths: set[str], trees: dict[Path, set[str]]) -> Path | None:
    """The one repository that holds more than SCAN_SHARE of ``paths``, and more than any other."""
    held = sorted(
        ((sum(1 for p in paths if repository_path(p, tree)), repo) for repo, tree in trees.items()),
        key=lambda pair: -pair[0],
    )
    if not paths or not held or held[0][0] <= SCAN_SHARE * len(paths):
        return None
    if len(held) > 1 and held[1][0] == held[0][0]:
        return None  # as much in two repositories: not for init to choose
    return held[0][1]


def _tree(repository: Path, revisions: Sequence[str]) -> set[str]:
    """The files of ``repository`` at the first of ``revisions`` it holds, else at HEAD."""
    for rev in (*revisions, None):
        try:
            with Revision.open(repository, rev) as revision:
                return set(revision.entries())
        except RevisionError:
            continue
    return set()


def place_scans(
    matched: list[tuple[SystemReports, Found]],
    reports: Sequence[Report],
    repositories: Sequence[Path],
) -> list[tuple[SystemReports, Found]]:
    """``matched`` (every report grouped, SARIF runs under their scanner) with each SARIF file
    moved to the system of the repository that holds the files its results name: the one whose
    reports were matched to that repository, else a new system named after it. A scan no
    repository holds stays under its scanner's name."""
    scans = _scans(reports)
    if not scans or not repositories:
        return matched
    placed: dict[Path, Path] = {}
    trees: dict[tuple[Path, tuple[str, ...]], set[str]] = {}  # each read once: scans x repos
    for scan, (paths, revisions) in scans.items():
        for repo in repositories:
            if (repo, tuple(revisions)) not in trees:
                trees[repo, tuple(revisions)] = _tree(repo, revisions)
        held = {repo: trees[repo, tuple(revisions)] for repo in repositories}
        repository = _scanned(paths, held)
        if repository is not None:
            placed[scan] = repository
    if not placed:
        return matched
    out: list[tuple[SystemReports, Found]] = []
    for system, found in matched:
        files = tuple(path for path in system.files if path not in placed)
        if files == system.files:
            out.append((system, found))
        elif files and all(path in scans for path in files):  # the scanner's other scans
            stated = tuple(dict.fromkeys(r for path in files for r in scans[path][1]))
            out.append((replace(system, files=files, revisions=stated), found))
        elif files:
            out.append((replace(system, files=files), found))
    for scan, repository in placed.items():
        stated_by_scan = tuple(scans[scan][1])
        index = next((n for n, (_, f) in enumerate(out) if f.repository == repository), None)
        if index is None:
            name = _remote_name(repository) or repository.name
            system = SystemReports(name, (scan,), stated_by_scan)
            out.append((system, Found(repository, "holds the files its scan names")))
        else:
            system, found = out[index]
            stated = (*system.revisions, *(r for r in stated_by_scan if r not in system.revisions))
            out[index] = (replace(system, files=(*system.files, scan), revisions=stated), found)
    return out


def in_directories(
    matched: list[tuple[SystemReports, Found]], reports: Sequence[Report]
) -> list[tuple[SystemReports, Found]]:
    """``matched`` with each system whose reports' paths are under one directory of its
    repository, not at its top (a system of a monorepo citing ``api/server.py`` for
    ``services/kestrel/api/server.py``), given that directory as its repository: its paths are
    then read from there (`Revision.root`)."""
    paths: dict[str, set[str]] = {}
    for report in reports:
        if not is_sarif_report(report):  # a scan's paths are found by their suffix anyway
            cited = paths.setdefault(report.system or "unnamed", set())
            for record in report.records:
                cited.update(normalize_path(q.path) for q in record.quotes if q.path)
                cited.update(cited_path(p) for c in record.citations for p in c.paths)
    out = []
    for system, found in matched:
        wanted = paths.get(system.name, set()) - {""}
        directory = None
        if found.repository is not None and wanted:
            tree = _tree(found.repository, system.revisions)
            directory = _directory(wanted, tree, system.name)
        if directory is None or found.repository is None:
            out.append((system, found))
        elif not (found.repository / directory).is_dir():  # a bare clone: said, not written
            out.append((system, replace(found, reason=f"{found.reason}; {_UNDER} {directory}")))
        else:
            reason = f"{found.reason}; {_UNDER} {directory}"
            out.append((system, Found(found.repository / directory, reason)))
    return out


_UNDER = "its reports' paths are under"


def _directory(paths: set[str], tree: set[str], name: str) -> str | None:
    """The one directory of ``tree`` holding at least DIRECTORY_SHARE of ``paths`` (as files
    or directories below it), and more than its top does (of several alike, the one named after
    the system ``name``); None when there is none."""
    held = tree | PathIndex(tree).directories
    at_top = sum(1 for path in paths if path in held)
    by_name: dict[str, list[str]] = {}
    for each in held:
        by_name.setdefault(each.rsplit("/", 1)[-1], []).append(each)
    counts: Counter[str] = Counter()
    for path in paths:
        tail = "/" + path
        prefixes = {
            n[: -len(tail)] for n in by_name.get(path.rsplit("/", 1)[-1], ()) if n.endswith(tail)
        }
        counts.update(prefixes)
    most = max(counts.values(), default=0)
    if most <= at_top or most < DIRECTORY_SHARE * len(paths):
        return None
    best = [directory for directory, count in counts.items() if count == most]
    if len(best) > 1:  # as many under several (services/alpha, services/beta): the one named
        best = [each for each in best if _plain(each.rsplit("/", 1)[-1]) == _plain(name)]
    return best[0] if len(best) == 1 else None


def apart(matched: list[tuple[SystemReports, Found]]) -> list[tuple[SystemReports, Found]]:
    """``matched`` with a system named as one before it but for case ("kestrel" after
    "Kestrel") named "kestrel (2)": an audit file refuses names it cannot tell apart."""
    taken: set[str] = set()
    out = []
    for system, found in matched:
        name, n = system.name, 2
        while name_key(name) in taken:
            name, n = f"{system.name} ({n})", n + 1
        taken.add(name_key(name))
        if name != system.name:
            system = replace(system, name=name, named=system.name)
        out.append((system, found))
    return out


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
        if system.named:
            out[-1] += f"  # its reports name {system.named!r}, a system above but for case"
        if found.repository is not None:
            where = _string(_relative(found.repository, base))
            out.append(f"repository = {where}  # {found.reason}")
        else:
            out.append(f'# repository = ""  # {searched}: the path of its repository')
        out.append("reports = [")
        out += [f"  {_string(_relative(path, base))}," for path in system.files]
        out.append("]")
        if len(system.revisions) > 1:
            listed = ", ".join(short_revision(rev) for rev in system.revisions)
            out.append(f'rev = "{system.revisions[0]}"  # the reports state several: {listed}')
        elif not system.revisions and found.repository is not None:
            out.append('rev = "HEAD"  # the reports state no revision: name the one they cite')
        elif not system.revisions:
            out.append('# rev = ""  # the reports state no revision: name the one they cite')
        out.append('# against = "main"  # show what became of each quote at this revision')
    return "\n".join(out) + "\n"
