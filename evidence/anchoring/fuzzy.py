"""The fuzzy tier: the best approximate passages of a file, scoring at least a floor.

Only small windows are aligned, where several of the quote's longest words agree on where the
passage starts; each window is aligned token by token (align.py).
"""

from __future__ import annotations

import re
from bisect import bisect_right

from rapidfuzz import fuzz, process

from evidence.anchoring.align import Passage, align_window, token_edits
from evidence.anchoring.forms import FileView, QuoteForms
from evidence.anchoring.tiers import MAX_ELSEWHERE, spaced_find
from evidence.model import Elsewhere, LineRange, Tier

#: fuzzy matching aligns the quote with at most this many windows of a file
MAX_WINDOWS = 8
#: a quote longer than this (characters, normalized) is matched at the verified tiers only:
#: aligning it costs more than its length times itself
MAX_FUZZY_CHARS = 16_384
#: fuzzy matching looks at this many places of a word at most (more: a common word)
_PLACES = 30
#: the share of the quote's word characters a window must hold, verbatim, to be aligned
_PRESENT = 0.4
#: below this best score the thorough search also scores every line start
_SCAN_BELOW = 90.0
#: ... for quotes of at most this many tokens (the misquoted one may be most of the quote), or
#: longer ones whose file holds this share of their tokens, as a misquote's file does: scanning
#: for every quote cited under the wrong file would cost more than all the rest
_SCAN_FEW = 4
_SCAN_HELD = 0.55
#: how many of the best line starts it aligns (and copies of a good passage it lists)
_SCANNED = 8
#: how many verbatim copies of the best passage it lists at most
_COPIES = 100
#: the share of the quote's word characters a file must hold for its line starts to be scored
_SCAN_PRESENT = 0.3
# the pieces of words: camel-case and snake-case parts, three characters or more
_PIECE = re.compile(r"[A-Z]?[a-z]{2,}|[A-Z]{3,}|[a-z]{3,}|\d{3,}")
#: the line scan aligns this many characters more than the quote has (what a misquote drops)
_LONGER = 4
#: the line scan compares at most this many characters of the quote with each line start
SCAN_WIDTH = 512
#: ... and fewer on a file of many lines, down to this many, so that one quote's scan costs at
#: most SCAN_COST (line starts x width x 64-character blocks of the width, what the bit-parallel
#: ratio does); a file with too many lines for even that is not scanned (its words still are)
SCAN_MIN_WIDTH = 64
SCAN_COST = 48_000_000


def find_fuzzy(
    forms: QuoteForms, view: FileView, floor: float, *, thorough: bool = False
) -> list[Passage]:
    """Approximate passages around the rarest words of the quote, best first, above `floor`.

    `thorough` (the cited file): when nothing good is found, every line start is scored too
    (for a quote of a few tokens, or a file holding most of them), so that a quote whose rare word
    is the misquoted one is still placed; when something good is, its verbatim copies are
    listed beside it.
    """
    if not forms.tokens or len(forms.joined) > MAX_FUZZY_CHARS:
        return []
    passages, capped = _by_words(forms, view, floor)
    if thorough:
        best = max(passages.values(), key=lambda p: p.score, default=None)
        short = len(forms.tokens) <= _SCAN_FEW  # one changed token is much of it: look anyway
        # (capped: more places of its words agreed than were aligned; the true one may be left)
        poor = best is None or best.score < _SCAN_BELOW or (capped and best.score < 100)
        # (translated: the quote's tokens lost their backticks and asterisks too)
        if short or (poor and _holds_most(forms.tokens, view.translated)):
            _keep_best(passages, _by_lines(forms, view, floor))
        best = max(passages.values(), key=lambda p: p.score, default=None)
        if best is not None:  # its verbatim copies score the same (repeated code)
            _keep_best(passages, _copies(best, view))
    # (equal scores: as many tokens as the quote first; a changed last token reads as well as
    # a missing one, "9" for "8")
    size = len(forms.tokens)
    return sorted(
        passages.values(), key=lambda p: (-p.score, abs(len(p.source_tokens) - size), p.lines)
    )


