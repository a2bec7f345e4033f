"""Quotes that leave lines out with "..." or "…": verified when every part is in the cited file
as written, in order and close together (or inside the claimed lines), never otherwise; code
that is itself "..." is matched as it is. A real repository for each case."""

from __future__ import annotations

from pathlib import Path

import pytest
from evidencekit import make_repo

from evidence.anchoring import Anchorer
from evidence.anchoring.elided import elided_parts
from evidence.model import Anchor, Quote, Tier
from evidence.revision import Revision
from screens.widgets.source_lines import SourceMarks

HANDLER = "\n".join(
    [
        "def handler(request):",
        "    token = request.headers.get('auth')",
        "    if not token:",
        "        return deny()",
        *(f"    step_{n} = compute({n})" for n in range(20)),
        "    audit.log(token)",
        "    return allow(request)",
        "",
        "def stub(): ...",
        "const merged = { ...update, applied: true };",
    ]
)


def anchored(
    tmp_path: Path, text: str, claimed: tuple[int, int] | None, files: dict[str, str] | None = None
) -> Anchor:
    repo = tmp_path / "repo"
    if not repo.exists():
        make_repo(repo, files or {"app.py": HANDLER + "\n"})
    with Revision.open(repo) as revision:
        return Anchorer(revision).anchor(Quote(text, "app.py", claimed, 1, 1, "EL-CMP-x", 0))


def test_a_block_with_an_elided_middle_is_verified_with_the_lines_it_leaves_out(
    tmp_path: Path,
) -> None:
    quote = (
        "def handler(request):\n"
        "    token = request.headers.get('auth')\n"
        "    ...\n"
        "    audit.log(token)\n"
        "    return allow(request)"
    )
    anchor = anchored(tmp_path, quote, (1, 26))
    assert (anchor.match, anchor.lines, anchor.range_ok) == (Tier.NORMALIZED, (1, 26), True)
    assert anchor.left_out == ((3, 24),)  # not marked as matched in the gutter
    assert SourceMarks(anchor.lines, left_out=anchor.left_out).mark(3) == ""
    assert SourceMarks(anchor.lines, left_out=anchor.left_out).mark(25) == "matched"
    assert anchor.notes == (
        "elided: “...” leaves out lines 3-24; each of its 2 parts is in the file as written, "
        "in order",
    )


@pytest.mark.parametrize(
    ("quote", "lines"),
    [
        ("if not token: ... return deny()", (3, 4)),  # inline, nothing left out between
        ("    token = request.headers.get('auth')\n    …\n    return allow(request)", (2, 26)),
        ("def handler(request):\n    # ...\n    return allow(request)", (1, 26)),
        ("...\n    audit.log(token)\n    return allow(request)", (25, 26)),  # leading elision
        ("    token = request.headers.get(…", (2, 2)),  # a line cut short
        ("    …request.headers.get('auth')\n    if not token:", (2, 3)),  # its start left out
        ("def handler(request):\n    token = request.hea...\n    if not token:", (1, 3)),
    ],
)
def test_elision_forms(tmp_path: Path, quote: str, lines: tuple[int, int]) -> None:
    anchor = anchored(tmp_path, quote, None)
    assert (anchor.match, anchor.lines) == (Tier.NORMALIZED, lines)
    if "(…" in quote or "…r" in quote or "hea..." in quote:  # a line cut short, not a gap
        assert "leaves out the rest of a line it cut short" in anchor.notes[0]


@pytest.mark.parametrize(
    "quote",
    [
        "    return allow(request)\n    ...\n    token = request.headers.get('auth')",  # reversed
        "def handler(request):\n    ...\n    return permit(request)",  # a part misquoted
        "def handler(request):\n    ...\n    return deny(request)",
    ],
)
def test_parts_out_of_order_or_not_there_are_not_verified(tmp_path: Path, quote: str) -> None:
    assert not anchored(tmp_path, quote, None).match.verified


def test_parts_far_apart_need_a_claim_that_holds_them(tmp_path: Path) -> None:
    far = "\n".join(
        [
            "def start():",
            "    begin_session()",
            *(f"x_{n} = {n}" for n in range(500)),
            "finish_all()",
        ]
    )
    quote = "def start():\n    begin_session()\n...\nfinish_all()"
    files = {"app.py": far + "\n"}
    assert not anchored(tmp_path, quote, None, files).match.verified
    anchor = anchored(tmp_path, quote, (1, 503), files)
    assert (anchor.match, anchor.lines, anchor.range_ok) == (Tier.NORMALIZED, (1, 503), True)


