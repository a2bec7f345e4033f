"""Load a keymap: a preset TOML file, then the user's overrides from the config directory."""

import difflib
import os
import re
from collections.abc import Collection, Mapping
from functools import cache
from pathlib import Path
from typing import NamedTuple

from keymaps.catalog import AUDIT_SCREEN_IDS, BY_ID, SPECS, BindingSpec

PRESET_DIR = Path(__file__).resolve().parent
PRESETS: tuple[str, ...] = ("default", "vim")
USER_FILE_NAME = "keymap.toml"
#: what Textual is given for an id the keymap leaves unbound (``quit = ""``): a key name no
#: terminal sends. Textual keeps a binding's default key when its id maps to "" (Textual cannot
#: unbind), so `q` still quit; now the binding moves to this name and no key reaches it.
UNBOUND_KEY = "assay-unbound"


class KeymapError(Exception):
    """A keymap file that cannot be used; the message says which file and why."""


# Real annotations, not `from __future__ import annotations`: a NamedTuple compiles each one
# given as a string when its class is made, before the review app's first frame.
class Keymap(NamedTuple):
    """Binding id -> comma-separated Textual key names, for every binding in the catalog."""

    preset: str
    keys: Mapping[str, str]
    sources: tuple[str, ...] = ()  # files read, in order

    def changes(self) -> dict[str, str]:
        """The ids whose keys differ from the default preset's, for Textual's `set_keymap`.

        Every binding is built with the default preset's keys; Textual remaps the ids it is given
        each time it computes the active bindings (every key press), at a cost that grows with
        the square of their number: only the changed ones are given, none by default.
        An id left unbound maps to `UNBOUND_KEY`.
        """
        default = load_preset("default")
        return {
            binding_id: keys or UNBOUND_KEY
            for binding_id, keys in self.keys.items()
            if keys != default.get(binding_id)
        }

    def keys_for(self, binding_id: str) -> tuple[str, ...]:
        """The keys bound to one id (empty when it is unbound)."""
        return tuple(key for key in self.keys.get(binding_id, "").split(",") if key)


def user_keymap_path() -> Path:
    """Where the user's keymap overrides live (platformdirs config directory)."""
    from platformdirs import user_config_dir

    return Path(user_config_dir("assay")) / USER_FILE_NAME


#: a preset's line (assay's own files): ``binding_id = "keys"``; comments and blank lines aside
_PRESET_LINE = re.compile(r'([a-z][a-z0-9_]*) = "([^"\\]*)"')


def _read_preset(path: Path) -> dict[str, object]:
    """One of assay's presets: each of its lines read as `_PRESET_LINE`, without tomllib (its
    import and a parse, ~4 ms of every launch); a line of another form, by tomllib. Tests check
    that the presets read the same either way."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return _read_toml(path)  # which says why
    keys: dict[str, object] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        found = _PRESET_LINE.fullmatch(line)
        if found is None or found.group(1) in keys:
            return _read_toml(path)
        keys[found.group(1)] = found.group(2)
    return keys


def _read_toml(path: Path) -> dict[str, object]:
    import tomllib  # a user's keymap file, or a preset line of another form

    try:
        with path.open("rb") as handle:
            # a BOM, as Notepad writes UTF-8, left out: tomllib took it for a statement
            return tomllib.loads(handle.read().decode("utf-8-sig"))
    except OSError as error:
        raise KeymapError(f"cannot read keymap {path}: {error.strerror or error}") from None
    except tomllib.TOMLDecodeError as error:
        raise KeymapError(f"keymap {path} is not valid TOML: {error}") from None
    except UnicodeDecodeError:  # tomllib decodes before it parses, with its own error
        raise KeymapError(f"keymap {path} is not valid TOML: not UTF-8 text") from None
    except RecursionError:  # tomllib recurses once per nested array
        raise KeymapError(f"keymap {path} is not valid TOML: nested too deeply") from None


def _validate(data: Mapping[str, object], where: str) -> dict[str, str]:
    keys: dict[str, str] = {}
    for binding_id, value in data.items():
        if binding_id not in BY_ID:
            close = difflib.get_close_matches(binding_id, list(BY_ID), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise KeymapError(f"{where}: unknown binding id {binding_id!r}{hint}")
        if not isinstance(value, str):
            raise KeymapError(
                f'{where}: {binding_id} must be a string of keys such as "j,down", '
                f"not {type(value).__name__}"
            )
        parts = [part.strip() for part in value.split(",")]
        if value and not value.strip():  # " " read as "" left the action unbound, said nowhere
            raise KeymapError(
                f'{where}: {binding_id} = {value!r} is not a key: the space bar is "space"'
            )
        if value.strip() and any(not part or " " in part for part in parts):
            raise KeymapError(f"{where}: {binding_id} = {value!r} is not a list of keys")
        keys[binding_id] = ",".join(_known_key(part, binding_id, where) for part in parts if part)
    return keys


#: what may precede a key, as Textual names the modifiers
MODIFIERS = ("ctrl", "shift", "alt", "meta", "super", "hyper")
#: the keys Textual names when a terminal speaks the kitty keyboard protocol, beyond those of
#: `textual.keys.Keys` (their table is in a private module of Textual)
_PROTOCOL_KEYS = frozenset(
    (
        "add",
        "caps_lock",
        "decimal",
        "divide",
        "equal",
        "iso_level3_shift",
        "iso_level5_shift",
        "kp_begin",
        "left_alt",
        "left_control",
        "left_hyper",
        "left_meta",
        "left_shift",
        "left_super",
        "lower_volume",
        "media_fast_forward",
        "media_pause",
        "media_play",
        "media_play_pause",
        "media_record",
        "media_reverse",
        "media_rewind",
        "media_stop",
        "media_track_next",
        "media_track_previous",
        "menu",
        "multiply",
        "mute_volume",
        "num_lock",
        "pause",
        "print_screen",
        "raise_volume",
        "right_alt",
        "right_control",
        "right_hyper",
        "right_meta",
        "right_shift",
        "right_super",
        "scroll_lock",
        "separator",
        "subtract",
    )
)


@cache
def _named_keys() -> frozenset[str]:
    """The keys Textual knows by a name of several letters (``pagedown``, ``f2``, ``tab``)."""
    from textual.keys import ASCII_KEY_NAMES, KEY_ALIASES, KEY_NAME_REPLACEMENTS, Keys

    names = {key.value.rsplit("+", 1)[-1] for key in Keys}
    names.update(ASCII_KEY_NAMES.values(), KEY_NAME_REPLACEMENTS.values(), KEY_ALIASES)
    names.update(f"f{number}" for number in range(1, 36))
    return frozenset(name for name in names | _PROTOCOL_KEYS if len(name) > 1)


def _is_character_name(name: str) -> bool:
    """``question_mark``: the name Textual gives a character (not ``solidus``: it says slash).
    Textual writes a name's spaces and hyphens alike (``greater_than_sign``)."""
    import unicodedata

    words = name.split("_")
    for hyphen in range(len(words)):  # 0: no hyphen; else the one before that word
        spaced = (
            " ".join(words)
            if not hyphen
            else (" ".join(words[:hyphen]) + "-" + " ".join(words[hyphen:]))
        )
        try:
            character = unicodedata.lookup(spaced)
        except KeyError:
            continue
        if len(character) == 1 and key_name(character) == name:
            return True
    return False


