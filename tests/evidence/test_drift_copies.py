"""Drift of a passage the file holds more than once (a check repeated in each route): when the
quoted copy goes, the copies left are other passages, not the quoted one moved."""

from __future__ import annotations

from pathlib import Path

from evidencekit import git, make_repo

from evidence.drift import Drift, DriftStatus, follow_anchors
from evidence.model import Anchor, FileState, Quote, Tier
from evidence.revision import Revision

ROUTES = ("users", "orders", "admin", "billing")
CHECK = "  requireAuth(req);"


def _routes(names: tuple[str, ...] = ROUTES) -> list[str]:
    lines: list[str] = []
    for name in names:
        lines += [
            f"router.post('/{name}', async (req, res) => {{",
            CHECK,
            f"  res.json(await {name}.create(req.body));",
            "});",
            "",
        ]
    return lines


def _write(root: Path, name: str, lines: list[str]) -> None:
    (root / name).write_text("\n".join(lines) + "\n")


def _drift(root: Path, cited: str, new: str, quotes: list[tuple[str, int]]) -> list[Drift]:
    anchors = [
        Anchor(Quote(CHECK, path, None, 1, 1, "R", 0), FileState.OK, Tier.EXACT, 100.0, (at, at))
        for path, at in quotes
    ]
    with Revision.open(root, cited) as old, Revision.open(root, new) as now:
        drifts = follow_anchors(anchors, old, now)
    return [drift for drift in drifts if drift is not None]


def _commit(root: Path, message: str) -> str:
    git(root, "add", "-A")
    git(root, "commit", "-qm", message)
    return git(root, "rev-parse", "HEAD")


def test_a_check_removed_from_one_route_is_deleted_not_moved_to_another_routes(
    tmp_path: Path,
) -> None:
    root = tmp_path / "r"
    cited = make_repo(root, {"routes.js": "\n".join(_routes()) + "\n"})
    lines = _routes()
    assert [n + 1 for n, line in enumerate(lines) if line == CHECK] == [2, 7, 12, 17]
    _write(root, "routes.js", lines[:11] + lines[12:])  # the admin route loses its check
    tip = _commit(root, "admin without the check")
    admin, users, billing = _drift(
        root, cited, tip, [("routes.js", 12), ("routes.js", 2), ("routes.js", 17)]
    )
    assert admin.status is DriftStatus.DELETED and admin.lines is None
    assert admin.near == (11, 12)  # between the admin route's first line and its next
    assert (users.status, users.lines) == (DriftStatus.UNCHANGED, (2, 2))
    assert (billing.status, billing.lines) == (DriftStatus.MOVED, (16, 16))


def test_a_check_commented_out_is_changed_at_its_own_line(tmp_path: Path) -> None:
    root = tmp_path / "r"
    cited = make_repo(root, {"routes.js": "\n".join(_routes()) + "\n"})
    lines = _routes()
    lines[11] = "  // requireAuth(req);"
    _write(root, "routes.js", lines)
    tip = _commit(root, "admin's check commented out")
    (admin,) = _drift(root, cited, tip, [("routes.js", 12)])
    assert (admin.status, admin.lines) == (DriftStatus.CHANGED, (12, 12))


def test_a_check_moved_down_its_route_is_moved_there(tmp_path: Path) -> None:
    # the quoted copy really moves: the place no other copy went to is its place
    root = tmp_path / "r"
    cited = make_repo(root, {"routes.js": "\n".join(_routes()) + "\n"})
    lines = _routes()
    lines[11:13] = [lines[12], CHECK]  # after the call now
    _write(root, "routes.js", lines)
    tip = _commit(root, "admin checks after the call")
    (admin,) = _drift(root, cited, tip, [("routes.js", 12)])
    assert (admin.status, admin.lines) == (DriftStatus.MOVED, (13, 13))


def test_a_check_removed_on_a_branch_merged_later_is_deleted(tmp_path: Path) -> None:
    root = tmp_path / "r"
    cited = make_repo(root, {"routes.js": "\n".join(_routes()) + "\n"})
    git(root, "checkout", "-qb", "release")
    lines = _routes()
    _write(root, "routes.js", lines[:11] + lines[12:])
    _commit(root, "release: admin without the check")
    git(root, "checkout", "-q", "-")
    _write(root, "routes.js", ["// routes", *lines])
    _commit(root, "main: a header")
    git(root, "merge", "-q", "--no-edit", "release")
    tip = git(root, "rev-parse", "HEAD")
    admin, orders = _drift(root, cited, tip, [("routes.js", 12), ("routes.js", 7)])
    assert admin.status is DriftStatus.DELETED
    assert (orders.status, orders.lines) == (DriftStatus.MOVED, (8, 8))


