"""Issue 25, the sample audit: Heron's stream is what its generator writes and builds the stated
commits; the audit file loads as shipped; `assay check` on the built audit agrees with the Heron
answer key in sample_data/README.md, row by row; Osprey has no repository."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from evidence.audit.file import load_audit
from evidence.sample import SAMPLE_DATA
from evidence.sample_audit import AUDIT_FILE, HERON_CITED, HERON_TIP, sample_audit
from tui.cli import cli


def heron_key() -> list[dict[str, str]]:
    text = (SAMPLE_DATA / "README.md").read_text(encoding="utf-8")
    table = text.split("<!-- heron-key:start -->")[1].split("<!-- heron-key:end -->")[0]
    lines = [line for line in table.strip().splitlines() if line.startswith("|")]
    names = [cell.strip() for cell in lines[0].strip("|").split("|")]
    return [
        dict(zip(names, [cell.strip() for cell in line.strip("|").split("|")], strict=True))
        for line in lines[2:]
    ]


def test_the_stream_is_up_to_date() -> None:
    script = SAMPLE_DATA / "make_audit_stream.py"
    done = subprocess.run([sys.executable, str(script), "--check"], capture_output=True)
    assert done.returncode == 0, done.stdout


def test_the_shipped_file_loads_with_its_systems() -> None:
    audit = load_audit(AUDIT_FILE)
    assert [s.name for s in audit.systems] == ["Kestrel", "Heron", "Osprey"]
    assert audit.systems[2].repository is None


@pytest.fixture(scope="module")
def checked(sample: Path) -> dict[str, dict[str, Any]]:
    directory = sample_audit()
    result = CliRunner().invoke(
        cli, ["check", "--audit", str(directory / "assay.toml"), "--format", "json"]
    )
    assert result.exit_code == 1, result.output
    return {system["system"]: system for system in json.loads(result.stdout)["systems"]}


def test_heron_is_built_at_the_stated_commits(checked: dict[str, dict[str, Any]]) -> None:
    from evidence.revision import Revision

    assert checked["Heron"]["revision"] == HERON_CITED
    with Revision.open(checked["Heron"]["repository"], "main") as tip:
        assert tip.commit == HERON_TIP


def test_heron_agrees_with_its_answer_key(checked: dict[str, dict[str, Any]]) -> None:
    quotes = checked["Heron"]["quotes"]
    key = heron_key()
    assert len(quotes) == len(key) == 7

    def span(value: list[int] | None) -> str:
        return "-" if value is None else f"{value[0]}-{value[1]}"

    for quote, row in zip(quotes, key, strict=True):
        assert str(quote["report_line"]) == row["marker line"]
        assert (quote["record"], quote["path"]) == (row["record"], row["cited path"])
        assert (quote["file"], quote["match"]) == (row["file"], row["match"])
        assert span(quote["claimed"]) == row["claimed"] and span(quote["lines"]) == row["lines"]
        assert {True: "yes", False: "no", None: "-"}[quote["range_ok"]] == row["range_ok"]
        elsewhere = ";".join(f"{e['path']}:{span(e['lines'])}" for e in quote["elsewhere"])
        assert (elsewhere or "-") == row["elsewhere"]
    assert checked["Heron"]["summary"]["failing"] == 3
    assert checked["Heron"]["summary"]["citations_missing"] == 1


def test_osprey_has_no_repository(checked: dict[str, dict[str, Any]]) -> None:
    osprey = checked["Osprey"]
    assert osprey["state"] == "no_repository"
    assert (osprey["records"], osprey["quote_count"]) == (2, 3)
