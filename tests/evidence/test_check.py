"""`assay check`: the answer key of the sample, the JSON contract, exit codes, safety, replays."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from evidencekit import arm, git, make_repo

from evidence.anchoring import Anchorer
from evidence.check import run_check
from evidence.check_output import to_json, to_text
from evidence.inputs import CheckError, choose_revision
from evidence.model import SearchReplay
from evidence.replay import options_for, replay
from evidence.reports.loading import load_reports
from evidence.revision import Revision
from evidence.sample import ANSWER_KEY, CITED_REVISION, SAMPLE_REPORTS, TIP_REVISION, sample_repo
from tui.cli import cli

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def kestrel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return sample_repo(tmp_path_factory.mktemp("kestrel"))


def answer_key() -> list[dict[str, str]]:
    """The rows of the answer key table in sample_data/README.md."""
    text = ANSWER_KEY.read_text(encoding="utf-8")
    table = text.split("<!-- answer-key:start -->")[1].split("<!-- answer-key:end -->")[0]
    rows = [line.strip() for line in table.strip().splitlines()]
    header = [cell.strip() for cell in rows[0].strip("|").split("|")]
    return [
        dict(zip(header, (c.strip() for c in row.strip("|").split("|")), strict=True))
        for row in rows[2:]
    ]


def _span(value: str) -> list[int] | None:
    if value == "-":
        return None
    first, _, last = value.partition("-")
    return [int(first), int(last or first)]


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["check", *args], catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


# --- the answer key --------------------------------------------------------------------------


def test_every_sample_quote_matches_the_answer_key(kestrel: Path) -> None:
    key = answer_key()
    assert len(key) == 34
    reportset = load_reports([SAMPLE_REPORTS])
    with Revision.open(kestrel, CITED_REVISION) as revision:
        result = to_json(run_check(reportset, revision))
    got = {(Path(q["report"]).name, q["report_line"]): q for q in result["quotes"]}
    assert len(got) == len(key)
    mismatches = []
    for row in key:
        quote = got[(row["report"], int(row["marker line"]))]
        elsewhere = [f"{e['path']}:{e['lines'][0]}-{e['lines'][1]}" for e in quote["elsewhere"]]
        actual = {
            "record": quote["record"],
            "cited path": quote["path"],
            "claimed": quote["claimed"],
            "file": quote["file"],
            "match": quote["match"],
            "lines": quote["lines"],
            "range_ok": {None: "-", True: "yes", False: "no"}[quote["range_ok"]],
            "elsewhere": ";".join(elsewhere) or "-",
        }
        expected = {
            "record": row["record"],
            "cited path": row["cited path"],
            "claimed": _span(row["claimed"]),
            "file": row["file"],
            "match": row["match"],
            "lines": _span(row["lines"]),
            "range_ok": row["range_ok"],
            "elsewhere": row["elsewhere"],
        }
        if actual != expected:
            mismatches.append((row["report"], row["marker line"], expected, actual))
    assert mismatches == []


def test_the_ambiguous_sample_quote_lists_both_occurrences(kestrel: Path) -> None:
    with Revision.open(kestrel, CITED_REVISION) as revision:
        result = to_json(run_check(load_reports([SAMPLE_REPORTS]), revision))
    ambiguous = [q for q in result["quotes"] if q["ambiguous"]]
    assert [(q["record"], q["occurrences"]) for q in ambiguous] == [
        ("On KS-RTE-ticket-escalation", [[75, 81], [92, 98]])
    ]
    fuzzy = {q["path"]: q for q in result["quotes"] if q["match"] == "fuzzy"}
    changed = [p for p in fuzzy["worker/src/retry.js"]["diff"] if p["op"] != "equal"]
    assert changed == [{"op": "replace", "quote": "5", "source": "4"}]
    assert fuzzy["worker/src/retry.js"]["lines"] == [3, 4]


def test_reading_the_tip_instead_gives_other_answers(kestrel: Path) -> None:
    """The sample's trap: at HEAD the same quotes sit elsewhere or differ."""
    with Revision.open(kestrel, TIP_REVISION) as revision:
        result = to_json(run_check(load_reports([SAMPLE_REPORTS]), revision))
    by_line = {(Path(q["report"]).name, q["report_line"]): q for q in result["quotes"]}
    moved = by_line[("kestrel-runtime-report.txt", 52)]
    assert (moved["lines"], moved["range_ok"]) == ([73, 74], False)
    assert by_line[("kestrel-runtime-report.txt", 110)]["match"] == "fuzzy"


