"""The exports a reviewer hands over, from the database alone: the md write-up and the csv of the
current state (one row per record and per quote). The event log stays jsonl (and csv --history).
"""

from __future__ import annotations

import csv
import re
from collections import Counter
from collections.abc import Collection, Iterable, Iterator
from datetime import UTC, datetime
from typing import Any, TextIO

from db.events import Event
from db.gone import first_quotes, lines_words, quote_lines, what_it_was
from db.keys import Verdict
from db.store import VerdictStore
from evidence.permalink import without_credentials
from evidence.sarif.invocations import INCOMPLETE
from evidence.text import escaped

#: & too: an entity (`&lt;`, `&#x202E;`) would be read as the character it names
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|#&])")
_BACKTICKS = re.compile(r"`+")
#: what a spreadsheet runs when a cell starts with it (OWASP's CSV injection list)
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")

VERDICTS = [verdict.value for verdict in Verdict]

#: the columns of `assay export --format csv` (the current state)
CSV_FIELDS = (
    "report",
    "record",
    "label",
    "kind",
    "quote",
    "quote_text",
    "quote_path",
    "line_start",
    "line_end",
    "anchor",
    "verdict",
    "note",
    "reviewer",
)


def md_text(text: str) -> str:
    """Untrusted text made inert in Markdown: unsafe characters escaped (evidence/text.py),
    markup escaped."""
    return _MD_SPECIAL.sub(r"\\\1", escaped(text))


def md_code(text: str, indent: str = "") -> list[str]:
    """A quote whole and literal in Markdown: a code span for one line, else a fenced block
    (``indent`` before each of its lines); the fence is longer than any run of backticks in it,
    so nothing in the text can close it."""
    text = escaped(text, keep="\n\t")
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    if "\n" not in text:
        ticks = "`" * (longest + 1)
        pad = " " if text[:1] in ("`", " ") or text[-1:] in ("`", " ") else ""
        return [f"{ticks}{pad}{text}{pad}{ticks}"] if text else ["(empty)"]
    fence = "`" * max(3, longest + 1)
    return [
        f"{indent}{fence}",
        *(f"{indent}{line}" for line in text.split("\n")),
        f"{indent}{fence}",
    ]


def csv_cell(text: str) -> str:
    """A csv cell of untrusted text: unsafe characters escaped (newlines and tabs kept), and a
    leading ``'`` before what a spreadsheet would run as a formula (``=``, ``+``, ``-``, ``@``,
    tab, CR), as OWASP recommends."""
    cell = escaped(text, keep="\n\t")
    return "'" + cell if cell.startswith(_FORMULA_START) else cell


def anchor_state(item: dict[str, Any]) -> str:
    """How a quote matched at the revision: ``exact``, ``fuzzy 81``, ``missing``, ``not
    anchored``; a wrong claimed range is named (``exact, claimed lines 3-5``)."""
    tier = item["tier"]
    if tier is None:
        return "not anchored"
    state = f"fuzzy {item['score']:.0f}" if tier == "fuzzy" and item["score"] else tier
    if item["claimed_first"] is not None and item["range_ok"] == 0:
        state += f", claimed {lines_words(item['claimed_first'], item['claimed_last'])}"
    return state


def failing(item: dict[str, Any]) -> bool:
    """A quote that `assay check` counts as failing (missing, fuzzy, wrong range)."""
    return item["tier"] in ("missing", "fuzzy") or item["range_ok"] == 0


def _current(store: VerdictStore, reviewer: str | None) -> dict[str, list[Event]]:
    current: dict[str, list[Event]] = {}
    for event in store.current_all():
        if reviewer is None or event.reviewer == reviewer:
            current.setdefault(event.item, []).append(event)
    return current


def _verdict_lines(events: Iterable[Event], indent: str) -> Iterator[str]:
    for event in events:
        verdict = event.verdict.value if event.verdict else "no verdict"
        yield f"{indent}- {md_text(event.reviewer)}: **{verdict}**"
        if event.note:
            for line in event.note.splitlines() or [""]:
                yield f"{indent}  > {md_text(line)}"


def _counts(items: list[dict[str, Any]], current: dict[str, list[Event]], quotes: bool) -> str:
    counts: Counter[str] = Counter()
    for item in items:
        if (item["quote"] is not None) != quotes:
            continue
        verdicts = [e.verdict.value for e in current.get(item["item"], []) if e.verdict]
        counts.update(verdicts or ["not reviewed"])
    cells = [str(counts[name]) for name in (*VERDICTS, "not reviewed")]
    return f"| {'quotes' if quotes else 'records'} | " + " | ".join(cells) + " |"


