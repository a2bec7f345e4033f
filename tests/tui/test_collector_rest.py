"""The cycle collector once the review is loaded: young collections as usual, the older
generations collected while the reviewer rests (or after many young ones), never lost."""

from __future__ import annotations

import gc
from collections.abc import Callable
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


def collections_during(step: Callable[[], None]) -> list[int]:
    """The generations the collector walked while `step` ran."""
    collected: list[int] = []

    def seen(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collected.append(info["generation"])

    gc.callbacks.append(seen)
    try:
        step()
    finally:
        gc.callbacks.remove(seen)
    return collected


def test_freezing_the_loaded_review_walks_nothing() -> None:
    # a full collection walks everything alive: on a 135,130-result scan, 0.53 s on the event
    # loop as the review finished loading, for 2,444 objects of 1.69 million; then the middle
    # generation, all that loading made since the first frame: 0.13 s for 1,818
    try:
        assert collections_during(startup.loaded) == []
        assert gc.get_freeze_count() > 0
    finally:
        startup.closed()


def test_the_first_frame_freezes_the_launch_and_collects_young_objects_only() -> None:
    # resumed at the first frame, the collector's first collection walked every object the
    # launch made (0.46 s on the event loop for a 135,129-result scan), then two full ones
    # walked them again in the anchoring worker (0.35 s each)
    thresholds = gc.get_threshold()
    startup.pause()
    try:
        assert collections_during(startup.started) == []
        assert gc.isenabled() and gc.get_freeze_count() > 0
        assert gc.get_threshold() == (startup.YOUNG_THRESHOLD, startup.NEVER, startup.NEVER)
    finally:
        startup.closed()
        startup.release()
        gc.enable()
    assert gc.get_threshold() == thresholds and gc.get_freeze_count() == 0


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
                if app.resting is not None:
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


async def test_a_review_that_never_loads_collects_the_older_generations_at_rest_too(
    tmp_path: Path,
) -> None:
    # the revision cannot be opened: no anchors ever arrive, and the collector, resumed over
    # young objects only at the first frame, would never walk the older generations again
    from evidence.reports.loading import load_reports
    from evidence.sample import SAMPLE_REPORTS, sample_repo
    from tui.factory import make_app

    repo = sample_repo()
    reports = load_reports([SAMPLE_REPORTS])
    app = make_app(reports, repo, "0" * 40, tmp_path / "v.db", "gc", load_keymap(user=False))
    app.SETTLED_AFTER = 0.3
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            for _ in range(100):
                await pilot.pause(0.02)
                if app.resting is not None:
                    break
            assert app.resting is not None
            assert isinstance(app.screen, ReviewScreen) and app.screen.state.revision is None
            young_collections(5)
            await pilot.pause(startup.REST + 0.4)
            assert gc.get_count()[1] == 0
    finally:
        app.close()


async def test_the_audit_app_pauses_the_collector_until_its_first_frame(tmp_path: Path) -> None:
    # reading an audit's reports and building its screen: a quarter of a 50-system audit's
    # first frame with counts went to collections (0.24 of 0.9 s)
    from tui.audit_app import make_demo_audit_app

    thresholds = gc.get_threshold()
    assert gc.isenabled()
    app = make_demo_audit_app(tmp_path, reviewer="gc", keymap=load_keymap(user=False))
    try:
        assert not gc.isenabled()
        async with app.run_test(size=(120, 40)) as pilot:
            for _ in range(150):
                await pilot.pause(0.02)
                if gc.isenabled():
                    break
            assert gc.isenabled()  # resumed once the first frame is whole, over young objects
            assert gc.get_threshold() == (startup.YOUNG_THRESHOLD, startup.NEVER, startup.NEVER)
    finally:
        app.close()
    assert gc.isenabled() and gc.get_threshold() == thresholds


def test_an_app_closed_without_running_leaves_the_collector_as_it_was(tmp_path: Path) -> None:
    # `tui.app.run` closes the app even when it failed to start: no event loop then, and
    # timing the collector's settling raised RuntimeError ("no running event loop")
    thresholds = gc.get_threshold()
    app = make_demo_app(tmp_path, reviewer="gc", keymap=load_keymap(user=False))
    assert not gc.isenabled()
    app.close()
    assert gc.isenabled() and gc.get_threshold() == thresholds and gc.get_freeze_count() == 0
