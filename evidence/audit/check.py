"""`assay check` of an audit: each system checked against its own repository and revision.

A system whose repository is not on this machine is reported as such (its reports are still
read: records and quotes counted); a system whose reports or revision cannot be used carries the
one-line error `assay check` would have stopped with. Each checked system's result is exactly
what `assay check` gives for its reports. A drift revision (``against``) a system's clone lacks
is no such error: the system is checked at its cited revision and a note says the drift is not
shown (its review opens so, with a warning), and the system does not pass without it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from evidence.anchor_cache import CachingAnchorer
from evidence.audit.file import Audit, AuditSystem
from evidence.audit.loading import claims, system_reports
from evidence.check import CheckResult, keep_checked, run_check
from evidence.check_output import to_json, to_text
from evidence.inputs import CheckError, choose_revision, refuse_unusable
from evidence.model import ReportSet
from evidence.reports.loading import ReportError
from evidence.revision import Revision, RevisionError
from evidence.text import escaped

__all__ = ["AuditCheck", "SystemCheck", "audit_json", "audit_text", "check_audit", "check_system"]

CHECKED = "checked"
NO_REPOSITORY = "no_repository"
ERROR = "error"


@dataclass(frozen=True)
class SystemCheck:
    """One system's outcome: checked (a CheckResult), no repository here, or an input error."""

    system: AuditSystem
    state: str
    reportset: ReportSet | None = None
    result: CheckResult | None = None
    error: str | None = None
    #: why the drift asked for (``against``) was not followed: git does not know the revision
    unfollowed: str | None = None

    @property
    def records(self) -> int:
        """Records of its reports (0 when they could not be read)."""
        reports = self.reportset.reports if self.reportset else ()
        return sum(len(report.records) for report in reports)

    @property
    def quotes(self) -> int:
        """Quotes of its reports."""
        reports = self.reportset.reports if self.reportset else ()
        return sum(len(record.quotes) for report in reports for record in report.records)

    @property
    def exit_code(self) -> int:
        """0 when checked and everything holds (the drift asked for included), 1 otherwise."""
        # an incomplete check (a file git could not read, 2 for one system) is not a pass
        if self.result is None or self.unfollowed is not None:
            return 1
        return min(self.result.exit_code, 1)


@dataclass(frozen=True)
class AuditCheck:
    """The systems of an audit, each checked."""

    audit: Audit
    systems: tuple[SystemCheck, ...]

    @property
    def exit_code(self) -> int:
        """0 when every system was checked and holds, else 1."""
        return max((system.exit_code for system in self.systems), default=0)

    def summary(self) -> dict[str, int]:
        """Counts over the audit."""
        checked = [s for s in self.systems if s.result is not None]
        return {
            "systems": len(self.systems),
            "checked": len(checked),
            "ok": sum(1 for s in checked if s.exit_code == 0),
            "no_repository": sum(1 for s in self.systems if s.state == NO_REPOSITORY),
            "errors": sum(1 for s in self.systems if s.state == ERROR),
            "quotes": sum(s.quotes for s in self.systems),
            "failing": sum(len(s.result.failing) for s in checked if s.result),
            "citations_missing": sum(len(s.result.missing_citations) for s in checked if s.result),
            "unchecked": sum(len(s.result.unchecked) for s in checked if s.result),
        }


def check_system(
    system: AuditSystem,
    *,
    cache: Any = None,
    against: str | None = None,
    anchor_cache: Path | None = None,
) -> SystemCheck:
    """Check one system of an audit (``against`` overrides the system's own); with
    ``anchor_cache``, anchors unchanged since they were last computed come from there."""
    try:
        reportset = system_reports(system, cache=cache)
    except ReportError as error:
        return SystemCheck(system, ERROR, error=str(error))
    try:  # whether its repository is here or not, as the audit screen reads it
        refuse_unusable(reportset)
    except CheckError as error:
        return SystemCheck(system, ERROR, reportset, error=str(error))
    if not system.available:
        return SystemCheck(system, NO_REPOSITORY, reportset)
    assert system.repository is not None
    against = against or system.against
    unfollowed = None
    try:
        wanted = choose_revision(reportset, system.rev)
        with Revision.open(system.repository, wanted) as revision:
            root = revision.root
            anchorer = None
            if anchor_cache is not None:
                anchorer = CachingAnchorer(revision, directory=anchor_cache, store=False)
            newer = None if against is None else _newer(system.repository, against)
            if isinstance(newer, str):  # the clone lacks it: checked, no drift (as reviewed)
                unfollowed, newer = f"drift against {against}: {newer}: no drift shown", None
            try:
                result = run_check(reportset, revision, anchorer=anchorer, against=newer)
            finally:
                if newer is not None:
                    newer.close()
    except (CheckError, RevisionError) as error:
        return SystemCheck(system, ERROR, reportset, error=str(error))
    if unfollowed is not None:
        result = replace(result, diagnostics=(*result.diagnostics, unfollowed))
    if anchor_cache is not None:  # the cited paths beside the anchors: the audit screen's counts
        keep_checked(anchor_cache, result, root)
    return SystemCheck(system, CHECKED, reportset, result, unfollowed=unfollowed)


