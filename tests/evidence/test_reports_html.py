"""A report delivered as HTML (a wiki's export, a rendered page saved) is read as the text its
page shows: the same records, quotes and citations as the report written plainly, its quotes
anchored alike in a real repository; the head, scripts and styles are never read."""

from __future__ import annotations

from pathlib import Path

import pytest
from evidencekit import make_repo

from evidence.anchoring import Anchorer
from evidence.reports.html_text import html_text, looks_like_html
from evidence.reports.parser import parse_report
from evidence.revision import Revision

SOURCE = """\
def gate(request):
    if request.token is None:
        return "<denied>"
    return None
"""

HTML = """\
<!DOCTYPE html>
<html><head><title>Export</title><style>p {{ color: red }}</style>
<script>var x = "KS-CLM-not-a-record --- src/nothing.py";</script></head>
<body>
<h1>Tiny runtime report</h1>
<p>Type: agentic-system-analyses/types/agentic-system-runtime-report.md</p>
<h2>Runtime account</h2>
<h3>Evidence</h3>
<p>Evidence is SRC-1 at revision {rev}. The gate is read in
full (SRC-1, src/gate.py).</p>
<h2>Shared records</h2>
<h3>Claims</h3>
<p><strong>TY-CLM-gate</strong></p>
<p>Label: The gate</p>
<p>A request without a token is turned away:</p>
<pre><code>    if request.token is None:
        return "&lt;denied&gt;"
</code></pre>
<p>--- src/gate.py:2-3</p>
<p>The same, inline: <code>return &quot;&lt;denied&gt;&quot;</code> --- src/gate.py:3</p>
<ul><li>Two bullets,</li><li>not quotes.</li></ul>
<table><tr><th>setting</th><th>value</th></tr><tr><td>token</td><td>required</td></tr></table>
<p>The end of the gate:<br>return None --- src/gate.py:4</p>
</body></html>
"""


