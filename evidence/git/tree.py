"""The tree of a commit: every path with its mode, kind, object id and size (``git ls-tree``)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["TreeEntry", "decode_path", "normalize_path", "parse_tree"]


@dataclass(frozen=True)
class TreeEntry:
    """One path of the tree at the revision."""

    path: str
    mode: str  # "100644", "100755", "120000", "160000"
    kind: str  # "blob", "link" or "commit"
    oid: str
    size: int  # 0 for submodules, -1 when the object is missing (partial clone)


def decode_path(raw: bytes) -> str:
    """A path as git prints it; bytes that are not UTF-8 kept as surrogates."""
    return raw.decode("utf-8", "surrogateescape")


def normalize_path(path: str) -> str:
    """A cited path as the tree spells it: no leading ``./`` or ``/``, no backslashes."""
    path = path.strip().replace("\\", "/")
    while path.startswith("./"):
        path = path[2:]
    path = path.lstrip("/")
    while "//" in path:
        path = path.replace("//", "/")
    return path.rstrip("/")


def parse_tree(raw: bytes) -> dict[str, TreeEntry]:
    """The entries of ``git ls-tree -r -z -l`` output: files, symlinks and submodules by path."""
    entries: dict[str, TreeEntry] = {}
    for record in raw.split(b"\0"):
        if not record:
            continue
        meta, _, raw_path = record.partition(b"\t")
        fields = meta.split()
        if len(fields) != 4:
            continue
        mode, kind, oid, size = (field.decode("ascii", "replace") for field in fields)
        path = decode_path(raw_path)
        if kind == "blob":
            # ls-tree prints "BAD" as the size of an object the repository lacks
            length = int(size) if size.isdigit() else -1
            file_kind = "link" if mode == "120000" else "blob"
            entries[path] = TreeEntry(path, mode, file_kind, oid, length)
        elif kind == "commit":
            entries[path] = TreeEntry(path, mode, "commit", oid, 0)
    return entries
