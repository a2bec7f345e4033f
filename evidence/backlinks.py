"""Backlinks: which loaded records quote which lines of a file, from the anchors, and which cite
the file without quoting it (UI-free)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from evidence.citations import cited_path, is_pattern
from evidence.model import Anchor, Citation, LineRange, Quote, Record, ReportSet, Tier
from evidence.revision import normalize_path


@dataclass(frozen=True)
class Backlink:
    """One quote that points at a file: where it sits there, and how it got there; or a record
    that cites the file without quoting it (``quote`` None, ``source`` its ``SRC-n``)."""

    record: str  # id of the record holding the quote
    report: str | None  # file of the report holding the record, when known
    quote: Quote | None
    lines: LineRange | None  # where the quote sits in this file; None when it was not found
    match: Tier
    cited: bool  # True: the quote cites this file; False: it cites another file but is found here
    label: str = ""  # the record's label, when known
    source: str = ""  # for a citation without a quote: the source it names (``SRC-1``)

    @property
    def found(self) -> bool:
        """The quote's text sits in this file (so the gutter can mark its lines)."""
        return self.lines is not None


def normalize(path: str) -> str:
    """A path as the tree spells it: no ``./`` or leading ``/``, forward slashes."""
    return normalize_path(path)


#: the files a cited wildcard (``src/*.py``) matches at the revision
Expand = Callable[[str], list[str]]


def backlinks(
    anchors: Mapping[Quote, Anchor],
    path: str,
    reportset: ReportSet | None = None,
    expand: Expand | None = None,
) -> list[Backlink]:
    """Every quote citing ``path`` or found in it (``elsewhere``), ordered by line then record;
    with ``expand``, a record citing a wildcard that matches ``path`` too."""
    wanted = normalize(path)
    records = _records_by_quote(reportset) if reportset is not None and anchors else {}
    links: list[Backlink] = []
    for quote, anchor in anchors.items():
        record = records.get(quote)
        report = record.report if record is not None else None
        label = record.label if record is not None else ""
        if normalize(quote.path) == wanted:
            links.append(
                Backlink(quote.record, report, quote, anchor.lines, anchor.match, True, label)
            )
            continue
        for place in anchor.elsewhere:
            if normalize(place.path) == wanted:
                links.append(
                    Backlink(quote.record, report, quote, place.lines, place.match, False, label)
                )
    if reportset is not None:
        links += _citing(reportset, wanted, {link.record for link in links}, expand)
    links.sort(key=_order)
    return links


def backlinks_by_path(
    anchors: Mapping[Quote, Anchor],
    reportset: ReportSet | None = None,
    expand: Expand | None = None,
) -> dict[str, list[Backlink]]:
    """`backlinks` of every path at once, by normalized path: one pass over the quotes and the
    citations rather than one per file shown."""

    # the records of anchored quotes only: before anchoring (no anchors), a pass over a scan's
    # 135,130 records held up its first record's source by 0.3 s for nothing
    records = _records_by_quote(reportset) if reportset is not None and anchors else {}
    index: dict[str, list[Backlink]] = {}
    normalized: dict[str, str] = {}  # a scan's results name a few hundred files many times
    for quote, anchor in anchors.items():
        record = records.get(quote)
        report = record.report if record is not None else None
        label = record.label if record is not None else ""
        cited = normalized.get(quote.path)
        if cited is None:
            cited = normalized[quote.path] = normalize(quote.path)
        index.setdefault(cited, []).append(
            Backlink(quote.record, report, quote, anchor.lines, anchor.match, True, label)
        )
        for place in anchor.elsewhere:
            found = normalize(place.path)
            if found != cited:
                index.setdefault(found, []).append(
                    Backlink(quote.record, report, quote, place.lines, place.match, False, label)
                )
    if reportset is not None:
        quoting = {path: {link.record for link in links} for path, links in index.items()}
        for record in reportset.records():
            seen: set[str] = set()
            for citation in record.citations:
                for path in citation.paths:
                    for wanted in _targets(cited_path(path), expand):
                        if wanted in seen or record.id in quoting.get(wanted, ()):
                            continue
                        seen.add(wanted)
                        index.setdefault(wanted, []).append(_cited(record, citation))
    for links in index.values():
        links.sort(key=_order)
    return index


def _order(link: Backlink) -> tuple[bool, bool, LineRange, str, int]:
    return (
        link.quote is None,
        link.lines is None,
        link.lines or (0, 0),
        link.record,
        link.quote.index if link.quote is not None else -1,
    )


def _targets(cited: str, expand: Expand | None) -> list[str]:
    """The paths a cited path names: itself, or the files a wildcard matches."""
    if expand is None or not is_pattern(cited):
        return [cited]
    return expand(cited) or [cited]


def _citing(
    reportset: ReportSet, wanted: str, quoting: set[str], expand: Expand | None
) -> list[Backlink]:
    """Records citing the file (``(SRC-1, path)``) that no quote of theirs links to it already."""
    links = []
    for record in reportset.records():
        if record.id in quoting:
            continue
        for citation in record.citations:
            paths = (cited_path(path) for path in citation.paths)
            if any(wanted in _targets(path, expand) for path in paths):
                links.append(_cited(record, citation))
                break
    return links


def _cited(record: Record, citation: Citation) -> Backlink:
    """A record that cites the file without a quote of it (``(SRC-1, path)``)."""
    return Backlink(
        record.id, record.report, None, None, Tier.MISSING, True, record.label, citation.source
    )


def backlink_lines(links: Iterable[Backlink]) -> frozenset[int]:
    """The lines of the file that some found backlink covers (for the gutter marks)."""
    marked: set[int] = set()
    for link in links:
        if link.lines is not None:
            first, last = sorted(link.lines)
            marked.update(range(first, last + 1))
    return frozenset(marked)


def cited_files(anchors: Mapping[Quote, Anchor]) -> dict[str, int]:
    """How many quotes cite each file, by normalized path."""
    counts: dict[str, int] = {}
    for quote in anchors:
        key = normalize(quote.path)
        counts[key] = counts.get(key, 0) + 1
    return counts


def _records_by_quote(reportset: ReportSet) -> dict[Quote, Record]:
    return {quote: record for record in reportset.records() for quote in record.quotes}
