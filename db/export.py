"""Moving verdicts out of and into the store: jsonl, json, csv, md and SARIF 2.1.0.

md (the write-up) and csv (the current state; the event log with ``history``) are written by
db/writeup.py.

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
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

from db.check import StoreError
from db.event_text import MAX_FIELD, admitted, plain_text
from db.events import Event
from db.keys import Verdict, make_key
from db.store import VerdictStore
from db.writeup import csv_cell, current_csv, markdown
from evidence.text import json_escaped

__all__ = [
    "FIELDS",
    "FORMATS",
    "event_line",
    "markdown",
    "parse_events",
    "render",
    "sarif",
    "write",
]

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


def _json(data: Any, **options: Any) -> str:
    # JSON escapes C0 controls itself; the rest of evidence/text.py's unsafe characters are
    # escaped too (the same JSON value), so an export printed to a terminal cannot drive it
    return json_escaped(json.dumps(data, ensure_ascii=False, **options))


#: a document of more results (SARIF) or events (json) than this is written compact: json's
#: indenting encoder is pure Python (ruff's 135,130-result log: 40 s of a 60 s export), the
#: compact one is C
INDENTED_UP_TO = 10_000


def _document(data: Any, size: int) -> str:
    if size <= INDENTED_UP_TO:
        return _json(data, indent=2)
    return _json(data, separators=(",", ":"))


def event_line(event: Event) -> str:
    """One jsonl line (without the newline) for an event, exactly as `write` spells it."""
    return _json(_ordered(event), separators=(",", ":"))


def write(
    store: VerdictStore,
    fmt: str,
    out: TextIO,
    *,
    reviewer: str | None = None,
    history: bool = False,
    sarif_files: Sequence[Path] | None = None,
    left_out: list[Event] | None = None,
) -> int:
    """Write the store in a format to a text stream; returns the number of events exported.

    csv is the current state (a row per record and per quote), or with ``history`` the event
    log (a row per event); jsonl and json always hold the event log. ``sarif_files``: for sarif,
    the scanner's SARIF files whose runs carry the verdicts (None: those the store's results were
    registered from, if any; see `sarif`), and ``left_out`` gets the verdicts on results they no
    longer hold."""
    if fmt not in FORMATS:
        raise StoreError(f"unknown export format {fmt!r} (expected one of {', '.join(FORMATS)})")
    if fmt == "jsonl":
        return _write_jsonl(store, out, reviewer)
    # md, csv and sarif summarize the current verdicts: the history is counted, not read
    if fmt == "md":
        out.write(markdown(store, reviewer=reviewer))
        return store.count(reviewer)
    if fmt == "csv" and not history:
        current_csv(store, out, reviewer=reviewer)
        return store.count(reviewer)
    if fmt == "sarif":
        log = sarif(store, reviewer=reviewer, files=sarif_files, left_out=left_out)
        out.write(_document(log, sum(len(run.get("results") or ()) for run in log["runs"])))
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
        out.write(_document(document, len(events)))
        out.write("\n")
    else:  # csv --history: the event log
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(FIELDS)
        for event in events:
            data = _ordered(event)
            writer.writerow(["" if data[name] is None else csv_cell(data[name]) for name in FIELDS])
    return len(events)


def _write_jsonl(store: VerdictStore, out: TextIO, reviewer: str | None) -> int:
    # SQLite's json_object encodes exactly as json.dumps(ensure_ascii=False, separators=(",", ":"))
    # does (tested), without a Python call per event.
    lines = store.json_rows(FIELDS, reviewer)
    for start in range(0, len(lines), 5000):
        out.write(json_escaped("\n".join(lines[start : start + 5000]) + "\n"))
    return len(lines)


def _ordered(event: Event) -> dict[str, Any]:
    data = event.to_dict()
    return {name: data[name] for name in FIELDS}


# --- reading jsonl back --------------------------------------------------------------------------


def parse_events(text: str, source: str) -> list[Event]:
    """Events from jsonl (or the json export), their text taken as sync takes it (`admitted`:
    a note's terminal controls as their pictures); StoreError naming source and line on bad
    input."""
    stripped = text.lstrip()
    if stripped.startswith("{") and '"format"' in stripped[:200]:
        try:
            document = json.loads(text)
        except (json.JSONDecodeError, RecursionError):  # the lines below say which is bad
            document = None
        if isinstance(document, dict) and document.get("format") == "assay-verdicts":
            entries = document.get("events")
            if not isinstance(entries, list):
                raise StoreError(f"{source}: 'events' is not a list")
            wheres = (f"{source}: event {n}" for n in range(len(entries)))
            return [admitted(parse_event(e, w), w) for e, w in zip(entries, wheres, strict=True)]
    events = []
    plain = plain_text(text)
    for number, line in enumerate(text.split("\n"), start=1):  # "\n" only: a note may hold U+2028
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as error:
            # the column too: "Unterminated string starting at" alone ends in the air
            why = f"{error.msg.removesuffix(' at')} at column {error.colno}"
            raise StoreError(f"{source}:{number}: not JSON ({why})") from None
        except RecursionError:  # `[[[[...` thousands deep: as sync reads it (db/sync/files.py)
            raise StoreError(f"{source}:{number}: not JSON (nested too deeply)") from None
        where = f"{source}:{number}"
        event = parse_event(data, where)
        if not plain or len(line) > MAX_FIELD:  # else no field can hold a control or be long
            event = admitted(event, where, plain=plain)
        events.append(event)
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
    if moment.utcoffset() is None:  # a local time of an unknown zone: which instant is unknown
        raise StoreError(f"{where}: at {value!r} has no UTC offset (Z or +hh:mm)")
    try:
        instant = moment.astimezone(UTC)
    except OverflowError:  # year 1 an hour east of UTC: before the first instant Python keeps
        raise StoreError(f"{where}: at {value!r} is out of range") from None
    # AT_FORMAT's spelling, but the year always in 4 digits (strftime writes year 5 as "5"),
    # so that times sort as text
    return instant.replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"


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


def sarif(
    store: VerdictStore,
    *,
    reviewer: str | None = None,
    files: Sequence[Path] | None = None,
    left_out: list[Event] | None = None,
) -> dict[str, Any]:
    """A SARIF 2.1.0 log with the reviewers' verdicts as suppressions.

    A review of SARIF files: their own runs, verdicts added (db/sarif_verdicts.py); ``files``
    names them, None takes those the store's results were registered from; ``left_out`` gets
    the verdicts and notes on results of those runs that the files no longer hold. Reports'
    quotes (and a review of reports only): assay's run, one result per quote."""
    from db.sarif_verdicts import registered_sarif_files, runs_with_verdicts

    registered = store.result_files()  # where results came from, not every item's row
    if files is None:
        files = registered_sarif_files(registered, store.sources())
        if files and not all(path.is_file() for path in files):
            missing = ", ".join(str(path) for path in files if not path.is_file())
            raise StoreError(
                f"the SARIF files this review came from are not here ({missing}); "
                "name them with --sarif"
            )
    if not files:
        return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [_assay_run(store, reviewer)]}
    document, identities, missed = runs_with_verdicts(
        store, files, reviewer=reviewer, items=registered
    )
    if left_out is not None:
        left_out.extend(missed)
    own = _assay_run(store, reviewer, skip=identities, items=store.quote_items())
    if own["results"]:
        document["runs"].append(own)
    return document


