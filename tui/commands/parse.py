"""`assay parse REPORT...`: what the parser read, as an outline (text) or as a JSON bundle."""

from __future__ import annotations

import json
from collections import Counter

import click

from evidence.audit.loading import system_reports
from evidence.model import DECLARED_KINDS, Kind, Record, Report, ReportSet
from evidence.reports.bundle import dump_bundle
from evidence.reports.loading import ReportError, load_reports
from evidence.sarif.rebase import is_sarif_report
from evidence.text import escaped, json_escaped
from tui import startup
from tui.commands.audit import resolve_audit
from tui.commands.errors import InputError, reports_input_error
from tui.commands.options import audit_option, text_or_json_option


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _record_line(record: Record) -> str:
    start, end = record.lines
    parts = [f"result {start}" if record.kind is Kind.RESULT else f"lines {start}-{end}"]
    if record.quotes:
        parts.append(_plural(len(record.quotes), "quote"))
    if record.citations:
        parts.append(_plural(len(record.citations), "citation"))
    if record.searches:
        parts.append(_plural(len(record.searches), "search"))
    if record.statuses:
        parts.append(", ".join(f"{key}: {value}" for key, value in record.statuses))
    label = "" if record.label == record.id else f"  {record.label}"
    return f"    {record.kind.value:<10} {record.id}{label}  ({'; '.join(parts)})"


def outline(report: Report) -> list[str]:
    """The text outline of one report, line by line."""
    lines = [f"{report.file}: {report.title or '(no title)'}"]
    if report.type_line:
        lines.append(f"  type: {report.type_line}")
    for mention in report.revisions:
        where = f"line {mention.line}" if mention.line else "versionControlProvenance"
        lines.append(f"  revision {mention.sha} ({where})")
    section = None
    for record in report.records:
        if record.section != section:
            section = record.section
            if record.kind is not Kind.NARRATIVE:
                lines.append(f"  {section}")
        lines.append(_record_line(record))
    kinds = Counter(record.kind for record in report.records)
    counted = [
        f"{kinds[kind]} {kind.value}"
        for kind in (Kind.NARRATIVE, *DECLARED_KINDS, Kind.ANNOTATION, Kind.RESULT)
        if kinds[kind]
    ]
    quotes = sum(len(record.quotes) for record in report.records)
    citations = sum(len(record.citations) for record in report.records)
    lines.append(
        f"  {_plural(len(report.records), 'record')} ({', '.join(counted) or 'none'}), "
        f"{_plural(quotes, 'quote')}, {_plural(citations, 'citation')}, "
        f"{_plural(len(report.diagnostics), 'diagnostic')}"
    )
    results = is_sarif_report(report)
    lines += [f"  ! {diagnostic.shown(results=results)}" for diagnostic in report.diagnostics]
    return [escaped(line) for line in lines]


def render_text(reportset: ReportSet) -> str:
    """The outline of every report, then the findings across reports."""
    blocks = ["\n".join(outline(report)) for report in reportset.reports]
    if reportset.diagnostics:
        across = [f"across reports: {_plural(len(reportset.diagnostics), 'diagnostic')}"]
        across += [
            escaped(f"  ! {diagnostic.shown(file)}") for file, diagnostic in reportset.diagnostics
        ]
        blocks.append("\n".join(across))
    return "\n\n".join(blocks)


@click.command(short_help="Show what assay reads in reports and SARIF files.")
@click.argument("reports", nargs=-1, metavar="REPORT...")
@audit_option
@text_or_json_option(
    "-f",
    "output_format",
    help="An outline per report, or the JSON bundle (docs/bundle-format.md).",
)
def parse(reports: tuple[str, ...], audit_file: str | None, output_format: str) -> None:
    """Show what assay reads in REPORT files, directories of reports, JSON bundles or SARIF
    2.1.0 files (.sarif, .sarif.gz: one report per run, one record per result).

    Without REPORT (assay.toml here) or with --audit FILE: each system's reports, under a
    `== NAME` line (JSON: {"systems": [{"system", "bundle"}]})."""
    if audit_file is not None or not reports:
        parse_audit(audit_file, output_format)
    with startup.Paused():
        try:
            reportset = load_reports(reports)
        except ReportError as error:
            raise reports_input_error(error) from None
        if output_format == "json":
            bundle = dump_bundle(reportset)
            click.echo(json_escaped(json.dumps(bundle, ensure_ascii=False, indent=2)))
        else:
            click.echo(render_text(reportset))


def parse_audit(audit_file: str | None, output_format: str) -> None:
    """`assay parse` on an audit: each system's reports; exits (2 on bad input)."""
    found = resolve_audit("parse", audit_file, ())
    assert found is not None
    systems = []
    for system in found.systems:
        try:
            systems.append((system.name, system_reports(system)))
        except ReportError as error:
            raise InputError(f"{system.name}: {error}") from None
    if output_format == "json":
        data = {"systems": [{"system": n, "bundle": dump_bundle(r)} for n, r in systems]}
        click.echo(json_escaped(json.dumps(data, ensure_ascii=False, indent=2)))
    else:
        click.echo("\n\n".join(escaped(f"== {n}") + "\n" + render_text(r) for n, r in systems))
    raise SystemExit(0)
