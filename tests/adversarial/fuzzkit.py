"""A seeded fuzzer of reports and SARIF files, and the harness that runs assay on each.

`cases(seed, count, folder)` writes ``count`` hostile inputs (mutated sample reports, SARIF
logs with values of every wrong type, lone surrogates, controls, truncations, gzip) and returns
(name, file) pairs. `run_cases` runs `assay parse`, `assay parse --format json` and (for some)
`assay check` on each, in this process, through the real entry point `tui.cli.main` with a
UTF-8 stdout as a pipe has, and returns (case, command, exit status, last line of stderr).
The test runs it in a child process under `resource.setrlimit`, so a bomb fails the test
instead of taking the machine.
"""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent
REPORTS = sorted((ROOT / "sample_data" / "reports").glob("*.txt"))
SARIF = sorted((ROOT / "tests" / "evidence" / "sarif").glob("*.sarif"))

#: text a hostile report may hold
TOKENS = [
    "\x1b[2J\x1b]0;owned\x07",
    "\x00",
    "\u202e\u2066",
    "\r",
    "```",
    "```\n",
    "\n## ",
    "RT-CLM-x\n",
    "Label: ",
    "(SRC-1, api/kestrel/auth.py)",
    "--- api/kestrel/auth.py",
    "api/kestrel/auth.py:1-99999999999999999999",
    "revision 802776dd27b8c567fc18b46afc7b0cf64426b1f9",
    "[red]x[/red]",
    "$(id)",
    "../../../../etc/passwd",
    "\u0301" * 50,
    "x" * 3000,
    "; " * 200,
    "\ufeff",
    "\t\t\t",
]
#: values of every wrong type a SARIF field may be given
VALUES: list[Any] = [
    None,
    True,
    0,
    -1,
    2**70,
    1.5e308,
    "",
    "x" * 2000,
    [],
    {},
    [[[[]]]],
    {"uri": ["a"]},
    "\ud800",
    "a\udfffb",
    "\x1b[31m",
    "../../etc/passwd",
    "file:///etc/passwd",
    "%SRCROOT%",
    "api/kestrel/auth.py",
    {"text": "\ud800"},
    {"startLine": -5, "endLine": 2**40},
    [None, 1, "x"],
]


def _mutate_text(text: str, rng: random.Random) -> bytes:
    for _ in range(rng.randint(1, 6)):
        at = rng.randrange(len(text) + 1)
        kind = rng.randrange(5)
        if kind == 0:
            text = text[:at] + rng.choice(TOKENS) + text[at:]
        elif kind == 1:
            text = text[:at] + text[at + rng.randint(1, 400) :]
        elif kind == 2:
            end = min(len(text), at + rng.randint(1, 300))
            text = text[:end] + text[at:end] + text[end:]
        elif kind == 3:
            text = text[:at] + "".join(chr(rng.randrange(1, 0x3000)) for _ in range(20)) + text[at:]
        else:
            text = text[:at]
    data = text.encode("utf-8", "surrogatepass")
    if rng.random() < 0.1:
        spot = rng.randrange(len(data) + 1)
        data = data[:spot] + rng.choice([b"\xff", b"\xed\xa0\x80", b"\xc3"]) + data[spot:]
    return data


def _nodes(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _nodes(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _nodes(item, (*path, index))
    return found


def _set(document: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    parent = document
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = value
    return document


def _mutate_sarif(document: Any, rng: random.Random) -> bytes:
    for _ in range(rng.randint(1, 8)):
        paths = _nodes(document)
        path = rng.choice(paths[1:] or paths)
        document = _set(document, path, json.loads(json.dumps(rng.choice(VALUES))))
    data = json.dumps(document).encode("ascii")
    if rng.random() < 0.1:
        data = data[: rng.randrange(len(data) + 1)]
    if rng.random() < 0.2:
        data = gzip.compress(data)
    if rng.random() < 0.05:
        data = gzip.compress(b" " * (8 * 1024 * 1024)) * 4  # expands past the harness's limit
    return data


def cases(seed: int, count: int, folder: Path) -> list[tuple[str, Path]]:
    """``count`` hostile inputs written into ``folder``, reproducible from ``seed``."""
    rng = random.Random(seed)
    texts = [path.read_text(encoding="utf-8") for path in REPORTS]
    logs = [json.loads(path.read_text(encoding="utf-8")) for path in SARIF]
    made = []
    for number in range(count):
        if rng.random() < 0.5:
            data = _mutate_text(rng.choice(texts), rng)
            path = folder / f"case-{seed}-{number}.txt"
        else:
            data = _mutate_sarif(json.loads(json.dumps(rng.choice(logs))), rng)
            end = ".sarif.gz" if data.startswith(b"\x1f\x8b") else ".sarif"
            path = folder / f"case-{seed}-{number}{end}"
        path.write_bytes(data)
        made.append((path.name, path))
    return made


def _run(args: list[str]) -> tuple[int, str]:
    from tui.cli import main

    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="backslashreplace")
    code: object = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(args)
        except SystemExit as stop:
            code = stop.code
        with contextlib.suppress(Exception):
            out.flush()
    err.flush()
    lines = err.buffer.getvalue().decode("utf-8", "replace").strip().splitlines()
    status = code if isinstance(code, int) else (0 if code is None else 1)
    return status, lines[-1] if lines else ""


def run_cases(
    made: list[tuple[str, Path]], repo: str, revision: str, checks: int
) -> list[tuple[str, str, int, str]]:
    """Each case through parse (text, json) and, for the first ``checks``, check --format json."""
    results = []
    for number, (name, path) in enumerate(made):
        commands = [["parse", str(path)], ["parse", "--format", "json", str(path)]]
        if number < checks:
            commands.append(
                ["check", "--format", "json", "--repo", repo, "--rev", revision, str(path)]
            )
        for args in commands:
            status, line = _run(args)
            results.append((name, " ".join(args[:3]), status, line))
    return results


def main(argv: list[str]) -> None:
    """Child process: seed, count, folder, repository, revision, checks -> JSON on stdout."""
    seed, count, folder, repo, revision, checks = argv
    made = cases(int(seed), int(count), Path(folder))
    results = run_cases(made, repo, revision, int(checks))
    sys.__stdout__.write(json.dumps(results))  # type: ignore[union-attr]


if __name__ == "__main__":
    main(sys.argv[1:])
