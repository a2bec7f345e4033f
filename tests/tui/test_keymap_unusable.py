"""A keymap.toml that cannot be used (bad TOML, an unknown id, a key Textual never sends, a
clash): the app starts with the preset's keys and says what is wrong, on screen and again on
stderr once it is gone. It exited 2 before anything opened: a typo in the keymap stopped every
review until it was found."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from keymaps import load_keymap
from screens.audit.screen import AuditScreen
from screens.review.screen import ReviewScreen
from tui.commands.audit_review import demo_audit
from tui.commands.review import demo_app

BAD = [
    ("next_record = \n", "is not valid TOML"),
    ('next_recrod = "J"\n', "unknown binding id 'next_recrod'"),
    ('next_record = "pgdown"\n', "did you mean 'pagedown'?"),
    ('next_record = "c"\n', "c is bound to both"),
]


@pytest.mark.parametrize(("text", "fragment"), BAD)
@pytest.mark.parametrize("audit", [False, True])
async def test_the_app_starts_with_the_presets_keys_and_says_why(
    tmp_path: Path, user_config_home: Path, text: str, fragment: str, audit: bool
) -> None:
    (user_config_home / "assay").mkdir()
    (user_config_home / "assay" / "keymap.toml").write_text(text, encoding="utf-8")
    app = demo_audit("tester", None) if audit else demo_app("tester", None, tmp_path)
    assert app.keymap.keys == load_keymap(user=False).keys  # the default preset's
    seen: list[tuple[str, Any]] = []
    notify = app.notify

    def watch(message: str, **options: Any) -> None:
        seen.append((str(message), options.get("severity")))
        notify(message, **options)

    app.notify = watch  # type: ignore[method-assign]
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, AuditScreen if audit else ReviewScreen)
        warned = [message for message, severity in seen if severity == "warning"]
        assert len(warned) == 1 and fragment in warned[0], seen
        assert "keymap.toml" in warned[0] and "started with the default keys" in warned[0]
        app.exit()
    told = app.close()
    assert any(fragment in line for line in told)  # on stderr once the app is gone
