"""The file finder's ranking: file-name hits first, fzf-like subsequences, incremental narrowing."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from evidence.finder import PathFinder

PATHS = [
    "README.md",
    "src/server.js",
    "src/server/auth.js",
    "src/server/routes/auth_routes.js",
    "src/client/authority.ts",
    "src/util/strings.py",
    "auth/config.yaml",
    "docs/authentication.md",
    "lib/reverse_server_proxy.go",
    "evidence/revision.py",
    "tests/evidence/test_revision.py",
    "Makefile",
]


def top(finder: PathFinder, query: str, n: int = 3) -> list[str]:
    return [match.path for match in finder.search(query, limit=n)]


def test_exact_file_name_first() -> None:
    finder = PathFinder(PATHS)
    assert top(finder, "auth.js", 1) == ["src/server/auth.js"]
    assert top(finder, "makefile", 1) == ["Makefile"]


def test_stem_and_prefix_of_file_name_beat_directory_hits() -> None:
    finder = PathFinder(PATHS)
    ranked = top(finder, "auth", 5)
    assert ranked[0] == "src/server/auth.js"  # stem equals the query
    # file names starting with the query next, the directory "auth/" after them
    assert ranked.index("src/client/authority.ts") < ranked.index("auth/config.yaml")
    assert ranked.index("docs/authentication.md") < ranked.index("auth/config.yaml")


def test_word_start_inside_file_name() -> None:
    finder = PathFinder(PATHS)
    assert top(finder, "routes", 1) == ["src/server/routes/auth_routes.js"]


def test_case_insensitive_and_original_case_returned() -> None:
    finder = PathFinder(PATHS)
    assert top(finder, "READ", 1) == ["README.md"]
    assert top(finder, "readme", 1) == ["README.md"]


def test_scattered_subsequence_prefers_file_name() -> None:
    finder = PathFinder(PATHS)
    # r-e-v-p-y only as a subsequence; both revision files qualify, the shorter path first
    ranked = top(finder, "revpy", 2)
    assert ranked == ["evidence/revision.py", "tests/evidence/test_revision.py"]


def test_every_result_holds_the_query_as_subsequence() -> None:
    finder = PathFinder(PATHS)
    for match in finder.search("srvjs", limit=20):
        lowered = match.path.lower()
        assert [lowered[p] for p in match.positions] == list("srvjs")
        assert list(match.positions) == sorted(match.positions)
    assert top(finder, "srvjs", 1) == ["src/server.js"]


def test_positions_cover_a_substring_match() -> None:
    finder = PathFinder(PATHS)
    (match,) = finder.search("strings", limit=1)
    assert match.path == "src/util/strings.py"
    assert match.positions == tuple(range(9, 16))


def test_no_match_and_empty_query() -> None:
    finder = PathFinder(PATHS)
    assert finder.search("zzzq") == []
    assert [m.path for m in finder.search("", limit=3)] == PATHS[:3]
    assert finder.search("   ", limit=2) == finder.search("", limit=2)
    assert finder.search("auth", limit=0) == []


def test_spaces_in_query_are_ignored() -> None:
    finder = PathFinder(PATHS)
    assert top(finder, "auth routes", 1) == ["src/server/routes/auth_routes.js"]


def test_limit_and_scores_descend() -> None:
    finder = PathFinder(PATHS)
    matches = finder.search("s", limit=4)
    assert len(matches) == 4
    scores = [match.score for match in matches]
    assert scores == sorted(scores, reverse=True)


def test_narrowing_then_widening_gives_fresh_results() -> None:
    finder = PathFinder(PATHS)
    typed = [top(finder, q, 20) for q in ("r", "re", "rev", "revi", "rev", "re", "x", "rev")]
    fresh = [
        top(PathFinder(PATHS), q, 20) for q in ("r", "re", "rev", "revi", "rev", "re", "x", "rev")
    ]
    assert typed == fresh


def test_regex_characters_are_literal() -> None:
    finder = PathFinder(["a/b(c).py", "a/bc.py", "x/[y].md"])
    assert top(finder, "b(c", 1) == ["a/b(c).py"]
    assert top(finder, "[y]", 1) == ["x/[y].md"]
    assert top(finder, ".*", 3) == []


@settings(max_examples=60, deadline=None)
@given(
    paths=st.lists(st.from_regex(r"[a-cA\n /_.]{1,12}", fullmatch=True), min_size=1, max_size=30),
    query=st.from_regex(r"[a-c_.]{1,4}", fullmatch=True),
)
def test_results_are_exactly_the_subsequence_matches(paths: list[str], query: str) -> None:
    finder = PathFinder(paths)
    found = {match.path for match in finder.search(query, limit=len(paths) + 5)}

    def holds(path: str) -> bool:
        at = 0
        for ch in query:
            at = path.lower().find(ch, at) + 1
            if at == 0:
                return False
        return True

    assert found == {path for path in paths if holds(path)}


def test_prepare_does_not_change_results() -> None:
    prepared = PathFinder(PATHS)
    prepared.prepare("re")
    prepared.prepare("")
    assert top(prepared, "rev", 20) == top(PathFinder(PATHS), "rev", 20)


def test_positions_are_the_paths_own_where_lower_case_is_longer() -> None:
    # "İ" lowers to two characters ("i" and a dot above): positions in the lowered path fell
    # past the letters matched, or past the end of the path, and the finder marked other ones
    finder = PathFinder(["İstanbul/ŞEHİR.txt", "İİİİİİ/x.py", "a/b.py"])
    for query, path, marked in (
        ("şehir", "İstanbul/ŞEHİR.txt", "ŞEHİR"),
        ("istanbul", "İstanbul/ŞEHİR.txt", "İstanbul"),
        ("x.py", "İİİİİİ/x.py", "x.py"),
        ("İİx", "İİİİİİ/x.py", "İİx"),
    ):
        (match,) = [m for m in finder.search(query) if m.path == path]
        assert "".join(path[p] for p in match.positions) == marked, query
    assert top(finder, "py", 2) == ["a/b.py", "İİİİİİ/x.py"]
