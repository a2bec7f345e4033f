"""An audit's systems checked two at a time, in forked processes, when there are two cores.

Each system is checked exactly as `check_system` checks it alone; a process takes the next
system as soon as it is done with one (the systems differ in size), and the results come back in
file order. The processes are forked after the audit is loaded: they inherit it and the options
instead of receiving them pickled; only system numbers and `SystemCheck`s (or an exception) cross
the pipes. Two processes write the caches at once: their entries are written atomically under
names that are the entries' keys, so the worst is one entry written twice.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from evidence.audit.file import AuditSystem

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

T = TypeVar("T")  # what checking a system gives (evidence.audit.check.SystemCheck)

__all__ = ["check_in_processes", "processes_for"]

#: what the forked processes check: set while they are started (a fork inherits it)
_JOB: tuple[Sequence[AuditSystem], Callable[[AuditSystem], Any]] | None = None
_FORK_LOCK = threading.Lock()


def processes_for(systems: Sequence[AuditSystem]) -> int:
    """How many processes to check ``systems`` in: two (one per core, at most two) when fork is
    available and at least two systems can be checked here; else one (this process)."""
    import multiprocessing  # not at import time: an audit of one system never forks

    checkable = sum(1 for system in systems if system.available)
    if checkable < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return 1
    return max(1, min(2, os.cpu_count() or 1, checkable))


def check_in_processes(
    systems: Sequence[AuditSystem], check: Callable[[AuditSystem], T], count: int
) -> list[T]:
    """``check`` of every system, in order, by ``count`` forked processes."""
    global _JOB
    import multiprocessing
    from multiprocessing.connection import wait

    context = multiprocessing.get_context("fork")
    conns: list[Connection] = []
    processes: list[Any] = []
    try:
        with _FORK_LOCK:
            _JOB = (systems, check)
            try:
                for _ in range(count):
                    parent, child = context.Pipe()
                    # not a daemon: a system's own anchoring may fork its workers in turn
                    process = context.Process(target=_main, args=(child,))
                    process.start()
                    child.close()
                    conns.append(parent)
                    processes.append(process)
            finally:
                _JOB = None
        results: list[T | None] = [None] * len(systems)
        waiting = iter(range(len(systems)))
        busy: dict[Connection, int] = {}
        for conn in conns:
            _give(conn, next(waiting, None), busy)
        while busy:
            for ready in wait(list(busy)):
                conn = ready  # type: ignore[assignment]
                try:
                    kind, value = conn.recv()
                except (EOFError, OSError):
                    raise RuntimeError("a process checking the audit died") from None
                if kind == "error":
                    raise value
                results[busy.pop(conn)] = value
                _give(conn, next(waiting, None), busy)
        return [result for result in results if result is not None]
    finally:
        for conn in conns:
            with contextlib.suppress(OSError):
                conn.send(None)
        for process in processes:
            process.join(timeout=5)
            if process.is_alive():
                process.kill()
                process.join()
        for conn in conns:
            conn.close()


def _give(conn: Connection, number: int | None, busy: dict[Connection, int]) -> None:
    """Hand system ``number`` to the process at ``conn`` (nothing when none is left)."""
    if number is None:
        return
    try:
        conn.send(number)
    except OSError:
        raise RuntimeError("a process checking the audit died") from None
    busy[conn] = number


def _main(conn: Connection) -> None:
    """A process's life: check the systems it is handed until told to stop. Replies
    ("result", what the check gave) or ("error", exception)."""
    job = _JOB
    assert job is not None
    systems, check = job
    try:
        while True:
            number = conn.recv()
            if number is None:
                return
            conn.send(("result", check(systems[number])))
    except (EOFError, KeyboardInterrupt):
        return
    except BaseException as error:  # reported to the parent, which raises it
        try:
            conn.send(("error", error))
        except Exception:  # not picklable: its text will do
            conn.send(("error", RuntimeError(f"{type(error).__name__}: {error}")))
