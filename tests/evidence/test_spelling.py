"""Cited paths as the tree spells them: through symlinked directories, in the other Unicode form
of a name, and inside submodules (read in the submodule's repository when the clone has it)."""

from __future__ import annotations

import shutil
import unicodedata
from pathlib import Path

import pytest
from click.testing import CliRunner
from evidencekit import git, make_repo

from evidence.citations import CitedState, PathIndex
from evidence.drift import DriftStatus, follow_anchors
from evidence.git.spelling import TreeSpelling, Unsearched, link_target
from evidence.git.submodules import module_directories, submodule_names
from evidence.git.tree import TreeEntry
from evidence.model import Anchor, FileState, Quote, Tier
from evidence.revision import Revision
from tui.cli import cli

NFC = unicodedata.normalize("NFC", "café")
NFD = unicodedata.normalize("NFD", "café")


def _entries(**links: str) -> tuple[dict[str, TreeEntry], dict[str, str]]:
    files = ["src/server.js", "src/lib/util.js", f"docs/{NFD}.md", "vendor/sub", "README"]
    entries = {path: TreeEntry(path, "100644", "blob", "0" * 40, 1) for path in files}
    entries["vendor/sub"] = TreeEntry("vendor/sub", "160000", "commit", "c" * 40, 0)
    for path in links:
        entries[path] = TreeEntry(path, "120000", "link", path, 1)
    return entries, links


def _spelling(**links: str) -> TreeSpelling:
    entries, targets = _entries(**links)
    return TreeSpelling(entries, lambda entry: targets[entry.path])


def test_a_path_as_written_is_itself() -> None:
    found = _spelling().find("./src/server.js")
    assert (found.path, found.found, found.via, found.submodule) == (
        "src/server.js",
        True,
        "",
        None,
    )


def test_the_other_unicode_form_of_a_name_is_the_trees() -> None:
    spelling = _spelling()
    found = spelling.find(f"docs/{NFC}.md")
    assert found.found and found.path == f"docs/{NFD}.md"
    assert found.via == "docs/café.md is spelled docs/cafe\\u0301.md in the tree"
    assert not spelling.find("docs/cafe.md").found  # no accent: another name


def test_two_names_alike_in_composed_form_are_not_guessed_between() -> None:
    entries, _ = _entries()
    entries[f"docs/{NFC}.md"] = TreeEntry(f"docs/{NFC}.md", "100644", "blob", "1" * 40, 1)
    del entries[f"docs/{NFD}.md"]
    entries[f"x/{NFC}"] = TreeEntry(f"x/{NFC}", "100644", "blob", "1" * 40, 1)
    entries[f"x/{NFD}"] = TreeEntry(f"x/{NFD}", "100644", "blob", "1" * 40, 1)
    spelling = TreeSpelling(entries, lambda entry: "")
    assert spelling.find(f"docs/{NFD}.md").path == f"docs/{NFC}.md"
    assert spelling.find(f"x/{NFC}").found  # as written
    assert not spelling.find(unicodedata.normalize("NFKD", f"x/{NFC}") + "x").found


def test_a_symlinked_directory_on_the_way_is_followed() -> None:
    spelling = _spelling(**{"site": "src", "web/code": "../src/lib", "deep": "site"})
    found = spelling.find("site/server.js")
    assert (found.path, found.found, found.via) == (
        "src/server.js",
        True,
        "site is a symlink to src",
    )
    assert spelling.find("web/code/util.js").path == "src/lib/util.js"
    found = spelling.find("deep/lib/util.js")  # a link to a link
    assert found.path == "src/lib/util.js"
    assert found.via == "deep is a symlink to site; site is a symlink to src"
    # not there through the link either: the path as cited, and the way looked
    assert spelling.find("site/nothing.js") == (
        "site/nothing.js",
        False,
        "site is a symlink to src",
        None,
    )


