"""One sync of a verdict database with a verdicts repository.

Fetch the remote's branch into a private clone (evidence/git/exchange.py), import every verdict
file of it not read before (union by event id: the store keeps what it has, so nothing local is
ever lost or overwritten), write the local reviewer's events into their files, commit on top of
what was fetched and push. A push that loses a race fetches again, imports, rebuilds its files
on the new commit (the files are per reviewer, so this merge never conflicts) and pushes again,
up to `ATTEMPTS` times. When the remote cannot be reached the local events stay in the database
and the next sync sends them: the database, not the clone, is what holds them.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from db.check import StoreError
from db.events import Event, now_at
from db.export import FIELDS
from db.reviewer import reviewer_name
from db.store import VerdictStore
from db.sync.files import (
    MAX_FILE_BYTES,
    VERDICTS,
    file_parts,
    file_path,
    file_text,
    first_part,
    is_verdict_path,
    read_events,
)
from db.sync.foreign import Foreign, aside_events, keep_aside, kept_aside, split_foreign
from db.sync.state import json_object, last_sync
from evidence.git.exchange import OFFLINE, Exchange, ExchangeError, blob_id
from evidence.git.transport import RemoteError, check_remote, user_settings
from evidence.git.tree import TreeEntry
from evidence.permalink import without_credentials
from evidence.text import escaped

__all__ = ["ATTEMPTS", "SyncError", "SyncResult", "last_sync", "sync", "sync_directory"]

#: pushes tried before giving up on a remote that keeps moving
ATTEMPTS = 5
#: seconds waited after a push that met another's lock on the branch, times the attempt
BUSY_WAIT = 0.2
#: events merged per write transaction (a sync imports many at once; each holds the write lock)
IMPORT_BATCH = 10_000
#: the branch of a new verdicts repository (one with no default branch yet)
DEFAULT_BRANCH = "main"


class SyncError(Exception):
    """The sync could not be done; the message says why and what was kept."""


@dataclass
class SyncResult:
    """What one sync did."""

    remote: str
    reviewer: str
    branch: str = DEFAULT_BRANCH
    received: int = 0  # events new to the local database
    sent: int = 0  # the reviewer's events the remote did not hold before
    pending: int = 0  # the reviewer's events still to be sent (offline, or a failed push)
    offline: str | None = None  # why the remote could not be reached (or used: `problem`)
    problem: str | None = None  # with offline: "missing" (no repository) or "damaged" (bad object)
    error: str | None = None  # why the push failed (the remote was reached)
    attempts: int = 0
    problems: list[str] = field(default_factory=list)  # input reported and skipped
    foreign: list[Foreign] = field(default_factory=list)  # kept aside by this sync
    aside: int = 0  # events kept aside, by this sync and earlier ones, not accepted
    accepted: int = 0  # events kept aside that --accept-foreign imported
    repaired: bool = False  # the clone's configuration had been changed and was reset
    commit: str | None = None  # the remote branch's commit after the sync

    @property
    def ok(self) -> bool:
        """True when everything local is in the remote."""
        return self.offline is None and self.error is None


def sync_directory(db_path: Path, remote: str, data_dir: Path | None = None) -> Path:
    """The private clone of a database's verdicts repository (under the user data dir)."""
    if data_dir is None:
        from platformdirs import user_data_dir

        data_dir = Path(user_data_dir("assay")) / "sync"
    key = f"{db_path.expanduser().resolve()}\0{remote}".encode("utf-8", "surrogatepass")
    return data_dir / hashlib.sha256(key).hexdigest()[:24]


