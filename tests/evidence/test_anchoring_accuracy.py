"""The failure classes benchmarks/bench_accuracy.py found, each on a small real repository:
markers a quote keeps mid-line, short misquotes, the claimed range among near-equal passages,
loose fuzzy spans, and quotes of common words only cited under the wrong file."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from accuracykit import NESTED, accuracy_files
from evidencekit import make_repo

from evidence.anchoring import Anchorer, diff_markup
from evidence.model import DiffPart, Quote, Tier
from evidence.revision import Revision


@pytest.fixture(scope="module")
def anchorer(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Anchorer]:
    root = tmp_path_factory.mktemp("accuracy") / "repo"
    make_repo(root, accuracy_files())
    revision = Revision.open(root)
    yield Anchorer(revision)
    revision.close()


def quote(text: str, path: str, claimed: tuple[int, int] | None = None) -> Quote:
    return Quote(text, path, claimed, 10, 9, "RT-ACCURACY", 0)


def changes(anchor_diff: tuple[DiffPart, ...]) -> list[DiffPart]:
    return [part for part in anchor_diff if part.op != "equal"]


# --- normalization is symmetric ------------------------------------------------------------------


def test_a_list_marker_kept_mid_quote_is_normalized(anchorer: Anchorer) -> None:
    text = 'hooks: - target: "https://hooks.example.invalid/build" kinds: [push, tag]'
    anchor = anchorer.anchor(quote(text, "src/deploy.js"))
    assert (anchor.match, anchor.lines) == (Tier.NORMALIZED, (5, 7))


def test_a_markdown_list_with_bold_text_kept_markers_is_normalized(anchorer: Anchorer) -> None:
    text = (
        "Aim: Ship the ledger sync before the spring survey. - Offline replay — queued edits "
        "are replayed in order - Conflict notes — a second edit never overwrites the first"
    )
    anchor = anchorer.anchor(quote(text, "docs/plan.md", (3, 5)))
    assert (anchor.match, anchor.lines, anchor.range_ok) == (Tier.NORMALIZED, (3, 5), True)


def test_a_word_that_lost_an_asterisk_inside_it_is_normalized(anchorer: Anchorer) -> None:
    anchor = anchorer.anchor(quote("return spoolQueue.drain(file.budget2 + 1);", "src/deploy.js"))
    assert (anchor.match, anchor.lines) == (Tier.NORMALIZED, (11, 11))


def test_a_changed_marker_is_never_verified(anchorer: Anchorer) -> None:
    text = 'hooks: + target: "https://hooks.example.invalid/build" kinds: [push, tag]'
    anchor = anchorer.anchor(quote(text, "src/deploy.js"))
    assert not anchor.verified
    assert anchor.match is Tier.FUZZY and anchor.lines == (5, 7)


# --- short misquotes are fuzzy at their line ---------------------------------------------------


def test_a_short_one_token_misquote_is_fuzzy_at_its_line(anchorer: Anchorer) -> None:
    text = "const spoolqueue = new Spooler(file, file.limits ?? {});"
    anchor = anchorer.anchor(quote(text, "src/deploy.js"))
    assert (anchor.match, anchor.lines) == (Tier.FUZZY, (10, 10))
    assert changes(anchor.diff) == [DiffPart("replace", "q", "Q")]


def test_a_short_css_misquote_is_fuzzy_at_its_line(anchorer: Anchorer) -> None:
    anchor = anchorer.anchor(quote("margin: 0.6rem 1.5rem;", "web/style.css"))
    assert (anchor.match, anchor.lines) == (Tier.FUZZY, (2, 2))
    assert changes(anchor.diff) == [DiffPart("replace", "6", "4")]


def test_a_misquote_whose_only_rare_word_is_the_changed_one(anchorer: Anchorer) -> None:
    anchor = anchorer.anchor(quote("if reader._reader is True:", "lib/reader.py"))
    assert (anchor.match, anchor.lines) == (Tier.FUZZY, (41, 41))
    assert changes(anchor.diff) == [DiffPart("replace", "Tru", "Non")]


def test_a_one_token_misquote(anchorer: Anchorer) -> None:
    text = '"https://docs.example.invalid/guide/retry-polixy-table"'
    anchor = anchorer.anchor(quote(text, "lib/links.py", (2, 2)))
    assert (anchor.match, anchor.lines, anchor.range_ok) == (Tier.FUZZY, (2, 2), True)
    assert changes(anchor.diff) == [DiffPart("replace", "x", "c")]


def test_a_misquote_opening_with_a_lone_brace_and_a_changed_operator() -> None:
    from evidence.anchoring.forms import FileView, quote_forms
    from evidence.anchoring.fuzzy import find_fuzzy

    text = "    }\n    if (route === '/api/jobs' || route === '/api/runs') {\n      send(jobs);\n"
    found = find_fuzzy(
        quote_forms("} if (route !== '/api/jobs' || route === '/api/runs') {"),
        FileView(text),
        80,
        thorough=True,
    )
    assert found and found[0].lines == (1, 2)


def test_a_misquote_whose_changed_identifier_is_most_of_it(anchorer: Anchorer) -> None:
    anchor = anchorer.anchor(quote("    const compareTokns = (a, b) => {", "src/tokens.js"))
    assert (anchor.match, anchor.lines) == (Tier.FUZZY, (4, 4))
    assert changes(anchor.diff) == [DiffPart("insert", "", "e")]


# --- the claimed range among near-equal passages, and tight spans --------------------------------


def test_the_claimed_passage_wins_among_near_equal_ones(anchorer: Anchorer) -> None:
    text = 'store.put("alpha", 10) assert store.count("alpha") == 12'
    claimed = anchorer.anchor(quote(text, "tests/test_buckets.py", (8, 9)))
    assert (claimed.match, claimed.lines, claimed.range_ok) == (Tier.FUZZY, (8, 9), True)
    assert sorted(c.lines for c in claimed.candidates) == [(2, 3), (8, 9)]
    unclaimed = anchorer.anchor(quote(text, "tests/test_buckets.py"))
    assert unclaimed.occurrences == ((2, 3), (8, 9))


def test_a_misquote_of_a_line_repeated_a_dozen_times_lists_every_copy(
    anchorer: Anchorer,
) -> None:
    anchor = anchorer.anchor(quote("owner: The Widget def.", "lib/descriptors.py"))
    assert anchor.match is Tier.FUZZY
    assert anchor.occurrences == tuple((n * 19 + 6, n * 19 + 6) for n in range(12))
    # the source's side as the file has it: the backticks the report lost are shown
    assert diff_markup(anchor.diff) == "owner: The {+``+}Widget{+``+} [-def-]{+class+}."


def test_a_misquote_starting_with_a_word_of_the_line_before_keeps_its_first_line(
    anchorer: Anchorer,
) -> None:
    text = (
        '"sidepanel", (Color.parse(colors["foreground-darken-1"]) + tintting.with_shade(0.4)).hex, '
        ') colors["sidepanel-hover"] = get( "sidepanel-hover",'
    )
    anchor = anchorer.anchor(quote(text, "lib/palette.py"))
    assert (anchor.match, anchor.lines) == (Tier.FUZZY, (51, 55))
    assert changes(anchor.diff) == [DiffPart("delete", "t", "")]


def test_a_misquote_opening_with_the_sources_own_ellipsis_spans_its_line(
    anchorer: Anchorer,
) -> None:
    anchor = anchorer.anchor(
        quote("... >>> total(2, 3) 5 >>> total(twice(2), 4) 9", "lib/doctest_total.py")
    )
    assert (anchor.match, anchor.lines) == (Tier.FUZZY, (6, 10))
    assert changes(anchor.diff) == [DiffPart("replace", "9", "8")]


def test_a_claimed_line_whose_last_word_changed_is_not_stretched_to_the_next(
    anchorer: Anchorer,
) -> None:
    text = "# These helpers turn into methods of the Ledger def"
    anchor = anchorer.anchor(quote(text, "lib/iterators.py", (4, 4)))
    assert (anchor.match, anchor.lines, anchor.range_ok) == (Tier.FUZZY, (4, 4), True)
    assert changes(anchor.diff) == [DiffPart("replace", "def", "class")]


def test_a_misquote_among_more_alike_places_than_are_aligned_is_still_found(
    anchorer: Anchorer,
) -> None:
    text = "self.lastEvent = self.lastEvent[1] def startDDocument(self):"
    anchor = anchorer.anchor(quote(text, "lib/handlers.py"))
    assert (anchor.match, anchor.lines) == (Tier.FUZZY, (65, 67))
    assert changes(anchor.diff) == [DiffPart("delete", "D", "")]


def test_a_misquoted_row_is_placed_at_its_own_line_not_the_like_one_after(
    anchorer: Anchorer,
) -> None:
    text = '    { "kind": "instaLl", "group": "Core", "shown": true },'
    anchor = anchorer.anchor(quote(text, "conf/sections.json"))
    assert (anchor.match, anchor.lines) == (Tier.FUZZY, (12, 12))
    assert changes(anchor.diff) == [DiffPart("replace", "L", "l")]


def test_a_misquoted_block_is_placed_at_its_own_lines_not_the_like_block_after(
    anchorer: Anchorer,
) -> None:
    text = '"tshx": {\n  "exports": {\n    "./package.json": "./package.json",'
    anchor = anchorer.anchor(quote(text, "conf/manifest.json"))
    assert (anchor.match, anchor.lines) == (Tier.FUZZY, (3, 5))
    assert changes(anchor.diff) == [DiffPart("replace", "x", "y")]


def test_a_claimed_line_with_one_token_changed_wins_over_a_closer_reading_line_beside_it(
    anchorer: Anchorer,
) -> None:
    anchor = anchorer.anchor(quote('"jsxSingleQuote": true,', "conf/prettier.json", (4, 4)))
    assert (anchor.match, anchor.lines, anchor.range_ok) == (Tier.FUZZY, (4, 4), True)
    assert changes(anchor.diff) == [DiffPart("replace", "tru", "fals")]
    assert (3, 3) in [candidate.lines for candidate in anchor.candidates]


def test_a_misquote_whose_first_tokens_also_stand_a_line_before_keeps_its_lines(
    anchorer: Anchorer,
) -> None:
    anchor = anchorer.anchor(quote(">>> cursor Cursor(x=13, y=3) >>> -cursor", "lib/counter.py"))
    assert (anchor.match, anchor.lines) == (Tier.FUZZY, (11, 13))
    assert changes(anchor.diff) == [DiffPart("replace", "3", "2")]


def test_a_misquote_opening_with_two_of_the_sources_ellipses_spans_their_lines(
    anchorer: Anchorer,
) -> None:
    text = "... ... @cached ... def method(self, value): ... self.calls += 7 ... return value"
    anchor = anchorer.anchor(quote(text, "lib/cached.py"))
    assert (anchor.match, anchor.lines) == (Tier.FUZZY, (6, 10))


def test_a_short_misquote_whose_changed_word_is_most_of_it_is_fuzzy(anchorer: Anchorer) -> None:
    anchor = anchorer.anchor(quote('"preferxlobal": false,', "conf/package.json"))
    assert (anchor.match, anchor.lines) == (Tier.FUZZY, (3, 3))
    assert changes(anchor.diff) == [DiffPart("replace", "x", "G")]


def test_a_misquoted_row_whose_comment_the_next_row_repeats_is_placed_at_its_own_line(
    anchorer: Anchorer,
) -> None:
    text = '"esy[[A": (Pad.F1,),  # serial console.'
    anchor = anchorer.anchor(quote(text, "lib/pads.py"))
    assert (anchor.match, anchor.lines) == (Tier.FUZZY, (34, 34))
    assert changes(anchor.diff) == [DiffPart("replace", "y", "c")]
    # claimed with the next row: aligned in those two lines alone, the comment matched there
    claimed = anchorer.anchor(quote(text, "lib/pads.py", (34, 35)))
    assert (claimed.match, claimed.lines) == (Tier.FUZZY, (34, 34))
    assert changes(claimed.diff) == [DiffPart("replace", "y", "c")]


def test_a_misquote_of_deeply_indented_lines_is_placed_at_them(anchorer: Anchorer) -> None:
    anchor = anchorer.anchor(quote("if count < 0: offset += count", "lib/drain.py"))
    assert (anchor.match, anchor.lines) == (Tier.FUZZY, (9, 10))
    assert changes(anchor.diff) == [DiffPart("replace", "<", ">")]


def test_a_misquote_of_common_words_and_a_lost_backtick_is_fuzzy_at_its_lines(
    anchorer: Anchorer,
) -> None:
    text = (
        'meta_version: _Check[_MetaVVersion] = _Check() """:external:ref:core-record-meta-version'
    )
    anchor = anchorer.anchor(quote(text, "lib/record.py"))
    assert (anchor.match, anchor.lines) == (Tier.FUZZY, (98, 99))


