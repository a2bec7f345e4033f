"""`t` on a quote not anchored at the cited revision (its file not there, or its text not in
it): the quote looked for at REV in a worker, as anchoring looks at the cited revision, and
shown where it is there; said when it is not there either. Before, `t` said only that the quote
had no drift."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from screenkit import index_of, press, settle, wait_until
from test_cited_drift_source import demo, title
from textual.pilot import Pilot

from screens.review.history import Location
from screens.review.screen import ReviewScreen


async def on_quote(pilot: Pilot[Any], app: Any, record_id: str, quote: int) -> ReviewScreen:
    from screenkit import reviewing

    await settle(pilot, reviewing(app))
    screen = reviewing(app)
    await screen.settle()
    screen.moves.reach(Location(index_of(screen, record_id), quote))
    await settle(pilot, screen)
    return screen


def under(screen: ReviewScreen) -> str:
    return str(screen.quote_info.render())


async def test_a_quote_whose_file_is_only_at_rev_is_shown_there(
    tmp_path: Path, sample: Path
) -> None:
    app = demo(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await on_quote(pilot, app, "KS-RTE-token-check", 0)
        view = screen.source_view
        assert view.message is not None and "does not exist at this revision" in view.message
        assert under(screen).endswith("t: look for it at 8df75ac")
        await press(pilot, screen, "t")
        said = "api/kestrel/permissions.py @8df75ac  not found when cited; here: exact"
        await wait_until(pilot, lambda: said in title(view), "the quote shown at REV")
        await settle(pilot, screen)
        assert view.marks.matched is not None
        first, last = view.marks.matched
        assert view.lines[first - 1].startswith("SCOPES = frozenset(")
        assert under(screen).endswith("+ at 8df75ac: exact, t: back")
        await press(pilot, screen, "t")  # the cited revision again: the file is not there
        assert "does not exist at this revision" in (view.message or "")
        assert under(screen).endswith("+ at 8df75ac: exact, t: see it")


async def test_a_quote_not_in_its_file_is_found_in_another_at_rev(
    tmp_path: Path, sample: Path
) -> None:
    app = demo(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await on_quote(pilot, app, "KS-OBJ-station-db", 1)
        view = screen.source_view
        await press(pilot, screen, "t")
        await wait_until(pilot, lambda: "api/kestrel/notes.py @8df75ac" in title(view), "shown")
        await settle(pilot, screen)
        assert "in another file" in title(view) and view.marks.matched is not None
        first, _ = view.marks.matched
        assert "MAX_NOTE_BYTES" in "\n".join(view.lines[first - 1 : first + 1])


async def test_a_quote_nowhere_at_rev_either_says_so(tmp_path: Path, sample: Path) -> None:
    app = demo(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await on_quote(pilot, app, "workflow:what-counts-as-delivered", 2)
        view = screen.source_view
        await press(pilot, screen, "t")
        said = "@8df75ac: the quote is not here either (nor at the cited revision)"
        await wait_until(pilot, lambda: view.message == said, "said")
        assert under(screen).endswith("not at 8df75ac either, t: back")


def test_a_verbatim_copy_in_another_file_is_shown_before_a_guess_in_its_own(
    tmp_path: Path,
) -> None:
    from screenkit import git

    from evidence.anchoring.anchorer import Anchorer
    from evidence.model import Quote
    from evidence.revision import Revision
    from screens.review.rev_quotes import RevQuotes

    body = [f"    total_{n} = compute_step({n}, weight={n * 7}, label='{n}')" for n in range(8)]
    guessed = [line.replace("compute_step", "compute_stage") for line in body]
    files = {"own.py": "\n".join(guessed) + "\n", "copy.py": "\n".join(body) + "\n"}
    root = tmp_path / "r"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    for name, text in files.items():
        (root / name).write_text(text)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "two files")
    head = git(root, "rev-parse", "HEAD")
    quote = Quote("\n".join(body[2:6]), "own.py", None, 0, 0, "", 0)
    with Revision.open(root, head) as revision:
        anchor = Anchorer(revision, workers=1).anchor(quote)
    assert anchor.match.value == "fuzzy" and anchor.lines is not None  # a guess in its own file
    looked = RevQuotes(None)  # type: ignore[arg-type]  # (no worker: the anchor is given)
    looked.anchors[quote] = anchor
    assert looked.place(quote) == ("copy.py", (3, 6), "exact in another file")
    looked.anchors[quote] = anchor._replace(elsewhere=())
    place = looked.place(quote)
    assert place is not None and place[:2] == ("own.py", anchor.lines)
    assert place[2].startswith("fuzzy ")