def _place(source: dict[str, Any]) -> tuple[str, str]:
    return source["repository"] or "", source["remote"] or ""


def _header(  # type: ignore[no-untyped-def]
    sources: list[dict[str, Any]],
    items: list[dict[str, Any]],
    current: dict[str, list[Event]],
):
    lines = ["# assay review write-up", ""]
    places = sorted({_place(s) for s in sources})
    revisions = (
        sorted({s["revision"] for s in sources if s["revision"]})
        or sorted({item["revision"] for item in items if item["revision"]})
        # verdicts imported where no review registered their reports: the revision they name
        or sorted({e.revision for events in current.values() for e in events if e.revision})
    )
    # a database of several systems: each repository's revisions, where its reviews said
    own: dict[tuple[str, str], set[str]] = {}
    for source in sources if len(places) > 1 else ():
        if source["revision"]:
            own.setdefault(_place(source), set()).add(source["revision"])
    for repository, remote in places or [("", "")]:
        where = md_text(repository) if repository else "not recorded"
        shown = md_text(without_credentials(remote))
        at = ", ".join(sorted(own.get((repository, remote), ())))
        lines.append(
            f"- Repository: {where}"
            + (f" (remote {shown})" if remote else "")
            + (f" at {at}" if at else "")
        )
    if len(own) < len(places) or len(places) <= 1:
        lines.append(f"- Revision: {', '.join(revisions) if revisions else 'not recorded'}")
    reviewers = sorted({e.reviewer for events in current.values() for e in events})
    lines.append(f"- Reviewer(s): {', '.join(md_text(r) for r in reviewers) or 'none yet'}")
    latest = max((e.at for events in current.values() for e in events), default=None)
    today = datetime.now(UTC).strftime("%Y-%m-%d")
    lines.append(f"- Date: {today}" + (f" (last verdict {latest[:10]})" if latest else ""))
    return lines


def markdown(
    store: VerdictStore, *, reviewer: str | None = None, reports: Collection[str] | None = None
) -> str:
    """The write-up: where and by whom, summary counts, then per report and record its
    verdicts, notes, quotes (path, lines, anchor state, verdicts) and missing citations; a
    scanner's results with nothing of that to say are counted, not listed, as are a rule's
    results given one verdict and the same note (or none) past LISTED_UP_TO (`_judged_alike`).

    ``reports`` (report identities) limits it to those reports (one system of an audit)."""
    current = _current(store, reviewer)
    items = store.items()
    citations = store.citations()
    if reports is not None:
        current = {key: events for key, events in current.items() if events[0].report in reports}
        items = [item for item in items if item["report"] in reports]
        citations = [cited for cited in citations if cited["report"] in reports]
    present = [item for item in items if item["present"]]
    from evidence.citations import MISSING_STATES

    missing = [c for c in citations if c["state"] in MISSING_STATES]
    sources = [s for s in store.sources() if reports is None or s["report"] in reports]
    lines = _header(sources, items, current)
    lines += ["", "## Summary", ""]
    lines.append("| | " + " | ".join(VERDICTS) + " | not reviewed |")
    lines.append("|---" * (len(VERDICTS) + 2) + "|")
    lines.append(_counts(present, current, quotes=False))
    lines.append(_counts(present, current, quotes=True))
    lines.append("")
    failing_quotes = sum(1 for item in present if item["quote"] is not None and failing(item))
    lines.append(f"- Failing quotes: {failing_quotes}")
    lines.append(f"- Missing citations: {len(missing)} of {len(citations)} cited paths")
    registered = {item["item"] for item in items}
    not_counted = sum(1 for key in current if key not in registered)
    if not_counted:  # imported, say: not counted above, which knows registered items only
        lines.append(
            f"- Not counted above: {not_counted:,} item(s) with verdicts that no report "
            "registered here (listed last; `assay review` of their reports counts them)"
        )
    lines += _incomplete(sources)
    cited_by: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for cited in missing:
        cited_by.setdefault((cited["report"], cited["record"]), []).append(cited)
    shown: set[str] = set()
    report = None
    stale: list[tuple[dict[str, Any], list[Event]]] = []
    quiet = _quiet_results(present, current, cited_by)
    alike = _judged_alike(present, current, cited_by)
    counted: dict[str | None, Counter[tuple[str, str, str]]] = {}  # report -> alike's counts
    for (of, _record), word in alike.items():
        counted.setdefault(of, Counter())[word] += 1
    unlisted = 0  # the report's quiet results
    for item in items:
        shown.add(item["item"])
        if not item["present"]:
            if item["item"] in current:
                stale.append((item, current[item["item"]]))
            continue
        if item["report"] != report:
            lines += _unlisted(unlisted) + _alike_lines(counted.get(report))
            report, unlisted = item["report"], 0
            lines += [
                "",
                f"## {md_text(report)}",
                "",
                f"File: {md_text(item['report_file'] or 'not recorded')}",
            ]
        if (item["report"], item["record"]) in quiet:
            unlisted += item["quote"] is None
            continue
        if (item["report"], item["record"]) in alike:
            continue
        events = current.get(item["item"], [])
        if item["quote"] is None:
            label = f" — {md_text(item['label'])}" if item["label"] else ""
            lines += ["", f"### {md_text(item['record'])}{label} ({item['kind']})", ""]
            lines += list(_verdict_lines(events, "")) or ["- not reviewed"]
            for cited in cited_by.get((item["report"], item["record"]), []):
                closest = cited["suggestion"]
                past = cited["state"] == "past_end"
                what = "cited lines past the end of" if past else "cited path missing:"
                lines.append(
                    f"- {what} {md_text(cited['path'])}"
                    + (f" (closest: {md_text(closest)})" if closest else "")
                )
        else:
            lines += _quote_lines(item)
            lines += list(_verdict_lines(events, "  ")) or ["  - not reviewed"]
    lines += _unlisted(unlisted) + _alike_lines(counted.get(report))
    if stale:
        lines += ["", "## Stale verdicts (the quote or record changed since)", ""]
        firsts = first_quotes(items, {(i["report"], i["record"]) for i, _ in stale})
        for item, events in stale:
            was = what_it_was(item, firsts, md_text)
            lines.append(f"- {md_text(item['report'])} {md_text(item['record'])}, {was}:")
            lines += list(_verdict_lines(events, "  "))
    unregistered = [key for key in sorted(current) if key not in shown]
    if unregistered:
        lines += ["", "## Verdicts on items not registered from a report", ""]
        for key in unregistered:
            lines.append(f"- {md_text(key)}")
            lines += list(_verdict_lines(current[key], "  "))
    return "\n".join(lines) + "\n"