def _closest(word: str, words: Collection[str], cutoff: float = 0.6) -> str:
    return next(iter(difflib.get_close_matches(word, words, n=1, cutoff=cutoff)), word)


def _known_key(key: str, binding_id: str, where: str) -> str:
    """``key`` as Textual names it (``ctrl+]`` is ``ctrl+right_square_bracket``); a key Textual
    never sends (``pgdown``, ``ctl+n``) is an error: bound, it was shown in the footer and the
    help and did nothing."""
    if len(key) == 1:
        return key_name(key)
    *modifiers, base = key.split("+")
    if len(base) == 1:
        base = key_name(base)
    if all(each in MODIFIERS for each in modifiers) and (
        len(base) == 1 or base in _named_keys() or _is_character_name(base)
    ):
        return "+".join([*modifiers, base])
    fixed = [_closest(each.lower(), MODIFIERS, cutoff=0.5) for each in modifiers]
    if len(base) > 1:
        base = _closest(base.lower(), _named_keys())
    guess = "+".join([*fixed, base])
    hint = f" (did you mean {guess!r}?)" if guess != key else ""
    raise KeymapError(
        f"{where}: {binding_id}: {key!r} is not a key Textual knows{hint}; a key is a name such"
        " as ctrl+n, f2, pagedown or question_mark, or one character"
    )


def key_name(key: str) -> str:
    """A key as Textual names it: ``?`` is ``question_mark``, as Textual reads the characters of
    BINDINGS and of a keymap. The clash check compares these names (``next_record = "?"`` takes
    help's key) and the help shows them."""
    if len(key) != 1 or key.isalnum():
        return key
    # imported here: keymaps are read before the commands import Textual (tui.startup)
    import unicodedata

    from textual.keys import ASCII_KEY_NAMES, KEY_NAME_REPLACEMENTS

    try:
        name = unicodedata.name(key).lower().replace("-", "_").replace(" ", "_")
    except ValueError:  # a control character
        name = ASCII_KEY_NAMES.get(key, key)
    return KEY_NAME_REPLACEMENTS.get(name, name)


def load_preset(name: str) -> dict[str, str]:
    """The keys of one preset; every preset starts from default.toml."""
    return dict(_preset(name))


@cache
def _preset(name: str) -> Mapping[str, str]:
    if name not in PRESETS:
        raise KeymapError(f"unknown keymap preset {name!r} (choose from {', '.join(PRESETS)})")
    default_path = PRESET_DIR / "default.toml"
    keys = _validate(_read_preset(default_path), str(default_path))
    if name != "default":
        path = PRESET_DIR / f"{name}.toml"
        keys.update(_validate(_read_preset(path), str(path)))
    return keys


