"""A persistent cache of parsed reports: a relaunch on unchanged reports does not parse them.

SARIF files are kept too, an entry per file holding its runs' reports (`get_reports`,
`put_reports`): a relaunch on a large scan reads neither its JSON nor its results again.

One file per report, ``<directory>/<key>.marshal``. The key is a BLAKE2b hash of everything the
parsed Report depends on: this cache's format version, the Python version (the parser's Unicode
tables and the marshal format come with it), the parser's own source files, the report's name as
given (it becomes ``Report.file``) and the report's bytes. So an entry is never stale: a changed
report or parser gives another key, and the old entry is pruned in time.

An entry is a file of evidence/cache_files.py whose payload is the Report as plain tuples,
strings, ints, bools and None (`encode`; `decode` rebuilds the exact NamedTuples): loading it never
runs code.

The cache never fails its caller: an entry that is missing, damaged or of another version is a
miss, and a directory that cannot be written (read-only home, full disk) is just not written.
Deleting the directory is always safe. After each write (or each `load_reports` that wrote) at
most MAX_ENTRIES entries (and MAX_BYTES) are kept, the least recently used go first.

Standard library, evidence.model and evidence.cache_files only (platformdirs for
`default_directory`): this module must not import the parser.
"""

from __future__ import annotations

import functools
import gc
import hashlib
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from evidence import cache_files, model
from evidence.cache_files import SUFFIX
from evidence.model import Quote, Record, Report

__all__ = [
    "FORMAT",
    "MAX_BYTES",
    "MAX_ENTRIES",
    "SUFFIX",
    "decode",
    "default_directory",
    "encode",
    "entry_path",
    "get",
    "get_reports",
    "key_for",
    "parser_digest",
    "prune",
    "put",
    "put_reports",
]

#: version of the entry layout; change it whenever `encode` changes
FORMAT = 2
#: entries kept after a write: an audit's reports all stay (the bytes bound the disk used)
MAX_ENTRIES = 4096
#: and their total size at most (an entry is a little larger than its report; the newest is kept)
MAX_BYTES = 256 * 1024 * 1024
#: the files (under evidence/) whose source decides what a parsed Report holds: the parser, what
#: it imports from evidence/, loading, this cache and its entry files (tests/evidence/
#: test_report_cache.py checks that the list is complete)
PARSER_SOURCES = (
    "reports/parser.py",
    "reports/html_text.py",
    "reports/vocabulary.py",
    "reports/outline.py",
    "reports/contents.py",
    "reports/revisions.py",
    "reports/markers.py",
    "reports/blocks.py",
    "reports/fenced.py",
    "reports/inline_refs.py",
    "reports/searches.py",
    "reports/mentions.py",
    "reports/citing.py",
    "reports/ranges.py",
    "git/blobs.py",  # a report not in UTF-8 read as a source file is
    "reports/files.py",
    "reports/loading.py",
    "reports/cache.py",
    "cache_files.py",
    "limits.py",
    "model.py",
)
#: the same for a SARIF file's reports: the SARIF reader and what it imports from evidence/
#: (tests/evidence/test_report_cache.py checks this list too)
SARIF_SOURCES = (
    "sarif/__init__.py",
    "sarif/reader.py",
    "sarif/invocations.py",
    "sarif/document.py",
    "sarif/results.py",
    "sarif/rules.py",
    "sarif/values.py",
    "sarif/messages.py",
    "sarif/uris.py",
    "sarif/rebase.py",
    "limits.py",
    "text.py",
    "reports/files.py",
    "reports/loading.py",
    "reports/cache.py",
    "cache_files.py",
    "model.py",
)
_MAGIC = b"assay-report-cache\n"

_KINDS: dict[str, model.Kind] = {kind.value: kind for kind in model.Kind}


def parser_digest() -> bytes | None:
    """A digest of the parser's source files (None when one cannot be read: no caching)."""
    return _sources_digest(PARSER_SOURCES)


@functools.cache
def _sources_digest(names: tuple[str, ...]) -> bytes | None:
    digest = hashlib.blake2b(digest_size=32)
    evidence = Path(__file__).parent.parent
    for name in names:
        try:
            data = (evidence / name).read_bytes()
        except OSError:
            return None
        digest.update(name.encode() + b"\0" + len(data).to_bytes(8, "little") + data)
    return digest.digest()


def key_for(shown: str, data: bytes, *, sarif_limit: int | None = None) -> str | None:
    """The cache key (hex) of report ``data`` loaded under the name ``shown``; None: no cache.

    ``sarif_limit``: the key of a SARIF file read with that limit on its expanded size (the
    SARIF reader's sources in place of the parser's)."""
    sarif = sarif_limit is not None
    parser = _sources_digest(SARIF_SOURCES if sarif else PARSER_SOURCES)
    if parser is None:
        return None
    name = shown.encode("utf-8", "surrogatepass")  # a path may hold undecodable bytes
    digest = hashlib.blake2b(digest_size=32)
    digest.update(f"{FORMAT}\0{sys.version}\0".encode("utf-8", "surrogatepass"))
    if sarif:
        digest.update(f"sarif\0{sarif_limit}\0".encode())
    digest.update(parser)
    digest.update(len(name).to_bytes(8, "little") + name)
    digest.update(data)
    return digest.hexdigest()


