"""The review screen's verdicts and notes: given on keys, written in order on the writer thread.

The store is opened by the writer's first work (the reviewer's verdicts read, `loading.py`); work
given before that waits behind it. A store that cannot be opened is said once (header and an
error notice); verdict keys are then refused with a notice.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from db.output import write_atomically
from screens.review.changes import Change, Changes
from screens.review.history import Location
from screens.review.messages import Written
from screens.review.writer import StoreHandle, StoreWriter
from screens.safe import visible
from screens.session import ReviewSession

if TYPE_CHECKING:
    from textual.app import App
    from textual.geometry import Region

    from db import Event, ItemRef, VerdictStore
    from evidence.model import Quote, Record
    from screens.widgets.records_pane import RecordsPane


class Target(NamedTuple):
    """What verdict keys act on: an item of the store, its name, and where it is."""

    item: ItemRef
    label: str  # "quote [2] of KS-RTE-x" or "record KS-RTE-x"
    location: Location  # its record, and its quote (None for the record)


class Selection(Protocol):
    """The screen's moves (`navigation.Navigation`), as verdicts see them."""

    def target_quote(self) -> Quote | None: ...


class VerdictHost(Protocol):
    """What the verdicts need of the review screen."""

    session: ReviewSession
    location: Location

    @property
    def app(self) -> App[object]: ...

    @property
    def record(self) -> Record | None: ...

    @property
    def moves(self) -> Selection: ...

    @property
    def records_pane(self) -> RecordsPane: ...

    def reach(self, location: Location) -> None: ...

    def revision_id(self) -> str | None: ...

    def after_change(self, event: Event) -> None: ...

    def refresh_header(self) -> None: ...


