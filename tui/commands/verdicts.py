"""`assay export`, `assay import` and `assay stats`: reading and moving verdicts."""

from __future__ import annotations

import codecs
import json
import sys
from pathlib import Path
from typing import Any

import click

from db.aside import aside_files
from db.events import MAX_AHEAD, Event, latest_acceptable
from db.export import FORMATS, parse_events, write
from db.output import database_files, write_atomically
from db.stats import percent_done, summary
from db.store import StoreError, VerdictStore, default_path
from evidence.limits import GZIP_MAGIC, NotGzip, TooLarge, gunzip, read_input
from evidence.text import escaped, json_escaped, shown_path
from tui import startup
from tui.commands.errors import InputError, command_name, prefixed
from tui.commands.options import audit_option, db_option, system_option, text_or_json_option


def _open(db_path: Path | None, *, readonly: bool) -> VerdictStore:
    path = (db_path or default_path()).expanduser()
    try:
        kept_aside = readonly and bool(aside_files(path))
    except OSError:  # a path the system cannot take (a name too long): said by the open below
        kept_aside = False
    if kept_aside:
        _save_aside(path)
    try:
        return VerdictStore.open(path, readonly=readonly)
    except StoreError as error:
        raise InputError(str(error)) from None


def _save_aside(path: Path) -> None:
    """Save into the database the changes a review kept aside (it quit while another process held
    the database locked), so that what is read holds them; else say that it does not."""
    reason = ""
    try:
        VerdictStore.open(path).close()  # an open for writing takes them (db/aside.py)
    except StoreError as error:
        reason = f": {error}"
    left = aside_files(path)
    if left:
        names = ", ".join(escaped(found.name) for found in left)
        click.echo(
            f"{command_name(click.get_current_context(silent=True))}: changes kept aside when "
            f"the database was locked ({names}) could not be saved into it and are not "
            f"counted here{escaped(reason)}",
            err=True,
        )


