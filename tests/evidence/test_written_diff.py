"""A fuzzy match's differences as a reviewer reads them: the source's side as the file has it,
the quote's as the report has it but for formatting. The matcher compares both normalized
(backticks and asterisks dropped), so a diff built from what it compared showed a "source"
line the file does not hold: `super().__init__(revision, options)` for `**options`."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from evidencekit import make_repo

from evidence.anchoring import Anchorer, char_diff, diff_markup
from evidence.anchoring.explain import compare
from evidence.model import DiffPart, Quote, Tier
from evidence.revision import Revision

CACHE = """\
class Cache(Base):
    def __init__(self, revision, **options):
        super().__init__(revision, **options)
        self.total = self.size ** 2 + self.base
"""

NOTES = """\
# Notes

Run `make restart` after editing the configuration.
"""


@pytest.fixture(scope="module")
def anchorer(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Anchorer]:
    root: Path = tmp_path_factory.mktemp("written") / "repo"
    make_repo(root, {"cache.py": CACHE, "notes.md": NOTES})
    with Revision.open(root) as revision:
        yield Anchorer(revision)


def anchored(anchorer: Anchorer, text: str, path: str = "cache.py") -> tuple[str, str, str]:
    anchor = anchorer.anchor(Quote(text, path, None, 10, 9, "RT-TEST", 0))
    assert anchor.match is Tier.FUZZY, anchor
    quote_side = "".join(part.quote for part in anchor.diff)
    source_side = "".join(part.source for part in anchor.diff)
    return diff_markup(anchor.diff), quote_side, source_side


def test_the_source_side_is_the_line_as_the_file_has_it(anchorer: Anchorer) -> None:
    markup, quote_side, source_side = anchored(anchorer, "super().init(revision, options)")
    assert source_side == "super().__init__(revision, **options)"
    assert quote_side == "super().init(revision, options)"
    assert markup == "super().{+__+}init{+__+}(revision, {+**+}options)"


def test_an_inline_quotes_backticks_are_the_reports_not_a_difference(
    anchorer: Anchorer,
) -> None:
    markup, quote_side, _ = anchored(anchorer, "`self.total = self.size ** 3 + self.base`")
    assert quote_side == "self.total = self.size ** 3 + self.base"
    # the source has asterisks: the quote's, kept as written, are not a difference
    assert markup == "self.total = self.size ** [-3-]{+2+} + self.base"


def test_list_markers_the_report_added_are_not_the_quotes(anchorer: Anchorer) -> None:
    text = "- def __init__(self, revision, **options):\n- super().__init__(revision, option)"
    markup, quote_side, source_side = anchored(anchorer, text)
    assert (
        quote_side == "def __init__(self, revision, **options): super().__init__(revision, option)"
    )
    assert source_side.endswith("super().__init__(revision, **options)")
    assert markup.endswith("super().__init__(revision, {+**+}option{+s+})")


def test_a_place_in_another_file_is_compared_as_written() -> None:
    diff = compare(
        "super().init(revision, options)", "        super().__init__(revision, **options)\n"
    )
    assert "".join(part.source for part in diff) == "super().__init__(revision, **options)"
    assert diff_markup(diff) == "super().{+__+}init{+__+}(revision, {+**+}options)"


def test_tokens_replaced_as_many_for_as_many_read_one_by_one() -> None:
    parts = char_diff(["compute(a,", "b)"], ["compute(x,", "c)"])
    assert diff_markup(parts) == "compute([-a-]{+x+}, [-b-]{+c+})"
    assert [p.op for p in parts if p.op != "equal"] == ["replace", "replace"]


def test_a_token_inside_the_other_reads_as_what_was_added_around_it() -> None:
    assert diff_markup(char_diff(["Widget"], ["``Widget``"])) == "{+``+}Widget{+``+}"
    assert diff_markup(char_diff(["**options)"], ["options)"])) == "[-**-]options)"
    assert char_diff(["aa"], ["a"]) == (DiffPart("equal", "a", "a"), DiffPart("delete", "a", ""))
