"""A small audit built in a temporary directory: two systems with repositories of their own
(real git repositories, one commit each) and one whose repository is not on this machine."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

REPORT = """\
{system} runtime report

Type: agentic-system-analyses/types/agentic-system-runtime-report.md

Runtime account

Evidence

Evidence is SRC-1 at revision {rev}.

Shared records

Claims

{prefix}-CLM-answer

Label: The answer

The handler returns a fixed number (SRC-1, src/app.py, src/gone.py).

return compute(42) --- src/app.py:2

{prefix}-CLM-limit

Label: The limit

The limit is set once.

LIMIT = 10 --- src/app.py:4
"""

FILES = {
    "src/app.py": "def handler():\n    return compute(42)\n\nLIMIT = 12\n",
}


def git(repo: Path, *args: str) -> str:
    """Run git in ``repo`` with no user or system configuration."""
    environment = {
        **os.environ,
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_AUTHOR_NAME": "Ada",
        "GIT_AUTHOR_EMAIL": "ada@example.org",
        "GIT_COMMITTER_NAME": "Ada",
        "GIT_COMMITTER_EMAIL": "ada@example.org",
    }
    done = subprocess.run(
        ["git", *args], cwd=repo, env=environment, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def make_repo(path: Path, files: dict[str, str]) -> str:
    """A repository with one commit of ``files``; its commit id."""
    path.mkdir(parents=True)
    git(path, "init", "-q", "-b", "main")
    for name, text in files.items():
        (path / name).parent.mkdir(parents=True, exist_ok=True)
        (path / name).write_text(text, encoding="utf-8")
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", "first")
    return git(path, "rev-parse", "HEAD")


def write_report(directory: Path, system: str, prefix: str, rev: str) -> Path:
    """A runtime report about ``system`` stating ``rev``."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{system.lower()}-runtime-report.txt"
    path.write_text(REPORT.format(system=system, prefix=prefix, rev=rev), encoding="utf-8")
    return path


AUDIT = """\
[[system]]
name = "Alpha"
repository = "repos/alpha"
reports = ["reports/alpha-*.txt"]

[[system]]
name = "Beta"
repository = "repos/beta"
reports = ["reports/beta-runtime-report.txt"]

[[system]]
name = "Gamma"
reports = ["reports/gamma-runtime-report.txt"]
"""


def make_audit(root: Path) -> Path:
    """Alpha and Beta with repositories (each with one failing quote and one missing cited
    path), Gamma without; returns the assay.toml."""
    alpha = make_repo(root / "repos" / "alpha", FILES)
    beta = make_repo(root / "repos" / "beta", {**FILES, "src/gone.py": "x = 1\n"})
    write_report(root / "reports", "Alpha", "AL", alpha)
    write_report(root / "reports", "Beta", "BE", beta)
    write_report(root / "reports", "Gamma", "GA", "0" * 40)
    audit = root / "assay.toml"
    audit.write_text(AUDIT, encoding="utf-8")
    return audit


def write_scan(path: Path, checkout: str, findings: list[tuple[str, int, str]]) -> Path:
    """A SARIF file as a scanner in CI writes it: one tool (``scanner``), no category, no
    revision, paths under its checkout ``checkout`` (``/builds/ci/alpha``); one result of rule
    X100 per (path, line, snippet)."""
    results = [
        {
            "ruleId": "X100",
            "message": {"text": f"finding in {name}"},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": f"file://{checkout}/{name}"},
                        "region": {"startLine": line, "snippet": {"text": snippet}},
                    }
                }
            ],
        }
        for name, line, snippet in findings
    ]
    run = {"tool": {"driver": {"name": "scanner"}}, "results": results}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"version": "2.1.0", "runs": [run]}), encoding="utf-8")
    return path
