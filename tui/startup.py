"""The cycle collector: paused from the start of an app command until the app's first frame, then
frozen over the loaded review.

Importing Textual and assay and building the first screen create many objects that live as long
as the app; the collections they would set off walk them for almost no garbage. A command that
opens the app calls `pause()` before importing anything heavy; the app factory takes the pause
over (`take()`) and the app resumes the collector (`started()`) once its first frame is
painted, over young objects only and with what the launch made frozen. Once the review is
loaded and anchored, `loaded()` freezes what is alive (the anchors, the store's rows), until
`closed()`: the frames of later keys are not stopped by collections that walk the whole review.
The older generations are then collected while the reviewer rests (`rest`, called by the app a
few times a second).
Nothing here imports anything: it must run before the imports it speeds up.
"""

from __future__ import annotations

import gc

_paused = False  # the collector was running and `pause()` stopped it


def pause() -> None:
    """Stop the cycle collector (if running) until `take()` or `release()`."""
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def take() -> bool:
    """Pause (if not yet) and hand the pause over: True when the caller must resume it."""
    global _paused
    pause()
    resume, _paused = _paused, False
    return resume


def release() -> None:
    """Resume a collector `pause()` stopped and nobody took over (a command that fails early)."""
    global _paused
    if _paused:
        _paused = False
        gc.enable()


class Paused:
    """``with Paused():`` a command's work with the collector paused, resumed after. What a
    batch command builds (reports, anchors, a SARIF document) lives until it is done:
    collections would walk it for almost no garbage (`assay export --format sarif` of a
    135,129-result scan: 2.6 s of its 9.7)."""

    def __enter__(self) -> None:
        pause()

    def __exit__(self, *_: object) -> None:
        release()


#: collections of the youngest objects once the review is loaded: every 7,000 objects rather
#: than 700, so that the lines a frame draws and drops are freed before a collection sees them
YOUNG_THRESHOLD = 7_000
#: once loaded, the older generations are collected when the reviewer rests (`rest`), not by
#: the collector in the middle of a key's frame (a middle collection walks every survivor of the
#: young ones, the lines kept by the panes and caches: tens of ms)
NEVER = 1_000_000_000
REST = 0.3  # seconds without a key or a click: the reviewer is reading
MAX_YOUNG = 100  # young collections without a middle one: one runs anyway (a key held down)
MIDDLE_PER_FULL = 10  # middle collections at rest per full one, as the collector's own ratio
_thresholds: tuple[int, int, int] | None = None  # the collector's, before `loaded()`
_last_input = 0.0  # time.monotonic() of the last key or click


def started() -> None:
    """The first frame is painted: the collector runs again (after `take()`), over the young
    objects only. What the launch made (the reports, the screen) lives as long as the app:
    frozen, the first collections do not walk it (0.46 s on the event loop for a 135,129-result
    scan), and while the review loads (the anchors, the store's rows) the older generations
    wait for `loaded()` (two full collections of 0.35 s each in the anchoring worker)."""
    global _thresholds
    gc.freeze()
    if _thresholds is None:
        _thresholds = gc.get_threshold()
        gc.set_threshold(YOUNG_THRESHOLD, NEVER, NEVER)
    gc.enable()


def loaded() -> None:
    """The review is loaded and anchored: what lives now lives as long as the app. Frozen, it is
    not walked by later collections (a full walk of it is a key's frame, or several); the young
    objects are collected less often. Undone by `closed()`."""
    global _thresholds
    # frozen as it is, not collected first: since `started()` the middle generation holds all
    # the loading made, and a collection of it on the event loop took 0.13 s (a 135,129-result
    # scan) to free 1,818 objects, which the freeze keeps until `closed()`
    gc.freeze()
    if _thresholds is None:
        _thresholds = gc.get_threshold()
        gc.set_threshold(YOUNG_THRESHOLD, NEVER, NEVER)


def input_seen(now: float) -> None:
    """A key or a click arrived (``now``: `time.monotonic()`)."""
    global _last_input
    _last_input = now


def rest(now: float) -> str | None:
    """Called every fraction of a second: once loaded, collect the older generations while the
    reviewer rests, or when too many young collections ran without one. Returns what ran
    ("middle", "full") or None."""
    if _thresholds is None or not gc.isenabled():
        return None
    _young, young_runs, middle_runs = gc.get_count()
    resting = now - _last_input >= REST
    if resting and middle_runs >= MIDDLE_PER_FULL:
        gc.collect(2)
        return "full"
    if young_runs and (resting or young_runs >= MAX_YOUNG):
        gc.collect(1)
        return "middle"
    return None


def closed() -> None:
    """The app is done: what `loaded()` froze is collected again, the thresholds restored."""
    global _thresholds
    gc.unfreeze()
    if _thresholds is not None:
        gc.set_threshold(*_thresholds)
        _thresholds = None
