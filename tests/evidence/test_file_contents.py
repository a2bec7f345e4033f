"""Files kept in Git LFS, texts in UTF-16 and in 8-bit encodings: what a report quotes from them
is checked against their content as an editor shows it, never against the pointer git stores or
replacement characters, and a clone without the content says so rather than blaming the report.
Real repositories; the LFS objects are laid out as git-lfs lays them out (git-lfs itself is not
needed, nor run)."""

from __future__ import annotations

import hashlib
import json
import os
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner
from evidencekit import git, make_repo

from evidence.anchoring import Anchorer
from evidence.drift import follow_anchors
from evidence.git.blobs import decode_blob
from evidence.git.lfs import LfsPointer, parse_pointer
from evidence.model import FileState, Quote, Tier
from evidence.revision import Revision
from tui.cli import cli

CSV = "station,year,count\nheron,1998,41\nkestrel,1998,17\n"


def pointer(content: bytes, *, version: str = "https://git-lfs.github.com/spec/v1") -> bytes:
    digest = hashlib.sha256(content).hexdigest()
    return f"version {version}\noid sha256:{digest}\nsize {len(content)}\n".encode()


def store(repo: Path, content: bytes, *, objects: Path | None = None) -> Path:
    """Put ``content`` where git-lfs keeps a fetched object; its path."""
    digest = hashlib.sha256(content).hexdigest()
    place = (objects or repo / ".git" / "lfs" / "objects") / digest[:2] / digest[2:4] / digest
    place.parent.mkdir(parents=True, exist_ok=True)
    place.write_bytes(content)
    return place


def lfs_repo(path: Path, content: bytes = CSV.encode()) -> str:
    return make_repo(
        path,
        {
            ".gitattributes": "data/*.csv filter=lfs diff=lfs merge=lfs -text\n",
            "data/counts.csv": pointer(content),
            "src/app.py": "def main():\n    return 1\n",
        },
    )


def quote(text: str, path: str = "data/counts.csv", lines: tuple[int, int] = (2, 2)) -> Quote:
    return Quote(text, path, lines, 1, 1, "XX-CMP-counts", 0)


# --- pointers --------------------------------------------------------------------------------


def test_a_pointer_is_read_as_the_spec_writes_it() -> None:
    content = b"a,b\n"
    digest = hashlib.sha256(content).hexdigest()
    assert parse_pointer(pointer(content)) == LfsPointer(digest, 4)
    legacy = pointer(content, version="https://hawser.github.com/spec/v1")
    assert parse_pointer(legacy) == LfsPointer(digest, 4)
    extended = pointer(content).replace(b"oid", b"ext-0-foo sha256:" + b"0" * 64 + b"\noid")
    assert parse_pointer(extended) == LfsPointer(digest, 4, extended=True)


@pytest.mark.parametrize(
    "data",
    [
        b"version 1.2.3\n",  # a file that only starts like one
        b"version https://git-lfs.github.com/spec/v1\noid sha256:abc\nsize 4\n",
        b"version https://git-lfs.github.com/spec/v1\noid md5:" + b"0" * 64 + b"\nsize 4\n",
        b"version https://git-lfs.github.com/spec/v1\noid sha256:" + b"0" * 64 + b"\nsize x\n",
        b"version https://example.com/spec/v9\noid sha256:" + b"0" * 64 + b"\nsize 4\n",
        b"version https://git-lfs.github.com/spec/v1\noid sha256:" + b"0" * 64 + b"\n" * 1100,
        b"version https://git-lfs.github.com/spec/v1\nsize 4\nsize 5\n",
        b"# version https://git-lfs.github.com/spec/v1\n",
    ],
)
def test_other_files_are_not_pointers(data: bytes) -> None:
    assert parse_pointer(data) is None


# --- reading the content ---------------------------------------------------------------------


