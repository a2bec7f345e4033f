"""A persistent cache of parsed reports: a relaunch on unchanged reports does not parse them.

One file per report, ``<directory>/<key>.marshal``. The key is a BLAKE2b hash of everything the
parsed Report depends on: this cache's format version, the Python version (the parser's Unicode
tables and the marshal format come with it), the parser's own source files, the report's name as
given (it becomes ``Report.file``) and the report's bytes. So an entry is never stale: a changed
report or parser gives another key, and the old entry is pruned in time.

An entry holds ``marshal.dumps((FORMAT, key, payload))`` behind a short header (a magic string and
a checksum of the marshalled bytes), where the payload is the Report as plain tuples, strings,
ints, bools and None (`encode`; `decode` rebuilds the exact NamedTuples). Not pickle: loading an
entry never runs code; and the checksum keeps damaged bytes from ever reaching `marshal.loads`,
which is not meant for erroneous data.

The cache never fails its caller: an entry that is missing, damaged or of another version is a
miss, and a directory that cannot be written (read-only home, full disk) is just not written.
Deleting the directory is always safe. After each write at most MAX_ENTRIES entries (and
MAX_BYTES) are kept, the least recently used (by modification time, which a hit refreshes) go
first.

Standard library and evidence.model only (platformdirs for `default_directory`): this module must
not import the parser.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import marshal
import os
import sys
import time
from pathlib import Path
from typing import Any

from evidence.model import (
    Citation,
    Diagnostic,
    Kind,
    Quote,
    Record,
    Report,
    RevisionMention,
    SearchReplay,
)

__all__ = [
    "FORMAT",
    "MAX_BYTES",
    "MAX_ENTRIES",
    "decode",
    "default_directory",
    "encode",
    "entry_path",
    "get",
    "key_for",
    "parser_digest",
    "prune",
    "put",
]

#: version of the entry layout; change it whenever `encode` changes
FORMAT = 2
#: entries kept after a write: an audit's reports all stay (the bytes bound the disk used)
MAX_ENTRIES = 4096
#: and their total size at most (an entry is a little larger than its report; the newest is kept)
MAX_BYTES = 256 * 1024 * 1024
#: the files (under evidence/) whose source decides what a parsed Report holds: the parser, what
#: it imports from evidence/, loading and this cache (tests/evidence/test_report_cache.py checks
#: that the list is complete)
PARSER_SOURCES = (
    "reports/parser.py",
    "reports/vocabulary.py",
    "reports/outline.py",
    "reports/contents.py",
    "reports/files.py",
    "reports/loading.py",
    "reports/cache.py",
    "model.py",
)
SUFFIX = ".marshal"
_MAGIC = b"assay-report-cache\n"
_CHECK_SIZE = 16  # bytes of the BLAKE2b checksum after the magic
_STALE_SCRATCH = 3600.0  # seconds after which a left-over temporary file is removed

_KINDS: dict[str, Kind] = {kind.value: kind for kind in Kind}


@functools.cache
def parser_digest() -> bytes | None:
    """A digest of the parser's source files (None when one cannot be read: no caching)."""
    digest = hashlib.blake2b(digest_size=32)
    evidence = Path(__file__).parent.parent
    for name in PARSER_SOURCES:
        try:
            data = (evidence / name).read_bytes()
        except OSError:
            return None
        digest.update(name.encode() + b"\0" + len(data).to_bytes(8, "little") + data)
    return digest.digest()


def key_for(shown: str, data: bytes) -> str | None:
    """The cache key (hex) of report ``data`` loaded under the name ``shown``; None: no cache."""
    parser = parser_digest()
    if parser is None:
        return None
    name = shown.encode("utf-8", "surrogatepass")  # a path may hold undecodable bytes
    digest = hashlib.blake2b(digest_size=32)
    digest.update(f"{FORMAT}\0{sys.version}\0".encode("utf-8", "surrogatepass"))
    digest.update(parser)
    digest.update(len(name).to_bytes(8, "little") + name)
    digest.update(data)
    return digest.hexdigest()