# --- the command line ------------------------------------------------------------------------


def test_json_contract_and_exit_one(kestrel: Path) -> None:
    code, out, err = run(str(SAMPLE_REPORTS), "--repo", str(kestrel), "--format", "json")
    assert code == 1, err
    data = json.loads(out)
    assert data["revision"] == CITED_REVISION
    contract = {
        "report",
        "report_line",
        "record",
        "path",
        "claimed",
        "file",
        "match",
        "score",
        "lines",
        "occurrences",
        "range_ok",
        "elsewhere",
        "diff",
    }
    for quote in data["quotes"]:
        assert contract <= set(quote)
        assert 0 <= quote["score"] <= 100
        assert quote["file"] in {"ok", "missing", "binary", "too_large"}
    assert data["summary"]["quotes"] == 34
    assert data["summary"]["failing"] == 7
    (search,) = data["searches"]
    assert search["record"] == "KS-ABS-station-list"
    assert search["command"] == "rg -n 'require_token' api/server.py"
    assert [(h["path"], h["line"]) for h in search["hits"]] == [
        ("api/server.py", line) for line in (11, 37, 44, 53, 63)
    ]


def test_text_output_failures_first_then_summary(kestrel: Path) -> None:
    code, out, _ = run(str(SAMPLE_REPORTS), "--repo", str(kestrel), "--rev", "v0.3.0")
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == f"revision {CITED_REVISION}"
    failing_at = lines.index("7 failing:")
    verified_at = lines.index("27 verified:")
    assert failing_at < verified_at
    failing_block = "\n".join(lines[failing_at:verified_at])
    assert "≈ worker/src/retry.js:3-4  KS-RTE-note-sync  fuzzy 98" in failing_block
    assert "[-5-]{+4+}00" in failing_block
    assert "found in api/kestrel/notes.py:48-49 (whitespace)" in failing_block
    assert "claimed lines 111-112, found at 121" in failing_block
    assert lines[-1].startswith("34 quotes: 10 exact, 10 whitespace, 8 normalized, 3 fuzzy")
    assert lines[-1].endswith("FAIL")


REPORT = """\
Tiny runtime report

Type: agentic-system-analyses/types/agentic-system-runtime-report.md

Runtime account

Evidence

Evidence is SRC-1 at revision {rev}.

Shared records

Claims

TY-CLM-answer

Label: The answer

The handler returns a fixed number (SRC-1, src/app.py).

return compute(42) --- src/app.py:2
"""


def test_exit_zero_when_every_quote_holds(tmp_path: Path) -> None:
    commit = make_repo(
        tmp_path / "repo", {"src/app.py": "def handler():\n    return compute(42)\n"}
    )
    report = tmp_path / "tiny-runtime-report.txt"
    report.write_text(REPORT.format(rev=commit), encoding="utf-8")
    code, out, err = run(str(report), "--repo", str(tmp_path / "repo"))
    assert (code, err) == (0, "")
    assert out.splitlines()[-1].endswith("OK")
    assert "✓ src/app.py:2  TY-CLM-answer  exact" in out