@click.command()
@db_option
@audit_option
@system_option
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="jsonl",
    show_default=True,
    help="jsonl: one event per line (for git and `assay import`); md: the write-up (where, "
    "who, counts, every record and quote; a scanner's results only when judged, noted or "
    "failing, the others counted, as are a rule's many given one verdict and note); "
    "csv: the current state, a row per record and per quote (--history: a row per event); "
    "json: events and current state; sarif: SARIF 2.1.0 with verdicts as suppressions",
)
@click.option(
    "--history",
    is_flag=True,
    default=False,
    help="csv: the event log (every verdict and note as given) instead of the current state",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, allow_dash=True, path_type=Path),
    default=None,
    help="file to write (default: standard output); replaced atomically; a name ending in .gz "
    "is written gzip-compressed",
)
@click.option(
    "--excel",
    is_flag=True,
    default=False,
    help="csv: begin with a UTF-8 byte-order mark, without which Excel reads accents as another "
    "code page (Python reads such a file with encoding='utf-8-sig')",
)
@click.option("--reviewer", default=None, help="only this reviewer's verdicts")
@click.option(
    "--salvage",
    is_flag=True,
    default=False,
    help="a damaged database: write as jsonl every event that can still be read in it (the "
    "database left untouched), for `assay import` into a new one",
)
@click.option(
    "--sarif",
    "sarif_files",
    multiple=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="with --format sarif: the scanner's SARIF file(s) to write back with the verdicts "
    "(default: those the review read, if it read SARIF)",
)
def export(
    db_path: Path | None,
    audit_file: str | None,
    system_names: tuple[str, ...],
    fmt: str,
    history: bool,
    out: Path | None,
    excel: bool,
    reviewer: str | None,
    salvage: bool,
    sarif_files: tuple[Path, ...],
) -> None:
    """Write the verdicts of a database as jsonl, json, csv, md or sarif.

    For a review of SARIF files, --format sarif writes their runs back unchanged but for the
    verdicts: refuted -> a suppression (external, accepted, the note as justification),
    unclear -> a suppression under review, confirmed -> none; every verdict is also in the
    result's properties.assay.
    """
    if salvage:
        from tui.commands.salvage import export_salvaged

        wrong = audit_file or system_names or history or excel or reviewer or sarif_files
        if fmt != "jsonl" or wrong:
            raise InputError("--salvage writes the events as jsonl, with --db and --out only")
        path = (db_path or default_path()).expanduser()
        if out is not None and str(out) != "-":
            _refuse_database(out, path)
        export_salvaged(path, out, _write_atomically)
        return
    if history and fmt not in ("csv", "jsonl", "json"):
        raise InputError(f"--history is for csv (jsonl and json are the event log), not {fmt}")
    if sarif_files and fmt != "sarif":
        raise InputError("--sarif goes with --format sarif")
    if excel and fmt != "csv":
        raise InputError("--excel goes with --format csv")
    if system_names and audit_file is None:
        raise InputError("--system goes with --audit FILE")
    # a file named twice (`--sarif scans/*.sarif --sarif scans/ruff.sarif`) is one file: its runs
    # written twice are refused by code scanning (one category per run)
    named: dict[Path, Path] = {}
    for path in sarif_files:
        named.setdefault(_resolved(path), path)
    files = list(named.values()) or None
    if audit_file is not None:  # one write-up of the audit's systems (tui/commands/audit.py)
        from tui.commands.audit import audit_exporter

        db_path, produce_audit = audit_exporter(
            audit_file, db_path, fmt, reviewer, history, system_names
        )
    if out is not None and str(out) != "-":
        _refuse_database(out, db_path or default_path())
    store = _open(db_path, readonly=True)

    left_out: list[Event] = []

    def produce(handle: Any) -> int:
        if excel:  # what Excel takes as "UTF-8"; the default stays plain for scripts
            handle.write("\ufeff")
        if audit_file is not None:
            return produce_audit(store, handle)
        return write(
            store,
            fmt,
            handle,
            reviewer=reviewer,
            history=history,
            sarif_files=files,
            left_out=left_out,
        )

    places: list[str] = []
    try:
        if reviewer is not None:
            _known_reviewer(store, reviewer)
        with startup.Paused():  # the SARIF runs read whole and written back
            if out is None or str(out) == "-":
                produce(sys.stdout)
            else:
                _write_atomically(out, produce)
        if audit_file is None and fmt in ("md", "csv"):
            places = sorted({s["repository"] or s["remote"] or "" for s in store.sources()} - {""})
    except StoreError as error:
        raise InputError(str(error)) from None
    finally:
        store.close()
    if left_out:
        _say_left_out(left_out)
    if len(places) > 1:  # one database (the default) for every review: another's findings
        click.echo(
            prefixed(
                "assay export",
                f"this export holds the reviews of {len(places)} repositories, all the database "
                f"holds ({', '.join(places)}): one review's own write-up is its `x`, an "
                "audit's systems each in its section (`assay export --audit`)",
            ),
            err=True,
        )


def _say_left_out(events: list[Event]) -> None:
    """The verdicts that the SARIF written lacks: their results are no longer in the files."""
    shown = [
        f"{event.record} ({event.reviewer} {event.verdict.value if event.verdict else 'note'})"
        for event in events[:5]
    ]
    more = f" and {len(events) - 5} more" if len(events) > 5 else ""
    click.echo(
        prefixed(
            "assay export",
            f"{len(events)} verdict(s) or note(s) are on results the SARIF files no longer hold, "
            "and are not in this export (the scan was run again since the review? `assay "
            f"review` of the new scan carries them to its results): {', '.join(shown)}{more}",
        ),
        err=True,
    )


def _known_reviewer(store: VerdictStore, reviewer: str) -> None:
    """InputError unless ``reviewer`` has an event in the store: a name mistyped (``Ann`` for
    ``ann``) would export an empty write-up, "none yet" reviewed, for a complete review."""
    known = store.reviewers()
    if reviewer not in known:
        raise InputError(
            f"--reviewer {reviewer}: no verdict or note of that reviewer in"
            f" {shown_path(store.path)} (its reviewers: {', '.join(known) or 'none yet'})"
        )


def _write_atomically(out: Path, produce: Any) -> None:
    try:
        # `--out triaged.sarif.gz`: what the name says, as gzip and code scanning read it
        write_atomically(out, produce, gzipped=out.name.lower().endswith(".gz"))
    except OSError as error:
        raise InputError(f"cannot write {shown_path(out)}: {error.strerror or error}") from None


