"""`counterpart_line`: where a reader of a file at one revision goes on reading it at another
(`t` in the review keeps the place in a file opened whole)."""

from __future__ import annotations

from evidence.line_map import counterpart_line

OLD = ["import os", "", "def a():", "    return 1", "", "def b():", "    return 2", ""]


def test_a_line_unchanged_is_found_where_lines_were_added_above_it() -> None:
    new = ["import os", "import sys", "", "", "def a():", "    return 1", "", "def b():"]
    new += ["    return 2", ""]
    assert counterpart_line(OLD, new, 6) == 8  # def b()
    assert counterpart_line(new, OLD, 8) == 6  # and back


def test_a_blank_line_goes_to_the_blank_between_the_same_lines() -> None:
    new = ["import os", "", "def a():", "    return 10", "", "def b():", "    return 2", ""]
    # line 5 (blank, after `return 1`, before `def b`): `return 1` was edited, `def b` was not
    assert counterpart_line(OLD, new, 5) == 5


def test_an_edited_line_goes_where_the_line_above_it_went() -> None:
    new = ["# header", "# more", "import os", "", "def a():", "    return 100", ""]
    new += ["def b():", "    return 2", ""]
    assert counterpart_line(OLD, new, 4) == 6  # `return 1` became `return 100`, after def a()


def test_the_nearest_of_several_places_is_chosen() -> None:
    old = ["x = 1", "pass", "y = 2"] * 3
    assert counterpart_line(old, old, 5) == 5
    assert counterpart_line(old, ["z"] + old, 5) == 6


def test_nothing_in_common_keeps_the_number_within_the_file() -> None:
    assert counterpart_line(OLD, ["a", "b", "c"], 2) == 2
    assert counterpart_line(OLD, ["a", "b", "c"], 7) == 3
    assert counterpart_line(OLD, [], 3) == 1
    assert counterpart_line([], ["a", "b"], 9) == 2
