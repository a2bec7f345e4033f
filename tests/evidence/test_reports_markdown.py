"""Reports written in Markdown: quotes in fences (the fenced block is the quote, blank lines and
all, never the prose above it; what a fence holds is never the report's structure), headings
and record ids decorated as Markdown writes them."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from evidencekit import git, make_repo

from evidence.model import Kind, Record, Report
from evidence.reports.loading import load_reports
from evidence.reports.parser import parse_report
from tui.cli import cli

HEAD = """Probe runtime report

Type: agentic-system-analyses/types/agentic-system-runtime-report.md

Evidence at revision {rev}.

Shared records

Routes

PR-RTE-save

Label: Save endpoint

{body}
"""
SAVE = """import os

def save(path, content):
    with open(path, "w") as out:
        out.write(content)

    return {"path": path, "ok": True}
"""


def _report(body: str, rev: str = "0" * 40) -> str:
    return HEAD.format(rev=rev, body=body)


def _save(report: Report) -> Record:
    record = report.record("PR-RTE-save")
    assert record is not None
    return record


def _ids(report: Report) -> list[str]:
    return [r.id for r in report.records if r.kind is not Kind.NARRATIVE]


def test_a_fenced_quote_keeps_its_lines_past_a_blank_one() -> None:
    code = ["def save(path, content):", "    os.system(content)", "", "    return 1"]
    body = "\n".join(["The handler:", "", "```python", *code, "```", "--- tools.py:3-7"])
    (quote,) = _save(parse_report(_report(body), "r.md")).quotes
    assert quote.text.splitlines() == [
        "```python",
        "def save(path, content):",
        "    os.system(content)",
        "",
        "    return 1",
        "```",
    ]
    assert quote.claimed == (3, 7)


def test_the_prose_line_above_a_fence_is_not_quoted() -> None:
    report = parse_report(_report("The app:\n```js\nconst app = express();\n```\n--- a.js:3"), "r")
    (quote,) = _save(report).quotes
    assert quote.text == "```js\nconst app = express();\n```"


def test_what_a_fence_holds_is_not_the_reports_structure() -> None:
    # a quoted Markdown document with a kind heading and a record-like id in it
    document = ["Routes", "", "PR-RTE-other", "", "POST /api/chat sends a message."]
    body = "\n".join(["```markdown", *document, "```", "--- docs/api.md:3-7"])
    report = parse_report(_report(body), "r")
    assert _ids(report) == ["PR-RTE-save"]
    (quote,) = _save(report).quotes
    assert quote.text.splitlines()[1:3] == ["Routes", ""]
    assert not [d for d in report.diagnostics if "outside" in d.message]


def test_a_fence_never_closed_holds_nothing() -> None:
    # one stray fence line does not swallow the records after it
    text = _report("```\n\nPR-RTE-next\n\nLabel: next\n\n    x = 1\n\n--- a.py:1")
    report = parse_report(text, "r")
    assert _ids(report) == ["PR-RTE-save", "PR-RTE-next"]
    record = report.record("PR-RTE-next")
    assert record is not None and [q.text for q in record.quotes] == ["    x = 1"]


def test_check_fails_a_made_up_line_inside_a_fenced_quote(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    rev = make_repo(root, {"tools.py": SAVE})
    code = SAVE.splitlines()[2:]
    made_up = "\n".join(["```python", code[0], "    os.system(content)", *code[3:], "```"])
    made_up += "\n--- tools.py:3-7"
    as_written = "```python\n" + "\n".join(SAVE.splitlines()[2:]) + "\n```\n--- tools.py:3-7"
    results = []
    for name, body in (("made-up", made_up), ("as-written", as_written)):
        report = tmp_path / f"{name}-runtime-report.md"
        report.write_text(_report(body, rev))
        results.append(CliRunner().invoke(cli, ["check", "--repo", str(root), str(report)]))
    made, kept = results
    assert made.exit_code == 1 and "missing" in made.output.splitlines()[3]
    assert kept.exit_code == 0, kept.output
    assert "tools.py:3-7  PR-RTE-save  normalized" in kept.output
    assert git(root, "status", "--porcelain") == ""


DECORATED = """# Probe runtime report

Type: agentic-system-analyses/types/agentic-system-runtime-report.md

Evidence at revision {rev}.

## Shared records

## Routes

### PR-RTE-chat ###

Label: Chat endpoint

    const app = express();

--- src/server.js:1

**PR-RTE-save**

Label: Save endpoint

**Bold prose** stays prose.

`PR-RTE-load`

