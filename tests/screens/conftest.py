"""Fixtures for the review app: the real sample repository and reports, a real SQLite file."""

from __future__ import annotations

import pytest

from evidence.model import ReportSet
from evidence.reports.loading import load_reports
from evidence.sample import CITED_REVISION, SAMPLE_REPORTS
from keymaps import Keymap, load_keymap


@pytest.fixture
def keymap() -> Keymap:
    """The default preset, ignoring any keymap.toml of the person running the tests."""
    return load_keymap(user=False)


@pytest.fixture
def sample_reports() -> ReportSet:
    return load_reports([SAMPLE_REPORTS])


@pytest.fixture
def cited() -> str:
    return CITED_REVISION
