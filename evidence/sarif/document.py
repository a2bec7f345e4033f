"""A SARIF file's bytes (plain JSON or gzip) -> its JSON document, or a SarifError saying why."""

from __future__ import annotations

import json
from typing import Any

from evidence.limits import (
    GZIP_MAGIC,
    MAX_EXPANDED_BYTES,
    NotGzip,
    TooLarge,
    expanded_limit,
    gunzip,
)
from evidence.text import json_input

__all__ = ["MAX_EXPANDED_BYTES", "SarifError", "expanded_limit", "read_document"]


class SarifError(ValueError):
    """A file that is not readable SARIF 2.1.0 (the message names the file and the reason)."""


def read_document(data: bytes, shown: str) -> dict[str, Any]:
    """The SARIF log in ``data`` (gzip is undone); SarifError naming ``shown`` when it is not
    readable SARIF 2.1.0."""
    if data.startswith(GZIP_MAGIC):
        try:
            data = gunzip(data, "the limit for a compressed SARIF file")
        except (TooLarge, NotGzip) as error:
            raise SarifError(f"{shown}: {error}") from None
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
