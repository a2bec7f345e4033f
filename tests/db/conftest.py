"""Fixtures for the verdict store tests: real SQLite files in tmp_path, always closed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from db.store import VerdictStore


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """Where a test's verdict database lives."""
    return tmp_path / "verdicts.sqlite3"


@pytest.fixture
def store(db_path: Path) -> Iterator[VerdictStore]:
    """A fresh verdict store, closed after the test."""
    opened = VerdictStore.open(db_path)
    try:
        yield opened
    finally:
        opened.close()
