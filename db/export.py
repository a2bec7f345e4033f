"""Moving verdicts out of and into the store: jsonl, json, csv, md and SARIF 2.1.0.

jsonl is the exchange format: one event per line, in ``(at, event)`` order, each line with the same
keys in the same order, so verdict files diff and merge well in git. ``parse_events`` reads jsonl
(and the json format) back, validating every line before anything is imported.
"""

from __future__ import annotations

import csv
import io
import json
import re
import urllib.parse
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from typing import Any, TextIO

from db.check import StoreError
from db.events import AT_FORMAT, Event
from db.keys import Verdict, make_key, normalize_quote
from db.store import VerdictStore

FORMATS = ("jsonl", "json", "csv", "md", "sarif")

#: the jsonl fields, in the order every line spells them; `undoes` is assay's addition
FIELDS = (
    "item",
    "report",
    "record",
    "quote",
    "reviewer",
    "verdict",
    "note",
    "at",
    "revision",
    "event",
    "undoes",
)
REQUIRED = FIELDS[:-1]

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"

#: control, bidi and line-separator characters (U+2028/9 would split a jsonl line for splitlines())
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u2028-\u202e\u2066-\u2069]")
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|#])")


def visible(text: str) -> str:
    """Text with control and bidi characters written as ``\\uXXXX`` so a terminal shows them."""
    return _CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def json_visible(encoded: str) -> str:
    """Encoded JSON with DEL, C1 and bidi controls escaped too (the same JSON value)."""
    return _json_visible(encoded)


def _json_visible(encoded: str) -> str:
    # JSON escapes C0 controls itself; DEL, C1 and bidi controls are escaped too (the same JSON
    # value), so an export printed to a terminal cannot drive it. ASCII text is checked fast.
    if encoded.isascii():
        return encoded.replace("\x7f", "\\u007f")
    return visible(encoded)


def _json(data: Any, **options: Any) -> str:
    return _json_visible(json.dumps(data, ensure_ascii=False, **options))


def event_line(event: Event) -> str:
    """One jsonl line (without the newline) for an event, exactly as `write` spells it."""
    return _json(_ordered(event), separators=(",", ":"))


def write(store: VerdictStore, fmt: str, out: TextIO, *, reviewer: str | None = None) -> int:
    """Write the store in a format to a text stream; returns the number of events exported."""
    if fmt not in FORMATS:
        raise StoreError(f"unknown export format {fmt!r} (expected one of {', '.join(FORMATS)})")
    if fmt == "jsonl":
        return _write_jsonl(store, out, reviewer)
    # md and sarif summarize the current verdicts: the history is counted, not read
    if fmt == "md":
        out.write(markdown(store, reviewer=reviewer))
        return store.count(reviewer)
    if fmt == "sarif":
        out.write(_json(sarif(store, reviewer=reviewer), indent=2))
        out.write("\n")
        return store.count(reviewer)
    events = store.events(reviewer)
    if fmt == "json":
        current = [e for e in store.current_all() if reviewer is None or e.reviewer == reviewer]
        document = {
            "format": "assay-verdicts",
            "version": 1,
            "events": [_ordered(e) for e in events],
            "current": [_ordered(e) for e in current],
        }
        out.write(_json(document, indent=2))
        out.write("\n")
    else:  # csv
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(FIELDS)
        for event in events:
            data = _ordered(event)
            writer.writerow(["" if data[name] is None else visible(data[name]) for name in FIELDS])
    return len(events)


def _write_jsonl(store: VerdictStore, out: TextIO, reviewer: str | None) -> int:
    # SQLite's json_object encodes exactly as json.dumps(ensure_ascii=False, separators=(",", ":"))
    # does (tested), without a Python call per event.
    lines = store.json_rows(FIELDS, reviewer)
    for start in range(0, len(lines), 5000):
        out.write(_json_visible("\n".join(lines[start : start + 5000]) + "\n"))
    return len(lines)


def _ordered(event: Event) -> dict[str, Any]:
    data = event.to_dict()
    return {name: data[name] for name in FIELDS}


# --- reading jsonl back --------------------------------------------------------------------------


def parse_events(text: str, source: str) -> list[Event]:
    """Events from jsonl (or the json export); StoreError naming source and line on bad input."""
    stripped = text.lstrip()
    if stripped.startswith("{") and '"format"' in stripped[:200]:
        try:
            document = json.loads(text)
        except json.JSONDecodeError:
            document = None
        if isinstance(document, dict) and document.get("format") == "assay-verdicts":
            entries = document.get("events")
            if not isinstance(entries, list):
                raise StoreError(f"{source}: 'events' is not a list")
            return [parse_event(entry, f"{source}: event {n}") for n, entry in enumerate(entries)]
    events = []
    for number, line in enumerate(text.split("\n"), start=1):  # "\n" only: see _CONTROL
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as error:
            raise StoreError(f"{source}:{number}: not JSON ({error.msg})") from None
        events.append(parse_event(data, f"{source}:{number}"))
    seen: dict[str, Event] = {}
    for event in events:
        if seen.setdefault(event.event, event) != event:
            raise StoreError(f"{source}: event id {event.event} is used for two different events")
    return events


