"""The cycle collector: paused from the start of an app command until the app's first frame, then
frozen over the loaded review.

Importing Textual and assay and building the first screen create many objects that live as long
as the app; the collections they would set off walk them for almost no garbage. A command that
opens the app calls `pause()` before importing anything heavy; the app factory takes the pause
over (`take()`) and the app resumes the collector (`gc.enable()`) once its first frame is
painted. Once the review is loaded and anchored, `loaded()` freezes what is alive (the reports,
the anchors, the widgets) and collects young objects less often, until `closed()`: the frames of
later keys are not stopped by collections that walk the whole review. Nothing here imports
anything: it must run before the imports it speeds up.
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


#: collections of the youngest objects once the review is loaded: every 7,000 objects rather
#: than 700, so that the lines a frame draws and drops are freed before a collection sees them
YOUNG_THRESHOLD = 7_000
_thresholds: tuple[int, int, int] | None = None  # the collector's, before `loaded()`


def loaded() -> None:
    """The review is loaded and anchored: what lives now lives as long as the app. Frozen, it is
    not walked by later collections (a full walk of it is a key's frame, or several); the young
    objects are collected less often. Undone by `closed()`."""
    global _thresholds
    gc.collect()
    gc.freeze()
    if _thresholds is None:
        _thresholds = gc.get_threshold()
        gc.set_threshold(YOUNG_THRESHOLD, *_thresholds[1:])


def closed() -> None:
    """The app is done: what `loaded()` froze is collected again, the thresholds restored."""
    global _thresholds
    gc.unfreeze()
    if _thresholds is not None:
        gc.set_threshold(*_thresholds)
        _thresholds = None