def _incomplete(sources: list[dict[str, Any]]) -> list[str]:
    """The scans that said, when last registered, that their run failed or missed files: a
    review of every result they list is not a review of the code."""
    said = [
        (source["report"], note)
        for source in sources
        for note in (source.get("incomplete") or "").splitlines()
    ]
    if not said:
        return []
    scans = len({report for report, _note in said})
    lines = [f"- Scans that may be incomplete: {scans}"]
    for report, note in said:
        lines.append(f"  - {md_text(report)}: {md_text(note.removeprefix(INCOMPLETE))}")
    return lines


def _quiet_results(
    present: list[dict[str, Any]],
    current: dict[str, list[Event]],
    cited_by: dict[tuple[str, str], list[dict[str, Any]]],
) -> set[tuple[str, str]]:
    """The scanners' results with nothing to say: no verdict or note on them or their
    locations, none failing, no cited path missing. A scan's hundred thousand of them listed
    one by one buried the few a reviewer judged."""
    said = {(item["report"], item["record"]) for item in present if item["item"] in current}
    said |= {(i["report"], i["record"]) for i in present if i["quote"] is not None and failing(i)}
    said |= set(cited_by)
    return {
        (item["report"], item["record"])
        for item in present
        if item["kind"] == "result" and (item["report"], item["record"]) not in said
    }


#: a rule's results given one verdict (and the same note, or none) are counted, not listed, past
#: this many in a report (a verdict on a whole group wrote each of its 119,592 results)
LISTED_UP_TO = 20

Alike = dict[tuple[str, str], tuple[str, str, str]]  # (report, record) -> (verdict, note, rule)


def _judged_alike(
    present: list[dict[str, Any]],
    current: dict[str, list[Event]],
    cited_by: dict[tuple[str, str], list[dict[str, Any]]],
) -> Alike:
    """The scanners' results whose only word is one verdict and one note (or none), on the result
    itself, by every reviewer shown, none failing, no cited path missing: those of a rule, verdict
    and note shared by more than LISTED_UP_TO results of a report."""
    words: dict[tuple[str, str], set[tuple[str, str]]] = {}
    rules: dict[tuple[str, str], str] = {}
    spoiled: set[tuple[str, str]] = set(cited_by)
    for item in present:
        if item["kind"] != "result":
            continue
        key = (item["report"], item["record"])
        rules[key] = item["section"] or ""
        if item["quote"] is not None and failing(item):
            spoiled.add(key)
        for event in current.get(item["item"], []):
            if event.verdict is None or (event.note and item["quote"] is not None):
                spoiled.add(key)  # a note alone, or one on a location: listed
            else:
                words.setdefault(key, set()).add((event.verdict.value, event.note or ""))
    plain: Alike = {}
    for key, said in words.items():
        if key not in spoiled and len(said) == 1:
            plain[key] = (*said.pop(), rules[key])
    sizes = Counter((report, *word) for (report, _record), word in plain.items())
    return {key: word for key, word in plain.items() if sizes[(key[0], *word)] > LISTED_UP_TO}


