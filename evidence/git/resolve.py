"""Which commit a revision names, said plainly when it names none (a blob, a tree, several
objects, nothing in a shallow clone)."""

from __future__ import annotations

from pathlib import Path

from evidence.git.process import OBJECT_ID, RevisionError, run_git
from evidence.text import shown_path

__all__ = ["resolve_commit"]


def resolve_commit(git_dir: Path, repo_path: Path, rev: str | None) -> str:
    """The 40-hex id of the commit ``rev`` names (None: HEAD) in the repository at ``git_dir``;
    RevisionError saying why not (not found, ambiguous, a tree or a blob, a shallow clone)."""
    name = "HEAD" if rev is None else rev.strip()
    if not name or "\0" in name or "\n" in name:
        raise RevisionError(f"invalid revision {rev!r}")
    if name.startswith("-"):
        raise RevisionError(f"invalid revision {name!r}: a revision cannot start with '-'")
    result = run_git(
        git_dir,
        git_dir,
        "rev-parse",
        "--verify",
        "--quiet",
        "--end-of-options",
        f"{name}^{{commit}}",
    )
    commit = result.stdout.decode("ascii", "replace").strip()
    if result.returncode != 0 or not OBJECT_ID.fullmatch(commit):
        hint = ""
        if name.startswith("refs/tags/"):  # named by a report: its tags may not be fetched
            hint = "; fetch the repository's tags (git fetch --tags) or pass --rev"
        elif (git_dir / "shallow").exists():
            hint = "; the repository is a shallow clone, fetch the full history"
        elif rev is None:
            hint = "; the repository has no commits"
        kind = _object_kind(git_dir, name)
        if kind is not None:  # there, but no commit: "not found" would send one looking
            raise RevisionError(
                f"revision {name} names a {kind}, not a commit, in {shown_path(repo_path)}"
            )
        said = run_git(git_dir, git_dir, "rev-parse", "--verify", "--end-of-options", name)
        if b"is ambiguous" in said.stderr:  # a short id several objects start with
            raise RevisionError(
                f"revision {name} in {shown_path(repo_path)} is ambiguous: several objects start"
                " with it; give more of its digits"
            )
        raise RevisionError(f"revision {name} not found in {shown_path(repo_path)}{hint}")
    return commit


def _object_kind(git_dir: Path, name: str) -> str | None:
    """ "tree" or "blob" when ``name`` (a tag peeled) names one, else None."""
    for shown in (name, f"{name}^{{}}"):  # the second: what a tag points at
        found = run_git(git_dir, git_dir, "cat-file", "-t", shown)
        kind = found.stdout.decode("ascii", "replace").strip()
        if found.returncode != 0 or kind != "tag":
            return kind if found.returncode == 0 and kind in ("tree", "blob") else None
    return None
