"""Backlinks: which records quote which lines of a file."""

from __future__ import annotations

from typing import Any

from evidence.backlinks import backlink_lines, backlinks, cited_files, normalize
from evidence.model import (
    Anchor,
    Elsewhere,
    FileState,
    Kind,
    Quote,
    Record,
    Report,
    ReportSet,
    Tier,
)


def quote(record: str, path: str, index: int = 0, text: str = "x = 1") -> Quote:
    return Quote(
        text=text,
        path=path,
        claimed=None,
        report_line=10 + index,
        text_line=11 + index,
        record=record,
        index=index,
    )


def anchor(q: Quote, lines: tuple[int, int] | None, match: Tier = Tier.EXACT, **kw: Any) -> Anchor:
    state = FileState.OK if lines else FileState.MISSING
    return Anchor(quote=q, file=state, match=match, score=100.0, lines=lines, **kw)


Q1 = quote("RT-one", "src/app.py")
Q2 = quote("RT-two", "./src/app.py", text="y = 2")
Q3 = quote("RT-two", "src/other.py", index=1, text="z = 3")
Q4 = quote("RT-three", "src/app.py", text="gone()")
Q5 = quote("RT-four", "lib/unrelated.py", text="q = 4")

ANCHORS = {
    Q1: anchor(Q1, (20, 22)),
    Q2: anchor(Q2, (5, 5), Tier.WHITESPACE),
    Q3: anchor(Q3, None, Tier.MISSING, elsewhere=(Elsewhere("src/app.py", (40, 41), Tier.EXACT),)),
    Q4: anchor(Q4, None, Tier.MISSING),
    Q5: anchor(Q5, (1, 1)),
}


def test_backlinks_lists_citing_and_elsewhere_quotes_in_line_order() -> None:
    links = backlinks(ANCHORS, "src/app.py")
    assert [(link.record, link.lines, link.cited) for link in links] == [
        ("RT-two", (5, 5), True),
        ("RT-one", (20, 22), True),
        ("RT-two", (40, 41), False),
        ("RT-three", None, True),  # cited but not found: listed last, never marked
    ]
    assert links[0].match is Tier.WHITESPACE
    assert not links[-1].found


def test_backlink_lines_marks_only_found_lines() -> None:
    links = backlinks(ANCHORS, "/src/app.py")
    assert backlink_lines(links) == frozenset({5, 20, 21, 22, 40, 41})


def test_no_backlinks_for_an_uncited_file() -> None:
    assert backlinks(ANCHORS, "README.md") == []
    assert backlink_lines([]) == frozenset()


def test_reportset_gives_report_and_label() -> None:
    record = Record(
        id="RT-one",
        kind=Kind.ROUTE,
        label="The one route",
        body="",
        report="runtime.md",
        section="Routes",
        lines=(1, 5),
        quotes=(Q1,),
    )
    reportset = ReportSet(reports=(Report("runtime.md", "T", "t", "S", records=(record,)),))
    (link,) = [link for link in backlinks(ANCHORS, "src/app.py", reportset) if link.quote == Q1]
    assert link.report == "runtime.md" and link.label == "The one route"
    other = [link for link in backlinks(ANCHORS, "src/app.py", reportset) if link.quote == Q2]
    assert other[0].report is None


def test_cited_files_and_normalize() -> None:
    assert cited_files(ANCHORS) == {"src/app.py": 3, "src/other.py": 1, "lib/unrelated.py": 1}
    assert normalize(".//src\\a.py") == "src/a.py"


def test_a_cited_wildcard_links_each_file_it_matches() -> None:
    from functools import partial

    from evidence.backlinks import backlinks_by_path
    from evidence.citations import files_matching
    from evidence.model import Citation

    record = Record(
        id="RT-all",
        kind=Kind.ROUTE,
        label="Every handler",
        body="",
        report="runtime.md",
        section="Routes",
        lines=(1, 5),
        citations=(Citation("SRC-1", ("src/*.py", "docs/*.md"), 3),),
    )
    reportset = ReportSet(reports=(Report("runtime.md", "T", "t", "S", records=(record,)),))
    files = ["src/app.py", "src/other.py", "src/deep/no.py", "README.md"]
    expand = partial(files_matching, files=files)
    index = backlinks_by_path({}, reportset, expand)
    assert sorted(index) == ["docs/*.md", "src/app.py", "src/other.py"]  # none: as cited
    for path in ("src/app.py", "src/deep/no.py"):
        assert index.get(path, []) == backlinks({}, path, reportset, expand), path
    assert [link.record for link in backlinks({}, "src/other.py", reportset, expand)] == ["RT-all"]
    assert backlinks({}, "src/other.py", reportset) == []  # without the tree, as written only