def test_a_quoted_file_whose_object_is_gone_makes_the_check_incomplete(tmp_path: Path) -> None:
    # a partial or damaged clone: "file missing" and exit 1 blamed the report for it, and the
    # anchors were cached so that the repaired clone still showed the file missing
    repo = tmp_path / "repo"
    text = "def handler():\n    return compute(42)\n# cached by no other test\n"
    commit = make_repo(repo, {"src/app.py": text})
    report = tmp_path / "tiny-runtime-report.txt"
    report.write_text(REPORT.format(rev=commit), encoding="utf-8")
    blob = git(repo, "rev-parse", f"{commit}:src/app.py")
    (repo / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    code, out, _ = run(str(report), "--repo", str(repo), "--format", "json")
    assert code == 2 and json.loads(out)["unreadable"] == ["src/app.py"]
    code, out, _ = run(str(report), "--repo", str(repo))
    assert code == 2
    assert (
        f"note: 1 quoted file(s) are in {commit[:12]} but their objects are missing from the "
        "repository (a partial or damaged clone: see git fsck), so their quotes were not "
        "checked: src/app.py"
    ) in out
    subprocess.run(["git", "hash-object", "-w", "--stdin"], cwd=repo, input=text.encode())
    code, out, _ = run(str(report), "--repo", str(repo))
    assert code == 0 and "✓ src/app.py:2  TY-CLM-answer  exact" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rev", "0" * 40], "revision 0000000000000000000000000000000000000000 not found"),
        (["--rev", "--output=x"], "invalid revision"),
        (["--repo", "/nonexistent/repo"], "does not exist"),
    ],
)
def test_input_errors_exit_two(kestrel: Path, args: list[str], message: str) -> None:
    full = [str(SAMPLE_REPORTS), "--repo", str(kestrel), *args]
    code, out, err = run(*full)
    assert code == 2
    assert out == ""
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_no_revision_stated_is_an_input_error(tmp_path: Path, kestrel: Path) -> None:
    report = tmp_path / "norev-runtime-report.txt"
    report.write_text(REPORT.format(rev="(not stated)"), encoding="utf-8")
    code, _, err = run(str(report), "--repo", str(kestrel))
    assert code == 2
    assert "state no revision id; pass --rev" in err
    code, _, err = run(str(tmp_path / "absent.txt"), "--repo", str(kestrel))
    assert code == 2 and "Traceback" not in err


def test_several_stated_revisions_need_rev(tmp_path: Path) -> None:
    one = tmp_path / "a-runtime-report.txt"
    two = tmp_path / "b-runtime-report.txt"
    one.write_text(REPORT.format(rev="a" * 40), encoding="utf-8")
    two.write_text(REPORT.format(rev="b" * 40), encoding="utf-8")
    reportset = load_reports([one, two])
    with pytest.raises(CheckError, match="several revisions") as raised:
        choose_revision(reportset, None)
    # where each is stated, to choose knowing which is which
    assert f"{'a' * 40} at {one}:" in str(raised.value)
    assert f"{'b' * 40} at {two}:" in str(raised.value)
    assert choose_revision(reportset, "main") == "main"


def test_check_runs_nothing_in_a_hostile_repository(tmp_path: Path) -> None:
    root = tmp_path / "hostile"
    commit = make_repo(
        root,
        {
            "src/app.py": "def handler():\n    return compute(42)\n",
            "lost.txt": "gone\n",
            ".gitattributes": "* diff=evil filter=evil\n",
        },
    )
    marks = tmp_path / "marks"
    marks.mkdir()
    arm(root, marks)
    report = tmp_path / "tiny-runtime-report.txt"
    report.write_text(
        REPORT.format(rev=commit) + "\ngone --- lost.txt\n\nrg -n 'compute' src/app.py finds it.\n",
        encoding="utf-8",
    )
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "tui.cli",
            "check",
            str(report),
            "--repo",
            str(root),
            "--format",
            "json",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2, result.stderr  # lost.txt's object is not there: incomplete
    data = json.loads(result.stdout)
    assert data["quotes"][0]["match"] == "exact" and data["unreadable"] == ["lost.txt"]
    assert sorted(path.name for path in marks.iterdir()) == []


# --- the reference reports -------------------------------------------------------------------


@pytest.mark.reference
def test_reference_reports_against_the_sample(shared_reports: Path, kestrel: Path) -> None:
    # the folder holds reports about four systems: refused as a whole, naming them
    code, out, err = run(str(shared_reports), "--repo", str(kestrel), "--rev", CITED_REVISION)
    assert code == 2 and out == ""
    assert "4 systems (ATLAS, Echel, Talorys, Arsumbris)" in err
    quotes, searches = [], []
    for report in sorted(shared_reports.glob("*.txt")):
        code, out, err = run(
            str(report), "--repo", str(kestrel), "--rev", CITED_REVISION, "--format", "json"
        )
        assert code == 1, err
        data = json.loads(out)
        quotes += data["quotes"]
        searches += data["searches"]
    assert len(quotes) >= 40
    with Revision.open(kestrel, CITED_REVISION) as revision:
        for quote in quotes:
            assert not revision.exists(quote["path"])
            assert quote["file"] == "missing"
            assert quote["match"] == "missing"
    assert [s["command"] for s in searches] == ["rg -n 'checkAuth' src/ui-server.js"]
    assert searches[0]["hits"] == []