def _keep_best(passages: dict[LineRange, Passage], found: list[Passage]) -> None:
    for passage in found:
        known = passages.get(passage.lines)
        if known is None or known.score < passage.score:
            passages[passage.lines] = passage


def _holds_most(tokens: tuple[str, ...], text: str) -> bool:
    """Does the text hold most of the quote's distinct tokens (by characters), or all of them
    but one (the misquoted one may be most of the quote: "compareIdentifers"), as the file of
    a misquote does and the file a quote was wrongly attributed to seldom does?"""
    distinct = sorted(set(tokens), key=len, reverse=True)
    # an absent token costs a scan of the whole file: stop once too many are absent (longest
    # first, so a file of another quote gives up after a few)
    allowed = (1 - _SCAN_HELD) * sum(map(len, distinct))
    absent = 0
    for token in distinct:
        if token not in text:
            allowed -= len(token)
            absent += 1
            if allowed < 0 and absent > 1:
                return False
    return True


def _copies(passage: Passage, view: FileView) -> list[Passage]:
    """The other passages of the file with the same source tokens as `passage`."""
    places = spaced_find(list(passage.source_tokens), view.translated, limit=_COPIES)
    spans = [view.translated_lines.span(*place) for place in places]
    first, last = passage.lines  # (it may hold an ellipsis next to its tokens too)
    return [
        Passage(span, passage.score, passage.source_tokens)
        for span in spans
        if span[1] < first or span[0] > last
    ]


def align_at(forms: QuoteForms, view: FileView, lines: LineRange) -> Passage | None:
    """The best passage at the given lines, or with one line of room on each side."""
    starts = view.line_starts
    if not forms.tokens or not 1 <= lines[0] <= len(starts):
        return None
    last = min(len(starts), lines[1])
    exact = align_window(forms, view, starts[lines[0] - 1], starts[last - 1])
    # with room (the claim may be a line short), unless similar lines around mislead it
    room = align_window(
        forms,
        view,
        starts[max(0, lines[0] - 2)],
        starts[min(len(starts), last + 1) - 1],
    )
    if room is not None and (room.lines[1] < lines[0] or room.lines[0] > last):
        room = None  # a similar line next to the claim, not the claim a line short
    if exact is None or room is None:
        return exact or room
    # the room must explain the quote with fewer token edits than the claimed lines: a changed
    # last word ("def" for "class") reads better with the same word on the next line added
    return room if token_edits(forms, room) < token_edits(forms, exact) else exact


def _by_lines(forms: QuoteForms, view: FileView, floor: float) -> list[Passage]:
    """The passages starting at the line starts whose text of the quote's length scores best."""
    quote = forms.joined
    # a file holding too few pieces of the quote's words has no passage scoring above the
    # floor (pieces, not words: the misquoted word may be most of the quote, "MAX_API_vERSION")
    pieces = set(_PIECE.findall(quote))
    if _present(pieces, view.text) < _SCAN_PRESENT * sum(map(len, pieces)):
        return []
    flat, flat_starts, text_starts = view.flat
    size = len(quote)
    # a long quote is told apart by its first characters: what follows is aligned below
    width = scan_width(size, len(flat_starts))
    if not width:
        return []
    choices = [flat[at : at + width] for at in flat_starts]
    found = process.extract(
        quote[:width],
        choices,
        scorer=fuzz.ratio,
        limit=_SCANNED,
        score_cutoff=max(0.0, floor - 20),
    )
    passages = []
    for _choice, _score, number in found:
        # a few characters more: the source may be longer than the misquote ("sybolic link. */"
        # for "symbolic link." and a "*/" line) and its last line would be cut off
        last = bisect_right(flat_starts, flat_starts[number] + size + _LONGER) - 1
        passage = align_window(forms, view, text_starts[number], text_starts[last])
        if (
            passage is not None
            and last > number
            and passage.lines[0] > view.lines.line(text_starts[number])
        ):
            # the next line alike drew the alignment away from the line the scan found (equal
            # but for the misquoted token, "list" for "install"): without it, if that reads better
            shorter = align_window(forms, view, text_starts[number], text_starts[last - 1])
            if shorter is not None and shorter.score > passage.score:
                passage = shorter
        if passage is not None and passage.score >= floor:
            passages.append(passage)
            passages.extend(other for other in passage.also if other.score >= floor)
    return passages


