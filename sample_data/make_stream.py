"""Write sample_data/kestrel.fi, the `git fast-import` stream of the Kestrel sample repository.

The stream is the artifact (evidence/sample.py builds the repository from it); this script is how
it is edited. Each commit's tree is the union of the overlay directories kestrel/1 .. kestrel/<n>
(a later overlay replaces a file of an earlier one), plus a few files generated here: the
20,000-line station registry, a small binary icon, and one symlink. Everything is written in a
fixed order with fixed names and dates, so the stream and the commit ids never change unless the
content does.

    python sample_data/make_stream.py           # rewrite kestrel.fi
    python sample_data/make_stream.py --check   # exit 1 if kestrel.fi is out of date
"""

from __future__ import annotations

import struct
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
OVERLAYS = HERE / "kestrel"
STREAM = HERE / "kestrel.fi"

AUTHOR = b"Mira Okafor <mira@kestrel.example>"
COMMITTER = b"Tomas Lindqvist <tomas@kestrel.example>"
BRANCH = b"refs/heads/main"
#: tag -> 1-based commit number
TAGS = {b"refs/tags/v0.3.0": 2}

EXECUTABLE = {"scripts/seed.py"}
SYMLINKS = {"config/current.yml": "environments/production.yml"}
STATION_MODULE = "api/kestrel/stations.py"
ICON = "web/public/favicon.ico"
STATION_COUNT = 20_000


@dataclass(frozen=True)
class Commit:
    overlay: str
    when: int  # seconds since the epoch, UTC
    message: str
    tip_variant: bool  # the station registry as changed by commit 3
    #: files moved (old path, new path) and removed after the overlays are applied
    renames: tuple[tuple[str, str], ...] = ()
    deletes: tuple[str, ...] = ()


COMMITS = (
    Commit(
        "1",
        1772442000,  # 2026-03-02 09:00:00 UTC
        "Initial Kestrel service: API, web client, sync worker\n\n"
        "Tickets and field notes over a small WSGI API, a React client for the\n"
        "stations and a worker that pushes notes to the upstream archive.\n",
        False,
    ),
    Commit(
        "2",
        1773066600,  # 2026-03-09 14:30:00 UTC
        "Add escalation digest, banner and runbook\n\n"
        "The escalations table was used by TicketStore.escalate before any\n"
        "migration created it; 003 adds it.\n",
        False,
    ),
    Commit(
        "3",
        1773659700,  # 2026-03-16 11:15:00 UTC
        "Move scopes to permissions, log requests, raise escalation delay\n\n"
        "Stations reported false alarms at 15 minutes; the delay is now 20.\n"
        "Also normalise station codes before lookup and add GET /notes.\n",
        True,
    ),
    Commit(
        "4",
        1773833400,  # 2026-03-18 11:30:00 UTC
        "Rename the format helpers to text, retire the digest worker\n\n"
        "The digest is sent by the API now; the worker no longer builds it.\n",
        True,
        renames=(("web/src/lib/format.ts", "web/src/lib/text.ts"),),
        deletes=("worker/src/digest.js",),
    ),
    Commit(
        "5",
        1774262400,  # 2026-03-23 10:40:00 UTC
        "Rotate tokens every 30 days\n",
        True,
    ),
    Commit(
        "6",
        1774866600,  # 2026-03-30 10:30:00 UTC
        "Rotate a token when its device is lost\n",
        True,
    ),
)

_PREFIXES = [
    "Ridge",
    "Alder",
    "Basalt",
    "Cedar",
    "Falcon",
    "Granite",
    "Heron",
    "Juniper",
    "Kestrel",
    "Lichen",
    "Mill",
    "Moraine",
    "Otter",
    "Spruce",
    "Tarn",
    "Willow",
]
_SUFFIXES = [
    "Camp",
    "Hut",
    "Point",
    "Station",
    "Bluff",
    "Creek",
    "Pass",
    "Flats",
    "Landing",
    "Outpost",
]
_REGIONS = ["north", "west", "coast", "alpine", "east", "south", "delta", "plateau"]

_STATION_HEAD = '''\
"""Registry of Kestrel field stations.

GENERATED from the 2025 station survey export; do not edit by hand. Regenerate the table and
keep the functions at the end of the file.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Station:
    code: str
    name: str
    region: str
    lat: float
    lon: float
    elevation_m: int

    def to_dict(self) -> dict[str, object]:
        return {
            "code": self.code,
            "name": self.name,
            "region": self.region,
            "lat": self.lat,
            "lon": self.lon,
            "elevation_m": self.elevation_m,
        }


# code: (name, region, lat, lon, elevation_m)
_ROWS: dict[str, tuple[str, str, float, float, int]] = {
'''

_STATION_TAIL = '''\
}

STATIONS: dict[str, Station] = {code: Station(code, *row) for code, row in _ROWS.items()}


class UnknownStation(LookupError):
    pass

{normalise}
def station_by_code(code: str) -> Station:
    """Return the station registered under ``code``."""
    try:
        return STATIONS[{key}]
    except KeyError:
        raise UnknownStation(code) from None


def stations_in_region(region: str) -> list[Station]:
    return [s for s in STATIONS.values() if s.region == region]


def highest_station(region: str | None = None) -> Station:
    candidates = [s for s in STATIONS.values() if region in (None, s.region)]
    return max(candidates, key=lambda s: s.elevation_m)
'''

