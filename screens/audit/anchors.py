"""The audit screen's use of the anchoring cache (evidence/anchor_cache.py), without Textual:
each system's counts read from the anchors `assay check` or its review kept, and a review's cited
paths kept beside its anchors for the next time."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from evidence.model import ReportSet

if TYPE_CHECKING:
    from evidence.citations import CitedPath
    from evidence.model import Anchor
    from evidence.revision import Revision
    from screens.audit.systems import AuditEntry


class Cached(NamedTuple):
    """What `read_cached` found for one system (None: not in the anchoring cache)."""

    system: int  # its index in the audit's entries
    failing: int | None
    missing: int | None
    drifted: int | None
    reportset: ReportSet
    read: bool = True  # its revision was read from git (`revision_errors` reads the others)
    error: str | None = None  # why its revision cannot be read, as `assay check` says it


def read_cached(entries: list[AuditEntry], directory: Path, against: str | None) -> list[Cached]:
    """Failing quotes, missing cited paths and (when asked: ``against``, or the system's own)
    drifted quotes and cited files of the systems anchored before; and each readable system's
    reports with SARIF paths found in its revision (`/` lists them as its review does, not as the
    scanner's checkout had them). Reads git and the disk: for a worker."""
    from evidence.anchor_cache import get, key_for
    from evidence.citations import PathIndex, check_citations, cited_places
    from evidence.git.process import OBJECT_ID
    from evidence.git.submodules import tree_directory
    from evidence.inputs import CheckError, choose_revision
    from evidence.revision import Revision, RevisionError
    from evidence.sarif.rebase import at_revision, has_sarif_quotes

    found = []
    for index, entry in enumerate(entries):
        if entry.reportset is None or entry.error or not entry.available:
            continue
        assert entry.system.repository is not None
        newer = against or entry.system.against
        try:
            wanted = choose_revision(entry.reportset, entry.system.rev)
            if (
                newer is None
                and OBJECT_ID.fullmatch(wanted)
                and not has_sarif_quotes(entry.reportset)
            ):
                # a commit named in full and no path to find in its tree: no git process (two
                # per system took 0.15 s of an audit's 50)
                root = tree_directory(entry.system.repository)
                counted = _counted(index, entry.reportset, wanted, root, directory)
                found.append(counted._replace(read=False))
                continue
            with Revision.open(entry.system.repository, wanted) as revision:
                # the quotes as `assay check` anchored them: SARIF paths found in the revision
                reportset = at_revision(entry.reportset, revision)
                if newer is None:
                    found.append(
                        _counted(index, reportset, revision.commit, revision.root, directory)
                    )
                    continue
                quotes = [q for record in reportset.records() for q in record.quotes]
                key = key_for(quotes, revision.commit, revision.root)
                places = cited_places(reportset)
                cached = None if key is None else get(directory, key, quotes, places)
                if cached is None:
                    found.append(Cached(index, None, None, None, reportset))
                    continue
                citations, missing = cached.citations, cached.citations_missing
                if citations is None:  # the reports cite other paths since: read them here
                    paths = PathIndex(revision.paths(), revision.held, revision.root)
                    citations = check_citations(reportset, paths)
                    missing = sum(1 for cited in citations if cited.state.missing)
                drifted = _drifted(cached.anchors, citations, revision, newer)
        except CheckError:
            continue  # no one revision named: opened, it is read unchecked and says why
        except RevisionError as error:
            found.append(Cached(index, None, None, None, entry.reportset, error=str(error)))
            continue
        found.append(Cached(index, cached.failing, missing, drifted, reportset))
    return found


def revision_errors(entries: list[AuditEntry], indexes: list[int]) -> list[tuple[int, str]]:
    """Of the systems at ``indexes``, those whose repository cannot give the revision to check,
    each with the error `assay check` gives it. A commit found in the repository's object files
    starts no git process (two per system took 0.5 s of 50 systems); git is asked of the others
    (`Revision.open`). For a worker, once the counts are drawn."""
    from evidence.inputs import CheckError, choose_revision
    from evidence.revision import Revision, RevisionError, holds_object

    errors = []
    for index in indexes:
        entry = entries[index]
        if entry.reportset is None or entry.error or not entry.available:
            continue  # `!` already, or `∅`: no repository here to read
        assert entry.system.repository is not None
        try:
            wanted = choose_revision(entry.reportset, entry.system.rev)
        except CheckError:
            continue  # no one revision named: it opens to be read, unchecked, and says why
        try:
            if holds_object(entry.system.repository, wanted):
                continue
            with Revision.open(entry.system.repository, wanted):
                pass
        except RevisionError as error:
            errors.append((index, str(error)))
    return errors


def _counted(index: int, reportset: ReportSet, commit: str, root: str, directory: Path) -> Cached:
    """A system's counts from the anchors kept for its quotes at ``commit``, if any (no anchor
    rebuilt)."""
    from evidence.anchor_cache import counts, key_for
    from evidence.citations import cited_places

    quotes = [q for record in reportset.records() for q in record.quotes]
    key = key_for(quotes, commit, root)
    places = cited_places(reportset)
    failing, missing = (None if key is None else counts(directory, key, len(quotes), places)) or (
        None,
        None,
    )
    return Cached(index, failing, missing, None, reportset)


def _drifted(
    anchors: list[Anchor], citations: Sequence[CitedPath], revision: Revision, against: str
) -> int | None:
    """Quotes whose passage changed or went at ``against``, and cited files that went or whose
    named lines changed (each once; None: git does not know the revision)."""
    from evidence.drift_files import follow_with_cited
    from evidence.revision import Revision, RevisionError

    try:
        with Revision.open(revision.repo_path, against) as newer:
            drifts, files = follow_with_cited(anchors, citations, revision, newer)
    except RevisionError:
        return None
    quotes = sum(1 for drift in drifts if drift is not None and drift.status.breaks)
    return quotes + sum(1 for drift in files.values() if drift.breaks)