def _refuse_database(out: Path, db_path: Path) -> None:
    """--out naming the database (or its -wal/-shm) would replace it with the export."""
    target = _resolved(out)
    for part in database_files(db_path):
        if target == _resolved(part):
            raise InputError(
                f"--out {escaped(str(out))} is the verdict database itself "
                f"({escaped(part.name)}): writing it would replace the database; "
                "choose another file"
            )


def _resolved(path: Path) -> Path:
    try:
        return path.expanduser().resolve()
    except (OSError, RuntimeError):
        return path.expanduser().absolute()


@click.command("import", short_help="Merge jsonl verdict files from other reviewers.")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@db_option
def import_(files: tuple[Path, ...], db_path: Path | None) -> None:
    """Merge jsonl verdict files from other reviewers (`-`: the standard input); importing a
    file twice changes nothing."""
    with startup.Paused():  # the events parsed, then written: they live until it is done
        _import(files, db_path)


def _import(files: tuple[Path, ...], db_path: Path | None) -> None:
    batches = []
    for file in files:
        # the name as data in every message: a newline in it would begin a line of its own
        name = escaped(str(file))
        try:
            # `-`: the standard input (`assay export --format jsonl | ssh host assay import -`)
            data = read_input(Path("/dev/stdin") if str(file) == "-" else file)
            if data.startswith(GZIP_MAGIC):  # as `assay export --out x.jsonl.gz` writes it
                data = gunzip(data, "the most assay reads of one file")
            text = _decoded(data)
        except UnicodeDecodeError:
            raise InputError(f"{name} is not UTF-8 (nor UTF-16 with a byte-order mark)") from None
        except OSError as error:
            raise InputError(f"cannot read {name}: {error.strerror}") from None
        except (TooLarge, NotGzip) as error:
            raise InputError(f"{name}: {error}") from None
        try:
            events = parse_events(text, name)
        except StoreError as error:
            raise InputError(f"{error} (nothing was imported)") from None
        latest = latest_acceptable()
        ahead = [event for event in events if event.at > latest]
        if ahead:
            raise InputError(
                f"{name}: {len(ahead)} event(s) stamped in the future (the first "
                f"at {ahead[0].at}, more than {MAX_AHEAD.seconds // 60} minutes ahead of this "
                "clock) (nothing was imported)"
            )
        batches.append((file, events))
    store = _open(db_path, readonly=False)
    try:
        touched: set[str] = set()
        for file, events in batches:
            result = store.import_events(events)
            touched |= result.items
            line = f"{escaped(str(file))}: {result.added} new, {result.present} already present"
            if result.conflicts:
                line += (
                    f", {len(result.conflicts)} with a known id but other content "
                    "(the stored events were kept)"
                )
            click.echo(line)
        disagreements = store.disagreements(touched)
    except StoreError as error:
        raise InputError(str(error)) from None
    finally:
        store.close()
    if disagreements:
        click.echo(f"{len(disagreements)} disagreement(s) between reviewers:")
        for found in disagreements:
            verdicts = ", ".join(f"{escaped(r)} {v.value}" for r, v in found.verdicts)
            click.echo(f"  {escaped(found.item)}: {verdicts}")


#: the byte-order marks a jsonl file may start with: Notepad's UTF-8, and PowerShell 5's `>`,
#: which writes what `assay export` printed as UTF-16
_MARKS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def _decoded(data: bytes) -> str:
    """The text of an events file: UTF-8, or what its byte-order mark says."""
    codec = next((codec for mark, codec in _MARKS if data.startswith(mark)), "utf-8")
    return data.decode(codec)


@click.command(short_help="Show progress, verdicts, disagreements, agreement.")
@db_option
@audit_option
@system_option
@text_or_json_option("fmt")
def stats(
    db_path: Path | None, audit_file: str | None, system_names: tuple[str, ...], fmt: str
) -> None:
    """Show progress, verdict counts, disagreements and agreement between reviewers.

    With --audit FILE: first each system's progress, failing quotes, reviewers and last
    activity (JSON: "systems"); --system NAME: only that system."""
    if system_names and audit_file is None:
        raise InputError("--system goes with --audit FILE")
    if audit_file is not None:
        from tui.commands.audit import audit_stats

        audit_stats(audit_file, db_path, fmt, _open, system_names)
        return
    store = _open(db_path, readonly=True)
    try:
        data = summary(store)
    except StoreError as error:
        raise InputError(str(error)) from None
    finally:
        store.close()
    if fmt == "json":
        click.echo(json_escaped(json.dumps(data, ensure_ascii=False, indent=2)))
        return
    for line in _text(data):
        click.echo(escaped(line, keep="\t"))


