"""How much assay reads of one input file (standard library only: imported at every launch)."""

from __future__ import annotations

import os

__all__ = ["MAX_EXPANDED_BYTES", "expanded_limit"]

#: the most a compressed SARIF file may expand to, and the most read of any one input file:
#: about 20 times the largest log the benchmarks read (50 MB); ASSAY_SARIF_MAX_BYTES sets another
MAX_EXPANDED_BYTES = 1024 * 1024 * 1024


def expanded_limit() -> int:
    """The limit: ASSAY_SARIF_MAX_BYTES, else `MAX_EXPANDED_BYTES`."""
    given = os.environ.get("ASSAY_SARIF_MAX_BYTES", "").strip()
    try:
        return int(given) if given and int(given) > 0 else MAX_EXPANDED_BYTES
    except ValueError:
        return MAX_EXPANDED_BYTES