def scan_width(size: int, starts: int) -> int:
    """How many characters of a quote of `size` characters the line scan compares with each of
    `starts` line starts (0: none, the file has too many lines to scan)."""
    width = min(size, SCAN_WIDTH)
    while width > SCAN_MIN_WIDTH and starts * width * -(-width // 64) > SCAN_COST:
        width = max(SCAN_MIN_WIDTH, width * 3 // 4)
    return width if starts * width * -(-width // 64) <= SCAN_COST else 0


def _present(pieces: set[str], text: str) -> int:
    """How many characters of the pieces the text holds: a piece it lacks counts by the half
    it holds ("prefer" of a misquoted "preferxlobal", most of a short quote)."""
    held = 0
    for piece in pieces:
        if piece in text:
            held += len(piece)
        else:
            half = len(piece) // 2
            held += max((len(p) for p in (piece[:half], piece[half:]) if p in text), default=0)
    return held


def _by_words(
    forms: QuoteForms, view: FileView, floor: float
) -> tuple[dict[LineRange, Passage], bool]:
    """The passages aligned where the quote's words agree, and whether windows were left out."""
    text = view.text
    quote = forms.joined
    # where the longest words of the quote are (one scan each, at most 30 places kept): a
    # passage scoring above the floor keeps most of them, and they agree on where it starts
    found: list[tuple[int, int, list[int]]] = []
    for number, word in enumerate(forms.telltale):
        places: list[int] = []
        at = text.find(word)
        while at >= 0 and len(places) < _PLACES:
            places.append(at)
            at = text.find(word, at + len(word))
        if places:
            found.append((len(places), number, places))
    if len(found) < (2 if len(forms.telltale) >= 3 else 1):
        return {}, False
    # the words whose every place is known say where; a word too common to list them all
    # would hide the passage behind its first places, so it is used only when all are
    pool = [item for item in found if item[0] < _PLACES] or found
    need = 2 if len(pool) >= 2 else 1
    # (where the passage starts by this word, the word, its place, its offset in the quote)
    estimates: list[tuple[int, int, int, int]] = []
    for _count, number, places in sorted(pool)[:3]:
        in_quote = quote.find(forms.telltale[number])
        estimates.extend(
            (view.unindented(place) - in_quote, number, place, in_quote) for place in places
        )
    # (how many different words agree, their estimates)
    groups = _agreeing(sorted(estimates), spread=max(len(quote) // 2, 20))
    best = max(support for support, _ in groups)
    if best >= need:  # places where several words agree (and ones nearly as good)
        wanted = max(need, best - 1)
        groups = [item for item in groups if item[0] >= wanted]
    else:  # no two agree (one may be the misquoted word): the places of the rarest word
        _count, rarest, places = min(pool)
        in_quote = quote.find(forms.telltale[rarest])
        groups = [(1, [(place - in_quote, rarest, place, in_quote)]) for place in places]
    groups.sort(key=lambda item: (-item[0], -len(item[1])))
    passages: dict[LineRange, Passage] = {}
    # the window where the words put the start of the passage, with room for what a misquote
    # adds or drops; not much more, so that a copy nearby is aligned from its own window
    slack = max(40, len(quote) // 2)
    wanted_chars = sum(map(len, forms.words)) * _PRESENT
    counts = {number: count for count, number, _places in found}
    for _support, group in groups[:MAX_WINDOWS]:
        # sized in collapsed characters from the outermost words: an indented passage is
        # longer in the file than the quote, and a window of the quote's length cuts its ends
        _, _, place, in_quote = group[0]
        start = _collapsed_before(text, place, in_quote + slack)
        _, _, place, in_quote = group[-1]
        end = _collapsed_after(text, place, len(quote) - in_quote + slack)
        window = text[max(0, start) : end]
        # a passage scoring above the floor keeps a good part of the quote's words verbatim
        if sum(len(word) for word in forms.words if word in window) < wanted_chars:
            continue
        passage = align_window(forms, view, start, end)
        # the rarest word of the group says best where the passage is
        _, _, place, in_quote = min(group, key=lambda estimate: counts[estimate[1]])
        if passage is not None and passage.score < 100:
            # a similar line in the slack before drew the alignment away from where the
            # rarest word is ("+ '-32'" above "+ '-64'"): aligned again from where it puts it
            line = view.lines.line(place)
            if not passage.lines[0] <= line <= passage.lines[1]:
                # (at both ends: a like passage in the slack after draws it away just as well)
                start = _collapsed_before(text, place, in_quote)
                end = _collapsed_after(text, place, len(quote) - in_quote + _LONGER)
                tight = align_window(forms, view, start, end)
                if tight is not None and tight.score >= passage.score:
                    passage = tight
        if passage is not None and passage.score >= floor:
            _keep_best(passages, [passage, *(p for p in passage.also if p.score >= floor)])
    return passages, len(groups) > MAX_WINDOWS


def _agreeing(
    estimates: list[tuple[int, int, int, int]], *, spread: int
) -> list[tuple[int, list[tuple[int, int, int, int]]]]:
    """Runs of sorted start estimates within `spread` of their first, that share no estimate:
    those where the most different words agree first, each with that count.

    Every estimate may start a run, so the words of one passage are counted together even when
    an earlier estimate (the same word a line before) is within reach of some of them only.
    """
    runs = []
    last = 0
    for first, estimate in enumerate(estimates):
        last = max(last, first)
        while last + 1 < len(estimates) and estimates[last + 1][0] - estimate[0] <= spread:
            last += 1
        words = len({word for _, word, _, _ in estimates[first : last + 1]})
        runs.append((-words, first - last, first, last))
    runs.sort()
    taken = [False] * len(estimates)
    groups = []
    for negative_words, _size, first, last in runs:
        if not any(taken[first : last + 1]):
            taken[first : last + 1] = [True] * (last + 1 - first)
            groups.append((-negative_words, estimates[first : last + 1]))
    return groups


def _collapsed_after(text: str, at: int, chars: int) -> int:
    """Where in `text` the `chars` characters after `at` end, whitespace runs counted as one."""
    while True:
        newline = text.find("\n", at)
        if newline < 0:
            return min(len(text), at + chars)
        line = " ".join(text[at:newline].split())
        if len(line) >= chars:
            return at + chars + (newline - at - len(line))  # no further than the line's end
        chars -= len(line) + 1
        at = newline + 1


def _collapsed_before(text: str, at: int, chars: int) -> int:
    """Where in `text` the `chars` characters before `at` start, whitespace runs counted as one."""
    while at > 0:
        newline = text.rfind("\n", 0, at)
        piece = text[newline + 1 : at]
        # the blank before the word at `at` is one character of the quote too
        size = len(" ".join(piece.split())) + (piece[-1:].isspace() and not piece.isspace())
        if size >= chars:
            return at - chars - (at - newline - 1 - size)  # no earlier than its start
        chars -= size + 1
        at = newline
    return 0


def best_fuzzy(scored: list[tuple[float, Elsewhere]]) -> tuple[Elsewhere, ...]:
    """The three best scored fuzzy places (ties: by path and lines), or the verified places
    alone when there are any (at most MAX_ELSEWHERE)."""
    verified = [item for item in scored if item[1].match is not Tier.FUZZY]
    if verified:
        scored = verified
    scored.sort(key=lambda item: (-item[0], item[1].path, item[1].lines))
    return tuple(place for _, place in scored[: MAX_ELSEWHERE if verified else 3])
