"""SARIF files written for the sample repository (tests/evidence/sarif/), and small builders."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

SARIF_FILES = Path(__file__).resolve().parent / "sarif"
#: CodeQL's shape: two runs, provenance mapped to %SRCROOT%, code flows, related locations,
#: suppressions, baselineState, a misquoted snippet, no-snippet regions, quirks
CODEQL = SARIF_FILES / "codeql-kestrel.sarif"
#: Semgrep's shape: no provenance, multi-line snippets ending in a newline, fingerprints
SEMGREP = SARIF_FILES / "semgrep-kestrel.sarif"
#: ruff's absolute file:// URIs of another checkout; a tool with messageStrings and arguments,
#: chained originalUriBaseIds, charOffset regions, percent-encoding, an endLine off its snippet
OTHER = SARIF_FILES / "other-checkout.sarif"


def log(*runs: dict[str, Any]) -> dict[str, Any]:
    """A SARIF 2.1.0 log of these runs."""
    return {"version": "2.1.0", "runs": list(runs)}


def run(*results: dict[str, Any], name: str = "scanner", **extra: Any) -> dict[str, Any]:
    """A run of a tool named ``name`` with these results."""
    return {"tool": {"driver": {"name": name}}, "results": list(results), **extra}


def located(path: str, line: int | None = None, **region: Any) -> dict[str, Any]:
    """A location of ``path`` at ``line`` (region keys may add a snippet and more)."""
    if line is not None:
        region.setdefault("startLine", line)
    physical: dict[str, Any] = {"artifactLocation": {"uri": path}}
    if region:
        physical["region"] = region
    return {"physicalLocation": physical}


def write(path: Path, document: dict[str, Any], *, compress: bool = False) -> Path:
    """Write ``document`` as JSON (gzip-compressed with ``compress``) and return the path."""
    data = json.dumps(document).encode()
    path.write_bytes(gzip.compress(data) if compress else data)
    return path