def _newer(repository: Path, against: str) -> Revision | str:
    """The revision drift is followed to, or why git cannot read it."""
    try:
        return Revision.open(repository, against)
    except RevisionError as error:
        return str(error)


def check_audit(
    audit: Audit,
    *,
    cache: Any = None,
    against: str | None = None,
    anchor_cache: Path | None = None,
    progress: Callable[[AuditSystem], None] | None = None,
    processes: int | None = None,
) -> AuditCheck:
    """Check every system of the audit; the results in file order. ``processes``: how many
    processes check them (evidence/audit/processes.py; None: two when there are two cores and
    two systems to check, 1: this one). ``progress`` is told of each system as it starts, in
    this process only."""
    from evidence.audit.processes import check_in_processes, processes_for

    def check(system: AuditSystem) -> SystemCheck:
        return check_system(system, cache=cache, against=against, anchor_cache=anchor_cache)

    count = processes_for(audit.systems) if processes is None else processes
    if count > 1 and progress is None:
        done = list(check_in_processes(audit.systems, check, count))
    else:
        done = []
        for system in audit.systems:
            if progress is not None:
                progress(system)
            done.append(check(system))
    held = claims([(each.system.name, each.reportset) for each in done])
    return AuditCheck(
        audit,
        tuple(
            SystemCheck(each.system, ERROR, each.reportset, error=claim.shared)
            if claim.shared and each.state != ERROR
            else each
            for each, claim in zip(done, held, strict=True)
        ),
    )


def system_json(check: SystemCheck) -> dict[str, Any]:
    """One entry of the JSON's ``systems``: name, repository, state, then `check`'s JSON."""
    system = check.system
    entry: dict[str, Any] = {
        "system": system.name,
        "repository": None if system.repository is None else str(system.repository),
        "state": check.state,
        "error": check.error,
        "reports": system.report_paths,
        "records": check.records,
        "quote_count": check.quotes,
    }
    if check.result is not None:
        entry.update(to_json(check.result))
    return entry


def audit_json(check: AuditCheck) -> dict[str, Any]:
    """The JSON of `assay check` on an audit."""
    return {
        "audit": str(check.audit.path),
        "systems": [system_json(each) for each in check.systems],
        "summary": check.summary(),
    }


def _heading(check: SystemCheck) -> str:
    system = check.system
    where = str(system.repository) if system.repository else "no repository named"
    return escaped(f"== {system.name} ({where})")


def audit_text(check: AuditCheck) -> str:
    """The text of `assay check` on an audit: each system as `check` prints it, then totals."""
    out: list[str] = []
    for each in check.systems:
        out.append(_heading(each))
        if each.state == NO_REPOSITORY:
            out.append(
                f"repository not on this machine: {len(each.system.reports)} report path(s), "
                f"{each.records} records, {each.quotes} quotes not checked"
            )
        elif each.state == ERROR:
            # a line per file, as `assay check` gives them (one line, "\u000a" between them)
            first, *more = (each.error or "").split("\n")
            out.append(escaped(f"error: {first}"))
            out += [escaped(f"       {line}") for line in more]
        elif each.result is not None:
            out.append(to_text(each.result))
        out.append("")
        for line in _record_lines(each) if each.state == NO_REPOSITORY else ():
            out.append(line)
    counts = check.summary()
    out.append(
        f"audit: {counts['systems']} systems, {counts['checked']} checked ({counts['ok']} OK), "
        f"{counts['no_repository']} without a repository here, {counts['errors']} with errors; "
        f"{counts['quotes']} quotes, {counts['failing']} failing, "
        f"{counts['citations_missing']} cited path(s) missing; "
        + (f"{counts['unchecked']} quote(s) outside any record; " if counts["unchecked"] else "")
        + f"{'FAIL' if check.exit_code else 'OK'}"
    )
    return "\n".join(out)


def _record_lines(check: SystemCheck) -> list[str]:
    if check.reportset is None:
        return []
    lines = []
    for report in check.reportset.reports:
        lines.append(escaped(f"  {report.file}: {len(report.records)} records"))
    lines.append("")
    return lines
