"""Files a Markdown report names in its prose (`` `api/auth.py` ``, ``api/server.py:73``, a link
to the file) are cited files: checked at the revision, a missing one said, as ``(SRC-1, path)``
is. A report written so cited nothing, and `assay check` passed it however many of the files it
named the revision lacked."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from evidencekit import make_repo
from test_reports_markdown import HEAD, SAVE

from evidence.reports.mentions import mentions_in
from evidence.reports.parser import parse_report
from tui.cli import cli

BLOB = "https://github.com/o/r/blob/" + "0" * 40


@pytest.mark.parametrize(
    ("line", "named"),
    [
        ("Tokens are checked in `src/auth.py` first.", ["src/auth.py"]),
        (
            "The routes are at src/app.py:78-86, the rest at lib/a.js:3.",
            ["src/app.py:78-86", "lib/a.js:3-3"],
        ),
        (
            "See [auth](src/auth.py#L30) and [it](../src/save.py).",
            ["src/auth.py:30-30", "src/save.py"],
        ),
        (f"As [the host shows]({BLOB}/src/save.py#L3-L5).", ["src/save.py:3-5"]),
        ("`config.json:4` then `src/a.py` then `src/a.py`.", ["config.json:4-4", "src/a.py"]),
        ("In (src/app.py:9).", ["src/app.py:9-9"]),
        ("Built by `bin/serve:3`, not `bin/serve`.", ["bin/serve:3-3"]),
        # a name such files have without an extension
        (
            "Built by `docker/Dockerfile`, run by `ops/Makefile:12` and `Makefile:3`.",
            ["docker/Dockerfile", "ops/Makefile:12-12", "Makefile:3-3"],
        ),
    ],
)
def test_a_file_named_deliberately_is_read(line: str, named: list[str]) -> None:
    assert mentions_in(line) == named


@pytest.mark.parametrize(
    "line",
    [
        "The app writes `state.json` at run time.",  # a name alone: maybe no file of the tree
        "It reads `/etc/app.conf` and `~/.app.toml`.",  # the machine's
        "It answers `GET /tickets/list` and `POST /v1/notes.json`.",  # routes
        "The folder `src/` holds it.",
        "Served at https://host/src/app.py:3 and /api/v1/a.json:3.",
        "A [section](#routes), a [mail](mailto:a@b.c), [docs](https://example.com/a.md).",
        "It calls `os.path.join` at 10:30 on 3/4.",
        "Each service has a `Dockerfile` and a Makefile.",  # a name alone, as `state.json`
        # a host and its port
        "It posts to `api.stripe.com:443`, `db.internal:5432`, `redis.svc.cluster.local:6379`.",
    ],
)
def test_what_names_no_file_of_the_tree_is_not_read(line: str) -> None:
    assert mentions_in(line) == []


def _record(body: str):  # type: ignore[no-untyped-def]
    report = parse_report(HEAD.format(rev="0" * 40, body=body), "r.md")
    record = report.record("PR-RTE-save")
    assert record is not None
    return record


def test_a_records_named_files_are_its_citations_but_the_files_it_quotes() -> None:
    body = "\n".join(
        [
            "Saving is checked in `src/guard.py` and runs `save(path, content)` (src/save.py:3).",
            "",
            "```python",
            "import lib/vendored.js:3",
            "```",
            "",
            "It is logged at src/log.py:12 (SRC-1, src/other.py).",
        ]
    )
    record = _record(body)
    assert [q.path for q in record.quotes] == ["src/save.py"]
    assert [(c.source, c.paths, c.line) for c in record.citations] == [
        ("", ("src/guard.py",), 15),
        ("SRC-1", ("src/other.py",), 21),
        ("", ("src/log.py:12-12",), 21),
    ]


def test_check_says_a_named_file_the_revision_lacks(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    rev = make_repo(repo, {"src/save.py": SAVE, "src/guard.py": "GUARD = 1\n"})
    report = tmp_path / "r.md"
    body = "Saving is checked in `src/guard.py`, then in `src/gaurd2.py` and [x](src/sav.py#L3)."
    report.write_text(HEAD.format(rev=rev, body=body), encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", "--repo", str(repo), str(report)])
    assert result.exit_code == 1, result.stdout
    assert "2 cited path(s) missing:" in result.stdout
    assert "✗ src/gaurd2.py  PR-RTE-save" in result.stdout
    assert "✗ src/sav.py  PR-RTE-save" in result.stdout
    assert "closest existing path: src/save.py" in result.stdout
    assert "2 of 3 cited path(s) missing" in result.stdout
    report.write_text(HEAD.format(rev=rev, body="It is checked in `src/guard.py`."))
    result = CliRunner().invoke(cli, ["check", "--repo", str(repo), str(report)])
    assert result.exit_code == 0, result.stdout
    assert "0 of 1 cited path(s) missing" in result.stdout


@pytest.mark.parametrize(
    ("raw", "lines"),
    [
        ("src/a.py:12", (12, 12)),
        ("src/a.py:12-14", (12, 14)),
        ("src/a.py:L3-L9", (3, 9)),
        ("src/a.py#L3C1-L9C4", (3, 9)),
        ("`src/a.py:7:5`", (7, 7)),
        ("src/a.py", None),
    ],
)
def test_the_lines_a_cited_path_names(raw: str, lines: tuple[int, int] | None) -> None:
    from evidence.citations import cited_lines

    assert cited_lines(raw) == lines