def test_a_changed_last_flag_and_a_left_out_one_are_both_listed(anchorer: Anchorer) -> None:
    text = "region.moved(offset), offset, spacing, widget, z, False,"
    anchor = anchorer.anchor(quote(text, "lib/placement.py"))
    assert anchor.match is Tier.FUZZY
    assert {(4, 9), (4, 10)} <= set(anchor.occurrences)


def test_a_fuzzy_span_takes_no_line_before_it(anchorer: Anchorer) -> None:
    text = (
        "if value[1] in HEADER_STOPS: raise errors.BadHeader( "
        "\"expected a header but found '{}'\".format(value)) name, value = read_name(value)"
    )
    anchor = anchorer.anchor(quote(text, "lib/parser.py"))
    assert (anchor.match, anchor.lines) == (Tier.FUZZY, (3, 6))
    assert changes(anchor.diff) == [DiffPart("replace", "1", "0")]


def test_a_changed_last_token_keeps_its_line(anchorer: Anchorer) -> None:
    text = "# nothing left to settle once the batch is closed, so # stop here. yield"
    anchor = anchorer.anchor(quote(text, "lib/rounds.py", (3, 5)))
    assert (anchor.match, anchor.lines, anchor.range_ok) == (Tier.FUZZY, (3, 5), True)


