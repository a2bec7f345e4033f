"""Find and read report files: paths, directories and bundles in, a cross-checked ReportSet out.

Everything about loading reports that is not parsing them. This module does not import the parser
(evidence/reports/parser.py) nor the bundle reader at module level: `load_reports` imports the
parser only when a report must really be parsed (no cache, or not in it; see
evidence/reports/cache.py) and the bundle reader only for bundles, so a launch whose reports are
all in the cache never compiles the parser's regular expressions.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from evidence.limits import TooLarge, read_input
from evidence.model import Diagnostic, Kind, Report, ReportSet
from evidence.reports.files import (
    REPORT_SUFFIXES,
    ReportError,
    is_report_text,
    is_sarif_name,
    looks_like_sarif,
)
from evidence.text import unreadable

__all__ = ["ReportError", "cross_check", "holds_reports", "load_reports"]


def _read(path: Path, shown: str) -> bytes:
    """The file's bytes (evidence/limits.py `read_input`): a ReportError past the limit."""
    try:
        return read_input(path)
    except OSError as error:
        raise ReportError(f"{shown}: {unreadable(error)}") from None
    except TooLarge as error:
        raise ReportError(f"{shown}: {error}") from None


def _looks_like_bundle(data: bytes) -> bool:
    return data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"{"


def _load_bundle_bytes(data: bytes, shown: str) -> ReportSet:
    from evidence.reports.bundle import load_bundle  # here: it imports the vocabulary
    from evidence.text import json_input

    return load_bundle(json_input(data, shown, ReportError, "a .json bundle"), shown)


def _directory_members(directory: Path, shown: str) -> list[tuple[Path, str]]:
    try:
        entries = sorted(directory.iterdir(), key=lambda entry: entry.name)
    except PermissionError:
        raise ReportError(f"{shown}: permission denied") from None
    except OSError as error:
        raise ReportError(f"{shown}: cannot list ({error.strerror or error})") from None
    members: list[tuple[Path, str]] = []
    for entry in entries:
        try:
            if entry.name.startswith(".") or not entry.is_file():
                continue
        except OSError:
            continue
        if is_sarif_name(entry.name):
            members.append((entry, str(Path(shown) / entry.name)))
            continue
        if entry.suffix.lower() not in REPORT_SUFFIXES:
            continue
        try:
            with entry.open("rb") as handle:
                head = handle.read(4096)
        except OSError:
            continue
        if entry.suffix.lower() == ".json" and looks_like_sarif(head):
            members.append((entry, str(Path(shown) / entry.name)))
            continue
        if entry.suffix.lower() == ".json":
            if _looks_like_bundle(head) and (b'"reports"' in head or b"assay-bundle" in head):
                members.append((entry, str(Path(shown) / entry.name)))
            continue
        if is_report_text(head.decode("utf-8", errors="replace")):
            members.append((entry, str(Path(shown) / entry.name)))
    if not members:
        raise ReportError(f"{shown}: no reports in this directory", empty=(str(directory),))
    return members


def holds_reports(directory: Path) -> bool:
    """The directory holds a file `load_reports` reads as a report, a scan or a bundle (False
    when it cannot be listed)."""
    try:
        return bool(_directory_members(directory, str(directory)))
    except ReportError:
        return False


def _classify(path: Path, shown: str) -> bool:
    """True for a directory, False for a file; ReportError for anything unreadable."""
    try:
        if path.is_dir():
            return True
        if path.exists():
            return False
    except (OSError, ValueError) as error:
        reason = "permission denied" if isinstance(error, PermissionError) else str(error)
        raise ReportError(f"{shown}: cannot read ({reason})") from None
    try:  # exists() is False for a symbolic link loop too: say which it is
        path.stat()
    except FileNotFoundError:
        if path.is_symlink():  # not "no such file": the link is there, what it names is not
            raise ReportError(
                f"{shown}: a symbolic link to nothing (its target is missing)"
            ) from None
    except OSError as error:
        raise ReportError(f"{shown}: {unreadable(error)}") from None
    except ValueError:  # a NUL in the name: no file has it
        pass
    raise ReportError(f"{shown}: no such file or directory")


