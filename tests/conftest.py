"""Shared fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED_REPORTS = ROOT.parent / "shared" / "reports"


@pytest.fixture
def shared_reports() -> Path:
    """The five reference reports; tests that need them are skipped where ../shared is absent."""
    if not SHARED_REPORTS.is_dir():
        pytest.skip("../shared/reports is not present")
    return SHARED_REPORTS
