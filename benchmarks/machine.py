"""How quiet the machine was while a benchmark ran: the share of its CPUs other processes used,
and the share the hypervisor took (``steal``), from Linux's /proc/stat (elsewhere nothing is
said); and how fast it ran a fixed piece of Python at the start and at the end.

The keys' times move by a fifth from one run to the next on the same code. On 2026-12-06 the
same 77.8 lines of `n` took Textual 8.0 ms to render at 22:50 and 10.3 ms at 23:55, with no
other process running and the hypervisor taking under 1%: the machine itself was slower. The
fixed workload's time says so beside the figures, so that runs are compared on like machines.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import NamedTuple


class Snapshot(NamedTuple):
    # /proc/stat's first line: user nice system idle iowait irq softirq steal
    ticks: tuple[int, ...]
    ours: float  # CPU seconds of this process and the children it waited for
    at: float  # time.monotonic()


def snapshot() -> Snapshot | None:
    """The machine's CPU counters now (None where /proc/stat cannot be read)."""
    try:
        first = Path("/proc/stat").read_text(encoding="ascii").split("\n", 1)[0]
    except OSError:
        return None
    fields = first.split()
    if not fields or fields[0] != "cpu" or len(fields) < 9:
        return None
    times = os.times()
    ours = times.user + times.system + times.children_user + times.children_system
    return Snapshot(tuple(int(each) for each in fields[1:9]), ours, time.monotonic())


def quiet_line(before: Snapshot | None, after: Snapshot | None) -> str | None:
    """``the machine meanwhile: other processes 3% of its 2 CPUs, the hypervisor took 0.1%``,
    or None when either snapshot is missing."""
    if before is None or after is None:
        return None
    user, nice, system, _idle, _wait, irq, softirq, steal = (
        b - a for a, b in zip(before.ticks, after.ticks, strict=True)
    )
    hz = os.sysconf("SC_CLK_TCK")
    cpus = os.cpu_count() or 1
    capacity = max((after.at - before.at) * cpus, 1e-9)
    busy = (user + nice + system + irq + softirq) / hz
    others = max(0.0, busy - (after.ours - before.ours))
    return (
        f"the machine meanwhile: other processes {others / capacity:.0%} of its {cpus} CPUs, "
        f"the hypervisor took {steal / hz / capacity:.1%} (quiet: both near 0)"
    )


def workload_ms() -> float:
    """Milliseconds of a fixed piece of pure Python (dicts, strings, calls: what a key's frame
    does), the best of five: about 40 ms on the development machine."""

    def step(n: int) -> int:
        return len(f"{n:x}") + (n & 7)

    best = float("inf")
    for _ in range(5):
        began = time.perf_counter()
        table: dict[int, int] = {}
        for n in range(60_000):
            table[n & 1023] = table.get(n & 1023, 0) + step(n)
        best = min(best, time.perf_counter() - began)
    return best * 1000


def workload_line(at_start: float) -> str:
    """The fixed workload's time now, beside ``at_start`` (`workload_ms` before the run)."""
    return f"a fixed Python workload: {workload_ms():.1f} ms (at the start {at_start:.1f})"
