"""The quote/source diff shown under the source view on `d`, for quotes not matched exactly."""

from __future__ import annotations

from collections.abc import Sequence

from textual.content import Content
from textual.widgets import Static

from evidence.model import Anchor, DiffPart, Elsewhere, Quote, Tier
from screens.quote_status import tier_symbol
from screens.safe import visible
from screens.widgets.badges import lines_text
from screens.widgets.truecolor import TruecolorOnly

LEGEND = "underlined red: only in the quote · underlined green: only in the source"
#: characters of unchanged text shown before each difference in the list of differences
CONTEXT = 16
#: differences listed one per line; more are counted
MAX_LISTED = 6


def _quoted(text: str) -> str:
    """A difference's text in visible quotes; an empty side reads as 'nothing'."""
    return f"«{visible(text, multiline=False)}»" if text else "nothing"


def differences(compared: Anchor | tuple[DiffPart, ...]) -> list[str]:
    """One line per difference, readable without colour: context, then quote versus source."""
    diff = compared.diff if isinstance(compared, Anchor) else compared
    listed: list[str] = []
    before = ""
    changed = [part for part in diff if part.op != "equal"]
    for number, part in enumerate(diff):
        if part.op == "equal":
            before = part.quote
            continue
        if len(listed) == MAX_LISTED:
            break
        context = visible(" ".join(before.split())[-CONTEXT:], multiline=False)
        where = "at the start" if number == 0 else f"after “…{context}”"
        listed.append(f"  {where}: quote {_quoted(part.quote)}, source {_quoted(part.source)}")
        before = ""
    if len(changed) > len(listed):
        listed.append(f"  … and {len(changed) - len(listed)} more")
    return listed


def diff_sides(
    diff: Sequence[DiffPart], labels: tuple[str, str], emphasis: str, separator: str
) -> tuple[Content, Content]:
    """A diff as two labelled lines, the quote's side and the source's, each part's text visible
    and what only one side has in ``emphasis`` (red on the quote's line, green on the source's)."""
    quote_side: list[Content] = [Content.styled(labels[0], "bold")]
    source_side: list[Content] = [Content.styled(labels[1], "bold")]
    for part in diff:
        if part.op == "equal":
            quote_side.append(Content(visible(part.quote, multiline=True)))
            source_side.append(Content(visible(part.source, multiline=True)))
            continue
        if part.quote:
            quote_side.append(
                Content.styled(visible(part.quote, multiline=True), f"{emphasis} $text-error")
            )
        if part.source:
            source_side.append(
                Content.styled(visible(part.source, multiline=True), f"{emphasis} $text-success")
            )
    return Content(separator).join(quote_side), Content(separator).join(source_side)


def quote_diff(
    quote: Quote | None,
    anchor: Anchor | None,
    *,
    place: Elsewhere | None = None,
    passage: str | None = None,
) -> Content:
    """The quote and the source side by side (one line each), differences underlined.

    ``passage``: the source text the quote is compared with (the lines of ``place``, a place
    found in another file, else of the anchor), to compare a quote found elsewhere and to say
    what normalizing undid.
    """
    if quote is None or anchor is None:
        return Content.styled("no quote to compare", "$text-muted")
    # here, not at the top: the review screen holds this pane from its first frame, and
    # explain loads rapidfuzz, which nothing needs until a quote is anchored
    from evidence.anchoring.explain import compare, normalized_away
    from evidence.anchoring.rendered import rescue_notes

    if place is None and anchor.elsewhere and not anchor.verified:
        place = anchor.elsewhere[0]  # compared with where it was found (once that file is read)
        passage = None
    diff = anchor.diff
    where = f"{visible(quote.path)}:{lines_text(anchor.lines)}"
    match = f"{tier_symbol(anchor)} {anchor.match.value} {anchor.score:.0f}"
    if place is not None:
        where = f"{visible(place.path)}:{lines_text(place.lines)}"
        match = f"not in {visible(quote.path)}; {place.match.value} match in another file"
        if passage is None:
            return Content.styled(f"reading {where}…", "$text-muted")
        diff = compare(quote.text, passage)
    header = Content.styled(f"[{quote.index + 1}] {match}  {where}", "$text-accent")
    normalized = (place.match if place is not None else anchor.match) is Tier.NORMALIZED
    taken_off = rescue_notes(anchor) if place is None else []  # what was taken off to find it
    explained = [
        Content.styled("  " + phrase, "$text-warning")
        for phrase in (
            taken_off or (normalized_away(quote.text, passage) if passage and normalized else ())
        )
    ]
    placed = _where_said(quote, anchor) if place is None else []
    if not any(part.op != "equal" for part in diff):
        if place is None and not anchor.match.verified:
            text = "the quote was not found in the source, nor in any other file of the revision"
            return Content.styled(text, "$text-muted")
        said = "the quote matches the source"
        if place is None and anchor.match is Tier.NORMALIZED and not explained:
            said += " once backticks, asterisks, list markers and quotes are made plain"
        elif explained:
            said += " once normalized; what differs:"
        else:
            said += " (" + ("exactly" if anchor.match is Tier.EXACT else "but for whitespace") + ")"
        said_lines = [header, Content.styled(said, "$text-muted"), *explained, *placed]
        return Content("\n").join(said_lines)
    quote_side, source_side = diff_sides(diff, ("quote   ", "source  "), "bold underline", "")
    lines = [
        header,
        quote_side,
        source_side,
        Content.styled(LEGEND, "$text-muted"),
        *(Content(line) for line in differences(diff)),
        *explained,
        *placed,
    ]
    candidates = [
        f"{lines_text(candidate.lines)} ({candidate.score:.0f})"
        for candidate in anchor.candidates[:5]
    ]
    if candidates and place is None:
        lines.append(Content.styled("other candidates: " + ", ".join(candidates), "$text-muted"))
    return Content("\n").join(lines)


def _where_said(quote: Quote, anchor: Anchor) -> list[Content]:
    """Why a quote found in its file is still flagged: not at the lines the report claims, or
    at several places with no range to choose one."""
    said = []
    if anchor.range_ok is False and quote.claimed is not None and anchor.lines is not None:
        said.append(
            f"at lines {lines_text(anchor.lines)}, not the {lines_text(quote.claimed)} "
            "the report claims"
        )
    if anchor.ambiguous:
        places = ", ".join(lines_text(lines) for lines in anchor.occurrences[:5])
        more = f" and {len(anchor.occurrences) - 5} more" if len(anchor.occurrences) > 5 else ""
        said.append(
            f"in {len(anchor.occurrences)} places (lines {places}{more}) and no range claimed "
            "to choose one"
        )
    return [Content.styled("  " + line, "$text-warning") for line in said]


class QuoteDiff(TruecolorOnly, Static):
    """The diff of one quote against the source it was matched to."""

    def show(
        self,
        quote: Quote | None,
        anchor: Anchor | None,
        *,
        place: Elsewhere | None = None,
        passage: str | None = None,
    ) -> None:
        """Compare ``quote`` with the source at its anchor, or at a place found in another file
        (a short message when there is none); ``passage``: that source's text."""
        self.update(quote_diff(quote, anchor, place=place, passage=passage))
