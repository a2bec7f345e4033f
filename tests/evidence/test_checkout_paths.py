"""A quote's path written as its writer's checkout had it (``/home/me/work/app/src/a.py``,
``C:\\work\\app\\src\\a.py``, ``../app/src/a.py``) is read as the tree's file it ends with,
and says so; a file name alone, or a cited path, stays as written."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from evidencekit import git, make_repo

from evidence.anchoring import Anchorer
from evidence.anchoring.rendered import rescue_notes
from evidence.citations import CitedState, PathIndex
from evidence.drift import DriftStatus, follow_anchors
from evidence.git.spelling import ENDING_NOTE, TreeSpelling
from evidence.git.tree import TreeEntry
from evidence.model import FileState, Quote, Tier
from evidence.revision import Revision
from tui.cli import cli


def _spelling(*paths: str, root: str = "", links: dict[str, str] | None = None) -> TreeSpelling:
    entries = {path: TreeEntry(path, "100644", "blob", "0" * 40, 1) for path in paths}
    for link in links or {}:
        entries[link] = TreeEntry(link, "120000", "link", "1" * 40, 1)
    return TreeSpelling(entries, lambda entry: (links or {})[entry.path], root=root)


def test_a_checkout_path_is_read_as_the_trees_file_it_ends_with() -> None:
    spelling = _spelling("src/server.js", "server.js", "lib/util.js", "src/lib/util.js")
    found = spelling.ending("home/me/work/app/src/server.js")
    assert found is not None and found.found and found.path == "src/server.js"
    assert found.via == (
        f"{ENDING_NOTE} src/server.js, the tree's file it ends with"
        " (home/me/work/app/src/server.js is not in the tree)"
    )
    assert spelling.ending("C:\\work\\app\\src\\server.js").path == "src/server.js"  # type: ignore[union-attr]
    # the longest ending: src/lib/util.js, not lib/util.js
    assert spelling.ending("../app/src/lib/util.js").path == "src/lib/util.js"  # type: ignore[union-attr]
    assert not spelling.find("home/me/work/app/src/server.js").found  # found only when read


def test_a_wrong_path_under_one_of_the_trees_directories_is_no_ending() -> None:
    spelling = _spelling("api/server.py", "services/kestrel/api/server.py", "src/a.py")
    # another service's path in this monorepo, and a folder of this tree that lacks the file
    assert spelling.ending("services/billing/api/server.py") is None
    assert spelling.ending("src/old/services/kestrel/api/server.py") is None
    assert spelling.ending("work/services/kestrel/api/server.py").path == (  # type: ignore[union-attr]
        "services/kestrel/api/server.py"
    )


def test_a_file_name_alone_is_no_ending() -> None:
    spelling = _spelling("server.js", "src/server.js")
    assert spelling.ending("other/server.js") is None  # any directory's server.js
    assert spelling.ending("server.js") is None
    assert spelling.ending("home/me/app/docs/server.js") is None


def test_an_ending_goes_through_links_and_a_systems_directory() -> None:
    linked = _spelling("src/server.js", links={"site": "src"})
    found = linked.ending("home/me/app/site/server.js")
    assert found is not None and found.path == "src/server.js"
    assert found.via.startswith(f"{ENDING_NOTE} src/server.js") and "site is a symlink" in found.via
    system = _spelling("services/api/src/a.py", "src/a.py", root="services/api")
    assert system.ending("home/me/api/src/a.py").path == "services/api/src/a.py"  # type: ignore[union-attr]


REPORT = """App runtime report

Type: agentic-system-analyses/types/agentic-system-runtime-report.md

Evidence is SRC-1 at revision {commit}.

Shared records

Components

AP-CMP-server

Label: the server

The server serves (SRC-1, src/server.js):

    function serve() {{
      return 1;
    }}

--- /home/alice/work/app/src/server.js:1-3

And answers:

    return 1;

--- C:\\Users\\bob\\app\\src\\server.js:2
"""


def test_check_reads_quotes_of_a_checkout_path_and_drift_follows_them(tmp_path: Path) -> None:
    root = tmp_path / "app"
    commit = make_repo(root, {"src/server.js": "function serve() {\n  return 1;\n}\n"})
    report = tmp_path / "report.txt"
    report.write_text(REPORT.format(commit=commit), encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", "--repo", str(root), str(report)])
    assert result.exit_code == 0, result.stdout
    assert "0 missing; 0 wrong range(s), 0 quoted file(s) missing" in result.stdout
    assert f"note: {ENDING_NOTE} src/server.js, the tree's file it ends with" in result.stdout
    (root / "src" / "server.js").write_text("// served\nfunction serve() {\n  return 1;\n}\n")
    git(root, "commit", "-qam", "a line on top")
    quote = Quote("  return 1;", "home/alice/work/app/src/server.js", (2, 2), 1, 1, "R", 0)
    with Revision.open(root, commit) as cited, Revision.open(root) as tip:
        anchor = Anchorer(cited).anchor(quote)
        assert (anchor.file, anchor.match, anchor.lines) == (FileState.OK, Tier.EXACT, (2, 2))
        assert rescue_notes(anchor)[0].startswith(f"{ENDING_NOTE} src/server.js")
        [drift] = follow_anchors([anchor], cited, tip)
        index = PathIndex(cited.paths(), cited.held)
        cited_state = index.state("home/alice/work/app/src/server.js")
    assert drift is not None and (drift.status, drift.path, drift.lines) == (
        DriftStatus.MOVED,
        "src/server.js",
        (3, 3),
    )
    # a cited path is what the report says exists: its near miss is suggested, not taken
    assert cited_state == (CitedState.NEAR_MISS, "src/server.js")
