"""Shared fixtures."""

from __future__ import annotations

import gc
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

# Hypothesis fails an example slower than 200 ms by default: a timed assertion, which a loaded
# machine trips; the suite asserts outcomes only.
settings.register_profile("assay", deadline=None)
settings.load_profile("assay")

ROOT = Path(__file__).resolve().parent.parent
SHARED_REPORTS = ROOT.parent / "shared" / "reports"

_cache_home: tempfile.TemporaryDirectory[str] | None = None
_saved_cache_home: str | None = None
_saved_data_home: str | None = None


def pytest_configure(config: pytest.Config) -> None:
    """The whole session (and the processes it starts) uses a temporary user cache directory.

    platformdirs honours XDG_CACHE_HOME on Linux: the app's parsed-report cache and the sample
    repository (built once per session) go there, not into the cache of the person
    running the tests.
    """
    global _cache_home, _saved_cache_home, _saved_data_home
    _saved_cache_home = os.environ.get("XDG_CACHE_HOME")
    _saved_data_home = os.environ.get("XDG_DATA_HOME")
    _cache_home = tempfile.TemporaryDirectory(
        prefix="assay-tests-cache-", ignore_cleanup_errors=True
    )
    os.environ["XDG_CACHE_HOME"] = _cache_home.name
    # the default database and `assay sync`'s clones (user_data_dir) too
    os.environ["XDG_DATA_HOME"] = os.path.join(_cache_home.name, "data")


def pytest_unconfigure(config: pytest.Config) -> None:
    global _cache_home
    # pytest then collects five times for unraisable exceptions; each walked a worker's ~1
    # million live objects (Textual's caches), so that the last worker outlived execnet's 5 s
    # and was sent a SIGINT (a KeyboardInterrupt "ignored" in Hypothesis's gc callback). One
    # collection finds the garbage; the survivors, frozen, are not walked again.
    gc.collect()
    gc.freeze()
    if _saved_cache_home is None:
        os.environ.pop("XDG_CACHE_HOME", None)
    else:
        os.environ["XDG_CACHE_HOME"] = _saved_cache_home
    if _saved_data_home is None:
        os.environ.pop("XDG_DATA_HOME", None)
    else:
        os.environ["XDG_DATA_HOME"] = _saved_data_home
    if _cache_home is not None:
        _cache_home.cleanup()
        _cache_home = None


@pytest.fixture
def shared_reports() -> Path:
    """The five reference reports; tests that need them are skipped where ../shared is absent."""
    if not SHARED_REPORTS.is_dir():
        pytest.skip("../shared/reports is not present")
    return SHARED_REPORTS


@pytest.fixture(scope="session")
def sample() -> Path:
    """The sample repository (built once into the cache directory)."""
    from evidence.sample import sample_repo

    return sample_repo()


@pytest.fixture(autouse=True)
def user_config_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Each test has its own empty user config directory (platformdirs honours XDG_CONFIG_HOME):
    a theme or keymap.toml kept by one test, or by the person running them, changes no other."""
    home = tmp_path_factory.mktemp("config")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home))
    return home
