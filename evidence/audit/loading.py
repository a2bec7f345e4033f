"""A system's reports as an audit reads them: every command and screen of an audit loads them
here, so that they agree on what each system holds (`Report.identity`); its SARIF paths are
found in its revision by `evidence.sarif.rebase.at_revision`, as `assay check` finds them."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from evidence.model import ReportSet
from evidence.sarif.rebase import for_system

if TYPE_CHECKING:
    from evidence.audit.file import AuditSystem

__all__ = ["system_reports"]


def system_reports(system: AuditSystem, *, cache: Path | None = None) -> ReportSet:
    """The reports of ``system`` (parsed ones from ``cache`` when given), its SARIF runs kept
    under its name (evidence/sarif/rebase.py `for_system`); ReportError when one cannot be
    read."""
    from evidence.reports.loading import load_reports

    return for_system(load_reports(system.report_paths, cache=cache), system.name)
