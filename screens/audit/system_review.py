"""A system's review opened from the audit screen: the review screen as it is, plus the key
back to the audit (escape by default, which is also `record_target`'s: it first gives the verdict
keys back to the record, then goes back)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from textual.app import SystemCommand

from keymaps import BY_ID, short_keys
from keymaps.bindings import bindings
from keymaps.display import UNBOUND_TEXT
from screens.review.screen import ReviewScreen


class SystemReviewScreen(ReviewScreen):
    """The review screen of one system of an audit; `audit_return` goes back to the audit."""

    BINDINGS = [
        *bindings(["audit_return"], shown=True, descriptions={"audit_return": "Systems"}),
        *ReviewScreen.BINDINGS,
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

    def palette_commands(self) -> Iterator[SystemCommand]:
        """Back to the audit first (the way back when a keymap leaves audit_return unbound),
        then the review's."""
        spec = BY_ID["audit_return"]
        keys = short_keys(self.keymap.keys_for(spec.id), ", ") or UNBOUND_TEXT
        yield SystemCommand(spec.description, f"{spec.group} · {keys}", self.action_audit_return)
        yield from super().palette_commands()

    def action_audit_return(self) -> None:
        """Back to the audit (which reads its counts once this screen's writes are stored); when
        the key is also `record_target`'s and a quote is the target, the record first."""
        shared = set(self.keymap.keys_for("audit_return")) & set(
            self.keymap.keys_for("record_target")
        )
        if shared and self.state.target_quote() is not None:
            self.moves.to_record()
            return
        self.dismiss(None)
