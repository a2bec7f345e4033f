"""Issue 14, point 4: `assay check` and `assay review` agree on what they accept, before the app
opens: a report set that states no revision needs --rev (HEAD by name), an unknown revision is
exit 2 with its whole message, reports of several systems are refused naming them, a file that
is not a report is refused with the parser's diagnostics. In the app the header says where the
revision came from, and no verdict is saved against a revision that was not resolved.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest
from click.testing import CliRunner
from evidencekit import git, make_repo

from db import VerdictStore
from evidence.reports.loading import load_reports
from keymaps import load_keymap
from screens.review.screen import ReviewScreen
from tui.cli import cli
from tui.factory import make_app

REPORT = """\
{system} runtime report

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


@pytest.fixture
def repo(tmp_path: Path) -> tuple[Path, str]:
    path = tmp_path / "repo"
    return path, make_repo(path, {"src/app.py": "def handler():\n    return compute(42)\n"})


def report(tmp_path: Path, name: str, *, system: str = "Tiny", rev: str = "(not stated)") -> str:
    path = tmp_path / f"{name}-runtime-report.txt"
    path.write_text(REPORT.format(system=system, rev=rev), encoding="utf-8")
    return str(path)


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


COMMANDS = ["check", "review"]


@pytest.mark.parametrize("command", COMMANDS)
def test_no_stated_revision_needs_rev_even_for_head(
    command: str, tmp_path: Path, repo: tuple[Path, str]
) -> None:
    code, out, err = run(command, report(tmp_path, "a"), "--repo", str(repo[0]))
    assert code == 2 and out == ""
    assert "state no revision id; pass --rev" in err and "--rev HEAD" in err
    assert "Traceback" not in err


def test_check_at_head_by_name(tmp_path: Path, repo: tuple[Path, str]) -> None:
    code, out, _ = run("check", report(tmp_path, "a"), "--repo", str(repo[0]), "--rev", "HEAD")
    assert code == 0 and f"revision {repo[1]}" in out


@pytest.mark.parametrize("command", COMMANDS)
def test_unknown_revision_is_exit_two_with_the_whole_message(
    command: str, tmp_path: Path, repo: tuple[Path, str]
) -> None:
    long_repo = tmp_path / ("a-rather-long-directory-name-" * 3) / "repo"
    make_repo(long_repo, {"src/app.py": "return compute(42)\n"})
    code, out, err = run(
        command, report(tmp_path, "a"), "--repo", str(long_repo), "--rev", "deadbeef"
    )
    assert code == 2 and out == ""
    assert f"revision deadbeef not found in {long_repo}" in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("command", COMMANDS)
def test_reports_of_several_systems_are_refused_naming_them(
    command: str, tmp_path: Path, repo: tuple[Path, str]
) -> None:
    reports = [report(tmp_path, "a", system="Atlas"), report(tmp_path, "b", system="Echel")]
    code, _, err = run(command, *reports, "--repo", str(repo[0]), "--rev", "HEAD")
    assert code == 2
    assert "2 systems (Atlas, Echel)" in err and "Traceback" not in err


@pytest.mark.parametrize("command", COMMANDS)
def test_a_file_that_is_not_a_report_is_refused_in_one_line(
    command: str, tmp_path: Path, repo: tuple[Path, str]
) -> None:
    hello = tmp_path / "hello.md"
    hello.write_text("hello world\n", encoding="utf-8")
    code, out, err = run(command, str(hello), "--repo", str(repo[0]), "--rev", "HEAD")
    assert code == 2 and out == ""
    assert err == (
        f"assay {command}: {hello}: not an evidence report: no title ending in 'report', no "
        "'Type:' line, no shared record or annotation and no quote ('--- path')\n"
    )


@pytest.mark.parametrize("command", COMMANDS)
def test_every_file_that_is_not_a_report_is_named_and_nothing_opens(
    command: str, tmp_path: Path, repo: tuple[Path, str]
) -> None:
    toml = tmp_path / "pyproject.toml"
    toml.write_text('[build-system]\nrequires = ["hatchling"]\n', encoding="utf-8")
    passwd = tmp_path / "passwd"
    passwd.write_text("root:x:0:0:root:/root:/bin/bash\nbin:x:1:1::/:/bin/false\n")
    package = tmp_path / "package.json"
    package.write_text('{"name": "x", "version": "1.0.0"}\n', encoding="utf-8")
    good = report(tmp_path, "a")
    args = [good, str(toml), str(passwd), "--repo", str(repo[0]), "--rev", "HEAD"]
    code, out, err = run(command, *args)
    assert code == 2 and out == ""
    lines = err.splitlines()
    assert [line.split(": ")[1] for line in lines] == [str(toml), str(passwd)]
    assert all(line.startswith(f"assay {command}: ") for line in lines)
    assert all("not an evidence report" in line for line in lines)
    # a .json that is neither a bundle nor SARIF, named beside a missing file
    code, out, err = run(command, str(package), str(tmp_path / "gone.txt"), *args[3:])
    assert code == 2 and out == ""
    assert [line.split(": ")[1] for line in err.splitlines()] == [
        str(package),
        str(tmp_path / "gone.txt"),
    ]


