"""Quote anchoring: tiers, lines, occurrences, claimed ranges, fuzzy diffs and elsewhere."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from evidencekit import git, make_repo
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evidence.anchoring import Anchorer, anchor_all, char_diff, normalize_quote
from evidence.anchoring.forms import FileView, quote_forms
from evidence.anchoring.fuzzy import find_fuzzy
from evidence.model import (
    Anchor,
    DiffPart,
    FileState,
    Kind,
    Quote,
    Record,
    Report,
    ReportSet,
    Tier,
)
from evidence.revision import Revision, SourceFile

SERVER = """\
// Server entry point
import { createServer } from 'node:http';

export function checkAuth(req, permission) {
  const token = req.headers['authorization'];
  if (!token) return false;
  return tokens.includes(token);
}

/**
 * Handles one chat request.
 * Never retries on failure.
 */
export async function handleChat(messages, model) {
  const reply = await client.complete({ messages, model, maxTokens: 1024 });
  return { reply: reply.text, usage: reply.usage };
}

function twice() {
  log.info(`started ${name}`);
  return retry(3);
}
function again() {
  log.info(`started ${name}`);
  return retry(3);
}
"""

LIMITS = """\
def first_limit(settings):
    limit = settings.max_items or 100
    return clamp(limit)


def second_limit(settings):
    limit = settings.max_items or 200
    return clamp(limit)
"""

DOC = """\
# Operations