def test_a_file_gone_is_not_moved_to_a_copy_another_file_held_already(tmp_path: Path) -> None:
    root = tmp_path / "r"
    other = _routes(("reports",))
    cited = make_repo(
        root,
        {"admin.js": "\n".join(_routes(("admin",))) + "\n", "reports.js": "\n".join(other) + "\n"},
    )
    git(root, "rm", "-q", "admin.js")
    _write(root, "reports.js", ["// reports", *other])  # written since: still one copy
    tip = _commit(root, "admin routes dropped")
    (admin,) = _drift(root, cited, tip, [("admin.js", 2)])
    assert admin.status is DriftStatus.FILE_DELETED
    # a file that gains a copy is where it went
    _write(root, "staff.js", ["// the admin routes, now staff's", *_routes(("staff",))])
    tip = _commit(root, "staff routes")
    (admin,) = _drift(root, cited, tip, [("admin.js", 2)])
    assert (admin.status, admin.path, admin.lines) == (DriftStatus.MOVED, "staff.js", (3, 3))


def test_a_check_removed_is_not_moved_to_a_copy_another_commit_added(tmp_path: Path) -> None:
    # a new route with the same check, then the check dropped from the quoted route: the copy
    # was written by another commit than the one that took the quoted line away
    root = tmp_path / "r"
    cited = make_repo(root, {"routes.js": "\n".join(_routes(("admin",))) + "\n"})
    _write(root, "routes.js", _routes(("purge", "admin")))
    _commit(root, "a purge route, checked too")
    lines = _routes(("purge", "admin"))
    _write(root, "routes.js", lines[:6] + lines[7:])
    dropped = _commit(root, "admin without the check")
    (admin,) = _drift(root, cited, dropped, [("routes.js", 2)])
    assert admin.status is DriftStatus.DELETED and admin.near == (6, 7)
    assert [c.id for c in admin.commits] == [dropped]
    # one commit that takes it from its route and writes it lower: moved
    root = tmp_path / "moved"
    cited = make_repo(root, {"routes.js": "\n".join(_routes(("admin",))) + "\n"})
    lines = _routes(("admin",))
    _write(root, "routes.js", [lines[0], lines[2], CHECK, *lines[3:]])
    moved = _commit(root, "check after the call")
    (admin,) = _drift(root, cited, moved, [("routes.js", 2)])
    assert (admin.status, admin.lines) == (DriftStatus.MOVED, (3, 3))


HANDLERS = """\
def get_station(request, station_id):
    row = station_store.get(station_id)
    if row is None:
        return respond(404, {"error": "no such station"})
    return respond(200, row.as_dict())

def get_ticket(request, ticket_id):
    row = ticket_store.get(ticket_id)
    if row is None:
        return respond(404, {"error": "no such ticket"})
    return respond(200, row.as_dict())
"""
NOTES = """\
def get_station_notes(request, station_id):
    row = station_store.get(station_id)
    if row is None:
        return respond(404, {"error": "no such station"})
    return respond(200, row.notes())
"""


def _quote_ticket(root: Path, cited: str, new: str) -> Drift:
    anchor = Anchor(
        Quote("", "handlers.py", None, 1, 1, "R", 0), FileState.OK, Tier.EXACT, 100.0, (7, 11)
    )
    with Revision.open(root, cited) as old, Revision.open(root, new) as now:
        (drift,) = follow_anchors([anchor], old, now)
    assert drift is not None
    return drift


def test_a_function_moved_out_where_a_like_one_took_its_place_is_moved(tmp_path: Path) -> None:
    root = tmp_path / "r"
    cited = make_repo(root, {"handlers.py": HANDLERS})
    ticket = HANDLERS.splitlines()[6:]
    (root / "handlers.py").write_text(HANDLERS.split("\ndef get_ticket")[0] + "\n\n" + NOTES)
    _write(root, "tickets.py", ["# tickets", "", *ticket])
    split = _commit(root, "tickets split out; station notes in their place")
    drift = _quote_ticket(root, cited, split)
    assert (drift.status, drift.path, drift.lines) == (DriftStatus.MOVED, "tickets.py", (3, 7))


def test_a_function_edited_in_place_is_not_moved_to_an_old_copy_written_apart(
    tmp_path: Path,
) -> None:
    # the old version vendored into another file by one commit, the function edited by another
    root = tmp_path / "r"
    cited = make_repo(root, {"handlers.py": HANDLERS})
    ticket = HANDLERS.splitlines()[6:]
    _write(root, "legacy.py", ["# the old handlers, kept for v1 clients", "", *ticket])
    _commit(root, "legacy handlers for v1")
    (root / "handlers.py").write_text(HANDLERS.replace('"no such ticket"', '"unknown ticket"'))
    edited = _commit(root, "a clearer error")
    drift = _quote_ticket(root, cited, edited)
    assert (drift.status, drift.path, drift.lines) == (DriftStatus.CHANGED, "handlers.py", (7, 11))
    assert [c.id for c in drift.commits] == [edited]


def test_a_check_removed_then_restored_by_a_revert_is_back(tmp_path: Path) -> None:
    root = tmp_path / "r"
    cited = make_repo(root, {"routes.js": "\n".join(_routes(("admin", "billing"))) + "\n"})
    lines = _routes(("admin", "billing"))
    _write(root, "routes.js", lines[:1] + lines[2:])
    dropped = _commit(root, "admin without the check")
    git(root, "revert", "--no-edit", dropped)
    back = git(root, "rev-parse", "HEAD")
    (admin,) = _drift(root, cited, back, [("routes.js", 2)])
    assert (admin.status, admin.lines) == (DriftStatus.UNCHANGED, (2, 2))
