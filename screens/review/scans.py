"""What the review says once a scan is registered: verdicts that followed their findings into
it (db/carry.py), and a run of the same name registered from another repository."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from screens.safe import visible

if TYPE_CHECKING:
    from db.carry import Carried


def _tools(identities: Iterable[str]) -> str:
    """The tools of report identities (``ruff/ruff``: ruff)."""
    return ", ".join(sorted({identity.split("/", 1)[0] for identity in identities}))


def carried_notice(carried: Carried) -> str:
    """ "Bandit: your verdicts and notes on 4 results of the scan before followed them ..."."""
    count = sum(carried.findings.values())
    results = "result" if count == 1 else "results"
    return visible(
        f"{_tools(carried.findings)}: your verdicts and notes on {count:,} {results} of the"
        " scan before followed them into this one (the same findings under other ids: their"
        " lines moved, their file was renamed, or the scan ran in another checkout); the"
        " history keeps where they were"
    )


def elsewhere_notice(elsewhere: dict[str, str]) -> str:
    """The run names this database also holds from another repository, and what to do."""
    there = ", ".join(sorted(set(elsewhere.values())))
    return visible(
        f"{_tools(elsewhere)}: this database also holds results of the same run name from "
        f"{there}: reviewed together here, the two code bases' results mix in counts "
        "and write-ups. Review each with its own --db, or both in an audit."
    )
