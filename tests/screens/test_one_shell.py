"""Review, audit and browse are one app shell (tui/app.py `AssayApp`, made by the factories):
the same themes, the user's keymap, ctrl+c twice, and the crash watch, for each of them."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from screenkit import watch_notices

from evidence.revision import Revision
from keymaps import Keymap, load_keymap
from screens.audit.screen import AuditScreen
from screens.browse import BrowseScreen
from screens.review.screen import ReviewScreen
from screens.themes import DARK, LIGHT, THEME_FILE_NAME, theme_file
from tui.app import AssayApp
from tui.audit_app import make_demo_audit_app
from tui.crash import CrashWatch
from tui.factory import make_browse_app, make_demo_app
from tui.interrupt import INTERRUPTED, InterruptQuit

Factory = Callable[[Path, Keymap], AssayApp]


def review(tmp_path: Path, keymap: Keymap) -> AssayApp:
    return make_demo_app(tmp_path, reviewer="shell", keymap=keymap, theme_file=theme_file())


def audit(tmp_path: Path, keymap: Keymap) -> AssayApp:
    return make_demo_audit_app(
        tmp_path,
        reviewer="shell",
        keymap=keymap,
        anchor_cache=tmp_path / "anchors",
        theme_file=theme_file(),
    )


def browse(tmp_path: Path, keymap: Keymap) -> AssayApp:
    from evidence.sample import sample_repo

    return make_browse_app(Revision.open(sample_repo()), keymap=keymap, theme_file=theme_file())


SHELLS = {"review": (review, ReviewScreen), "audit": (audit, AuditScreen)}
SHELLS["browse"] = (browse, BrowseScreen)


@pytest.fixture(params=sorted(SHELLS))
def shell(
    request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[tuple[Callable[[], AssayApp], type]]:
    """Makes each app (closed after the test), with a user keymap that moves `quit` to X (a key
    no preset binds)."""
    user_file = tmp_path / "keymap.toml"
    user_file.write_text('quit = "X"\n', encoding="utf-8")
    factory, screen = SHELLS[request.param]
    made: list[AssayApp] = []

    def make() -> AssayApp:
        made.append(factory(tmp_path, load_keymap(user_file=user_file)))
        return made[-1]

    yield make, screen
    for app in made:
        app.close()


async def test_each_app_is_the_one_shell_with_the_user_keymap(
    shell: tuple[Callable[[], AssayApp], type],
) -> None:
    make, screen = shell
    app = make()
    assert isinstance(app, CrashWatch) and isinstance(app, InterruptQuit)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        # the first screen is the app's own (not pushed over Textual's blank default)
        assert [type(each) for each in app.screen_stack] == [screen]
        assert set(app.available_themes) == {DARK, LIGHT} and app.theme == DARK
        await pilot.press("q")  # the preset's quit key, moved by the user's keymap
        await pilot.pause()
        assert app.return_code is None
        await pilot.press("X")
        await pilot.pause()
        assert app.return_code == 0


async def test_ctrl_c_twice_quits_each_app_with_130(
    shell: tuple[Callable[[], AssayApp], type],
) -> None:
    app = shell[0]()
    notices = watch_notices(app)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert app.return_code is None
        assert any("ctrl+c again" in str(notice.message) for notice in notices)
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert app.return_code == INTERRUPTED


async def test_each_app_uses_the_theme_kept(
    shell: tuple[Callable[[], AssayApp], type], user_config_home: Path
) -> None:
    kept = user_config_home / "assay" / THEME_FILE_NAME
    kept.parent.mkdir(parents=True, exist_ok=True)
    kept.write_text(LIGHT, encoding="utf-8")
    app = shell[0]()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert app.theme == LIGHT
