"""How alike a quoted passage and runs of a file's lines are (evidence/drift.py's measures)."""

from __future__ import annotations

from evidence.model import LineRange

__all__ = [
    "counterpart_run",
    "fitted",
    "most_alike_run",
    "same_runs",
    "similarity",
    "with_own_lines",
]

#: a line of a run this like one of the passage's (rapidfuzz ratio) may be that line edited
LIKE_LINE = 60.0
#: a new line this like one of a deleted passage's own lines may be it, edited
LIKE_OWN = 80.0


def same_runs(passage: list[str], lines: list[str]) -> list[LineRange]:
    """Every span of `lines` that is `passage`, line for line."""
    size = len(passage)
    return [
        (k + 1, k + size)
        for k in range(len(lines) - size + 1)
        if lines[k] == passage[0] and lines[k : k + size] == passage
    ]


#: how far below the best a run is still scored in full (a tie must be seen as one: floats)
_TIE = 1e-6


def most_alike_run(
    passage: list[str],
    lines: list[str],
    span: LineRange | None,
    before: list[str],
    own: set[str] | None = None,
) -> tuple[LineRange | None, float]:
    """The run of lines about `span` (None: anywhere; the passage's length, give or take two)
    most like the passage, and its similarity (0-100); the nearest of equals. A run made only of
    lines found in `before` (the rest of the file at the cited revision) is other passages, and
    so is one whose lines from `before` are, in order, two or more lines running there and
    whose other lines are like none of the passage's (another passage, edited); with `own`
    (lines stripped), a run must hold one of those lines, indented as it may be, or a new line
    more like one of them than like any line of `before` (one of them edited)."""
    from rapidfuzz import fuzz

    text, size = "\n".join(passage), len(passage)
    sizes = range(max(1, size - 2), size + 3)
    known = set(before)
    owned = _OwnLike(own or set(), known)
    best: tuple[float, int, LineRange] | None = None
    low, high = (1, len(lines)) if span is None else (span[0] - 2, span[1] + 2)
    at = span[0] if span is not None else 1
    for length in sizes:
        for start in range(max(1, low), max(1, high + 1 - length) + 1):
            if start + length - 1 > len(lines):
                break
            run = lines[start - 1 : start - 1 + length]
            if all(line in known for line in run) or (
                own is not None
                and own.isdisjoint(line.strip() for line in run)
                and not any(owned(line) for line in run if line not in known)
            ):
                continue
            # below the best so far rapidfuzz stops early and says 0: the same choice, sooner;
            # a hair below it, as rapidfuzz said 0 for about 2% of exact ties (its similarity
            # against cutoff / 100 in floats), which lost the nearest of equals
            cutoff = max(0.0, best[0] - _TIE) if best is not None else 0.0
            score = float(fuzz.ratio(text, "\n".join(run), score_cutoff=cutoff))
            key = (score, -abs(start - at), (start, start + length - 1))
            if (best is None or key[:2] > best[:2]) and not _another_passage(
                run, passage, known, before
            ):
                best = key
    return (None, 0.0) if best is None else (best[2], best[0])


class _OwnLike:
    """Whether a line new at the newer revision is one of the passage's `own` lines edited:
    like one of them (>= LIKE_OWN), and more than like any line the file had (a sibling's)."""

    def __init__(self, own: set[str], known: set[str]) -> None:
        self.own = [line for line in own if line]
        self.known = known
        self._rest: list[str] | None = None
        self._said: dict[str, bool] = {}

    def __call__(self, line: str) -> bool:
        said = self._said.get(line)
        if said is None:
            said = self._said[line] = self._like(line.strip())
        return said

    def _like(self, line: str) -> bool:
        from rapidfuzz import fuzz, process

        if not line or not self.own:
            return False
        score = max(fuzz.ratio(line, mine) for mine in self.own)
        if score < LIKE_OWN:
            return False
        if self._rest is None:
            self._rest = sorted({known.strip() for known in self.known} - {""})
        rival = process.extractOne(line, self._rest, scorer=fuzz.ratio, score_cutoff=score)
        return rival is None


def _another_passage(
    run: list[str], passage: list[str], known: set[str], before: list[str]
) -> bool:
    """Whether `run` is another passage of the file, edited: its lines from `before` are, in
    order, two or more lines running there, and none of its other lines is like one of the
    passage's (an edit of this passage's lines would be)."""
    from rapidfuzz import fuzz

    kept = [line for line in run if line in known]
    if len(kept) < 2:
        return False
    size = len(kept)
    if not any(
        before[k] == kept[0] and before[k : k + size] == kept for k in range(len(before) - size + 1)
    ):
        return False
    mine = [line.strip() for line in passage if line.strip()]
    return not any(
        fuzz.ratio(line.strip(), theirs) >= LIKE_LINE
        for line in run
        if line not in known and line.strip()
        for theirs in mine
    )


def similarity(passage: list[str], counterpart: list[str]) -> float:
    from rapidfuzz import fuzz

    return float(fuzz.ratio("\n".join(passage), "\n".join(counterpart)))


