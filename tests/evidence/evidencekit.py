"""Helpers the evidence tests share: two small reports, real git repositories, a hostile config."""

from __future__ import annotations

import stat
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from evidence.drift import Drift

#: a runtime report of the "Heron" system (records, quotes, citations, annotations)
RUNTIME = """\
Heron runtime report

Type: agentic-system-analyses/types/agentic-system-runtime-report.md

Runtime account

Scope and sources

The worker pulls jobs for a planner. See RT-RTE-job-loop (SRC-1, worker/main.py, worker/queue.py).

Failure handling

1. Worker to planner. Errors are retried twice [SRC-1: worker/retry.py] and then parked.

delay = base * 2 ** attempt --- worker/retry.py:14

Shared records

Components

RT-CMP-planner

Label: Planner process

Identity: the planner module selected per job (SRC-1, planner/core.py).

class Planner: --- planner/core.py:3-3

Operative objects

none declared in this member

Routes

RT-RTE-job-loop

Label: Job loop

Endpoints: queue -> worker -> planner.

  • Immediate return: job status.
  • Later read-back: status row in jobs table.
  • implementation conclusion status: wired
  • operation conclusion status: uninspected

  for job in queue.take():
      planner.run(job) --- worker/main.py:20-21

    def take(self):
        return self._pending.pop(0)

--- worker/queue.py

Claims

RT-CLM-exactly-once

Label: Exactly-once claim

  • Each job runs once.
  • Never twice. --- docs/guarantees.md

Evidenced absences

RT-ABS-no-lock

Label: No job lock

  • implementation conclusion status: absent

At revision 0123456789abcdef0123456789abcdef01234567: rg -n 'acquire_lock' worker/ finds nothing.

Also grep -rn "with_lock" planner/core.py returns no line.

Behavioral-authority paths

none declared in this member

Annotations

none
"""

#: the workflow report of the same system, annotating records of the runtime report
WORKFLOW = """\
Heron workflow report

Type: agentic-system-analyses/types/agentic-system-workflow-report.md

Workflow account

Selection

RT-RTE-job-loop runs; see SRC-1, worker/main.py and worker/queue.py, not worker/extra.py.

Shared records

Components

none declared in this member

Annotations

On RT-RTE-job-loop

Workflow role: submission starts the loop.

On RT-CMP-planner

Workflow role: the planner picks the next step.

On RT-RTE-job-loop

Second remark on the same route, citing RT-CLM-missing.
"""


GIT_ENV = {
    "GIT_AUTHOR_NAME": "Test",
    "GIT_AUTHOR_EMAIL": "test@example.org",
    "GIT_COMMITTER_NAME": "Test",
    "GIT_COMMITTER_EMAIL": "test@example.org",
    "GIT_AUTHOR_DATE": "2024-01-01T00:00:00Z",
    "GIT_COMMITTER_DATE": "2024-01-01T00:00:00Z",
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "GIT_CONFIG_NOSYSTEM": "1",
    "PATH": "/usr/local/bin:/usr/bin:/bin",
}


def git(repo: Path, *args: str) -> str:
    """Run git in `repo` for building test repositories."""
    result = subprocess.run(
        ["git", *args], cwd=repo, env=GIT_ENV, capture_output=True, text=True, check=True
    )
    return result.stdout.strip()


def make_repo(path: Path, files: Mapping[str, str | bytes]) -> str:
    """A repository at `path` with one commit holding `files`; returns the commit id."""
    path.mkdir(parents=True, exist_ok=True)
    git(path, "init", "-q", "-b", "main")
    for name, content in files.items():
        target = path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8")
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", "first")
    return git(path, "rev-parse", "HEAD")


HOOKS = (
    "pre-commit",
    "post-commit",
    "post-checkout",
    "post-merge",
    "pre-auto-gc",
    "post-index-change",
    "reference-transaction",
    "fsmonitor-watchman",
    "post-rewrite",
    "pre-push",
    "push-to-checkout",
)


def arm(root: Path, marks: Path) -> str:
    """Make ordinary git use on `root` create files in `marks`; returns a lost blob id."""
    m = str(marks)
    settings = {
        "core.fsmonitor": f"touch {m}/fsmonitor; echo",
        "core.pager": f"touch {m}/pager; cat",
        "core.editor": f"touch {m}/editor",
        "core.sshCommand": f"touch {m}/ssh",
        "core.askPass": f"touch {m}/askpass",
        "core.alternateRefsCommand": f"touch {m}/alternate-refs",
        "diff.external": f"touch {m}/diff-external",
        "diff.evil.textconv": f"touch {m}/textconv; cat",
        "diff.evil.command": f"touch {m}/diff-command",
        "filter.evil.clean": f"touch {m}/clean; cat",
        "filter.evil.smudge": f"touch {m}/smudge; cat",
        "filter.evil.process": f"touch {m}/filter-process",
        "gpg.program": f"touch {m}/gpg",
        "credential.helper": f"!touch {m}/credential",
        "pager.grep": f"touch {m}/pager-grep; cat",
        "grep.patternType": "fixed",
        "grep.lineNumber": "false",
        "grep.fullName": "false",
        "gc.auto": "1",
        "core.repositoryformatversion": "1",
        "extensions.partialClone": "origin",
        "remote.origin.url": f"ext::sh -c touch% {m}/lazy-fetch",
        "remote.origin.promisor": "true",
        "protocol.ext.allow": "always",
    }
    for key, value in settings.items():
        git(root, "config", key, value)
    hooks = root / ".git" / "hooks"
    hooks.mkdir(exist_ok=True)
    for name in HOOKS:
        hook = hooks / name
        hook.write_text(f"#!/bin/sh\ntouch {m}/hook-{name}\n", encoding="utf-8")
        hook.chmod(hook.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    (root / ".git" / "info").mkdir(exist_ok=True)
    (root / ".git" / "info" / "attributes").write_text("* diff=evil filter=evil\n")
    # a blob the partial clone "lacks": reading it would make git fetch from the evil remote
    lost = git(root, "rev-parse", "HEAD:lost.txt")
    (root / ".git" / "objects" / lost[:2] / lost[2:]).unlink()
    return lost


def drift_of(root: Path, cited: str, path: str, lines: tuple[int, int]) -> Drift:
    """What drift says of lines ``lines`` of ``path`` at ``cited``, at HEAD of ``root``."""
    from evidence.drift import follow_anchors
    from evidence.model import Anchor, FileState, Quote, Tier
    from evidence.revision import Revision

    anchor = Anchor(Quote("", path, None, 1, 1, "R", 0), FileState.OK, Tier.EXACT, 100.0, lines)
    with Revision.open(root, cited) as old, Revision.open(root, "HEAD") as now:
        (drift,) = follow_anchors([anchor], old, now)
    assert drift is not None
    return drift
