"""Drift on histories with branches merged back: what a release or feature branch did to a
passage is found at the passage's own lines and named by the branch's commit, as ``git log``
names it, not by the merge that brought it."""

from __future__ import annotations

from pathlib import Path

from evidencekit import drift_of, git, make_repo

from evidence.drift import DriftStatus


def _merge_side_into_busy_main(root: Path) -> None:
    """main gains a commit of its own, then merges `side` (no fast-forward)."""
    git(root, "checkout", "-q", "main")
    (root / "notes.txt").write_text("y\n")
    git(root, "commit", "-qam", "notes")
    git(root, "merge", "-q", "--no-ff", "-m", "merge side", "side")


def test_a_row_of_a_table_replaced_is_changed_at_its_own_lines_with_its_commit(
    tmp_path: Path,
) -> None:
    """A row of like rows replaced on a release branch merged back: the window of the passage's
    length two rows down differs from it only in names, so it looked closer than the passage's
    own lines with the new row, and drift said "changed" at rows no commit touched, naming no
    commit. The rows the history carried it to, changed by the release's commit, are it."""
    names = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota"]
    table = ["ROUTES = ["] + [f'    ("GET", "/{n}", handle_{n}),' for n in names] + ["]"]
    root = tmp_path / "r"
    cited = make_repo(root, {"routes.py": "\n".join(table) + "\n", "notes.txt": "x\n"})
    git(root, "checkout", "-qb", "side")
    table[5] = '    ("POST", "/tickets", TicketView.as_view()),'
    (root / "routes.py").write_text("\n".join(table) + "\n")
    git(root, "commit", "-qam", "epsilon replaced on the release")
    replaced = git(root, "rev-parse", "HEAD")
    _merge_side_into_busy_main(root)
    drift = drift_of(root, cited, "routes.py", (5, 7))
    assert (drift.status, drift.lines) == (DriftStatus.CHANGED, (5, 7))
    assert [c.id for c in drift.commits] == [replaced]


def test_what_a_branch_merged_back_deleted_is_named_by_the_branchs_commit(tmp_path: Path) -> None:
    """Lines deleted, a file deleted and a file made binary on a branch merged into a main that
    moved on: the merge's diff against main shows each, but the commit that did it is the
    branch's, the one ``git log CITED..NEW -- PATH`` names."""
    root = tmp_path / "r"
    body = "".join(f"def step_{n}(value):\n    return value * {n} + {n * 3}\n" for n in range(8))
    files = {"calc.py": body, "gone.py": body, "data.txt": body, "notes.txt": "x\n"}
    cited = make_repo(root, files)
    git(root, "checkout", "-qb", "side")
    (root / "calc.py").write_text(
        body.replace("def step_3(value):\n    return value * 3 + 9\n", "")
    )
    git(root, "commit", "-qam", "step_3 removed")
    git(root, "rm", "-q", "gone.py")
    git(root, "commit", "-qm", "gone.py removed")
    (root / "data.txt").write_bytes(body.encode() + b"\x00")
    git(root, "commit", "-qam", "data.txt binary")
    _merge_side_into_busy_main(root)
    expected = {
        ("calc.py", (7, 8)): DriftStatus.DELETED,
        ("gone.py", (3, 4)): DriftStatus.FILE_DELETED,
        ("data.txt", (3, 4)): DriftStatus.UNREADABLE,
    }
    for (path, lines), status in expected.items():
        drift = drift_of(root, cited, path, lines)
        named = git(root, "log", "--format=%H", f"{cited}..HEAD", "--", path).split()
        assert drift.status is status and len(named) == 1, path
        assert [c.id for c in drift.commits] == named, path


STORE = """\
class Store:
    def __init__(self, path):
        self.path = path
        self._conn = connect(path)

    def _write(self, work):
        with self._lock:
            self._ensure_open()
            self._conn.execute("BEGIN IMMEDIATE")
            result = work()
            self._conn.execute("COMMIT")
        return result

    def close(self):
        self._conn.close()
"""


