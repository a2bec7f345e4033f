"""What `assay check` prints: the JSON document and the text report of a `CheckResult`.

The JSON shape built by `to_json` is a contract; more fields may be added, none renamed.
"""

from __future__ import annotations

from typing import Any

from evidence.anchoring import diff_markup
from evidence.anchoring.rendered import rescue_notes
from evidence.check import CheckResult, QuoteResult, SearchResult
from evidence.citations import CitedState, citation_json
from evidence.drift import Drift
from evidence.drift_model import drift_counts
from evidence.drift_report import cited_drift_counts, cited_drift_text, drift_text
from evidence.model import FileState, Tier
from evidence.text import clipped, escaped

__all__ = ["failure_details", "quote_json", "quote_line", "search_json", "to_json", "to_text"]


# --- JSON ----------------------------------------------------------------------------------------


def _range(value: tuple[int, int] | None) -> list[int] | None:
    return None if value is None else [value[0], value[1]]


def quote_json(result: QuoteResult, drift: Drift | None = None) -> dict[str, Any]:
    """One entry of the "quotes" list (with `drift` when checked --against a revision)."""
    anchor = result.anchor
    quote = anchor.quote
    entry: dict[str, Any] = {
        "report": result.report.file,
        "report_line": quote.report_line,
        "text_line": quote.text_line,
        "record": quote.record,
        "index": quote.index,
        "path": quote.path,
        "claimed": _range(quote.claimed),
        "file": anchor.file.value,
        "match": anchor.match.value,
        "score": round(anchor.score, 1),
        "lines": _range(anchor.lines),
        "occurrences": [list(span) for span in anchor.occurrences],
        "left_out": [list(span) for span in anchor.left_out],
        "range_ok": anchor.range_ok,
        "ambiguous": anchor.ambiguous,
        "failing": anchor.failing,
        "elsewhere": [
            {"path": place.path, "lines": list(place.lines), "match": place.match.value}
            for place in anchor.elsewhere
        ],
        "diff": [
            {"op": part.op, "quote": part.quote, "source": part.source} for part in anchor.diff
        ]
        or None,
        "candidates": [
            {"lines": list(candidate.lines), "score": candidate.score}
            for candidate in anchor.candidates
        ],
        "notes": list(anchor.notes),
        "text": quote.text,
        # SARIF: "location", "step" or "related" (null for report quotes), and its message
        "role": quote.role or None,
        "note": quote.note or None,
    }
    if drift is not None:
        entry["drift"] = drift.as_json()
    return entry


def search_json(result: SearchResult) -> dict[str, Any]:
    """One entry of the "searches" list."""
    search = result.search
    return {
        "report": result.report.file,
        "report_line": search.line,
        "record": search.record,
        "command": search.command,
        "tool": search.tool,
        "pattern": search.pattern,
        "paths": list(search.paths),
        "sentence": search.sentence,
        "count": len(result.hits),
        "hits": [{"path": hit.path, "line": hit.line, "text": hit.text} for hit in result.hits],
        "error": result.error,
        "ignored_flags": list(result.ignored_flags),
    }


def to_json(result: CheckResult) -> dict[str, Any]:
    """The JSON document `assay check --format json` prints."""
    drifts = result.drifts or (None,) * len(result.quotes)
    cited_drifts = result.cited_drifts or (None,) * len(result.citations)
    document: dict[str, Any] = {
        "revision": result.revision,
        "quotes": [
            quote_json(quote, drift) for quote, drift in zip(result.quotes, drifts, strict=True)
        ],
        "searches": [search_json(search) for search in result.searches],
        "citations": [
            citation_json(cited) | ({"drift": drift.as_json()} if drift is not None else {})
            for cited, drift in zip(result.citations, cited_drifts, strict=True)
        ],
        "summary": result.summary(),
        "diagnostics": list(result.diagnostics),
        # quoted files whose objects the repository lacks: the check is incomplete (exit 2)
        "unreadable": list(result.unreadable),
    }
    if result.against is not None:
        document["against"] = result.against
        document["relation"] = result.relation
        document["summary"]["drift"] = drift_counts(result.drifts)
        document["summary"]["cited_drift"] = cited_drift_counts(result.cited_drifts)
    return document


# --- text ----------------------------------------------------------------------------------------

GLYPHS = {
    Tier.EXACT: "✓",
    Tier.WHITESPACE: "✓",
    Tier.NORMALIZED: "✓",
    Tier.FUZZY: "≈",
    Tier.MISSING: "✗",
    Tier.LOCATED: "◦",
}


def _lines(span: tuple[int, int] | None) -> str:
    if span is None:
        return "-"
    return str(span[0]) if span[0] == span[1] else f"{span[0]}-{span[1]}"


def _clip(text: str, width: int = 160) -> str:
    return clipped(" ".join(text.split()), width)


def quote_line(result: QuoteResult) -> str:
    """One line per quote: glyph, path:lines, record id, tier and score."""
    anchor = result.anchor
    glyph = "!" if anchor.verified and anchor.range_ok is False else GLYPHS[anchor.match]
    where = f"{anchor.quote.path}:{_lines(anchor.lines or anchor.quote.claimed)}"
    detail = anchor.match.value
    if anchor.match is Tier.FUZZY:
        detail += f" {anchor.score:.0f}"
    if anchor.file is not FileState.OK:
        detail += f", file {anchor.file.value}"
    if anchor.range_ok is False and anchor.quote.claimed is not None:
        detail += f", claimed {_lines(anchor.quote.claimed)}"
    if anchor.ambiguous:
        detail += f", {len(anchor.occurrences)} occurrences"
    return escaped(f"{glyph} {where}  {anchor.quote.record}  {detail}")