def default_directory() -> Path:
    """The cache the review app uses: ``reports`` in the user cache directory of assay."""
    return cache_files.user_cache(cache_files.REPORTS)


def entry_path(directory: Path, key: str) -> Path:
    """The file that holds (or would hold) the entry for ``key``."""
    return directory / f"{key}{SUFFIX}"


# --- Report <-> plain tuples -----------------------------------------------------------------


def encode(report: Report) -> tuple[Any, ...]:
    """The report as nested plain tuples of str, int, bool and None (what marshal can store)."""
    return (
        report.file,
        report.title,
        report.type_line,
        report.system,
        tuple(tuple(mention) for mention in report.revisions),
        tuple(_encode_record(record) for record in report.records),
        tuple(tuple(diagnostic) for diagnostic in report.diagnostics),
    )


def _encode_record(record: Record) -> tuple[Any, ...]:
    return (
        record.id,
        record.kind.value,
        record.label,
        record.body,
        record.report,
        record.section,
        tuple(record.lines),
        tuple(tuple(field) for field in record.fields),
        tuple(tuple(status) for status in record.statuses),
        tuple(
            (
                quote.text,
                quote.path,
                None if quote.claimed is None else tuple(quote.claimed),
                quote.report_line,
                quote.text_line,
                quote.record,
                quote.index,
                quote.inline,
                quote.located,
                quote.role,
                quote.note,
                quote.context,
                None if quote.columns is None else tuple(quote.columns),
                None if quote.offsets is None else tuple(quote.offsets),
            )
            for quote in record.quotes
        ),
        tuple((c.source, tuple(c.paths), c.line) for c in record.citations),
        tuple(record.references),
        tuple(
            (
                s.command,
                s.tool,
                s.pattern,
                tuple(s.flags),
                tuple(s.paths),
                s.sentence,
                s.line,
                s.record,
            )
            for s in record.searches
        ),
        record.annotates,
    )


def decode(payload: Any) -> Report:
    """The Report that `encode` made ``payload`` from; TypeError, ValueError or KeyError if the
    payload does not have encode's shape."""
    file, title, type_line, system, revisions, records, diagnostics = payload
    return Report(
        file,
        title,
        type_line,
        system,
        tuple(map(model.RevisionMention._make, revisions)),
        tuple(map(_decode_record, records)),
        tuple(map(model.Diagnostic._make, diagnostics)),
    )


def _decode_record(item: Any) -> Record:
    record_id, kind, *plain, quotes, citations, references, searches, annotates = item
    return Record._make(  # raises TypeError unless every field is there
        (
            record_id,
            _KINDS[kind],
            *plain,  # label, body, report, section, lines, fields, statuses: stored as they are
            tuple(map(Quote._make, quotes)),
            tuple(map(model.Citation._make, citations)),
            references,
            tuple(map(model.SearchReplay._make, searches)),
            annotates,
        )
    )


# --- the directory -----------------------------------------------------------------------------


def get(directory: Path, key: str) -> Report | None:
    """The cached report for ``key``, or None (a miss) whatever is wrong with the entry."""
    return cache_files.read(entry_path(directory, key), _MAGIC, FORMAT, key, decode)


def put(directory: Path, key: str, report: Report, *, then_prune: bool = True) -> bool:
    """Store ``report`` under ``key`` (atomically), then prune unless told not to (a caller
    storing many prunes once after them: pruning reads the whole directory); never raises for
    I/O problems. True when it was stored."""
    stored = cache_files.write(entry_path(directory, key), _MAGIC, FORMAT, key, encode(report))
    if stored and then_prune:
        prune(directory)
    return stored


def get_reports(directory: Path, key: str) -> list[Report] | None:
    """The cached reports of a SARIF file for ``key``, or None (a miss).

    The cycle collector is paused meanwhile, as the SARIF reader pauses it: a large scan is
    millions of new tuples, none in a cycle."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return cache_files.read(entry_path(directory, key), _MAGIC, FORMAT, key, _decode_all)
    finally:
        if collecting:
            gc.enable()


def put_reports(
    directory: Path, key: str, reports: Sequence[Report], *, then_prune: bool = True
) -> bool:
    """Store a SARIF file's ``reports`` under ``key``, as `put` stores a report."""
    payload = tuple(encode(report) for report in reports)
    stored = cache_files.write(entry_path(directory, key), _MAGIC, FORMAT, key, payload)
    if stored and then_prune:
        prune(directory)
    return stored


def _decode_all(payload: Any) -> list[Report]:
    if not isinstance(payload, tuple) or not payload:
        raise ValueError("not a SARIF file's reports")
    return [decode(item) for item in payload]


def prune(directory: Path, keep: int | None = None, max_bytes: int | None = None) -> None:
    """Keep the ``keep`` most recently used entries (default MAX_ENTRIES; within ``max_bytes``,
    default MAX_BYTES, the newest always); remove the others and temporary files left over by
    interrupted writes."""
    keep = MAX_ENTRIES if keep is None else keep
    max_bytes = MAX_BYTES if max_bytes is None else max_bytes
    cache_files.prune(directory, keep, max_bytes)
