"""anchor_many in worker processes: the same anchors, index and elsewhere as working alone."""

from __future__ import annotations

import random
import threading
from pathlib import Path

import pytest
from evidencekit import make_repo

from evidence.anchoring import Anchorer, RevisionIndex, normalize_source
from evidence.anchoring.forms import LineIndex
from evidence.anchoring.workers import Workers, use_processes
from evidence.model import Quote, Tier
from evidence.revision import Revision

pytestmark = pytest.mark.skipif(not use_processes(), reason="needs fork and two cores")

N_FILES = 90  # more than the 64 files after which a word is too common to record


def _file(number: int, rng: random.Random) -> str:
    lines = [f"# module {number}: shared_everywhere helpers"]
    for block in range(6):
        name = f"handler_{number}_{block}"
        lines += [
            f"def {name}(request, limit={rng.randrange(100, 999)}):",
            f"    `value` = lookup_{number % 7}(request) * {rng.randrange(10, 99)}",
            f"    * item_{block} = clamp(value, {rng.randrange(1000, 9999)})",
            f"    return {name}_result(value, shared_everywhere)",
            "",
        ]
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    rng = random.Random(5)
    files = {f"pkg/mod_{n:03d}.py": _file(n, rng) for n in range(N_FILES)}
    files["pkg/twin.py"] = files["pkg/mod_003.py"]  # the same blob at two paths
    files["data.bin"] = "\0binary" * 10
    root = tmp_path_factory.mktemp("workers") / "repo"
    make_repo(root, files)
    return root, files


def _quotes(files: dict[str, str], count: int) -> list[Quote]:
    rng = random.Random(9)
    paths = sorted(p for p in files if p.endswith(".py"))
    made: list[Quote] = []
    while len(made) < count:
        path = rng.choice(paths)
        lines = files[path].split("\n")
        first = rng.randrange(1, len(lines) - 4)
        block = lines[first : first + 3]
        if not block[0].strip() or not block[-1].strip():
            continue
        kind = len(made) % 5
        cited: str = path
        claimed: tuple[int, int] | None = (first + 1, first + 3)
        if kind == 0:
            text = "\n".join(block)
        elif kind == 1:
            text = " ".join(" ".join(block).split())
        elif kind == 2:
            text = " ".join(" ".join(block).replace("`", "").split())
        elif kind == 3:  # misquoted: one number changed
            text = " ".join(" ".join(block).split()).replace("(value, ", "(value, 1")
            claimed = None
        else:  # misattributed
            text = "\n".join(block)
            cited, claimed = rng.choice(paths), None
        made.append(Quote(text, cited, claimed, len(made) + 1, len(made) + 1, "R-1", 0))
    made.append(Quote("nothing like this anywhere", paths[0], None, 1, 1, "R-1", 0))
    made.append(Quote("shared_everywhere helpers", "pkg/gone.py", None, 1, 1, "R-1", 0))
    return made


def test_workers_give_the_same_anchors_as_one_process(corpus: tuple[Path, dict[str, str]]) -> None:
    root, files = corpus
    quotes = _quotes(files, 240)
    with Revision.open(root) as alone_rev:
        alone = Anchorer(alone_rev, workers=1).anchor_many(quotes)
    seen: list[tuple[int, int]] = []
    with Revision.open(root) as rev:
        anchorer = Anchorer(rev, workers=2, parallel_from=0)
        together = anchorer.anchor_many(quotes, progress=lambda d, t: seen.append((d, t)))
        assert anchorer.used_workers == 2
    assert together == alone
    assert all(a.quote is q for a, q in zip(together, quotes, strict=True))
    assert seen[-1] == (len(quotes), len(quotes))
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    # the mix really exercises every path: elsewhere found, fuzzy and verified tiers
    assert sum(1 for a in together if a.elsewhere) >= 30
    assert {a.match for a in together} >= {Tier.EXACT, Tier.WHITESPACE, Tier.FUZZY}
    assert {a.match for a in together} & {Tier.NORMALIZED}


def test_workers_build_the_index_a_streaming_pass_builds(
    corpus: tuple[Path, dict[str, str]],
) -> None:
    root, files = corpus
    words = frozenset(
        {b"shared_everywhere", b"lookup_3", b"handler_4_2", b"value", b"absent_word", b"item_5"}
    )
    with Revision.open(root) as rev:
        streamed = RevisionIndex(rev, only=words)
    with Revision.open(root) as rev:
        anchorer = Anchorer(rev)
        for _ in rev.scan(sorted(files)[:40]):  # some texts cached, others read by the workers
            pass
        workers = Workers(anchorer, [], workers=2)
        try:
            built = workers.index(words, None)
        finally:
            workers.close()
    assert built is not None
    assert sorted(built.paths) == sorted(streamed.paths)
    for word in words:
        assert built.frequency(word) == streamed.frequency(word), word
        assert built.files_with_all([word]) == streamed.files_with_all([word]), word
    assert built.frequency(b"shared_everywhere") == float("inf")  # in all 91 files: a stop word
    assert built.frequency(b"lookup_3") == 14  # the 13 files 3, 10, ..., 87 and the twin of 3
    assert built.words == streamed.words


def test_cancelling_stops_the_workers_early(corpus: tuple[Path, dict[str, str]]) -> None:
    root, files = corpus
    quotes = _quotes(files, 240)
    cancel = threading.Event()
    with Revision.open(root) as rev:
        anchorer = Anchorer(rev, workers=2, parallel_from=0)
        anchors = anchorer.anchor_many(quotes, cancel=cancel, progress=lambda d, t: cancel.set())
        assert anchorer.used_workers == 2
    assert len(anchors) < len(quotes)
    assert all(a.quote is q for a, q in zip(anchors, quotes, strict=False))


def test_normalize_source_drops_markers_on_the_first_line_too() -> None:
    text = "* first\n  - second\nplain * star\n12. third\n\n• fourth\n1.5 stays"
    assert normalize_source(text) == " first\n second\nplain  star\n third\n\n fourth\n1.5 stays"
    assert normalize_source(text).count("\n") == text.count("\n")


def test_line_index_agrees_with_counting_newlines() -> None:
    text = "a\n\nbc\nd\n" * 10 + "last"
    index = LineIndex(text)
    expected = [text.count("\n", 0, offset) + 1 for offset in range(len(text))]
    assert [index.line(offset) for offset in range(len(text))] == expected
    assert index.starts is not None  # built after the first asks


def test_line_index_counts_from_its_last_answer_in_any_order() -> None:
    import random

    text = "a\n\nbc\nd\n" * 40 + "last"
    rng = random.Random(5)
    for _ in range(200):
        index = LineIndex(text)  # fewer than 16 asks: counted from the last offset asked
        offsets = [rng.randrange(len(text)) for _ in range(15)]
        answers = [index.line(offset) for offset in offsets]
        assert answers == [text.count("\n", 0, offset) + 1 for offset in offsets]
        assert index.starts is None


def test_a_worker_that_dies_is_an_error_not_a_hang(corpus: tuple[Path, dict[str, str]]) -> None:
    root, files = corpus
    quotes = _quotes(files, 240)
    with Revision.open(root) as rev:
        workers = Workers(Anchorer(rev), quotes, workers=2)
        try:
            workers._processes[1].kill()
            workers._processes[1].join()
            with pytest.raises(RuntimeError, match="worker process died"):
                workers.anchors(None, None)
        finally:
            workers.close()
