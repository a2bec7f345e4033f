"""What `assay check` and `assay review` accept before any git work: reports that are reports,
about one system, and one revision to read them at (stated, or named with --rev).

Stdlib, the model and the SARIF report test only: the review command calls this before the
app's first frame.
"""

from __future__ import annotations

from evidence.model import ReportSet
from evidence.sarif.rebase import is_sarif_report


class CheckError(Exception):
    """The check cannot run (no revision to check against, ...); the message says why."""


#: where the revision came from, when the reports state it
STATED = "stated"


def refuse_unusable(reportset: ReportSet) -> None:
    """Raise CheckError when a report holds no records (nor quotes) or the reports name several
    systems; the message names the files and their parser diagnostics, or the systems."""
    # a SARIF run names its scanner, not the system, and a clean scan has no results
    reports = [report for report in reportset.reports if not is_sarif_report(report)]
    empty = [report for report in reports if not report.records]
    if empty:
        lines = []
        for report in empty:
            lines.append(f"{report.file}: no records and no quotes; is it a report?")
            lines += [f"  {report.file}:{d.line}: {d.message}" for d in report.diagnostics]
        raise CheckError("\n".join(lines))
    systems = list(dict.fromkeys(report.system for report in reports if report.system))
    if len(systems) > 1:
        named = ", ".join(systems)
        raise CheckError(
            f"the reports are about {len(systems)} systems ({named}); one revision of one "
            "repository cannot hold them all: check or review each system's reports apart"
        )


def choose_revision(reportset: ReportSet, rev: str | None) -> str:
    """The revision to check: `rev` if given, else the single 40-hex id the reports state."""
    if rev:
        return rev
    stated = reportset.revision_ids()
    if not stated:
        sarif = [report for report in reportset.reports if is_sarif_report(report)]
        if sarif:
            raise CheckError(
                f"{sarif[0].file}: the SARIF run states no revision (versionControlProvenance); "
                "pass --rev (HEAD too must be named: --rev HEAD)"
            )
        raise CheckError(
            "the reports state no 40-hex revision id; pass --rev "
            "(HEAD too must be named: --rev HEAD)"
        )
    if len(stated) > 1:
        listed = ", ".join(stated)
        raise CheckError(f"the reports state several revisions ({listed}); pass --rev")
    return stated[0]


def revision_origin(rev: str | None) -> str:
    """Where the revision came from, as the review header shows it: `STATED` or ``--rev X``."""
    return f"--rev {rev}" if rev else STATED
