"""A deterministic synthetic repository for benchmarks: thousands of source files, ~200 MB.

`synthetic_repo(n_files=5000, target_mb=200)` builds it once into benchmarks/.work/ (git-ignored)
with `git fast-import` and returns the path of the bare repository; later calls reuse it. Every
file mixes lines drawn from a shared pool (so common code repeats across files, as in real
projects) with lines that only that file has (its own function names), in Python, JavaScript and
TypeScript flavours, including JSDoc comments and template literals so that Markdown-damaged
quotes have something to be damaged from.
"""

from __future__ import annotations

import itertools
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

WORK = Path(__file__).resolve().parent / ".work"

_COMMON = [
    "account",
    "active",
    "adapter",
    "address",
    "agent",
    "alert",
    "allow",
    "apply",
    "archive",
    "array",
    "async",
    "audit",
    "auth",
    "backoff",
    "batch",
    "bind",
    "block",
    "body",
    "branch",
    "buffer",
    "build",
    "cache",
    "call",
    "cancel",
    "channel",
    "check",
    "chunk",
    "claim",
    "clean",
    "client",
    "clock",
    "close",
    "code",
    "column",
    "commit",
    "config",
    "connect",
    "context",
    "copy",
    "count",
    "create",
    "cursor",
    "data",
    "date",
    "debug",
    "decode",
    "default",
    "delay",
    "delete",
    "device",
    "digest",
    "dispatch",
    "done",
    "draft",
    "entry",
    "error",
    "escalate",
    "event",
    "expire",
    "export",
    "fetch",
    "field",
    "file",
    "filter",
    "flush",
    "format",
    "frame",
    "handle",
    "hash",
    "header",
    "index",
    "inject",
    "input",
    "item",
    "job",
    "key",
    "label",
    "limit",
    "line",
    "list",
    "load",
    "lock",
    "log",
    "lookup",
    "map",
    "mark",
    "merge",
    "message",
    "meta",
    "method",
    "mode",
    "model",
    "module",
    "name",
    "node",
    "note",
    "notify",
    "offset",
    "open",
    "order",
    "owner",
    "page",
    "parse",
    "patch",
    "path",
    "peer",
    "plan",
    "poll",
    "pool",
    "port",
    "post",
    "queue",
    "quota",
    "range",
    "read",
    "record",
    "reply",
    "report",
    "request",
    "reset",
    "resolve",
    "result",
    "retry",
    "route",
    "rule",
    "run",
    "scope",
    "score",
    "send",
    "session",
    "shard",
    "signal",
    "size",
    "slot",
    "source",
    "span",
    "state",
    "station",
    "status",
    "store",
    "stream",
    "sync",
    "table",
    "task",
    "tenant",
    "ticket",
    "timer",
    "token",
    "trace",
    "track",
    "update",
    "upload",
    "user",
    "value",
    "verify",
    "version",
    "window",
    "worker",
    "write",
]
_SYLLABLES = [
    "ka",
    "lo",
    "mi",
    "ne",
    "ru",
    "ta",
    "vo",
    "si",
    "pe",
    "da",
    "fu",
    "gri",
    "hal",
    "jen",
    "kor",
    "lum",
    "mar",
    "nis",
    "orp",
    "pla",
    "qua",
    "ren",
    "sot",
    "tri",
    "ul",
    "vex",
    "wen",
    "yar",
    "zol",
    "bra",
    "cle",
    "dro",
    "fen",
    "gla",
    "hor",
    "ist",
    "jul",
    "kel",
    "mon",
    "nor",
    "ost",
    "pri",
    "rok",
    "sel",
    "tam",
    "ung",
]


def _vocabulary(rng: random.Random, size: int) -> list[str]:
    """Common programming words first, then invented ones; drawn with Zipf-like weights."""
    words = list(_COMMON)
    seen = set(words)
    while len(words) < size:
        word = "".join(rng.choices(_SYLLABLES, k=rng.randrange(2, 4)))
        if word not in seen:
            seen.add(word)
            words.append(word)
    return words


_PY = [
    "    {a}_{b} = {c}.{d}({e}, {n})",
    "    if {a}_{b} is None:",
    '        raise {A}Error(f"{a} {b} missing: {{{c}}}")',
    "    return {a}_{b} + {c}_{d} * {n}",
    "    for {a} in {b}_{c}s:",
    "        {a}.{b}_{c}({d}, timeout={n})",
    "    # {a} the {b} before {c}, otherwise the {d} stays stale",
    '    log.{a}("{b} {c} %s", {d}_{e})',
    "    {a}_{b}: dict[str, int] = {{}}",
    "    with {a}.{b}() as {c}:",
]
_JS = [
    "  const {a}{B} = await {c}.{d}({e}, {n});",
    "  if (!{a}{B}) return {{ error: '{c} {d} missing' }};",
    "  {a}.{b}{C}({d}, {{ timeout: {n}, retries: {m} }});",
    "  // {a} the {b} before {c}; the {d} otherwise stays stale",
    "  const {a} = `{b} ${{{c}}} {d} ${{{e}.length}}`;",
    "  for (const {a} of {b}{C}s) {{",
    "  return {a}{B} + {c}{D} * {n};",
    "  logger.{a}(`{b} {c}: ${{{d}{E}}}`);",
    "  export const {A}_{B} = {n};",
    "  }}",
]
_DOC = [
    "/**",
    " * {A} the {b} of a {c} before the {d} runs.",
    " * Never {b}s a {c} twice; {d} is {e}.",
    " */",
]


