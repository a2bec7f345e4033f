"""A code-like paragraph with no `--- path` after it: a parser diagnostic that `assay check`
prints and the record pane shows on its record ("unattributed passage: not checked"); prose with
semicolons and calls is not one."""

from __future__ import annotations

import subprocess
from pathlib import Path

from click.testing import CliRunner

from evidence.reports.contents import INFERRED, UNATTRIBUTED
from evidence.reports.loading import load_reports
from evidence.reports.parser import parse_report
from keymaps import load_keymap
from screens.review.history import Location
from screens.review.screen import ReviewScreen
from tui.cli import cli
from tui.factory import make_app

REPORT = """\
Tiny runtime report

Type: agentic-system-analyses/types/agentic-system-runtime-report.md

Runtime account

Evidence

Evidence is SRC-1 at revision {rev}. The handler calls compute(); it returns a number; no
caller checks it (SRC-1, src/app.py).

Shared records

Claims

TY-CLM-answer

Label: The answer

The handler returns a fixed number (SRC-1, src/app.py).

def handler(): --- src/app.py:1

total = compute(42); log.info(total)

The value is never checked; see handler() and compute() above.
"""


def repository(tmp_path: Path) -> tuple[Path, str]:
    repo = tmp_path / "repo"
    (repo / "src").mkdir(parents=True)
    (repo / "src" / "app.py").write_text("def handler():\n    return compute(42)\n")
    for args in (
        ["init", "-q"],
        ["add", "."],
        ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "one"],
    ):
        subprocess.run(["git", *args], cwd=repo, check=True)
    commit = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=repo, check=True, capture_output=True, text=True
    ).stdout.strip()
    return repo, commit


def report_file(tmp_path: Path, rev: str) -> Path:
    path = tmp_path / "tiny-runtime-report.txt"
    path.write_text(REPORT.format(rev=rev), encoding="utf-8")
    return path


def test_only_the_code_paragraph_is_diagnosed() -> None:
    report = parse_report(REPORT.format(rev="0" * 40), "tiny.txt")
    lines = REPORT.split("\n")
    line = lines.index("total = compute(42); log.info(total)") + 1
    assert [(d.line, d.message) for d in report.diagnostics] == [(line, UNATTRIBUTED)]
    record = report.record("TY-CLM-answer")
    assert record is not None and [q.text for q in record.quotes] == ["def handler():"]


def test_check_prints_the_diagnostic(tmp_path: Path) -> None:
    repo, commit = repository(tmp_path)
    path = report_file(tmp_path, commit)
    result = CliRunner().invoke(cli, ["check", str(path), "--repo", str(repo)])
    assert result.exit_code == 0, result.output
    line = REPORT.split("\n").index("total = compute(42); log.info(total)") + 1
    assert f"note: {path}:{line}: {UNATTRIBUTED}" in result.stdout


async def test_the_record_pane_shows_it_on_the_record(tmp_path: Path) -> None:
    repo, commit = repository(tmp_path)
    reports = load_reports([report_file(tmp_path, commit)])
    app = make_app(reports, repo, commit, tmp_path / "v.db", "ann", load_keymap(user=False))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = next(s for s in app.screen_stack if isinstance(s, ReviewScreen))
        await screen.settle()
        for record_id, shown in (("TY-CLM-answer", True), ("runtime:evidence", False)):
            index = next(n for n, r in enumerate(screen.session.records) if r.id == record_id)
            screen.go(Location(index, None))
            await screen.settle()
            await pilot.pause()
            pane = screen.record_pane
            text = "\n".join(pane.row(n).prompt.plain for n in range(pane.row_count))
            assert ("unattributed passage: not checked" in text) is shown, text
    app.close()


ABOVE = """\
Tiny runtime report

Type: agentic-system-analyses/types/agentic-system-runtime-report.md

Runtime account

Evidence

Evidence is SRC-1 at revision {rev} (SRC-1, src/app.py).

Shared records

Claims

TY-CLM-answer

Label: The answer

The handler computes its answer once; a block quoted with an empty line in it:

def handler(): return compute(42)

def compute(n): --- src/app.py

Prose that reads like code is not taken: total = compute(1); see above.

x = compute(2); y = x + 1 --- src/app.py:9
"""


def test_a_code_paragraph_just_above_a_quote_is_checked_in_its_file(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "src").mkdir(parents=True)
    (repo / "src" / "app.py").write_text(
        "def handler(): return compute(42)\n\ndef compute(n):\n    return n * 2\n"
    )
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    subprocess.run(["git", "add", "."], cwd=repo, check=True)
    git_commit = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one"]
    subprocess.run(git_commit, cwd=repo, check=True)
    rev = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=repo, check=True, capture_output=True, text=True
    ).stdout.strip()
    text = ABOVE.format(rev=rev)
    report = parse_report(text, "tiny.txt")
    record = report.record("TY-CLM-answer")
    assert record is not None
    # the paragraph just above the first quote is read with its path; the prose above the
    # second is not code (it ends a sentence)
    assert [(q.text, q.path, q.index) for q in record.quotes] == [
        ("def handler(): return compute(42)", "src/app.py", 0),
        ("def compute(n):", "src/app.py", 1),
        ("x = compute(2); y = x + 1", "src/app.py", 2),
    ]
    line = text.split("\n").index("def handler(): return compute(42)") + 1
    assert [(d.line, d.message) for d in report.diagnostics] == [
        (line, INFERRED.format(path="src/app.py"))
    ]
    path = tmp_path / "tiny-runtime-report.txt"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", str(path), "--repo", str(repo)])
    assert "✓ src/app.py:1  TY-CLM-answer  exact" in result.stdout, result.stdout
    assert f"note: {path}:{line}: {INFERRED.format(path='src/app.py')}" in result.stdout
