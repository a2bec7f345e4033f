"""`assay show` and `assay grep` read the revision, never the work tree; clear errors, exit 2."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from tui.cli import cli
from tui.commands.lookup import highlighted_lines, parse_target, terminal_safe

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), *args], check=True, capture_output=True, text=True
    ).stdout.strip()


class Repo:
    """A repository with two commits and a work tree that differs from both."""

    def __init__(self, root: Path) -> None:
        self.root = root
        root.mkdir()
        git(root, "init", "-q", "-b", "main")
        git(root, "config", "user.email", "t@example.org")
        git(root, "config", "user.name", "T")
        (root / "src").mkdir()
        (root / "src" / "app.py").write_text(
            "import os\n\n\ndef check_auth(user):\n    return user.ok\n\n\nFIRST = 1\n"
        )
        (root / "notes.txt").write_text("Check_Auth appears here\n\x1b[2Jclear screen\n")
        git(root, "add", ".")
        git(root, "commit", "-q", "-m", "first")
        self.first = git(root, "rev-parse", "HEAD")
        (root / "src" / "app.py").write_text(
            "import os\n\n\ndef check_auth(user):\n    return user.ok\n\n\nSECOND = 2\n"
        )
        git(root, "commit", "-q", "-am", "second")
        self.second = git(root, "rev-parse", "HEAD")
        # uncommitted: the work tree says something else entirely
        (root / "src" / "app.py").write_text("WORK_TREE_ONLY = True\n")
        (root / "untracked.py").write_text("check_auth in an untracked file\n")

    def run(self, *args: str) -> tuple[int, str, str]:
        result = CliRunner().invoke(cli, [args[0], "--repo", str(self.root), *args[1:]])
        return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    return Repo(tmp_path / "repo")


# --- show --------------------------------------------------------------------------------------


def test_show_reads_head_not_the_work_tree(repo: Repo) -> None:
    code, out, _ = repo.run("show", "HEAD:src/app.py")
    assert code == 0
    assert "WORK_TREE_ONLY" not in out
    assert out.splitlines()[0] == "1 | import os"
    assert out.splitlines()[-1] == "8 | SECOND = 2"


def test_show_a_path_alone_reads_it_at_head(repo: Repo) -> None:
    # as one asks `bat`: no REV, the file at HEAD (never the work tree)
    assert repo.run("show", "src/app.py:8") == (0, "8 | SECOND = 2\n", "")
    code, out, _ = repo.run("show", "src/app.py")
    assert code == 0 and out.splitlines()[-1] == "8 | SECOND = 2"


def test_show_reads_an_older_revision(repo: Repo) -> None:
    code, out, _ = repo.run("show", f"{repo.first}:src/app.py:8")
    assert (code, out) == (0, "8 | FIRST = 1\n")
    code, out, _ = repo.run("show", f"{repo.first[:10]}:src/app.py:8")
    assert out == "8 | FIRST = 1\n"


def test_show_range_with_context_marks_the_range(repo: Repo) -> None:
    code, out, _ = repo.run("show", ":src/app.py:4-5", "--context", "1")
    assert code == 0
    assert out.splitlines() == [
        " 3 | ",
        ">4 | def check_auth(user):",
        ">5 |     return user.ok",
        " 6 | ",
    ]


def test_show_range_past_the_end_is_clipped(repo: Repo) -> None:
    code, out, _ = repo.run("show", "HEAD:src/app.py:7-99")
    assert code == 0
    assert out.splitlines() == ["7 | ", "8 | SECOND = 2"]


def test_show_makes_control_characters_visible(repo: Repo) -> None:
    code, out, _ = repo.run("show", "HEAD:notes.txt")
    assert code == 0
    assert "\x1b" not in out
    assert "␛[2Jclear screen" in out


def test_show_permalink(repo: Repo) -> None:
    git(repo.root, "remote", "add", "origin", "https://user:secret@github.com/acme/widget.git")
    code, out, err = repo.run("show", "HEAD:src/app.py:4-5", "--permalink")
    assert code == 0
    assert out == f"https://github.com/acme/widget/blob/{repo.second}/src/app.py#L4-L5\n"
    assert "secret" not in out and err == ""


def test_show_permalink_without_remote_prints_local_reference(repo: Repo) -> None:
    code, out, err = repo.run("show", f"{repo.first}:src/app.py:4", "--permalink")
    assert code == 0
    assert out == f"src/app.py:4@{repo.first}\n"
    assert "no web link (no remote)" in err


def test_show_permalink_of_names_with_odd_bytes(repo: Repo) -> None:
    # a name that is not UTF-8 crashed the web link; a local reference printed a name's
    # escape sequences to the terminal as they are
    latin = os.fsdecode(b"caf\xe9.txt")
    hostile = "e\x1b]0;owned\x07.txt"
    for name in (latin, hostile):
        (repo.root / name).write_text("x\n")
    git(repo.root, "add", "-A")
    git(repo.root, "commit", "-q", "-m", "odd names")
    head = git(repo.root, "rev-parse", "HEAD")
    code, out, err = repo.run("show", f"HEAD:{hostile}:1", "--permalink")
    assert code == 0 and "\x1b" not in out and "\x07" not in out, (out, err)
    assert out == f"e\\u001b]0;owned\\u0007.txt:1@{head}\n"
    git(repo.root, "remote", "add", "origin", "git@github.com:acme/widget.git")
    code, out, err = repo.run("show", f"HEAD:{latin}", "--permalink")
    assert (code, out) == (0, f"https://github.com/acme/widget/blob/{head}/caf%E9.txt\n"), err


def test_show_a_file_named_like_a_branch_says_how_to_read_it_at_head(repo: Repo) -> None:
    # `notes.txt:1` is REV:PATH when a branch is called notes.txt: path "1" there
    git(repo.root, "branch", "notes.txt", repo.first)
    code, _, err = repo.run("show", "notes.txt:1")
    assert code == 2 and "1 does not exist at" in err
    assert "(notes.txt at HEAD: assay show :notes.txt:1)" in err
    code, out, _ = repo.run("show", ":notes.txt:1")
    assert (code, out) == (0, "1 | Check_Auth appears here\n")


def test_show_a_path_alone_in_a_repository_without_commits(tmp_path: Path) -> None:
    root = tmp_path / "new"
    root.mkdir()
    git(root, "init", "-q")
    result = CliRunner().invoke(cli, ["show", "--repo", str(root), "src/app.py"])
    assert result.exit_code == 2
    assert "the repository has no commits" in result.stderr, result.stderr


def test_show_a_path_alone_inside_a_submodule_the_clone_lacks(repo: Repo) -> None:
    # `assay show vendor/sub/lib.c`: the reason is the submodule, not the REV:PATH syntax
    pinned = "1" * 40
    (repo.root / ".gitmodules").write_text('[submodule "sub"]\n\tpath = vendor/sub\n\turl = ../s\n')
    git(repo.root, "update-index", "--add", "--cacheinfo", f"160000,{pinned},vendor/sub")
    git(repo.root, "add", ".gitmodules")
    git(repo.root, "commit", "-q", "-m", "a submodule")
    code, _, err = repo.run("show", "vendor/sub/lib.c:3")
    assert code == 2 and "expected REV:PATH" not in err
    assert "vendor/sub/lib.c is inside the submodule vendor/sub (commit 111111111111)" in err
    code, _, err = repo.run("grep", "x", "--", "vendor/sub/lib.c")
    assert code == 2
    assert "vendor/sub/lib.c is inside the submodule vendor/sub, which this clone does not" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("show", "gone.py"), "got 'gone.py' (nor is gone.py a file at HEAD)"),
        (("show", "gone.py:3"), "revision gone.py not found"),
        (("show", "HEAD:"), "expected REV:PATH"),
        (("show", "HEAD:src/app.py:9-2"), "bad line range"),
        (("show", "HEAD:src/app.py:0"), "bad line range"),
        (("show", "HEAD:src/app.py:50"), "has 8 lines"),
        (("show", "HEAD:untracked.py"), "untracked.py does not exist at"),
        (("show", "HEAD:src"), "src is a directory at"),
        (("show", "HEAD:src/"), "`assay grep PATTERN -- src/` searches it"),
        (("show", "HEAD:sr"), "sr does not exist at"),
        (("show", "nosuchrev:src/app.py"), "revision nosuchrev not found"),
        (("show", "--", "--bad:src/app.py"), "cannot start with '-'"),
    ],
)
def test_show_errors_are_one_line_exit_2(repo: Repo, args: tuple[str, ...], message: str) -> None:
    code, out, err = repo.run(*args)
    assert code == 2
    assert out == ""
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_show_not_a_repository(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["show", "HEAD:a.py", "--repo", str(tmp_path)])
    assert result.exit_code == 2
    assert "not a git repository" in result.stderr


def test_show_in_a_repository_with_a_damaged_tree(repo: Repo) -> None:
    # git ls-tree fails on the first commit's tree: a RevisionError the command let through
    tree = git(repo.root, "rev-parse", f"{repo.first}^{{tree}}")
    damaged = repo.root / ".git" / "objects" / tree[:2] / tree[2:]
    damaged.chmod(0o644)
    damaged.write_bytes(b"not zlib data")
    code, out, err = repo.run("show", f"{repo.first}:src/app.py")
    assert (code, out) == (2, "")
    assert err.startswith("assay show: git ls-tree failed in ") and len(err.splitlines()) == 1


def test_show_a_file_whose_object_is_gone(repo: Repo) -> None:
    # it is in the tree: "does not exist" blamed the report for a damaged repository
    blob = git(repo.root, "rev-parse", f"{repo.first}:src/app.py")
    (repo.root / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    code, _, err = repo.run("show", f"{repo.first}:src/app.py")
    assert code == 2
    assert err == (
        f"assay show: src/app.py is in {repo.first[:7]}, but its object {blob} is missing from "
        "the repository (a partial or damaged clone: see git fsck)\n"
    )


def test_parse_target() -> None:
    assert parse_target("HEAD:a/b.py").lines is None
    assert parse_target("v1.2:a/b.py:3").lines == (3, 3)
    target = parse_target(":dir:with:colons.txt:10-12")
    assert (target.rev, target.path, target.lines) == (None, "dir:with:colons.txt", (10, 12))
    with pytest.raises(ValueError):
        parse_target("nocolon")


def test_highlighted_lines_colour_and_stay_safe() -> None:
    lines = ["def f():", '    return "\x1b[2J"', "x = 1"]
    out = highlighted_lines("a.py", lines, 2, 3)
    assert len(out) == 2
    assert all(ANSI.search(line) for line in out)
    assert [ANSI.sub("", line) for line in out] == ['    return "␛[2J"', "x = 1"]
    assert "\x1b[2J" not in "".join(out)


def test_terminal_safe() -> None:
    assert terminal_safe("a\x1bb\x07c\rd\u202ee\tf") == "a␛b␇c␍d<RLO>e\tf"  # as the app shows


# --- grep --------------------------------------------------------------------------------------


def test_grep_reads_the_revision_not_the_work_tree(repo: Repo) -> None:
    code, out, _ = repo.run("grep", "check_auth")
    assert code == 0
    assert out == "src/app.py:4:def check_auth(user):\n"  # not the untracked file
    code, out, _ = repo.run("grep", "WORK_TREE_ONLY")
    assert (code, out) == (1, "")


def test_grep_at_an_older_revision(repo: Repo) -> None:
    code, out, _ = repo.run("grep", "FIRST", "--rev", repo.first)
    assert (code, out) == (0, "src/app.py:8:FIRST = 1\n")
    code, out, _ = repo.run("grep", "FIRST")
    assert (code, out) == (1, "")


def test_grep_ignore_case_fixed_and_paths(repo: Repo) -> None:
    code, out, _ = repo.run("grep", "-i", "check_auth")
    assert out.splitlines() == [
        "notes.txt:1:Check_Auth appears here",
        "src/app.py:4:def check_auth(user):",
    ]
    code, out, _ = repo.run("grep", "-i", "check_auth", "--", "notes.txt")
    assert out == "notes.txt:1:Check_Auth appears here\n"
    code, out, _ = repo.run("grep", "-F", "user.ok")
    assert out == "src/app.py:5:    return user.ok\n"
    code, out, _ = repo.run("grep", "-F", "user(ok")
    assert code == 1
    code, out, _ = repo.run("grep", "user.ok", "--", "src")
    assert out == "src/app.py:5:    return user.ok\n"


def test_grep_words_files_counts_and_context(repo: Repo) -> None:
    # what a reviewer reaches for beside git grep: -w, -l, -c, -C
    code, out, _ = repo.run("grep", "-i", "check")
    assert len(out.splitlines()) == 2
    code, out, _ = repo.run("grep", "-w", "-i", "check")
    assert (code, out) == (1, "")  # "check_auth" is one word
    code, out, _ = repo.run("grep", "-w", "user")
    assert out == "src/app.py:4:def check_auth(user):\nsrc/app.py:5:    return user.ok\n"
    code, out, _ = repo.run("grep", "-l", "-i", "check_auth")
    assert (code, out) == (0, "notes.txt\nsrc/app.py\n")
    code, out, _ = repo.run("grep", "-c", "user")
    assert out == "src/app.py:2\n"
    code, out, _ = repo.run("grep", "-C", "1", "-i", "check_auth|SECOND")
    assert out.splitlines() == [
        "notes.txt:1:Check_Auth appears here",
        "notes.txt-2-␛[2Jclear screen",  # a context line made safe too
        "--",
        "src/app.py-3-",
        "src/app.py:4:def check_auth(user):",
        "src/app.py-5-    return user.ok",
        "--",
        "src/app.py-7-",
        "src/app.py:8:SECOND = 2",
    ]
    code, out, _ = repo.run("grep", "-C", "2", "user")  # groups that touch are one
    assert out.splitlines()[0] == "src/app.py-2-" and "--" not in out.splitlines()
    code, out, _ = repo.run("grep", "-C", "1", "nothing at all")
    assert (code, out) == (1, "")


def test_grep_output_is_terminal_safe_and_coloured_on_request(repo: Repo) -> None:
    code, out, _ = repo.run("grep", "clear")
    assert out == "notes.txt:2:␛[2Jclear screen\n"
    code, out, _ = repo.run("grep", "clear", "--color")
    assert ANSI.sub("", out) == "notes.txt:2:␛[2Jclear screen\n"
    assert "\x1b[1m" in out or "\x1b[31m" in out  # the match is coloured
    assert "\x1b[2J" not in out


def test_grep_errors_exit_2(repo: Repo) -> None:
    code, _, err = repo.run("grep", "a(")
    assert code == 2 and "Traceback" not in err
    assert "'a(' is not a valid regular expression" in err and "-e option" not in err
    assert "-F searches for PATTERN as written" in err  # the way to search for it
    code, _, err = repo.run("grep", "x", "--rev", "nosuch")
    assert code == 2 and "revision nosuch not found" in err


def test_browse_errors_exit_2_before_any_ui(tmp_path: Path, repo: Repo) -> None:
    result = CliRunner().invoke(cli, ["browse", "--repo", str(tmp_path / "none")])
    assert result.exit_code == 2 and "does not exist" in result.stderr
    result = CliRunner().invoke(cli, ["browse", "--repo", str(repo.root), "--rev", "nosuch"])
    assert result.exit_code == 2 and "revision nosuch not found" in result.stderr


def _run_in_terminal(args: list[str], cwd: Path) -> str:
    """Run the CLI with stdout on a pseudo-terminal; return what it wrote."""
    import os
    import pty
    import sys

    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "tui.cli", *args],
        stdout=follower,
        stderr=subprocess.PIPE,
        cwd=Path(__file__).resolve().parent.parent,
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            data = os.read(leader, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    process.wait(timeout=30)
    os.close(leader)
    assert process.stderr is not None
    process.stderr.close()
    return b"".join(chunks).decode("utf-8", "replace")


def test_show_highlights_on_a_terminal_and_plain_turns_it_off(repo: Repo) -> None:
    coloured = _run_in_terminal(["show", ":src/app.py:4-5", "--repo", str(repo.root)], repo.root)
    assert ANSI.search(coloured)
    assert "check_auth" in ANSI.sub("", coloured)
    plain = _run_in_terminal(
        ["show", ":src/app.py:4-5", "--plain", "--repo", str(repo.root)], repo.root
    )
    assert not ANSI.search(plain)
    assert plain.replace("\r\n", "\n") == "4 | def check_auth(user):\n5 |     return user.ok\n"


def test_grep_a_name_with_a_backslash_or_an_end_space(repo: Repo) -> None:
    (repo.root / "a\\b.txt").write_text("needle\n")
    (repo.root / "end.txt ").write_text("needle\n")
    git(repo.root, "add", "a\\b.txt", "end.txt ")
    git(repo.root, "commit", "-q", "-m", "names")
    for name in ("a\\b.txt", "end.txt "):
        assert repo.run("grep", "needle", "--", name) == (0, f"{name}:1:needle\n", "")
        assert repo.run("show", f"HEAD:{name}") == (0, "1 | needle\n", "")
    # a Windows separator in a name the tree does not list is still a separator
    assert repo.run("grep", "def", "--", "src\\app.py")[0] == 0
