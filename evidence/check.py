"""`assay check` without the command line: anchor every quote, replay every search, summarize.

What it found is rendered as JSON or text by evidence/check_output.py.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from evidence.anchor_cache import key_for, put
from evidence.anchor_cache import unreadable as paths_unreadable
from evidence.anchoring import Anchorer
from evidence.citations import CitedPath, CitedState, PathIndex, check_citations, past_end
from evidence.drift import Drift, relation_of
from evidence.drift_files import FileDrift, follow_with_cited
from evidence.drift_found import look_at_newer
from evidence.model import Anchor, FileState, Quote, Record, Report, ReportSet, SearchReplay, Tier
from evidence.replay import options_for, replay
from evidence.revision import GrepHit, Revision, RevisionError
from evidence.sarif.rebase import at_revision, is_sarif_report

__all__ = ["CheckResult", "QuoteResult", "SearchResult", "run_check"]


@dataclass(frozen=True)
class QuoteResult:
    """One quote of one report with its anchor."""

    report: Report
    record: Record
    anchor: Anchor

    @property
    def quote(self) -> Quote:
        """The quote that was anchored."""
        return self.anchor.quote


@dataclass(frozen=True)
class SearchResult:
    """One replayed search command."""

    report: Report
    search: SearchReplay
    hits: tuple[GrepHit, ...] = ()
    error: str | None = None
    ignored_flags: tuple[str, ...] = ()


@dataclass(frozen=True)
class CheckResult:
    """Everything `assay check` found, in report order."""

    revision: str
    quotes: tuple[QuoteResult, ...] = ()
    searches: tuple[SearchResult, ...] = ()
    diagnostics: tuple[str, ...] = field(default=())
    citations: tuple[CitedPath, ...] = ()
    #: with --against: the newer revision and each quote's drift (in `quotes` order)
    against: str | None = None
    drifts: tuple[Drift | None, ...] = ()
    #: with --against: "descendant", "diverged" or "ancestor" (how it stands to the revision)
    relation: str | None = None
    #: quoted paths the revision's tree holds whose objects the repository lacks (a partial or
    #: damaged clone): their quotes read as in a missing file, but the report is not to blame
    unreadable: tuple[str, ...] = ()
    #: quotes outside any record or behind a marker not read, as their diagnostics say them:
    #: never checked
    unchecked: tuple[str, ...] = ()
    #: with --against: each cited path's drift (in `citations` order; None: not followed, as a
    #: wildcard, a directory or a path not at the revision)
    cited_drifts: tuple[FileDrift | None, ...] = ()

    @property
    def drifted(self) -> tuple[tuple[QuoteResult, Drift], ...]:
        """Quotes whose passage changed or was deleted at `against`."""
        return tuple(
            (result, drift)
            for result, drift in zip(self.quotes, self.drifts, strict=False)
            if drift is not None and drift.status.breaks
        )

    @property
    def drifted_citations(self) -> tuple[tuple[CitedPath, FileDrift], ...]:
        """Cited files, or the lines they name, that went or changed at `against`."""
        return tuple(
            (cited, drift)
            for cited, drift in zip(self.citations, self.cited_drifts, strict=False)
            if drift is not None and drift.breaks
        )

    @property
    def missing_citations(self) -> tuple[CitedPath, ...]:
        """Cited paths that name nothing at the revision."""
        return tuple(cited for cited in self.citations if cited.state.missing)

    @property
    def failing(self) -> tuple[QuoteResult, ...]:
        """Quotes that are not verified in their cited file, or whose claimed range is wrong."""
        return tuple(result for result in self.quotes if result.anchor.failing)

    @property
    def holds(self) -> bool:
        """Every quote verified, no claimed range wrong, every cited path there, no quote left
        outside a record, every search the reports hold replayed (drift aside)."""
        return not (self.failing or self.missing_citations or self.unchecked or self.search_errors)

    @property
    def search_errors(self) -> tuple[SearchResult, ...]:
        """Searches that could not be replayed (a path not in the revision, a pattern git
        refuses): the absence they stand for is not shown."""
        return tuple(search for search in self.searches if search.error)

    @property
    def exit_code(self) -> int:
        """0 when the check holds and (with `against`) no quoted passage changed or was
        deleted, 2 when files could not be read (the check is incomplete), else 1."""
        if self.unreadable:
            return 2
        return 0 if self.holds and not self.drifted and not self.drifted_citations else 1

    def summary(self) -> dict[str, int]:
        """Counts by tier and by kind of failure."""
        tiers = Counter(result.anchor.match for result in self.quotes)
        files = Counter(result.anchor.file for result in self.quotes)
        return {
            "quotes": len(self.quotes),
            **{tier.value: tiers[tier] for tier in Tier},
            "verified": sum(1 for r in self.quotes if r.anchor.verified),
            "failing": len(self.failing),
            "range_wrong": sum(  # in a file not there, the range is not what failed
                1
                for r in self.quotes
                if r.anchor.range_ok is False and r.anchor.file is FileState.OK
            ),
            "ambiguous": sum(1 for r in self.quotes if r.anchor.ambiguous),
            "files_missing": files[FileState.MISSING],
            "files_binary": files[FileState.BINARY],
            "files_too_large": files[FileState.TOO_LARGE],
            "found_elsewhere": sum(1 for r in self.quotes if r.anchor.elsewhere),
            "searches": len(self.searches),
            "search_errors": len(self.search_errors),
            "unchecked": len(self.unchecked),
            "citations": len(self.citations),
            "citations_missing": len(self.missing_citations),
            "citations_directory": sum(
                1 for cited in self.citations if cited.state is CitedState.DIRECTORY
            ),
        }


def run_check(
    reportset: ReportSet,
    revision: Revision,
    *,
    anchorer: Anchorer | None = None,
    cancel: threading.Event | None = None,
    progress: Callable[[int, int], None] | None = None,
    against: Revision | None = None,
) -> CheckResult:
    """Anchor every quote and replay every search of the loaded reports at `revision`, and
    with `against` follow every anchored passage to that newer revision (evidence/drift.py).

    Paths that SARIF files give from another checkout are first found in the revision
    (evidence/sarif/rebase.py)."""
    reportset = at_revision(reportset, revision)
    anchorer = anchorer or Anchorer(revision)
    work = [
        (report, record, quote)
        for report in reportset.reports
        for record in report.records
        for quote in record.quotes
    ]
    anchors = anchorer.anchor_many(
        [quote for _, _, quote in work], cancel=cancel, progress=progress
    )
    quotes = [
        QuoteResult(report, record, anchor)
        for (report, record, _), anchor in zip(work, anchors, strict=False)
    ]
    searches: list[SearchResult] = []
    for report in reportset.reports:
        for record in report.records:
            for search in record.searches:
                ignored = options_for(search).ignored
                try:
                    hits = tuple(replay(search, revision, cancel=cancel))
                except RevisionError as error:
                    searches.append(SearchResult(report, search, (), str(error), ignored))
                else:
                    searches.append(SearchResult(report, search, hits, None, ignored))
    # what the parser noted in each report (an unattributed passage, ...), then across reports
    found = [
        d.shown(report.file, results=is_sarif_report(report))
        for report in reportset.reports
        for d in report.diagnostics
    ]
    diagnostics = (*found, *(d.shown(file) for file, d in reportset.diagnostics))
    unchecked = tuple(
        d.shown(report.file)
        for report in reportset.reports
        for d in report.diagnostics
        if d.unchecked_quote
    )
    unreadable = paths_unreadable(anchors, revision)
    sources = {path: revision.read(path) for path in unreadable}
    in_lfs = [path for path, source in sources.items() if source.lfs is not None]
    elsewhere = [path for path, source in sources.items() if source.inside is not None]
    damaged = [path for path in unreadable if path not in in_lfs and path not in elsewhere]
    if damaged:
        diagnostics = (
            *diagnostics,
            f"{len(damaged)} quoted file(s) are in {revision.commit[:12]} but their objects "
            f"are missing from the repository (a partial or damaged clone: see git fsck), so "
            f"their quotes were not checked: {_some(damaged)}",
        )
    if in_lfs:
        diagnostics = (
            *diagnostics,
            f"{len(in_lfs)} quoted file(s) are stored in Git LFS and this clone does not have "
            f"their content (git lfs fetch brings it), so their quotes were not checked: "
            f"{_some(in_lfs)}",
        )
    if elsewhere:
        submodules = sorted({inside[0] for path in elsewhere if (inside := sources[path].inside)})
        diagnostics = (
            *diagnostics,
            f"{len(elsewhere)} quoted file(s) are inside submodules whose repositories are not "
            f"in this clone (git submodule update --init brings them), so their quotes were not "
            f"checked: {_some(elsewhere)} (in {_some(submodules)})",
        )
    citations = past_end(
        check_citations(reportset, PathIndex(revision.paths(), revision.held, revision.root)),
        revision.line_count,
    )
    drifts: tuple[Drift | None, ...] = ()
    cited_drifts: tuple[FileDrift | None, ...] = ()
    how = None
    if against is not None:
        followed_quotes, followed = follow_with_cited(
            anchors, citations, revision, against, cancel=cancel
        )
        # the quotes not anchored here, looked for there (a report stating the wrong revision)
        drifts = tuple(
            look_at_newer([a.quote for a in anchors], followed_quotes, against, cancel=cancel)
        )
        cited_drifts = tuple(followed.get((cited.path, cited.lines)) for cited in citations)
        how = relation_of(revision, against).value
    return CheckResult(
        revision.commit,
        tuple(quotes),
        tuple(searches),
        diagnostics,
        citations,
        None if against is None else against.commit,
        drifts,
        how,
        unreadable,
        unchecked,
        cited_drifts,
    )


def _some(paths: Sequence[str]) -> str:
    """The first five paths, and how many more."""
    more = f" and {len(paths) - 5} more" if len(paths) > 5 else ""
    return ", ".join(paths[:5]) + more


def keep_checked(directory: Path, result: CheckResult, root: str) -> None:
    """A check's anchors with its cited paths beside them (an audit's screen counts both from
    here: anchors kept alone left its systems "not checked yet")."""
    quotes = [each.quote for each in result.quotes]
    key = key_for(quotes, result.revision, root)
    if key is not None and not result.unreadable:  # a repaired clone is read again
        put(directory, key, [each.anchor for each in result.quotes], result.citations)