def _bundle_in_text(data: bytes) -> object | None:
    """Parsed JSON when a file without the .json suffix holds a bundle, else None."""
    if not _looks_like_bundle(data):
        return None
    from evidence.text import json_value

    try:
        parsed = json_value(data)
    except (ValueError, RecursionError):
        return None
    return parsed if isinstance(parsed, dict) and "reports" in parsed else None


def load_reports(paths: Sequence[str | Path], *, cache: Path | None = None) -> ReportSet:
    """Load report files, directories of reports, JSON bundles and SARIF 2.1.0 files (plain or
    gzip; one report per run, evidence/sarif/) together, cross-checked.

    ``cache``: a directory of parsed reports (evidence/reports/cache.py). Each report file and
    SARIF file (not a bundle) is looked up there before it is read and stored there after; a cache
    that cannot be read or written is not used. None (the default): every report is parsed.

    A path that cannot be read raises ReportError once every path was tried: its message has a
    line per unreadable path.
    """
    reports: list[Report] = []
    seen: set[str] = set()
    problems: list[str] = []  # every unreadable path is named, in order, not only the first
    empty: list[str] = []  # the directories without reports
    stored: list[str] = []  # keys written to the cache: pruned once, after them all
    for given in paths:
        path = Path(given)
        shown = str(given)
        try:
            files = _directory_members(path, shown) if _classify(path, shown) else [(path, shown)]
        except ReportError as error:
            problems.append(str(error))
            empty += error.empty
            continue
        for file, file_shown in files:
            try:
                key = str(file.resolve())
            except (OSError, RuntimeError):
                key = str(file.absolute())
            if key in seen:
                continue
            seen.add(key)
            try:
                reports.extend(_load_file(file, file_shown, cache, stored))
            except ReportError as error:
                problems.append(str(error))
    if cache is not None and stored:
        from evidence.reports import cache as report_cache

        report_cache.prune(cache)
    if problems:
        raise ReportError("\n".join(problems), empty=tuple(empty))
    return ReportSet(reports=tuple(reports), diagnostics=cross_check(reports))


def _load_file(path: Path, shown: str, cache: Path | None, stored: list[str]) -> list[Report]:
    """The reports of one file: SARIF runs, a bundle's reports or the one report it holds."""
    data = _read(path, shown)
    kind = _document_kind(data[:8])
    if kind is not None:  # read as text it is "no title, no Type: line": say what it is
        raise ReportError(
            f"{shown}: {kind}; assay reads reports written as text, Markdown or HTML: save or"
            " export it as one of those first"
        )
    json_named = is_sarif_name(path.name) or path.suffix.lower() == ".json"
    if json_named and (not data or data.isspace()):  # not strip(): it copies the whole file
        # a scanner or an export that failed leaves an empty file ("not valid JSON (Expecting
        # value: line 1 column 1 (char 0))" said it less plainly)
        raise ReportError(f"{shown}: the file is empty")
    if is_sarif_name(path.name):
        return _load_sarif(data, shown, cache, stored)
    if looks_like_sarif(data[:4096]):
        try:
            return _load_sarif(data, shown, cache, stored)
        except ReportError:
            pass  # only looked like SARIF: read as the file's name says
    if path.suffix.lower() == ".json":
        return list(_load_bundle_bytes(data, shown).reports)
    bundle = _bundle_in_text(data)
    if bundle is not None:
        from evidence.reports.bundle import load_bundle  # here: it imports the vocabulary

        return list(load_bundle(bundle, shown).reports)
    return [_parse(data, shown, cache, stored)]


