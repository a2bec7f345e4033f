"""A quote whose line opens with the report's own sentence ("The gate reads: if not ..."): fuzzy,
not verified, at the lines of what follows the sentence, with a note naming it; a misquote of
the file's own words, or code before a colon, is left to the fuzzy tier as before. A real
repository for each case."""

from __future__ import annotations

from pathlib import Path

import pytest
from evidencekit import make_repo

from evidence.anchoring import Anchorer
from evidence.anchoring.lead_in import lead_ins
from evidence.model import Anchor, Quote, Tier
from evidence.revision import Revision

SOURCE = "\n".join(
    [
        "import hmac",  # 1
        "",
        "def require_token(request, scope):",
        "    header = request.headers.get('authorization', '')",
        "    if not header.startswith('Bearer '):",  # 5
        "        return None",
        "    for known, token in TOKENS.items():",
        "        if hmac.compare_digest(known, digest) and scope in token.scopes:",
        "            return token",
        "    return None",  # 10
        "",
        "# Retries: the limit is fixed at five attempts for every upstream call.",
        "MAX_ATTEMPTS = 5",
        "",
        "def again(request):",  # 15
        "    if not header.startswith('Bearer '):",
        "        return None",
    ]
)
LEAD = "The gate turns away a request without a bearer token, before anything else:"


def anchored(tmp_path: Path, text: str, claimed: tuple[int, int] | None = None) -> Anchor:
    repo = tmp_path / "repo"
    if not repo.exists():
        make_repo(repo, {"auth.py": SOURCE + "\n"})
    with Revision.open(repo) as revision:
        return Anchorer(revision).anchor(Quote(text, "auth.py", claimed, 1, 1, "LD-CMP-x", 0))


def test_a_lead_in_on_the_quotes_line_is_named_and_the_code_found(tmp_path: Path) -> None:
    quote = f"{LEAD} header = request.headers.get('authorization', '')"
    anchor = anchored(tmp_path, quote, (4, 4))
    assert (anchor.match, anchor.lines, anchor.range_ok) == (Tier.FUZZY, (4, 4), True)
    assert not anchor.verified  # the quote as written is not the source
    assert anchor.notes == (
        "lead-in: “The gate turns away a request … token, before anything else:” is not in the "
        "file (the report's own words?); the rest of the quote is, as written, at line 4",
    )
    removed = "".join(part.quote for part in anchor.diff if part.op == "delete")
    assert removed.split() == LEAD.split()  # the diff shows the sentence, and nothing else
    assert all(part.op in ("equal", "delete") for part in anchor.diff)


def test_the_rest_collapsed_or_in_several_places(tmp_path: Path) -> None:
    collapsed = "Both handlers return early: if not header.startswith('Bearer '): return None"
    anchor = anchored(tmp_path, collapsed, (16, 17))
    assert (anchor.match, anchor.lines, anchor.range_ok) == (Tier.FUZZY, (16, 17), True)
    assert anchor.notes[-1].endswith("the rest of the quote is, but for whitespace, at lines 16-17")
    assert [c.lines for c in anchor.candidates] == [(16, 17), (5, 6)]  # the other place listed
    unclaimed = anchored(tmp_path, collapsed)
    assert unclaimed.occurrences == ((5, 6), (16, 17))
    assert "several" not in " ".join(unclaimed.notes)  # the lead-in is the reason, not a guess


def test_a_long_lead_in_before_a_short_line_is_no_longer_missing(tmp_path: Path) -> None:
    lead = (
        "Every call to the archive is bounded by one constant at the top of the module, "
        "which no configuration can raise:"
    )
    before = anchored(tmp_path, "MAX_ATTEMPTS = 5 and some more words that are nowhere")
    assert before.match is Tier.MISSING  # what a short line after a long sentence was
    anchor = anchored(tmp_path, f"{lead} MAX_ATTEMPTS = 5")
    assert (anchor.match, anchor.lines) == (Tier.FUZZY, (13, 13))


@pytest.mark.parametrize(
    "quote",
    [
        # the file's own comment, misquoted: its words stand before the code
        "Retries: the limit is fixed at five attempts for all upstream calls. MAX_ATTEMPTS = 5",
        # code before the colon is no sentence
        "for known, token in TOKENS.items(): if hmac.compare_digest(known, digest)",
        # two words are no lead-in
        "Token check: if hmac.compare_digest(known, digest) and scope in token.scopes:",
    ],
)
def test_what_is_no_lead_in_is_matched_as_before(tmp_path: Path, quote: str) -> None:
    anchor = anchored(tmp_path, quote)
    assert not any(note.startswith("lead-in:") for note in anchor.notes)


def test_a_lead_in_before_a_misquote_finds_the_code_nearly(tmp_path: Path) -> None:
    quote = f"{LEAD} header = request.headers.get('authorisation', '')"
    anchor = anchored(tmp_path, quote)
    assert (anchor.match, anchor.lines) == (Tier.FUZZY, (4, 4))  # missing before
    assert anchor.notes[-1].endswith("the rest of the quote is, nearly (fuzzy 98), at line 4")
    changed = [(part.quote, part.source) for part in anchor.diff if part.op == "replace"]
    assert changed == [("s", "z")]


def test_lead_ins_reads_sentences_before_a_colon_only() -> None:
    assert lead_ins("The limit is set here: MAX_ATTEMPTS = 5") == [
        ("The limit is set here:", "MAX_ATTEMPTS = 5")
    ]
    assert lead_ins("the limit is set here: MAX_ATTEMPTS = 5") == []  # no sentence's capital
    assert lead_ins("The self.limit is set here: MAX_ATTEMPTS = 5") == []  # a name with a dot
    assert lead_ins("The limit is set here: x = 1") == []  # too little after it
    # the code's own colons after the lead-in are not lead-ins
    assert lead_ins("The mapping reads: value: int = settings.get('value')") == [
        ("The mapping reads:", "value: int = settings.get('value')")
    ]
