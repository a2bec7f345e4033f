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
