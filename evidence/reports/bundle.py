"""The JSON bundle: parsed reports as plain JSON that other tools can read and write.

`dump_bundle` writes what `assay parse --format json` prints; `load_bundle` reads it (or a bundle
written by another tool, with optional keys left out) back into the same model. The format is
documented in docs/bundle-format.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from evidence.model import (
    Citation,
    Diagnostic,
    Kind,
    Quote,
    Record,
    Report,
    ReportSet,
    RevisionMention,
    SearchReplay,
)
from evidence.reports.files import ReportError
from evidence.reports.vocabulary import system_from_title

__all__ = ["BUNDLE_FORMAT", "BUNDLE_VERSION", "dump_bundle", "dump_report", "load_bundle"]

BUNDLE_FORMAT = "assay-bundle"
BUNDLE_VERSION = 1

T = TypeVar("T")


# --- writing ------------------------------------------------------------------------------------


def _quote(quote: Quote) -> dict[str, Any]:
    data: dict[str, Any] = {
        "path": quote.path,
        "claimed": list(quote.claimed) if quote.claimed is not None else None,
        "report_line": quote.report_line,
        "text_line": quote.text_line,
        "text": quote.text,
        "inline": quote.inline,
        "index": quote.index,
    }
    # what a SARIF location adds, written only when set (report quotes keep their shape)
    if quote.located:
        data["located"] = True
    for name in ("role", "note", "context"):
        if getattr(quote, name):
            data[name] = getattr(quote, name)
    for name in ("columns", "offsets"):
        if getattr(quote, name) is not None:
            data[name] = list(getattr(quote, name))
    return data


def _record(record: Record) -> dict[str, Any]:
    return {
        "id": record.id,
        "kind": record.kind.value,
        "label": record.label,
        "annotates": record.annotates,
        "section": record.section,
        "lines": list(record.lines),
        "fields": [list(pair) for pair in record.fields],
        "statuses": [list(pair) for pair in record.statuses],
        "references": list(record.references),
        "quotes": [_quote(quote) for quote in record.quotes],
        "citations": [
            {"source": c.source, "paths": list(c.paths), "line": c.line} for c in record.citations
        ],
        "searches": [
            {
                "command": s.command,
                "tool": s.tool,
                "pattern": s.pattern,
                "flags": list(s.flags),
                "paths": list(s.paths),
                "sentence": s.sentence,
                "line": s.line,
            }
            for s in record.searches
        ],
        "body": record.body,
    }


def dump_report(report: Report) -> dict[str, Any]:
    """One report as a JSON-ready dict (an element of the bundle's ``reports``)."""
    return {
        "file": report.file,
        "title": report.title,
        "type_line": report.type_line,
        "system": report.system,
        "identity": report.identity,
        "revisions": [
            {"sha": m.sha, "sentence": m.sentence, "line": m.line} for m in report.revisions
        ],
        "records": [_record(record) for record in report.records],
        "diagnostics": [{"line": d.line, "message": d.message} for d in report.diagnostics],
    }


def dump_bundle(reportset: ReportSet) -> dict[str, Any]:
    """The reports of a ReportSet as a JSON-ready dict in the bundle format."""
    return {
        "format": BUNDLE_FORMAT,
        "version": BUNDLE_VERSION,
        "reports": [dump_report(report) for report in reportset.reports],
        "diagnostics": [
            {"file": file, "line": d.line, "message": d.message}
            for file, d in reportset.diagnostics
        ],
    }


# --- reading ------------------------------------------------------------------------------------

_MISSING = object()


class _Reader:
    """Typed access to untrusted JSON; every problem is a ReportError naming where it is."""

    def __init__(self, file: str) -> None:
        self.file = file

    def fail(self, where: str, message: str) -> ReportError:
        return ReportError(f"{self.file}: {where}: {message}")

    def mapping(self, value: object, where: str) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            raise self.fail(where, f"expected an object, found {_name(value)}")
        return value

    def items(self, data: Mapping[str, Any], key: str, where: str) -> list[Any]:
        value = data.get(key, _MISSING)
        if value is _MISSING or value is None:
            return []
        if not isinstance(value, list):
            raise self.fail(f"{where}.{key}", f"expected a list, found {_name(value)}")
        return value

    def text(self, data: Mapping[str, Any], key: str, where: str, default: str | None = "") -> str:
        value = data.get(key, _MISSING)
        if value is _MISSING or (value is None and default is not None):
            if default is None:
                raise self.fail(where, f"missing '{key}'")
            return default
        if not isinstance(value, str):
            raise self.fail(f"{where}.{key}", f"expected a string, found {_name(value)}")
        return value

    def optional_text(self, data: Mapping[str, Any], key: str, where: str) -> str | None:
        value = data.get(key)
        if value is None:
            return None
        if not isinstance(value, str):
            raise self.fail(f"{where}.{key}", f"expected a string or null, found {_name(value)}")
        return value

    def integer(self, data: Mapping[str, Any], key: str, where: str, default: int = 0) -> int:
        value = data.get(key, default)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(f"{where}.{key}", f"expected an integer, found {_name(value)}")
        return value

    def flag(self, data: Mapping[str, Any], key: str, where: str) -> bool:
        value = data.get(key, False)
        if not isinstance(value, bool):
            raise self.fail(f"{where}.{key}", f"expected true or false, found {_name(value)}")
        return value

    def strings(self, data: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
        values = self.items(data, key, where)
        for position, value in enumerate(values):
            if not isinstance(value, str):
                raise self.fail(
                    f"{where}.{key}[{position}]", f"expected a string, found {_name(value)}"
                )
        return tuple(values)

    def pairs(self, data: Mapping[str, Any], key: str, where: str) -> tuple[tuple[str, str], ...]:
        value = data.get(key)
        if value is None:
            return ()
        if isinstance(value, Mapping):
            value = [[k, v] for k, v in value.items()]
        if not isinstance(value, list):
            raise self.fail(
                f"{where}.{key}", f"expected a list of [key, value], found {_name(value)}"
            )
        found: list[tuple[str, str]] = []
        for position, pair in enumerate(value):
            if (
                not isinstance(pair, list | tuple)
                or len(pair) != 2
                or not all(isinstance(part, str) for part in pair)
            ):
                raise self.fail(f"{where}.{key}[{position}]", "expected [key, value] strings")
            found.append((pair[0], pair[1]))
        return tuple(found)

    def line_range(self, value: object, where: str) -> tuple[int, int] | None:
        if value is None:
            return None
        if isinstance(value, int) and not isinstance(value, bool):
            return (value, value)
        if (
            not isinstance(value, list)
            or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        ):
            raise self.fail(where, "expected [first, last] line numbers or null")
        return (value[0], value[1])

    def each(
        self, data: Mapping[str, Any], key: str, where: str, read: Callable[[Any, str, int], T]
    ) -> tuple[T, ...]:
        return tuple(
            read(item, f"{where}.{key}[{position}]", position)
            for position, item in enumerate(self.items(data, key, where))
        )


def _name(value: object) -> str:
    if value is None:
        return "null"
    return {bool: "a boolean", int: "a number", float: "a number", str: "a string"}.get(
        type(value), "a list" if isinstance(value, list) else "an object"
    )


def _read_report(reader: _Reader, value: object, where: str) -> Report:
    data = reader.mapping(value, where)
    file = reader.text(data, "file", where, default=None)
    title = reader.text(data, "title", where)

    def revision(item: Any, at: str, _position: int) -> RevisionMention:
        entry = reader.mapping(item, at)
        return RevisionMention(
            sha=reader.text(entry, "sha", at, default=None).lower(),
            sentence=reader.text(entry, "sentence", at),
            line=reader.integer(entry, "line", at),
        )

    def diagnostic(item: Any, at: str, _position: int) -> Diagnostic:
        entry = reader.mapping(item, at)
        return Diagnostic(reader.integer(entry, "line", at), reader.text(entry, "message", at))

    def record(item: Any, at: str, _position: int) -> Record:
        return _read_record(reader, item, at, file)

    return Report(
        file=file,
        title=title,
        type_line=reader.text(data, "type_line", where),
        system=reader.text(data, "system", where, default=system_from_title(title)),
        revisions=reader.each(data, "revisions", where, revision),
        records=reader.each(data, "records", where, record),
        diagnostics=reader.each(data, "diagnostics", where, diagnostic),
    )


def _read_record(reader: _Reader, value: object, where: str, file: str) -> Record:
    data = reader.mapping(value, where)
    record_id = reader.text(data, "id", where, default=None)
    kind_name = reader.text(data, "kind", where, default=None)
    try:
        kind = Kind(kind_name)
    except ValueError:
        spelled = ", ".join(k.value for k in Kind)
        raise reader.fail(
            f"{where}.kind", f"unknown kind '{kind_name}' (one of {spelled})"
        ) from None
    lines = reader.line_range(data.get("lines"), f"{where}.lines") or (0, 0)

    def quote(item: Any, at: str, position: int) -> Quote:
        entry = reader.mapping(item, at)
        report_line = reader.integer(entry, "report_line", at)
        return Quote(
            text=reader.text(entry, "text", at, default=None),
            path=reader.text(entry, "path", at, default=None),
            claimed=reader.line_range(entry.get("claimed"), f"{at}.claimed"),
            report_line=report_line,
            text_line=reader.integer(entry, "text_line", at, default=report_line),
            record=record_id,
            index=reader.integer(entry, "index", at, default=position),
            inline=reader.flag(entry, "inline", at),
            located=reader.flag(entry, "located", at),
            role=reader.text(entry, "role", at),
            note=reader.text(entry, "note", at),
            context=reader.text(entry, "context", at),
            columns=reader.line_range(entry.get("columns"), f"{at}.columns"),
            offsets=reader.line_range(entry.get("offsets"), f"{at}.offsets"),
        )

    def citation(item: Any, at: str, _position: int) -> Citation:
        entry = reader.mapping(item, at)
        return Citation(
            source=reader.text(entry, "source", at),
            paths=reader.strings(entry, "paths", at),
            line=reader.integer(entry, "line", at),
        )

    def search(item: Any, at: str, _position: int) -> SearchReplay:
        entry = reader.mapping(item, at)
        return SearchReplay(
            command=reader.text(entry, "command", at),
            tool=reader.text(entry, "tool", at),
            pattern=reader.text(entry, "pattern", at, default=None),
            flags=reader.strings(entry, "flags", at),
            paths=reader.strings(entry, "paths", at),
            sentence=reader.text(entry, "sentence", at),
            line=reader.integer(entry, "line", at),
            record=record_id,
        )

    return Record(
        id=record_id,
        kind=kind,
        label=reader.text(data, "label", where),
        body=reader.text(data, "body", where),
        report=file,
        section=reader.text(data, "section", where),
        lines=lines,
        fields=reader.pairs(data, "fields", where),
        statuses=reader.pairs(data, "statuses", where),
        quotes=reader.each(data, "quotes", where, quote),
        citations=reader.each(data, "citations", where, citation),
        references=reader.strings(data, "references", where),
        searches=reader.each(data, "searches", where, search),
        annotates=reader.optional_text(data, "annotates", where),
    )


def load_bundle(data: object, file: str) -> ReportSet:
    """A ReportSet from parsed bundle JSON; raises ReportError naming the first problem."""
    reader = _Reader(file)
    top = reader.mapping(data, "bundle")
    if "reports" not in top:
        raise reader.fail("bundle", "not an assay bundle (no 'reports' list)")
    format_name = top.get("format", BUNDLE_FORMAT)
    if format_name != BUNDLE_FORMAT:
        raise reader.fail("format", f"expected '{BUNDLE_FORMAT}', found {format_name!r}")
    version = top.get("version", BUNDLE_VERSION)
    if isinstance(version, bool) or not isinstance(version, int) or version > BUNDLE_VERSION:
        raise reader.fail("version", f"unsupported bundle version {version!r}")

    def report(item: Any, at: str, _position: int) -> Report:
        return _read_report(reader, item, at)

    def diagnostic(item: Any, at: str, _position: int) -> tuple[str, Diagnostic]:
        entry = reader.mapping(item, at)
        return (
            reader.text(entry, "file", at),
            Diagnostic(reader.integer(entry, "line", at), reader.text(entry, "message", at)),
        )

    return ReportSet(
        reports=reader.each(top, "reports", "bundle", report),
        diagnostics=reader.each(top, "diagnostics", "bundle", diagnostic),
    )
