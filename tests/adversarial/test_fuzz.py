"""Fuzzing reports and SARIF files: no input makes assay fail inside itself (exit 3) or exit
with anything but 0, 1 or 2, within a bounded address space. A small seeded run is part of the
suite; `-m fuzz` runs a larger one (pytest -m fuzz tests/adversarial/test_fuzz.py)."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from evidence.sample import CITED_REVISION

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
#: the address space the fuzzed process may use (a 1.2 GB expansion would pass it)
MEMORY = 1536 * 1024 * 1024
#: the expansion limit of compressed SARIF files in the fuzzed process
SARIF_LIMIT = 16 * 1024 * 1024


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def _fuzz(tmp_path: Path, sample: Path, seed: int, count: int, checks: int) -> list[list[object]]:
    folder = tmp_path / "cases"
    folder.mkdir()
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), str(HERE)]),
        "ASSAY_SARIF_MAX_BYTES": str(SARIF_LIMIT),
    }
    args = [str(seed), str(count), str(folder), str(sample), CITED_REVISION, str(checks)]
    done = subprocess.run(
        [sys.executable, str(HERE / "fuzzkit.py"), *args],
        env=env,
        capture_output=True,
        text=True,
        preexec_fn=_limited,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    results: list[list[object]] = json.loads(done.stdout)
    return results


def _failures(results: list[list[object]]) -> list[list[object]]:
    return [row for row in results if row[2] not in (0, 1, 2) or "internal error" in str(row[3])]


def test_a_small_seeded_fuzz_run_finds_no_internal_error(tmp_path: Path, sample: Path) -> None:
    results = _fuzz(tmp_path, sample, seed=27, count=24, checks=6)
    assert len(results) == 24 * 2 + 6
    assert _failures(results) == []
    # the run reached the refusals too: bad input is exit 2
    assert any(row[2] == 2 for row in results) and any(row[2] == 0 for row in results)


@pytest.mark.fuzz
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_larger_fuzz_run_finds_no_internal_error(tmp_path: Path, sample: Path, seed: int) -> None:
    results = _fuzz(tmp_path, sample, seed=seed, count=400, checks=60)
    assert _failures(results) == []