def default_directory() -> Path:
    """The cache the review app uses: ``reports`` in the user cache directory of assay."""
    import platformdirs  # here: only the app's commands need it

    return Path(platformdirs.user_cache_dir("assay")) / "reports"


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
        tuple(map(RevisionMention._make, revisions)),
        tuple(map(_decode_record, records)),
        tuple(map(Diagnostic._make, diagnostics)),
    )


def _decode_record(item: Any) -> Record:
    (
        record_id,
        kind,
        label,
        body,
        report,
        section,
        lines,
        fields,
        statuses,
        quotes,
        citations,
        references,
        searches,
        annotates,
    ) = item
    return Record(
        record_id,
        _KINDS[kind],
        label,
        body,
        report,
        section,
        lines,
        fields,
        statuses,
        tuple(map(Quote._make, quotes)),
        tuple(map(Citation._make, citations)),
        references,
        tuple(map(SearchReplay._make, searches)),
        annotates,
    )


# --- the directory -----------------------------------------------------------------------------


def get(directory: Path, key: str) -> Report | None:
    """The cached report for ``key``, or None (a miss) whatever is wrong with the entry."""
    path = entry_path(directory, key)
    try:
        data = path.read_bytes()
    except OSError:
        return None
    head = len(_MAGIC) + _CHECK_SIZE
    if len(data) <= head or not data.startswith(_MAGIC):
        return None
    body = memoryview(data)[head:]
    if hashlib.blake2b(body, digest_size=_CHECK_SIZE).digest() != data[len(_MAGIC) : head]:
        return None
    try:
        stored_format, stored_key, payload = marshal.loads(body)
        if stored_format != FORMAT or stored_key != key:
            return None
        report = decode(payload)
    except (EOFError, ValueError, TypeError, KeyError):
        return None
    with contextlib.suppress(OSError):
        os.utime(path)  # recently used: kept by `prune`
    return report


def put(directory: Path, key: str, report: Report) -> None:
    """Store ``report`` under ``key`` (atomically), then prune; never raises for I/O problems."""
    try:
        body = marshal.dumps((FORMAT, key, encode(report)))
    except ValueError:  # something marshal cannot store: not cached
        return
    check = hashlib.blake2b(body, digest_size=_CHECK_SIZE).digest()
    scratch: Path | None = None
    try:
        import tempfile  # here: only a miss writes

        directory.mkdir(parents=True, exist_ok=True)
        handle, name = tempfile.mkstemp(prefix=f".{key[:16]}.", suffix=".tmp", dir=directory)
        scratch = Path(name)
        with os.fdopen(handle, "wb") as out:
            out.write(_MAGIC + check)
            out.write(body)
        os.replace(scratch, entry_path(directory, key))
        scratch = None
    except OSError:
        return
    finally:
        if scratch is not None:
            with contextlib.suppress(OSError):
                scratch.unlink()
    prune(directory)


def prune(directory: Path, keep: int | None = None, max_bytes: int | None = None) -> None:
    """Keep the ``keep`` most recently used entries (default MAX_ENTRIES; within ``max_bytes``,
    default MAX_BYTES, the newest always); remove the others and temporary files left over by
    interrupted writes."""
    keep = MAX_ENTRIES if keep is None else keep
    max_bytes = MAX_BYTES if max_bytes is None else max_bytes
    entries: list[tuple[int, int, str]] = []  # (mtime, size, path)
    doomed: list[str] = []
    now = time.time()
    try:
        with os.scandir(directory) as scan:
            for entry in scan:
                try:
                    if entry.name.endswith(SUFFIX):
                        status = entry.stat()
                        entries.append((status.st_mtime_ns, status.st_size, entry.path))
                    elif (
                        entry.name.startswith(".")
                        and entry.name.endswith(".tmp")
                        and now - entry.stat().st_mtime > _STALE_SCRATCH
                    ):
                        doomed.append(entry.path)
                except OSError:
                    continue
    except OSError:
        return
    entries.sort(reverse=True)
    total = 0
    for position, (_mtime, size, path) in enumerate(entries):
        total += size
        if position >= keep or (position > 0 and total > max_bytes):
            doomed.append(path)
    for path in doomed:
        with contextlib.suppress(OSError):
            os.unlink(path)