def sync(
    store: VerdictStore,
    *,
    remote: str | None = None,
    reviewer: str | None = None,
    data_dir: Path | None = None,
    attempts: int = ATTEMPTS,
    interactive: bool = False,
    accept_foreign: bool = False,
    before_push: Callable[[int], None] | None = None,
) -> SyncResult:
    """Sync the store with its verdicts repository (``remote``, else the one remembered).

    Events in the reviewer's own files that this database did not write are kept aside
    (db/sync/foreign.py) unless ``accept_foreign``, which imports them and those kept before.
    ``before_push(attempt)`` is called before each push (tests make races with it). Raises
    SyncError when there is no remote or the clone or the database cannot be used.
    """
    state = store.sync_state()
    if remote is None and not state.get("remote"):
        raise SyncError("no verdicts repository yet: give one with --remote URL|PATH")
    # `--remote ""` (an unset variable) is refused as empty, not read as the remembered one
    given = remote if remote is not None else state["remote"]
    try:
        url = check_remote(given)
    except RemoteError as error:
        raise SyncError(str(error)) from None
    # what is printed, remembered and keyed on: never a token the URL may carry (git gets it)
    remote = without_credentials(url)
    name = reviewer_name(reviewer or state.get("reviewer"))  # never empty, no controls
    clone = sync_directory(store.path, remote, data_dir)
    try:
        clone.parent.mkdir(parents=True, exist_ok=True)
        user = user_settings(clone.parent)
        repaired = (clone / "config").is_file() and _altered(clone)
        exchange = Exchange.open(clone, user, interactive=interactive)
    except OSError as error:  # str() would be "[Errno 20] ...: '<path>'"
        raise SyncError(
            f"cannot make the private clone in {clone.parent}: {error.strerror or error}"
        ) from None
    except ExchangeError as error:
        raise SyncError(str(error)) from None
    result = SyncResult(remote, name, repaired=repaired)
    try:
        with exchange.lock(), exchange.written():
            _run(store, exchange, url, result, state, attempts, before_push, accept_foreign)
    except ExchangeError as error:
        raise SyncError(str(error)) from None
    finally:
        exchange.close()
    remembered = {"remote": remote, "last": json.dumps(_summary(result))}
    if reviewer:
        remembered["reviewer"] = name
    store.set_sync_state(remembered)
    return result


def _altered(clone: Path) -> bool:
    from evidence.git.exchange import CLONE_CONFIG

    try:
        return (clone / "config").read_text("utf-8", "replace") != CLONE_CONFIG
    except OSError:
        return True


def _summary(result: SyncResult) -> dict[str, object]:
    return {
        "at": now_at(),
        "remote": result.remote,
        "received": result.received,
        "sent": result.sent,
        "pending": result.pending,
        "aside": result.aside,
        "offline": result.offline is not None,
        "problem": result.problem,
        "ok": result.ok,
    }


def _run(
    store: VerdictStore,
    exchange: Exchange,
    url: str,
    result: SyncResult,
    state: dict[str, str],
    attempts: int,
    before_push: Callable[[int], None] | None,
    accept_foreign: bool = False,
) -> None:
    remote = result.remote
    branch = state.get(f"branch {remote}")
    if branch is None:
        found = exchange.default_branch(url)
        if found.error is not None:
            result.offline = _shown(found.error, url, remote)
            result.problem = _problem(found.problem)
        else:
            # an empty remote: the branch its HEAD names, as a clone of it would check out
            branch = found.commit or exchange.unborn_head(url) or DEFAULT_BRANCH
            store.set_sync_state({f"branch {remote}": branch})
    result.branch = branch or DEFAULT_BRANCH
    read = _read_marks(state.get(f"read {remote}"))
    aside = kept_aside(store)
    known = store.known(aside) if aside else set()
    if known:  # imported since by another way (`assay import`): no longer aside
        aside = {event: entry for event, entry in aside.items() if event not in known}
        keep_aside(store, aside)
    if accept_foreign and aside:
        result.accepted += _accept(store, aside_events(aside))
        aside = {}
        keep_aside(store, aside)
    busy: str | None = None
    for attempt in range(1, attempts + 1):
        result.attempts = attempt
        if result.offline is None:
            fetched = exchange.fetch(url, result.branch)
            result.offline = _shown(fetched.error, url, remote)
            result.problem = _problem(fetched.problem) if fetched.error else None
            theirs = fetched.commit
        else:
            theirs = exchange.commit_of(f"refs/remotes/origin/{result.branch}")
        files = exchange.files(theirs)
        mine = _Found(theirs, aside, accept_foreign)
        result.received += _import(
            store, exchange, files, read, result.problems, mine, result.reviewer
        )
        result.accepted += mine.accepted
        result.foreign += mine.foreign
        result.aside = len(aside)
        store.set_sync_state({f"read {remote}": json.dumps(read, sort_keys=True)})
        changes, new = _own_files(store, exchange, result.reviewer, files)
        result.pending = new
        result.commit = theirs
        if result.offline is not None or not changes:
            return
        stranger = _not_for_verdicts(files)
        if stranger is not None:
            result.error = (
                f"its branch {result.branch} holds {stranger} and no {VERDICTS}/ folder: it looks "
                f"like a code repository, not one for verdicts, and nothing was pushed to it (to "
                f"share verdicts there after all, add a {VERDICTS}/README.md to that branch)"
            )
            return
        # the name as data: a newline in it would add lines (a forged trailer) to the message
        message = f"assay sync: {escaped(result.reviewer)}: {new} new event(s)"
        commit = exchange.commit(
            theirs, changes, author=(result.reviewer, exchange.user.email), message=message
        )
        if before_push is not None:
            before_push(attempt)
        pushed = exchange.push(url, commit, result.branch)
        if pushed.ok:
            result.sent += new
            result.pending = 0
            result.commit = commit
            for path, data in changes.items():
                if data is None:
                    read.pop(path, None)
                else:
                    read[path] = blob_id(data)
            store.set_sync_state({f"read {remote}": json.dumps(read, sort_keys=True)})
            return
        if not pushed.rejected:
            result.error = _shown(pushed.error, url, remote)
            return
        busy = pushed.error if pushed.busy else None
        if busy is not None and attempt < attempts:
            time.sleep(BUSY_WAIT * attempt)  # the other push's moment to finish
    if busy is not None:  # the last push met the lock
        result.error = f"{busy}; your verdicts are kept, sync again"
        return
    result.error = (
        f"the remote kept moving: {attempts} pushes were rejected; your verdicts are kept, "
        "sync again"
    )


