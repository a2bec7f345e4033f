"""A search's paths are found as the tree spells them, and a path it lacks is said, not searched.

A report's bounded search (`rg -n 'eval' lib/`) was run in a checkout, where rg follows a link
it is given and macOS finds a name in either Unicode form; git's pathspecs do neither. Searched
as written, such a path (or a mistyped one) covers nothing: "0 hits", and the absence the
record claims looks confirmed.
"""

from __future__ import annotations

import json
import os
import unicodedata
from pathlib import Path

import pytest
from click.testing import CliRunner
from evidencekit import git, make_repo

from evidence.revision import Revision, RevisionError
from tui.cli import cli

NFC = unicodedata.normalize("NFC", "café")
NFD = unicodedata.normalize("NFD", "café")


@pytest.fixture
def repo(tmp_path: Path) -> tuple[Path, str]:
    root = tmp_path / "r"
    make_repo(root, {"src/app.py": "def handler():\n    eval(data)\n", f"{NFD}/m.py": "eval(x)\n"})
    os.symlink("src", root / "lib")
    os.symlink("src/app.py", root / "alias.py")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "links")
    return root, git(root, "rev-parse", "HEAD")


def paths_found(revision: Revision, *paths: str) -> list[str]:
    return [hit.path for hit in revision.grep("eval", fixed=True, paths=paths)]


def test_a_search_follows_links_and_the_other_form_of_a_name(repo: tuple[Path, str]) -> None:
    root, _ = repo
    with Revision.open(root) as revision:
        assert paths_found(revision, "lib/") == ["src/app.py"]
        assert paths_found(revision, "lib/app.py") == ["src/app.py"]
        assert paths_found(revision, "alias.py") == ["src/app.py"]  # not the link's own text
        assert paths_found(revision, f"{NFC}/") == [f"{NFD}/m.py"]
        assert paths_found(revision, f"{NFC}/m.py") == [f"{NFD}/m.py"]


def test_a_path_the_tree_lacks_is_an_error_not_nothing_found(repo: tuple[Path, str]) -> None:
    root, commit = repo
    lacking = rf"^srcc: no such file or directory at {commit[:7]}"
    with Revision.open(root) as revision, pytest.raises(RevisionError, match=lacking):
        paths_found(revision, "src", "srcc/")
    result = CliRunner().invoke(cli, ["grep", "--repo", str(root), "eval", "--", "srcc"])
    assert result.exit_code == 2 and "srcc: no such file or directory" in result.stderr
    result = CliRunner().invoke(cli, ["grep", "--repo", str(root), "eval", "--", "lib"])
    assert (result.exit_code, result.stdout) == (0, "src/app.py:2:    eval(data)\n")


REPORT = """\
Demo runtime report

Type: agentic-system-analyses/types/agentic-system-runtime-report.md

Runtime account

Evidence and claimed work

Evidence is SRC-1 at revision {commit}.

Shared records

Evidenced absences

DM-ABS-link

Label: no eval under lib

  • implementation conclusion status: absent

Bounded search at SRC-1 revision {commit}: rg -n 'eval' lib/ returns nothing.

DM-ABS-typo

Label: no eval under srcc

  • implementation conclusion status: absent

Bounded search at SRC-1 revision {commit}: rg -n 'eval' srcc/ returns nothing.
"""


def test_check_finds_what_a_replayed_search_of_a_link_finds(
    repo: tuple[Path, str], tmp_path: Path
) -> None:
    root, commit = repo
    report = tmp_path / "report.txt"
    report.write_text(REPORT.format(commit=commit), encoding="utf-8")
    result = CliRunner().invoke(
        cli, ["check", "--repo", str(root), str(report), "--format", "json"]
    )
    searches = {s["record"]: s for s in json.loads(result.stdout)["searches"]}
    assert searches["DM-ABS-link"]["count"] == 1  # the eval the record says is absent
    assert searches["DM-ABS-typo"]["count"] == 0
    assert "srcc: no such file or directory" in searches["DM-ABS-typo"]["error"]
    # the absence a search that could not run stands for is not shown: the check fails
    assert result.exit_code == 1, result.output
    assert json.loads(result.stdout)["summary"]["search_errors"] == 1
    text = CliRunner().invoke(cli, ["check", "--repo", str(root), str(report)])
    assert text.exit_code == 1 and "1 search(es) not run; FAIL" in text.stdout


@pytest.fixture
def with_submodule(tmp_path: Path) -> Path:
    """A repository whose vendor/sub is a submodule this clone has (as `git submodule update
    --init` leaves it), holding a nested submodule of its own."""
    deep = tmp_path / "deep"
    make_repo(deep, {"d.c": "eval_deep();\n"})
    sub = tmp_path / "sub"
    make_repo(sub, {"lib/helper.c": "int helper(void) {\n    return eval_sub();\n}\n"})
    git(sub, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(deep), "deep")
    git(sub, "commit", "-q", "-m", "deep")
    root = tmp_path / "main"
    make_repo(root, {"src/app.py": "eval(data)\n"})
    git(root, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(sub), "vendor/sub")
    git(root, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(deep), "z/deep")
    git(
        root,
        "-c",
        "protocol.file.allow=always",
        "submodule",
        "update",
        "-q",
        "--init",
        "--recursive",
    )
    git(root, "commit", "-q", "-m", "a submodule")
    return root


def test_a_search_covers_the_submodules_the_clone_has(with_submodule: Path) -> None:
    # rg in a checkout searches a submodule's files: an absence claimed of the whole tree
    # (or of vendor/) was confirmed while the call sat in vendor/sub
    with Revision.open(with_submodule) as revision:
        hits = list(revision.grep("eval", fixed=True))
        # each repository's hits, then its submodules'
        assert [(hit.path, hit.line, hit.text) for hit in hits] == [
            ("src/app.py", 1, "eval(data)"),
            ("vendor/sub/lib/helper.c", 2, "    return eval_sub();"),
            ("vendor/sub/deep/d.c", 1, "eval_deep();"),
            ("z/deep/d.c", 1, "eval_deep();"),
        ]
        assert hits[1].spans == ((11, 15),)
        assert paths_found(revision, "vendor") == [
            "vendor/sub/lib/helper.c",
            "vendor/sub/deep/d.c",
        ]
        assert paths_found(revision, "vendor/sub/lib") == ["vendor/sub/lib/helper.c"]
        assert paths_found(revision, "vendor/sub/deep/d.c", "src") == [
            "src/app.py",
            "vendor/sub/deep/d.c",
        ]
        assert paths_found(revision, "src") == ["src/app.py"]
        with pytest.raises(RevisionError, match="in the submodule vendor/sub: none.c: no such"):
            paths_found(revision, "vendor/sub/none.c")


def test_a_gitmodules_naming_more_than_a_command_line_holds(with_submodule: Path) -> None:
    # each name was given to one ls-tree: 150,000 of them stopped every search (E2BIG)
    gitmodules = (with_submodule / ".gitmodules").read_text(encoding="utf-8")
    names = "".join(
        f'[submodule "m{n}"]\n\tpath = a/long/directory/name/module_{n:06}\n\turl = ../m\n'
        for n in range(150_000)
    )
    (with_submodule / ".gitmodules").write_text(gitmodules + names, encoding="utf-8")
    git(with_submodule, "commit", "-q", "-am", "many names")
    with Revision.open(with_submodule) as revision:
        assert paths_found(revision, "vendor", "src") == [
            "src/app.py",
            "vendor/sub/lib/helper.c",
            "vendor/sub/deep/d.c",
        ]
