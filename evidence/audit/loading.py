"""A system's reports as an audit reads them: every command and screen of an audit loads them
here, so that they agree on what each system holds (`Report.identity`); its SARIF paths are
found in its revision by `evidence.sarif.rebase.at_revision`, as `assay check` finds them."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from evidence.model import ReportSet
from evidence.sarif.rebase import for_system, system_scope

if TYPE_CHECKING:
    from evidence.audit.file import AuditSystem

__all__ = ["Claim", "claims", "system_reports"]


def system_reports(system: AuditSystem, *, cache: Path | None = None) -> ReportSet:
    """The reports of ``system`` (parsed ones from ``cache`` when given), its SARIF runs kept
    under its name (evidence/sarif/rebase.py `for_system`); ReportError when one cannot be
    read."""
    from evidence.reports.loading import load_reports

    return for_system(load_reports(system.report_paths, cache=cache), system.name)


class Claim(NamedTuple):
    """A system's hold on the audit's verdicts: the report identities counted for it, and why
    it cannot be reviewed when a system listed before it holds one of its reports."""

    identities: frozenset[str]
    shared: str | None = None


def claims(systems: Sequence[tuple[str, ReportSet | None]]) -> list[Claim]:
    """Each system's `Claim`, in file order. Verdicts are kept per report identity (`<system
    in the title>/<report type>`): two systems holding reports of one identity (one report
    listed twice, or one system's reports at two revisions) would show and count each other's
    verdicts; the later one is refused and counts none. A system whose reports cannot be used
    (`refuse_unusable`: a glob that took other systems' reports too) claims none: refused
    itself, it left the systems whose reports it took refused as well."""
    held: dict[str, str] = {}
    found = []
    for name, reportset in systems:
        if reportset is None or _unusable(reportset):
            found.append(Claim(frozenset()))
            continue
        identities = frozenset(r.identity for r in reportset.reports)
        shared = sorted(identity for identity in identities if identity in held)
        if shared:
            first = held[shared[0]]
            found.append(Claim(frozenset(), _shared(name, first, shared[0])))
            continue
        held.update(dict.fromkeys(identities, name))
        found.append(Claim(identities))
    return found


def _shared(name: str, first: str, identity: str) -> str:
    """Why system ``name`` cannot hold the report ``identity`` that system ``first`` holds."""
    scope = system_scope(name)
    if name != first and scope == system_scope(first) and identity.endswith(f"@{scope}"):
        # one scanner's run over both: kept under each system's name, which these two share
        return (
            f"system {first!r} keeps a scan of the same scanner under the same name ({scope!r}:"
            " a scan's results are kept under the system name's letters a-z and digits, and"
            " these two names have the same); rename one of them"
        )
    return (
        f"system {first!r} holds the same report ({identity}): an audit keeps one set of"
        " verdicts per report, which the two would share; review this one in an audit of its"
        " own, with its own database"
    )


def _unusable(reportset: ReportSet) -> bool:
    from evidence.inputs import CheckError, refuse_unusable

    try:
        refuse_unusable(reportset)
    except CheckError:
        return True
    return False
