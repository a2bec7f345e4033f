"""`assay sync` on hostile ground: hooks and programs of the repositories never run, the user's
own configuration does, and hostile verdict files are reported and skipped."""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path

import pytest
from synckit import REPORT, bare_remote, git, give, ids, marker_script, ran, run_sync

from db.event_text import sendable
from db.export import event_line
from db.store import VerdictStore
from db.sync.engine import sync_directory

RECEIVE_HOOKS = ("pre-receive", "update", "post-receive", "post-update", "reference-transaction")


@pytest.fixture
def ada(tmp_path: Path) -> Iterator[VerdictStore]:
    store = VerdictStore.open(tmp_path / "ada.sqlite3")
    yield store
    store.close()


def test_a_path_remote_runs_none_of_its_receive_hooks(ada: VerdictStore, tmp_path: Path) -> None:
    remote = bare_remote(tmp_path / "verdicts.git")
    markers = tmp_path / "markers"
    for hook in RECEIVE_HOOKS:
        marker_script(remote / "hooks" / hook, markers / hook)
    git(
        "config",
        "core.fsmonitor",
        str(marker_script(tmp_path / "fsm", markers / "fsmonitor")),
        cwd=remote,
    )
    give(ada, "ada", {"R-1": "confirmed"})
    result = run_sync(ada, remote, "ada", tmp_path / "a")
    assert result.ok and result.sent == 1
    give(ada, "ada", {"R-2": "refuted"})
    assert run_sync(ada, remote, "ada", tmp_path / "a").sent == 1
    assert ran(markers) == []
    # the hooks are live: a plain push runs them
    work = tmp_path / "work"
    git("clone", "--quiet", str(remote), str(work))
    (work / "README.md").write_text("x\n", encoding="utf-8")
    git("add", "README.md", cwd=work)
    git("commit", "--quiet", "-m", "readme", cwd=work)
    git("push", "--quiet", "origin", "HEAD:main", cwd=work)
    assert set(ran(markers)) >= set(RECEIVE_HOOKS)


def _plant(clone: Path, markers: Path, tmp_path: Path) -> None:
    """Settings of the working clone that would run programs, and hooks in it."""
    hooks = tmp_path / "planted-hooks"
    for hook in ("pre-push", "reference-transaction", "post-commit", "post-update"):
        marker_script(hooks / hook, markers / f"hooksPath-{hook}")
        marker_script(clone / "hooks" / hook, markers / f"hooks-{hook}")
    settings = {
        "core.hooksPath": str(hooks),
        "core.sshCommand": str(
            marker_script(tmp_path / "repo-ssh", markers / "sshCommand", exit_code=1)
        ),
        "core.fsmonitor": str(marker_script(tmp_path / "repo-fsm", markers / "fsmonitor")),
        "credential.helper": str(marker_script(tmp_path / "repo-cred", markers / "credential")),
        "core.askPass": str(marker_script(tmp_path / "repo-askpass", markers / "askPass")),
    }
    for key, value in settings.items():
        git("config", "--file", str(clone / "config"), key, value)


def test_settings_planted_in_the_working_clone_run_nothing(
    ada: VerdictStore, tmp_path: Path
) -> None:
    remote = bare_remote(tmp_path / "verdicts.git")
    give(ada, "ada", {"R-1": "confirmed"})
    run_sync(ada, remote, "ada", tmp_path / "a")
    markers = tmp_path / "markers"
    _plant(sync_directory(ada.path, str(remote.resolve()), tmp_path / "a"), markers, tmp_path)
    give(ada, "ada", {"R-2": "refuted"})
    result = run_sync(ada, remote, "ada", tmp_path / "a")
    assert result.ok and result.sent == 1 and result.repaired
    assert ran(markers) == []


def test_ssh_runs_the_users_command_never_the_clones(
    ada: VerdictStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    markers = tmp_path / "markers"
    user_ssh = marker_script(tmp_path / "user-ssh", markers / "user-ssh", exit_code=1)
    user_config = tmp_path / "user.gitconfig"
    git("config", "--file", str(user_config), "core.sshCommand", str(user_ssh))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(user_config))
    monkeypatch.delenv("GIT_SSH_COMMAND", raising=False)
    monkeypatch.delenv("GIT_SSH", raising=False)
    remote = "ssh://verdicts.invalid/team/verdicts.git"
    give(ada, "ada", {"R-1": "confirmed"})
    first = run_sync(ada, remote, "ada", tmp_path / "a")
    assert first.offline is not None and first.pending == 1
    assert (markers / "user-ssh").exists()
    (markers / "user-ssh").unlink()
    _plant(sync_directory(ada.path, remote, tmp_path / "a"), markers, tmp_path)
    again = run_sync(ada, None, "ada", tmp_path / "a")
    assert again.offline is not None and again.pending == 1 and ada.count() == 1
    assert ran(markers) == ["user-ssh"]


