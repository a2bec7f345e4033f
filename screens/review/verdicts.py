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
from typing import TYPE_CHECKING, cast

from screens.review.changes import Change, Changes, GroupChange, Redone, Undone
from screens.review.groups import (
    GaveGroup,
    give_work,
    given,
    group_change,
    group_target,
    question,
    saving,
    yes_label,
)
from screens.review.history import Location
from screens.review.messages import Written
from screens.review.replies import (
    CHANGES,
    Exported,
    Gave,
    Noted,
    Registered,
    Target,
    unsaved,
)
from screens.review.state import Part, ReviewState, restale, while_shown
from screens.review.waiting import WAITING_AFTER, Waiting
from screens.review.writer import StoreHandle, StoreWriter
from screens.review.writeup import save_writeup, writeup_name
from screens.safe import visible
from screens.widgets.record_pane import verdict_word

if TYPE_CHECKING:
    from textual.geometry import Region
    from textual.timer import Timer

    from db import Event, VerdictStore
    from db.carry import Carried
    from screens.review.header import Header
    from screens.review.navigation import Navigation

#: a full commit id (the revision a verdict is saved against, while the revision opens)
FULL_ID = re.compile(r"[0-9a-f]{40}")
#: seconds the reviewer rests on a record before it is written as the review's position: a
#: write per key press competed with the frames for the interpreter
POSITION_DELAY = 0.5