class _Words:
    """Words with Zipf-like frequencies across the repository; each file reuses its own few."""

    def __init__(self, rng: random.Random, size: int = 30_000) -> None:
        self.rng = rng
        self.words = _vocabulary(rng, size)
        weights = [1 / (rank + 10) ** 1.05 for rank in range(len(self.words))]
        self.cumulative = list(itertools.accumulate(weights))

    def sample(self, count: int) -> list[str]:
        return self.rng.choices(self.words, cum_weights=self.cumulative, k=count)

    def values(self, local: list[str] | None = None) -> dict[str, str]:
        words = self.rng.choices(local, k=5) if local else self.sample(5)
        values = {k: w for k, w in zip("abcde", words, strict=True)}
        values.update({k.upper(): w.capitalize() for k, w in values.items()})
        values["n"] = str(self.rng.choice((0, 1, 2, 3, 5, 8, 10, 16, 30, 60, 100, 250, 1000)))
        if self.rng.random() < 0.2:
            values["n"] = str(self.rng.randrange(1, 5000))
        values["m"] = str(self.rng.randrange(1, 9))
        return values


def _pool(words: _Words, size: int) -> list[str]:
    templates = _PY + _JS
    return [words.rng.choice(templates).format(**words.values()) for _ in range(size)]


def _file(words: _Words, number: int, pool: list[str], target: int) -> bytes:
    rng = words.rng
    ext = ("py", "js", "ts")[number % 3]
    # real files reuse a limited set of names (measured on CPython's stdlib: ~650 distinct
    # identifiers per 40 KB); lines unique to the file draw from this set
    local = sorted(set(words.sample(40)))
    parts: list[str] = [f"// file {number:05d}" if ext != "py" else f"# file {number:05d}"]
    size = len(parts[0])
    function = 0
    while size < target:
        function += 1
        first, second, arg1, arg2 = rng.choices(local, k=4)
        name = f"{first}_{second}_{function}"
        if ext == "py":
            block = [f"def {name}({arg1}, {arg2}):"]
        else:
            doc = [line.format(**words.values(local)) for line in _DOC]
            block = [*doc, f"export function {name}({arg1}, {arg2}) {{"]
        block += rng.choices(pool, k=rng.randrange(1, 4))
        block += [
            rng.choice(_PY if ext == "py" else _JS).format(**words.values(local))
            for _ in range(rng.randrange(3, 9))
        ]
        block.append("" if ext == "py" else "}")
        block.append("")
        text = "\n".join(block)
        parts.append(text)
        size += len(text) + 1
    return ("\n".join(parts) + "\n").encode("utf-8")


def file_path(number: int) -> str:
    """The path of synthetic file `number`; paths sort in the order the files are generated."""
    ext = ("py", "js", "ts")[number % 3]
    return f"pkg{number // 1000:02d}/mod{number // 50 % 20:02d}/file{number:05d}.{ext}"


def synthetic_repo(n_files: int = 5000, target_mb: float = 200, *, seed: int = 7) -> Path:
    """The bare repository with `n_files` files totalling about `target_mb` MB (built once)."""
    name = f"synthetic-v4-{n_files}-{target_mb:g}mb-s{seed}.git"
    final = WORK / name
    if (final / "assay-complete").exists():
        return final
    WORK.mkdir(parents=True, exist_ok=True)
    building = WORK / (name + ".building")
    shutil.rmtree(building, ignore_errors=True)
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("GIT_")},
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": "/dev/null",
    }
    subprocess.run(
        ["git", "init", "-q", "--bare", "-b", "main", str(building)], env=env, check=True
    )
    words = _Words(random.Random(seed))
    pool = _pool(words, 60_000)
    target = int(target_mb * 1024 * 1024 / n_files)
    importer = subprocess.Popen(
        ["git", "-c", "core.hooksPath=/dev/null", "fast-import", "--quiet", "--depth=10"],
        cwd=building,
        env=env,
        stdin=subprocess.PIPE,
    )
    assert importer.stdin is not None
    out = importer.stdin
    message = b"synthetic benchmark tree\n"
    out.write(b"commit refs/heads/main\n")
    out.write(b"author Bench <bench@example.org> 1700000000 +0000\n")
    out.write(b"committer Bench <bench@example.org> 1700000000 +0000\n")
    out.write(b"data %d\n%s\n" % (len(message), message))
    for number in range(n_files):
        data = _file(words, number, pool, target)
        out.write(b"M 100644 inline %s\ndata %d\n" % (file_path(number).encode(), len(data)))
        out.write(data)
        out.write(b"\n")
    out.close()
    if importer.wait() != 0:
        raise RuntimeError("git fast-import failed")
    (building / "assay-complete").write_text("ok\n", encoding="utf-8")
    shutil.rmtree(final, ignore_errors=True)
    building.rename(final)
    return final


if __name__ == "__main__":
    files = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    megabytes = float(sys.argv[2]) if len(sys.argv) > 2 else 200
    print(synthetic_repo(files, megabytes))