class _AskForCredentials(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # the name http.server calls
        self.send_response(401)
        self.send_header("WWW-Authenticate", 'Basic realm="verdicts"')
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


def test_https_asks_the_users_credential_helper_never_the_clones(
    ada: VerdictStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _AskForCredentials)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        markers = tmp_path / "markers"
        helper = marker_script(tmp_path / "user-cred", markers / "user-credential")
        user_config = tmp_path / "user.gitconfig"
        git("config", "--file", str(user_config), "credential.helper", str(helper))
        monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(user_config))
        remote = f"http://127.0.0.1:{server.server_address[1]}/verdicts.git"
        give(ada, "ada", {"R-1": "confirmed"})
        run_sync(ada, remote, "ada", tmp_path / "a")
        assert (markers / "user-credential").exists()
        (markers / "user-credential").unlink()
        _plant(sync_directory(ada.path, remote, tmp_path / "a"), markers, tmp_path)
        result = run_sync(ada, None, "ada", tmp_path / "a")
        assert result.offline is not None and result.pending == 1
        assert ran(markers) == ["user-credential"]
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize(
    "remote",
    ["ext::sh -c touch% /tmp/assay-pwned", "fd::3", "-uhack", "git://example.com/x.git", "a\nb"],
)
def test_remotes_that_would_run_programs_are_refused(
    ada: VerdictStore, tmp_path: Path, remote: str
) -> None:
    from db.sync.engine import SyncError

    with pytest.raises(SyncError):
        run_sync(ada, remote, "ada", tmp_path / "a")
    assert ada.sync_state() == {}