class Verdicts(Part):
    """Gives verdicts and notes to the store, and knows whether it can."""

    def __init__(
        self,
        state: ReviewState,
        store: StoreHandle,
        moves: Navigation,
        header: Header,
        rev: str | None,
    ) -> None:
        super().__init__()
        self.state, self.session, self.store = state, state.session, store
        self.rev = rev  # the revision as the command resolved it (a full id, or a name)
        self.moves, self.sources, self.drift = moves, moves.sources, moves.drift
        self.header = header
        self.writer = StoreWriter(self, store)  # what it writes comes back here (`Written`)
        self.ready = asyncio.Event()  # the reviewer's verdicts are read (or failed)
        self.waiting: list[Callable[[], object]] = []  # actions waiting for them
        self.changes = Changes(state.session)  # this session's, for undo and redo
        # changes sent to the writer and not back yet: an undo or redo pressed meanwhile waits
        # for them (`z` right after `r` undid the change before the refute)
        self._in_flight = 0
        self._after_changes: list[Callable[[], object]] = []
        self.unsaved = Waiting(state, self._show_waiting, self._say_waiting)
        self.record_shown = state.location.record  # to tell when the location leaves it
        self._position: tuple[str, str] | None = None  # (review key, record id) not yet written
        self._position_timer: Timer | None = None
        state.watch({"location"}, self.save_position)

    def save_position(self) -> None:
        """The reviewer moved to another record: the store keeps it as the review's position."""
        index, session = self.state.location.record, self.session
        left, self.record_shown = index != self.record_shown, index
        if not left or not self.moves.moved or self.state.store_error is not None:
            return  # the saved position itself, read from the store, is not written back
        self._position = (session.review_key, session.records[index].id)
        if self._position_timer is not None:
            self._position_timer.stop()
        self._position_timer = self.set_timer(POSITION_DELAY, self.write_position)

    def write_position(self) -> None:
        """Write the position the reviewer moved to, if it is not written yet (also on close)."""
        if self._position_timer is not None:
            self._position_timer.stop()
            self._position_timer = None
        if self._position is None:
            return
        key, record_id = self._position
        self._position = None
        self.writer.submit(lambda store: store.set_position(key, record_id))

    def target(self) -> Target | None:
        """The item verdict keys act on: the quote selected, else the record shown."""
        state = self.state
        record = state.record
        if record is None:
            return None
        quote = state.target_quote()
        if quote is not None:
            return Target(
                self.session.quote_item(record, quote),
                f"quote [{quote.index + 1}] of {record.id}",
                state.location,
            )
        return Target(
            self.session.record_item(record),
            f"record {record.id}",
            Location(state.location.record, None),
        )

    def write(self, work: Callable[[VerdictStore], object], reply: object = None) -> bool:
        """Run store work on the writer thread; its `Written` (with ``reply``) comes back here.

        Refused with a notice (False) when the store is known to be unusable.
        """
        if self.refuse_unusable_store():
            return False
        if isinstance(reply, CHANGES):
            self._in_flight += 1
            said = saving(reply)  # a large group's: the writer takes seconds
            if said:
                self.notify(visible(said), markup=False, timeout=10)
            else:  # shown waiting if the store keeps it waiting (another process's lock)
                self.unsaved.sent(reply)
                self.set_timer(WAITING_AFTER, lambda: self.unsaved.late(reply))
        self.writer.submit(work, reply)
        return True

    def _show_waiting(self) -> None:
        self.header.refresh()
        self.sources.show_target()

    def _say_waiting(self, said: str) -> None:
        self.notify(visible(said), severity="warning", markup=False, timeout=10)

    def refuse_unusable_store(self) -> bool:
        """True, with a notice saying why, when the store could not be opened."""
        if self.state.store_error is None:
            return False
        self.notify(
            visible(f"not saved: verdicts cannot be saved: {self.state.store_error}"),
            severity="error",
            markup=False,
            timeout=10,
        )
        return True

    def done_reading(self) -> None:
        """The reviewer's verdicts are known (or cannot be): run what waited for them."""
        self.state.verdicts_read = True
        self.ready.set()
        waiting, self.waiting = self.waiting, []
        for action in waiting:
            action()

    def store_failed(self, error: BaseException) -> None:
        """The store could not be opened: say so in the header and a notice; nothing is saved."""
        first = self.state.store_error is None
        self.state.store_error = str(error) or type(error).__name__
        if first:
            self.header.refresh()
            self.notify(
                visible(f"verdicts cannot be saved: {self.state.store_error}"),
                title="Verdict database",
                severity="error",
                markup=False,
                timeout=30,
            )
        self.done_reading()

    def failed(self, error: BaseException, *, reading: bool, lost: str = "") -> None:
        """A work of the writer failed (``reading``: the first, reading the reviewer's state):
        the store could not be opened, or the error is said (with ``lost``: what it was)."""
        if self.store.error is not None:  # the store could not be opened
            if self.state.store_error is None:
                self.store_failed(self.store.error)  # in the header, and one notice
            elif not reading:
                self.refuse_unusable_store()  # a verdict given before that was known
            return
        what = "cannot read verdicts" if reading else f"not saved{lost}"
        self.notify(visible(f"{what}: {error}"), severity="error", markup=False, timeout=10)
        if reading:
            self.done_reading()

    @while_shown
    def on_written(self, message: Written) -> None:
        """A work of the writer finished: show what it changed, or say its error."""
        reply = message.reply
        if isinstance(reply, CHANGES):
            self._in_flight -= 1
            self.unsaved.back(reply)
            if not self._in_flight:  # after this reply is taken in: run what waited for it
                self.call_later(self._run_after_changes)
        if message.error is not None:
            # named: a wait for a lock fails seconds later, when other records are shown
            self.failed(message.error, reading=False, lost=unsaved(reply))
            return
        event = cast("Event", message.result)
        if isinstance(reply, Gave):
            self._changed(reply.target, event)
            self.notify(visible(f"{reply.target.label}: {reply.verdict}"), markup=False, timeout=2)
        elif isinstance(reply, Noted):
            self._changed(reply.target, event)
        elif isinstance(reply, GaveGroup):
            self._changed_group(reply, cast("list[Event]", message.result))
        elif isinstance(reply, (Undone, Redone)):
            # one event, or a group's list (None or empty: the change was changed elsewhere)
            result = cast("Event | list[Event] | None", message.result)
            events = [] if result is None else result if isinstance(result, list) else [result]
            if isinstance(reply, Undone) and not events:
                self.notify(
                    visible(f"not undone: {reply.change.label} was changed elsewhere since"),
                    severity="warning",
                    markup=False,
                )
                return
            said = self.changes.stored(reply, events)
            self.show_changes(events)
            if isinstance(reply.change, GroupChange):  # listed again, or no longer
                self.moves.refilter()
            self.notify(visible(said), markup=False, timeout=4)
        elif isinstance(reply, Registered) and message.result:
            self._registered(*cast("tuple[dict[str, str], Carried | None]", message.result))
        elif isinstance(reply, Exported):
            notice = cast(str, message.result)
            failed = notice.startswith("write-up not saved")
            self.notify(
                visible(notice),
                markup=False,
                timeout=6,
                severity="error" if failed else "information",
            )

    def _registered(self, elsewhere: dict[str, str], carried: Carried | None) -> None:
        from screens.review.scans import carried_notice, elsewhere_notice

        if carried is not None and carried.events:  # the old items leave the stale list there
            self.show_changes([*carried.closed, *carried.events])  # in the order written
            self.moves.refilter()
            self.notify(carried_notice(carried), markup=False, timeout=10)
        if elsewhere:
            notice = elsewhere_notice(elsewhere)
            self.notify(notice, severity="warning", markup=False, timeout=15)

    def show_changes(self, events: list[Event]) -> None:
        """Stored events changed verdicts or notes: show them."""
        self.session.apply(*events)
        if restale(self.state, events):  # a stale verdict cleared, or brought back by undo
            self.moves.record_pane.stale = self.state.stale
        record_keys = {event.ref.record_key for event in events}
        self.moves.records_pane.update_records(record_keys)
        record = self.state.record
        if record is not None and self.session.record_item(record).key in record_keys:
            self.moves.record_pane.refresh_record()
        self.sources.refresh_quote_info()
        self.header.refresh()

    def revision_id(self) -> str | None:
        """The commit verdicts are saved against: the open revision's; while it opens, the full
        id the command resolved; None when it cannot be opened (never an unresolved name)."""
        state = self.state
        if state.revision is not None:
            return state.revision.commit
        rev = self.rev
        if state.revision_error is None and rev and FULL_ID.fullmatch(rev):
            return rev
        return None

    def act(self, what: str, on: str = "target") -> None:
        """A verdict key: give a verdict (a `db.Verdict` value; ``on`` "group": to the results
        of the record's group), or the note, undo, redo, the drift noted, the export."""
        if on == "group":
            self.give_group(what)
        elif what in ("note", "note_drift"):
            if not self.moves.shows_a_record():
                return
            if what == "note":
                self.note()
            else:
                self.note_drift()
        elif what == "undo":
            self.undo()
        elif what == "redo":
            self.redo()
        elif what == "export":
            reports = self.session.reportset.reports
            self.export(reports[0].system if reports else "review", self.revision_id())
        else:
            self.give(what)

    def note_drift(self) -> None:
        """Append the drift of the quote the keys act on, in one line, to its note."""
        line = self.drift.note_line()
        if line is not None:
            self.append_note(line)

    def give(self, value: str) -> None:
        """Give a verdict (a `db.Verdict` value) on the item the keys act on."""
        target = self.target() if self.moves.shows_a_record() else None
        if target is None:
            return
        from db import Verdict

        verdict = Verdict(value)
        reviewer, revision = self.session.reviewer, self.revision_id()
        item = target.item
        if revision is None:  # a verdict is always on a resolved commit
            self.notify("no verdict saved: the revision is not open", severity="warning", timeout=4)
            return
        self.write(
            lambda store: store.give(item, verdict, reviewer=reviewer, revision=revision),
            Gave(target, verdict.value),
        )

    def give_group(self, value: str) -> None:
        """Ask, then give a verdict to every result of the shown record's group the filter shows."""
        if not self.moves.shows_a_record():
            return
        pane, index = self.moves.records_pane, self.state.location.record
        target = group_target(self.session, index, pane.filter_name)
        if target is None:
            said = f"{self.session.records[index].id}: a group verdict is for scanner results"
            self.notify(visible(said), severity="warning", markup=False, timeout=4)
            return
        from screens.group_verdict import GroupVerdictScreen

        revision = self.revision_id()
        if revision is None:
            self.notify("no verdict saved: the revision is not open", severity="warning", timeout=4)
            return
        if self.refuse_unusable_store():
            return

        def answered(note: str | None) -> None:
            if note is not None:
                reply = GaveGroup(target, value, note)
                self.write(give_work(reply, self.session.reviewer, revision), reply)

        asked = GroupVerdictScreen(question(value, target), yes=yes_label(value, target))
        self.app.push_screen(asked, answered)

    def _changed(self, target: Target, event: Event) -> None:
        """A change of this session was stored: remember it for undo, and show it."""
        before = self.session.event(target.item)
        self.changes.made(Change(target.item, target.location, target.label, before, event))
        self.show_changes([event])

    def _changed_group(self, reply: GaveGroup, events: list[Event]) -> None:
        """A group verdict was stored: one change for undo, shown, and said."""
        self.changes.made(group_change(reply, events))
        self.show_changes(events)
        self.moves.refilter()
        self.notify(visible(given(reply)), markup=False, timeout=4)

    def _run_after_changes(self) -> None:
        # one at a time: an undo run here sends a change, and what follows waits for it too
        while self._after_changes and not self._in_flight:
            self._after_changes.pop(0)()

    def undo(self) -> None:
        """Undo the reviewer's last change of this session (shown first, then named)."""
        if self._in_flight:  # the last change is not stored yet: undo it once it is
            self._after_changes.append(self.undo)
            return
        step = self.changes.undo()
        if step is None:
            self.notify(
                "nothing to undo in this session (changes of earlier sessions stay as they are)"
            )
            return
        change, work = step
        self.moves.reach(change.location)
        if not self.write(work, Undone(change)):
            self.changes.refused(Undone(change))

    def redo(self) -> None:
        """Make the last change undone again."""
        if self._in_flight:
            self._after_changes.append(self.redo)
            return
        step = self.changes.redo()
        if step is None:
            self.notify("nothing to redo")
            return
        change, work = step
        self.moves.reach(change.location)
        if not self.write(work, Redone(change)):
            self.changes.refused(Redone(change))

    def append_note(self, line: str) -> None:
        """Add a line to the note on the item the keys act on, saved at once (no editor)."""
        target = self.target()
        if target is None or self.refuse_unusable_store():
            return
        self._append_note(target, line)

    def _append_note(self, target: Target, line: str) -> None:
        # onto the note as stored: read, and no change of it still on its way (a line lost)
        if not self.ready.is_set():
            self.waiting.append(lambda: self._append_note(target, line))
            return
        if self._in_flight:
            self._after_changes.append(lambda: self._append_note(target, line))
            return
        session = self.session
        note = session.note(target.item).rstrip()
        text = f"{note}\n{line}" if note else line
        reviewer, revision = session.reviewer, self.revision_id()
        self.write(
            lambda store: store.note(target.item, text, reviewer=reviewer, revision=revision),
            Noted(target),
        )
        self.notify(visible(f"noted on {target.label}: {line}"), markup=False)

    def note(self) -> None:
        """Edit the note on the item the keys act on (once the current note is read)."""
        target = self.target()
        if target is None:
            return
        if not self.ready.is_set():
            self.waiting.append(lambda: self._edit_note(target))
            return
        if self._in_flight:  # a note just saved would open with its text before
            self._after_changes.append(lambda: self._edit_note(target))
            return
        self._edit_note(target)

    def _edit_note(self, target: Target) -> None:
        if self.refuse_unusable_store():
            return
        session = self.session
        item = target.item
        verdict = session.verdict(item)
        from screens.note import NoteScreen

        # the verdict in the record pane's words ("open", "skipped")
        title = f"Note on {target.label} · {verdict_word(verdict).plain}"
        reviewer, revision = session.reviewer, self.revision_id()

        def edited(text: str | None) -> None:
            if text is None:
                return
            self.write(
                lambda store: store.note(item, text, reviewer=reviewer, revision=revision),
                Noted(target),
            )

        # over the records list, when it is shown and big enough (at 80 columns it is 28 wide):
        # the claim and code stay in sight
        place: Region | None = self.moves.records_pane.region
        if place is not None and (place.width < 24 or place.height < 6):
            place = None
        editor = NoteScreen(title, session.note(item), place=place, keep=edited)
        self.app.push_screen(editor, edited)

    def export(self, system: str, commit: str | None) -> None:
        """Save the md write-up (db/writeup.py) in the current directory, on the writer thread,
        and say where (or why not)."""
        name = writeup_name(system, commit)
        path = Path.cwd() / name
        shown = f"./{name} (in {Path.cwd()})"
        # the reports reviewed alone: the database (one for every review, by default) may hold
        # other systems' verdicts, which a write-up named for this one must not hand over
        reports = frozenset(report.identity for report in self.session.reportset.reports)
        self.write(lambda store: save_writeup(store, path, shown, reports), Exported(name))