#: how many lines either end of a changed passage's counterpart may move to fit it
FIT_REACH = 3


def holds_in_order(run: list[str], passage: list[str]) -> bool:
    """Whether `run` is the passage with lines added among or around its own: every line of
    it, in order, and more."""
    lines = iter(run)
    return len(run) > len(passage) and all(line in lines for line in passage)


def fitted(passage: list[str], lines: list[str], span: LineRange) -> LineRange:
    """`span` grown by up to FIT_REACH lines at either end where that makes the lines more like
    the passage, whitespace aside: a statement rewrapped over more lines is taken to its last
    line (`) -> Carried:`), not cut where a measure that counts indentation stopped. Never
    shrunk: lines the passage gained on the way are its counterpart's."""
    first, last = span
    runs = _Runs(" ".join(" ".join(passage).split()), lines, span)
    best = (runs.alike(first, last, 0.0), 0, span)
    for a in range(max(1, first - FIT_REACH), first + 1):
        # the longest first, to bound the runs it holds; ties still go to the smaller `a`
        for b in range(min(len(lines), last + FIT_REACH), last - 1, -1):
            key = (runs.alike(a, b, best[0]), -(first - a + b - last), (a, b))
            if key[:2] > best[:2]:
                best = key
    return best[2]


class _Runs:
    """How alike the passage's `text` is to runs of `lines` that hold `span` (rapidfuzz ratio,
    whitespace aside), each run's text scored once. Ratio is 200 * common / total, for the
    longest common subsequence; a run holds no more in common than a run holding it, nor more
    than a run it holds plus the characters it adds: a run these bounds keep below a cutoff is
    not scored."""

    def __init__(self, text: str, lines: list[str], span: LineRange) -> None:
        self.text, self.lines = text, lines
        self.least = len(self._text(*span))  # no run scored is shorter
        self._said: dict[str, tuple[float, float]] = {}  # a run's text: ratio, most in common
        self._common: dict[LineRange, tuple[int, float]] = {}  # a run: length, most in common

    def alike(self, first: int, last: int, cutoff: float) -> float:
        """The ratio of lines first-last to the passage; one below `cutoff` may be said 0.0."""
        from rapidfuzz import fuzz

        run = self._text(first, last)
        total = len(self.text) + len(run)
        said = self._said.get(run)  # blank lines add no text
        if said is None:
            # the margin covers the floats' rounding: a run that may tie the cutoff is scored
            if total and 200 * self._most_common(run, first, last) / total < cutoff - _TIE:
                return 0.0
            # below `floor` rapidfuzz stops early and says 0: still low enough to rule out the
            # runs this one holds, none shorter than `least`
            floor = max(0.0, cutoff - 1e-5) * (len(self.text) + self.least) / max(1, total)
            score = float(fuzz.ratio(self.text, run, score_cutoff=floor))
            common = round(total * score / 200) if score else floor * total / 200
            said = self._said[run] = (score, common)
        self._common[(first, last)] = (len(run), said[1])
        return said[0]

    def _text(self, first: int, last: int) -> str:
        return " ".join(" ".join(self.lines[first - 1 : last]).split())

    def _most_common(self, run: str, first: int, last: int) -> float:
        most: float = min(len(self.text), len(run))
        for (a, b), (size, common) in self._common.items():
            if a <= first and last <= b:
                most = min(most, common)
            elif first <= a and b <= last:
                most = min(most, common + len(run) - size)
        return most


def with_own_lines(
    mine: set[str], lines: list[str], near: LineRange, within: LineRange | None = None
) -> LineRange:
    """``near`` grown to the passage's own lines (``mine``, stripped) within FIT_REACH lines of
    it (and within ``within``) that it lacks: a line added after a short first line leaves that
    line out of the run most like the passage by ratio, and its diff then says it is gone."""
    first, last = near
    low, high = within or (1, len(lines))
    inside = {line.strip() for line in lines[first - 1 : last]}
    above = [
        at
        for at in range(max(low, first - FIT_REACH), first)
        if (text := lines[at - 1].strip()) in mine and text not in inside
    ]
    below = [
        at
        for at in range(last + 1, min(high, last + FIT_REACH) + 1)
        if (text := lines[at - 1].strip()) in mine and text not in inside
    ]
    return (min(above, default=first), max(below, default=last))


def counterpart_run(
    passage: list[str], lines: list[str], span: LineRange, before: list[str]
) -> tuple[LineRange | None, float]:
    """`most_alike_run` about `span` (the lines the history carried the passage to); a run
    among them grown to the passage's own lines there (`with_own_lines`), short ones too (a
    `try:`): the history says they are its. The score is the run's."""
    near, score = most_alike_run(passage, lines, span, before)
    if near is None or near[0] < span[0] or near[1] > span[1]:
        return near, score  # beside its lines: like lines, told apart by their commits
    return with_own_lines({line.strip() for line in passage} - {""}, lines, near, span), score
