"""A SARIF file's bytes (plain JSON or gzip) -> its JSON document, or a SarifError saying why."""

from __future__ import annotations

import gzip
import json
import zlib
from typing import Any

__all__ = ["SarifError", "read_document"]


class SarifError(ValueError):
    """A file that is not readable SARIF 2.1.0 (the message names the file and the reason)."""


_GZIP_MAGIC = b"\x1f\x8b"


def read_document(data: bytes, shown: str) -> dict[str, Any]:
    """The SARIF log in ``data`` (gzip is undone); SarifError naming ``shown`` when it is not
    readable SARIF 2.1.0."""
    if data.startswith(_GZIP_MAGIC):
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as error:
            raise SarifError(f"{shown}: not readable gzip data ({error})") from None
    try:
        document = json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise SarifError(f"{shown}: a SARIF file must be UTF-8") from None
    except ValueError as error:
        raise SarifError(f"{shown}: not valid JSON ({error})") from None
    except RecursionError:
        raise SarifError(f"{shown}: JSON nested too deeply") from None
    if not isinstance(document, dict):
        raise SarifError(f"{shown}: not a SARIF log (the JSON is not an object)")
    version = document.get("version")
    if version != "2.1.0":
        shown_version = json.dumps(version)[:40] if version is not None else "none"
        raise SarifError(f"{shown}: not SARIF 2.1.0 (version {shown_version})")
    if not isinstance(document.get("runs"), list):
        raise SarifError(f"{shown}: not a SARIF log ('runs' is not a list)")
    return document
