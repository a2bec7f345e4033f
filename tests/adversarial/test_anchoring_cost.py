"""A crafted quote must not take the machine: the work anchoring one quote does is bounded.

A quote padded with thousands of `'; ` tokens or combining marks, or with junk before or after a
real line, used to make the fuzzy tier score a quote-length window at every line start of its file
and compare every count of edge tokens with the whole unmatched edge: minutes for one quote of a
32 KB report. The bounds are checked without timing anything: the work the line scan may do is
computed, and the quotes are anchored in a child process under a CPU-time limit.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from evidence.anchoring.fuzzy import SCAN_COST, SCAN_MIN_WIDTH, SCAN_WIDTH, scan_width

ROOT = Path(__file__).resolve().parents[2]
GIT_ENV = {
    "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
    "HOME": "/nonexistent",
    "GIT_AUTHOR_NAME": "Test",
    "GIT_AUTHOR_EMAIL": "test@example.org",
    "GIT_COMMITTER_NAME": "Test",
    "GIT_COMMITTER_EMAIL": "test@example.org",
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "GIT_CONFIG_NOSYSTEM": "1",
}
#: CPU seconds the child may use for all the quotes below: each took 20 s to minutes before the
#: bounds, and well under a second with them (this is a ceiling for a loaded CI machine, not a goal)
CPU_LIMIT = 30


def _cost(starts: int, width: int) -> int:
    return starts * width * -(-width // 64)


@pytest.mark.parametrize("size", [1, 40, 300, 512, 513, 5_000, 100_000, 10_000_000])
@pytest.mark.parametrize("starts", [1, 200, 2_000, 20_000, 200_000, 700_000, 3_000_000])
def test_the_line_scan_compares_a_bounded_number_of_characters(size: int, starts: int) -> None:
    width = scan_width(size, starts)
    assert 0 <= width <= min(size, SCAN_WIDTH)
    assert _cost(starts, width) <= SCAN_COST
    if width:
        assert width >= min(size, SCAN_MIN_WIDTH)


@pytest.mark.parametrize("size", [12, 150, 400])
def test_an_ordinary_quote_in_an_ordinary_file_is_scanned_whole(size: int) -> None:
    assert scan_width(size, 3_000) == size


def _source() -> str:
    """About 20,000 lines of code-like text holding `';` and many words (as a large module)."""
    lines = []
    for number in range(5_000):
        lines += [
            f"def handler_{number}(request, table_{number % 97}):",
            f"    label = request.get('name_{number}', '');",
            f"    return render(table_{number % 97}, label, limit={number % 13 * 100})",
            "",
        ]
    return "\n".join(lines) + "\n"


CHILD = """
import json, resource, sys
resource.setrlimit(resource.RLIMIT_CPU, ({limit}, {limit}))
sys.path.insert(0, {root!r})
from evidence.anchoring import Anchorer
from evidence.model import Quote
from evidence.revision import Revision

quotes = json.loads(sys.stdin.read())
with Revision.open(sys.argv[1]) as revision:
    anchorer = Anchorer(revision, workers=1)
    found = []
    for number, (text, claimed) in enumerate(quotes):
        claim = tuple(claimed) if claimed else None
        anchor = anchorer.anchor(Quote(text, "app/handlers.py", claim, number + 1, 1, "R-1", 0))
        found.append([anchor.match.value, anchor.verified, list(anchor.notes)])
print(json.dumps(found))
"""


def test_junk_padded_quotes_are_anchored_under_a_cpu_limit(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "app").mkdir(parents=True)
    source = _source()
    (repo / "app" / "handlers.py").write_text(source, encoding="utf-8")
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "first"]):
        subprocess.run(["git", *args], cwd=repo, env=GIT_ENV, check=True, capture_output=True)
    line = "    label = request.get('name_1234', '');"
    body = "\n".join(source.splitlines()[400:1100])
    quotes = [
        line + " " + "'; " * 2_500,  # the reproduction of issue 27
        line + "\u0301" * 10_000,  # combining marks on its last token
        " ".join(f"q{at % 10}" for at in range(2_500)) + " " + line,  # junk before
        line + " " + " ".join(f"q{at % 10}" for at in range(2_500)),  # junk after
        "x" * 5_000,
        body.replace("e", "3"),  # 700 lines, every "e" changed
    ]
    # junk claimed at every line of the file: aligned with the whole file, no token in common
    claimed = {len(quotes): [1, 20_000]}
    quotes.append(" ".join(f"zz{at}" for at in range(2_000)))
    child = subprocess.run(
        [sys.executable, "-c", CHILD.format(limit=CPU_LIMIT, root=str(ROOT)), str(repo)],
        input=json.dumps([[text, claimed.get(at)] for at, text in enumerate(quotes)]),
        capture_output=True,
        text=True,
        check=False,
    )
    assert child.returncode == 0, f"killed or failed ({child.returncode}): {child.stderr[-800:]}"
    found = json.loads(child.stdout)
    assert [verified for _, verified, _ in found] == [False] * len(quotes)
    # the changed body is longer than the fuzzy tier aligns: said so, not silently missing
    assert found[5][0] == "missing"
    assert any("too long to look for approximately" in note for note in found[5][2])
