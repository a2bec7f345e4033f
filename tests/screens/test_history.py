"""The review screen's location history, without Textual."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from screens.review.history import History, Location

ROOT = Path(__file__).resolve().parents[2]


def test_back_and_forward_retrace_the_jumps() -> None:
    history: History[Location] = History()
    a, b, c = Location(0, 0), Location(5, None), Location(9, 2)
    history.left(a)  # a -> b
    history.left(b)  # b -> c
    assert history.back(c) == b
    assert history.back(b) == a
    assert history.back(a) is None
    assert history.forward(a) == b
    assert history.forward(b) == c
    assert history.forward(c) is None


def test_a_new_jump_forgets_what_was_ahead() -> None:
    history: History[Location] = History()
    a, b, c, d = (Location(n) for n in range(4))
    history.left(a)
    history.left(b)
    assert history.back(c) == b
    history.left(b)  # jumped elsewhere from b
    assert history.forward(d) is None
    assert history.back(d) == b


def test_the_history_imports_no_textual() -> None:
    probe = (
        "import sys, screens.review.history; print(sorted({m.split('.')[0] for m in sys.modules}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert "textual" not in result.stdout and "rich" not in result.stdout