#: the first bytes of documents a report may come as that are no text
_DOCUMENTS = (
    (b"%PDF-", "a PDF document (pdftotext, or the viewer's Save as Text, gives its text)"),
    (b"PK\x03\x04", "a zip archive (a .docx or .odt document is one)"),
    (b"\xd0\xcf\x11\xe0", "an old Office document (.doc)"),
    (b"{\\rtf", "an RTF document"),
)


def _document_kind(head: bytes) -> str | None:
    """What a file that is no text is, by its first bytes (None: text, or something else)."""
    return next((kind for magic, kind in _DOCUMENTS if head.startswith(magic)), None)


def _load_sarif(data: bytes, shown: str, cache: Path | None, stored: list[str]) -> list[Report]:
    """The reports of a SARIF file: from the cache when it holds them, else read (and stored)."""
    from evidence.sarif.document import SarifError, expanded_limit  # here: SARIF files only

    key = None
    if cache is not None:
        from evidence.reports import cache as report_cache

        key = report_cache.key_for(shown, data, sarif_limit=expanded_limit())
        cached = report_cache.get_reports(cache, key) if key is not None else None
        if cached is not None:
            return cached
    from evidence.sarif.reader import load_sarif

    try:
        reports = load_sarif(data, shown)
    except SarifError as error:
        raise ReportError(str(error)) from None
    if (
        cache is not None
        and key is not None
        and reports
        and report_cache.put_reports(cache, key, reports, then_prune=False)
    ):
        stored.append(key)
    return reports


def _parse(data: bytes, shown: str, cache: Path | None, stored: list[str]) -> Report:
    """The report in ``data``: from the cache when it holds it, else parsed (and stored there,
    its key added to ``stored``; the caller prunes the cache)."""
    key = None
    if cache is not None:
        from evidence.reports import cache as report_cache

        key = report_cache.key_for(shown, data)
        cached = report_cache.get(cache, key) if key is not None else None
        if cached is not None:
            return cached
    from evidence.reports.parser import parse_report  # here: a hit must not import the parser

    report = parse_report(data, shown)
    if (
        cache is not None
        and key is not None
        and report_cache.put(cache, key, report, then_prune=False)
    ):
        stored.append(key)
    return report


def cross_check(reports: Sequence[Report]) -> tuple[tuple[str, Diagnostic], ...]:
    """Findings across reports: annotations and references to ids no loaded report declares,
    and an id two reports declare (a reference goes to the first)."""
    declared: dict[str, set[str]] = {}
    folded: dict[tuple[str, str], str] = {}  # (system, id in lower case): the id declared
    first: dict[str, Report] = {}
    found: list[tuple[str, Diagnostic]] = []
    for report in reports:
        system = report.system.lower()
        for record in report.records:
            if record.kind not in (Kind.ANNOTATION, Kind.NARRATIVE):
                declared.setdefault(record.id, set()).add(system)
                folded.setdefault((system, record.id.lower()), record.id)
                earlier = first.setdefault(record.id, report)
                if earlier is not report:
                    said = f"{record.id} is declared in {earlier.file} too; references go there"
                    found.append((report.file, Diagnostic(record.lines[0], said)))
    for report in reports:
        system = report.system.lower()
        for record in report.records:
            wanted = list(record.references)
            if record.annotates is not None and record.annotates not in wanted:
                wanted.insert(0, record.annotates)
            for record_id in wanted:
                systems = declared.get(record_id)
                if systems is not None and system in systems:
                    continue
                verb = "annotates" if record_id == record.annotates else "mentions"
                where = (
                    f"only reports about {', '.join(sorted(s for s in systems if s))} declare it"
                    if systems
                    else "no loaded report declares it"
                )
                other = folded.get((system, record_id.lower()))
                if other is not None:  # ids are matched as written
                    where += f" ({other} is declared: ids differ in case)"
                found.append(
                    (
                        report.file,
                        Diagnostic(record.lines[0], f"{record.id} {verb} {record_id}; {where}"),
                    )
                )
    return tuple(found)
