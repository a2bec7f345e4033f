"""A system's reports as an audit reads them: every command and screen of an audit loads them
here, so that they agree on what each system holds (`Report.identity`) and on its paths."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from evidence.model import ReportSet
from evidence.sarif.rebase import for_system, has_sarif_quotes, rebase_paths

if TYPE_CHECKING:
    from evidence.audit.file import AuditSystem
    from evidence.revision import Revision

__all__ = ["at_revision", "system_reports"]


def system_reports(system: AuditSystem, *, cache: Path | None = None) -> ReportSet:
    """The reports of ``system`` (parsed ones from ``cache`` when given), its SARIF runs kept
    under its name (evidence/sarif/rebase.py `for_system`); ReportError when one cannot be
    read."""
    from evidence.reports.loading import load_reports

    return for_system(load_reports(system.report_paths, cache=cache), system.name)


def at_revision(reportset: ReportSet, revision: Revision) -> ReportSet:
    """``reportset`` with SARIF paths of another checkout found in ``revision``, as `assay check`
    and `assay review` read them before anchoring (the anchors kept on disk are keyed by these
    paths)."""
    if not has_sarif_quotes(reportset):
        return reportset
    return rebase_paths(reportset, revision.entries())
