"""The cycle collector once the review is loaded: young collections as usual, the older
generations collected while the reviewer rests (or after many young ones), never lost."""

from __future__ import annotations

import gc
from pathlib import Path

from keymaps import load_keymap
from screens.review.screen import ReviewScreen
from tui import startup
from tui.factory import make_demo_app


def young_collections(count: int) -> None:
    """Run young collections as the collector would, each after garbage cycles."""
    for _ in range(count):
        for _ in range(50):
            cycle: list[object] = []
            cycle.append(cycle)
        gc.collect(0)


def test_freezing_the_loaded_review_walks_no_full_collection() -> None:
    # a full collection walks everything alive: on a 135,130-result scan, 0.53 s on the event
    # loop as the review finished loading, for 2,444 objects of 1.69 million
    collected: list[int] = []

    def seen(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collected.append(info["generation"])

    gc.callbacks.append(seen)
    try:
        startup.loaded()
    finally:
        gc.callbacks.remove(seen)
        startup.closed()
    assert collected and 2 not in collected


def test_older_generations_wait_for_a_rest_or_too_many_young_collections() -> None:
    thresholds = gc.get_threshold()
    startup.loaded()
    try:
        assert gc.get_threshold() == (startup.YOUNG_THRESHOLD, startup.NEVER, startup.NEVER)
        startup.input_seen(100.0)
        young_collections(3)
        assert startup.rest(100.1) is None  # a key a moment ago: nothing runs
        assert gc.get_count()[1] == 3
        assert startup.rest(100.01 + startup.REST) == "middle"  # at rest
        assert gc.get_count()[1] == 0
        young_collections(startup.MAX_YOUNG)
        assert startup.rest(100.5) == "middle"  # held keys: not put off for ever
        ran = []
        for _ in range(startup.MIDDLE_PER_FULL + 1):  # rests: middle ones, then a full one
            young_collections(1)
            ran.append(startup.rest(200.0))
            if ran[-1] == "full":
                break
        assert ran[-1] == "full" and set(ran[:-1]) == {"middle"}
        assert gc.get_count()[2] == 0
    finally:
        startup.closed()
    assert gc.get_threshold() == thresholds
    assert startup.rest(300.0) is None  # not loaded: the collector's own thresholds


async def test_the_app_collects_the_older_generations_when_the_reviewer_rests(
    tmp_path: Path,
) -> None:
    app = make_demo_app(tmp_path, reviewer="gc", keymap=load_keymap(user=False))
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            screen = app.screen
            assert isinstance(screen, ReviewScreen)
            await screen.settle()
            for _ in range(50):
                await pilot.pause(0.02)
                if gc.get_freeze_count():
                    break
            assert gc.get_threshold()[1] == startup.NEVER
            for _ in range(5):
                await pilot.press("n")
            young_collections(5)
            assert gc.get_count()[1] >= 5  # keys pressed a moment ago: nothing older collected
            await pilot.pause(startup.REST + 0.4)  # the reviewer reads
            assert gc.get_count()[1] == 0
    finally:
        app.close()
