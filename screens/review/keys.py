"""The review screen's actions, by binding id: each runs through the action of the part it moves
(`move`, `motion`, `lookup`, `verdict`, `drift`, `view`), its name and step as parameters.

The catalog's actions (keymaps/catalog.py) stay those of the other screens that share these ids
(browse, the audit); ids not listed here keep the catalog's action (`verdict('confirmed')`: the
verdict keys name the verdict, as these name what they do).
"""

from __future__ import annotations

ACTIONS: dict[str, str] = {
    "move_down": "motion('line', 1)",
    "move_up": "motion('line', -1)",
    "to_top": "motion('top', 1)",
    "to_top_twice": "motion('top', 2)",
    "to_bottom": "motion('bottom')",
    "half_page_down": "motion('half_page', 1)",
    "half_page_up": "motion('half_page', -1)",
    "next_record": "move('record', 1)",
    "prev_record": "move('record', -1)",
    "next_unreviewed": "move('unreviewed', 1)",
    "next_quote": "move('quote', 1)",
    "prev_quote": "move('quote', -1)",
    "record_target": "move('target')",
    "back": "move('back')",
    "forward": "move('forward')",
    "note": "verdict('note')",
    "undo": "verdict('undo')",
    "redo": "verdict('redo')",
    "note_drift": "verdict('note_drift')",
    "export": "verdict('export')",
    "find": "lookup('find')",
    "open_file": "lookup('open_file')",
    "grep": "lookup('grep')",
    "goto_line": "lookup('goto_line')",
    "find_in_file": "lookup('find_in_file')",
    "find_next": "lookup('find_again', 1)",
    "find_prev": "lookup('find_again', -1)",
    "permalink": "lookup('permalink')",
    "backlinks": "lookup('backlinks')",
    "against": "drift('ask')",
    "source_against": "drift('source')",
    "next_pane": "view('pane', 1)",
    "prev_pane": "view('pane', -1)",
    "diff": "view('diff')",
    "diff_full": "view('diff_full')",
    "filter": "view('filter')",
    "group_results": "view('grouping')",
    "toggle_records": "view('records')",
}
