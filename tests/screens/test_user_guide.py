"""The user guide's screenshots are the snapshot files, byte for byte, and every image exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SNAPSHOTS = ROOT / "tests" / "snapshots" / "__snapshots__"
REVIEW = "test_review_snapshots/"
IMAGES = {
    "review-200x50.svg": REVIEW + "TestReviewScreen.test_review_200x50.svg",
    "review-80x24.svg": REVIEW + "TestReviewScreen.test_review_80x24.svg",
    "fuzzy-diff.svg": REVIEW + "TestSourcePane.test_fuzzy_quote_diff.svg",
    "large-file.svg": REVIEW + "TestSourcePane.test_large_file_at_a_quote_near_its_end.svg",
    "help.svg": REVIEW + "TestDialogs.test_help.svg",
    "drift.svg": REVIEW + "TestDrift.test_drift_view[120x40].svg",
    "note.svg": REVIEW + "TestDialogs.test_note_modal.svg",
    "untrusted-text.svg": REVIEW + "TestUntrustedText.test_record_with_markup_and_escapes.svg",
    "sarif-triage.svg": REVIEW + "TestSarifTriage.test_by_rule_120x40.svg",
    "stale.svg": "test_stale_snapshots/test_stale_list[120x40].svg",
}


def test_guide_images_exist_and_match_the_snapshots() -> None:
    guide = (ROOT / "docs" / "user-guide.md").read_text(encoding="utf-8")
    linked = set(re.findall(r"\(images/([^)]+\.svg)\)", guide))
    assert linked == set(IMAGES)
    for image, snapshot in IMAGES.items():
        shown = (ROOT / "docs" / "images" / image).read_bytes()
        assert shown == (SNAPSHOTS / snapshot).read_bytes(), (
            f"docs/images/{image} differs from its snapshot; copy {snapshot} over it"
        )


def test_guide_lists_every_default_key_binding_group() -> None:
    guide = (ROOT / "docs" / "user-guide.md").read_text(encoding="utf-8")
    for key in ("`c` `r` `u` `s`", "`space`", "`/`", "`z`", "`d`", "`f`", "ctrl+p"):
        assert key in guide


def test_guide_keymap_example_is_a_keymap_assay_loads(tmp_path: Path) -> None:
    from keymaps import load_keymap

    guide = (ROOT / "docs" / "user-guide.md").read_text(encoding="utf-8")
    (example,) = re.findall(r"```toml\n(.*?)```", guide, re.DOTALL)
    path = tmp_path / "keymap.toml"
    path.write_text(example, encoding="utf-8")
    keymap = load_keymap(user_file=path)  # no unknown id, no key given to two actions
    assert keymap.preset == "vim" and keymap.keys_for("quit") == ()