def test_the_reports_of_the_sample_still_load(sample: Path) -> None:
    from evidence.sample import SAMPLE_REPORTS

    code, _, err = run("check", str(SAMPLE_REPORTS), "--repo", str(sample))
    assert code in (0, 1), err


def test_the_reference_reports_are_reports(shared_reports: Path) -> None:
    from evidence.inputs import missing_markers

    for path in sorted(shared_reports.glob("*.txt")):
        (loaded,) = load_reports([path]).reports
        assert missing_markers(loaded) is None, path.name


async def test_header_names_where_the_revision_came_from(
    tmp_path: Path, repo: tuple[Path, str]
) -> None:
    reports = load_reports([report(tmp_path, "a")])
    app = make_app(
        reports,
        repo[0],
        repo[1],
        tmp_path / "v.db",
        "ann",
        load_keymap(user=False),
        rev_origin="--rev HEAD",
    )
    async with app.run_test(size=(120, 30)) as pilot:
        screen = next(s for s in app.screen_stack if isinstance(s, ReviewScreen))
        await screen.settle()
        await pilot.pause()
        header = str(screen.query_one("#review-header").render())
        assert f"@{repo[1][:7]} (--rev HEAD)" in header
    app.close()


async def test_no_verdict_is_saved_against_an_unresolved_revision(
    tmp_path: Path, repo: tuple[Path, str]
) -> None:
    reports = load_reports([report(tmp_path, "a")])
    path = tmp_path / "v.db"
    app = make_app(reports, repo[0], "deadbeef", path, "ann", load_keymap(user=False))
    async with app.run_test(size=(120, 30)) as pilot:
        screen = next(s for s in app.screen_stack if isinstance(s, ReviewScreen))
        await screen.settle()
        await pilot.press("c")
        await screen.settle()
        await pilot.pause()
    app.close()
    with VerdictStore.open(path, readonly=True) as store:
        assert store.current("ann") == {}


def test_an_abbreviated_stated_revision_is_resolved_by_git(
    tmp_path: Path, repo: tuple[Path, str]
) -> None:
    root, commit = repo
    code, out, err = run("check", report(tmp_path, "a", rev=commit[:9]), "--repo", str(root))
    assert code == 0 and f"revision {commit}" in out, err
    # an abbreviation git cannot find is its message, not a guess
    code, out, err = run("check", report(tmp_path, "b", rev="0123456789ab"), "--repo", str(root))
    assert code == 2 and "revision 0123456789ab not found" in err


def stated_in(tmp_path: Path, *sentences: str) -> tuple[str, ...]:
    """The revisions a report whose text ends with ``sentences`` states."""
    path = tmp_path / "s-runtime-report.txt"
    text = REPORT.format(system="Tiny", rev="(see below)") + "\n".join(sentences) + "\n"
    path.write_text(text, encoding="utf-8")
    return load_reports([str(path)]).revision_ids()


def test_which_abbreviations_count_as_the_stated_revision(tmp_path: Path) -> None:
    stated = partial(stated_in, tmp_path)
    full = "150ffaafeba49438253d615c3dae668fd05ae979"
    assert stated("Read at commit 150ffaa.", "Also SHA: 150ffaafeba4.") == ("150ffaafeba4",)
    assert stated("The commit effaced the old flag; a 1234567 count.") == ()  # prose, numbers
    # named in full: an abbreviation elsewhere is another commit (a fix it mentions)
    assert stated(f"Evidence at revision {full}.", "Fixed in commit 3f2a9c1.") == (full,)
    assert stated("Fixed in commit 3f2a9c1.", "Rev 77aa001 too.") == ("3f2a9c1", "77aa001")


def test_abbreviated_revisions_say_their_lines_and_sentences() -> None:
    from evidence.reports.revisions import abbreviated_revisions

    text = [
        "x",
        "at commit 150ffaa. y",
        "",
        "then commit 3f2a9c1 and commit 88aa001",
        "rev 99bb002",
    ]
    said = [(m.sha, m.line, m.sentence) for m in abbreviated_revisions(text)]
    assert said == [
        ("150ffaa", 2, "at commit 150ffaa."),
        ("3f2a9c1", 4, "then commit 3f2a9c1 and commit 88aa001"),
        ("88aa001", 4, "then commit 3f2a9c1 and commit 88aa001"),
        ("99bb002", 5, "rev 99bb002"),
    ]


