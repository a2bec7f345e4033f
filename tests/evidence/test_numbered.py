"""Quotes copied with their line numbers (cat -n, a gutter, grep -n): verified once the numbers
are taken off, the numbers choosing among the places when the marker claims no lines; lines of
code that start with numbers are matched as written. A real repository for each case."""

from __future__ import annotations

from pathlib import Path

import pytest
from evidencekit import make_repo

from evidence.anchoring import Anchorer
from evidence.anchoring.numbered import numbered
from evidence.model import Anchor, Quote, Tier
from evidence.revision import Revision

SOURCE = "\n".join(
    [
        "def handler(request):",
        "    token = request.headers.get('auth')",
        "    if not token:",
        "        return deny()",
        "",
        "    return allow(request)",
        "",
        "def again(request):",
        "    if not token:",
        "        return deny()",
    ]
)
DATA = "1 2 3\n4 5 6\n10 20 30\n"


def anchored(
    tmp_path: Path, text: str, claimed: tuple[int, int] | None, path: str = "app.py"
) -> Anchor:
    repo = tmp_path / "repo"
    if not repo.exists():
        make_repo(repo, {"app.py": SOURCE + "\n", "table.txt": DATA})
    with Revision.open(repo) as revision:
        return Anchorer(revision).anchor(Quote(text, path, claimed, 1, 1, "NU-CMP-x", 0))


@pytest.mark.parametrize(
    ("quote", "form"),
    [
        ("     3\t    if not token:\n     4\t        return deny()", "cat -n"),
        ("  3 |     if not token:\n  4 |         return deny()", "a gutter"),
        ("3│    if not token:\n4│        return deny()", "a gutter"),
        ("app.py:3:    if not token:\napp.py-4-        return deny()", "grep -n"),
        ("3     if not token:\n4         return deny()", "line numbers"),
        ("3:    if not token:\n4:        return deny()", "a number and a colon"),  # grep -n a.py
        ("3:     if not token:\n4:         return deny()", "a number and a colon"),  # a listing
    ],
)
def test_numbered_forms_are_verified_at_their_lines(tmp_path: Path, quote: str, form: str) -> None:
    anchor = anchored(tmp_path, quote, None)
    assert (anchor.match, anchor.lines, anchor.range_ok) == (Tier.NORMALIZED, (3, 4), None)
    assert anchor.notes == (f"numbered: line numbers 3-4 ({form}) taken off",)


def test_the_numbers_choose_among_places_and_a_wrong_claim_is_still_wrong(tmp_path: Path) -> None:
    quote = "  9 |     if not token:\n 10 |         return deny()"
    assert anchored(tmp_path, quote, None).lines == (9, 10)  # the second of two places
    claimed = anchored(tmp_path, quote, (1, 2))
    assert claimed.range_ok is False  # the marker's claim is judged as ever
    moved = anchored(tmp_path, "  20 |     return allow(request)", None)
    assert moved.lines == (6, 6)
    assert moved.notes == ("numbered: line number 20 (a gutter) taken off; the text is at line 6",)


def test_blank_lines_may_go_unnumbered(tmp_path: Path) -> None:
    quote = "3\t    if not token:\n4\t        return deny()\n\n6\t    return allow(request)"
    anchor = anchored(tmp_path, quote, None)
    assert (anchor.match, anchor.lines) == (Tier.NORMALIZED, (3, 6))


def test_lines_that_start_with_numbers_are_matched_as_written(tmp_path: Path) -> None:
    anchor = anchored(tmp_path, "1 2 3\n4 5 6", None, "table.txt")
    assert (anchor.match, anchor.lines, anchor.notes) == (Tier.EXACT, (1, 2), ())


@pytest.mark.parametrize(
    "text",
    [
        "3     if not token:",  # a number and spaces on one line: too little to say
        "3\tif x:\n5\treturn y",  # not counting up by one
        "3\tif x:\nreturn y",  # a line without a number
        "0\tif x:\n1\treturn y",  # no line 0
        "12:30 start\n12:31 stop",  # times of day, not line numbers
    ],
)
def test_what_is_not_numbered(text: str) -> None:
    assert numbered(text) is None


def test_a_numbered_misquote_is_not_verified(tmp_path: Path) -> None:
    assert not anchored(
        tmp_path, "3\t    if not token:\n4\t        return permit()", None
    ).match.verified