# --- search replay ---------------------------------------------------------------------------


def _search(
    command: str, tool: str, pattern: str, flags: tuple[str, ...], paths: tuple[str, ...]
) -> SearchReplay:
    return SearchReplay(command, tool, pattern, flags, paths, "", 1, "R")


def test_replay_flags(tmp_path: Path) -> None:
    make_repo(
        tmp_path / "r",
        {"a.py": "checkAuth()\nCheckAuth()\ncheckAuthority()\nx = a+b\n", "b.py": "checkAuth\n"},
    )
    with Revision.open(tmp_path / "r") as revision:
        rg = _search("rg -n 'checkAuth' a.py", "rg", "checkAuth", ("-n",), ("a.py",))
        assert [h.line for h in replay(rg, revision)] == [1, 3]
        rg_i = _search("", "rg", "checkauth", ("-i", "-w"), ("a.py",))
        assert [h.line for h in replay(rg_i, revision)] == [1, 2]
        smart = _search("", "rg", "checkauth", ("-S",), ())
        assert [(h.path, h.line) for h in replay(smart, revision)] == [
            ("a.py", 1),
            ("a.py", 2),
            ("a.py", 3),
            ("b.py", 1),
        ]
        basic = _search("", "grep", "a+b", ("-rn",), ("a.py",))
        assert [h.line for h in replay(basic, revision)] == [4]  # '+' is literal in a BRE
        extended = _search("", "grep", "a+b", ("-E",), ("a.py",))
        assert replay(extended, revision) == []
        fixed = _search("", "git grep", "a+b", ("-F",), ())
        assert [h.line for h in replay(fixed, revision)] == [4]
        globbed = _search("", "rg", "x", ("-g", "*.py"), ())
        assert options_for(globbed).ignored == ("-g", "*.py")


def test_anchorer_is_reusable_across_checks(kestrel: Path) -> None:
    reportset = load_reports([SAMPLE_REPORTS])
    with Revision.open(kestrel, CITED_REVISION) as revision:
        anchorer = Anchorer(revision)
        first = run_check(reportset, revision, anchorer=anchorer)
        second = run_check(reportset, revision, anchorer=anchorer)
        assert to_json(first) == to_json(second)
        assert "34 quotes" in to_text(second)


def test_a_check_again_reads_what_the_first_stored(
    kestrel: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `assay check` read and anchored everything each time (a scan of 135,130 results: 7.5 s a
    # check); it now uses the review's caches of reports and anchors
    import gc

    from evidence import anchor_cache
    from evidence.reports import cache as report_cache

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    args = (str(SAMPLE_REPORTS), "--repo", str(kestrel), "--format", "json")
    code, first, _ = run(*args)
    assert code == 1 and gc.isenabled()  # the collector, paused for the check, runs again
    assert len(list(report_cache.default_directory().glob("*.marshal"))) == 2
    directory = anchor_cache.default_directory()
    (entry,) = directory.glob("*.marshal")
    quotes = [q for record in load_reports([SAMPLE_REPORTS]).records() for q in record.quotes]
    cached = anchor_cache.get(directory, entry.stem, quotes)
    assert cached is not None
    doctored = [anchor._replace(notes=("from the cache",)) for anchor in cached.anchors]
    anchor_cache.put(directory, entry.stem, doctored, cached.citations)
    code, again, _ = run(*args)
    assert code == 1
    quoted = json.loads(again)["quotes"]
    assert {tuple(quote["notes"]) for quote in quoted} == {("from the cache",)}
    for quote in quoted:
        quote["notes"] = []
    assert quoted == [dict(quote, notes=[]) for quote in json.loads(first)["quotes"]]
