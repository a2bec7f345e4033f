"""The adversarial suite: each test builds its hostile input for real (repositories, remotes,
files) and checks the safe behaviour. The builders of tests/db and tests/evidence are shared."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
for folder in ("db", "evidence", "screens"):
    path = str(HERE.parent / folder)
    if path not in sys.path:
        sys.path.append(path)
