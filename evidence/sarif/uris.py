"""Artifact locations -> repository paths.

A SARIF location names its file by a URI, often relative to a base (``uriBaseId``) that the run
defines in ``originalUriBaseIds`` (itself maybe relative to another base) or leaves undefined
(``%SRCROOT%``). Bases that ``versionControlProvenance[].mappedTo`` maps to the repository, and
bases left undefined, are the repository's root; a ``mappedTo`` that writes a URI (an absolute
directory, or one relative to a base) names the root itself, and the paths under it are
relative to it. A base defined as an absolute URI (the scanning
machine's checkout) gives an absolute path: evidence/sarif/rebase.py later finds it in the
revision by its ending, once the revision is known; a relative path stays the repository's.
"""

from __future__ import annotations

import posixpath
import re
import urllib.parse
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["UriResolver", "is_absolute", "uri_path"]

_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_DRIVE = re.compile(r"^/?[A-Za-z]:/")
_MAX_DEPTH = 16  # bases defined through other bases; a cycle stops here


def is_absolute(path: str) -> bool:
    """True for a path of the scanning machine (``/home/...``, ``C:/...``), not the repository's."""
    return path.startswith("/") or bool(_DRIVE.match(path))


def uri_path(uri: str) -> tuple[bool, str]:
    """(absolute, path) of a URI reference: the scheme and host dropped, percent-decoding undone,
    backslashes (written by some Windows tools) read as slashes."""
    uri = uri.strip().replace("\\", "/")
    if _SCHEME.match(uri) and not _DRIVE.match(uri):
        parts = urllib.parse.urlsplit(uri)
        path = urllib.parse.unquote(parts.path)
        if parts.scheme.lower() == "file" and parts.netloc not in ("", "localhost"):
            path = f"//{parts.netloc}{path}"  # a UNC share
        if _DRIVE.match(path):  # a Windows path: an encoded backslash (%5C) is its separator
            path = path.lstrip("/").replace("\\", "/")
        return True, path or "/"
    path = urllib.parse.unquote(uri.split("#", 1)[0].split("?", 1)[0])
    if _DRIVE.match(path):
        return True, path.lstrip("/").replace("\\", "/")
    return path.startswith("/"), path


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _clean(path: str) -> str:
    if not path:
        return ""
    cleaned = posixpath.normpath(path)
    if path.startswith("//") and not cleaned.startswith("//"):
        cleaned = "/" + cleaned  # normpath keeps "//" only sometimes; a UNC path keeps it
    return "" if cleaned == "." else cleaned


class UriResolver:
    """Resolves the artifact locations of one run (results are many; each distinct one once)."""

    def __init__(
        self,
        run: Mapping[str, Any],
        mapped: Iterable[str] = (),
        roots: Iterable[Mapping[str, Any]] = (),
    ) -> None:
        bases = run.get("originalUriBaseIds")
        self._bases: Mapping[str, Any] = bases if isinstance(bases, Mapping) else {}
        artifacts = run.get("artifacts")
        self._artifacts: list[Any] = artifacts if isinstance(artifacts, list) else []
        self._mapped = frozenset(mapped)
        self._cache: dict[tuple[str | None, str | None, int | None], tuple[str, str]] = {}
        # absolute directories of bases mapped to the repository, and of the artifactLocations
        # (``roots``) a run maps it to: a path under one is relative
        prefixes = {self._defined(name, 0) for name in self._mapped}
        prefixes.update(self._directory(root) for root in roots)
        self._roots = sorted((p for p in prefixes if p and is_absolute(p)), key=len, reverse=True)

    def resolve(self, location: Mapping[str, Any]) -> tuple[str, str]:
        """(path, uri as written) of an artifactLocation; path "" when it names no file."""
        # a value of another type (a list, an object) names nothing, as a missing one
        uri = _text(location.get("uri"))
        base = _text(location.get("uriBaseId"))
        index = location.get("index")
        if not isinstance(index, int) or isinstance(index, bool):
            index = None
        key = (uri, base, index)
        found = self._cache.get(key)
        if found is None:
            found = self._resolve(uri, base, index)
            self._cache[key] = found
        return found

    def _resolve(self, uri: object, base: object, index: object) -> tuple[str, str]:
        if (
            not isinstance(uri, str)
            and isinstance(index, int)
            and not isinstance(index, bool)
            and 0 <= index < len(self._artifacts)
        ):
            artifact = self._artifacts[index]
            place = artifact.get("location") if isinstance(artifact, Mapping) else None
            if isinstance(place, Mapping):
                uri, base = _text(place.get("uri")), _text(place.get("uriBaseId"))
        if not isinstance(uri, str) or not uri.strip():
            return "", ""
        absolute, path = uri_path(uri)
        if not absolute and isinstance(base, str):
            path = self._base(base, 0) + path
        path = _clean(path)
        for root in self._roots:
            # a Windows path ignores case: c:/work/app/ is in C:/Work/App/
            if path.startswith(root) or (
                _DRIVE.match(root) and path[: len(root)].casefold() == root.casefold()
            ):
                return path[len(root) :], uri
        return path, uri

    def _base(self, name: str, depth: int) -> str:
        """The directory a base stands for, with a trailing slash ("" for the repository)."""
        if name in self._mapped:
            return ""
        return self._defined(name, depth)

    def _defined(self, name: str, depth: int) -> str:
        definition = self._bases.get(name)
        if depth > _MAX_DEPTH or not isinstance(definition, Mapping):
            return ""
        return self._directory(definition, depth)

    def _directory(self, definition: Mapping[str, Any], depth: int = 0) -> str:
        """The directory an artifactLocation names, with a trailing slash ("" for none)."""
        uri = definition.get("uri")
        if not isinstance(uri, str) or not uri.strip():
            return ""
        absolute, path = uri_path(uri)
        parent = definition.get("uriBaseId")
        if not absolute and isinstance(parent, str):
            path = self._base(parent, depth + 1) + path
        path = _clean(path)
        return path.rstrip("/") + "/" if path else ""
