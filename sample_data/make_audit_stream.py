"""Write sample_data/heron.fi, the `git fast-import` stream of the Heron sample repository (the
second system of the sample audit; see README.md, "The sample audit").

Commit n's tree is the union of the overlays heron/1 .. heron/<n>, as for Kestrel
(make_stream.py), with fixed names and dates, so the commit ids never change unless the content
does.

    python sample_data/make_audit_stream.py           # rewrite heron.fi
    python sample_data/make_audit_stream.py --check   # exit 1 if heron.fi is out of date
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OVERLAYS = HERE / "heron"
STREAM = HERE / "heron.fi"
AUTHOR = b"Ines Varga <ines@heron.example>"
BRANCH = b"refs/heads/main"
#: (overlay, seconds since the epoch UTC, message)
COMMITS = (
    ("1", 1772182800, "Heron 0.4: gauge reader and batched uploads\n"),  # 2026-02-27 09:00
    ("2", 1772791200, "Retry an upload a fourth time, after ten minutes\n"),  # 2026-03-06 10:00
)


def tree(number: int) -> dict[str, bytes]:
    """path -> content of commit ``number`` (1-based)."""
    files: dict[str, bytes] = {}
    for overlay, _when, _message in COMMITS[:number]:
        root = OVERLAYS / overlay
        for path in sorted(root.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                files[path.relative_to(root).as_posix()] = path.read_bytes()
    return files


def _data(payload: bytes) -> bytes:
    return b"data %d\n" % len(payload) + payload + b"\n"


def build_stream() -> bytes:
    """The whole fast-import stream, byte for byte."""
    out: list[bytes] = []
    marks: dict[bytes, int] = {}
    mark = 1
    previous: int | None = None
    for number, (_overlay, when, message) in enumerate(COMMITS, start=1):
        files = tree(number)
        for name in sorted(files):
            if files[name] not in marks:
                marks[files[name]] = mark
                out.append(b"blob\nmark :%d\n" % mark + _data(files[name]))
                mark += 1
        out.append(b"commit " + BRANCH + b"\nmark :%d\n" % mark)
        out.append(b"author " + AUTHOR + b" %d +0000\n" % when)
        out.append(b"committer " + AUTHOR + b" %d +0000\n" % when)
        out.append(_data(message.encode("utf-8"))[:-1])
        if previous is not None:
            out.append(b"from :%d\n" % previous)
        out.append(b"deleteall\n")
        for name in sorted(files):
            out.append(b"M 100644 :%d " % marks[files[name]] + name.encode("utf-8") + b"\n")
        out.append(b"\n")
        previous = mark
        mark += 1
    return b"".join(out)


def main(argv: list[str]) -> int:
    stream = build_stream()
    if "--check" in argv:
        if not STREAM.is_file() or STREAM.read_bytes() != stream:
            print(f"{STREAM.name} is out of date: run python sample_data/make_audit_stream.py")
            return 1
        print(f"{STREAM.name} is up to date ({len(stream)} bytes)")
        return 0
    STREAM.write_bytes(stream)
    print(f"wrote {STREAM} ({len(stream)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
