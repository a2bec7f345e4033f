"""Keymap presets and the loader of user overrides."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.binding import Binding

from keymaps import GROUPS, SPECS, UNBOUND_KEY, KeymapError, load_keymap, load_preset
from keymaps.bindings import bindings_for


@pytest.mark.parametrize("preset", ["default", "vim"])
def test_every_preset_binds_every_id(preset: str, tmp_path: Path) -> None:
    keymap = load_keymap(preset, user_file=_write(tmp_path, ""))
    assert set(keymap.keys) == {spec.id for spec in SPECS}
    # vim's `gg` (pressed twice) has no default key: home is `to_top`
    unbound = {"to_top_twice"} if preset == "default" else set()
    assert {spec.id for spec in SPECS if not keymap.keys_for(spec.id)} == unbound


def test_catalog_ids_are_unique_and_grouped() -> None:
    ids = [spec.id for spec in SPECS]
    assert len(ids) == len(set(ids))
    assert {spec.group for spec in SPECS} <= set(GROUPS)


def test_default_keys_from_the_issue() -> None:
    keys = load_preset("default")
    assert keys["next_record"] == "n"
    assert keys["back"] == "backspace,alt+left"
    assert keys["forward"] == "alt+right"
    assert "ctrl+i" not in keys["forward"]  # terminals send ctrl+i as tab
    assert keys["confirm"] == "c"
    assert keys["find"] == "slash"


def test_review_screen_keys_do_not_clash_in_default() -> None:
    seen: dict[str, str] = {}
    for binding in bindings_for("review"):
        assert isinstance(binding, Binding)
        for key in binding.key.split(","):
            assert key not in seen, f"{key} bound to {seen.get(key)} and {binding.id}"
            seen[key] = binding.id or ""


def test_user_override_replaces_keys(tmp_path: Path) -> None:
    keymap = load_keymap(user_file=_write(tmp_path, 'next_record = "J,ctrl+n"\n'))
    assert keymap.keys_for("next_record") == ("J", "ctrl+n")
    assert keymap.keys["prev_record"] == "p"
    assert str(tmp_path / "keymap.toml") in keymap.sources


def test_changes_are_the_ids_bound_unlike_the_default_preset(tmp_path: Path) -> None:
    # the bindings are built with the default keys; Textual is given only what differs
    assert load_keymap(user=False).changes() == {}
    vim = load_keymap("vim", user=False)
    default = load_preset("default")
    assert vim.changes() == {i: k for i, k in vim.keys.items() if k != default[i]}
    assert vim.changes()["back"] == "ctrl+o,backspace"
    keymap = load_keymap(user_file=_write(tmp_path, 'next_record = "J"\nquit = "q"\n'))
    assert keymap.changes() == {"next_record": "J"}  # quit = "q" is the default
    unbound = load_keymap(user_file=_write(tmp_path, 'quit = ""\n'))
    assert unbound.keys_for("quit") == ()
    assert unbound.changes() == {"quit": UNBOUND_KEY}  # Textual would keep "q" for ""


def test_user_file_can_choose_a_preset(tmp_path: Path) -> None:
    keymap = load_keymap(user_file=_write(tmp_path, 'preset = "vim"\nquit = "Q"\n'))
    assert keymap.preset == "vim"
    assert keymap.keys["back"] == "ctrl+o,backspace"
    assert keymap.keys["quit"] == "Q"


def test_unknown_id_is_a_clear_error(tmp_path: Path) -> None:
    path = _write(tmp_path, 'next_recrod = "n"\n')
    with pytest.raises(KeymapError) as info:
        load_keymap(user_file=path)
    message = str(info.value)
    assert "next_recrod" in message and "next_record" in message and str(path) in message


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("quit = 3\n", "must be a string"),
        ('quit = "a b"\n', "not a list of keys"),
        ("quit = \n", "not valid TOML"),
        ('preset = "emacs"\n', "unknown keymap preset"),
    ],
)
def test_bad_user_files(tmp_path: Path, text: str, fragment: str) -> None:
    with pytest.raises(KeymapError, match=fragment):
        load_keymap(user_file=_write(tmp_path, text))


def test_a_user_file_that_is_not_utf8_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "keymap.toml"
    path.write_bytes(b'quit = "\xff"\n')  # tomllib raises UnicodeDecodeError, not its own error
    with pytest.raises(KeymapError, match="not valid TOML: not UTF-8 text"):
        load_keymap(user_file=path)


def test_a_user_file_beginning_with_a_bom_is_read(tmp_path: Path) -> None:
    path = tmp_path / "keymap.toml"
    path.write_bytes(b'\xef\xbb\xbfnext_record = "J"\n')  # "not valid TOML" at line 1
    assert load_keymap(user_file=path).keys_for("next_record") == ("J",)


def test_a_user_file_nested_too_deeply_is_a_clear_error(tmp_path: Path) -> None:
    path = _write(tmp_path, "quit = " + "[" * 100_000 + "]" * 100_000 + "\n")
    with pytest.raises(KeymapError, match="not valid TOML: nested too deeply"):  # RecursionError
        load_keymap(user_file=path)


def test_two_actions_of_one_screen_on_one_key_is_a_clear_error(tmp_path: Path) -> None:
    # Textual would run one of them and leave the other out of reach, with nothing said
    path = _write(tmp_path, 'next_record = "c"\n')
    with pytest.raises(KeymapError) as info:
        load_keymap(user_file=path)
    message = str(info.value)
    assert str(path) in message and "next_record" in message and "confirm" in message
    # moved together, or the other one unbound: no clash
    load_keymap(user_file=_write(tmp_path, 'next_record = "c"\nconfirm = "ctrl+k"\n'))
    load_keymap(user_file=_write(tmp_path, 'next_record = "c"\nconfirm = ""\n'))
    # one key in two contexts (the focused record pane's binding first) is by design
    assert load_keymap(user=False).keys_for("to_top") == ("home",)
    assert load_keymap(user=False).keys_for("record_top") == ("home",)


@pytest.mark.parametrize(
    ("written", "named"),
    [("!", "exclamation_mark"), ("/", "slash"), ("@", "at"), ("-", "minus"), ("ctrl+x", "ctrl+x")],
)
def test_a_character_is_the_key_textual_names_it(tmp_path: Path, written: str, named: str) -> None:
    # as Textual reads it (set_keymap names a character so): compared, and shown, by that name
    keymap = load_keymap(user_file=_write(tmp_path, f'next_record = "{written},J"\nfind = ""\n'))
    assert keymap.keys_for("next_record") == (named, "J")


def test_a_character_clashes_as_the_key_it_names(tmp_path: Path) -> None:
    with pytest.raises(KeymapError, match="question_mark is bound to both next_record and help"):
        load_keymap(user_file=_write(tmp_path, 'next_record = "?"\n'))


@pytest.mark.parametrize(
    ("written", "fragment"),
    [
        ("pgdown", "'pgdown' is not a key Textual knows (did you mean 'pagedown'?)"),
        ("esc", "(did you mean 'escape'?)"),
        ("Ctrl+n", "(did you mean 'ctrl+n'?)"),
        ("ctl+n", "(did you mean 'ctrl+n'?)"),
        ("hyper+foo", "'hyper+foo' is not a key Textual knows"),
        ("solidus", "'solidus' is not a key"),  # Textual says slash
    ],
)
def test_a_key_textual_never_sends_is_a_clear_error(
    tmp_path: Path, written: str, fragment: str
) -> None:
    # bound as written, it showed in the footer and the help and did nothing when pressed
    path = _write(tmp_path, f'next_record = "J,{written}"\n')
    with pytest.raises(KeymapError) as info:
        load_keymap(user_file=path)
    message = str(info.value)
    assert fragment in message and str(path) in message and "next_record" in message


def test_every_key_textual_names_is_taken(tmp_path: Path) -> None:
    written = "ctrl+shift+f5,alt+greater_than_sign,media_play,é,ctrl+plus,+,ctrl+],return"
    keymap = load_keymap(user_file=_write(tmp_path, f'next_record = "{written}"\n'))
    assert keymap.keys_for("next_record") == (
        "ctrl+shift+f5",
        "alt+greater_than_sign",
        "media_play",
        "é",
        "ctrl+plus",
        "plus",
        "ctrl+right_square_bracket",  # as Textual names the key ctrl+] sends
        "return",
    )


def test_a_space_is_the_space_bar_by_its_name(tmp_path: Path) -> None:
    # " " was read as "": the action unbound, with nothing said
    with pytest.raises(KeymapError, match='the space bar is "space"'):
        load_keymap(user_file=_write(tmp_path, 'next_record = " "\n'))


@pytest.mark.parametrize(
    ("written", "ids"),
    [
        ('open_system = "f"\n', ("filter", "open_system", "on the audit screen")),
        ('open_system = "q"\n', ("quit", "open_system", "on the audit screen")),
        ('audit_return = "q"\n', ("quit", "audit_return", "in a system opened from the audit")),
        ('audit_return = "n"\n', ("next_record", "audit_return", "in a system opened")),
    ],
)
def test_a_key_the_audit_screens_hold_twice_is_a_clear_error(
    tmp_path: Path, written: str, ids: tuple[str, str, str]
) -> None:
    # the audit screens hold review bindings beside their own: open_system = "f" took the
    # filter's key there (its footer entry gone, f opened the system) with nothing said
    with pytest.raises(KeymapError) as info:
        load_keymap(user_file=_write(tmp_path, written))
    assert all(each in str(info.value) for each in ids), str(info.value)
    # escape: audit_return's and record_target's by design (the record first, then back)
    keymap = load_keymap(user=False)
    assert keymap.keys_for("audit_return") == keymap.keys_for("record_target") == ("escape",)


def test_a_key_a_terminal_sends_as_another_clashes_with_it(tmp_path: Path) -> None:
    # ctrl+i is tab to a terminal: "ctrl+i Note" was shown and the key moved to the next pane
    with pytest.raises(KeymapError) as info:
        load_keymap(user_file=_write(tmp_path, 'note = "ctrl+i"\n'))
    message = str(info.value)
    assert (
        "next_pane and note" in message and "(tab and ctrl+i are one key to a terminal)" in message
    )
    with pytest.raises(KeymapError, match="ctrl.m and enter are one key to a terminal"):
        load_keymap(user_file=_write(tmp_path, 'note = "ctrl+m"\n'))
    load_keymap(user_file=_write(tmp_path, 'note = "ctrl+i"\nnext_pane = "f6"\n'))


def test_the_audit_screens_review_keys_are_the_ones_checked() -> None:
    from keymaps.catalog import AUDIT_SCREEN_IDS
    from screens.audit.screen import AUDIT_HIDDEN, AUDIT_SHOWN

    assert {*AUDIT_SHOWN, *AUDIT_HIDDEN} == {"open_system", *AUDIT_SCREEN_IDS}


def test_a_keymap_in_the_config_directory_that_is_no_file_is_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a directory, or a link to a file that is gone: the user's keys were left out unsaid
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    (tmp_path / "assay").mkdir()
    (tmp_path / "assay" / "keymap.toml").symlink_to(tmp_path / "moved.toml")
    with pytest.raises(KeymapError, match="keymap .*keymap.toml is not a file"):
        load_keymap()
    (tmp_path / "assay" / "keymap.toml").unlink()
    (tmp_path / "assay" / "keymap.toml").mkdir()
    with pytest.raises(KeymapError, match="is not a file"):
        load_keymap()
    (tmp_path / "assay" / "keymap.toml").rmdir()
    assert load_keymap().sources == ("preset:default",)  # none at all: the preset


def test_a_preset_asked_for_wins_over_the_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `--keymap default` with keymap.toml's preset = "vim" gave vim's keys
    from keymaps import usable_keymap

    user = _write(tmp_path, 'preset = "vim"\nquit = "Q"\n')
    asked = load_keymap("default", user_file=user, given=True)
    assert asked.preset == "default" and asked.keys_for("filter") == ("f",)
    assert asked.keys_for("quit") == ("Q",)  # the file's keys still on top
    assert load_keymap("default", user_file=user).preset == "vim"  # not asked: the file's
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    (tmp_path / "assay").mkdir()
    user.rename(tmp_path / "assay" / "keymap.toml")
    assert usable_keymap("default")[0].preset == "default"  # as the command passes --keymap
    assert usable_keymap(None)[0].preset == "vim"


def test_missing_explicit_file(tmp_path: Path) -> None:
    with pytest.raises(KeymapError, match="does not exist"):
        load_keymap(user_file=tmp_path / "nope.toml")


def test_default_location_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    (tmp_path / "assay").mkdir()
    (tmp_path / "assay" / "keymap.toml").write_text('help = "h"\n', encoding="utf-8")
    assert load_keymap().keys["help"] == "h"


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "keymap.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_presets_read_without_tomllib_as_tomllib_reads_them(tmp_path: Path) -> None:
    # the launch reads assay's presets line by line (tomllib's import and parse, ~4 ms): the
    # same keys as TOML gives, and any line of another form read by tomllib itself
    import tomllib

    from keymaps.loader import PRESET_DIR, PRESETS, _read_preset

    for name in PRESETS:
        path = PRESET_DIR / f"{name}.toml"
        assert _read_preset(path) == tomllib.loads(path.read_text(encoding="utf-8")), name
    odd = tmp_path / "odd.toml"
    odd.write_text('# a table\nmove_down = "j"\n[next]\nkeys = "n"\n', encoding="utf-8")
    assert _read_preset(odd) == {"move_down": "j", "next": {"keys": "n"}}
    odd.write_text('move_down = "j"\nmove_down = "k"\n', encoding="utf-8")  # TOML refuses it
    with pytest.raises(KeymapError, match="not valid TOML"):
        _read_preset(odd)
    odd.write_text("move_down = 'j' # single quotes\n", encoding="utf-8")
    assert _read_preset(odd) == {"move_down": "j"}


def test_the_default_keymap_is_loaded_without_tomllib(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    code = (
        "import sys; from keymaps import load_keymap; load_keymap(); "
        "print('tomllib' in sys.modules)"
    )
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path), HOME=str(tmp_path))
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "False", out.stderr
    (tmp_path / "assay").mkdir()
    (tmp_path / "assay" / "keymap.toml").write_text('move_down = "j"\n', encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "True", out.stderr  # a user's file: TOML, read by tomllib
