"""A SARIF log's JSON values as the reader expects them, anything else as empty: the log is
untrusted, and any JSON value may stand where the spec wants an object, an array, an integer or
a string.

JSON gives dicts, lists, str and int: exact type checks (``type(x) is dict``) are several times
faster than isinstance against the ABCs, and a 50 MB log has millions of values to check."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

__all__ = ["EMPTY", "integer", "mapping", "sequence", "text"]

#: the object standing for any value that is not one (read-only: shared by every caller)
EMPTY: Mapping[str, Any] = MappingProxyType({})


def mapping(value: object) -> Mapping[str, Any]:
    """An object, or EMPTY."""
    return value if type(value) is dict else EMPTY


def sequence(value: object) -> Sequence[Any]:
    """An array, or an empty one."""
    return value if type(value) is list else ()


def integer(value: object) -> int | None:
    """An integer (not a bool), or None."""
    return value if type(value) is int else None


def text(value: object) -> str:
    """A string, or ""."""
    return value if type(value) is str else ""