def test_a_claimed_range_holding_the_quote_up_to_whitespace(anchorer: Anchorer) -> None:
    # verbatim on line 2, and up to whitespace on lines 3-4, which the report claims
    anchor = anchorer.anchor(quote("buffer.view, offset", "lib/wrapped.py", (3, 4)))
    assert (anchor.match, anchor.lines, anchor.range_ok) == (Tier.WHITESPACE, (3, 4), True)
    wrong = anchorer.anchor(quote("buffer.view, offset", "lib/wrapped.py", (1, 1)))
    assert wrong.range_ok is False
    assert set(wrong.occurrences) == {(2, 2), (3, 4)}


def test_an_indented_block_misquote_keeps_its_last_line(anchorer: Anchorer) -> None:
    # the quote collapses to far fewer characters than the indented lines hold: the window
    # aligned must still reach the last line
    text = "\n".join(line.rstrip() for line in NESTED.splitlines()[14:20])
    anchor = anchorer.anchor(quote(text.replace("'default': 0", "'default': 5"), "lib/prompt.py"))
    assert (anchor.match, anchor.lines) == (Tier.FUZZY, (15, 20))
    assert changes(anchor.diff) == [DiffPart("replace", "5", "0")]


def test_a_misquote_of_a_line_below_a_similar_one_is_placed_at_its_own(
    anchorer: Anchorer,
) -> None:
    anchor = anchorer.anchor(quote("arch = os.uname().macchine + '-64'", "lib/arch.py"))
    assert (anchor.match, anchor.lines) == (Tier.FUZZY, (5, 5))
    assert [part.op for part in changes(anchor.diff)] == ["delete"]


