"""What `assay check` and `assay review` accept before any git work: reports that are reports,
about one system, and one revision to read them at (stated, or named with --rev).

Stdlib, the model and the SARIF report test only: the review command calls this before the
app's first frame.
"""

from __future__ import annotations

from evidence.model import Kind, Report, ReportSet
from evidence.sarif.rebase import is_sarif_report


class CheckError(Exception):
    """The check cannot run (no revision to check against, ...); the message says why."""


#: where the revision came from, when the reports state it
STATED = "stated"


def missing_markers(report: Report) -> str | None:
    """What a parsed file lacks to be an evidence report, or None when it has any of the markers
    the parser knows: a title ending in "report", a ``Type:`` line, a declared record or an
    annotation, a quote (``--- path``)."""
    if report.title.lower().rstrip(". ").endswith("report") or report.type_line:
        return None
    if any(record.kind is not Kind.NARRATIVE or record.quotes for record in report.records):
        return None
    return (
        "not an evidence report: no title ending in 'report', no 'Type:' line, no shared "
        "record or annotation and no quote ('--- path')"
    )


def refuse_unusable(reportset: ReportSet) -> None:
    """Raise CheckError when a file is not a report (`missing_markers`), a report holds no
    records (nor quotes) or the reports name several systems; the message has a line per such
    file (a report's diagnostics under it), or names the systems."""
    # a SARIF run names its scanner, not the system, and a clean scan has no results
    reports = [report for report in reportset.reports if not is_sarif_report(report)]
    lines = []
    for report in reports:
        missing = missing_markers(report)
        if missing is not None:
            lines.append(f"{report.file}: {missing}")
        elif not report.records:
            lines.append(f"{report.file}: no records and no quotes; is it a report?")
            lines += [f"  {d.shown(report.file)}" for d in report.diagnostics]
    if lines:
        raise CheckError("\n".join(lines))
    systems = list(dict.fromkeys(report.system for report in reports if report.system))
    if len(systems) > 1:
        named = ", ".join(systems)
        raise CheckError(
            f"the reports are about {len(systems)} systems ({named}); one revision of one "
            "repository cannot hold them all: check or review each system's reports apart, or "
            "all of them as an audit (`assay audit init DIR` writes its assay.toml)"
        )


def choose_revision(reportset: ReportSet, rev: str | None) -> str:
    """The revision to check: `rev` if given, else the single id the reports state (40-hex, or
    an abbreviated one when none is in full: `ReportSet.revision_ids`)."""
    if rev is not None:  # `--rev ""` (an unset variable) is refused by git, never the stated id
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
            "the reports state no revision id; pass --rev (HEAD too must be named: --rev HEAD)"
        )
    if len(stated) > 1:
        raise CheckError(
            f"the reports state several revisions ({_where_stated(reportset, stated)}); pass --rev"
        )
    return stated[0]


def _where_stated(reportset: ReportSet, stated: tuple[str, ...]) -> str:
    """Each id where a report first states it (``1a2b… at r.txt:7``), so that the choice of
    ``--rev`` is made knowing which is which."""
    first: dict[str, str] = {}
    for report in reportset.reports:
        for mention in report.revisions:
            first.setdefault(mention.sha, f"{report.file}:{mention.line}")
    return ", ".join(f"{sha} at {first[sha]}" if sha in first else sha for sha in stated)


def revision_origin(rev: str | None) -> str:
    """Where the revision came from, as the review header shows it: `STATED` or ``--rev X``."""
    return f"--rev {rev}" if rev else STATED
