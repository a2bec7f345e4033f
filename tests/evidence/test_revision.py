"""The revision reader: reads the commit only, resolves revisions safely, handles odd files."""

from __future__ import annotations

import hashlib
import subprocess
import threading
from pathlib import Path

import pytest
from evidencekit import git, make_repo

from evidence.model import FileState
from evidence.revision import BadPattern, GrepHit, Revision, RevisionError


@pytest.fixture
def repo(tmp_path: Path) -> tuple[Path, str]:
    root = tmp_path / "repo"
    commit = make_repo(
        root,
        {
            "src/app.py": "def main():\n    return 42\n",
            "src/util.py": "VALUE = 'hello'\nOTHER = 'Hello again'\n",
            "docs/readme.md": "# Title\n\nSome words.\n",
            "star*.txt": "literal star name\n",
            "stars.txt": "plain name\n",
        },
    )
    return root, commit


def test_open_resolves_head_and_reads_the_tree(repo: tuple[Path, str]) -> None:
    root, commit = repo
    with Revision.open(root) as revision:
        assert revision.commit == commit
        assert revision.short == commit[:7]
        assert revision.paths() == [
            "docs/readme.md",
            "src/app.py",
            "src/util.py",
            "star*.txt",
            "stars.txt",
        ]
        entry = revision.entries()["src/app.py"]
        assert entry.kind == "blob"
        assert entry.size == len("def main():\n    return 42\n")
        source = revision.read("src/app.py")
        assert source.state is FileState.OK
        assert source.lines == ["def main():", "    return 42"]
        assert revision.read("./src/app.py").text == source.text


def test_revision_forms_short_tag_branch(repo: tuple[Path, str]) -> None:
    root, commit = repo
    git(root, "tag", "v1")
    for rev in (commit, commit[:8], "v1", "main", "HEAD"):
        with Revision.open(root, rev) as revision:
            assert revision.commit == commit


def test_reads_the_commit_not_the_work_tree_or_index(repo: tuple[Path, str]) -> None:
    root, commit = repo
    (root / "src/app.py").write_text("changed in the work tree\n", encoding="utf-8")
    (root / "src/util.py").write_text("staged change\n", encoding="utf-8")
    git(root, "add", "src/util.py")
    (root / "src/app.py.new").write_text("untracked\n", encoding="utf-8")
    with Revision.open(root) as revision:
        assert revision.read("src/app.py").text == "def main():\n    return 42\n"
        assert revision.read("src/util.py").lines[0] == "VALUE = 'hello'"
        assert not revision.exists("src/app.py.new")
        assert [hit.path for hit in revision.grep("return 42", fixed=True)] == ["src/app.py"]


def test_older_revision_and_missing_path(repo: tuple[Path, str]) -> None:
    root, first = repo
    (root / "src/app.py").write_text("def main():\n    return 43\n", encoding="utf-8")
    (root / "new.txt").write_text("new\n", encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "second")
    with Revision.open(root, first) as old, Revision.open(root) as new:
        assert old.read("src/app.py").lines[1] == "    return 42"
        assert new.read("src/app.py").lines[1] == "    return 43"
        missing = old.read("new.txt")
        assert missing.state is FileState.MISSING
        assert missing.text == "" and missing.lines == []
        assert old.read("src").state is FileState.MISSING  # a directory is not a file


def test_bogus_revision_is_a_clear_error(repo: tuple[Path, str]) -> None:
    root, _ = repo
    with pytest.raises(RevisionError, match="revision 0123456789abcdef0123456789abcdef01234567"):
        Revision.open(root, "0123456789abcdef0123456789abcdef01234567")
    with pytest.raises(RevisionError, match="revision nosuchbranch not found"):
        Revision.open(root, "nosuchbranch")


def test_a_revision_naming_a_tree_or_a_blob_says_so(repo: tuple[Path, str]) -> None:
    root, _ = repo
    tree, blob = git(root, "rev-parse", "HEAD^{tree}"), git(root, "rev-parse", "HEAD:src/app.py")
    git(root, "tag", "-a", "-m", "a blob", "blobtag", blob)
    # it said "not found", of an object that is there
    for name, kind in ((tree, "tree"), (blob, "blob"), ("HEAD:src", "tree"), ("blobtag", "blob")):
        with pytest.raises(RevisionError, match=f"revision {name} names a {kind}, not a commit"):
            Revision.open(root, name)


def _two_blobs_sharing_a_prefix(root: Path) -> str:
    """Write two blobs whose ids start alike; their common 4-digit prefix."""
    seen: dict[str, bytes] = {}
    for n in range(100_000):
        data = str(n).encode()
        prefix = hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()[:4]
        if prefix in seen:
            for each in (seen[prefix], data):
                subprocess.run(
                    ["git", "hash-object", "-w", "--stdin"], cwd=root, input=each, check=True
                )
            return prefix
        seen[prefix] = data
    raise AssertionError("no two ids alike")


