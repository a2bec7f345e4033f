"""Where passages stand verbatim among some files: a line of each passage (its longest) looked
up in every line of the files, then the whole passage compared line by line at each hit."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

__all__ = ["verbatim_places"]

#: a passage whose longest line is shorter than this (stripped) is not looked for
SHORTEST_LINE = 6
#: places listed per passage at most
MOST_PLACES = 20


def verbatim_places(
    passages: Sequence[Sequence[str]],
    files: Iterable[tuple[str, Sequence[str]]],
    most: int | None = MOST_PLACES,
) -> list[list[tuple[str, tuple[int, int]]]]:
    """For each passage (its lines), every (path, (first, last)) of `files` ((path, lines)
    pairs, in the order given) whose lines are exactly the passage's: the first `most` (None:
    all)."""
    found: list[list[tuple[str, tuple[int, int]]]] = [[] for _ in passages]
    keys: dict[str, list[tuple[int, int]]] = {}  # a line looked for -> (passage, its index)
    for number, passage in enumerate(passages):
        if not passage:
            continue
        offset = max(range(len(passage)), key=lambda k: len(passage[k].strip()))
        if len(passage[offset].strip()) >= SHORTEST_LINE:
            keys.setdefault(passage[offset], []).append((number, offset))
    if not keys:
        return found
    for path, lines in files:
        for index, line in enumerate(lines):
            for number, offset in keys.get(line, ()):
                passage = passages[number]
                first = index - offset
                if first < 0 or (most is not None and len(found[number]) >= most):
                    continue
                if list(lines[first : first + len(passage)]) == list(passage):
                    found[number].append((path, (first + 1, first + len(passage))))
    return found