def _not_for_verdicts(files: dict[str, TreeEntry]) -> str | None:
    """What shows a branch with no verdicts yet is a project's, not a verdicts repository: a
    file in a folder (`src/app.py`). A README, a licence or a .gitattributes alone starts one."""
    if any(is_verdict_path(path) for path in files):
        return None
    nested = [path for path in files if "/" in path]
    return f"{min(nested)!r} among {len(files):,} files" if nested else None


def _problem(problem: str) -> str | None:
    return None if problem == OFFLINE else problem


def _shown(message: str | None, url: str, remote: str) -> str | None:
    """git's message with the URL it was given written as assay shows it (no token)."""
    if message is None or url == remote:
        return message
    return message.replace(url, remote)


def _read_marks(text: str | None) -> dict[str, str]:
    return {str(k): str(v) for k, v in (json_object(text) or {}).items()}


@dataclass
class _Found:
    """What one import does with the reviewer's events that her database did not write."""

    commit: str | None
    aside: dict[str, dict[str, object]]  # kept aside (updated in place, saved by _import)
    accept: bool
    accepted: int = 0
    foreign: list[Foreign] = field(default_factory=list)


def _accept(store: VerdictStore, events: list[Event]) -> int:
    try:
        return store.import_events(events, batch=IMPORT_BATCH).added
    except StoreError as error:
        raise SyncError(f"importing the verdicts failed: {error}") from None


def _set_aside(
    store: VerdictStore,
    exchange: Exchange,
    reviewer: str,
    events: list[tuple[str, Event]],
    found: _Found,
) -> list[Event]:
    """The events to import (``events``: each with the file it was read from): the reviewer's
    that her database did not write are left out and kept aside (or, accepting, imported
    now)."""
    origin = {event.event: path for path, event in reversed(events)}  # the first file naming it
    usual, foreign = split_foreign(store, reviewer, [event for _, event in events])
    if not foreign:
        return usual
    if found.accept:
        found.accepted += _accept(store, foreign)
        return usual
    by_file: dict[str, list[Event]] = {}
    for event in foreign:
        by_file.setdefault(origin[event.event], []).append(event)
    for path, kept in sorted(by_file.items()):
        change = exchange.last_change(found.commit, path) if found.commit else None
        commit, author = change if change else (found.commit, None)
        new = 0
        for event in kept:
            if event.event not in found.aside:
                new += 1
            found.aside[event.event] = {
                "file": path,
                "commit": commit,
                "author": author,
                "event": event.to_dict() | {"verdict": event.verdict and event.verdict.value},
            }
        if new:
            found.foreign.append(Foreign(path, commit, author, new))
    keep_aside(store, found.aside)
    return usual