def test_an_html_report_reads_as_the_text_its_page_shows(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    rev = make_repo(repo, {"src/gate.py": SOURCE})
    report = parse_report(HTML.format(rev=rev).encode(), "tiny-runtime-report.html")
    assert report.title == "Tiny runtime report"
    assert [m.sha for m in report.revisions] == [rev]
    assert report.diagnostics[0].message.startswith("an HTML document: read as the text")
    (narrative, claim) = report.records
    assert narrative.citations[0].paths == ("src/gate.py",)
    assert claim.id == "TY-CLM-gate" and claim.label == "The gate"
    quotes = [(q.text, q.path, q.claimed) for q in claim.quotes]
    assert quotes == [
        ('    if request.token is None:\n        return "<denied>"', "src/gate.py", (2, 3)),
        ('return "<denied>"', "src/gate.py", (3, 3)),
        ("return None", "src/gate.py", (4, 4)),
    ]
    assert "not-a-record" not in " ".join(r.body for r in report.records)
    with Revision.open(repo) as revision:
        anchors = [Anchorer(revision).anchor(quote) for quote in claim.quotes]
    assert [(a.match.value, a.lines, a.range_ok) for a in anchors] == [
        ("exact", (2, 3), True),
        ("exact", (3, 3), True),
        ("exact", (4, 4), True),
    ]


def test_what_is_html_and_how_its_blocks_read() -> None:
    assert looks_like_html("\ufeff  <!doctype html><p>x</p>")
    assert looks_like_html("<p>Tiny runtime report</p>")
    assert not looks_like_html("Tiny runtime report\n<p>code</p> --- a.html")
    assert not looks_like_html("<denied> is what the gate returns")
    text = html_text("<ol><li>one</li><li>two<br>lines</li></ol><p>a &amp; b</p>")
    assert text == "1. one\n\n2. two\n\nlines\n\na & b\n"
    # a list item's text in a paragraph of its own: one item still, its mark before it
    assert html_text("<ul><li><p>loose</p></li><li>tight</li></ul>") == "• loose\n\n• tight\n"
    # a preformatted block parted by a blank line, a marker after it: indented, one block to
    # the parser; with none after it, fenced as the Markdown it came from
    marked = html_text("<pre>a = 1\n\nb = 2</pre><p>--- a.py</p>")
    assert marked == "    a = 1\n\n    b = 2\n\n--- a.py\n"
    assert html_text("<pre>a = 1\n\nb = 2</pre>") == "```\na = 1\n\nb = 2\n```\n"


def test_a_preformatted_block_under_a_caption_naming_its_file_is_a_quote(tmp_path: Path) -> None:
    # a Markdown report's captioned fence, rendered: the caption's paragraph, then <pre>
    head = HTML.split("<p>A request without", 1)[0]
    page = (
        head
        + """<p><strong>src/gate.py</strong> (lines 2-3):</p>
<pre><code class="language-python">    if request.token is None:
        return "&lt;denied&gt;"
</code></pre>
<p>Nothing names this one:</p>
<pre><code class="language-python">return None
</code></pre>
</body></html>"""
    )
    repo = tmp_path / "repo"
    rev = make_repo(repo, {"src/gate.py": SOURCE})
    report = parse_report(page.format(rev=rev).encode(), "tiny-runtime-report.html")
    claim = report.records[1]
    assert [(q.path, q.claimed) for q in claim.quotes] == [("src/gate.py", (2, 3))]
    assert any("fenced code naming no file" in d.message for d in report.diagnostics)
    with Revision.open(repo) as revision:
        assert Anchorer(revision).anchor(claim.quotes[0]).match.value == "exact"


def test_a_folder_of_html_reports_is_read(tmp_path: Path) -> None:
    from evidence.reports.loading import load_reports

    folder = tmp_path / "reports"
    folder.mkdir()
    (folder / "tiny-runtime-report.html").write_text(HTML.format(rev="0" * 40))
    (folder / "index.html").write_text("<html><body><p>Documentation</p></body></html>")
    (loaded,) = load_reports([folder]).reports
    assert loaded.title == "Tiny runtime report" and len(loaded.records) == 2


@pytest.mark.parametrize(
    ("name", "data", "said"),
    [
        ("r.pdf", b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "a PDF document (pdftotext"),
        ("r.docx", b"PK\x03\x04\x14\x00\x06\x00", "a zip archive (a .docx or .odt"),
        ("r.doc", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an old Office document"),
        ("r.rtf", b"{\\rtf1\\ansi Tiny runtime report}", "an RTF document"),
    ],
)
def test_a_document_that_is_no_text_says_what_it_is(
    tmp_path: Path, name: str, data: bytes, said: str
) -> None:
    # it said "not an evidence report: no title ending in 'report', no 'Type:' line, ..."
    from click.testing import CliRunner

    from tui.cli import cli

    (tmp_path / name).write_bytes(data)
    result = CliRunner().invoke(cli, ["parse", str(tmp_path / name)])
    assert result.exit_code == 2
    assert said in result.stderr and "text, Markdown or HTML" in result.stderr


def test_a_less_than_sign_no_tag_closes_is_text() -> None:
    # read as text, as a page shows it; left to the parser, each was a tag looked for to the end
    assert html_text("<p>if a < b and c > d then x << 2</p>") == "if a < b and c > d then x << 2\n"


def _claim_page(body: str) -> str:
    return HTML.split("<p>A request without", 1)[0] + body + "\n</body></html>"


def test_inline_code_and_tables_read_as_the_markdown_rendered_to_them(tmp_path: Path) -> None:
    # a Markdown report's `code` (path:3) and its table, rendered: <code> without backticks,
    # rows as paragraphs of words, were no quotes and checked nothing
    body = """<p>It turns away with <code>return "&lt;denied&gt;"</code> (src/gate.py:3).</p>
<table><thead><tr><th>Code</th><th>Where</th></tr></thead>
<tbody><tr><td><code>def gate(request):</code></td><td>src/gate.py:1</td></tr>
<tr><td><code>return None</code></td><td><a href="src/gate.py#L9">src/gate.py#L9</a></td></tr>
</tbody></table>
<table><tr><td><p><code>request.token is None</code></p></td>
<td><p><code>src/gate.py:2</code></p></td></tr></table>"""
    repo = tmp_path / "repo"
    rev = make_repo(repo, {"src/gate.py": SOURCE})
    report = parse_report(_claim_page(body).format(rev=rev).encode(), "tiny-runtime-report.html")
    claim = report.records[1]
    assert [(q.text, q.claimed) for q in claim.quotes] == [
        ('return "<denied>"', (3, 3)),
        ("def gate(request):", (1, 1)),
        ("return None", (9, 9)),
        ("request.token is None", (2, 2)),  # a table with no heading row
    ]
    assert not [d for d in report.diagnostics if "unattributed" in d.message]
    with Revision.open(repo) as revision:
        anchors = [Anchorer(revision).anchor(quote) for quote in claim.quotes]
    assert [(a.match.value, a.lines, a.range_ok) for a in anchors] == [
        ("exact", (3, 3), True),
        ("exact", (1, 1), True),
        ("exact", (4, 4), False),  # a wrong line called out
        ("exact", (2, 2), True),
    ]


def test_code_a_marker_ends_keeps_its_text_as_written() -> None:
    # no backticks where the paragraph, or a table's cell, is a quote: its text as written
    assert html_text("<p><code>x = 1</code> --- a.py:3</p>") == "x = 1 --- a.py:3\n"
    assert html_text("<p>It reads: <code>x = 1</code> --- a.py:3</p>") == (
        "It reads:\n\nx = 1 --- a.py:3\n"
    )
    rows = "<table><tr><th>a</th></tr><tr><td><code>x</code> --- a.py:3</td></tr></table>"
    assert html_text(rows) == "| a |\n|---|\n\nx --- a.py:3\n"
    assert html_text("<p>a <code>x`y</code> b</p>") == "a `` x`y `` b\n"
    assert html_text("<table><tr><td><code>a|b</code></td></tr></table>") == (
        "| |\n|---|\n| `a\\|b` |\n"
    )


MARKDOWN = """\
# Tiny runtime report

Type: agentic-system-analyses/types/agentic-system-runtime-report.md

Evidence is SRC-1 at revision {rev}.

## Shared records

### Claims

#### TY-CLM-gate

Label: The gate

It turns away with `return "<denied>"` (src/gate.py:3), in
[`def gate(request):`](https://github.com/o/r/blob/{rev}/src/gate.py#L1).

| Check | Where |
| --- | --- |
| `request.token is None` | [gate.py:2](src/gate.py#L2) |

It is called from [the server](src/server.py#L9) and `src/router.py`; see
[the docs](#gate), <https://example.com/gate> and [mail](mailto:a@b.c).
"""


def test_a_markdown_report_rendered_to_html_reads_as_the_markdown(tmp_path: Path) -> None:
    # rendered by a real renderer (markdown-it, as GitHub and wikis do): the same quotes and
    # the same files named as the Markdown itself gives
    from markdown_it import MarkdownIt

    text = MARKDOWN.format(rev="0" * 40)
    page = MarkdownIt("commonmark").enable("table").render(text)

    from evidence.model import Report

    Read = list[tuple[list[tuple[str, str, tuple[int, int] | None]], list[tuple[str, ...]]]]

    def read(report: Report) -> Read:
        return [  # where each is in the report aside: a page has its own lines
            (
                [(q.text, q.path, q.claimed) for q in record.quotes],
                [c.paths for c in record.citations],
            )
            for record in report.records
        ]

    markdown = read(parse_report(text, "tiny-runtime-report.md"))
    html = read(parse_report(f"<html><body>{page}</body></html>".encode(), "r.html"))
    assert html == markdown
    quotes, citations = markdown[-1]
    assert quotes == [
        ('return "<denied>"', "src/gate.py", (3, 3)),
        ("def gate(request):", "src/gate.py", (1, 1)),
        ("request.token is None", "src/gate.py", (2, 2)),
    ]
    assert citations == [("src/server.py:9-9", "src/router.py")]


def test_a_link_is_written_as_markdown_but_where_a_marker_ends_it() -> None:
    page = (
        '<p>See <a href="src/a.py#L3">a</a>, <a href="https://x.org/a">https://x.org/a</a>,'
        ' <a href="#top">top</a>.</p><p><a href="src/a.py"><code>x = 1</code></a> --- a.py:3</p>'
    )
    assert html_text(page) == "See [a](src/a.py#L3), https://x.org/a, top.\n\nx = 1 --- a.py:3\n"