_NORMALISE = '''
def normalise_code(code: str) -> str:
    """Accept 'ks-17', 'KS-00017' and ' KS-00017 ' alike."""
    prefix, _, number = code.strip().upper().partition("-")
    return f"{prefix}-{int(number):05d}" if number.isdigit() else code.strip().upper()

'''


def station_module(tip_variant: bool) -> bytes:
    """The generated station registry: one table row per line, functions at the end."""
    state = 20260302
    rows = []
    for number in range(1, STATION_COUNT + 1):
        values = []
        for _ in range(5):
            state = (state * 1103515245 + 12345) % 2**31
            values.append(state)
        name = f"{_PREFIXES[values[0] % 16]} {_SUFFIXES[values[1] % 10]}"
        if number > 1:
            name += f" {number}"
        else:
            name = "Ridge Camp"
        region = _REGIONS[values[2] % len(_REGIONS)]
        lat = 45 + (values[3] % 250000) / 10000
        lon = -160 + (values[4] % 1000000) / 10000
        elevation = values[4] % 2900
        rows.append(
            f'    "KS-{number:05d}": ("{name}", "{region}", {lat:.4f}, {lon:.4f}, {elevation}),\n'
        )
    tail = _STATION_TAIL.replace("{normalise}", _NORMALISE if tip_variant else "").replace(
        "{key}", "normalise_code(code)" if tip_variant else "code.upper()"
    )
    return (_STATION_HEAD + "".join(rows) + tail).encode("utf-8")


def icon() -> bytes:
    """A 16x16 32-bit ICO: a kestrel-brown square on transparent corners (NUL bytes included)."""
    size = 16
    pixels = bytearray()
    for y in range(size):
        for x in range(size):
            corner = (x < 2 or x > 13) and (y < 2 or y > 13)
            pixels += b"\x00\x00\x00\x00" if corner else bytes((0x2A, 0x5A, 0x9C, 0xFF))
    mask = b"\x00" * (size * 4)
    bitmap = struct.pack("<IiiHHIIiiII", 40, size, size * 2, 1, 32, 0, 0, 0, 0, 0, 0)
    image = bitmap + bytes(pixels) + mask
    header = struct.pack("<HHH", 0, 1, 1)
    entry = struct.pack("<BBBBHHII", size, size, 0, 0, 1, 32, len(image), 6 + 16)
    return header + entry + image


def tree(number: int) -> dict[str, tuple[bytes, bytes]]:
    """path -> (mode, content) of commit ``number`` (1-based)."""
    files: dict[str, tuple[bytes, bytes]] = {}
    for commit in COMMITS[:number]:
        root = OVERLAYS / commit.overlay
        for path in sorted(root.rglob("*")) if root.is_dir() else []:
            if not path.is_file() or "__pycache__" in path.parts:
                continue
            name = path.relative_to(root).as_posix()
            mode = b"100755" if name in EXECUTABLE else b"100644"
            files[name] = (mode, path.read_bytes())
        for old, new in commit.renames:
            files[new] = files.pop(old)
        for name in commit.deletes:
            del files[name]
    commit = COMMITS[number - 1]
    files[STATION_MODULE] = (b"100644", station_module(commit.tip_variant))
    files[ICON] = (b"100644", icon())
    for name, target in SYMLINKS.items():
        files[name] = (b"120000", target.encode("utf-8"))
    return files


def _data(payload: bytes) -> bytes:
    return b"data %d\n" % len(payload) + payload + b"\n"


def build_stream() -> bytes:
    """The whole fast-import stream, byte for byte."""
    out: list[bytes] = []
    marks: dict[bytes, int] = {}  # blob content -> mark
    next_mark = 1
    commit_marks: list[int] = []
    for number, commit in enumerate(COMMITS, start=1):
        files = tree(number)
        for _, content in (files[name] for name in sorted(files)):
            if content not in marks:
                marks[content] = next_mark
                out.append(b"blob\nmark :%d\n" % next_mark + _data(content))
                next_mark += 1
        mark = next_mark
        next_mark += 1
        out.append(b"commit " + BRANCH + b"\n")
        out.append(b"mark :%d\n" % mark)
        out.append(b"author " + AUTHOR + b" %d +0000\n" % commit.when)
        out.append(b"committer " + COMMITTER + b" %d +0000\n" % commit.when)
        out.append(_data(commit.message.encode("utf-8"))[:-1])
        if commit_marks:
            out.append(b"from :%d\n" % commit_marks[-1])
        out.append(b"deleteall\n")
        for name in sorted(files):
            mode, content = files[name]
            out.append(b"M " + mode + b" :%d " % marks[content] + name.encode("utf-8") + b"\n")
        out.append(b"\n")
        commit_marks.append(mark)
    for tag, number in TAGS.items():
        out.append(b"reset " + tag + b"\nfrom :%d\n\n" % commit_marks[number - 1])
    return b"".join(out)


def main(argv: list[str]) -> int:
    stream = build_stream()
    if "--check" in argv:
        if not STREAM.is_file() or STREAM.read_bytes() != stream:
            print(f"{STREAM.name} is out of date: run python sample_data/make_stream.py")
            return 1
        print(f"{STREAM.name} is up to date ({len(stream)} bytes)")
        return 0
    STREAM.write_bytes(stream)
    print(f"wrote {STREAM} ({len(stream)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
