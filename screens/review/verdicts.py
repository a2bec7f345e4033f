"""The review screen's verdicts and notes: given on keys, written in order on the writer thread.

The store is opened by the writer's first work (the reviewer's verdicts read, `loading.py`); work
given before that waits behind it. A store that cannot be opened is said once (header and an
error notice); verdict keys are then refused with a notice.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from screens.review.messages import Written
from screens.review.writer import StoreHandle, StoreWriter
from screens.safe import visible
from screens.session import ReviewSession

if TYPE_CHECKING:
    from textual.app import App

    from db import Event, ItemRef, VerdictStore


class VerdictHost(Protocol):
    """What the verdicts need of the review screen."""

    session: ReviewSession

    @property
    def app(self) -> App[object]: ...

    def target(self) -> tuple[ItemRef, str] | None: ...

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
        target = self.host.target()
        if target is None:
            return
        item, label = target
        from db import Verdict

        verdict = Verdict(value)
        reviewer, revision = self.host.session.reviewer, self.host.revision_id()

        def saved(event: Event) -> None:
            self.host.after_change(event)
            self.host.app.notify(visible(f"{label}: {verdict.value}"), markup=False, timeout=2)

        self.write(
            lambda store: store.give(item, verdict, reviewer=reviewer, revision=revision), saved
        )

    def undo(self) -> None:
        """Undo the reviewer's latest change."""
        reviewer = self.host.session.reviewer

        def undone(event: Event | None) -> None:
            if event is None:
                self.host.app.notify("nothing to undo")
                return
            self.host.after_change(event)
            state = event.verdict.value if event.verdict else "no verdict"
            what = f"a quote of {event.record}" if event.quote else event.record
            self.host.app.notify(
                visible(f"undone: {what} is back to {state}"), markup=False, timeout=3
            )

        self.write(lambda store: store.undo(reviewer), undone)

    def note(self) -> None:
        """Edit the note on the item the keys act on (once the current note is read)."""
        target = self.host.target()
        if target is None:
            return
        if not self.ready.is_set():
            self.waiting.append(lambda: self._edit_note(*target))
            return
        self._edit_note(*target)

    def _edit_note(self, item: ItemRef, label: str) -> None:
        if self.refuse_unusable_store():
            return
        session = self.host.session
        verdict = session.verdict(item)
        from screens.note import NoteScreen

        title = f"Note on {label} · {verdict.value if verdict else 'not reviewed'}"
        reviewer, revision = session.reviewer, self.host.revision_id()

        def edited(text: str | None) -> None:
            if text is None:
                return
            self.write(
                lambda store: store.note(item, text, reviewer=reviewer, revision=revision),
                self.host.after_change,
            )

        self.host.app.push_screen(NoteScreen(title, session.note(item)), edited)