def load_keymap(
    preset: str = "default",
    user_file: Path | None = None,
    *,
    user: bool = True,
    given: bool = False,
) -> Keymap:
    """The preset's keys with the user's overrides on top.

    ``user_file`` None reads keymap.toml from the config directory when it exists. The user file
    holds ``binding_id = "keys"`` lines and may name a base preset with ``preset = "vim"``.
    ``user`` False ignores user files (tests, snapshots). ``given``: ``preset`` was asked for
    (``--keymap``) and wins over the file's; its key lines still apply on top of it.
    """
    if not user:
        return Keymap(preset=preset, keys=load_preset(preset), sources=(f"preset:{preset}",))
    path = user_file if user_file is not None else user_keymap_path()
    overrides: dict[str, object] = {}
    sources: list[str] = []
    if path.is_file():
        overrides = _read_toml(path)
        sources.append(str(path))
    elif user_file is not None:
        raise KeymapError(f"keymap file {path} does not exist")
    elif os.path.lexists(path):  # a directory, or a link to nothing: was passed over unsaid
        raise KeymapError(f"keymap {path} is not a file")
    base = overrides.pop("preset", None)
    if base is not None:
        if not isinstance(base, str):
            raise KeymapError(f'{path}: preset must be a string such as "vim"')
        if not given:
            preset = base
    keys = load_preset(preset)
    keys.update(_validate(overrides, str(path)))
    missing = [spec.id for spec in SPECS if spec.id not in keys]
    if missing:  # a preset file lost a line: say so rather than leave an action unreachable
        raise KeymapError(f"keymap preset {preset!r} does not bind: {', '.join(missing)}")
    _check_clashes(keys, str(path))
    return Keymap(preset=preset, keys=keys, sources=(f"preset:{preset}", *sources))


def usable_keymap(preset: str | None = None) -> tuple[Keymap, str | None]:
    """`load_keymap` (``preset``: the one asked for, which wins over keymap.toml's; None: the
    file's, else default), or when the user's keymap.toml cannot be used, the preset's keys
    and what is wrong with the file: the app starts with keys that work and says so."""
    try:
        return load_keymap(preset or "default", given=preset is not None), None
    except KeymapError as error:
        fallback = preset if preset in PRESETS else "default"
        said = f"{error}; started with the {fallback} keys: fix the file, then start again"
        return load_keymap(fallback, user=False), said


#: where the bindings of a context act, for the message naming a clash
_WHERE = {
    "review": "on the review screen",
    "record": "in the record pane",
    "source": "in the source pane",
    "note": "in the note editor",
    "confirm": "in a question",
    "dialog": "in a dialog",
    "help": "in the help",
    "grep": "in the grep dialog",
    "audit": "on the audit screen",
    "audit_review": "in a system opened from the audit",
}


def _check_clashes(keys: Mapping[str, str], where: str) -> None:
    """Two ids of one context on one key: Textual would run only one of them, and the other
    would be out of reach with nothing said (``next_record = "c"`` took confirm's key). Keys
    are compared by Textual's names (`key_name`). Ids of different contexts may share a key:
    the focused pane's binding comes first by design."""
    holders: dict[tuple[str, str], tuple[str, str]] = {}  # -> (id, the key as written)
    aliases = _aliases()
    for spec in SPECS:
        for key in keys.get(spec.id, "").split(","):
            if not key:
                continue
            same = aliases.get(key, key)
            for screen in _screens(spec):
                other, written = holders.setdefault((screen, same), (spec.id, key))
                if other != spec.id:
                    # ctrl+i is tab to a terminal: the one key Textual reads for both
                    also = f" ({written} and {key} are one key to a terminal)"
                    also = also if written != key else ""
                    raise KeymapError(
                        f"{where}: {key} is bound to both {other} and {spec.id}"
                        f" ({_WHERE.get(screen, screen)}){also}: give one of them another"
                        ' key, or "" to leave it unbound'
                    )


@cache
def _aliases() -> Mapping[str, str]:
    """Keys a terminal sends as another (``ctrl+i`` as ``tab``) -> that key, as Textual pairs
    them (a binding on either runs for both)."""
    from textual.keys import KEY_ALIASES

    return {alias: key for key, others in KEY_ALIASES.items() for alias in others}


def _screens(spec: BindingSpec) -> tuple[str, ...]:
    """The contexts whose screen holds the binding: its own, and the audit screens, which hold
    review bindings beside their own (``open_system = "f"`` took the filter's key there)."""
    held = [spec.context]
    if spec.id in AUDIT_SCREEN_IDS:
        held.append("audit")
    # a system's review holds every review binding; record_target shares escape with
    # audit_return by design (the record first, then back: screens/audit/system_review.py)
    if spec.context == "review" and spec.id != "record_target":
        held.append("audit_review")
    return tuple(held)
