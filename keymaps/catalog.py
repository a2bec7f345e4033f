"""Every binding of assay: its id, action, description and help group.

The keys themselves live in the preset TOML files beside this module; the catalog is the one list
of what can be bound, so the loader can reject an unknown id and the help screen can list them all.
"""

from typing import NamedTuple


# Real annotations, not `from __future__ import annotations`: a NamedTuple compiles each one
# given as a string when its class is made, before the review app's first frame.
class BindingSpec(NamedTuple):
    """One bindable action: an id users remap, the action it runs, and where it shows."""

    id: str
    action: str
    description: str
    group: str
    context: str = "review"  # the screen (or modal) whose BINDINGS hold it
    show: bool = True  # shown in the footer


#: Help groups, in the order the help screen lists them.
GROUPS: tuple[str, ...] = (
    "Move",
    "Verdicts",
    "Jump",
    "Source",
    "View",
    "Audit",
    "App",
    "Dialogs",
)

#: the review's bindings the audit screen holds beside its own (screens/audit/screen.py)
AUDIT_SCREEN_IDS: tuple[str, ...] = (
    "move_down",
    "move_up",
    "find",
    "filter",
    "help",
    "quit",
    "toggle_theme",
)

SPECS: tuple[BindingSpec, ...] = (
    # move
    BindingSpec("move_down", "move_down", "Down", "Move", show=False),
    BindingSpec("move_up", "move_up", "Up", "Move", show=False),
    BindingSpec("next_record", "next_record", "Next record", "Move"),
    BindingSpec("prev_record", "prev_record", "Previous record", "Move", show=False),
    BindingSpec("next_unreviewed", "next_unreviewed", "Next unreviewed", "Move", show=False),
    BindingSpec("next_quote", "next_quote", "Next quote", "Move"),
    BindingSpec("prev_quote", "prev_quote", "Previous quote", "Move", show=False),
    BindingSpec("to_top", "to_top", "Top of the pane", "Move", show=False),
    BindingSpec("to_top_twice", "to_top(2)", "Top of the pane (pressed twice)", "Move", show=False),
    BindingSpec("to_bottom", "to_bottom", "Bottom of the pane", "Move", show=False),
    BindingSpec("half_page_down", "half_page(1)", "Half a page down", "Move", show=False),
    BindingSpec("half_page_up", "half_page(-1)", "Half a page up", "Move", show=False),
    BindingSpec("next_pane", "next_pane", "Next pane", "Move", show=False),
    BindingSpec("prev_pane", "prev_pane", "Previous pane", "Move", show=False),
    # the record pane, focused: its lines scroll a page, or to its top or bottom
    BindingSpec("record_page_down", "page_down", "Page down", "Move", "record", show=False),
    BindingSpec("record_page_up", "page_up", "Page up", "Move", "record", show=False),
    BindingSpec("record_top", "first", "Top of the record", "Move", "record", show=False),
    BindingSpec("record_bottom", "last", "Bottom of the record", "Move", "record", show=False),
    # verdicts
    BindingSpec("confirm", "verdict('confirmed')", "Confirm", "Verdicts"),
    BindingSpec("refute", "verdict('refuted')", "Refute", "Verdicts"),
    BindingSpec("unclear", "verdict('unclear')", "Unclear", "Verdicts"),
    BindingSpec("skip", "verdict('skip')", "Skip", "Verdicts"),
    # the same on every result of the record's group (as the filter shows it), asked first
    BindingSpec(
        "confirm_group",
        "verdict('confirmed', 'group')",
        "Confirm the group",
        "Verdicts",
        show=False,
    ),
    BindingSpec(
        "refute_group", "verdict('refuted', 'group')", "Refute the group", "Verdicts", show=False
    ),
    BindingSpec(
        "unclear_group", "verdict('unclear', 'group')", "Unclear: the group", "Verdicts", show=False
    ),
    BindingSpec("skip_group", "verdict('skip', 'group')", "Skip the group", "Verdicts", show=False),
    BindingSpec("note", "note", "Note", "Verdicts"),
    BindingSpec("record_target", "target_record", "Verdicts on the record", "Verdicts", show=False),
    BindingSpec("undo", "undo", "Undo your last change", "Verdicts", show=False),
    BindingSpec("redo", "redo", "Redo what was undone", "Verdicts", show=False),
    BindingSpec("stale_verdicts", "stale_verdicts", "Stale verdicts", "Verdicts", show=False),
    # jump
    BindingSpec("follow", "follow", "Follow", "Jump", show=False),
    BindingSpec("back", "back", "Back", "Jump", show=False),
    BindingSpec("forward", "forward", "Forward", "Jump", show=False),
    BindingSpec("find", "find", "Find", "Jump"),
    # source lookup (screens of the lookup part, pushed from the review screen)
    BindingSpec("open_file", "open_file", "Open file", "Source", show=False),
    BindingSpec("grep", "grep", "Grep revision", "Source", show=False),
    BindingSpec("goto_line", "goto_line", "Go to line", "Source", show=False),
    BindingSpec("find_in_file", "find_in_file", "Find in file", "Source", show=False),
    BindingSpec("find_next", "find_again(1)", "Next match in file", "Source", show=False),
    BindingSpec("find_prev", "find_again(-1)", "Previous match in file", "Source", show=False),
    BindingSpec("permalink", "permalink", "Copy permalink", "Source", show=False),
    BindingSpec("backlinks", "backlinks", "Backlinks", "Source", show=False),
    BindingSpec("diff", "diff", "Quote/source diff", "Source", show=False),
    BindingSpec("diff_full", "diff_full", "Diff over the source / below it", "Source", show=False),
    # the source pane, focused: lines longer than the pane scroll sideways
    BindingSpec("source_right", "scroll_code(1)", "Code: scroll right", "Source", "source", False),
    BindingSpec("source_left", "scroll_code(-1)", "Code: scroll left", "Source", "source", False),
    BindingSpec(
        "source_line_start", "scroll_code(0)", "Code: from column 1", "Source", "source", False
    ),
    # drift against a newer revision (screens/review/drift.py)
    BindingSpec("against", "against", "Drift against a revision", "Source", show=False),
    BindingSpec(
        "source_against", "source_against", "Quote or file at cited/REV", "Source", show=False
    ),
    BindingSpec("note_drift", "note_drift", "Note the drift", "Verdicts", show=False),
    # view
    BindingSpec("filter", "cycle_filter", "Filter", "View", show=False),
    # shown (and active) only when SARIF results are loaded (ReviewScreen.check_action)
    BindingSpec("group_results", "cycle_grouping", "Group by", "View"),
    BindingSpec("toggle_records", "toggle_records", "Show/hide records list", "View", show=False),
    BindingSpec("toggle_theme", "toggle_theme", "Dark/light theme", "View", show=False),
    # the audit screen (screens/audit/) and a system's review opened from it
    BindingSpec("open_system", "open_system", "Open the system", "Audit", context="audit"),
    BindingSpec("audit_return", "audit_return", "Back to the audit", "Audit", "audit_review"),
    # app
    BindingSpec("export", "export", "Save the write-up (md)", "App", show=False),
    BindingSpec("help", "help", "Help", "App"),
    BindingSpec("quit", "quit", "Quit", "App"),
    # dialogs
    BindingSpec("note_save", "save", "Save note", "Dialogs", context="note"),
    BindingSpec("note_cancel", "cancel", "Cancel", "Dialogs", context="note"),
    BindingSpec("confirm_yes", "yes", "Yes", "Dialogs", context="confirm"),
    BindingSpec("confirm_no", "no", "No", "Dialogs", context="confirm"),
    BindingSpec("close_dialog", "close", "Close", "Dialogs", context="dialog"),
    # the help's list of keys (its arrows and page keys scroll it as any list does)
    BindingSpec("help_down", "scroll_help(1)", "Scroll down", "Dialogs", "help", show=False),
    BindingSpec("help_up", "scroll_help(-1)", "Scroll up", "Dialogs", "help", show=False),
    # the list of stale verdicts (screens/stale.py)
    BindingSpec("stale_clear", "clear_stale", "Clear the stale verdict", "Dialogs", "stale"),
    # the grep dialog (screens/grep.py)
    BindingSpec("grep_fixed", "toggle_fixed", "Regex/fixed string", "Dialogs", context="grep"),
    BindingSpec("grep_case", "toggle_case", "Match/ignore case", "Dialogs", context="grep"),
    BindingSpec(
        "grep_results", "focus_results", "Grep results", "Dialogs", context="grep", show=False
    ),
)

BY_ID: dict[str, BindingSpec] = {spec.id: spec for spec in SPECS}


def specs_for(context: str) -> tuple[BindingSpec, ...]:
    """The binding specs of one screen or modal."""
    return tuple(spec for spec in SPECS if spec.context == context)
