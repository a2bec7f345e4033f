"""The help screen: every binding of the active keymap, by group; first, on a screen that answers
only some of them (the audit, browsing a revision), the keys that act there."""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from textual.app import ComposeResult
from textual.content import Content
from textual.widgets import Static

from keymaps import BY_ID, GROUPS, SPECS, BindingSpec, Keymap, short_keys
from keymaps.bindings import bindings_for
from keymaps.display import UNBOUND_TEXT
from screens.dialog import Dialog, dialog_css
from screens.widgets.instant_scroll import InstantScroll

_CONTEXT_NOTES = {
    "record": "in the record pane",
    "source": "in the source pane",
    "note": "in the note editor",
    "confirm": "in a question",
    "dialog": "in a dialog",
    "help": "in the help",
    "audit": "on the audit screen",
    "audit_review": "in a system opened from the audit",
}

#: what the key list does not say, after it: a title and a paragraph each
_TOPICS = (
    (
        "How a quote matched",
        "  ✓ in its cited file: exact, whitespace (only spacing differs) or normalized (Markdown"
        " damage undone, or something the report added taken off: a fence, > marks, entities,"
        " copied line numbers, ... for lines left out; the line under the source says which)."
        " ! there, but not at the lines claimed. ≈ fuzzy: close, d shows what differs. ✗ not"
        " found (maybe in another file: Enter opens it). ◦ a SARIF region without a snippet.",
    ),
    (
        "Drift (review --against REV, or A)",
        "  After a record's verdict badge, the worst drift at REV of its quotes and cited"
        " files: ⊘ a passage or its file deleted, Δ changed, ↕ moved (same text, other lines"
        " or file), = unchanged (a file cited whole and edited too: ~ under it), ? not"
        " readable (its content not in this clone: Git LFS, a partial clone)."
        " Under each quote and cited file: where it is at REV and the commits that touched it"
        " (Enter shows one); t shows it at REV (or any file opened), d what differs;"
        " while REV is shown, the finder, grep and / look in REV; t on a quote not found at"
        " the cited revision looks for it at REV."
        " Verdicts stay on the cited revision.",
    ),
    (
        "Reviewing as a team (assay sync)",
        "  ≠ after a record's verdict badge: reviewers' verdicts differ on it or one of its"
        " quotes. The record pane lists the other reviewers' verdicts and notes; the header"
        " says when verdicts were last synced and how many came in.",
    ),
)


def key_names(keys: tuple[str, ...]) -> str:
    """Keys in their short form, as the footer shows them, e.g. ``⏎ / ctrl+]``."""
    return short_keys(keys)


class Here(NamedTuple):
    """A screen's own keys, listed first: the catalog ids it answers, in its own words where
    they differ from the catalog's (browse's `/` finds a file)."""

    title: str
    ids: tuple[str, ...]
    descriptions: Mapping[str, str] = {}


def help_content(keymap: Keymap, here: Here | None = None) -> Content:
    """The help text for a keymap (plain data, no markup parsed); ``here``: a screen's keys,
    before the whole list (which is every screen's, the review's for the most part)."""
    parts: list[Content] = []
    width = max(len(key_names(keymap.keys_for(spec.id))) for spec in SPECS) + 2
    width = min(width, 24)

    def line(spec: BindingSpec, *, description: str = "", noted: bool = True) -> Content:
        keys = key_names(keymap.keys_for(spec.id)) or UNBOUND_TEXT
        note = _CONTEXT_NOTES.get(spec.context, "") if noted else ""
        gap = max(2, width - len(keys))  # never run into the description
        return Content.assemble(
            ("  " + keys + " " * gap, "$text-primary"),
            description or spec.description,
            (f"  {note}" if note else "", "$text-muted"),
            (f"  [{spec.id}]", "$text-muted"),
        )

    if here is not None:
        parts.append(Content.styled(here.title, "bold $text-accent"))
        for binding_id in here.ids:
            said = here.descriptions.get(binding_id, "")
            parts.append(line(BY_ID[binding_id], description=said, noted=False))
        parts += [Content(""), Content.styled("Every key, on every screen", "bold $text-accent")]
        parts.append(Content(""))
    for group in GROUPS:
        specs = [spec for spec in SPECS if spec.group == group]
        if not specs:
            continue
        parts.append(Content.styled(group, "bold $text-accent"))
        parts.extend(line(spec) for spec in specs)
        parts.append(Content(""))
    for title, text in _TOPICS:
        parts.append(Content.styled(title, "bold $text-accent"))
        parts.append(Content.styled(text, "$text-muted"))
        parts.append(Content(""))
    parts.append(
        Content.styled(
            f"Keymap: {keymap.preset}"
            + (f" + {', '.join(keymap.sources[1:])}" if len(keymap.sources) > 1 else "")
            + ". Command palette: ctrl+p.",
            "$text-muted",
        )
    )
    return Content("\n").join(parts)


class HelpScreen(Dialog[None]):
    """Lists every binding by group, with the keys of the active keymap."""

    DEFAULT_CSS = dialog_css(__file__)
    BINDINGS = [*bindings_for("dialog"), *bindings_for("help")]

    def __init__(self, keymap: Keymap, here: Here | None = None) -> None:
        """``here``: the keys of the screen it is opened on, listed first (None: the review's,
        which the whole list is laid out for)."""
        super().__init__()
        self.keymap, self.here = keymap, here

    def compose(self) -> ComposeResult:
        with InstantScroll(id="help-dialog") as dialog:
            dialog.border_title = "Keys"
            dialog.border_subtitle = "escape close"
            yield Static(help_content(self.keymap, self.here), id="help-text")

    def status(self) -> Content:
        return Content("keys → this list of keys")

    def reopen(self, keymap: Keymap, here: Here | None = None) -> None:
        if keymap is not self.keymap or here != self.here:
            self.keymap, self.here = keymap, here
            self.query_one("#help-text", Static).update(help_content(keymap, here))
        self.query_one("#help-dialog", InstantScroll).scroll_home(animate=False, immediate=True)

    def action_scroll_help(self, lines: int) -> None:
        """`j` and `k`: a line down or up, as the arrows scroll it."""
        self.query_one("#help-dialog", InstantScroll).scroll_relative(
            y=lines, animate=False, immediate=True
        )

    def action_close(self) -> None:
        self.dismiss(None)
