"""A search reads a file that starts with a byte order mark as it is shown: without the mark.

git greps the bytes: the UTF-8 mark (EF BB BF) stands before line 1's text, so a pattern anchored
with ``^`` missed line 1 of a file saved by a Windows editor; UTF-32 texts are binary to git
(their NULs) and are searched as they are read, as UTF-16 ones are.
"""

from __future__ import annotations

from pathlib import Path

from evidencekit import make_repo

from evidence.revision import Revision

MARK = "\ufeff"


def hits(revision: Revision, pattern: str, **how: object) -> list[tuple[str, int, str, object]]:
    found = revision.grep(pattern, **how)  # type: ignore[arg-type]
    return [(hit.path, hit.line, hit.text, hit.spans) for hit in found]


def test_an_anchored_pattern_finds_line_1_after_a_utf8_mark(tmp_path: Path) -> None:
    root = tmp_path / "r"
    make_repo(
        root,
        {
            "src/app.py": MARK + "import os\nimport sys\n",
            "src/plain.py": "import re\n",
        },
    )
    with Revision.open(root) as revision:
        assert sorted(hits(revision, "^import")) == [
            ("src/app.py", 1, "import os", ((0, 6),)),
            ("src/app.py", 2, "import sys", ((0, 6),)),
            ("src/plain.py", 1, "import re", ((0, 6),)),
        ]
        assert sorted(hits(revision, "^import", syntax="extended", paths=["src/app.py"])) == [
            ("src/app.py", 1, "import os", ((0, 6),)),
            ("src/app.py", 2, "import sys", ((0, 6),)),
        ]
        assert hits(revision, "^import", paths=["src/plain.py"]) == [
            ("src/plain.py", 1, "import re", ((0, 6),))
        ]


def test_line_1_after_a_utf8_mark_is_shown_without_it(tmp_path: Path) -> None:
    # git's hit held the mark: the line showed an invisible character and its spans were one off
    root = tmp_path / "r"
    make_repo(root, {"app.cs": MARK + "using System;\n"})
    with Revision.open(root) as revision:
        assert hits(revision, "System", fixed=True) == [("app.cs", 1, "using System;", ((6, 12),))]
        assert hits(revision, "System", word=True) == [("app.cs", 1, "using System;", ((6, 12),))]


def test_a_match_that_needed_the_mark_is_not_a_hit(tmp_path: Path) -> None:
    # "a line not starting with #": git matched the mark itself on line 1
    root = tmp_path / "r"
    make_repo(root, {"run.ps1": MARK + "# header\nWrite-Host hi\n"})
    with Revision.open(root) as revision:
        assert hits(revision, "^[^#]") == [("run.ps1", 2, "Write-Host hi", ((0, 1),))]


def test_utf32_texts_are_searched_in_either_byte_order(tmp_path: Path) -> None:
    # UTF-32-LE was found only because its mark begins as UTF-16-LE's does
    root = tmp_path / "r"
    make_repo(
        root,
        {
            "le.txt": (MARK + "zero\nneedle le\n").encode("utf-32-le"),
            "be.txt": (MARK + "zero\nneedle be\n").encode("utf-32-be"),
            "a.py": "needle = 1\n",
        },
    )
    with Revision.open(root) as revision:
        assert hits(revision, "needle") == [
            ("a.py", 1, "needle = 1", ((0, 6),)),
            ("be.txt", 2, "needle be", ((0, 6),)),
            ("le.txt", 2, "needle le", ((0, 6),)),
        ]
        assert hits(revision, "^zero", paths=["be.txt"]) == [("be.txt", 1, "zero", ((0, 4),))]


def test_line_1_of_an_eight_bit_text_with_a_mark_is_one_hit(tmp_path: Path) -> None:
    root = tmp_path / "r"
    make_repo(root, {"legacy.txt": b"\xef\xbb\xbfcaf\xe9 line\n"})  # Windows-1252 after the mark
    with Revision.open(root) as revision:
        assert hits(revision, "^caf|line") == [
            ("legacy.txt", 1, "caf\u00e9 line", ((0, 3), (5, 9)))
        ]