def test_a_short_misquote_keeps_the_closing_line_of_its_comment(anchorer: Anchorer) -> None:
    anchor = anchorer.anchor(quote("* a sybolic link. */", "src/walker.js"))
    assert (anchor.match, anchor.lines) == (Tier.FUZZY, (4, 5))


def test_a_claim_is_not_traded_for_a_similar_line_beside_it(anchorer: Anchorer) -> None:
    anchor = anchorer.anchor(quote('where the predicate is False. """', "lib/split.py", (6, 7)))
    assert (anchor.match, anchor.lines, anchor.range_ok) == (Tier.FUZZY, (6, 7), True)


def test_overlapping_places_are_occurrences_and_the_claimed_one_wins(anchorer: Anchorer) -> None:
    text = (
        "client.request({ path: '/', method: 'GET' }), client.request({ path: '/', method: 'GET' })"
    )
    anchor = anchorer.anchor(quote(text, "docs/requests.md", (3, 4)))
    assert (anchor.match, anchor.lines, anchor.range_ok) == (Tier.WHITESPACE, (3, 4), True)
    assert anchor.occurrences == ((2, 3), (3, 4))
    unclaimed = anchorer.anchor(quote(text, "docs/requests.md"))
    assert unclaimed.lines == (2, 3) and len(unclaimed.occurrences) == 2


