"""Reading a tide gauge over its serial line."""

from __future__ import annotations

from dataclasses import dataclass

#: readings outside this band (metres above chart datum) are sensor faults
VALID_LEVELS = (-2.5, 9.0)


@dataclass(frozen=True)
class Reading:
    gauge: str
    at: float
    level_m: float


def parse_line(gauge: str, line: str) -> Reading | None:
    """One 'epoch,level' line from the gauge; None for a fault or a malformed line."""
    try:
        at_text, level_text = line.strip().split(",", 1)
        level = float(level_text)
    except ValueError:
        return None
    low, high = VALID_LEVELS
    if not low <= level <= high:
        return None
    return Reading(gauge, float(at_text), level)


def read_all(gauge: str, lines: list[str]) -> list[Reading]:
    """Every valid reading of a batch of lines, in order."""
    readings = []
    for line in lines:
        reading = parse_line(gauge, line)
        if reading is not None:
            readings.append(reading)
    return readings