def test_hostile_files_are_reported_and_skipped(ada: VerdictStore, tmp_path: Path) -> None:
    remote = bare_remote(tmp_path / "verdicts.git")
    bob = VerdictStore.open(tmp_path / "bob.sqlite3")
    try:
        give(bob, "bob", {"R-1": "refuted", "R-2": "confirmed"}, note="see [red]this[/red] <b>")
        good = [json.loads(event_line(e)) for e in bob.events()]
    finally:
        bob.close()
    forged = dict(good[0], event="f" * 32, reviewer="ada", verdict="confirmed")
    escape = dict(good[0], event="e" * 32, note="\x1b]0;owned\x07\x1b[2J")
    lines = [
        json.dumps(good[0]),
        "this is not an event",
        json.dumps(forged),  # ada's name in bob's file
        json.dumps(escape),
        json.dumps(dict(good[1], verdict="approved")),
        json.dumps(good[1]),
    ]
    work = tmp_path / "work"
    git("clone", "--quiet", str(remote), str(work))
    folder = work / "verdicts" / REPORT
    folder.mkdir(parents=True)
    (folder / "bob.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    with open(folder / "carol.jsonl", "wb") as huge:
        huge.truncate(100 * 1024 * 1024)
    (folder / "notes.txt").write_text("hello\n", encoding="utf-8")
    git("add", "-A", cwd=work)
    git("commit", "--quiet", "-m", "hostile", cwd=work)
    git("push", "--quiet", "origin", "HEAD:main", cwd=work)

    give(ada, "ada", {"R-1": "confirmed"})
    result = run_sync(ada, remote, "ada", tmp_path / "a")
    assert result.ok and result.received == 3 and result.sent == 1
    problems = "\n".join(result.problems)
    assert ":2: not an event (not JSON" in problems
    assert ":3: an event of 'ada'" in problems and "does not belong in this file" in problems
    assert ":4:" not in problems  # a note's controls are taken as their pictures, as import
    assert ":5: unknown verdict 'approved'" in problems
    assert "carol.jsonl: 104,857,600 bytes" in problems
    assert "notes.txt: not a verdict file" in problems
    assert ids(ada) >= {good[0]["event"], good[1]["event"]}
    assert "f" * 32 not in ids(ada)
    notes = {e.note for e in ada.events() if e.reviewer == "bob"}
    assert notes == {"see [red]this[/red] <b>", "\u241b]0;owned\u2407\u241b[2J"}
    assert ada.integrity_check() == ["ok"]
    # read once: the same files are not read (nor reported) again
    again = run_sync(ada, remote, "ada", tmp_path / "a")
    assert again.ok and again.problems == [] and again.received == 0


def test_a_part_holds_only_its_reviewers_events_and_is_spelled_one_way(tmp_path: Path) -> None:
    from db.sync.files import file_path, file_text, first_part, read_events

    bob = VerdictStore.open(tmp_path / "bob.sqlite3")
    try:
        give(bob, "bob", {"R-1": "refuted", "R-2": "confirmed"})
        lines = [event_line(e) for e in bob.events()]
    finally:
        bob.close()
    data = file_text(lines)
    folder = f"verdicts/{REPORT}"
    assert file_path(REPORT, "bob", 2) == f"{folder}/bob+2.jsonl"
    assert file_path(REPORT, "bob+2") == f"{folder}/bob%2B2.jsonl"  # a name never makes a part
    for part in ("bob+2.jsonl", "bob+17.jsonl"):
        problems: list[str] = []
        assert len(read_events(f"{folder}/{part}", data, problems)) == 2 and problems == []
        assert first_part(f"{folder}/{part}") == f"{folder}/bob.jsonl"
    for other in ("bob+1.jsonl", "bob+02.jsonl", "bob+x.jsonl", "ada+2.jsonl", "bob+2.json"):
        problems = []
        assert read_events(f"{folder}/{other}", data, problems) == []
        assert len(problems) == 2 and "does not belong in this file" in problems[0]


def test_parts_cut_between_lines_and_join_to_the_file(monkeypatch: pytest.MonkeyPatch) -> None:
    from db.sync import files

    monkeypatch.setattr(files, "PART_BYTES", 100)
    lines = [json.dumps({"n": n, "pad": "x" * (n * 7 % 60)}) for n in range(200)]
    lines.insert(50, json.dumps({"long": "y" * 250}))  # longer than a part: a part of its own
    data = files.file_text(lines)
    parts = files.file_parts(data)
    assert b"".join(parts) == data
    assert all(part.endswith(b"\n") for part in parts)
    assert all(len(part) <= 100 or part.count(b"\n") == 1 for part in parts)
    assert sum(len(part) > 100 for part in parts) == 1
    # no part could have taken the next part's first line
    assert all(len(a) + len(b.split(b"\n")[0]) + 1 > 100 for a, b in pairwise(parts))
    assert files.file_parts(files.file_text(lines[:2])) == [files.file_text(lines[:2])]


def test_a_note_in_right_to_left_text_reaches_the_other_reviewers(
    ada: VerdictStore, tmp_path: Path
) -> None:
    # direction marks and embeddings come with right-to-left text pasted from a page: the
    # author's editor keeps them, so refusing them on receipt lost the verdict for everyone else
    remote = bare_remote(tmp_path / "remote.git")
    note = "\u200fהבדיקה נכשלה\u2028\u202bשורה\u202c"
    give(ada, "ada", {"R-1": "refuted"}, note=note)
    assert run_sync(ada, remote, "ada", tmp_path / "a").sent == 1
    with VerdictStore.open(tmp_path / "bob.db") as bob:
        result = run_sync(bob, remote, "bob", tmp_path / "b")
        assert result.ok and result.received == 1 and not result.problems
        assert [e.note for e in bob.events() if e.reviewer == "ada"] == [note]


def test_a_note_pasted_from_a_terminal_is_given_as_one_every_reviewer_can_read(
    ada: VerdictStore, tmp_path: Path
) -> None:
    # an escape sequence pasted with terminal output: the note editor keeps the pictures of its
    # controls (`sendable`), so the verdict is not one the others' sync refuses
    remote = bare_remote(tmp_path / "remote.git")
    give(
        ada, "ada", {"R-1": "refuted"}, note=sendable("exit \x1b[31m1\x1b[0m\tafter \x07 retry\r\n")
    )
    (given,) = [e.note for e in ada.events()]
    assert given == "exit ␛[31m1␛[0m\tafter ␇ retry\r\n"
    assert run_sync(ada, remote, "ada", tmp_path / "a").sent == 1
    with VerdictStore.open(tmp_path / "bob.db") as bob:
        result = run_sync(bob, remote, "bob", tmp_path / "b")
        assert result.received == 1 and not result.problems
        assert [e.note for e in bob.events()] == [given]
