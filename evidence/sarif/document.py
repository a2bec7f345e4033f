"""A SARIF file's bytes (plain JSON or gzip) -> its JSON document, or a SarifError saying why."""

from __future__ import annotations

import json
import zlib
from typing import Any

from evidence.limits import MAX_EXPANDED_BYTES, expanded_limit, limit_note
from evidence.text import json_input

__all__ = ["MAX_EXPANDED_BYTES", "SarifError", "expanded_limit", "read_document"]

_CHUNK = 1024 * 1024


class SarifError(ValueError):
    """A file that is not readable SARIF 2.1.0 (the message names the file and the reason)."""


_GZIP_MAGIC = b"\x1f\x8b"


def read_document(data: bytes, shown: str) -> dict[str, Any]:
    """The SARIF log in ``data`` (gzip is undone); SarifError naming ``shown`` when it is not
    readable SARIF 2.1.0."""
    if data.startswith(_GZIP_MAGIC):
        data = _gunzip(data, shown, expanded_limit())
    document = json_input(data, shown, SarifError, "a SARIF file")
    if not isinstance(document, dict):
        raise SarifError(f"{shown}: not a SARIF log (the JSON is not an object)")
    version = document.get("version")
    if version != "2.1.0":
        shown_version = json.dumps(version)[:40] if version is not None else "none"
        raise SarifError(f"{shown}: not SARIF 2.1.0 (version {shown_version})")
    if not isinstance(document.get("runs"), list):
        raise SarifError(f"{shown}: not a SARIF log ('runs' is not a list)")
    return document


def _gunzip(data: bytes, shown: str, limit: int) -> bytes:
    """The expanded bytes of gzip ``data`` (every member), a chunk at a time: a SarifError as
    soon as they pass ``limit``, before they are all held in memory."""
    out = bytearray()
    rest = data
    try:
        while rest:
            inflater = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
            chunk = inflater.decompress(rest, _CHUNK)
            while True:
                out += chunk
                if len(out) > limit:
                    raise SarifError(
                        f"{shown}: expands to more than {limit:,} bytes (the limit for a "
                        f"compressed SARIF file; {limit_note()})"
                    )
                if inflater.eof or not inflater.unconsumed_tail:
                    break
                chunk = inflater.decompress(inflater.unconsumed_tail, _CHUNK)
            if not inflater.eof:
                raise SarifError(f"{shown}: not readable gzip data (the data ends too soon)")
            rest = inflater.unused_data.lstrip(b"\0")  # members follow; padding may end it
    except zlib.error as error:
        raise SarifError(f"{shown}: not readable gzip data ({error})") from None
    return bytes(out)