def parse_event(data: object, where: str) -> Event:
    """One event from a decoded jsonl line; StoreError naming ``where`` when it is not one."""
    if not isinstance(data, dict):
        raise StoreError(f"{where}: expected a JSON object")
    missing = [name for name in REQUIRED if name not in data]
    if missing:
        raise StoreError(f"{where}: missing field(s) {', '.join(missing)}")
    values: dict[str, Any] = {}
    for name in FIELDS:
        value = data.get(name)
        required_text = name in ("item", "report", "record", "reviewer", "at", "event")
        if required_text and (not isinstance(value, str) or not value):
            raise StoreError(f"{where}: {name} must be a non-empty string")
        if not required_text and value is not None and not isinstance(value, str):
            raise StoreError(f"{where}: {name} must be a string or null")
        values[name] = value
    if values["verdict"] is not None:
        try:
            values["verdict"] = Verdict(values["verdict"])
        except ValueError:
            raise StoreError(f"{where}: unknown verdict {values['verdict']!r}") from None
    if values["item"] != make_key(values["report"], values["record"], values["quote"]):
        raise StoreError(f"{where}: item {values['item']!r} does not match report/record/quote")
    values["at"] = _canonical_at(values["at"], where)
    return Event(**values)


def _canonical_at(value: str, where: str) -> str:
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise StoreError(f"{where}: at {value!r} is not an ISO 8601 time") from None
    offset = moment.utcoffset()
    if offset is None or offset.total_seconds() != 0:
        raise StoreError(f"{where}: at {value!r} is not in UTC")
    return moment.astimezone(UTC).strftime(AT_FORMAT)


# --- md ------------------------------------------------------------------------------------------


def md_text(text: str) -> str:
    """Untrusted text made inert in Markdown: control characters shown, markup escaped."""
    return _MD_SPECIAL.sub(r"\\\1", visible(text))


def _verdict_lines(events: Iterable[Event], indent: str) -> Iterator[str]:
    for event in events:
        verdict = event.verdict.value if event.verdict else "no verdict"
        yield f"{indent}- {md_text(event.reviewer)}: **{verdict}**"
        if event.note:
            for line in event.note.splitlines() or [""]:
                yield f"{indent}  > {md_text(line)}"


def markdown(store: VerdictStore, *, reviewer: str | None = None) -> str:
    """A readable review summary per report and record, with quote status and notes."""
    current: dict[str, list[Event]] = {}
    for event in store.current_all():
        if reviewer is None or event.reviewer == reviewer:
            current.setdefault(event.item, []).append(event)
    items = store.items()
    lines = ["# assay review summary", ""]
    reviewers = sorted({e.reviewer for events in current.values() for e in events})
    lines.append(
        f"{sum(len(v) for v in current.values())} current verdicts and notes"
        + (f" by {', '.join(md_text(r) for r in reviewers)}" if reviewers else "")
        + "."
    )
    shown: set[str] = set()
    report = None
    stale: list[tuple[dict[str, Any], list[Event]]] = []
    for item in items:
        if not item["present"]:
            if item["item"] in current:
                stale.append((item, current[item["item"]]))
            shown.add(item["item"])
            continue
        if item["report"] != report:
            report = item["report"]
            lines += ["", f"## {md_text(report)}", "", f"File: {md_text(item['report_file'])}"]
        shown.add(item["item"])
        events = current.get(item["item"], [])
        if item["quote"] is None:
            label = f" — {md_text(item['label'])}" if item["label"] else ""
            lines += ["", f"### {md_text(item['record'])}{label} ({item['kind']})", ""]
            lines += list(_verdict_lines(events, "")) or ["- not reviewed"]
        else:
            lines.append(f"- quote {item['quote_index'] + 1}: {_quote_status(item)}")
            lines += list(_verdict_lines(events, "  "))
    if stale:
        lines += ["", "## Stale verdicts (the quote or record changed since)", ""]
        for item, events in stale:
            what = f"quote {item['quote']}" if item["quote"] else "the record"
            lines.append(f"- {md_text(item['report'])} {md_text(item['record'])}, {what}:")
            lines += list(_verdict_lines(events, "  "))
    unregistered = [key for key in sorted(current) if key not in shown]
    if unregistered:
        lines += ["", "## Verdicts on items not registered from a report", ""]
        for key in unregistered:
            lines.append(f"- {md_text(key)}")
            lines += list(_verdict_lines(current[key], "  "))
    return "\n".join(lines) + "\n"


