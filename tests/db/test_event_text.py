"""`assay import` and `assay sync` take an event's text by one rule (db/event_text.py): a note's
terminal controls as their pictures, a control elsewhere refused, naming the line; so nothing
one door took is refused at the other."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from synckit import REPORT, bare_remote, git, give, run_sync

from db.export import event_line
from db.keys import ItemRef
from db.reviewer import reviewer_name
from db.store import VerdictStore
from tui.cli import cli

#: an escape sequence pasted with a terminal's output, a bell and a C1 control
NOTE = "exit \x1b[31m1\x1b[0m after \x07 retry \x9b"
SHOWN = "exit ␛[31m1␛[0m after ␇ retry \ufffd"


def run(*args: str | Path) -> Result:
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def ada_lines(tmp_path: Path, note: str = NOTE) -> list[dict[str, object]]:
    """Ada's events, from a database of hers elsewhere, as `assay export` would write them but
    the note as a script wrote it (the store's API takes any text)."""
    with VerdictStore.open(tmp_path / "elsewhere.sqlite3") as elsewhere:
        give(elsewhere, "ada", {"R-1": "refuted", "R-2": "confirmed"}, note=note)
        return [json.loads(event_line(event)) for event in elsewhere.events()]


def write_jsonl(path: Path, lines: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def test_a_note_imported_with_controls_reaches_every_other_reviewer(tmp_path: Path) -> None:
    # was: imported as written, then skipped by every other reviewer's sync ("note holds
    # terminal control characters"): the verdict given, sent, and never received
    remote = bare_remote(tmp_path / "remote.git")
    file = write_jsonl(tmp_path / "ada.jsonl", ada_lines(tmp_path))
    ada_db = tmp_path / "ada.sqlite3"
    imported = run("import", file, "--db", ada_db)
    assert imported.exit_code == 0, imported.output
    with VerdictStore.open(ada_db) as ada:
        assert {event.note for event in ada.events()} == {SHOWN}  # as the note editor saves it
        assert run_sync(ada, remote, "ada", tmp_path / "a").sent == 2
    with VerdictStore.open(tmp_path / "bob.sqlite3") as bob:
        result = run_sync(bob, remote, "bob", tmp_path / "b")
        assert result.ok and result.problems == [] and result.received == 2
        assert {event.note for event in bob.events()} == {SHOWN}


def test_a_note_with_controls_an_older_assay_sent_is_taken_as_its_pictures(
    tmp_path: Path,
) -> None:
    # a database that took such a note before (an older `assay import`) sends it as it holds it:
    # the others take it as the note editor would have saved it, not skip it
    remote = bare_remote(tmp_path / "remote.git")
    with VerdictStore.open(tmp_path / "ada.sqlite3") as ada:
        give(ada, "ada", {"R-1": "refuted"}, note=NOTE)
        give(ada, "ada", {"R-2": "confirmed"})
        assert run_sync(ada, remote, "ada", tmp_path / "a").sent == 2
    with VerdictStore.open(tmp_path / "bob.sqlite3") as bob:
        result = run_sync(bob, remote, "bob", tmp_path / "b")
        assert result.ok and result.problems == [] and result.received == 2
        assert {e.record: e.note for e in bob.events()} == {"R-1": SHOWN, "R-2": None}
        again = run_sync(bob, remote, "bob", tmp_path / "b")
        assert again.ok and again.problems == [] and again.received == 0


def test_import_refuses_what_sync_refuses_naming_the_line(tmp_path: Path) -> None:
    lines = ada_lines(tmp_path, note="fine")
    db = tmp_path / "fresh.sqlite3"
    cases = {
        "record": (dict(lines[1], record="R-2\x1b[2J"), "record holds terminal control characters"),
        "reviewer": (
            dict(lines[1], reviewer="ada\u202e"),
            "reviewer holds terminal control characters",
        ),
        "long note": (dict(lines[1], note="x" * 200_001), "note is longer than 200000 characters"),
        "surrogate": (
            dict(lines[1], note="cut \ud800"),
            "note holds a lone surrogate (not text UTF-8 can hold)",
        ),
    }
    for name, (bad, said) in cases.items():
        bad["item"] = ItemRef(REPORT, str(bad["record"])).key  # the key follows the record
        file = write_jsonl(tmp_path / "bad.jsonl", [lines[0], bad])
        result = run("import", file, "--db", db)
        assert result.exit_code == 2, (name, result.output)
        assert result.stderr == f"assay import: {file}:2: {said} (nothing was imported)\n", name
        assert "\x1b" not in result.stderr and "\u202e" not in result.stderr
    assert not db.exists()  # nothing imported, nothing created


def test_a_file_of_notes_with_controls_pushed_with_plain_git_is_read(tmp_path: Path) -> None:
    # the same rule for a file no assay wrote: the note is data, its controls made visible
    remote = bare_remote(tmp_path / "remote.git")
    work = tmp_path / "work"
    git("clone", "--quiet", str(remote), str(work))
    folder = work / "verdicts" / REPORT
    folder.mkdir(parents=True)
    write_jsonl(folder / "ada.jsonl", ada_lines(tmp_path))
    git("add", "-A", cwd=work)
    git("commit", "--quiet", "-m", "ada", cwd=work)
    git("push", "--quiet", "origin", "HEAD:main", cwd=work)
    with VerdictStore.open(tmp_path / "bob.sqlite3") as bob:
        result = run_sync(bob, remote, "bob", tmp_path / "b")
        assert result.ok and result.problems == [] and result.received == 2
        assert {event.note for event in bob.events()} == {SHOWN}


def test_a_reviewer_whose_git_name_holds_a_direction_mark_reaches_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a right-to-left name pasted into git's user.name with its direction mark (and a stray
    # control): the app took it as the reviewer, and every other reviewer's sync refused every
    # one of her events ("reviewer holds terminal control characters")
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.delenv("GIT_CONFIG_GLOBAL", raising=False)
    git("config", "--global", "user.name", "\u200fדנה\tלוי\u202c", cwd=home)
    name = reviewer_name(None)
    assert name == "דנה לוי"
    assert reviewer_name("\u202eada\x1b[2J") == "ada [2J"  # --reviewer: the same door
    remote = bare_remote(tmp_path / "remote.git")
    with VerdictStore.open(tmp_path / "dana.sqlite3") as dana:
        give(dana, name, {"R-1": "refuted"})
        assert run_sync(dana, remote, "", tmp_path / "d").sent == 1  # her name, found again
    with VerdictStore.open(tmp_path / "bob.sqlite3") as bob:
        result = run_sync(bob, remote, "bob", tmp_path / "b")
        assert result.ok and result.problems == [] and result.received == 1
        assert [event.reviewer for event in bob.events()] == [name]
