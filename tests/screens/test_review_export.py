"""Issue 14, point 8 in the app: `x` saves the md write-up of the review so far, and says where."""

from __future__ import annotations

from pathlib import Path

import pytest
from screenkit import opened, press, watch_notices

from db import ItemRef, VerdictStore
from db.check import demo_db_path
from keymaps import load_keymap
from tui.factory import make_demo_app


async def test_x_saves_the_writeup_with_the_verdicts_given(
    tmp_path: Path, sample: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    monkeypatch.chdir(out)
    app = make_demo_app(tmp_path, reviewer="r", keymap=load_keymap(user=False))
    seen = watch_notices(app)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, app)
        await press(pilot, screen, "r", "e")
        await pilot.press(*"clock source unclear", "ctrl+s")
        await press(pilot, screen, "x")
    notices = [notice.message for notice in seen]
    saved = list(out.glob("assay-writeup-*.md"))
    assert len(saved) == 1, notices
    text = saved[0].read_text(encoding="utf-8")
    assert "KS-RTE-ticket-escalation" in text and "refuted" in text
    assert "clock source unclear" in text
    assert any(f"write-up saved to ./{saved[0].name} (in {out})" in n for n in notices)


async def test_a_directory_that_cannot_be_written_says_so(
    tmp_path: Path, sample: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "readonly"
    out.mkdir()
    (out / "assay-writeup-Kestrel-802776d.md").mkdir()  # the name is taken by a directory
    monkeypatch.chdir(out)
    app = make_demo_app(tmp_path, reviewer="r", keymap=load_keymap(user=False))
    seen = watch_notices(app)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, app)
        await press(pilot, screen, "x")
    notices = [notice.message for notice in seen]
    assert any(n.startswith("write-up not saved") for n in notices), notices
    assert not list(out.glob(".*.tmp"))


async def test_the_writeup_holds_the_reports_reviewed_alone(
    tmp_path: Path, sample: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    # the database holds another system's review too (one database for every review, by default)
    other = ItemRef("Heron/agentic-system-runtime-report", "HR-CLM-upload-retries")
    with VerdictStore.open(demo_db_path(tmp_path)) as store:
        store.give(other, "refuted", note="Heron's finding, not Kestrel's", reviewer="r")
    app = make_demo_app(tmp_path, reviewer="r", keymap=load_keymap(user=False))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, app)
        await press(pilot, screen, "c", "x")
    [saved] = tmp_path.glob("assay-writeup-Kestrel-*.md")
    text = saved.read_text(encoding="utf-8")
    assert "## Kestrel/agentic-system-runtime-report" in text and "r: **confirmed**" in text
    assert "Heron" not in text and "HR-CLM" not in text
    assert "| records | 1 | 0 | 0 | 0 | 21 |" in text  # Kestrel's counts alone


async def test_x_never_overwrites_a_writeup_edited_since(
    tmp_path: Path, sample: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the write-up is the reviewer's deliverable: edited by hand after a first `x`, the next
    # `x` replaced it, the edits lost; a file `x` wrote and nobody touched is replaced as before
    out = tmp_path / "out"
    out.mkdir()
    monkeypatch.chdir(out)
    app = make_demo_app(tmp_path, reviewer="r", keymap=load_keymap(user=False))
    seen = watch_notices(app)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, app)
        await press(pilot, screen, "x")
        (saved,) = out.glob("assay-writeup-*.md")
        await press(pilot, screen, "r", "x")  # replaced: nobody edited it
        assert sorted(out.iterdir()) == [saved] and "refuted" in saved.read_text("utf-8")
        saved.write_text(saved.read_text("utf-8") + "\nMy conclusion: ship it.\n", "utf-8")
        await press(pilot, screen, "c", "x")
        kept = out / saved.name.replace(".md", ".edited-1.md")
        assert sorted(out.iterdir()) == sorted([saved, kept])
        assert "My conclusion: ship it." in kept.read_text("utf-8")
        assert "My conclusion" not in saved.read_text("utf-8")
        assert f"is kept as ./{kept.name}" in seen[-1].message
        await press(pilot, screen, "x")  # the new one is assay's again: replaced
        assert sorted(out.iterdir()) == sorted([saved, kept])