def test_a_tag_the_reports_name_is_the_revision_when_they_name_no_commit(
    tmp_path: Path, repo: tuple[Path, str]
) -> None:
    # it was "the reports state no revision id; pass --rev"
    root, commit = repo
    git(root, "tag", "v0.3.0")
    git(root, "tag", "-a", "-m", "release", "release-2")
    git(root, "branch", "v0.4.0")  # a branch of a tag's name is no tag
    said = "the library as the repository tags it {}"
    for tag in ("v0.3.0", "release-2"):
        code, out, err = run(
            "check", report(tmp_path, tag, rev=said.format(tag)), "--repo", str(root)
        )
        assert code == 0 and f"revision {commit}" in out, err
    code, _, err = run("check", report(tmp_path, "c", rev="tag v0.4.0"), "--repo", str(root))
    assert code == 2
    assert "revision refs/tags/v0.4.0 not found" in err and "git fetch --tags" in err


def test_which_tags_count_as_the_stated_revision(tmp_path: Path) -> None:
    stated = partial(stated_in, tmp_path)
    full = "150ffaafeba49438253d615c3dae668fd05ae979"
    assert stated("Read at the release tagged `v1.2`.") == ("refs/tags/v1.2",)
    assert stated("Tags v1 and v1.2 both point there.") == ("refs/tags/v1",)
    assert stated("It tags the branch; tag names are free.") == ()  # no digit: prose
    assert stated("The parser tags 12 kinds of line.") == ()  # a number alone: prose
    # a commit id named, in full or abbreviated: the tag is another name for it, or another commit
    assert stated(f"Evidence at revision {full}, tagged v1.2.") == (full,)
    assert stated("Read at commit 150ffaa (tag v1.2).") == ("150ffaa",)


def test_a_quote_outside_any_record_fails_the_check(tmp_path: Path, repo: tuple[Path, str]) -> None:
    # a record id the parser did not read (or none written) leaves the quote after it outside
    # any record: it is never anchored, so the check cannot say the report holds
    path, rev = repo
    text = REPORT.format(system="Tiny", rev=rev).replace(
        "Shared records\n", "Shared records\n\nreturn compute(41) --- src/app.py:2\n"
    )
    file = tmp_path / "stray-runtime-report.txt"
    file.write_text(text, encoding="utf-8")
    code, out, _err = run("check", str(file), "--repo", str(path))
    assert code == 1, out
    assert "1 quote(s) not read (outside any record, or behind a marker" in out
    assert "✗ " + str(file) + ":13: a quote ('--- path') outside any record" in out
    assert "note: " not in out  # said once
    assert out.rstrip().endswith("1 quote(s) not read; FAIL")
    code, out, _err = run("check", str(file), "--repo", str(path), "--format", "json")
    assert code == 1 and '"unchecked": 1' in out
    # the same report without the stray quote holds
    file.write_text(REPORT.format(system="Tiny", rev=rev), encoding="utf-8")
    assert run("check", str(file), "--repo", str(path))[0] == 0


def test_a_quote_behind_a_marker_not_read_fails_the_check(
    tmp_path: Path, repo: tuple[Path, str]
) -> None:
    # the author quoted code and named its file in a form the parser cannot take as a path and
    # lines: the parser said so, and the check said OK, the quote never looked at
    path, rev = repo
    base = REPORT.format(system="Tiny", rev=rev)
    file = tmp_path / "marker-runtime-report.txt"
    for tail in ("AppModule", "src/app.py is where"):
        text = base.replace("compute(42) --- src/app.py:2", f"compute(42) --- {tail}")
        assert text != base
        file.write_text(text, encoding="utf-8")
        code, out, _err = run("check", str(file), "--repo", str(path))
        assert code == 1, out
        assert "1 quote(s) not read" in out and "not read as a quote" in out, out
    # a dash in prose before a path is a guess: said, not failed
    prose = base + "\nThe handler is small, and it waits — src/app.py:2.\n"
    file.write_text(prose, encoding="utf-8")
    code, out, _err = run("check", str(file), "--repo", str(path))
    assert code == 0 and "a renderer made a dash?" in out, out


def test_of_several_full_ids_the_one_a_source_is_at_is_the_stated_revision(
    tmp_path: Path,
) -> None:
    # a report that names, in full, a commit it talks about was refused ("several revisions")
    stated = partial(stated_in, tmp_path)
    at, later = "150ffaafeba49438253d615c3dae668fd05ae979", "3f2a9c1" + "0" * 33
    evidence = f"Evidence is SRC-1, the service at revision {at}."
    assert stated(evidence, f"The flag was dropped later, in commit {later}.") == (at,)
    assert stated(f"The flag was dropped later, in commit {later}.", evidence) == (at,)
    # two sources, each at its revision, or none said: both, and --rev is asked for
    both = f"Evidence is SRC-1 at revision {at} and SRC-2 at revision {later}."
    assert stated(both) == (at, later)
    assert stated(f"Read at revision {at}.", f"Fixed in commit {later}.") == (at, later)
