"""`assay audit init` and what the other commands do on an audit (`assay.toml`).

An audit is found as ``--audit FILE``, else ``assay.toml`` in the current directory when a
command is given no REPORT. Each command keeps its own module; this one holds the audit side.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, TextIO

import click

from evidence.text import escaped, shown_path
from tui.commands.errors import InputError, need_directory, prefixed

if TYPE_CHECKING:
    from db.audit import AuditSystemRef, SystemCounts
    from db.store import VerdictStore
    from evidence.audit.file import Audit, AuditSystem
    from evidence.model import ReportSet

__all__ = ["audit", "check_audit_command", "resolve_audit"]


def resolve_audit(command: str, audit_file: str | None, reports: Sequence[str]) -> Audit | None:
    """The audit a command runs on, or None for plain reports; exits 2 on a bad audit file."""
    from evidence.audit.file import AuditError, find_audit, load_audit

    if audit_file is None and reports:
        return None
    if audit_file is not None and reports:
        raise InputError("give REPORT... or --audit FILE, not both")
    path = Path(audit_file) if audit_file is not None else find_audit(Path.cwd())
    if path is None:
        raise InputError(
            f"no REPORT given and no assay.toml in {shown_path(Path.cwd())}: name reports, or an"
            " audit with --audit FILE (`assay audit init` writes one)",
        )
    try:
        return load_audit(path)
    except AuditError as error:
        raise InputError(str(error)) from None


def check_audit_command(
    audit_file: str | None,
    against: str | None,
    output: str,
    *,
    repo: str | None = None,
    rev: str | None = None,
) -> NoReturn:
    """`assay check` on an audit: each system against its own repository, then totals."""
    from evidence.anchor_cache import default_directory
    from evidence.audit.check import audit_json, audit_text, check_audit
    from evidence.reports.cache import default_directory as report_cache

    if repo is not None or rev is not None:
        raise InputError("an audit names each system's repository and revision: drop --repo/--rev")

    found = resolve_audit("check", audit_file, ())
    assert found is not None
    result = check_audit(
        found, cache=report_cache(), against=against, anchor_cache=default_directory()
    )
    if output == "json":
        import json  # here: `assay review` and `demo` import this module and never need it

        from evidence.text import json_escaped

        # inert in a terminal, as `assay check --format json` of the reports alone
        click.echo(json_escaped(json.dumps(audit_json(result), indent=2, ensure_ascii=False)))
    else:
        click.echo(audit_text(result))
    sys.exit(result.exit_code)


@click.group(short_help="Audits: many systems, each at its own repository.")
def audit() -> None:
    """Audits: many systems, each at its own repository, named in assay.toml."""


@audit.command(short_help="Write an assay.toml naming the systems of a folder's reports.")
@click.argument("directory", default=".", type=click.Path(file_okay=False))
@click.option(
    "--search",
    "search",
    multiple=True,
    type=click.Path(file_okay=False),
    help="Where to look for the systems' repositories (repeatable; two levels down).",
)
@click.option("--force", is_flag=True, help="Replace an existing assay.toml.")
@click.option(
    "--out",
    "out",
    default=None,
    type=click.Path(dir_okay=False),
    help="Write the audit file here instead (paths in it are relative to it).",
)
def init(directory: str, search: tuple[str, ...], force: bool, out: str | None) -> None:
    """Write DIRECTORY/assay.toml (or --out FILE) from the reports in DIRECTORY and its folders
    (three levels down; not hidden folders, nor git repositories).

    Reports are grouped by system; each system's repository is looked for under --search: one
    holding the revision its reports state, else one whose remote or directory is named after
    it. A system whose repository was not found gets a commented `repository` line. A SARIF
    file goes to the repository holding most of the files its results name.
    """
    from evidence.audit.file import AUDIT_NAME
    from evidence.audit.init import (
        apart,
        find_repositories,
        group_reports,
        in_directories,
        match,
        place_scans,
        render,
        report_folders,
    )
    from evidence.reports.cache import default_directory
    from evidence.reports.loading import ReportError, load_reports

    need_directory(directory)
    base = Path(directory)
    target = Path(out) if out is not None else base / AUDIT_NAME
    if os.path.exists(target) and not force:
        raise InputError(f"{shown_path(target)} exists (--force replaces it)")
    for each in search:
        need_directory(each, "--search ")
    folders = report_folders(base)
    if not folders:
        raise InputError(f"no reports found in {shown_path(directory)} or its folders")
    try:
        reportset = load_reports(folders, cache=default_directory())
    except ReportError as error:
        raise InputError(str(error)) from None
    systems = group_reports(reportset.reports)
    if not systems:
        raise InputError(f"no reports found in {shown_path(directory)}")
    repositories = find_repositories(search)
    matched = [(system, match(system, repositories)) for system in systems]
    matched = place_scans(matched, reportset.reports, repositories)
    matched = apart(in_directories(matched, reportset.reports))
    text = render(matched, target.resolve().parent, search)
    if _unencodable(text):
        # a file name that is not UTF-8 (os.fsdecode's surrogates) cannot be written in TOML
        line = next(line for line in text.splitlines() if _unencodable(line))
        raise InputError(
            f"cannot write {shown_path(target)}: a name in it is not UTF-8 ({line.strip()}), and an"
            " audit file holds UTF-8 text only: rename it"
        )
    from db.output import write_atomically

    try:
        # atomically, so a failed write leaves the file --force would replace whole; a FIFO or
        # device is refused, never waited on
        write_atomically(target, lambda handle: handle.write(text))
    except OSError as error:
        raise InputError(f"cannot write {shown_path(target)}: {error.strerror or error}") from None
    for system, found in matched:
        where = str(found.repository) if found.repository else "repository not found"
        click.echo(escaped(f"{system.name}: {len(system.files)} report(s); {where}"))
    click.echo(escaped(f"wrote {target}"))


def _unencodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def chosen_systems(found: Audit, names: Sequence[str]) -> list[AuditSystem]:
    """The systems ``--system`` names (as the audit tells names apart: in any case), in the
    file's order; all of them when none is named. Exits 2 on a name the audit lacks."""
    from evidence.audit.file import name_key

    if not names:
        return list(found.systems)
    wanted = {name_key(name): name for name in names}
    known = {name_key(system.name) for system in found.systems}
    unknown = [name for key, name in wanted.items() if key not in known]
    if unknown:
        raise InputError(
            f"{shown_path(found.path)} has no system {', '.join(unknown)}; its systems: "
            + ", ".join(system.name for system in found.systems)
        )
    return [system for system in found.systems if name_key(system.name) in wanted]