class Verdicts:
    """Gives verdicts and notes to the store, and knows whether it can."""

    def __init__(self, host: VerdictHost, store: StoreHandle, writer: StoreWriter) -> None:
        self.host = host
        self.store = store
        self.writer = writer
        self.error: str | None = None  # why verdicts cannot be saved (store unusable)
        self.ready = asyncio.Event()  # the reviewer's verdicts are read (or failed)
        self.waiting: list[Callable[[], object]] = []  # actions waiting for them
        self.reading: Callable[..., Any] | None = None  # the `then` of the first read
        self.changes = Changes(self)  # this session's, for undo and redo

    # what undo and redo (`Changes`) need: the screen's, through this part

    @property
    def session(self) -> ReviewSession:
        return self.host.session

    @property
    def app(self) -> App[object]:
        return self.host.app

    def reach(self, location: Location) -> None:
        self.host.reach(location)

    def after_change(self, event: Event) -> None:
        self.host.after_change(event)

    def target(self) -> Target | None:
        """The item verdict keys act on: the quote selected, else the record shown."""
        host = self.host
        record = host.record
        if record is None:
            return None
        quote = host.moves.target_quote()
        if quote is not None:
            return Target(
                host.session.quote_item(record, quote),
                f"quote [{quote.index + 1}] of {record.id}",
                host.location,
            )
        return Target(
            host.session.record_item(record),
            f"record {record.id}",
            Location(host.location.record, None),
        )

    def read(self, work: Callable[[VerdictStore], object], then: Callable[..., Any]) -> None:
        """The first work of the writer: open the store and read the reviewer's state."""
        self.reading = then
        self.writer.submit(work, then)

    def write(
        self, work: Callable[[VerdictStore], object], then: Callable[..., Any] | None = None
    ) -> bool:
        """Run store work on the writer thread; ``then(result)`` runs on the UI afterwards.

        Refused with a notice (False) when the store is known to be unusable.
        """
        if self.refuse_unusable_store():
            return False
        self.writer.submit(work, then)
        return True

    def refuse_unusable_store(self) -> bool:
        """True, with a notice saying why, when the store could not be opened."""
        if self.error is None:
            return False
        self.host.app.notify(
            visible(f"not saved: verdicts cannot be saved: {self.error}"),
            severity="error",
            markup=False,
            timeout=10,
        )
        return True

    def done_reading(self) -> None:
        """The reviewer's verdicts are known (or cannot be): run what waited for them."""
        self.ready.set()
        waiting, self.waiting = self.waiting, []
        for action in waiting:
            action()

    def store_failed(self, error: BaseException) -> None:
        """The store could not be opened: say so in the header and a notice; nothing is saved."""
        first = self.error is None
        self.error = str(error) or type(error).__name__
        if first:
            self.host.refresh_header()
            self.host.app.notify(
                visible(f"verdicts cannot be saved: {self.error}"),
                title="Verdict database",
                severity="error",
                markup=False,
                timeout=30,
            )
        self.done_reading()

    def written(self, message: Written) -> None:
        """A work of the writer finished: its `then`, or the error said."""
        if message.error is None:
            message.then(message.result)
            return
        reading = message.then == self.reading
        if self.store.error is not None:  # the store could not be opened
            if self.error is None:
                self.store_failed(self.store.error)  # in the header, and one notice
            elif not reading:
                self.refuse_unusable_store()  # a verdict given before that was known
            return
        what = "cannot read verdicts" if reading else "not saved"
        self.host.app.notify(
            visible(f"{what}: {message.error}"), severity="error", markup=False, timeout=10
        )
        if reading:
            self.done_reading()

    def give(self, value: str) -> None:
        """Give a verdict (a `db.Verdict` value) on the item the keys act on."""
        target = self.target()
        if target is None:
            return
        from db import Verdict

        verdict = Verdict(value)
        reviewer, revision = self.host.session.reviewer, self.host.revision_id()
        item, label = target.item, target.label
        if revision is None:  # a verdict is always on a resolved commit
            self.host.app.notify(
                "no verdict saved: the revision is not open", severity="warning", timeout=4
            )
            return

        def saved(event: Event) -> None:
            self._changed(target, event)
            self.host.app.notify(visible(f"{label}: {verdict.value}"), markup=False, timeout=2)

        self.write(
            lambda store: store.give(item, verdict, reviewer=reviewer, revision=revision), saved
        )

    def _changed(self, target: Target, event: Event) -> None:
        """A change of this session was stored: remember it for undo, and show it."""
        before = self.host.session.event(target.item)
        self.changes.made(Change(target.item, target.location, target.label, before, event))
        self.host.after_change(event)

    def undo(self) -> None:
        """Undo the reviewer's last change of this session (shown first, then named)."""
        self.changes.undo()

    def redo(self) -> None:
        """Make the last change undone again."""
        self.changes.redo()

    def append_note(self, line: str) -> None:
        """Add a line to the note on the item the keys act on, saved at once (no editor)."""
        target = self.target()
        if target is None or self.refuse_unusable_store():
            return
        if not self.ready.is_set():
            self.waiting.append(lambda: self.append_note(line))
            return
        session = self.host.session
        note = session.note(target.item).rstrip()
        text = f"{note}\n{line}" if note else line
        reviewer, revision = session.reviewer, self.host.revision_id()
        self.write(
            lambda store: store.note(target.item, text, reviewer=reviewer, revision=revision),
            lambda event: self._changed(target, event),
        )
        self.host.app.notify(visible(f"noted on {target.label}: {line}"), markup=False)

    def note(self) -> None:
        """Edit the note on the item the keys act on (once the current note is read)."""
        target = self.target()
        if target is None:
            return
        if not self.ready.is_set():
            self.waiting.append(lambda: self._edit_note(target))
            return
        self._edit_note(target)

    def _edit_note(self, target: Target) -> None:
        if self.refuse_unusable_store():
            return
        session = self.host.session
        item = target.item
        verdict = session.verdict(item)
        from screens.note import NoteScreen

        title = f"Note on {target.label} · {verdict.value if verdict else 'not reviewed'}"
        reviewer, revision = session.reviewer, self.host.revision_id()

        def edited(text: str | None) -> None:
            if text is None:
                return
            self.write(
                lambda store: store.note(item, text, reviewer=reviewer, revision=revision),
                lambda event: self._changed(target, event),
            )

        # over the records list, when it is shown and big enough (at 80 columns it is 28 wide):
        # the claim and code stay in sight
        place: Region | None = self.host.records_pane.region
        if place is not None and (place.width < 24 or place.height < 6):
            place = None
        self.host.app.push_screen(NoteScreen(title, session.note(item), place=place), edited)

    def export(self, system: str, commit: str | None) -> None:
        """Save the md write-up (db/writeup.py) in the current directory, on the writer thread,
        and say where (or why not)."""
        name = writeup_name(system, commit)
        path = Path.cwd() / name

        def saved(notice: str) -> None:
            failed = notice.startswith("write-up not saved")
            self.host.app.notify(
                visible(notice),
                markup=False,
                timeout=6,
                severity="error" if failed else "information",
            )

        self.write(lambda store: save_writeup(store, path, f"./{name} (in {Path.cwd()})"), saved)


def writeup_name(system: str, commit: str | None) -> str:
    """The file name of a write-up saved from the app: system and revision, as a file name."""
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", system).strip("-.")[:40] or "review"
    return f"assay-writeup-{slug}-{(commit or 'unresolved')[:7]}.md"


def save_writeup(store: VerdictStore, path: Path, shown: str) -> str:
    """Write the md write-up of ``store`` to ``path`` atomically; the notice to show (naming the
    file as ``shown``)."""
    from db.writeup import markdown

    text = markdown(store)
    try:
        write_atomically(path, lambda handle: handle.write(text))
    except OSError as error:
        return f"write-up not saved: {error.strerror or error} ({shown})"
    return f"write-up saved to {shown} ({len(text.splitlines())} lines)"
