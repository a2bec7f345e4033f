"""How bench_app.py times a key: from the key event posted to the app (as the terminal driver
posts it) to the frame painted (every widget of the screen has handled what it was sent, then
`Screen.wait_for_refresh`: public API only); and the empty app's floors it is measured beside, a
key echo and a trivial modal screen's opening and closing. bench_triage.py and key_count.py use
them too."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from textual import events
from textual.app import App, ComposeResult
from textual.message_pump import MessagePump
from textual.screen import ModalScreen
from textual.widgets import Label, Static

#: the terminal every app is timed in
SIZE = (120, 40)


class EchoApp(App[None]):
    """The baseline: a key that changes one line of text, painted."""

    BINDINGS = [("n", "echo", "Echo")]
    presses = 0

    def compose(self) -> ComposeResult:
        yield Static("0", id="echo")

    def action_echo(self) -> None:
        self.presses += 1
        self.query_one("#echo", Static).update(str(self.presses))


class TrivialModal(ModalScreen[None]):
    """The floor of a dialog's opening: a modal screen of one label, made once and pushed
    (Textual's own `ModalScreen`: its background tints the screen beneath)."""

    DEFAULT_CSS = "TrivialModal { align: center middle; } TrivialModal > Label { border: round; }"
    BINDINGS = [("escape", "dismiss", "Close")]

    def compose(self) -> ComposeResult:
        yield Label("a trivial dialog")


class ModalApp(EchoApp):
    """An empty app whose key pushes a `TrivialModal`, installed once (as assay keeps its
    dialogs), so the opening pays neither compose nor styling."""

    BINDINGS = [("o", "open", "Open")]

    def on_mount(self) -> None:
        self.install_screen(TrivialModal(), "trivial")

    def action_open(self) -> None:
        self.push_screen("trivial")


#: key names of the characters the keys above are typed with (Textual's names)
_NAMES = {"]": "right_square_bracket", "[": "left_square_bracket", "/": "slash", ":": "colon"}
_NAMES["?"] = "question_mark"
_CHARACTERS = {"tab": "\t", "enter": "\r", "backspace": "\x7f", "escape": "\x1b", "space": " "}


async def processed(node: MessagePump) -> None:
    """Wait until `node` has handled every message posted to it so far (`call_later`), or has
    stopped (a widget of a screen that closed meanwhile never runs the callback)."""
    done = asyncio.Event()
    if not node.call_later(done.set):
        return
    loop = asyncio.get_running_loop()

    def stopped() -> None:
        # a timer, not a task polling beside the wait: extra tasks woke the loop between the key
        # and its frame and doubled the medians measured
        if not node.is_running:
            done.set()
        elif not done.is_set():
            loop.call_later(0.05, stopped)

    loop.call_later(0.05, stopped)
    await done.wait()


async def frame(app: App[None]) -> None:
    """Wait until every widget of the current screen has handled what it was sent, and the
    screen has painted the result (public API: `call_later`, `Screen.wait_for_refresh`)."""
    screen = app.screen
    await asyncio.gather(*(processed(node) for node in [screen, *screen.walk_children()]))
    await screen.wait_for_refresh()


def key_event(key: str) -> events.Key:
    """The event of ``key`` as the terminal driver posts it."""
    return events.Key(_NAMES.get(key, key), key if len(key) == 1 else _CHARACTERS.get(key))


async def timed(
    app: App[None], key: str, wait: Callable[[], Awaitable[None]] | None = None
) -> float:
    """Seconds from a key arriving (as the terminal driver posts it) to its frame painted
    (`wait` done first, when given)."""
    start = time.perf_counter()
    app.post_message(key_event(key))
    await processed(app)  # the binding ran
    if wait is not None:
        await wait()
    await frame(app)
    return time.perf_counter() - start


async def echo_times(presses: int) -> list[float]:
    app = EchoApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        times = []
        for _ in range(presses):
            times.append(await timed(app, "n"))
            await pilot.pause()
    return times


async def modal_times(
    app: App[None], presses: int, *, push: Callable[[], object] | None = None
) -> tuple[list[float], list[float]]:
    """Opens and closes of a `TrivialModal` over the app's screen: by the key `o` (ModalApp) or
    by ``push`` (over the review screen). Seconds, key (or push) to frame painted."""
    base = app.screen
    opened, closed = [], []
    for _ in range(presses):
        if push is None:
            opened.append(await timed(app, "o", until(lambda: app.screen is not base)))
        else:
            start = time.perf_counter()
            push()
            await until(lambda: app.screen is not base)()
            await frame(app)
            opened.append(time.perf_counter() - start)
        await asyncio.sleep(0.01)
        closed.append(await timed(app, "escape", until(lambda: app.screen is base)))
        await asyncio.sleep(0.01)
    return opened, closed


def until(ready: Callable[[], bool]) -> Callable[[], Awaitable[None]]:
    """A wait until ``ready()`` (the screen pushed or popped before its frame)."""

    async def wait() -> None:
        for _ in range(5000):
            if ready():
                return
            await asyncio.sleep(0.001)
        raise AssertionError("the screen did not open or close")

    return wait


async def empty_modal_times(presses: int) -> tuple[list[float], list[float]]:
    app = ModalApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        return await modal_times(app, presses)