def test_a_fetched_file_is_read_from_the_lfs_objects(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    commit = lfs_repo(repo)
    store(repo, CSV.encode())
    with Revision.open(repo, commit) as revision:
        source = revision.read("data/counts.csv")
        assert (source.state, source.text, source.size) == (FileState.OK, CSV, len(CSV))
        assert source.lfs is not None and source.problem is None
        anchor = Anchorer(revision).anchor(quote("heron,1998,41"))
    assert (anchor.match, anchor.lines, anchor.range_ok) == (Tier.EXACT, (2, 2), True)
    assert "data/counts.csv is stored in Git LFS: its content read" in anchor.notes


def test_a_file_not_fetched_is_unreadable_not_missing_from_the_report(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    commit = lfs_repo(repo)
    with Revision.open(repo, commit) as revision:
        source = revision.read("data/counts.csv")
        anchor = Anchorer(revision).anchor(quote("heron,1998,41"))
    digest = hashlib.sha256(CSV.encode()).hexdigest()
    assert source.state is FileState.MISSING
    assert source.problem == (
        f"data/counts.csv is stored in Git LFS ({len(CSV)} bytes, sha256:{digest[:12]}) and its "
        "content is not in this clone (git lfs fetch brings it)"
    )
    assert anchor.match is Tier.MISSING and anchor.range_ok is None  # not judged: not here
    assert source.problem in anchor.notes


def test_an_object_that_is_not_the_pointers_content_is_never_shown(tmp_path: Path) -> None:
    # a repository's LFS directory is as untrusted as the rest: what is there must hash right
    repo = tmp_path / "repo"
    commit = lfs_repo(repo)
    place = store(repo, CSV.encode())
    place.write_bytes(CSV.replace("41", "99").encode())  # the same size, other bytes
    with Revision.open(repo, commit) as revision:
        assert revision.read("data/counts.csv").state is FileState.MISSING


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_pipe_in_the_lfs_objects_is_not_read(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    commit = lfs_repo(repo)
    place = store(repo, CSV.encode())
    place.unlink()
    os.mkfifo(place)
    result: list[FileState] = []
    reader = threading.Thread(
        target=lambda: result.append(Revision.open(repo, commit).read("data/counts.csv").state),
        daemon=True,
    )
    reader.start()
    reader.join(20)
    assert result == [FileState.MISSING]  # answered, not blocked on the pipe


def test_the_size_limit_is_the_contents_and_binary_content_is_binary(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    image = b"\x89PNG\r\n\x1a\n\0\0\0" + bytes(range(256)) * 8
    commit = make_repo(repo, {"big.csv": pointer(CSV.encode() * 10), "logo.png": pointer(image)})
    store(repo, CSV.encode() * 10)
    store(repo, image)
    with Revision.open(repo, commit, max_size=200) as revision:  # the pointer is 128
        big = revision.read("big.csv")
        assert (big.state, big.size) == (FileState.TOO_LARGE, len(CSV) * 10)
    with Revision.open(repo, commit) as revision:
        logo = revision.read("logo.png")
        assert (logo.state, logo.size) == (FileState.BINARY, len(image))


def test_a_worktree_and_a_configured_storage_are_read(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    commit = lfs_repo(repo)
    store(repo, CSV.encode())
    git(repo, "worktree", "add", "-q", str(tmp_path / "tree"), commit)
    with Revision.open(tmp_path / "tree", commit) as revision:
        assert revision.read("data/counts.csv").text == CSV  # the main repository's objects
    elsewhere = tmp_path / "other"
    commit = lfs_repo(elsewhere, b"other,1\n")
    git(elsewhere, "config", "lfs.storage", "big-files")
    store(elsewhere, b"other,1\n", objects=elsewhere / ".git" / "big-files" / "objects")
    with Revision.open(elsewhere, commit) as revision:
        assert revision.read("data/counts.csv").text == "other,1\n"


def test_a_quote_cited_at_another_file_is_found_in_lfs_content(tmp_path: Path) -> None:
    # the word index reads blobs itself: it must index the content, not the pointer
    repo = tmp_path / "repo"
    commit = lfs_repo(repo)
    store(repo, CSV.encode())
    with Revision.open(repo, commit) as revision:
        anchor = Anchorer(revision).anchor(quote("kestrel,1998,17", "src/app.py", (3, 3)))
    assert [(place.path, place.lines) for place in anchor.elsewhere] == [
        ("data/counts.csv", (3, 3))
    ]


def test_the_word_index_reads_lfs_text_whole_but_not_binary_content(tmp_path: Path) -> None:
    # an image in LFS is known binary from its first bytes: not read whole and hashed
    repo = tmp_path / "repo"
    image = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR" + b"x" * 20_000
    commit = make_repo(repo, {"data/counts.csv": pointer(CSV.encode()), "logo.png": pointer(image)})
    store(repo, CSV.encode())
    store(repo, image)
    with Revision.open(repo, commit) as revision:
        assert revision.contents(pointer(CSV.encode())) == CSV.encode()
        assert revision.contents(pointer(image)) == pointer(image)
        assert revision.read("logo.png").state is FileState.BINARY  # shown: read as it is
        plain = b"version 2\n"  # an ordinary file that starts like a pointer
        assert revision.contents(plain) == plain


def test_grep_searches_the_content_of_lfs_files_not_their_pointers(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    commit = lfs_repo(repo)
    with Revision.open(repo, commit) as revision:  # no LFS object here: git's hits as they are
        assert [hit.path for hit in revision.grep("sha256")] == ["data/counts.csv"]
    store(repo, CSV.encode())
    with Revision.open(repo, commit) as revision:
        hits = [(hit.path, hit.line, hit.text, hit.spans) for hit in revision.grep("heron")]
        assert hits == [("data/counts.csv", 2, "heron,1998,41", ((0, 5),))]
        assert list(revision.grep("sha256")) == []  # the pointer's lines are not the file's
        assert [hit.path for hit in revision.grep("main", paths=["src"])] == ["src/app.py"]
        assert list(revision.grep("heron", paths=["src"])) == []


# --- assay check -----------------------------------------------------------------------------

REPORT = """\
Lfs runtime report

Type: agentic-system-analyses/types/agentic-system-runtime-report.md

Runtime account

Evidence

Evidence is SRC-1 at revision {rev}.

Shared records

Components

XX-CMP-counts

Label: Counts

One row per station (SRC-1, data/counts.csv):

heron,1998,41 --- data/counts.csv:2
"""


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["check", *args], catch_exceptions=False)
    return result.exit_code, result.stdout


def test_check_names_lfs_files_it_could_not_read_and_keeps_no_answer(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    content = b"station,year,count\nheron,1998,41\n# cached by no other test\n"
    commit = lfs_repo(repo, content)
    report = tmp_path / "lfs-runtime-report.txt"
    report.write_text(REPORT.format(rev=commit), encoding="utf-8")
    code, out = run(str(report), "--repo", str(repo))
    assert code == 2
    assert (
        "note: 1 quoted file(s) are stored in Git LFS and this clone does not have their "
        "content (git lfs fetch brings it), so their quotes were not checked: data/counts.csv"
    ) in out
    assert "partial or damaged" not in out and "1 wrong range" not in out
    code, out = run(str(report), "--repo", str(repo), "--format", "json")
    assert json.loads(out)["unreadable"] == ["data/counts.csv"]
    store(repo, content)  # fetched since: the answer was not kept, the content is read
    code, out = run(str(report), "--repo", str(repo))
    assert code == 0 and "✓ data/counts.csv:2  XX-CMP-counts  exact" in out


def test_drift_into_content_not_fetched_is_unreadable(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    cited = lfs_repo(repo)
    store(repo, CSV.encode())
    moved = "station,year,count\nosprey,1997,3\nheron,1998,41\n"
    (repo / "data" / "counts.csv").write_bytes(pointer(moved.encode()))
    git(repo, "commit", "-q", "-am", "more counts")
    with Revision.open(repo, cited) as old, Revision.open(repo, "HEAD") as new:
        anchors = Anchorer(old).anchor_many([quote("heron,1998,41")])
        (unreadable,) = follow_anchors(anchors, old, new)
        store(repo, moved.encode())
    with Revision.open(repo, cited) as old, Revision.open(repo, "HEAD") as new:
        (fetched,) = follow_anchors(anchors, old, new)
    assert unreadable is not None and unreadable.status.value == "unreadable"
    assert unreadable.status.breaks and [c.subject for c in unreadable.commits] == ["more counts"]
    assert fetched is not None and (fetched.status.value, fetched.lines) == ("moved", (3, 3))


# --- UTF-16 and UTF-32 -----------------------------------------------------------------------


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"])
def test_wide_texts_with_their_mark_are_decoded(encoding: str) -> None:
    text = "[Strings]\r\nGreeting=Grüße\r\n"
    data = "\ufeff".encode(encoding) + text.encode(encoding)
    decoded = decode_blob(data)
    assert (decoded.binary, decoded.text) == (False, text)


def test_binary_that_starts_like_a_mark_stays_binary() -> None:
    assert decode_blob(b"\xff\xfe" + b"\0\0\x01\x02" * 50).binary
    assert decode_blob(b"\xff\xfe\0\xd8" + b"ab").binary  # a lone surrogate: not UTF-16


def test_a_quote_of_a_utf16_file_is_anchored(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    text = "[Strings]\r\nGreeting=Hello\r\nFarewell=Bye\r\n"
    commit = make_repo(
        repo, {"res/app.rc": "\ufeff".encode("utf-16-le") + text.encode("utf-16-le")}
    )
    with Revision.open(repo, commit) as revision:
        anchor = Anchorer(revision).anchor(quote("Farewell=Bye", "res/app.rc", (3, 3)))
        elsewhere = Anchorer(revision).anchor(quote("Greeting=Hello", "res/other.rc", (2, 2)))
    assert (anchor.match, anchor.lines, anchor.range_ok) == (Tier.EXACT, (3, 3), True)
    assert [(place.path, place.lines) for place in elsewhere.elsewhere] == [("res/app.rc", (2, 2))]


def test_an_8bit_text_is_read_as_windows_1252_and_its_quote_is_exact(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    legacy = "/* Übergabe an den Dienst */\nint grüße = 1; /* “quoted” */\n"
    commit = make_repo(repo, {"src/legacy.c": legacy.encode("cp1252")})
    with Revision.open(repo, commit) as revision:
        anchor = Anchorer(revision).anchor(quote("int grüße = 1;", "src/legacy.c", (2, 2)))
    assert (anchor.match, anchor.lines, anchor.range_ok) == (Tier.EXACT, (2, 2), True)
    assert "src/legacy.c is not UTF-8: read as Windows-1252" in anchor.notes


JAPANESE = (
    "# 受信したメッセージを検証する。\ndef 検証(メッセージ):\n    return 'id' in メッセージ\n"
)
KOREAN = "# 입력된 메시지를 검증하고 저장합니다.\nx = 1\n"
CHINESE = "# 验证收到的消息并保存。如果缺少必填字段，则返回错误。\nx = 1\n"
TRADITIONAL = "# 驗證收到的訊息並儲存。如果缺少必填欄位，則回傳錯誤。\nx = 1\n"


@pytest.mark.parametrize(
    ("text", "codec", "name"),
    [
        (JAPANESE, "cp932", "Shift-JIS"),
        (JAPANESE, "euc_jp", "EUC-JP"),
        (KOREAN, "euc_kr", "EUC-KR"),
        (CHINESE, "gb2312", "GBK"),
        (TRADITIONAL, "big5", "Big5"),
        ("# licence\n" * 10_000 + JAPANESE, "cp932", "Shift-JIS"),  # told past a long header
    ],
    ids=["shift-jis", "euc-jp", "euc-kr", "gbk", "big5", "after-a-header"],
)
def test_east_asian_legacy_texts_are_read_as_written(text: str, codec: str, name: str) -> None:
    # these bytes were read as UTF-8 astray (replacement characters) or as Windows-1252
    # (mojibake); a quote of them, typed as the author's editor showed them, never matched
    decoded = decode_blob(text.encode(codec))
    assert (decoded.text, decoded.encoding, decoded.invalid_utf8) == (text, name, False)


def test_latin_texts_are_never_read_as_east_asian() -> None:
    # Windows-1252 letters pair into the double bytes of every East Asian encoding: the text
    # must read as the language too
    import random

    rnd = random.Random(7)
    letters = "abcdefghijklmnopqrstuvwxyz ,.éèêàçôûüöäßÉÀÇÜÖÄñõãíóúâîÆØÅæøå"
    for _ in range(1_000):
        text = "".join(rnd.choice(letters) for _ in range(rnd.randint(20, 400)))
        assert decode_blob(text.encode("cp1252")).encoding == "Windows-1252", text


def test_a_quote_of_a_shift_jis_file_is_exact(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    commit = make_repo(repo, {"src/処理.py": JAPANESE.encode("cp932")})
    with Revision.open(repo, commit) as revision:
        anchor = Anchorer(revision).anchor(quote("def 検証(メッセージ):", "src/処理.py", (2, 2)))
    assert (anchor.match, anchor.lines, anchor.range_ok) == (Tier.EXACT, (2, 2), True)
    assert "src/処理.py is not UTF-8: read as Shift-JIS" in anchor.notes


@pytest.mark.parametrize(
    "text", [JAPANESE, KOREAN, CHINESE, TRADITIONAL], ids=["ja", "ko", "zh", "zh-tw"]
)
def test_utf8_east_asian_text_with_a_byte_astray_stays_utf8(text: str) -> None:
    decoded = decode_blob(text.encode() + b"\xff\n")
    assert (decoded.encoding, decoded.invalid_utf8) == ("utf-8", True)
    assert decoded.text.startswith(text)


def test_chinese_read_as_korean_runs_its_syllables_together() -> None:
    # GB 2312's rows of common characters are KS X 1001's of Korean syllables: this text
    # decodes as Korean without error, but its "syllables" run together and against the
    # characters that do not read as syllables, where Korean spaces its words
    for text in ("# 当儿房问处林才经\nx = 1\n", "# 容治编觉单根满候将公打命风行地\nx = 1\n"):
        assert decode_blob(text.encode("gb2312")).encoding == "GBK", text
