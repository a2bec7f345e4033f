"""Drift where only a passage's whitespace changed, and where its file is no longer text."""

from __future__ import annotations

from pathlib import Path

from evidencekit import drift_of, git, make_repo

from evidence.drift import DriftStatus
from evidence.drift_model import whitespace_change
from evidence.drift_report import drift_details
from screens.widgets.drift_rows import drift_summary

CONFIG = "def load(path):\n\twith open(path) as f:\n\t\treturn parse(f.read())\n"


def test_a_passage_only_reindented_is_changed_with_score_100(tmp_path: Path) -> None:
    root = tmp_path / "r"
    cited = make_repo(root, {"config.py": CONFIG, "notes.py": "a = 1\nb = 2\n"})
    (root / "config.py").write_text(CONFIG.replace("\t", "    "))
    (root / "notes.py").write_text("a = 1   \nb = 2\n")
    git(root, "commit", "-qam", "spaces, not tabs")
    reindented = drift_of(root, cited, "config.py", (1, 3))
    assert (reindented.status, reindented.lines, reindented.score) == (
        DriftStatus.CHANGED,
        (1, 3),
        100.0,
    )
    trailing = drift_of(root, cited, "notes.py", (1, 2))
    assert (trailing.status, trailing.score) == (DriftStatus.CHANGED, 100.0)
    # said as what differs, not as a diff of the same words that marks nothing
    assert reindented.whitespace == "lines 2-3 re-indented"  # one tab to 4 spaces, two to 8
    assert trailing.whitespace == "trailing whitespace on line 1"
    head, *rest = drift_details(reindented)
    assert head.endswith("config.py:1-3, only whitespace: lines 2-3 re-indented")
    assert not any(line.startswith("    diff:") for line in rest)


def test_a_line_moved_into_a_block_says_which_line_and_how_far(tmp_path: Path) -> None:
    """Re-indenting a line into a block changes what Python does: the reviewer is told the
    line at REV and its indentation before and after."""
    body = "def f(items):\n    for item in items:\n        check(item)\n    report(items)\n"
    root = tmp_path / "r"
    cited = make_repo(root, {"f.py": body})
    (root / "f.py").write_text(body.replace("    report(items)", "        report(items)"))
    git(root, "commit", "-qam", "report each time")
    drift = drift_of(root, cited, "f.py", (2, 4))
    assert (drift.status, drift.lines, drift.score) == (DriftStatus.CHANGED, (2, 4), 100.0)
    assert drift.whitespace == "line 4 re-indented from 4 spaces to 8 spaces"
    assert drift.as_json()["whitespace"] == drift.whitespace


def test_whitespace_change_names_each_kind_and_nothing_when_words_differ() -> None:
    assert whitespace_change(["\ta = 1", "\tb(2)"], ["    a = 1", "    b(2)"], 10) == (
        "lines 10-11 re-indented from 1 tab to 4 spaces"
    )
    assert whitespace_change(["  a", "b", " c"], ["    a", "b", "c"], 1) == (
        "lines 1, 3 re-indented"
    )
    assert whitespace_change(["a  =  1", "b"], ["a = 1", "b"], 5) == "spacing within line 5"
    assert whitespace_change(["x = f(1,", "  2)"], ["x = f(1, 2)"], 5) == (
        "rewrapped from 2 lines to 1"
    )
    assert whitespace_change(["a = 1"], ["a = 2"], 1) == ""
    assert whitespace_change(["a = 1"], ["a = 1"], 1) == ""


def test_a_file_no_longer_text_is_unreadable_not_deleted(tmp_path: Path) -> None:
    root = tmp_path / "r"
    cited = make_repo(root, {"data.txt": "one = 1\ntwo = 2\nthree = 3\n"})
    (root / "data.txt").write_bytes(b"one = 1\ntwo = 2\nthree = 3\n\x00\x01trailer")
    git(root, "commit", "-qam", "a binary trailer")
    drift = drift_of(root, cited, "data.txt", (1, 2))
    assert drift.status is DriftStatus.UNREADABLE and drift.path == "data.txt"
    # what keeps it from being read, not a list of what might
    assert drift_details(drift)[0] == "    unreadable: data.txt is a binary file (35 bytes)"
    assert drift.as_json()["unreadable"] == "data.txt is a binary file (35 bytes)"


def test_a_file_moved_to_git_lfs_says_so_and_how_to_fetch_it(tmp_path: Path) -> None:
    root = tmp_path / "r"
    cited = make_repo(root, {"data.txt": "one = 1\ntwo = 2\n"})
    (root / ".gitattributes").write_text("data.txt filter=lfs diff=lfs merge=lfs -text\n")
    oid = "4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393"
    pointer = f"version https://git-lfs.github.com/spec/v1\noid sha256:{oid}\nsize 4096\n"
    (root / "data.txt").write_text(pointer)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "data in LFS")
    drift = drift_of(root, cited, "data.txt", (1, 2))
    assert drift.status is DriftStatus.UNREADABLE
    assert "data.txt is stored in Git LFS (4,096 bytes" in drift.why
    assert "git lfs fetch brings it" in drift_details(drift)[0]
    assert f", {drift.why}" in drift_summary(drift, "abc1234")  # a note's line in the app