- Restart the worker with `make restart` after editing **config.yaml**.
- Never edit the ledger by hand.
"""


@pytest.fixture(scope="module")
def revision(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Revision]:
    root = tmp_path_factory.mktemp("anchoring") / "repo"
    make_repo(
        root,
        {
            "src/server.js": SERVER,
            "src/limits.py": LIMITS,
            "docs/ops.md": DOC,
            "src/copy.js": "// a copy\n" + SERVER.split("\n\n")[1] + "\n",
            "assets/logo.png": b"\x89PNG\r\n\x1a\n\x00\x00binary",
        },
    )
    (root / "lib").mkdir()
    (root / "lib/server.js").symlink_to("../src/server.js")
    git(root, "add", "lib/server.js")
    git(root, "commit", "-q", "-m", "link")
    with Revision.open(root) as opened:
        yield opened


@pytest.fixture(scope="module")
def anchorer(revision: Revision) -> Anchorer:
    return Anchorer(revision)


def quote(text: str, path: str = "src/server.js", claimed: tuple[int, int] | None = None) -> Quote:
    return Quote(
        text=text,
        path=path,
        claimed=claimed,
        report_line=10,
        text_line=9,
        record="RT-TEST",
        index=0,
    )


def test_exact_single_line(anchorer: Anchorer) -> None:
    anchor = anchorer.anchor(quote("const token = req.headers['authorization'];"))
    assert anchor.file is FileState.OK
    assert anchor.match is Tier.EXACT
    assert anchor.score == 100
    assert anchor.lines == (5, 5)
    assert anchor.occurrences == ((5, 5),)
    assert anchor.range_ok is None
    assert anchor.elsewhere == ()
    assert not anchor.failing


def test_exact_multi_line_with_source_indentation(anchorer: Anchorer) -> None:
    anchor = anchorer.anchor(
        quote("  if (!token) return false;\n  return tokens.includes(token);\n")
    )
    assert (anchor.match, anchor.lines) == (Tier.EXACT, (6, 7))


def test_whitespace_collapsed(anchorer: Anchorer) -> None:
    text = (
        "export function checkAuth(req, permission) { const token = req.headers['authorization'];"
    )
    anchor = anchorer.anchor(quote(text))
    assert (anchor.match, anchor.lines) == (Tier.WHITESPACE, (4, 5))
    assert anchor.verified


def test_whitespace_is_not_removed_where_the_source_has_none(anchorer: Anchorer) -> None:
    anchor = anchorer.anchor(quote("const token = req.headers[ 'authorization' ];"))
    assert anchor.match is Tier.FUZZY


def test_normalized_lost_backticks_two_occurrences(anchorer: Anchorer) -> None:
    anchor = anchorer.anchor(quote("log.info(started ${name}); return retry(3);"))
    assert anchor.match is Tier.NORMALIZED
    assert anchor.occurrences == ((20, 21), (24, 25))
    assert anchor.lines == (20, 21)
    assert anchor.ambiguous
    assert not anchor.failing


def test_claimed_range_picks_the_occurrence(anchorer: Anchorer) -> None:
    text = "log.info(started ${name}); return retry(3);"
    second = anchorer.anchor(quote(text, claimed=(24, 25)))
    assert (second.lines, second.range_ok, second.ambiguous) == ((24, 25), True, False)
    wider = anchorer.anchor(quote(text, claimed=(23, 26)))
    assert (wider.lines, wider.range_ok) == ((24, 25), True)
    wrong = anchorer.anchor(quote(text, claimed=(2, 3)))
    assert wrong.range_ok is False
    assert wrong.failing


def test_normalized_bullets_for_comment_markers(anchorer: Anchorer) -> None:
    anchor = anchorer.anchor(quote("  • Handles one chat request.\n  • Never retries on failure."))
    assert (anchor.match, anchor.lines) == (Tier.NORMALIZED, (11, 12))
    collapsed = anchorer.anchor(quote("• Handles one chat request. • Never retries on failure."))
    assert (collapsed.match, collapsed.lines) == (Tier.NORMALIZED, (11, 12))


def test_normalized_typographic_quotes_and_markdown(anchorer: Anchorer) -> None:
    anchor = anchorer.anchor(quote("const token = req.headers[‘authorization’];"))
    assert (anchor.match, anchor.lines) == (Tier.NORMALIZED, (5, 5))
    doc = anchorer.anchor(
        quote("1. Restart the worker with make restart after editing config.yaml.", "docs/ops.md")
    )
    assert (doc.match, doc.lines) == (Tier.NORMALIZED, (3, 3))


def test_normalized_still_requires_operators(anchorer: Anchorer) -> None:
    anchor = anchorer.anchor(quote("if (token) return false;"))
    assert anchor.match is Tier.FUZZY
    assert anchor.lines == (6, 6)
    assert [p for p in anchor.diff if p.op != "equal"] == [DiffPart("insert", "", "!")]


def test_fuzzy_one_token_misquote_of_two_lines(anchorer: Anchorer) -> None:
    text = (
        "const reply = await client.complete({ messages, model, maxTokens: 2048 }); "
        "return { reply: reply.text, usage: reply.usage };"
    )
    anchor = anchorer.anchor(quote(text, claimed=(15, 16)))
    assert anchor.match is Tier.FUZZY
    assert anchor.lines == (15, 16)
    assert anchor.occurrences == ((15, 16),)
    assert 90 <= anchor.score < 100
    assert anchor.range_ok is True
    assert anchor.failing
    changed = [part for part in anchor.diff if part.op != "equal"]
    assert changed == [DiffPart("replace", "2048", "1024")]
    quote_side = "".join(part.quote for part in anchor.diff)
    source_side = "".join(part.source for part in anchor.diff)
    assert quote_side == text
    assert source_side == text.replace("2048", "1024")


def test_fuzzy_misquote_of_the_first_token_keeps_its_line(anchorer: Anchorer) -> None:
    text = (
        "export function checkAuthorization(req, permission) { "
        "const token = req.headers['authorization'];"
    )
    anchor = anchorer.anchor(quote(text))
    assert anchor.match is Tier.FUZZY
    assert anchor.lines == (4, 5)
    assert [p for p in anchor.diff if p.op != "equal"] == [DiffPart("delete", "orization", "")]


def test_fuzzy_misquote_of_the_last_token_keeps_its_line(anchorer: Anchorer) -> None:
    text = "if (!token) return false; return tokens.includes(token) && ok;"
    anchor = anchorer.anchor(quote(text))
    assert anchor.match is Tier.FUZZY
    assert anchor.lines == (6, 7)


def test_close_fuzzy_candidates_are_both_listed(anchorer: Anchorer) -> None:
    anchor = anchorer.anchor(quote("limit = settings.max_items or 300", "src/limits.py"))
    assert anchor.match is Tier.FUZZY
    assert anchor.occurrences == ((2, 2), (7, 7))
    assert sorted(c.lines for c in anchor.candidates) == [(2, 2), (7, 7)]
    claimed = anchorer.anchor(quote("limit = settings.max_items or 300", "src/limits.py", (7, 7)))
    assert claimed.lines == (7, 7)
    assert claimed.range_ok is True
    assert [p for p in claimed.diff if p.op != "equal"] == [DiffPart("replace", "3", "2")]


def test_below_the_floor_is_missing(anchorer: Anchorer) -> None:
    anchor = anchorer.anchor(quote("const answer = computeEverything(universe, 42);"))
    assert anchor.match is Tier.MISSING
    assert anchor.score == 0
    assert anchor.lines is None
    assert anchor.occurrences == ()
    assert anchor.failing


def test_misattributed_quote_is_found_elsewhere(anchorer: Anchorer) -> None:
    anchor = anchorer.anchor(
        quote("limit = settings.max_items or 200 return clamp(limit)", "src/server.js")
    )
    assert anchor.file is FileState.OK
    assert anchor.match is Tier.MISSING
    assert [(e.path, e.lines, e.match) for e in anchor.elsewhere] == [
        ("src/limits.py", (7, 8), Tier.WHITESPACE)
    ]


def test_missing_file_lists_every_place_it_occurs(anchorer: Anchorer) -> None:
    anchor = anchorer.anchor(quote("return tokens.includes(token);", "src/gone.js", (7, 7)))
    assert anchor.file is FileState.MISSING
    assert anchor.match is Tier.MISSING
    assert anchor.range_ok is False
    # symlinks are not indexed: the target is listed once, under its own path
    assert [(e.path, e.lines, e.match) for e in anchor.elsewhere] == [
        ("src/copy.js", (5, 5), Tier.EXACT),
        ("src/server.js", (7, 7), Tier.EXACT),
    ]


def test_fuzzy_in_the_cited_file_still_looks_for_a_verbatim_copy(anchorer: Anchorer) -> None:
    anchor = anchorer.anchor(quote("limit = settings.max_items or 100", "src/limits.py", (7, 7)))
    assert anchor.match is Tier.EXACT and anchor.lines == (2, 2) and anchor.range_ok is False
    misquoted = anchorer.anchor(quote("const token = req.headers['authorisation'];", "src/copy.js"))
    assert misquoted.match is Tier.FUZZY
    assert misquoted.elsewhere == ()


def test_misattributed_and_misquoted_is_found_fuzzily(anchorer: Anchorer) -> None:
    anchor = anchorer.anchor(quote("def second_limit(settings): limit = settings.max_items or 250"))
    assert anchor.match is Tier.MISSING
    assert [(e.path, e.lines, e.match) for e in anchor.elsewhere][:1] == [
        ("src/limits.py", (6, 7), Tier.FUZZY)
    ]


def test_binary_and_symlinked_files(anchorer: Anchorer) -> None:
    binary = anchorer.anchor(quote("PNG", "assets/logo.png"))
    assert binary.file is FileState.BINARY and binary.match is Tier.MISSING
    linked = anchorer.anchor(quote("return tokens.includes(token);", "lib/server.js"))
    assert (linked.file, linked.match, linked.lines) == (FileState.OK, Tier.EXACT, (7, 7))
    assert any("symlink" in note for note in linked.notes)


def test_empty_quote_is_missing_with_a_note(anchorer: Anchorer) -> None:
    anchor = anchorer.anchor(quote("   \n  "))
    assert anchor.match is Tier.MISSING
    assert "the quote is empty" in anchor.notes


def test_normalize_quote() -> None:
    assert normalize_quote("  • a  `b`\n  - **c** “d” ‘e’…") == "a b c \"d\" 'e'..."
    assert normalize_quote("x - y\n* z") == "x - y z"


def test_char_diff_round_trips() -> None:
    parts = char_diff(["a", "bb", "c"], ["a", "bx", "c", "d"])
    assert "".join(p.quote for p in parts) == "a bb c"
    assert "".join(p.source for p in parts) == "a bx c d"
    assert [p.op for p in parts] == ["equal", "replace", "equal", "insert"]


LINES = SERVER.split("\n")[:-1]


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.integers(0, len(LINES) - 1), st.integers(0, 4))
def test_any_excerpt_is_anchored_on_its_lines(anchorer: Anchorer, first: int, extra: int) -> None:
    last = min(len(LINES) - 1, first + extra)
    excerpt = "\n".join(LINES[first : last + 1])
    if not excerpt.strip():
        return
    # trim to the first/last non-blank line, as a report would
    block = LINES[first : last + 1]
    while not block[0].strip():
        block, first = block[1:], first + 1
    while not block[-1].strip():
        block, last = block[:-1], last - 1
    claimed = (first + 1, last + 1)
    exact = anchorer.anchor(quote("\n".join(block), claimed=claimed))
    assert exact.match is Tier.EXACT
    assert claimed in exact.occurrences
    assert exact.range_ok is True
    collapsed = anchorer.anchor(quote(" ".join(" ".join(block).split()), claimed=claimed))
    assert collapsed.match in (Tier.EXACT, Tier.WHITESPACE)
    assert collapsed.lines == claimed


def _reportset(quotes: list[Quote]) -> ReportSet:
    record = Record(
        id="RT-TEST",
        kind=Kind.CLAIM,
        label="test",
        body="",
        report="r.txt",
        section="Claims",
        lines=(1, 20),
        quotes=tuple(quotes),
    )
    report = Report(file="r.txt", title="T report", type_line="", system="T", records=(record,))
    return ReportSet((report,))


def test_anchor_all_reports_progress_and_cancels(revision: Revision) -> None:
    quotes = [
        quote("return retry(3);"),
        quote("return tokens.includes(token);"),
        quote("nowhere at all in this file"),
    ]
    seen: list[tuple[int, int]] = []
    anchors = anchor_all(_reportset(quotes), revision, progress=lambda d, t: seen.append((d, t)))
    assert seen == [(1, 3), (2, 3), (3, 3)]
    assert [anchors[q].match for q in quotes] == [Tier.EXACT, Tier.EXACT, Tier.MISSING]
    assert all(isinstance(a, Anchor) for a in anchors.values())
    cancel = threading.Event()
    cancel.set()
    assert anchor_all(_reportset(quotes), revision, cancel=cancel) == {}


def test_anchoring_reads_the_revision_not_the_work_tree(tmp_path: Path) -> None:
    root = tmp_path / "wt"
    make_repo(root, {"a.py": "x = compute(1)\n"})
    (root / "a.py").write_text("x = compute(2)\n", encoding="utf-8")
    with Revision.open(root) as rev:
        anchor = Anchorer(rev).anchor(quote("x = compute(1)", "a.py"))
        assert (anchor.match, anchor.lines) == (Tier.EXACT, (1, 1))


def test_anchor_many_agrees_with_anchor(revision: Revision) -> None:
    texts = [
        ("return tokens.includes(token);", "src/gone.js"),
        ("limit = settings.max_items or 200 return clamp(limit)", "src/server.js"),
        ("def second_limit(settings): limit = settings.max_items or 250", "src/server.js"),
        ("log.info(started ${name}); return retry(3);", "src/server.js"),
        ("limit = settings.max_items or 300", "src/limits.py"),
        ("nowhere at all in this repository", "src/server.js"),
    ]
    quotes = [quote(text, path) for text, path in texts] * 40  # enough to stream the files
    one_by_one = [Anchorer(revision).anchor(q) for q in quotes[: len(texts)]]
    seen: list[tuple[int, int]] = []
    batch = Anchorer(revision).anchor_many(quotes, progress=lambda d, t: seen.append((d, t)))
    assert batch[: len(texts)] == one_by_one
    assert batch[len(texts) :] == one_by_one * 39
    assert seen[-1] == (len(quotes), len(quotes))
    assert [a.elsewhere != () for a in one_by_one] == [True, True, True, False, False, False]


def test_anchor_many_pauses_the_cycle_collector_and_leaves_it_as_it_was(
    revision: Revision,
) -> None:
    import gc

    quotes = [quote("return tokens.includes(token);", "src/gone.js")] * 3
    collecting: list[bool] = []
    anchorer = Anchorer(revision, workers=1)
    assert gc.isenabled()
    anchorer.anchor_many(quotes, progress=lambda d, t: collecting.append(gc.isenabled()))
    assert collecting and not any(collecting)
    assert gc.isenabled()
    gc.disable()  # paused by someone else (the app's start): still paused afterwards
    try:
        anchorer.anchor_many(quotes)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_anchor_many_cancelled_while_streaming_returns_the_anchors_done_in_order(
    revision: Revision,
) -> None:
    texts = [
        ("limit = settings.max_items or 300", "src/limits.py"),  # its file comes first
        ("limit = settings.max_items or 200 return clamp(limit)", "src/server.js"),
        ("return tokens.includes(token);", "src/gone.js"),
    ]
    quotes = [quote(text, path) for text, path in texts] * 80  # enough to stream the files
    whole = Anchorer(revision, workers=1).anchor_many(quotes)
    cancel = threading.Event()
    # cancelled once the first file's quotes are anchored: the second file is never read
    done = Anchorer(revision, workers=1).anchor_many(
        quotes, cancel=cancel, progress=lambda d, t: cancel.set()
    )
    assert done == whole[: len(done)]
    assert len(done) == 1  # the first quote only: the second cites the file not read


def test_fuzzy_finds_a_misquote_whose_long_words_are_everywhere_in_the_file() -> None:

    filler = "  const lumrenfen = await nistamda.jululyar(margripe, 7);\n" * 60
    passage = "  const agentAgent = await nistamda.jululyar(margripe, 2345);\n"
    text = filler + passage + filler
    quote = "const agentAgent = await nistamda.jululyar(margripe, 3456);"
    found = find_fuzzy(quote_forms(quote), FileView(text), 80)
    assert found and found[0].lines == (61, 61)


def test_fuzzy_passage_does_not_take_a_brace_from_the_line_before() -> None:

    text = (
        "  for (const item of items) {\n  }\n  }\n"
        "  const yarselGlaorp = await volonor.horvogla(escalate, 30);\n}\n"
    )
    quote = "} const yarselGlaorp = await volonor.horvogla(escalate, 1141); }"
    found = find_fuzzy(quote_forms(quote), FileView(text), 80)
    assert found and found[0].lines == (3, 5)


def test_a_view_cache_smaller_than_the_files_gives_the_same_anchors(revision: Revision) -> None:
    quotes = [
        quote("return tokens.includes(token);"),
        quote("limit = settings.max_items or 200", "src/limits.py"),
        quote("Restart the worker with make restart after editing config.yaml.", "docs/ops.md"),
        quote("export function checkAuth(req, permission) {", "src/copy.js"),
        quote("return tokens.includes(token);"),
    ]
    roomy = [Anchorer(revision).anchor(q) for q in quotes]
    one_file = Anchorer(revision, view_cache_chars=len(SERVER))  # views dropped as files change
    nothing = Anchorer(revision, view_cache_chars=0)  # no file is small enough to keep
    assert [one_file.anchor(q) for q in quotes] == roomy
    assert [nothing.anchor(q) for q in quotes] == roomy


@given(st.text(alphabet="ab \r\n", max_size=40))
def test_a_files_lines_counted_once_as_a_source_file_splits_them(text: str) -> None:
    # a located SARIF region is checked against these (kept per file, not split per result)
    lines = SourceFile("f", FileState.OK, text).lines
    view = FileView(text)
    assert view.line_count == len(lines)
    assert [view.line_width(n) for n in range(1, len(lines) + 1)] == [len(x) for x in lines]


def test_lf_lines_of_a_quote_are_exact_in_a_file_of_crlf_lines(tmp_path: Path) -> None:
    """A file committed from Windows ends its lines in CRLF; a report's quote of them has LF
    lines: the same text, so `exact`, not `whitespace`."""
    repo = tmp_path / "repo"
    make_repo(
        repo, {"a.py": "import os\r\n\r\ndef load(path):\r\n    return open(path).read()\r\n"}
    )
    with Revision.open(repo) as revision:
        anchorer = Anchorer(revision)
        both = Quote("def load(path):\n    return open(path).read()", "a.py", (3, 4), 1, 1, "X", 0)
        anchor = anchorer.anchor(both)
        assert (anchor.match, anchor.lines, anchor.range_ok) == (Tier.EXACT, (3, 4), True)
        spaced = Quote("def load(path):\n  return open(path).read()", "a.py", (3, 4), 1, 1, "X", 0)
        assert anchorer.anchor(spaced).match is Tier.WHITESPACE