def audit_systems(
    command: str, found: Audit, chosen: Sequence[AuditSystem] | None = None
) -> list[AuditSystemRef]:
    """The audit's systems as the store knows them (their reports' identities), the
    ``chosen`` ones only when given; exits 2 when a system's reports cannot be read. Each
    system `assay check` would not check is named on stderr with check's reason, so that a
    count or an export missing it says why. Every system is read even when few are chosen: a
    report two systems hold belongs to the one listed first."""
    from db.audit import AuditSystemRef
    from evidence.audit.loading import claims, system_reports
    from evidence.reports.cache import default_directory
    from evidence.reports.loading import ReportError

    reportsets = []
    for system in found.systems:
        try:
            reportsets.append(system_reports(system, cache=default_directory()))
        except ReportError as error:
            raise InputError(f"{system.name}: {error}") from None
    systems = []
    held = claims([(s.name, r) for s, r in zip(found.systems, reportsets, strict=True)])
    for system, reportset, claim in zip(found.systems, reportsets, held, strict=True):
        if chosen is not None and system not in chosen:
            continue
        records = reportset.records()
        systems.append(
            AuditSystemRef(
                system.name,
                claim.identities,  # none where an earlier system holds its reports
                None if system.repository is None else str(system.repository),
                here=system.available,
                records=len(records),
                quotes=sum(len(record.quotes) for record in records),
            )
        )
        said = _not_checked(system, reportset, claim.shared)
        if said:
            click.echo(prefixed(f"assay {command}", f"{system.name}: {said}"), err=True)
    return systems


def _not_checked(system: AuditSystem, reportset: ReportSet, shared: str | None) -> str | None:
    """Why `assay check --audit` would not check ``system`` (its first line), or None."""
    from evidence.inputs import CheckError, refuse_unusable

    try:
        refuse_unusable(reportset)
    except CheckError as error:
        shared = str(error).split("\n", 1)[0]
    if shared:
        return f"left out, none of its verdicts counted: {shared}"
    if not system.available:
        where = system.repository or "no repository named"
        return f"repository not on this machine ({where}): its quotes are not checked here"
    return None


