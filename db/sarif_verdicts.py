"""Verdicts back into SARIF: the scanner's own runs, with reviewers' verdicts as suppressions.

For a review of SARIF files, `assay export --format sarif` writes the original runs unchanged but
for each result's verdicts: refuted -> a suppression of kind ``external``, status ``accepted``,
the note as its justification; unclear -> status ``underReview``; confirmed (and skip) -> no
suppression. A verdict on a result's only location (no code flow, no related location) is the
result's, when the reviewer gave the result none. Every verdict, on the result and on its
locations, is also listed in the result's ``properties.assay``, so the file can go back to a
code-scanning system and to assay alike: reviewed again, such a file's suppressions and
``properties.assay`` of the reviewers exported are replaced by their verdicts of now.
Results are matched to verdicts by the record ids the reader gives them (evidence/sarif/).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from db.check import StoreError
from db.events import Event
from db.keys import Verdict, make_key, record_quote_hashes
from db.store import VerdictStore
from evidence.limits import TooLarge, read_input
from evidence.sarif.document import SarifError, read_document
from evidence.sarif.reader import read_runs
from evidence.sarif.triage import only_location
from evidence.text import shown_path

__all__ = ["registered_sarif_files", "runs_with_verdicts", "suppression"]

_RUN_SUFFIX = re.compile(r"#\d+$")


def registered_sarif_files(
    items: Iterable[Mapping[str, Any]], sources: Iterable[Mapping[str, Any]] = ()
) -> list[Path]:
    """The SARIF files the scans registered last came from (``scan.sarif#2`` ->
    ``scan.sarif``), in the order they were given, whether or not they still exist: each
    scan's ``run_files`` in ``sources`` (a scan that found nothing too), else, registered by an
    assay that kept none, the files of its results (``items``). A rescan written elsewhere
    replaces the scan before: that file's results the rescan no longer holds (fixed, or moved
    to other lines) are no run of the export."""
    named = {row["report"] for row in sources if row.get("run_files")}
    # as registered (a review's files in the order given), not by report identity
    found = [
        (row["registered_at"] or "", row["ord"] or 0, name)
        for row in sources
        if row.get("run_files")
        for name in str(row["run_files"]).split("\n")
    ]
    found += [
        (item.get("registered_at") or "", item["ord"], str(item["report_file"]))
        for item in items
        if item.get("kind") == "result"
        and item.get("report_file")
        and item.get("present")
        and item.get("report") not in named
    ]
    ordered = sorted(found, key=lambda entry: entry[:2])  # a scan's own files as given
    files = {_RUN_SUFFIX.sub("", name): None for _at, _ord, name in ordered}
    return [Path(name) for name in files]


def suppression(event: Event, *, name_verdict: bool = True) -> dict[str, Any] | None:
    """The SARIF suppression for one reviewer's verdict (None: the verdict suppresses nothing):
    its properties give the reviewer, the verdict (not in assay's own run: ``name_verdict``
    False) and the time."""
    if event.verdict is Verdict.REFUTED:
        found: dict[str, Any] = {"kind": "external", "status": "accepted"}
    elif event.verdict is Verdict.UNCLEAR:
        found = {"kind": "external", "status": "underReview"}
    else:
        return None
    if event.note:
        found["justification"] = event.note
    properties: dict[str, Any] = {"reviewer": event.reviewer}
    if name_verdict:
        properties["verdict"] = event.verdict.value
    properties["at"] = event.at
    found["properties"] = properties
    return found


def _verdict(event: Event) -> dict[str, Any]:
    return {
        "reviewer": event.reviewer,
        "verdict": event.verdict.value if event.verdict else None,
        "note": event.note,
        "at": event.at,
    }


def _read(path: Path) -> dict[str, Any]:
    try:
        data = read_input(path)
    except OSError as error:
        raise StoreError(f"cannot read {shown_path(path)}: {error.strerror or error}") from None
    except TooLarge as error:
        raise StoreError(f"{shown_path(path)}: {error}") from None
    try:
        return read_document(data, str(path))
    except SarifError as error:
        raise StoreError(str(error)) from None


def runs_with_verdicts(
    store: VerdictStore,
    files: Sequence[Path],
    *,
    reviewer: str | None = None,
    items: Iterable[Mapping[str, Any]] | None = None,
) -> tuple[dict[str, Any], set[str], list[Event]]:
    """(the SARIF log of the files' runs with the store's verdicts, the report identities they
    hold, the verdicts and notes on those runs' results that the files no longer hold: a scan
    run again since the review). The log keeps the first file's top-level members; StoreError
    for an unreadable file.

    A run is matched under the identity the store registered it with (``items``, default the
    store's): in an audit, a run's identity holds its system (evidence/sarif/rebase.py
    `for_system`), which the file alone does not say."""
    registered: dict[str, set[str]] = {}
    for item in store.items() if items is None else items:
        if item.get("kind") == "result" and item.get("report_file"):
            registered.setdefault(str(item["report_file"]), set()).add(str(item["report"]))
    current: dict[str, list[Event]] = {}
    for event in store.current_all():
        if reviewer is None or event.reviewer == reviewer:
            current.setdefault(event.item, []).append(event)
    # an earlier export of theirs reviewed again: what it says of them is replaced
    exported = {reviewer} if reviewer is not None else set(store.reviewers())
    document: dict[str, Any] = {}
    runs: list[Any] = []
    identities: set[str] = set()
    written: set[str] = set()  # the items whose verdicts went into a result
    for path in files:
        original = _read(path)
        if not document:
            document = {key: value for key, value in original.items() if key != "runs"}
        runs_read = read_runs(original, str(path))
        for (report, positions), run in zip(runs_read, original["runs"], strict=True):
            names = [report.identity]
            held = registered.get(report.file) or _moved(registered, report.file, report.identity)
            if held and report.identity not in held:
                # registered in an audit, under its system: under each system whose reports
                # name the file (one scan of a monorepo), whose verdicts all belong to its run
                names = sorted(held)
            identities.update(names)
            results = run.get("results") if isinstance(run, dict) else None
            for record, position in zip(report.records, positions, strict=True):
                result = results[position] if isinstance(results, list) else None
                if not isinstance(result, dict):
                    continue
                hashes = record_quote_hashes(record)
                events: list[Event] = []
                located: list[tuple[Any, Event]] = []
                for name in names:
                    key = make_key(name, record.id)
                    keys = [make_key(name, record.id, digest) for digest in hashes]
                    written.update((key, *keys))
                    events += current.get(key, [])
                    located += [
                        (quote, event)
                        for quote, quote_key in zip(record.quotes, keys, strict=True)
                        for event in current.get(quote_key, [])
                    ]
                if only_location(record) is not None:
                    # a verdict on a result's only location is the result's (when the reviewer
                    # gave the result none of its own)
                    own = {event.reviewer for event in events}
                    events = events + [
                        event
                        for _quote, event in located
                        if event.reviewer not in own and event.verdict is not None
                    ]
                _forget_earlier(result, exported)
                if events or located:
                    _annotate(result, events, located)
            runs.append(run)
    document["runs"] = runs
    left_out = [
        event
        for key, events in current.items()
        if key not in written
        for event in events
        if event.report in identities and not event.empty
    ]
    return document, identities, left_out


def _moved(registered: Mapping[str, set[str]], file: str, identity: str) -> set[str]:
    """The identities under which an audit registered a run read now from another path (the
    file moved, `--sarif` names it): those of its tool and category under a system (``@``)
    registered from one file, the one of the same name when there are several; none when that
    does not single one out (another system's scan of the same tool)."""
    if any(identity in held for held in registered.values()):
        return set()  # registered as it is: not an audit's
    candidates = {
        registered_file: {name for name in held if name.startswith(f"{identity}@")}
        for registered_file, held in registered.items()
    }
    candidates = {path: held for path, held in candidates.items() if held}
    if len(candidates) > 1:
        name = Path(file).name
        candidates = {path: held for path, held in candidates.items() if Path(path).name == name}
    return next(iter(candidates.values())) if len(candidates) == 1 else set()


def _written_here(suppression: object, reviewers: set[str]) -> bool:
    """A suppression an earlier export wrote for one of ``reviewers`` (`suppression`'s shape)."""
    if not isinstance(suppression, dict) or suppression.get("kind") != "external":
        return False
    properties = suppression.get("properties")
    return (
        isinstance(properties, dict)
        and properties.get("reviewer") in reviewers
        and properties.get("verdict") in (Verdict.REFUTED.value, Verdict.UNCLEAR.value)
        and isinstance(properties.get("at"), str)
    )


def _forget_earlier(result: dict[str, Any], reviewers: set[str]) -> None:
    """Take out what an earlier export wrote of these reviewers' verdicts (a triaged log
    reviewed again): a verdict changed since would stay a suppression, one kept be written
    twice (suppressions are unique in SARIF)."""
    existing = result.get("suppressions")
    if isinstance(existing, list):
        kept = [found for found in existing if not _written_here(found, reviewers)]
        if len(kept) < len(existing):
            if kept:
                result["suppressions"] = kept
            else:
                del result["suppressions"]
    properties = result.get("properties")
    earlier = properties.get("assay") if isinstance(properties, dict) else None
    if not isinstance(properties, dict) or not isinstance(earlier, dict):
        return
    for key in ("verdicts", "locations"):
        entries = earlier.get(key)
        if isinstance(entries, list):
            earlier[key] = [
                entry
                for entry in entries
                if not (isinstance(entry, dict) and entry.get("reviewer") in reviewers)
            ]
            if not earlier[key]:
                del earlier[key]
    if not earlier:
        del properties["assay"]


def _annotate(
    result: dict[str, Any], events: list[Event], located: list[tuple[Any, Event]]
) -> None:
    added = [found for found in map(suppression, events) if found is not None]
    if added:
        existing = result.get("suppressions")
        result["suppressions"] = [*(existing if isinstance(existing, list) else []), *added]
    properties = result.get("properties")
    if not isinstance(properties, dict):
        properties = result["properties"] = {}
    earlier = properties.get("assay")
    earlier = earlier if isinstance(earlier, dict) else {}  # other reviewers', kept
    assay: dict[str, Any] = {
        "verdicts": [*earlier.get("verdicts", []), *(_verdict(event) for event in events)]
    }
    here = [{"index": q.index, "role": q.role, **_verdict(event)} for q, event in located]
    if here or earlier.get("locations"):
        assay["locations"] = [*earlier.get("locations", []), *here]
    properties["assay"] = assay
