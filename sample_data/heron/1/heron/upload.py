"""Uploading buffered readings to the harbour office."""

from __future__ import annotations

import json
import time
import urllib.request

from heron.gauge import Reading

MAX_BATCH = 200
RETRY_DELAYS = (5, 30, 120)


def payload(readings: list[Reading]) -> bytes:
    return json.dumps(
        [{"gauge": r.gauge, "at": r.at, "level": r.level_m} for r in readings]
    ).encode()


def send(url: str, token: str, readings: list[Reading]) -> int:
    """POST one batch; the HTTP status."""
    request = urllib.request.Request(url, data=payload(readings), method="POST")
    request.add_header("Authorization", f"Bearer {token}")
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=20) as response:
        return response.status


def upload(url: str, token: str, readings: list[Reading]) -> list[Reading]:
    """Send readings in batches; returns those the office did not accept."""
    left = []
    for start in range(0, len(readings), MAX_BATCH):
        batch = readings[start : start + MAX_BATCH]
        for delay in (0, *RETRY_DELAYS):
            time.sleep(delay)
            try:
                if send(url, token, batch) == 201:
                    break
            except OSError:
                continue
        else:
            left.extend(batch)
    return left
