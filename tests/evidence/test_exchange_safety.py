"""The clone's fetch and push run none of the programs its configuration names, even when that
configuration is changed after assay reset it (the ``-c`` overrides and environment alone)."""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

from evidence.git.exchange import Exchange
from evidence.git.transport import user_settings


def _git(*args: str, cwd: Path | None = None) -> str:
    return subprocess.run(
        ["git", "-c", "user.name=T", "-c", "user.email=t@example.com", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def _script(path: Path, marker: Path, exit_code: int = 0) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    marker.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/sh\necho ran >> '{marker}'\nexit {exit_code}\n", encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def test_planted_configuration_runs_nothing_through_the_overrides(tmp_path: Path) -> None:
    remote = tmp_path / "remote.git"
    _git("init", "--quiet", "--bare", "--initial-branch=main", str(remote))
    for hook in ("pre-receive", "update", "post-receive"):
        _script(remote / "hooks" / hook, tmp_path / "markers" / f"remote-{hook}")
    clone = tmp_path / "clone.git"
    exchange = Exchange.open(clone, user_settings(tmp_path))
    try:
        markers = tmp_path / "markers"
        for hook in ("pre-push", "reference-transaction"):
            _script(tmp_path / "hooks" / hook, markers / f"hooksPath-{hook}")
            _script(clone / "hooks" / hook, markers / f"hooks-{hook}")
        planted = {
            "core.hooksPath": str(tmp_path / "hooks"),
            "core.sshCommand": _script(tmp_path / "ssh", markers / "ssh", 1),
            "core.fsmonitor": _script(tmp_path / "fsm", markers / "fsmonitor"),
            "credential.helper": _script(tmp_path / "cred", markers / "credential"),
        }
        for key, value in planted.items():  # after assay reset the config
            _git("config", "--file", str(clone / "config"), key, value)
        commit = exchange.commit(
            None, {"verdicts/a.jsonl": b"{}\n"}, author=("ada", ""), message="m"
        )
        assert exchange.push(str(remote), commit, "main").ok
        assert exchange.fetch(str(remote), "main").commit == commit
        assert exchange.fetch("ssh://verdicts.invalid/x.git", "main").error is not None
        assert not markers.exists() or os.listdir(markers) == []
        # what was planted is live: git run without assay's overrides runs the clone's pre-push
        second = exchange.commit(commit, {"b": b"x\n"}, author=("ada", ""), message="m")
        subprocess.run(
            [
                "git",
                f"--git-dir={clone}",
                "push",
                "--quiet",
                str(remote),
                f"{second}:refs/heads/main",
            ],
            capture_output=True,
            check=False,
        )
        assert "hooksPath-pre-push" in os.listdir(markers)
    finally:
        exchange.close()
