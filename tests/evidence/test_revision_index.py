"""The word index's choice of a quote's rarest words: the same in every process."""

from __future__ import annotations

from evidence.anchoring import RevisionIndex

#: twelve words in three files each: equally rare
WORDS = [f"word{n:02d}".encode() for n in range(12)]


def _index() -> RevisionIndex:
    paths = ["x.py", "p.py", "q.py", "r.py"]
    # word00-word03 are in x, p and q; the others in p, q and r: only those four chosen
    # together put x.py among the files holding them all
    files = {word: ([0, 1, 2] if n < 4 else [1, 2, 3]) for n, word in enumerate(WORDS)}
    return RevisionIndex.from_files(paths, files, None, limit=64)


def test_equally_rare_words_are_chosen_by_the_words_themselves() -> None:
    # a set's order follows the hash seed of the process (one chosen by the set's order would
    # be these four in one run of twelve choose four, about 1 in 495)
    index = _index()
    assert index.files_with_all(reversed(WORDS)) == ["p.py", "q.py", "x.py"]
    assert index.files_with_all(WORDS[2:]) == ["p.py", "q.py"]


def test_files_with_most_ranks_the_same_four_words() -> None:
    index = _index()
    # word00-word03 chosen: x.py holds all four, as p.py and q.py do (equal: in path order);
    # another word chosen would put x.py after them, or leave it out
    assert index.files_with_most(set(WORDS)) == ["x.py", "p.py", "q.py"]
