"""The fuzzy matching of `/`: letters in order within a word, whole words before scattered."""

from __future__ import annotations

from evidence.text_finder import FoldedText, best_matches, matching, narrows

TEXTS = [
    "KS-RTE-token-check Bearer token admission",
    "On KS-RTE-token-check On KS-RTE-token-check",
    "data/legacy/stations_1998.csv",
    "api/kestrel/stations.py try: return STATIONS[code.upper()]",
    "api/kestrel/stations.py",
    "KS-ABS-station-list Station list served without a token",
    "docs/operations.md Rotate the API token every 90 days.",
    "KS-RTE-ticket-escalation Overdue ticket escalation",
]


def ranked(query: str, limit: int = 10) -> list[str]:
    folded = [FoldedText(text) for text in TEXTS]
    return [TEXTS[i] for i in best_matches(query, folded, limit)]


def test_a_text_without_the_letters_in_order_is_no_match() -> None:
    assert TEXTS[2] not in ranked("token")  # stations_1998.csv: no k, though alike to WRatio
    assert ranked("zzq") == []


def test_letters_strewn_across_words_are_no_match() -> None:
    # t-o-k-e-n across "ticket escalation ... overdue": in order, but in no one word
    assert TEXTS[7] not in ranked("token")
    assert ranked("tokn")[0] == TEXTS[0]  # within one word, a letter left out


def test_the_name_first_then_the_word_elsewhere_in_order() -> None:
    order = ranked("token")
    assert order == [TEXTS[0], TEXTS[1], TEXTS[5], TEXTS[6]]


def test_a_word_found_whole_before_one_scattered_even_in_a_name() -> None:
    texts = ["notes/scan_a_che.py", "x.py cache"]
    folded = [FoldedText(text) for text in texts]
    assert best_matches("cache", folded, 5) == [1, 0]


def test_a_file_typed_whole_before_its_quotes() -> None:
    assert ranked("stations.py")[:2] == [TEXTS[4], TEXTS[3]]


def test_every_word_typed_must_match() -> None:
    assert ranked("token admission") == [TEXTS[0]]
    assert ranked("admission token") == [TEXTS[0]]  # in any order
    assert ranked("token nowhere") == []


def test_no_query_keeps_the_order() -> None:
    assert ranked("  ", 3) == TEXTS[:3]


def test_a_query_typed_on_narrows_the_one_before() -> None:
    assert narrows("tok", "to") and narrows("tok s", "tok") and narrows("tok sy", "tok s")
    assert not narrows("to", "tok")  # a letter taken back
    assert not narrows("tok", "") and not narrows("x tok", "tok")  # a word in front
    folded = [FoldedText(text) for text in TEXTS]
    for query, before in (("tok", "to"), ("stat py", "stat"), ("token check", "token c")):
        assert narrows(query, before)
        among = matching(before, folded)
        assert matching(query, folded, among) == matching(query, folded)
        assert best_matches(query, folded, 5, among) == best_matches(query, folded, 5)


def test_one_word_over_many_texts_ranks_as_scoring_every_text() -> None:
    import random

    from evidence.text_finder import word_score

    rng = random.Random(11)
    parts = ["a", "ab", "b", "ba", "a/b", "b/a", "ab/a", "a-b", "x"]
    # names the word is only inside of, or at a word start in, in turn (none starts with it)
    inside = ["xab", "x-ab", "xb", "x-b", "xba", "x/xab", "xa"]
    for choices in (parts, inside):
        texts = [
            " ".join(rng.choice(choices) for _ in range(rng.randrange(1, 4))) for _ in range(3000)
        ]
        folded = [FoldedText(text) for text in texts]
        for word in ("a", "b", "ab", "ba", "x", "a-b"):
            found = matching(word, folded)
            every = sorted(found, key=lambda i: -word_score(word, folded[i]))  # stable
            for limit in (1, 5, 60, 400):
                assert best_matches(word, folded, limit) == every[:limit], (word, limit)
