"""A SARIF log -> Reports: one per run, one record per result (evidence/sarif/results.py).

A run's report is named after the file (``scan.sarif``), or ``scan.sarif#2`` for the second run of
a file that holds several. Its identity (what verdicts are kept under) is the tool's name and the
run's category (``automationDetails.id``), so a new scan of the same code keeps the verdicts of
the results it finds again. The revision comes from ``versionControlProvenance``.
"""

from __future__ import annotations

import gc
import re
from collections.abc import Mapping
from typing import Any, NamedTuple

from evidence.model import Diagnostic, Record, Report, RevisionMention
from evidence.sarif.document import read_document
from evidence.sarif.invocations import invocation_problems
from evidence.sarif.rebase import TYPE_PREFIX, slug
from evidence.sarif.results import fingerprint_tables, read_result, shared_tables
from evidence.sarif.rules import RunContext
from evidence.sarif.uris import UriResolver
from evidence.sarif.values import mapping, text

__all__ = ["ResultId", "load_sarif", "read_runs", "reports_of", "result_ids"]

_SHA = re.compile(r"[0-9a-fA-F]{40}")


class ResultId(NamedTuple):
    """Where a result is in the log and the record it became."""

    run: int  # 0-based index in ``runs``
    result: int  # 0-based index in the run's ``results``
    identity: str  # the report's identity (verdict keys)
    record: str  # the record id


def load_sarif(data: bytes, shown: str) -> list[Report]:
    """The reports (one per run) of the SARIF file ``data`` (plain or gzip) shown as ``shown``;
    SarifError when it is not readable SARIF 2.1.0.

    The cycle collector is paused meanwhile: a large log is millions of new containers, none in
    a cycle, and each full collection would walk all of them again (about half of the time
    `json.loads` takes on a 50 MB log; benchmarks/bench_sarif.py)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return reports_of(read_document(data, shown), shown)
    finally:
        if collecting:
            gc.enable()


def reports_of(document: Mapping[str, Any], shown: str) -> list[Report]:
    """The reports of a parsed SARIF log (one per run)."""
    return [report for report, _positions in read_runs(document, shown)]


def result_ids(document: Mapping[str, Any], shown: str) -> list[ResultId]:
    """Every result of the log that became a record, with that record's id."""
    found: list[ResultId] = []
    for run, (report, positions) in enumerate(read_runs(document, shown)):
        for record, position in zip(report.records, positions, strict=True):
            found.append(ResultId(run, position, report.identity, record.id))
    return found


def read_runs(document: Mapping[str, Any], shown: str) -> list[tuple[Report, list[int]]]:
    """Each run's report, with the index in ``results`` of each of its records."""
    runs = document.get("runs")
    runs = runs if isinstance(runs, list) else []
    read: list[tuple[Report, list[int]]] = []
    seen: dict[str, int] = {}  # record ids of every run: two runs of one tool share a scheme
    for number, run in enumerate(runs, start=1):
        file = shown if len(runs) == 1 else f"{shown}#{number}"
        if not isinstance(run, Mapping):
            problem = Diagnostic(0, f"run {number} is not an object; skipped")
            read.append((Report(file, "(not a run)", TYPE_PREFIX, "", diagnostics=(problem,)), []))
            continue
        read.append(_read_run(run, file, seen))
    return read


#: a result of one of these kinds records a rule's outcome, not a problem (SARIF 3.27.9: a check
#: that passed, did not apply, or only informs): not listed for triage, counted in a diagnostic
NO_FINDING = frozenset({"pass", "notApplicable", "informational"})


