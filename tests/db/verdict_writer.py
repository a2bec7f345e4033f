"""A separate process giving verdicts, for the durability tests (not a test module).

usage: verdict_writer.py DB REVIEWER COUNT [GO_FILE]

Opens the store, prints "ready", waits for GO_FILE to exist (so several writers start together),
then gives COUNT verdicts (0: until killed) and prints the id of every event whose write returned,
flushed at once.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from db.keys import ItemRef
from db.store import StoreError, VerdictStore


def main(db: str, reviewer: str, count: int, go: str | None) -> int:
    try:
        with VerdictStore.open(Path(db)) as store:
            print("ready", flush=True)
            if go is not None:
                deadline = time.monotonic() + 30
                while not Path(go).exists() and time.monotonic() < deadline:
                    time.sleep(0.002)
            number = 0
            while count == 0 or number < count:
                item = ItemRef("KESTREL/agentic-system-runtime-report", f"{reviewer}-{number}")
                event = store.give(item, "confirmed", note=f"n{number}", reviewer=reviewer)
                print(event.event, flush=True)
                number += 1
    except StoreError as error:
        print(f"assay: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    args = sys.argv[1:]
    sys.exit(main(args[0], args[1], int(args[2]), args[3] if len(args) > 3 else None))