def test_a_short_id_several_objects_start_with_is_ambiguous(repo: tuple[Path, str]) -> None:
    # "not found" sent the user looking for an object that is there, twice over
    root, _ = repo
    prefix = _two_blobs_sharing_a_prefix(root)
    with pytest.raises(RevisionError, match=f"revision {prefix} in .* is ambiguous"):
        Revision.open(root, prefix)


def test_option_like_revision_is_never_an_option(repo: tuple[Path, str]) -> None:
    root, _ = repo
    for rev in ("--output=pwned", "-h", "--git-dir=/tmp"):
        with pytest.raises(RevisionError, match="invalid revision"):
            Revision.open(root, rev)
    assert not (root / "pwned").exists()


def test_not_a_repository(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    with pytest.raises(RevisionError) as raised:
        Revision.open(plain)
    assert str(raised.value) == f"{plain} is not a git repository"  # said once, not git's twice
    with pytest.raises(RevisionError, match="does not exist"):
        Revision.open(tmp_path / "absent")


def test_empty_repository_has_no_head(tmp_path: Path) -> None:
    root = tmp_path / "empty"
    root.mkdir()
    git(root, "init", "-q")
    with pytest.raises(RevisionError, match="revision HEAD not found.*no commits"):
        Revision.open(root)


def test_shallow_clone_lacks_the_old_revision(repo: tuple[Path, str], tmp_path: Path) -> None:
    root, first = repo
    (root / "more.txt").write_text("more\n", encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "second")
    shallow = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{root}", str(shallow))
    with pytest.raises(RevisionError, match=f"revision {first} not found.*shallow clone"):
        Revision.open(shallow, first)


def test_bare_repository(repo: tuple[Path, str], tmp_path: Path) -> None:
    root, commit = repo
    bare = tmp_path / "bare.git"
    git(tmp_path, "clone", "-q", "--bare", str(root), str(bare))
    with Revision.open(bare, commit[:10]) as revision:
        assert revision.commit == commit
        assert revision.read("src/app.py").lines[0] == "def main():"
        assert [hit.line for hit in revision.grep("main")] == [1]


def test_odd_files_are_reported_not_crashed_on(tmp_path: Path) -> None:
    root = tmp_path / "odd"
    make_repo(
        root,
        {
            "bin.dat": b"abc\x00def" * 10,
            "late-nul.dat": b"a" * 9000 + b"\x00",
            "big.txt": "x" * 2000 + "\n",
            "latin1.txt": b"caf\xe9 au lait\n",
            "astray.txt": "café ".encode() + b"\xff au lait\n",  # UTF-8, one byte astray
            "bom.txt": b"\xef\xbb\xbfwith bom\n",
            "crlf.txt": b"one\r\ntwo\r\n",
            "target.txt": "the target\n",
        },
    )
    (root / "link").symlink_to("target.txt")
    (root / "away").symlink_to("/etc/passwd")
    other = tmp_path / "other"
    sub_commit = make_repo(other, {"x": "x\n"})
    git(root, "update-index", "--add", "--cacheinfo", f"160000,{sub_commit},vendor/sub")
    git(root, "add", "link", "away")
    git(root, "commit", "-q", "-m", "odd entries")
    with Revision.open(root, max_size=1000) as revision:
        assert revision.read("bin.dat").state is FileState.BINARY
        late = revision.read("late-nul.dat")
        assert late.state is FileState.TOO_LARGE and late.size == 9001
        assert revision.read("big.txt").state is FileState.TOO_LARGE
        latin = revision.read("latin1.txt")
        assert latin.state is FileState.OK and not latin.invalid_utf8  # an 8-bit text
        assert (latin.text, latin.encoding) == ("café au lait\n", "Windows-1252")
        astray = revision.read("astray.txt")
        assert astray.state is FileState.OK and astray.invalid_utf8
        assert (astray.text, astray.encoding) == ("café \ufffd au lait\n", "utf-8")
        assert revision.read("bom.txt").text == "with bom\n"
        assert revision.read("crlf.txt").lines == ["one", "two"]
        link = revision.read("link")  # followed inside the tree, saying so
        assert (link.path, link.text, link.via) == (
            "target.txt",
            "the target\n",
            "link is a symlink to target.txt",
        )
        away = revision.read("away")  # leaving the tree: read as the link, never followed
        assert away.state is FileState.OK and away.symlink_target == "/etc/passwd"
        assert away.problem == "away is a symbolic link to /etc/passwd"
        assert revision.entries()["link"].kind == "link"
        assert revision.resolve_link("link") == "target.txt"
        sub = revision.read("vendor/sub")
        assert sub.submodule == sub_commit and sub.state is FileState.OK
        assert revision.entries()["vendor/sub"].kind == "commit"
    with Revision.open(root) as revision:  # default limit: 5 MB
        assert revision.read("big.txt").state is FileState.OK
        late = revision.read("late-nul.dat")
        assert late.state is FileState.OK  # git's rule: only the first 8000 bytes are probed


def test_grep_regex_fixed_case_and_spans(repo: tuple[Path, str]) -> None:
    root, _ = repo
    with Revision.open(root) as revision:
        hits = list(revision.grep("hel+o"))
        assert hits == [GrepHit("src/util.py", 1, "VALUE = 'hello'", ((9, 14),))]
        hits = list(revision.grep("hello", ignore_case=True))
        assert [(hit.path, hit.line, hit.spans) for hit in hits] == [
            ("src/util.py", 1, ((9, 14),)),
            ("src/util.py", 2, ((9, 14),)),
        ]
        assert list(revision.grep("a.b", fixed=True)) == []
        assert [hit.line for hit in revision.grep("re(turn|ad)", syntax="extended")] == [2]
        assert [hit.line for hit in revision.grep(r"re\(turn\)", syntax="basic")] == [2]
        # the reason, without git's naming of its argument ("-e option, '(unclosed': ...")
        with pytest.raises(
            BadPattern, match=r"^'\(unclosed' is not a valid regular expression: \w"
        ):
            list(revision.grep("(unclosed"))
        with pytest.raises(BadPattern, match="it's"):  # a quote in the pattern
            list(revision.grep("it's ("))
        assert list(revision.grep("(unclosed", fixed=True)) == []  # as written: found nowhere


def test_grep_paths_are_literal_pathspecs(repo: tuple[Path, str]) -> None:
    root, _ = repo
    with Revision.open(root) as revision:
        assert [hit.path for hit in revision.grep("name", paths=["star*.txt"])] == ["star*.txt"]
        assert [hit.path for hit in revision.grep("name", paths=["stars.txt"])] == ["stars.txt"]
        assert [hit.path for hit in revision.grep("def", paths=["src/"])] == ["src/app.py"]
        assert list(revision.grep("def", paths=["docs"])) == []
        assert len(list(revision.grep("name", paths=["."]))) == 2


def test_grep_keeps_a_newline_in_a_file_name(tmp_path: Path) -> None:
    root = tmp_path / "spoof"
    make_repo(root, {"src/auth.py": "CHECK = True\n", "evil\nsrc/auth.py": "CHECK = False\n"})
    with Revision.open(root) as revision:
        # read line by line, the hit was src/auth.py's: a line it does not hold
        hits = list(revision.grep("CHECK = False", fixed=True))
        assert [(hit.path, hit.line, hit.text) for hit in hits] == [
            ("evil\nsrc/auth.py", 1, "CHECK = False")
        ]
        assert [hit.path for hit in revision.grep("CHECK", fixed=True)] == [
            "evil\nsrc/auth.py",
            "src/auth.py",
        ]


def test_grep_says_when_files_could_not_be_read(tmp_path: Path) -> None:
    # git grep skips a file whose object is gone, says so on stderr and still exits 0 or 1:
    # the search looked complete. Many such files once filled the stderr pipe: git then hung.
    root = tmp_path / "damaged"
    make_repo(
        root, {"kept.txt": "needle\n", **{f"f{i:04}.txt": f"needle {i}\n" for i in range(800)}}
    )
    for i in range(800):
        blob = git(root, "rev-parse", f"HEAD:f{i:04}.txt")
        (root / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    with Revision.open(root) as revision:
        hits: list[GrepHit] = []
        with pytest.raises(RevisionError, match="incomplete: git could not read 800 file"):
            hits.extend(revision.grep("needle", fixed=True))
        assert [hit.path for hit in hits] == ["kept.txt"]


def test_grep_cancel_stops_early(tmp_path: Path) -> None:
    root = tmp_path / "many"
    make_repo(root, {f"f{i:03}.txt": "needle\n" * 50 for i in range(200)})
    cancel = threading.Event()
    seen = 0
    with Revision.open(root) as revision:
        for _hit in revision.grep("needle", fixed=True, cancel=cancel):
            seen += 1
            if seen == 10:
                cancel.set()
        assert seen == 10
        assert sum(1 for _ in revision.grep("needle", fixed=True)) == 200 * 50


def test_grep_cancelled_before_any_output_stops_git_quietly(tmp_path: Path) -> None:
    root = tmp_path / "quiet"
    make_repo(root, {f"f{i:03}.txt": "hay\n" * 400 for i in range(300)})
    cancel = threading.Event()
    cancel.set()  # git is killed while it searches; that is not a failed search
    with Revision.open(root) as revision:
        assert list(revision.grep("needle", fixed=True, cancel=cancel)) == []
        assert list(revision.grep("ha[y]", paths=["f000.txt"]))[0].line == 1


def test_remote_url(repo: tuple[Path, str]) -> None:
    root, _ = repo
    with Revision.open(root) as revision:
        assert revision.remote_url() is None
        git(root, "remote", "add", "origin", "git@github.com:owner/project.git")
        assert revision.remote_url() == "git@github.com:owner/project.git"
        assert revision.remote_url("--evil") is None


def test_reads_are_thread_safe_and_cached(tmp_path: Path) -> None:
    root = tmp_path / "threads"
    files = {f"f{i}.txt": f"file {i}\n" * (i + 1) for i in range(40)}
    make_repo(root, files)
    errors: list[str] = []
    with Revision.open(root) as revision:

        def reader(offset: int) -> None:
            for i in range(40):
                name = f"f{(i + offset) % 40}.txt"
                if revision.read(name).text != files[name]:
                    errors.append(name)

        threads = [threading.Thread(target=reader, args=(n * 7,)) for n in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []
        assert revision.read("f3.txt").text is revision.read("f3.txt").text


def test_text_cache_keeps_the_most_recently_used_within_its_characters(tmp_path: Path) -> None:
    root = tmp_path / "budget"
    files = {"a.txt": "a" * 10, "b.txt": "b" * 10, "c.txt": "c" * 10, "big.txt": "x" * 40}
    make_repo(root, files)
    with Revision.open(root, cache_chars=25) as revision:
        oids = {name: entry.oid for name, entry in revision.entries().items()}
        for name in ("a.txt", "b.txt"):
            assert revision.read(name).text == files[name]
        assert revision.cached_text(oids["a.txt"]) == files["a.txt"]  # a use: a after b
        assert revision.read("c.txt").text == files["c.txt"]  # 30 characters: b goes
        assert revision.cached_text(oids["b.txt"]) is None
        assert revision.cached_text(oids["a.txt"]) == files["a.txt"]
        assert revision.cached_text(oids["c.txt"]) == files["c.txt"]
        assert revision.read("big.txt").text == files["big.txt"]  # larger than the whole cache
        assert revision.cached_text(oids["big.txt"]) is None
        assert revision.cached_text(oids["a.txt"]) == files["a.txt"]  # and nothing was dropped
        assert revision.cached_text(oids["c.txt"]) == files["c.txt"]


def test_closed_revision_refuses_reads(repo: tuple[Path, str]) -> None:
    root, _ = repo
    revision = Revision.open(root)
    revision.read("src/app.py")
    revision.close()
    with pytest.raises(RevisionError, match="closed"):
        revision.read_blob(revision.entries()["src/util.py"].oid)


def test_a_stream_of_large_blobs_arrives_whole_through_a_widened_pipe(tmp_path: Path) -> None:
    import fcntl
    import os

    from evidence.git.reader import STREAM_PIPE_BYTES, widen_pipe

    root = tmp_path / "large"
    # 3 MB in all: git writes ahead of the reader by up to the pipe's size
    lines = range(5000)
    files = {f"f{i}.txt": "".join(f"line {n} of file {i}\n" for n in lines) for i in range(30)}
    make_repo(root, files)
    with Revision.open(root) as revision:
        entries = revision.entries()
        oids = [entries[name].oid for name in files]
        streamed = list(revision.iter_blobs(oids))
    assert [oid for oid, _ in streamed] == oids
    assert [data.decode() for _, data in streamed] == list(files.values())
    if not hasattr(fcntl, "F_GETPIPE_SZ"):
        pytest.skip("no F_GETPIPE_SZ here: pipes keep the system's size")
    read_end, write_end = os.pipe()
    os.close(write_end)
    with open(read_end, "rb") as pipe:
        widen_pipe(pipe)
        assert fcntl.fcntl(read_end, fcntl.F_GETPIPE_SZ) >= STREAM_PIPE_BYTES


def test_unread_objects_are_counted_by_id_not_by_line() -> None:
    # two threads' lines run together: "...unable to read <id><the tail of another id>"; the
    # same file said twice. It once gave "could not read 801 file(s)" for 800.
    from evidence.git.grep import unread_objects

    a, b = "9d16e93db6df484f5f3bd3d3ef5ab4a0af400eec", "0123456789abcdef0123456789abcdef01234567"
    said = (
        f"error: 'c0:f1.txt': unable to read {a}{b[20:]}\n"  # run together: no id
        f"error: 'c0:f1.txt': unable to read {a}\n"  # said again: the one
        f"error: 'c0:f2.txt': unable to read {b}\n"
        f"error: 'c0:f2.txt': unable to read {b}\n"
    ).encode()
    assert unread_objects(said, 40) == 2
    assert unread_objects(said, 64) == 0  # a SHA-256 repository's ids are 64 digits