def test_the_run_inside_the_claim_is_chosen(tmp_path: Path) -> None:
    block = [
        "def check(user):",
        "    validate(user)",
        "    log_attempt(user)",
        "    return ok(user)",
    ]
    files = {"app.py": "\n".join([*block, "", *block]) + "\n"}  # the same function twice
    quote = "def check(user):\n    ...\n    return ok(user)"
    anchor = anchored(tmp_path, quote, (6, 9), files)
    assert (anchor.lines, anchor.range_ok) == ((6, 9), True)


def test_code_that_is_itself_an_ellipsis_is_matched_as_it_is(tmp_path: Path) -> None:
    assert anchored(tmp_path, "def stub(): ...", (28, 28)).match is Tier.EXACT
    spread = anchored(tmp_path, "const merged = { ...update, applied: true };", (29, 29))
    assert (spread.match, spread.notes) == (Tier.EXACT, ())


@pytest.mark.parametrize(
    ("quote", "lines"),
    [
        ("    token = request.headers.get(...)\n    if not token:", (2, 3)),
        ("    if not token:\n        return deny(…)\n    step_0 = compute(0)", (3, 5)),
        ("    audit.log( ... )\n    return allow(request)", (25, 26)),
    ],
)
def test_what_brackets_hold_can_be_left_out(
    tmp_path: Path, quote: str, lines: tuple[int, int]
) -> None:
    """A writer's "f(...)": what the call takes left out, the rest in the file as written."""
    anchor = anchored(tmp_path, quote, lines)
    assert (anchor.match, anchor.lines, anchor.range_ok) == (Tier.NORMALIZED, lines, True)
    assert anchor.notes[0].startswith("elided: “...” leaves out what brackets hold; each of its")


def test_a_bracketed_elision_around_a_misquote_is_not_verified(tmp_path: Path) -> None:
    assert not anchored(tmp_path, "    token = request.cookies.get(...)", None).match.verified
    assert not anchored(tmp_path, "    return permit(...)\n", None).match.verified
    assert elided_parts("deny(...)") is None  # too little around it to say where


def test_what_says_too_little_is_no_elided_quote() -> None:
    assert elided_parts("{\n...\n}") is None  # "{" and "}" could stitch anything
    assert elided_parts("...") is None
    assert elided_parts("return x ...") is None  # "..." at the end of a line: no part after
    assert elided_parts("x = compute(1) ... y = compute(2)") == ["x = compute(1)", "y = compute(2)"]


def test_an_elided_anchor_comes_back_from_the_cache_as_it_was_made(tmp_path: Path) -> None:
    from evidence.anchor_cache import CachingAnchorer

    make_repo(tmp_path / "repo", {"app.py": HANDLER + "\n"})
    text = "def handler(request):\n    ...\n    return allow(request)"
    quote = Quote(text, "app.py", (1, 26), 1, 1, "EL-CMP-x", 0)
    with Revision.open(tmp_path / "repo") as revision:
        made = CachingAnchorer(revision, directory=tmp_path / "anchors").anchor_many([quote])
        again = CachingAnchorer(revision, directory=tmp_path / "anchors")
        read = again.anchor_many([quote])
    assert again.hit and read == made and read[0].left_out == ((2, 25),)


def test_check_says_under_a_verified_elided_quote_what_it_left_out(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from tui.cli import cli

    commit = make_repo(tmp_path / "repo", {"app.py": HANDLER + "\n"})
    report = tmp_path / "el-runtime-report.txt"
    report.write_text(
        "El runtime report\n\nType: agentic-system-analyses/types/agentic-system-runtime-report.md"
        f"\n\nEvidence is SRC-1 at revision {commit}.\n\nShared records\n\nComponents\n\n"
        "EL-CMP-handler\n\nLabel: Handler\n\nThe handler:\n\n    def handler(request):\n"
        "        ...\n        return allow(request)\n\n--- app.py:1-26\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(cli, ["check", str(report), "--repo", str(tmp_path / "repo")])
    assert result.exit_code == 0, result.output
    assert (
        "✓ app.py:1-26  EL-CMP-handler  normalized\n"
        "    note: elided: “...” leaves out lines 2-25; each of its 2 parts is in the file as "
        "written, in order\n"
    ) in result.output