def test_a_quote_with_typographic_quotes_is_found_verified_in_another_file(
    anchorer: Anchorer,
) -> None:
    text = "Perform [\u201cearly\u201d or \u201cpre\u201d](#phases) [variable"
    anchor = anchorer.anchor(quote(text, "lib/links.py"))
    assert anchor.match is Tier.MISSING
    assert [(e.path, e.lines, e.match) for e in anchor.elsewhere] == [
        ("docs/phases.md", (3, 3), Tier.EXACT)
    ]


def test_a_quote_joining_words_across_a_lost_backtick_is_found_verified_in_another_file(
    anchorer: Anchorer,
) -> None:
    text = "method: 'DELETE', })) this.sayRemoved the trusted setting for ${name} with id ${id}"
    assert anchorer.anchor(quote(text, "src/revoke.js")).match is Tier.NORMALIZED
    anchor = anchorer.anchor(quote(text, "lib/links.py"))
    assert anchor.match is Tier.MISSING
    assert [(e.path, e.lines, e.match) for e in anchor.elsewhere] == [
        ("src/revoke.js", (4, 6), Tier.NORMALIZED)
    ]


def test_a_quote_that_lost_two_asterisks_is_normalized(anchorer: Anchorer) -> None:
    text = (
        'print( f"pause={pause1000:.01f}ms taken={taken1000:.01f}ms off={(taken - pause):.02f}" )'
    )
    anchor = anchorer.anchor(quote(text, "lib/timing.py", (1, 3)))
    assert (anchor.match, anchor.lines, anchor.range_ok) == (Tier.NORMALIZED, (4, 6), False)


def test_a_quote_joining_words_into_one_another_file_holds_is_found_verified_elsewhere(
    anchorer: Anchorer,
) -> None:
    text = '"""Set once checked, or None when no checkers are given to the Fields constructor."""'
    anchor = anchorer.anchor(quote(text, "lib/links.py"))
    assert anchor.match is Tier.MISSING
    assert [(e.path, e.lines, e.match) for e in anchor.elsewhere] == [
        ("lib/field.py", (3, 3), Tier.NORMALIZED)
    ]


# --- a quote of common words only, cited under the wrong file ---------------------------------


def test_a_quote_of_common_words_only_is_found_elsewhere(anchorer: Anchorer) -> None:
    anchor = anchorer.anchor(quote("super().__init__(line)", "lib/parser.py"))
    assert anchor.match is Tier.MISSING
    assert [(e.path, e.lines, e.match) for e in anchor.elsewhere] == [
        ("lib/errors.py", (3, 3), Tier.EXACT)
    ]


# --- the line scan's collapsed text -------------------------------------------------------------


@pytest.mark.parametrize("nul", ["", "\x00"])
def test_the_flat_text_collapses_blanks_within_lines_only(nul: str) -> None:
    from evidence.anchoring.forms import FileView

    text = f"  a\t\tb  \n\n   *c*  d\n\x0b\ne {nul}f\n"
    flat, flat_starts, text_starts = FileView(text).flat
    assert flat == f"a b c d e {nul}f"
    assert flat_starts == [0, 4, 8]
    assert text_starts == [0, 10, 22]
