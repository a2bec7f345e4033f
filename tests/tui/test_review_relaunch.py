"""`assay review` keeps its anchors on disk (evidence/anchor_cache.py), as an audit's systems do:
a relaunch on the same quotes at the same commit anchors nothing again (a scan of 135,130
results anchored every one of them at each launch)."""

from __future__ import annotations

from pathlib import Path

import pytest

from evidence import anchor_cache
from evidence.cache_files import ANCHORS, user_cache
from evidence.sample import SAMPLE_REPORTS
from screens.review.screen import ReviewScreen
from tui.app import AssayApp
from tui.commands.review import _review_app


async def anchored(app: AssayApp) -> ReviewScreen:
    async with app.run_test(size=(120, 40)):
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await screen.settle()
        assert screen.session.anchored
    app.close()
    return screen


async def test_a_relaunched_review_takes_its_anchors_from_the_cache(
    tmp_path: Path, sample: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    args = ((str(SAMPLE_REPORTS),), str(sample), None, tmp_path / "v.sqlite3", "ann", None, None)
    first = await anchored(_review_app(*args))
    directory = user_cache(ANCHORS)
    assert directory == anchor_cache.default_directory()
    (entry,) = directory.glob("*.marshal")
    quotes = [quote for record in first.session.reportset.records() for quote in record.quotes]
    cached = anchor_cache.get(directory, entry.stem, quotes)
    assert cached is not None
    assert cached.anchors == [first.session.anchors[quote] for quote in quotes]

    # the entry is what a relaunch reads: doctored, it comes back
    doctored = [anchor._replace(notes=("from the cache",)) for anchor in cached.anchors]
    anchor_cache.put(directory, entry.stem, doctored, cached.citations)
    again = await anchored(_review_app(*args))
    assert {anchor.notes for anchor in again.session.anchors.values()} == {("from the cache",)}