def test_links_leaving_the_tree_looping_or_through_a_file_find_nothing() -> None:
    spelling = _spelling(**{"out": "../elsewhere", "abs": "/etc", "a": "b", "b": "a"})
    assert not spelling.find("out/x.js").found
    assert not spelling.find("abs/passwd").found
    assert not spelling.find("a/x.js").found  # a loop ends
    assert not spelling.find("README/x").found  # a file where a directory should be
    assert link_target("a/b/link", "../../..") is None
    assert link_target("a/b/link", "../c/./d") == "a/c/d"


def test_resolve_follows_file_links_after_directory_links() -> None:
    spelling = _spelling(**{"site": "src", "src/alias.js": "server.js", "loop": "loop"})
    assert spelling.resolve("site/alias.js") == "src/server.js"
    assert spelling.resolve("loop") is None
    assert spelling.resolve("nothing") is None


def test_a_search_covers_each_path_as_the_tree_spells_it() -> None:
    # rg and grep follow a link they are given; macOS finds a name in either Unicode form
    spelling = _spelling(**{"site": "src", "src/alias.js": "server.js", "web": "../out"})
    assert spelling.searched([]) == []
    assert spelling.searched(["site/", "src/alias.js", "./src/lib", "."]) == [
        "src",
        "src/server.js",
        "src/lib",
        "",
    ]
    assert spelling.searched([f"docs/{NFC}.md", "site/lib/util.js"]) == [
        f"docs/{NFD}.md",
        "src/lib/util.js",
    ]
    nfd_directory = TreeSpelling(
        {f"{NFD}/m.py": TreeEntry(f"{NFD}/m.py", "100644", "blob", "0" * 40, 1)}, str
    )
    assert nfd_directory.searched([f"{NFC}/"]) == [NFD]
    # a path the tree lacks would be searched for nothing, and the search would look complete
    with pytest.raises(Unsearched) as lacking:
        spelling.searched(["src", "srcc/", "web", "vendor/sub/lib", "site/nothing"])
    assert lacking.value.paths == ["srcc", "web", "vendor/sub/lib", "site/nothing"]
    assert lacking.value.inside == {"vendor/sub/lib": "vendor/sub"}


def test_a_path_inside_a_submodule_names_it() -> None:
    found = _spelling().find("vendor/sub/lib/helper.c")
    assert not found.found and found.submodule == ("vendor/sub", "c" * 40)


def test_gitmodules_names_and_where_a_clone_keeps_them(tmp_path: Path) -> None:
    text = (
        '[submodule "libs/one"]\n\tpath = vendor/one\n\turl = ../one\n'
        '[submodule "two \\"quoted\\""]\n  path = "vendor/two"\n'
        "[core]\n\tpath = not/a/submodule\n"
        '[submodule "../escape"]\n\tpath = vendor/escape\n'
    )
    names = submodule_names(text)
    assert names == {
        "vendor/one": "libs/one",
        "vendor/two": 'two "quoted"',
        "vendor/escape": "../escape",
    }
    git_dir = tmp_path / ".git"
    for kept in ("modules/libs/one/objects", "modules/vendor/two/objects", "escape/objects"):
        (git_dir / kept).mkdir(parents=True)
    assert list(module_directories(git_dir, "vendor/one", names)) == [
        git_dir / "modules" / "libs" / "one"
    ]
    assert list(module_directories(git_dir, "vendor/two", names)) == [
        git_dir / "modules" / "vendor" / "two"  # its name is not kept: its path is
    ]
    assert list(module_directories(git_dir, "vendor/escape", names)) == []


# --- at a real revision ------------------------------------------------------------------------


@pytest.fixture
def shapes(tmp_path: Path) -> tuple[Path, str]:
    """A repository with a submodule, a symlinked directory and a decomposed file name."""
    sub = tmp_path / "sub"
    make_repo(sub, {"lib/helper.c": "int helper(void) {\n    return 42;\n}\n"})
    root = tmp_path / "main"
    make_repo(root, {"src/server.js": "function serve() {\n  return 1;\n}\n"})
    git(root, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(sub), "vendor/sub")
    (root / "site").symlink_to("src")
    (root / "docs").mkdir()
    (root / "docs" / f"{NFD}.md").write_text("Un café.\n", encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "shapes")
    return root, git(root, "rev-parse", "HEAD")