def failure_details(result: QuoteResult) -> list[str]:
    """The indented lines under a failing quote: where it was cited, what differs, where it is."""
    anchor = result.anchor
    quote = anchor.quote
    if quote.role:  # SARIF: results are numbered, not lines
        lines = [f"    {result.report.file}: result {quote.report_line}, {quote.role}"]
    else:
        lines = [f"    {result.report.file}:{quote.report_line}"]
    if anchor.match is Tier.FUZZY and anchor.diff:
        lines.append(f"    diff:  {_clip(diff_markup(anchor.diff), 400)}")
    elif not anchor.verified and not quote.located:
        lines.append(f"    quote: {_clip(anchor.quote.text)}")
    if anchor.range_ok is False and anchor.lines is not None and anchor.quote.claimed:
        lines.append(
            f"    claimed lines {_lines(anchor.quote.claimed)}, found at {_lines(anchor.lines)}"
        )
    for candidate in anchor.candidates[1:]:
        lines.append(f"    also close: lines {_lines(candidate.lines)} ({candidate.score:.0f})")
    for place in anchor.elsewhere:
        lines.append(f"    found in {place.path}:{_lines(place.lines)} ({place.match.value})")
    for note in anchor.notes:
        lines.append(f"    note: {note}")
    return [escaped(line) for line in lines]


def to_text(result: CheckResult) -> str:
    """The text report: failures first with what differs, then the rest, searches, summary."""
    out: list[str] = [f"revision {result.revision}"]
    failing = result.failing
    if failing:
        out.append("")
        out.append(f"{len(failing)} failing:")
        for quote in failing:
            out.append(quote_line(quote))
            out.extend(failure_details(quote))
    passing = [quote for quote in result.quotes if not quote.anchor.failing]
    verified = [quote for quote in passing if quote.anchor.match is not Tier.LOCATED]
    if verified:
        out.append("")
        out.append(f"{len(verified)} verified:")
        for quote in verified:
            out.append(quote_line(quote))
            # found once something the report added was taken off: the reader is told what
            out.extend(escaped(f"    note: {note}") for note in rescue_notes(quote.anchor))
    located = [quote for quote in passing if quote.anchor.match is Tier.LOCATED]
    if located:
        out.append("")
        out.append(f"{len(located)} located (no snippet to compare; the lines exist):")
        out.extend(quote_line(quote) for quote in located)
    if result.unchecked:
        out.append("")
        out.append(
            f"{len(result.unchecked)} quote(s) not read (outside any record, or behind a "
            "marker that could not be read), not checked:"
        )
        out.extend(escaped(f"✗ {line}") for line in result.unchecked)
    missing = result.missing_citations
    if missing:
        out.append("")
        out.append(f"{len(missing)} cited path(s) missing:")
        for cited in missing:
            out.append(escaped(f"✗ {cited.path}  {cited.record}  {cited.report}:{cited.line}"))
            if cited.suggestion:
                out.append(escaped(f"    closest existing path: {cited.suggestion}"))
            if cited.state is CitedState.PAST_END and cited.lines is not None:
                first, last = cited.lines
                named = f"line {first}" if first == last else f"lines {first}-{last}"
                out.append(escaped(f"    {named} named: the file has {cited.length} lines"))
    if result.searches:
        out.append("")
        out.append("searches:")
        for search in result.searches:
            head = f"  {search.search.record}: {search.search.command}"
            if search.error:
                out.append(escaped(f"{head}  error: {search.error}"))
                continue
            out.append(escaped(f"{head}  {len(search.hits)} hit(s)"))
            for hit in search.hits[:50]:
                out.append(escaped(f"    {hit.path}:{hit.line}: {_clip(hit.text, 120)}"))
            if len(search.hits) > 50:
                out.append(f"    … {len(search.hits) - 50} more")
    listed = set(result.unchecked)  # said above, with the failures
    notes = [line for line in result.diagnostics if line not in listed]
    if notes:
        out.append("")
        out.extend(escaped(f"note: {line}") for line in notes)
    counts = result.summary()
    out.append("")
    out.append(
        f"{counts['quotes']} quotes: {counts['exact']} exact, {counts['whitespace']} whitespace, "
        f"{counts['normalized']} normalized, {counts['fuzzy']} fuzzy, {counts['missing']} missing"
        + (f", {counts['located']} located" if counts["located"] else "")
        + "; "
        f"{counts['range_wrong']} wrong range(s), {counts['files_missing']} quoted file(s) "
        f"missing; {counts['citations_missing']} of {counts['citations']} cited path(s) missing; "
        + (f"{counts['unchecked']} quote(s) not read; " if counts["unchecked"] else "")
        + (f"{counts['search_errors']} search(es) not run; " if counts["search_errors"] else "")
        +
        # this line's verdict is the check's alone: with --against, the drift's is on its own
        # line (every quote verified read "FAIL" here when a passage had changed since)
        f"{'OK' if result.holds else 'FAIL'}"
    )
    if result.against is not None:
        labels = [quote_line(quote) for quote in result.quotes]
        out.append("")
        out.extend(drift_text(result.against, labels, result.drifts, result.relation))
        out.extend(cited_drift_text(result.citations, result.cited_drifts))
        out[-1] += "; FAIL" if result.drifted or result.drifted_citations else "; OK"
    return "\n".join(out)