def _assay_run(
    store: VerdictStore,
    reviewer: str | None,
    *,
    skip: set[str] | None = None,
    items: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """assay's own run: one result per quote of the reports (those of ``skip`` left out)."""
    from db.sarif_verdicts import suppression  # here, as in `sarif`: it reads SARIF documents

    skip = skip or set()
    current: dict[str, list[Event]] = {}
    for event in store.current_all():
        mine = reviewer is None or event.reviewer == reviewer
        if event.quote is not None and mine and event.report not in skip:
            current.setdefault(event.item, []).append(event)
    registered = store.quote_items() if items is None else items
    items_by_key = {
        item["item"]: item
        for item in registered
        if item["quote"] is not None and item["report"] not in skip and item["kind"] != "result"
    }
    keys = [key for key, item in items_by_key.items() if item["present"]]
    keys += sorted(key for key in current if key not in items_by_key)
    rule_ids = list(_RULES)
    results = []
    revisions = set()
    for key in keys:
        item = items_by_key.get(key)
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
        suppressions = [
            s for s in (suppression(e, name_verdict=False) for e in events) if s is not None
        ]
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
        provenance = _provenance(store, revisions, skip)
        if provenance:
            run["versionControlProvenance"] = provenance
    return run


def repository_uri(repository: str | None, remote: str | None) -> str | None:
    """An absolute URI for a reviewed repository: its remote (``git@host:path`` spelled
    ``ssh://git@host/path``), else its directory's ``file://`` URI; None when neither is known."""
    if remote:
        if "://" in remote:
            return remote
        scp = re.fullmatch(r"([^@/:]+@)?([^/:]+):(.+)", remote)
        if scp:
            return f"ssh://{scp.group(1) or ''}{scp.group(2)}/{scp.group(3).lstrip('/')}"
    if repository and Path(repository).is_absolute():
        return Path(repository).as_uri()
    return None


def _provenance(store: VerdictStore, revisions: set[str], skip: set[str]) -> list[dict[str, Any]]:
    """SARIF's versionControlProvenance of the reports' revisions: where each was reviewed."""
    entries: dict[tuple[str, str], dict[str, Any]] = {}
    for source in store.sources():
        revision = source["revision"]
        if source["report"] in skip or revision not in revisions:
            continue
        uri = repository_uri(source["repository"], source["remote"])
        if uri is not None:
            entries.setdefault((uri, revision), {"repositoryUri": uri, "revisionId": revision})
    return [entries[key] for key in sorted(entries)]


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


def render(
    store: VerdictStore, fmt: str, *, reviewer: str | None = None, history: bool = False
) -> str:
    """The export as a string (convenient for tests and small stores)."""
    buffer = io.StringIO()
    write(store, fmt, buffer, reviewer=reviewer, history=history)
    return buffer.getvalue()