def _alike_lines(counts: Counter[tuple[str, str, str]] | None) -> list[str]:
    """A report's results counted by `_judged_alike` (by verdict, note and rule): a line per
    verdict and note, its rules by count (the note quoted beneath)."""
    if not counts:
        return []
    lines = [
        "",
        "Results given one verdict and note (or none), counted by rule (`assay export --format "
        "csv` lists every one):",
    ]
    notes = sorted({(VERDICTS.index(verdict), note) for verdict, note, _rule in counts})
    for rank, note in notes:
        verdict = VERDICTS[rank]
        rules = sorted(
            (
                (n, rule)
                for (said, noted, rule), n in counts.items()
                if (said, noted) == (verdict, note)
            ),
            key=lambda pair: (-pair[0], pair[1]),
        )
        shown = ", ".join(f"{md_text(rule or '(no rule)')} {n:,}" for n, rule in rules[:10])
        more = f", and {len(rules) - 10} more rules" if len(rules) > 10 else ""
        noted = ", noted" if note else ""
        lines.append(f"- {verdict}{noted}: {sum(n for n, _ in rules):,} ({shown}{more})")
        lines += [f"  > {md_text(line)}" for line in note.splitlines()]
    return lines


def _unlisted(count: int) -> list[str]:
    if not count:
        return []
    results = "result" if count == 1 else "results"
    return [
        "",
        f"{count:,} {results} not reviewed, none failing: not listed here (`assay export "
        "--format csv` lists every one).",
    ]


def _quote_lines(item: dict[str, Any]) -> list[str]:
    """``- quote 1: path lines: state — `the quote``` (a fenced block under it when the quote
    has several lines)."""
    where = md_text(item["quote_path"] or "?")
    lines = quote_lines(item)
    head = f"- quote {item['quote_index'] + 1}: {where}" + (f" {lines}" if lines else "")
    head += f": {anchor_state(item)}"
    # a scanner's snippet of whole lines ends with the last one's newline: not a line of its own
    text = (item["quote_text"] or "").removesuffix("\n")
    if not text:
        return [head]
    code = md_code(text, "  ")
    if len(code) == 1:
        return [f"{head} — {code[0]}"]
    return [head, *code]


def _line_range(item: dict[str, Any]) -> tuple[str, str]:
    """The quote's first and last line where it is (else where it claims to be), as cells."""
    first, last = item["lines_first"], item["lines_last"]
    if first is None:
        first, last = item["claimed_first"], item["claimed_last"]
    if first is None:
        return "", ""
    return str(first), str(last if last is not None else first)


def current_csv(store: VerdictStore, out: TextIO, *, reviewer: str | None = None) -> None:
    """The current state: one row per record and per quote (and per reviewer with a verdict or
    note on it), then verdicts on items the reports no longer hold."""
    current = _current(store, reviewer)
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_FIELDS)
    shown: set[str] = set()
    for item in store.items():
        shown.add(item["item"])
        events = current.get(item["item"], [])
        if not item["present"] and not events:
            continue
        quote = item["quote"] is not None
        base = [
            item["report"],
            item["record"],
            item["label"] or "",
            item["kind"] or "",
            str(item["quote_index"] + 1) if quote else "",
            (item["quote_text"] or "") if quote else "",
            item["quote_path"] or "",
            *(_line_range(item) if quote else ("", "")),
            (anchor_state(item) if quote else "") if item["present"] else "no longer in reports",
        ]
        if not events:
            writer.writerow([csv_cell(v) for v in (*base, "", "", "")])
        for event in events:
            verdict = event.verdict.value if event.verdict else ""
            row = (*base, verdict, event.note or "", event.reviewer)
            writer.writerow([csv_cell(v) for v in row])
    for key in sorted(k for k in current if k not in shown):
        for event in current[key]:
            verdict = event.verdict.value if event.verdict else ""
            gone = (event.report, event.record, "", "", "", "", "", "", "", "not registered")
            writer.writerow(
                [csv_cell(v) for v in (*gone, verdict, event.note or "", event.reviewer)]
            )
