"""The one route of a worker that failed: one error notice naming the work and the error.

Screens run blocking work in `@work(thread=True, exit_on_error=False)` workers. What the work
expects (a file not at the revision, a bad pattern) it returns or shows as data; anything else
leaves the worker, and the screen's `Worker.StateChanged` handler passes the event to
`report_failure`, which says it once (never a traceback) and returns the words, for a pane that
was waiting on that work to show them too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.worker import WorkerState

from screens.safe import visible

if TYPE_CHECKING:
    from textual.dom import DOMNode
    from textual.worker import Worker

__all__ = ["failure_text", "report_failure"]


def failure_text(event: Worker.StateChanged) -> str | None:
    """``<group> failed: <error type>: <error>``, made visible; None unless the worker failed."""
    if event.state is not WorkerState.ERROR:
        return None
    error = event.worker.error
    return visible(f"{event.worker.group} failed: {type(error).__name__}: {error}")


def report_failure(node: DOMNode, event: Worker.StateChanged) -> str | None:
    """An error notice when the worker failed; the words said (None unless it failed)."""
    text = failure_text(event)
    if text is not None:
        node.app.notify(text, severity="error", markup=False)
    return text
