"""A file as it is at a revision (`Revision.read`): its state, text and how it was read, and
why it has no lines to show when it has none."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from evidence.git.lfs import LfsPointer
from evidence.model import FileState

__all__ = ["SourceFile"]


@dataclass(frozen=True)
class SourceFile:
    """A file as it is at the revision, decoded for display and anchoring."""

    path: str
    state: FileState
    text: str
    invalid_utf8: bool = False
    symlink_target: str | None = None
    submodule: str | None = None  # the commit a submodule entry points at
    size: int = 0
    oid: str | None = None
    lfs: LfsPointer | None = None  # a Git LFS file: what its pointer names
    encoding: str = "utf-8"  # what the text was decoded from (UTF-16, Windows-1252, ...)
    via: str = ""  # how the path was found when not as cited (evidence/git/spelling.py)
    inside: tuple[str, str] | None = None  # (submodule, commit) holding a missing path
    directory: bool = False  # missing as a file: the path is a directory of the tree

    @cached_property
    def lines(self) -> list[str]:
        """The text split at newlines (as git and editors number them), without terminators."""
        if not self.text:
            return []
        lines = self.text.split("\n")
        if lines[-1] == "":
            lines.pop()
        return [line[:-1] if line.endswith("\r") else line for line in lines]

    @property
    def line_count(self) -> int:
        """How many lines the text has."""
        if not self.text:
            return 0
        return self.text.count("\n") + (0 if self.text.endswith("\n") else 1)

    @property
    def text_here(self) -> bool:
        """Whether its text can be read here: in the tree, in this clone, text, not too large."""
        return self.state is FileState.OK

    @property
    def unreadable(self) -> bool:
        """In the tree, but its content is not in this clone (a Git LFS object not fetched, an
        object a partial clone lacks, a submodule not cloned): not the report's mistake."""
        return self.state is FileState.MISSING and (self.oid is not None or self.inside is not None)

    @property
    def problem(self) -> str | None:
        """Why the file has no lines to show (missing, binary, too large, a link...), or None."""
        if self.inside is not None:
            submodule, commit = self.inside
            return (
                f"{self.path} is inside the submodule {submodule} (commit {commit[:12]}): "
                "its files are in that repository, not in this one"
            )
        if self.unreadable and self.lfs is not None:
            return (
                f"{self.path} is stored in Git LFS ({self.lfs.size:,} bytes, "
                f"{self.lfs.short}) and its content is not in this clone"
                + (" (git lfs fetch brings it)" if not self.lfs.extended else " (LFS extensions)")
            )
        if self.unreadable:  # the tree names it, but git has not its object
            return (
                f"{self.path} is in this revision, but its object {self.oid} is missing from "
                "the repository (a partial or damaged clone: see git fsck)"
            )
        if self.directory:
            return f"{self.path} is a directory at this revision, not a file"
        if self.state is FileState.MISSING:
            return f"{self.path} does not exist at this revision"
        if self.state is FileState.BINARY:
            return f"{self.path} is a binary file ({self.size:,} bytes)"
        if self.state is FileState.TOO_LARGE:
            return f"{self.path} is too large to show ({self.size:,} bytes)"
        if self.symlink_target is not None:
            return f"{self.path} is a symbolic link to {self.symlink_target}"
        if self.submodule is not None:
            return f"{self.path} is a submodule at commit {self.submodule}"
        return None
