"""Quotes of a reStructuredText document as it renders (Sphinx's page, a code host's): verified
(`normalized`) at the file's own lines once links and roles are read as their text and
underlines, directives, list marks and table borders are left out; literal blocks are left as
written. A real repository for each case."""

from __future__ import annotations

from pathlib import Path

import pytest
from evidencekit import make_repo

from evidence.anchoring import Anchorer
from evidence.anchoring.rst_text import rst_text
from evidence.model import Anchor, Quote, Tier
from evidence.revision import Revision

GUIDE = """\
=====================
Operating the archive
=====================

The archive **never** deletes a note. See `the retention policy <retention.html>`_ for how
long notes are kept, and :func:`~tools.purge.purge` for the one exception.

Limits
------

.. note:: A dropped batch stays in the outbox until an operator retries it.

* Tokens are read once at start.
* Rotating a token needs a restart [#]_.

Run it like this::

    assay check --strict `not a link <x>`_

+------------+---------+
| max_batch  | 50      |
+------------+---------+

.. [#] Plan the restart for a quiet hour.
"""
NOTE = "rst: read as it renders (links and roles as their text; no underlines, marks)"


def anchored(tmp_path: Path, text: str) -> Anchor:
    repo = tmp_path / "repo"
    if not repo.exists():
        make_repo(repo, {"docs/guide.rst": GUIDE})
    with Revision.open(repo) as revision:
        return Anchorer(revision).anchor(Quote(text, "docs/guide.rst", None, 1, 1, "RS-CLM-x", 0))


@pytest.mark.parametrize(
    ("quote", "lines"),
    [
        (
            "The archive never deletes a note. See the retention policy for how long notes are "
            "kept, and purge() for the one exception.",
            (5, 6),
        ),
        ("Note A dropped batch stays in the outbox", (11, 11)),
        ("Rotating a token needs a restart.", (14, 14)),
        ("Run it like this: assay check --strict", (16, 18)),
        ("max_batch 50", (21, 21)),
    ],
)
def test_what_the_page_shows_is_verified_at_its_lines(
    tmp_path: Path, quote: str, lines: tuple[int, int]
) -> None:
    anchor = anchored(tmp_path, quote)
    assert (anchor.match, anchor.lines, anchor.notes) == (Tier.NORMALIZED, lines, (NOTE,))


def test_literal_blocks_are_left_as_written() -> None:
    rendered = rst_text(GUIDE)
    assert rendered is not None
    lines = rendered.split("\n")
    assert len(lines) == len(GUIDE.split("\n"))
    assert lines[:3] == ["", "Operating the archive", ""]  # a title's over- and underline
    assert lines[17] == "    assay check --strict `not a link <x>`_"
    assert lines[19] == lines[21] == ""  # a grid table's borders
    assert lines[23] == "Plan the restart for a quiet hour."  # a footnote's text
    assert rst_text("Plain words.\n") is None


def test_roles_are_read_with_their_domains_and_no_longer_names() -> None:
    assert rst_text("see :py:meth:`~a.B.run` and :ref:`the setup <setup>`\n") == (
        "see run() and the setup\n"
    )


def test_functions_end_in_parentheses_unless_titled_as_sphinx_shows_them() -> None:
    text = ":func:`go` :c:func:`f()` :func:`Start it <go>` :class:`~a.Box` :meth:`~a.Box.put`\n"
    assert rst_text(text) == "go() f() Start it Box put()\n"


def test_the_documents_substitutions_show_their_text(tmp_path: Path) -> None:
    doc = (
        "|project| keeps every note |copy| and |version|.\n"
        "|logo|\n"
        "\n"
        ".. |project| replace:: Kestrel\n"
        ".. |copy| unicode:: U+00A9 .. the sign\n"
        ".. |logo| image:: logo.png\n"
    )
    rendered = rst_text(doc)
    assert rendered is not None
    # |version| comes from Sphinx's configuration, not the document: left as written
    assert rendered.split("\n")[:2] == ["Kestrel keeps every note © and |version|.", ""]
    make_repo(tmp_path / "repo", {"docs/about.rst": doc})
    quote = Quote("Kestrel keeps every note", "docs/about.rst", None, 1, 1, "RS-CLM-x", 0)
    with Revision.open(tmp_path / "repo") as revision:
        anchor = Anchorer(revision).anchor(quote)
    assert (anchor.match, anchor.lines, anchor.notes) == (Tier.NORMALIZED, (1, 1), (NOTE,))