def test_revision_reads_each_shape(shapes: tuple[Path, str]) -> None:
    root, commit = shapes
    with Revision.open(root, commit) as revision:
        inside = revision.read("vendor/sub/lib/helper.c")
        assert inside.state is FileState.OK and inside.lines[1] == "    return 42;"
        assert inside.path == "vendor/sub/lib/helper.c"
        assert "read in the submodule vendor/sub at commit" in inside.via
        assert revision.read("vendor/sub/lib/none.c").state is FileState.MISSING
        assert not revision.read("vendor/sub/lib/none.c").unreadable  # truly not there
        linked = revision.read("site/server.js")
        assert linked.path == "src/server.js" and linked.via == "site is a symlink to src"
        named = revision.read(f"docs/{NFC}.md")
        assert named.text == "Un café.\n" and named.path == f"docs/{NFD}.md"
        assert revision.held("vendor/sub/lib/helper.c") is True
        assert revision.held("vendor/sub/lib/none.c") is False
        assert revision.exists("site/server.js") and not revision.exists("site/none.js")


def test_a_submodule_the_clone_lacks_is_unreadable_not_missing(shapes: tuple[Path, str]) -> None:
    root, commit = shapes
    shutil.rmtree(root / ".git" / "modules")
    with Revision.open(root, commit) as revision:
        inside = revision.read("vendor/sub/lib/helper.c")
        assert inside.state is FileState.MISSING and inside.unreadable
        assert inside.problem is not None and "inside the submodule vendor/sub" in inside.problem
        assert revision.held("vendor/sub/lib/helper.c") is None
        index = PathIndex(revision.paths(), revision.held)
        assert index.state("vendor/sub/lib/helper.c") == (CitedState.UNCHECKED, None)
        assert index.state("site/server.js") == (CitedState.PRESENT, None)


def test_a_submodule_clone_behind_the_pinned_commit_is_not_read(shapes: tuple[Path, str]) -> None:
    root, _ = shapes
    sub = root.parent / "sub"
    (sub / "lib" / "helper.c").write_text("int helper(void) {\n    return 43;\n}\n")
    git(sub, "commit", "-q", "-am", "bump")
    bumped = git(sub, "rev-parse", "HEAD")
    git(root, "update-index", "--cacheinfo", f"160000,{bumped},vendor/sub")
    git(root, "commit", "-q", "-m", "bump the submodule, not fetched")
    with Revision.open(root) as revision:
        assert revision.read("vendor/sub/lib/helper.c").unreadable


REPORT = """Shapes runtime report

Type: agentic-system-analyses/types/agentic-system-runtime-report.md

Evidence is SRC-1 at revision {commit}.

Shared records

Components

SH-CMP-shapes

Label: the shapes

The vendored helper (SRC-1, vendor/sub/lib/helper.c, site/server.js):

    return 42;

--- vendor/sub/lib/helper.c:2

Through the linked directory:

    return 1;

--- site/server.js:2

The decomposed name, written composed:

    Un café.

--- docs/{name}.md:1
"""