def test_a_passage_moved_to_another_file_on_a_branch_then_edited_is_changed_there(
    tmp_path: Path,
) -> None:
    """A module split up on a branch merged back (a method moved verbatim to a new file), the
    moved code edited later: in no file verbatim, and gone from its own, it was said deleted,
    though the new file holds it, edited. It is changed there, named by the commits that wrote
    and edited its lines there, as ``git log -L`` names them."""
    root = tmp_path / "r"
    cited = make_repo(root, {"store.py": STORE, "notes.txt": "x\n"})
    git(root, "checkout", "-qb", "side")
    method = STORE[STORE.index("    def _write") : STORE.index("    def close")]
    (root / "store.py").write_text(STORE.replace(method, ""))
    (root / "database.py").write_text("class Database:\n" + method)
    git(root, "add", "database.py")
    git(root, "commit", "-qam", "the store split: writes in database.py")
    split = git(root, "rev-parse", "HEAD")
    _merge_side_into_busy_main(root)
    edited = method.replace("self._conn", "self.conn").replace(
        "            self._ensure_open()\n",
        "            self._ensure_open()\n            self.wait_step = 0.05\n",
    )
    (root / "database.py").write_text("class Database:\n" + edited)
    git(root, "commit", "-qam", "database: a public connection, a wait step")
    edit = git(root, "rev-parse", "HEAD")
    drift = drift_of(root, cited, "store.py", (7, 9))  # the lock, the check, BEGIN IMMEDIATE
    assert drift.status is DriftStatus.CHANGED and drift.path == "database.py"
    assert drift.lines == (3, 6) and drift.score >= 80, drift  # the line added among them too
    assert [c.id for c in drift.commits] == [edit, split]
    # lines the new file held at the cited revision are another passage's: still deleted
    root = tmp_path / "other"
    cited = make_repo(root, {"store.py": STORE, "database.py": "class Database:\n" + method})
    (root / "store.py").write_text(STORE.replace(method, ""))
    (root / "database.py").write_text("class Database:\n" + edited)
    git(root, "commit", "-qam", "store: writes gone; database edited")
    assert drift_of(root, cited, "store.py", (7, 9)).status is DriftStatus.DELETED


def test_a_file_deleted_whose_code_went_edited_into_another_is_changed_there(
    tmp_path: Path,
) -> None:
    """A file deleted, its code moved into a file that was there (too little of it for that
    file to count as its successor), edited on the way: changed there, not file deleted."""
    root = tmp_path / "r"
    helpers = "def parse_limit(text):\n    value = int(text.strip())\n    return max(0, value)\n"
    main = "".join(f"def route_{n}(request):\n    return respond({n})\n\n" for n in range(30))
    cited = make_repo(root, {"helpers.py": helpers, "main.py": main})
    git(root, "rm", "-q", "helpers.py")
    moved = helpers.replace("int(text.strip())", "int(text.strip(), 10)")
    (root / "main.py").write_text(main + moved)
    git(root, "commit", "-qam", "helpers folded into main.py")
    drift = drift_of(root, cited, "helpers.py", (1, 3))
    assert (drift.status, drift.path, drift.lines) == (DriftStatus.CHANGED, "main.py", (91, 93))


def test_a_moved_passage_with_a_line_added_among_its_own_keeps_its_first_line(
    tmp_path: Path,
) -> None:
    """Moved to another file, a long line added after its short first line: the run most like
    it by ratio left its first line out, and the diff said that line was gone, though it stood
    just above. Its own lines near the run are its counterpart's."""
    body = (
        "    def open(self, conn):\n"
        "        if not self.readonly:\n"
        '            self._retry(lambda: conn.execute("PRAGMA journal_mode = WAL").fetchone())\n'
        '            conn.execute("PRAGMA synchronous = FULL")\n'
        "        return conn\n"
    )
    root = tmp_path / "r"
    cited = make_repo(root, {"store.py": "class Store:\n" + body, "notes.txt": "x\n"})
    moved = body.replace(
        "        if not self.readonly:\n",
        "        if not self.readonly:\n"
        '            conn.execute(f"PRAGMA busy_timeout = {int(WAIT_STEP * 1000)}")\n',
    )
    (root / "store.py").write_text("class Store:\n    pass\n")
    (root / "database.py").write_text("class Database:\n" + moved)
    git(root, "add", "database.py")
    git(root, "commit", "-qam", "the store's opening in database.py, a wait step")
    drift = drift_of(root, cited, "store.py", (3, 5))
    assert (drift.status, drift.path, drift.lines) == (DriftStatus.CHANGED, "database.py", (3, 6))