def _import(
    store: VerdictStore,
    exchange: Exchange,
    files: dict[str, TreeEntry],
    read: dict[str, str],
    problems: list[str],
    found: _Found,
    reviewer: str,
) -> int:
    """Import the verdict files not read before; returns the number of events new here."""
    events: list[tuple[str, Event]] = []  # with the file each was read from
    done = {}
    for path, entry in sorted(files.items()):
        if not is_verdict_path(path) or read.get(path) == entry.oid:
            continue
        done[path] = entry.oid
        if not path.endswith(".jsonl"):
            problems.append(f"{path}: not a verdict file (.jsonl) (skipped)")
        elif entry.kind != "blob":
            problems.append(f"{path}: not a regular file (skipped)")
        elif entry.size > MAX_FILE_BYTES:
            problems.append(
                f"{path}: {entry.size:,} bytes, more than a verdict file may hold "
                f"({MAX_FILE_BYTES:,}) (skipped)"
            )
        else:
            events += (
                (path, event) for event in read_events(path, exchange.read(entry.oid), problems)
            )
    imported_events = _set_aside(store, exchange, reviewer, events, found)
    if not imported_events:
        read.update(done)
        return 0
    try:
        imported = store.import_events(imported_events, batch=IMPORT_BATCH)
    except StoreError as error:
        raise SyncError(f"importing the verdicts failed: {error}") from None
    if imported.conflicts:
        problems.append(
            f"{len(imported.conflicts)} event(s) reuse the id of a stored event with other "
            "content (the stored events were kept)"
        )
    read.update(done)
    return imported.added


def _own_files(
    store: VerdictStore, exchange: Exchange, reviewer: str, files: dict[str, TreeEntry]
) -> tuple[dict[str, bytes | None], int]:
    """The reviewer's verdict files (each report's parts) that differ from the remote's, None
    for a part no longer written, and the events the remote did not hold."""
    by_report: dict[str, list[str]] = {}
    for report, line in store.json_rows_by_report(FIELDS, reviewer):
        by_report.setdefault(report, []).append(line)
    held: dict[str, list[str]] = {}  # the remote's files, by the path of their first part
    for path in files:
        if is_verdict_path(path):
            held.setdefault(first_part(path), []).append(path)
    changes: dict[str, bytes | None] = {}
    new = 0
    for report, lines in by_report.items():
        parts = {
            file_path(report, reviewer, number): data
            for number, data in enumerate(file_parts(file_text(lines)), start=1)
        }
        theirs = held.get(file_path(report, reviewer), [])
        changed: dict[str, bytes | None] = {
            path: data for path, data in parts.items() if _differs(files.get(path), data)
        }
        changed |= {path: None for path in theirs if path not in parts}
        if not changed:
            continue
        changes |= changed
        # the events the remote held: a part it holds as written here holds what that part does
        before: set[bytes] = set()
        for path in theirs:
            before |= _event_ids(
                exchange, files[path], parts.get(path) if path not in changed else None
            )
        new += len(set(_EVENT_ID.findall("\n".join(lines).encode())) - before)
    return changes, new


def _differs(entry: TreeEntry | None, data: bytes) -> bool:
    return entry is None or entry.oid != blob_id(data)


#: an event's id in a line of a verdict file (a note's quotes are escaped: never this)
_EVENT_ID = re.compile(rb'"event":\s*"([^"\\]+)"')


def _event_ids(exchange: Exchange, entry: TreeEntry, same: bytes | None) -> set[bytes]:
    """The ids of the events a remote file holds (``same``: its bytes, known to be the
    remote's): what a push sends is what they lack, not a difference of line counts (another
    machine of the reviewer's may have written as many lines, other events)."""
    if same is None and (entry.kind != "blob" or entry.size > MAX_FILE_BYTES):
        return set()
    return set(_EVENT_ID.findall(same if same is not None else exchange.read(entry.oid)))