def _text(data: dict[str, Any]) -> list[str]:
    reviewers = data["reviewers"]
    lines = [
        f"{data['events']} events by {len(reviewers)} reviewer(s)"
        + (f": {', '.join(reviewers)}" if reviewers else "")
    ]
    if data["progress"]:
        lines += ["", "Progress (items with a verdict by anyone)"]
        report = None
        for row in data["progress"]:
            if row["report"] != report:
                report = row["report"]
                lines.append(f"  {report}")
            if row["total"] is None:
                lines.append(f"    {row['kind']:<12} {row['reviewed']} reviewed (not registered)")
            else:
                percent = percent_done(row["reviewed"], row["total"])
                lines.append(f"    {row['kind']:<12} {row['reviewed']}/{row['total']} ({percent})")
    if data["reviewer_progress"]:
        lines += ["", "Progress per reviewer (items with their verdict)"]
        width = max(_cells(row["reviewer"]) for row in data["reviewer_progress"])
        for row in data["reviewer_progress"]:
            if row["total"] is None:
                done = f"{row['reviewed']} reviewed (not registered)"
            else:
                percent = percent_done(row["reviewed"], row["total"])
                done = f"{row['reviewed']}/{row['total']} ({percent})"
            lines.append(f"  {_pad(row['reviewer'], width)}  {row['report']}: {done}")
    if data["verdicts"]:
        lines += ["", "Current verdicts"]
        names = ["confirmed", "refuted", "unclear", "skip"]
        width = max(_cells(r) for r in data["verdicts"])
        lines.append(f"  {'':<{width}}  " + "  ".join(f"{n:>9}" for n in names))
        for reviewer, counts in sorted(data["verdicts"].items()):
            shown = "  ".join(f"{counts[n]:>9}" for n in names)
            lines.append(f"  {_pad(reviewer, width)}  {shown}")
    if data["stale"]:
        lines += [
            "",
            "Stale verdicts and notes (on what the reports no longer hold; `w` lists them)",
        ]
        width = max(_cells(r) for r in data["stale"])
        stale = data["stale"].items()
        lines += [f"  {_pad(reviewer, width)}  {count:>9}" for reviewer, count in stale]
    lines += ["", f"Disagreements: {len(data['disagreements'])}"]
    for found in data["disagreements"]:
        verdicts = ", ".join(f"{r} {v}" for r, v in found["verdicts"].items())
        lines.append(f"  {found['item']}: {verdicts}")
        for reviewer, verdict in found["verdicts"].items():
            note = found["notes"].get(reviewer)
            # a note's own lines stay apart, each indented under its reviewer
            head = f"{reviewer} ({verdict}):"
            for index, text in enumerate((note or "(no note)").split("\n")):
                lines.append(f"    {head if index == 0 else ' ' * len(head)} {text}")
    if data["agreement"]:
        lines += ["", "Agreement (items both judged; skip left out)"]
        for pair in data["agreement"]:
            if not pair["items"]:
                lines.append(f"  {pair['first']} & {pair['second']}: no item judged by both")
                continue
            kappa = "n/a" if pair["kappa"] is None else f"{pair['kappa']:.2f}"
            lines.append(
                f"  {pair['first']} & {pair['second']}: {pair['items']} items, "
                f"{pair['percent']:.1f}% agreement, Cohen's kappa {kappa}"
            )
    return lines


def _cells(text: str) -> int:
    """The columns ``text`` takes in a terminal: a name in wide characters (山田) two a
    character, so that the counts after it stay in their columns."""
    if text.isascii():
        return len(text)
    from rich.cells import cell_len  # (24 ms to import: only when a name needs it)

    return cell_len(text)


def _pad(text: str, width: int) -> str:
    return text + " " * (width - _cells(text))