def _quote_status(item: dict[str, Any]) -> str:
    where = md_text(item["quote_path"] or "?")
    if item["tier"] is None:
        status = "not anchored"
    elif item["tier"] == "missing":
        status = "missing"
    else:
        status = f"{item['tier']} at lines {item['lines_first']}-{item['lines_last']}"
    if item["claimed_first"] is not None:
        claimed = f"claimed {item['claimed_first']}-{item['claimed_last']}"
        status += f", {claimed}" + (" (wrong range)" if item["range_ok"] == 0 else "")
    excerpt = normalize_quote(item["quote_text"] or "")
    if len(excerpt) > 60:
        excerpt = excerpt[:59] + "…"
    return f"{where}: {status} — {md_text(excerpt)}" if excerpt else f"{where}: {status}"


# --- SARIF 2.1.0 ---------------------------------------------------------------------------------

_RULES = {
    "quote-verified": ("The quote is in its cited file.", "note"),
    "quote-fuzzy": ("The quote only resembles its cited file.", "warning"),
    "quote-missing": ("The quote is not in its cited file.", "error"),
    "quote-wrong-range": ("The quote is there, at other lines than claimed.", "warning"),
    "quote-unchecked": ("The quote was not anchored.", "none"),
}


def _rule(item: dict[str, Any] | None) -> str:
    if item is None or item["tier"] is None:
        return "quote-unchecked"
    if item["tier"] == "missing":
        return "quote-missing"
    if item["tier"] == "fuzzy":
        return "quote-fuzzy"
    if item["range_ok"] == 0:
        return "quote-wrong-range"
    return "quote-verified"


def sarif(store: VerdictStore, *, reviewer: str | None = None) -> dict[str, Any]:
    """A SARIF 2.1.0 log: one result per quote, reviewers' verdicts as suppressions."""
    current: dict[str, list[Event]] = {}
    for event in store.current_all():
        if event.quote is not None and (reviewer is None or event.reviewer == reviewer):
            current.setdefault(event.item, []).append(event)
    items = {item["item"]: item for item in store.items() if item["quote"] is not None}
    keys = [key for key, item in items.items() if item["present"]]
    keys += sorted(key for key in current if key not in items)
    rule_ids = list(_RULES)
    results = []
    revisions = set()
    for key in keys:
        item = items.get(key)
        events = current.get(key, [])
        rule = _rule(item)
        result: dict[str, Any] = {
            "ruleId": rule,
            "ruleIndex": rule_ids.index(rule),
            "level": _RULES[rule][1],
            "message": {"text": _sarif_message(key, item)},
            "partialFingerprints": {"assayItem/v1": key},
            "properties": {
                "report": item["report"] if item else events[0].report,
                "record": item["record"] if item else events[0].record,
                "verdicts": {e.reviewer: e.verdict.value if e.verdict else None for e in events},
            },
        }
        if item and item["quote_path"]:
            uri = urllib.parse.quote(item["quote_path"], safe="/")  # a URI reference
            location: dict[str, Any] = {"artifactLocation": {"uri": uri}}
            first = item["lines_first"] or item["claimed_first"]
            last = item["lines_last"] or item["claimed_last"]
            if first:
                location["region"] = {"startLine": first, "endLine": last or first}
            result["locations"] = [{"physicalLocation": location}]
            if item["revision"]:
                revisions.add(item["revision"])
        suppressions = [s for s in map(_suppression, events) if s is not None]
        if suppressions:
            result["suppressions"] = suppressions
        results.append(result)
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "assay",
                "rules": [
                    {
                        "id": rule_id,
                        "shortDescription": {"text": text},
                        "defaultConfiguration": {"level": level},
                    }
                    for rule_id, (text, level) in _RULES.items()
                ],
            }
        },
        "results": results,
    }
    if revisions:
        run["properties"] = {"revisions": sorted(revisions)}
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}


def _sarif_message(key: str, item: dict[str, Any] | None) -> str:
    if item is None:
        return f"Quote {key} (not registered from a report)."
    label = f" ({item['label']})" if item["label"] else ""
    status = {
        None: "was not anchored",
        "missing": "is not in the cited file",
        "fuzzy": "only resembles the cited file",
    }.get(item["tier"], f"matches ({item['tier']})")
    return f"{item['record']}{label}: quote {item['quote_index'] + 1} {status}."


def _suppression(event: Event) -> dict[str, Any] | None:
    if event.verdict is Verdict.REFUTED:
        suppression: dict[str, Any] = {"kind": "external", "status": "accepted"}
    elif event.verdict is Verdict.UNCLEAR:
        suppression = {"kind": "external", "status": "underReview"}
    else:
        return None
    if event.note:
        suppression["justification"] = event.note
    suppression["properties"] = {"reviewer": event.reviewer, "at": event.at}
    return suppression


def render(store: VerdictStore, fmt: str, *, reviewer: str | None = None) -> str:
    """The export as a string (convenient for tests and small stores)."""
    buffer = io.StringIO()
    write(store, fmt, buffer, reviewer=reviewer)
    return buffer.getvalue()
