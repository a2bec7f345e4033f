"""The revision index's scan: the compiled WordSet finds what the Python reference finds."""

from __future__ import annotations

import shutil
import sysconfig
from pathlib import Path

import pytest
from evidencekit import make_repo
from hypothesis import given, settings
from hypothesis import strategies as st

from evidence.anchoring import RevisionIndex, wordset
from evidence.anchoring.wordset import COMPILED, PyWordSet, WordFinder, word_set
from evidence.revision import Revision

compiled = pytest.mark.skipif(not COMPILED, reason="built without a C compiler")

#: pieces texts are made of: words, separators, typographic marks whole and cut short, other
#: non-ASCII bytes (word bytes), and an 0xE2 that begins no mark
PIECES = [
    b"alpha",
    b"beta",
    b"_x1",
    b"Gamma9",
    b"a",
    b"\xc3\xa9t\xc3\xa9",
    b" ",
    b"\n",
    b"(",
    b".",
    b"`",
    b"\x00",
    b"\t",
    "\u201c".encode(),
    "\u201d".encode(),
    "\u2019".encode(),
    "\u2033".encode(),
    b"\xe2\x80",
    b"\xe2",
    b"\xe2\x80\x94",
    b"\xff",
    b"b\xe2\x80\x9cc",
]
WANTED = [b"alpha", b"beta", b"_x1", b"Gamma9", b"a", b"\xc3\xa9t\xc3\xa9", b"alphabeta",
          b"b", b"c", b"\xe2\x80\x94", b"\xff", b"", b"x1", b"gamma9"]  # fmt: skip


def both(words: list[bytes], cap: int = 2**32 - 1) -> tuple[WordFinder, WordFinder]:
    return word_set(words, cap), PyWordSet(words, cap)


@compiled
@settings(max_examples=200, deadline=None)
@given(
    texts=st.lists(st.lists(st.sampled_from(PIECES), max_size=40).map(b"".join), max_size=6),
    wanted=st.lists(st.sampled_from(WANTED), max_size=len(WANTED)),
    dropped=st.lists(st.sampled_from(WANTED), max_size=4),
)
def test_the_compiled_scan_finds_what_python_finds(
    texts: list[bytes], wanted: list[bytes], dropped: list[bytes]
) -> None:
    fast, reference = both(wanted)
    for number, text in enumerate(texts):
        hits = fast.hits(text)
        assert len(hits) == len(set(hits))  # each word once per text, however often it is there
        assert sorted(hits) == sorted(reference.hits(text)), text
        if number == 1:  # words looked for no more, between texts
            for word in dropped:
                fast.discard(word)
                reference.discard(word)


#: pieces without a typographic mark's first byte: texts the compiled scan reads 16 bytes at a
#: time (words across the blocks' edges, runs longer than a block, the last bytes short of one)
UNMARKED = [piece for piece in PIECES if b"\xe2" not in piece] + [b"w" * 17, b"_" * 9, b" " * 15]


@compiled
@settings(max_examples=200, deadline=None)
@given(
    texts=st.lists(st.lists(st.sampled_from(UNMARKED), max_size=80).map(b"".join), max_size=4),
    wanted=st.lists(st.sampled_from([*WANTED, b"w" * 17, b"_" * 9]), max_size=len(WANTED)),
)
def test_the_compiled_scan_reads_unmarked_texts_in_blocks_as_python_does(
    texts: list[bytes], wanted: list[bytes]
) -> None:
    fast, reference = both(wanted)
    for text in texts:
        assert sorted(fast.hits(text)) == sorted(reference.hits(text)), text


@compiled
@settings(max_examples=200, deadline=None)
@given(
    texts=st.lists(st.lists(st.sampled_from(PIECES), max_size=30).map(b"".join), max_size=12),
    wanted=st.lists(st.sampled_from(WANTED), max_size=len(WANTED)),
    cap=st.integers(0, 5),
)
def test_the_compiled_postings_are_python_s(
    texts: list[bytes], wanted: list[bytes], cap: int
) -> None:
    fast, reference = both(wanted, cap)
    for number, text in enumerate(texts, 7):
        fast.record(text, number)
        reference.record(text, number)
    assert fast.postings() == reference.postings()
    # a word recorded in `cap` texts is looked for no more: in no more texts, found by no hits
    assert all(len(numbers) <= max(1, cap) for numbers in fast.postings().values())
    assert sorted(fast.hits(b" ".join(WANTED))) == sorted(reference.hits(b" ".join(WANTED)))


