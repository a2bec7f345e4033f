"""Changes given and not stored yet: shown as waiting once they take longer than a moment.

A change waits for the store while another process holds the database locked (a long `assay
import`, a sync), up to `db.check.BUSY_TIMEOUT`; then it fails and its notice names it lost
(`Verdicts.failed`). Past `WAITING_AFTER` the header counts it, the status line names it on its
item and a notice says why, until it comes back: the verdict is never shown as given before the
store holds it.
"""

from __future__ import annotations

from collections.abc import Callable

from screens.review.changes import Change, Redone, Undone
from screens.review.replies import Gave, Noted, unsaved
from screens.review.state import ReviewState

#: seconds a change may take to be stored before it is shown waiting (a write takes a few ms)
WAITING_AFTER = 0.5


def waiting_word(reply: object) -> tuple[str | None, str]:
    """The item key a change is on (None: a group's results) and what it gives there."""
    if isinstance(reply, Gave):
        return reply.target.item.key, reply.verdict
    if isinstance(reply, Noted):
        return reply.target.item.key, "note"
    if isinstance(reply, (Undone, Redone)) and isinstance(reply.change, Change):
        return reply.change.item.key, "undo" if isinstance(reply, Undone) else "redo"
    return None, "group verdict"


def _remove(replies: list[object], reply: object) -> bool:
    # by identity: two presses of `c` on one record are equal replies, and two changes
    for index, each in enumerate(replies):
        if each is reply:
            del replies[index]
            return True
    return False


class Waiting:
    """The review's changes sent to the writer and not back; those late in `ReviewState.waiting`."""

    def __init__(
        self, state: ReviewState, show: Callable[[], object], say: Callable[[str], object]
    ) -> None:
        """``show`` redraws what shows `ReviewState.waiting`; ``say`` gives a notice."""
        self.state = state
        self._show, self._say = show, say
        self._sent: list[object] = []  # oldest first
        self._late: list[object] = []  # those past WAITING_AFTER, shown

    def sent(self, reply: object) -> None:
        """A change was given to the writer."""
        self._sent.append(reply)

    def late(self, reply: object) -> None:
        """`WAITING_AFTER` has passed since ``reply``'s change was sent: shown, if not back."""
        if not any(each is reply for each in self._sent):
            return  # stored (or failed) in time
        first = not self._late
        self._late.append(reply)
        self._update()
        if first:  # once while the lock lasts, not once a key
            self._say(
                f"not saved yet{unsaved(reply)}: waiting for the verdict database (locked by "
                "another process? a long `assay import`, a sync); saved once it is free, or "
                "said lost"
            )

    def back(self, reply: object) -> None:
        """``reply``'s change came back from the writer (stored, or failed)."""
        _remove(self._sent, reply)
        if _remove(self._late, reply):
            self._update()

    def _update(self) -> None:
        self.state.waiting = [waiting_word(reply) for reply in self._late]
        self._show()
