"""A system's review opened from the audit screen: the review screen as it is, plus the key
back to the audit (escape by default, which is also `record_target`'s: it first gives the verdict
keys back to the record, then goes back; the footer names the one it does now)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from textual.app import SystemCommand
from textual.binding import Binding

from keymaps import BY_ID, short_keys
from keymaps.bindings import bindings
from keymaps.display import UNBOUND_TEXT
from screens.review.keys import ACTIONS
from screens.review.screen import ReviewScreen

#: record_target's action on the review screen (`move('target')`), as check_action is given it
_TARGET = ("move", ("target",))


class SystemReviewScreen(ReviewScreen):
    """The review screen of one system of an audit; `audit_return` goes back to the audit."""

    BINDINGS = [
        *bindings(["audit_return"], shown=True, descriptions={"audit_return": "Systems"}),
        # shown while a quote is the target: the footer then says what escape does
        *bindings(
            ["record_target"],
            shown=True,
            descriptions={"record_target": "Record"},
            actions={"record_target": ACTIONS["record_target"]},
        ),
        *(
            binding
            for binding in ReviewScreen.BINDINGS
            if not isinstance(binding, Binding) or binding.id != "record_target"
        ),
    ]

    def __init__(
        self,
        *args: object,
        system: int,
        name: str | None = None,
        anchor_cache: Path | None = None,
        **options: object,
    ) -> None:
        super().__init__(*args, anchor_cache=anchor_cache, **options)  # type: ignore[arg-type]
        self.system_index = system
        # the header names the audit's system: a scan's runs name only their scanner ("ruff")
        self.header.system = name
        self._on_quote = False  # a quote was the target when the footer was last told
        self.state.watch({"location", "on_quote", "opened"}, self._target_changed)

    def _target_changed(self) -> None:
        on_quote = self.state.target_quote() is not None
        if on_quote != self._on_quote:
            self._on_quote = on_quote
            self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # of the two, only the one escape does now is active and shown: on a quote the record,
        # else the systems (record_target does nothing on the record)
        on_quote = self.state.target_quote() is not None
        if action == "audit_return" and on_quote and self._shared():
            return False
        if (action, parameters) == _TARGET and not on_quote:
            return False
        return super().check_action(action, parameters)

    def _shared(self) -> bool:
        """Whether a key of audit_return is also record_target's (escape, by default)."""
        return bool(
            set(self.keymap.keys_for("audit_return")) & set(self.keymap.keys_for("record_target"))
        )

    def palette_commands(self) -> Iterator[SystemCommand]:
        """Back to the audit first (the way back when a keymap leaves audit_return unbound),
        then the review's."""
        spec = BY_ID["audit_return"]
        keys = short_keys(self.keymap.keys_for(spec.id), ", ") or UNBOUND_TEXT
        yield SystemCommand(spec.description, f"{spec.group} · {keys}", self.action_audit_return)
        yield from super().palette_commands()

    def action_audit_return(self) -> None:
        """Back to the audit (which reads its counts once this screen's writes are stored). A
        key shared with record_target reaches here only when the record is the target
        (`check_action`); the palette comes back at once."""
        self.dismiss(None)