@compiled
def test_words_are_found_whole_and_in_the_text_s_order() -> None:
    fast = word_set([b"load", b"loader", b"early", b"caf\xc3\xa9", b"x"])
    text = "loader \u201cearly\u201d load café reload x_y x".encode()
    assert fast.hits(text) == [b"loader", b"early", b"load", b"caf\xc3\xa9", b"x"]
    assert fast.hits(b"nothing here") == []
    assert fast.hits(b"x") == [b"x"]  # found again in the next text
    # a text of whole 16-byte blocks, ending in a word (the compiled scan's last block)
    assert fast.hits(b" " * 27 + b"early") == [b"early"]
    assert fast.hits(b"x" * 11 + b"early") == []
    fast.discard(b"load")
    fast.discard(b"never there")
    assert fast.hits(text) == [b"loader", b"early", b"caf\xc3\xa9", b"x"]


@compiled
def test_many_words_many_texts() -> None:
    # a table of 65,536 slots, texts holding each word more than once, then half the words
    # looked for no more (their slots left as tombstones the others' probes pass over)
    words = [f"w{n}".encode() for n in range(30_000)]
    fast, reference = both(words)
    for n in range(0, 60_000, 997):
        text = b" ".join(f"w{m}".encode() for m in range(n, n + 50)) + b" w3 w3"
        assert sorted(fast.hits(text)) == sorted(reference.hits(text))
    for word in words[::2]:
        fast.discard(word)
        reference.discard(word)
    text = b" ".join(words[:200])
    assert sorted(fast.hits(text)) == sorted(reference.hits(text)) == sorted(words[1:200:2])


@compiled
def test_bad_arguments_are_errors_not_crashes() -> None:
    from evidence.anchoring import _wordscan

    with pytest.raises(TypeError):
        _wordscan.WordSet(["text"], 1, 2)  # type: ignore[list-item]
    made = _wordscan.WordSet([b"a"], 1, 2)
    with pytest.raises(TypeError):
        made.hits("text")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        made.discard("a")  # type: ignore[arg-type]
    unmade = _wordscan.WordSet.__new__(_wordscan.WordSet)
    with pytest.raises(TypeError):
        unmade.hits(b"a")
    assert made.hits(memoryview(b"a b")) == [b"a"]  # type: ignore[arg-type]
    with pytest.raises(OverflowError):
        made.record(b"a", -1)
    with pytest.raises(OverflowError):
        made.record(b"a", 2**32)
    made.record(b"a", 2**32 - 1)
    assert made.postings() == {b"a": [2**32 - 1]}


def test_compiled_where_a_compiler_is_there() -> None:
    # the editable install compiles the scan (hatch_build.py); built silently in Python
    # instead, every index would be three times slower
    compiler = (sysconfig.get_config_var("LDSHARED") or "").split()
    if not compiler or shutil.which(compiler[0]) is None:
        pytest.skip("no C compiler: the Python scan is the one there is")
    assert COMPILED


def test_the_index_is_the_same_built_either_way(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {
        f"src/m{n}.py": f"def handler_{n % 7}(value):\n    return lookup_{n % 3}\n"
        for n in range(40)
    }
    files["notes.md"] = "\u201chandler_1\u201d and caf\u00e9\n"
    files["blob.bin"] = "handler_2\0"
    make_repo(tmp_path / "r", files)
    words = frozenset({b"handler_1", b"handler_2", b"lookup_0", b"value", b"caf\xc3\xa9", b"no"})
    with Revision.open(tmp_path / "r") as rev:
        fast = RevisionIndex(rev, only=words, common=8)
    monkeypatch.setattr(wordset, "_wordscan", None)
    with Revision.open(tmp_path / "r") as rev:
        reference = RevisionIndex(rev, only=words, common=8)
    for word in words:
        assert fast.frequency(word) == reference.frequency(word), word
        assert fast.files_with_all([word]) == reference.files_with_all([word]), word
    assert fast.frequency(b"value") == float("inf")  # in 40 files, past 8: a stop word
    assert fast.files_with_all([b"handler_1"]) == [
        "notes.md",
        *sorted(f"src/m{n}.py" for n in range(1, 40, 7)),
    ]
