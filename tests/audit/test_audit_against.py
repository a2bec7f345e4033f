"""A system's `against` (or `assay review --against` on an audit) naming a revision its
repository does not hold: `assay check` gives that system the error; its review on the audit
screen opened without drift and said nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from auditkit import make_audit

from evidence.audit.file import load_audit
from keymaps import load_keymap
from screens.audit.screen import AuditScreen, SystemsList
from screens.audit.system_review import SystemReviewScreen
from tui.audit_app import load_state, make_audit_app


async def test_an_unknown_against_is_said_when_the_system_opens(tmp_path: Path) -> None:
    path = make_audit(tmp_path)
    text = path.read_text().replace('name = "Alpha"', 'name = "Alpha"\nagainst = "no-such-ref"')
    path.write_text(text, encoding="utf-8")
    audit = load_audit(path)
    app = make_audit_app(
        load_state(audit), tmp_path / "v.db", "ada", load_keymap(user=False), anchor_cache=None
    )
    async with app.run_test(size=(120, 40)) as pilot:
        seen: list[tuple[str, str]] = []
        notify = app.notify

        def watch(message: str, **options: Any) -> None:
            seen.append((str(message), options.get("severity", "information")))
            notify(message, **options)

        app.notify = watch  # type: ignore[method-assign]
        screen = app.screen
        assert isinstance(screen, AuditScreen)
        await app.workers.wait_for_complete()
        await pilot.pause()
        names = [screen.state.entries[index].name for index in screen.order]
        screen.query_one(SystemsList).move_to(names.index("Alpha"))
        await pilot.press("enter")
        review = app.screen
        assert isinstance(review, SystemReviewScreen)
        await review.settle()
        said = [message for message, severity in seen if severity == "warning"]
        assert any("Alpha: revision no-such-ref not found" in each for each in said), seen
    app.close()