def test_a_line_added_inside_a_quoted_part_of_a_table_keeps_the_whole_passage(
    tmp_path: Path,
) -> None:
    # like lines make a window of the passage's length look closer than its own lines with the
    # new one among them: that window dropped its last route and turned epsilon into the POST
    names = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota"]
    table = ["ROUTES = ["] + [f'    ("GET", "/{n}", handle_{n}),' for n in names] + ["]"]
    root = tmp_path / "r"
    cited = make_repo(root, {"routes.py": "\n".join(table) + "\n"})
    added = '    ("POST", "/new_one", handle_new_one),'
    (root / "routes.py").write_text("\n".join([*table[:6], added, *table[6:]]) + "\n")
    git(root, "commit", "-qam", "a POST route")
    wide = drift_of(root, cited, "routes.py", (4, 9))
    assert (wide.status, wide.lines) == (DriftStatus.CHANGED, (4, 10))
    assert wide.diff is not None
    assert [p.op for p in wide.diff if p.op != "equal"] == ["insert"]
    narrow = drift_of(root, cited, "routes.py", (6, 7))
    assert (narrow.status, narrow.lines) == (DriftStatus.CHANGED, (6, 8))


def test_a_file_made_binary_or_a_link_names_the_commit_that_made_it(tmp_path: Path) -> None:
    """A binary diff has no hunks and git prints a type change as a deletion and a creation:
    the commit that did either is still the one that changed the passage."""
    root = tmp_path / "r"
    text = "one = 1\ntwo = 2\nthree = 3\n"
    cited = make_repo(root, {"data.txt": text, "conf.txt": text, "other.txt": "o\n"})
    (root / "data.txt").chmod(0o755)
    git(root, "commit", "-qam", "executable: no line changed")
    (root / "data.txt").write_bytes(text.encode() + b"\x00\x01trailer")
    git(root, "commit", "-qam", "a binary trailer")
    made_binary = git(root, "rev-parse", "HEAD")
    (root / "conf.txt").unlink()
    (root / "conf.txt").symlink_to("other.txt")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "conf.txt a link")
    made_link = git(root, "rev-parse", "HEAD")
    (root / "other.txt").write_text("o2\n")
    git(root, "commit", "-qam", "an unrelated change")
    binary = drift_of(root, cited, "data.txt", (1, 2))
    assert binary.status is DriftStatus.UNREADABLE
    assert [c.id for c in binary.commits] == [made_binary]
    link = drift_of(root, cited, "conf.txt", (2, 3))
    assert link.status is DriftStatus.FILE_DELETED
    assert [c.id for c in link.commits] == [made_link]


def test_a_changed_passage_with_a_long_line_added_after_its_short_first_keeps_that_line(
    tmp_path: Path,
) -> None:
    """A long line added after the passage's short first line (`try:`) and its last line
    edited: the run most like the passage by ratio left `try:` out, and the diff said it was
    gone, though it stands just above. Its own lines beside the run are its counterpart's, as
    for a passage moved to another file and edited."""
    head = "import logging\n\nlog = logging.getLogger(__name__)\n\n\n"
    old = (
        "def load(path):\n"
        "    try:\n"
        "        data = read(path)\n"
        "        return parse(data)\n"
        "    except OSError:\n"
        "        return None\n"
    )
    new = old.replace(
        "    try:\n",
        "    try:\n        log.debug('loading %s with the configured reader and the strict"
        " parser as a fallback', path, extra={'component': 'loader', 'stage': 'read'})\n",
    ).replace("parse(data)", "parse(data, strict=True)")
    root = tmp_path / "r"
    cited = make_repo(root, {"load.py": head + old})
    (root / "load.py").write_text(head + new)
    git(root, "commit", "-qam", "log the load, parse strictly")
    drift = drift_of(root, cited, "load.py", (7, 9))  # try:, the read, the return
    assert (drift.status, drift.lines) == (DriftStatus.CHANGED, (7, 10)), drift
    assert drift.diff is not None
    assert not any(part.op == "delete" and "try:" in part.quote for part in drift.diff)


def test_a_statement_rewrapped_over_more_lines_says_so(tmp_path: Path) -> None:
    body = "def f():\n    x = 1\n    result = compute(alpha, beta, gamma)\n    return result\n"
    root = tmp_path / "r"
    cited = make_repo(root, {"a.py": body})
    wrapped = "compute(\n        alpha,\n        beta,\n        gamma\n    )"
    (root / "a.py").write_text(body.replace("compute(alpha, beta, gamma)", wrapped))
    git(root, "commit", "-qam", "one argument a line")
    drift = drift_of(root, cited, "a.py", (2, 4))
    assert (drift.status, drift.lines) == (DriftStatus.CHANGED, (2, 8))
    assert drift.whitespace == "rewrapped from 3 lines to 7"
    assert drift_details(drift)[0].endswith(", only whitespace: rewrapped from 3 lines to 7")