Label: Load endpoint
"""


def test_headings_and_record_ids_in_markdown_are_the_reports_structure() -> None:
    report = parse_report(DECORATED.format(rev="0" * 40), "r.md")
    assert (report.title, report.system) == ("Probe runtime report", "Probe")
    assert _ids(report) == ["PR-RTE-chat", "PR-RTE-save", "PR-RTE-load"]
    chat, save, load = (report.record(i) for i in _ids(report))
    assert chat is not None and chat.kind is Kind.ROUTE and chat.label == "Chat endpoint"
    assert [(q.path, q.claimed) for q in chat.quotes] == [("src/server.js", (1, 1))]
    assert save is not None and save.label == "Save endpoint" and "**Bold prose**" in save.body
    assert load is not None and load.label == "Load endpoint"
    assert not [d for d in report.diagnostics if "outside" in d.message or "twice" in d.message]


def test_front_matter_is_not_the_title() -> None:
    text = "---\ntitle: Probe\nlayout: report\n---\n\n" + DECORATED.format(rev="0" * 40)
    report = parse_report(text, "r.md")
    assert (report.title, report.system) == ("Probe runtime report", "Probe")
    assert _ids(report) == ["PR-RTE-chat", "PR-RTE-save", "PR-RTE-load"]


def test_two_labels_in_one_record_say_an_id_line_was_not_read() -> None:
    # a zero-width space in the second id (invisible in an editor): no record id, so its lines
    # joined the record above; its second Label: line says so
    text = _report("PR-RTE-load\u200b2\n\nLabel: Load endpoint\n")
    report = parse_report(text, "r.md")
    assert _ids(report) == ["PR-RTE-save"]
    assert _save(report).label == "Save endpoint"
    (said,) = [d for d in report.diagnostics if "second 'Label:'" in d.message]
    assert said.line == text.splitlines().index("Label: Load endpoint") + 1
    assert "PR-RTE-save" in said.message


@pytest.mark.parametrize(
    "label",
    [
        "**Label:** Save endpoint",
        "**Label**: Save endpoint",
        "- Label: Save endpoint",
        "*Label:* `Save endpoint`",
    ],
)
def test_a_label_in_markdown_is_the_records(label: str) -> None:
    text = HEAD.replace("Label: Save endpoint", label).format(rev="0" * 40, body="Saves.")
    report = parse_report(text, "r.md")
    assert _save(report).label == "Save endpoint"
    assert not report.diagnostics  # no "has no 'Label:' line"


def test_statuses_and_fields_in_markdown_bold_are_read() -> None:
    body = "\n".join(
        [
            "- **Implementation conclusion status:** wired",
            "- Operation conclusion status: **uninspected**",
            "- **Owner:** the API",
        ]
    )
    record = _save(parse_report(_report(body), "r.md"))
    assert record.statuses == (("implementation", "wired"), ("operation", "uninspected"))
    assert dict(record.fields)["Owner"] == "the API"


TITLED = """# Probe runtime report

Type: agentic-system-analyses/types/agentic-system-runtime-report.md

## Shared records

## Routes

{first}

    const app = express();

--- src/server.js:1

{second}

The save runs second.

**PR-RTE-note** — the route everyone calls, said in a sentence.

{third}
"""


@pytest.mark.parametrize(
    ("first", "second", "third"),
    [
        ("### PR-RTE-chat: Chat endpoint", "### PR-RTE-save — Save endpoint", "### PR-RTE-load"),
        (
            "### `PR-RTE-chat` (Chat endpoint)",
            "**PR-RTE-save** — *Save endpoint*",
            "#### PR-RTE-load",
        ),
        ("## **PR-RTE-chat**: Chat endpoint ##", "`PR-RTE-save` – Save endpoint", "PR-RTE-load"),
    ],
)
def test_a_heading_naming_a_record_and_its_label_opens_it(
    first: str, second: str, third: str
) -> None:
    text = TITLED.format(first=first, second=second, third=f"{third}\n\nLabel: Load endpoint")
    report = parse_report(text, "r.md")
    assert _ids(report) == ["PR-RTE-chat", "PR-RTE-save", "PR-RTE-load"]
    chat, save, load = (report.record(i) for i in _ids(report))
    assert chat is not None and chat.label == "Chat endpoint" and len(chat.quotes) == 1
    assert save is not None and save.label == "Save endpoint"
    assert "the route everyone calls" in save.body  # a sentence opening with an id: prose
    assert load is not None and load.label == "Load endpoint"
    assert not report.diagnostics


def test_an_id_and_label_as_a_line_of_prose_say_how_to_write_them() -> None:
    text = TITLED.format(first="PR-RTE-chat: Chat endpoint", second="", third="")
    report = parse_report(text, "r.md")
    assert _ids(report) == []
    said = report.diagnostics[0].message
    assert said.startswith("text outside any record: a record's id and label on one line")


def test_a_type_line_and_kind_headings_as_markdown_writes_them(tmp_path: Path) -> None:
    text = _report("Saves.").replace(
        "Type: agentic-system-analyses/types/agentic-system-runtime-report.md",
        "**Type:** `agentic-system-analyses/types/agentic-system-runtime-report.md`",
    )
    text = text.replace("Routes\n", "### Routes (1)\n").replace("Probe runtime report", "Probe")
    report = parse_report(text, "r.md")
    assert report.type_line == "agentic-system-analyses/types/agentic-system-runtime-report.md"
    assert _save(report).kind is Kind.ROUTE and not report.diagnostics
    (tmp_path / "r.md").write_text(text, encoding="utf-8")  # no title ending in "report"
    assert [Path(each.file).name for each in load_reports([tmp_path]).reports] == ["r.md"]