def _check(root: Path, commit: str, tmp_path: Path) -> tuple[int, str]:
    report = tmp_path / "report.txt"
    report.write_text(REPORT.format(commit=commit, name=NFC), encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", "--repo", str(root), str(report)])
    return result.exit_code, result.stdout


def test_check_verifies_quotes_of_every_shape(shapes: tuple[Path, str], tmp_path: Path) -> None:
    root, commit = shapes
    code, out = _check(root, commit, tmp_path)
    assert code == 0, out
    assert "3 quotes: 3 exact" in out and "0 of 2 cited path(s) missing" in out


def test_check_says_a_submodule_is_not_cloned(shapes: tuple[Path, str], tmp_path: Path) -> None:
    root, commit = shapes
    shutil.rmtree(root / ".git" / "modules")
    code, out = _check(root, commit, tmp_path)
    assert code == 2, out  # incomplete: not the report's mistake
    assert "inside submodules whose repositories are not in this clone" in out
    assert "0 of 2 cited path(s) missing" in out


def test_a_submodule_repository_runs_nothing_of_its_config(
    shapes: tuple[Path, str], tmp_path: Path
) -> None:
    root, commit = shapes
    kept = root / ".git" / "modules" / "vendor" / "sub"
    marks = tmp_path / "marks"
    marks.mkdir()
    for key, value in {
        "core.fsmonitor": f"touch {marks}/fsmonitor; echo",
        "core.pager": f"touch {marks}/pager; cat",
        "diff.evil.textconv": f"touch {marks}/textconv; cat",
        "filter.evil.smudge": f"touch {marks}/smudge; cat",
        "core.repositoryformatversion": "1",
        "extensions.partialClone": "origin",
        "remote.origin.url": f"ext::sh -c touch% {marks}/lazy-fetch",
        "remote.origin.promisor": "true",
        "protocol.ext.allow": "always",
    }.items():
        git(kept, "--git-dir", str(kept), "config", key, value)
    (kept / "info").mkdir(exist_ok=True)
    (kept / "info" / "attributes").write_text("* diff=evil filter=evil\n")
    with Revision.open(root, commit) as revision:
        assert revision.read("vendor/sub/lib/helper.c").state is FileState.OK
    assert sorted(path.name for path in marks.iterdir()) == []


def test_drift_follows_a_passage_cited_through_a_link_or_another_form(
    shapes: tuple[Path, str],
) -> None:
    root, cited = shapes
    (root / "src" / "server.js").write_text("// a header\nfunction serve() {\n  return 1;\n}\n")
    (root / "docs" / f"{NFD}.md").write_text("Intro.\n\nUn café.\n", encoding="utf-8")
    git(root, "commit", "-qam", "lines pushed down")
    tip = git(root, "rev-parse", "HEAD")

    def anchor(path: str, lines: tuple[int, int]) -> Anchor:
        return Anchor(Quote("", path, None, 1, 1, "R", 0), FileState.OK, Tier.EXACT, 100.0, lines)

    anchors = [anchor("site/server.js", (2, 2)), anchor(f"docs/{NFC}.md", (1, 1))]
    with Revision.open(root, cited) as old, Revision.open(root, tip) as now:
        drifts = follow_anchors(anchors, old, now)
    assert [(d.status, d.path, d.lines) if d else None for d in drifts] == [
        (DriftStatus.MOVED, "src/server.js", (3, 3)),
        (DriftStatus.MOVED, f"docs/{NFD}.md", (3, 3)),
    ]


def test_drift_follows_a_passage_inside_a_submodule_in_its_text(
    shapes: tuple[Path, str],
) -> None:
    root, cited = shapes
    sub = root.parent / "sub"
    (sub / "lib" / "helper.c").write_text("/* helper */\nint helper(void) {\n    return 42;\n}\n")
    git(sub, "commit", "-qam", "a comment")
    git(root / "vendor" / "sub", "pull", "-q", "origin", "main")  # the pointer moves on
    git(root, "commit", "-qam", "bump the submodule")
    bumped = git(root, "rev-parse", "HEAD")
    git(root, "rm", "-q", "vendor/sub")
    git(root, "commit", "-qm", "drop the submodule")
    dropped = git(root, "rev-parse", "HEAD")
    anchor = Anchor(
        Quote("return 42;", "vendor/sub/lib/helper.c", (2, 2), 1, 1, "R", 0),
        FileState.OK,
        Tier.EXACT,
        100.0,
        (2, 2),
    )
    with Revision.open(root, cited) as old:
        drifts = []
        for newer in (bumped, dropped):
            with Revision.open(root, newer) as now:
                (drift,) = follow_anchors([anchor], old, now)
                drifts.append(drift)
    assert drifts[0] is not None and drifts[1] is not None
    assert (drifts[0].status, drifts[0].path, drifts[0].lines) == (
        DriftStatus.MOVED,
        "vendor/sub/lib/helper.c",
        (3, 3),
    )
    assert drifts[0].commits == ()  # the outer history does not reach into it
    assert drifts[1].status is DriftStatus.FILE_DELETED
    # read after `git rm` left the submodule's core.worktree naming a directory gone
    # a clone whose submodule repository lacks the newer pinned commit cannot tell
    sub_git = root / ".git" / "modules" / "vendor" / "sub"
    plain = ("--git-dir", str(sub_git), "--work-tree", str(sub_git))  # its work tree is gone
    newest = git(sub_git, *plain, "rev-parse", "HEAD")
    git(sub_git, *plain, "update-ref", "--no-deref", "-d", "HEAD")
    shutil.rmtree(sub_git / "objects" / newest[:2])
    with Revision.open(root, cited) as old, Revision.open(root, bumped) as now:
        (drift,) = follow_anchors([anchor], old, now)
    assert drift is not None and drift.status is DriftStatus.UNREADABLE


def test_a_passage_inside_a_submodule_reindented_says_how(shapes: tuple[Path, str]) -> None:
    root, cited = shapes
    sub = root.parent / "sub"
    (sub / "lib" / "helper.c").write_text("int helper(void) {\n\treturn 42;\n}\n")
    git(sub, "commit", "-qam", "tabs")
    git(root / "vendor" / "sub", "pull", "-q", "origin", "main")
    git(root, "commit", "-qam", "bump the submodule")
    anchor = Anchor(
        Quote(
            "int helper(void) {\n    return 42;", "vendor/sub/lib/helper.c", (1, 2), 1, 1, "R", 0
        ),
        FileState.OK,
        Tier.EXACT,
        100.0,
        (1, 2),
    )
    with Revision.open(root, cited) as old, Revision.open(root, "HEAD") as now:
        (drift,) = follow_anchors([anchor], old, now)
    assert drift is not None and (drift.status, drift.lines) == (DriftStatus.CHANGED, (1, 2))
    assert drift.whitespace == "line 2 re-indented from 4 spaces to 1 tab"


def test_a_permalink_inside_a_submodule_names_its_own_repository(
    shapes: tuple[Path, str],
) -> None:
    from evidence.permalink import link_to

    root, _ = shapes
    git(root, "config", "-f", ".gitmodules", "submodule.vendor/sub.url", "../zlib.git")
    git(root, "commit", "-qam", "a relative submodule URL")
    git(root, "remote", "add", "origin", "git@github.com:org/main.git")
    pinned = git(root, "rev-parse", "HEAD:vendor/sub")
    with Revision.open(root) as revision:
        remote = revision.remote_url()
        link = link_to(revision, remote, "vendor/sub/lib/helper.c", (2, 2))
        assert (link.text, link.web) == (
            f"https://github.com/org/zlib/blob/{pinned}/lib/helper.c#L2",
            True,
        )
        own = link_to(revision, remote, "src/server.js", (1, 1))
        assert own.text == f"https://github.com/org/main/blob/{revision.commit}/src/server.js#L1"
        # no web host for the submodule: the outer tree's local reference, saying why
        alone = link_to(revision, None, "vendor/sub/lib/helper.c", (2, 2))
        assert alone.text == f"vendor/sub/lib/helper.c:2@{revision.commit}" and not alone.web
        assert alone.reason == "inside the submodule vendor/sub: no remote"
    result = CliRunner().invoke(
        cli, ["show", "--repo", str(root), "--permalink", ":vendor/sub/lib/helper.c:2"]
    )
    assert result.exit_code == 0 and result.stdout.strip() == link.text