def _provenance(
    run: Mapping[str, Any],
) -> tuple[list[RevisionMention], set[str], list[Mapping[str, Any]], list[Diagnostic]]:
    mentions: list[RevisionMention] = []
    mapped: set[str] = set()
    roots: list[Mapping[str, Any]] = []
    problems: list[Diagnostic] = []
    entries = run.get("versionControlProvenance")
    for entry in entries if isinstance(entries, list) else []:
        details = mapping(entry)
        mapped_to = mapping(details.get("mappedTo"))
        base = text(mapped_to.get("uriBaseId"))
        if text(mapped_to.get("uri")).strip():
            roots.append(mapped_to)  # the root is its URI (under the base, when it names one)
        elif base:
            mapped.add(base)
        revision = text(details.get("revisionId")).strip()
        repository = text(details.get("repositoryUri"))
        if not revision:
            continue
        if not _SHA.fullmatch(revision):
            problems.append(
                Diagnostic(0, f"revisionId {revision[:60]!r} is not a 40-hex commit id")
            )
            continue
        sentence = f"versionControlProvenance: {repository or 'repository'} at {revision}"
        branch = text(details.get("branch"))
        if branch:
            sentence += f" (branch {branch})"
        mentions.append(RevisionMention(revision.lower(), sentence, 0))
    return mentions, mapped, roots, problems


def _read_run(run: Mapping[str, Any], file: str, seen: dict[str, int]) -> tuple[Report, list[int]]:
    driver = mapping(mapping(run.get("tool")).get("driver"))
    name = text(driver.get("name")).strip() or "unknown tool"
    version = text(driver.get("semanticVersion")) or text(driver.get("version"))
    category = text(mapping(run.get("automationDetails")).get("id"))
    if "/" in category:
        category = category.rsplit("/", 1)[0]  # "category/instance": the instance changes
    run_slug = slug(f"{name} {category}") or "run"
    mentions, mapped, roots, problems = _provenance(run)
    problems += invocation_problems(run)
    context = RunContext.for_run(run, file, UriResolver(run, mapped, roots))
    records: list[Record] = []
    positions: list[int] = []
    results = run.get("results")
    if results is not None and not isinstance(results, list):
        problems.append(Diagnostic(0, "'results' is not a list; no results read"))
    listed = results if isinstance(results, list) else []
    tables = [fingerprint_tables(result) for result in listed]
    shared, counts = shared_tables(listed, tables, context)
    for key, count in counts.items():
        problems.append(
            Diagnostic(
                0,
                f"{count} results share their {key} with results elsewhere:"
                " each is told apart by its rule and location instead",
            )
        )
    outcomes: dict[str, int] = {}  # results that are no finding, by kind
    for position, result in enumerate(listed):
        number = position + 1
        if not isinstance(result, Mapping):
            problems.append(Diagnostic(number, f"result {number} is not an object; skipped"))
            continue
        kind = result.get("kind")
        if type(kind) is str and kind in NO_FINDING:  # any JSON value may stand there
            outcomes[kind] = outcomes.get(kind, 0) + 1
            continue
        record, odd = read_result(result, number, context, shared, tables[position])
        problems.extend(Diagnostic(number, f"result {number}: {text}") for text in odd)
        count = seen.get(record.id, 0) + 1
        seen[record.id] = count
        if count > 1:
            problems.append(
                Diagnostic(number, f"result {number} repeats {record.id} (shown as ({count}))")
            )
            record = _renamed(record, f"{record.id} ({count})")
        records.append(record)
        positions.append(position)
    if outcomes:
        kinds = ", ".join(f"{kind} {count:,}" for kind, count in sorted(outcomes.items()))
        total = sum(outcomes.values())
        problems.append(
            Diagnostic(0, f"{total:,} results are no finding (kind {kinds}): not listed")
        )
    title = f"{name} {version}".strip()
    report = Report(
        file=file,
        title=title,
        type_line=TYPE_PREFIX + run_slug,
        system=name,
        revisions=tuple(mentions),
        records=tuple(records),
        diagnostics=tuple(problems),
    )
    return report, positions


def _renamed(record: Record, record_id: str) -> Record:
    quotes = tuple(quote._replace(record=record_id) for quote in record.quotes)
    return record._replace(id=record_id, quotes=quotes)
