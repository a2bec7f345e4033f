"""Builders for the sync tests: real bare repositories, real databases, plain git beside assay."""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

from db.keys import ItemRef
from db.store import VerdictStore
from db.sync.engine import SyncResult, sync

REPORT = "KESTREL/runtime-report"


def git(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> str:
    """Plain git, as a person would run it (hooks and all), for building and checking."""
    result = subprocess.run(
        ["git", "-c", "user.name=Tester", "-c", "user.email=t@example.com", *args],
        cwd=cwd,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout


def bare_remote(path: Path) -> Path:
    """An empty bare repository whose default branch is main."""
    git("init", "--quiet", "--bare", "--initial-branch=main", str(path))
    return path


def give(
    store: VerdictStore, reviewer: str, verdicts: dict[str, str], note: str | None = None
) -> None:
    """Verdicts on records of REPORT: record id -> verdict."""
    for record, verdict in verdicts.items():
        store.give(ItemRef(REPORT, record), verdict, reviewer=reviewer, note=note)


def run_sync(
    store: VerdictStore, remote: Path | str | None, reviewer: str, data: Path, **options: object
) -> SyncResult:
    """One sync of ``store`` as ``reviewer`` with its clones under ``data``."""
    return sync(
        store,
        remote=None if remote is None else str(remote),
        reviewer=reviewer,
        data_dir=data,
        **options,  # type: ignore[arg-type]
    )


def ids(store: VerdictStore) -> set[str]:
    """Every event id of a store."""
    return {event.event for event in store.events()}


def marker_script(path: Path, marker: Path, *, exit_code: int = 0) -> Path:
    """An executable script that leaves ``marker`` behind when anything runs it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    marker.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/sh\necho ran >> '{marker}'\nexit {exit_code}\n", encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def remote_files(remote: Path, branch: str = "main") -> list[str]:
    """The paths in the remote branch's tree."""
    return git("ls-tree", "-r", "--name-only", branch, cwd=remote).split()


def ran(markers: Path) -> list[str]:
    """The names of the markers left by scripts that ran."""
    return sorted(path.name for path in markers.iterdir()) if markers.exists() else []