def audit_database(found: Audit, db_path: Path | None) -> Path | None:
    """The audit's database: --db, else the file's ``database``, else None (the default)."""
    return db_path if db_path is not None else found.database


def audit_exporter(
    audit_file: str,
    db_path: Path | None,
    fmt: str,
    reviewer: str | None,
    history: bool,
    names: Sequence[str] = (),
) -> tuple[Path | None, Callable[[VerdictStore, TextIO], int]]:
    """`assay export --audit FILE [--system NAME...]`: the database to read and what writes
    the export (md: one write-up; csv, jsonl: a system column); exits 2 on a bad audit file,
    format or system name."""
    from db.audit import audit_csv, audit_jsonl, audit_markdown

    found = resolve_audit("export", audit_file, ())
    assert found is not None
    if fmt not in ("md", "csv", "jsonl") or history:
        raise InputError("an audit exports as md, csv or jsonl (without --history)")
    systems = audit_systems("export", found, chosen_systems(found, names))

    def produce(store: VerdictStore, out: TextIO) -> int:
        if fmt == "md":
            out.write(
                audit_markdown(
                    store,
                    systems,
                    audit=str(found.path),
                    reviewer=reviewer,
                    of=len(found.systems),
                )
            )
            return store.count(reviewer)
        if fmt == "csv":
            audit_csv(store, out, systems, reviewer=reviewer)
            return store.count(reviewer)
        return audit_jsonl(store, out, systems, reviewer=reviewer)

    return audit_database(found, db_path), produce


def _stats_json(ref: AuditSystemRef, count: SystemCounts) -> dict[str, object]:
    """One system's `assay stats --audit --format json`: its reports' records and quotes; the
    failing ones null until its items are registered (opened, or `assay check`ed in the app)."""
    data: dict[str, object] = dict(count.as_json())
    records, quotes, registered = ref.totals(count)
    data.update(records=records, quotes=quotes)
    if not registered:
        data.update(failing_quotes=None, citations_missing=None)
    return data


def audit_stats(
    audit_file: str,
    db_path: Path | None,
    fmt: str,
    open_store: Callable[..., VerdictStore],
    names: Sequence[str] = (),
) -> None:
    """`assay stats --audit FILE [--system NAME...]`: each system's progress from the audit's
    database."""
    from db.audit import system_counts
    from db.store import StoreError

    found = resolve_audit("stats", audit_file, ())
    assert found is not None
    chosen = chosen_systems(found, names)
    systems = audit_systems("stats", found, chosen)
    store = open_store(audit_database(found, db_path), readonly=True)
    try:
        counts = system_counts(store, systems)
    except StoreError as error:
        raise InputError(str(error)) from None
    finally:
        store.close()
    if fmt == "json":
        data = {
            "audit": str(found.path),
            "systems": [
                _stats_json(ref, count) for ref, count in zip(systems, counts, strict=True)
            ],
        }
        import json

        from evidence.text import json_escaped

        click.echo(json_escaped(json.dumps(data, ensure_ascii=False, indent=2)))
        return
    of = f" of {len(found.systems)}" if len(chosen) < len(found.systems) else ""
    click.echo(escaped(f"audit {found.path}: {len(counts)}{of} systems"))
    for system, ref, count in zip(chosen, systems, counts, strict=True):
        where = "" if system.available else "  (repository not on this machine)"
        click.echo(escaped(f"{count.name}{where}"))
        records, quotes, registered = ref.totals(count)
        checked = (
            f"{count.failing} failing quote(s), {count.citations_missing} cited path(s) missing"
            if registered
            else "not opened yet: failing quotes not known"
        )
        click.echo(
            f"  records {count.records_reviewed}/{records} reviewed, "
            f"quotes {count.quotes_reviewed}/{quotes} reviewed; {checked}"
        )
        reviewers = ", ".join(count.reviewers) or "none yet"
        last = count.last_activity[:16].replace("T", " ") if count.last_activity else "never"
        click.echo(
            escaped(
                f"  reviewers: {reviewers}; last activity {last}; "
                f"{count.disagreements} disagreement(s)"
                + (f"; {count.stale} stale verdict(s)" if count.stale else "")
            )
        )
