"""The cited files of many quotes: read ahead in streams, or each quote anchored in its cited
file as that file comes from the stream (`Anchorer.anchor_many` without worker processes).

Anchoring as the files come keeps git inflating the next files while this process anchors:
reading every file first would leave this process waiting on git's pipe for all of them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

from evidence.anchoring.forms import QuoteForms
from evidence.model import Anchor, Quote
from evidence.revision import Revision, normalize_path

#: what `Anchorer.anchor_here` gives for a quote: its anchor in the cited file, its forms, the
#: cited path
Here = tuple[Anchor, QuoteForms, str]


def read_ahead(
    revision: Revision, paths: list[str], streams: int, cancel: threading.Event | None
) -> bool:
    """Read (and cache) the files at `paths` in `streams` cat-file streams at once (inflating
    blobs is git's work, in git's processes); False when cancelled."""

    def read(part: list[str]) -> None:
        for _ in revision.scan(part):
            if cancel is not None and cancel.is_set():
                return

    if streams == 1:
        read(paths)
    else:
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(streams) as pool:
            for done in [pool.submit(read, paths[at::streams]) for at in range(streams)]:
                done.result()  # a failure in a stream is raised here
    return cancel is None or not cancel.is_set()


def anchored_in_turn(
    anchor_here: Callable[[Quote], Here],
    quotes: Sequence[Quote],
    cancel: threading.Event | None,
    progress: Callable[[int, int], None] | None,
) -> list[Here]:
    """`anchor_here` of each quote in turn, in quote order (as far as done when cancelled)."""
    here = []
    for number, quote in enumerate(quotes):
        if cancel is not None and cancel.is_set():
            break
        here.append(anchor_here(quote))
        if progress is not None and number + 1 < len(quotes):
            progress(number + 1, len(quotes))
    return here


def anchored_as_read(
    anchor_here: Callable[[Quote], Here],
    revision: Revision,
    quotes: Sequence[Quote],
    cancel: threading.Event | None,
    progress: Callable[[int, int], None] | None,
) -> list[Here]:
    """`anchor_here` of each quote as its cited file comes from one cat-file stream (cached
    for later reads), in quote order (as far as done, in order, when cancelled)."""
    total = len(quotes)
    waiting: dict[str, list[int]] = {}
    for number, quote in enumerate(quotes):
        waiting.setdefault(normalize_path(quote.path), []).append(number)
    here: list[Here | None] = [None] * total
    done = 0

    def anchor(numbers: list[int]) -> None:
        nonlocal done
        for number in numbers:
            here[number] = anchor_here(quotes[number])
        done += len(numbers)
        if progress is not None and numbers and done < total:
            progress(done, total)

    for path, _data in revision.scan(sorted(waiting)):
        if cancel is not None and cancel.is_set():
            break
        anchor(waiting.pop(path, []))
    else:
        for numbers in waiting.values():  # missing files, symlinks, submodules, too large
            anchor(numbers)
    in_order = []
    for item in here:
        if item is None:
            break
        in_order.append(item)
    return in_order
