"""A search at the revision finds the same lines whatever the repository's settings say.

git grep reads the repository's own configuration (``grep.column`` changes what it prints) and
its attributes (``-diff`` or ``binary`` makes it skip a text file as binary). The file shows as
text (`assay show`, the source pane, the anchoring), so a search that skipped it would report
"nothing matched", and a report's evidenced absence would look confirmed.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from evidencekit import git, make_repo

from evidence.git.marks import Marked
from evidence.model import SearchReplay
from evidence.replay import replay
from evidence.revision import GrepHit, Revision

FILES: dict[str, str | bytes] = {
    "src/app.py": "def main():\n    return eval(data)\n",
    "package-lock.json": '{"eval": "needle"}\n',
    "logo.png": b"\x89PNG\x00\x00eval(data)\n",  # binary by git's own rule: a NUL
}


def found(revision: Revision, pattern: str) -> list[tuple[str, int, str]]:
    return [(hit.path, hit.line, hit.text) for hit in revision.grep(pattern, fixed=True)]


EXPECTED = [
    ("package-lock.json", 1, '{"eval": "needle"}'),
    ("src/app.py", 2, "    return eval(data)"),
]


def test_grep_settings_change_no_hit(tmp_path: Path) -> None:
    root = tmp_path / "r"
    make_repo(root, FILES)
    for setting, value in (
        ("grep.column", "true"),
        ("grep.lineNumber", "false"),
        ("grep.fullName", "false"),
        ("grep.patternType", "perl"),
        ("core.quotePath", "true"),
    ):
        git(root, "config", setting, value)
    with Revision.open(root) as revision:
        assert found(revision, "eval") == EXPECTED
        hits = list(revision.grep("eval", fixed=True, paths=["src"]))
        assert hits == [GrepHit("src/app.py", 2, "    return eval(data)", ((11, 15),))]


@pytest.mark.parametrize("where", ["info/attributes", "attributesFile", ".gitattributes"])
def test_attributes_that_call_text_binary_hide_no_hit(tmp_path: Path, where: str) -> None:
    root = tmp_path / "r"
    make_repo(root, FILES)
    rules = "* -diff\n*.json binary\n"
    if where == "info/attributes":  # as GitLab's servers copy a repository's .gitattributes
        (root / ".git" / "info").mkdir(exist_ok=True)
        (root / ".git" / "info" / "attributes").write_text(rules)
    elif where == "attributesFile":
        (tmp_path / "attributes").write_text(rules)
        git(root, "config", "core.attributesFile", str(tmp_path / "attributes"))
    else:  # a repository handed over as a directory: a file in .git itself
        (root / ".git" / ".gitattributes").write_text(rules)
    with Revision.open(root) as revision:
        assert found(revision, "eval") == EXPECTED  # and never the PNG's line
        assert found(revision, "needle") == EXPECTED[:1]
        # a report's evidenced absence: the search replayed finds the call it claims is absent
        command = "rg -F 'eval(' src"
        search = SearchReplay(command, "rg", "eval(", ("-F",), ("src",), "no eval", 1, "R-1")
        assert [hit.path for hit in replay(search, revision)] == ["src/app.py"]


def _git_version() -> tuple[int, ...]:
    said = subprocess.run(["git", "--version"], capture_output=True, text=True).stdout
    match = re.search(r"(\d+)\.(\d+)", said)
    return (int(match[1]), int(match[2])) if match else (0, 0)


@pytest.mark.skipif(
    _git_version() < (2, 43), reason="git reads a bare repository's HEAD:.gitattributes from 2.43"
)
def test_a_bare_clones_committed_attributes_hide_no_hit(tmp_path: Path) -> None:
    root = tmp_path / "r"
    make_repo(root, {**FILES, ".gitattributes": "*.json -diff\n*.py binary\n"})
    bare = tmp_path / "r.git"
    git(tmp_path, "clone", "-q", "--bare", str(root), str(bare))
    with Revision.open(bare) as revision:
        assert found(revision, "eval") == EXPECTED


def test_a_hit_in_a_windows_1252_file_reads_as_the_file_does(tmp_path: Path) -> None:
    # show reads the file as Windows-1252; its grep hits were UTF-8 with U+FFFD: "caf\ufffd"
    root = tmp_path / "r"
    make_repo(
        root,
        {
            "legacy.c": "/* caf\u00e9 \u00fcber */ int needle;\n".encode("cp1252"),
            "astray.c": b"int needle; /* \xff */ \xc3\xa9\n",  # UTF-8 with a byte astray
        },
    )
    with Revision.open(root) as revision:
        assert revision.read("legacy.c").encoding == "Windows-1252"
        hits = {hit.path: hit for hit in revision.grep("needle", fixed=True)}
        assert hits["legacy.c"].text == "/* caf\u00e9 \u00fcber */ int needle;"
        assert hits["legacy.c"].spans == ((20, 26),)
        assert hits["astray.c"].text == "int needle; /* \ufffd */ \u00e9"  # as show reads it


def test_a_utf16_text_is_searched_as_it_is_shown(tmp_path: Path) -> None:
    # git counts a UTF-16 text binary (its NULs) and skips it: a Windows resource file's
    # call was never found, though show and the anchoring read the file as text
    root = tmp_path / "r"
    make_repo(
        root,
        {
            "res/app.rc": '\ufeffIDS_HELLO "eval(data)"\r\nIDS_BYE "bye"\r\n'.encode("utf-16-le"),
            "be.txt": "\ufeffzero\neval here\n".encode("utf-16-be"),
            "src/app.py": "x = eval(data)\n",
            "photo.jpg": b"\xff\xd8\xff\xfe\x00\x10eval\n\xff\xfe\x00eval\n",  # binary, not text
        },
    )
    with Revision.open(root) as revision:
        hits = [(hit.path, hit.line, hit.text, hit.spans) for hit in revision.grep("eval")]
        assert hits == [
            ("src/app.py", 1, "x = eval(data)", ((4, 8),)),
            ("be.txt", 2, "eval here", ((0, 4),)),
            ("res/app.rc", 1, 'IDS_HELLO "eval(data)"', ((11, 15),)),
        ]
        assert [hit.path for hit in revision.grep("eval", paths=["res"])] == ["res/app.rc"]


def test_a_commits_utf16_texts_are_listed_once_for_every_later_search(tmp_path: Path) -> None:
    # listing them reads every blob of the tree (3 s at 200 MB): each `assay grep`, and each
    # relaunched review's first search, paid it again; the list is kept per commit
    from evidence import search
    from evidence.cache_files import user_cache

    root = tmp_path / "r"
    commit = make_repo(
        root,
        {
            "res/app.rc": "\ufeffIDS eval\r\n".encode("utf-16-le"),
            "a.py": "eval()\n",
            "b.cs": "\ufeffeval();\n",
        },
    )
    old_lists = user_cache("wide") / "older.bin"  # an older version's lists: removed
    old_lists.parent.mkdir(parents=True, exist_ok=True)
    old_lists.write_bytes(b"x")
    with Revision.open(root) as revision:
        assert [hit.path for hit in revision.grep("eval")] == ["a.py", "b.cs", "res/app.rc"]
        assert [hit.path for hit in revision.grep("^eval")] == ["a.py", "b.cs"]
    assert search._marks_known(commit) == (["res/app.rc"], ["b.cs"])
    assert not old_lists.parent.exists()
    search._keep_marks(commit, Marked([], []))  # what a later search takes for the commit's
    with Revision.open(root) as revision:
        assert [hit.path for hit in revision.grep("eval")] == ["a.py", "b.cs"]  # not listed again
        assert [hit.path for hit in revision.grep("^eval")] == ["a.py"]
