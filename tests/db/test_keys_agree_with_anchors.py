"""A quote's stable key and its anchor normalize it the same way.

Two quote texts share a key exactly when the anchorer takes them for the same quote, but for
accents written as separate marks (NFD), which the anchorer composes and the key does not (a key
must not change under a verdict given): a damaged copy (bullets, list markers, lost emphasis,
typographic quotes, newlines collapsed) keeps the key of the clean quote and is anchored at the
clean quote's lines; an edited token changes both.
"""

from __future__ import annotations

import hashlib
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from db import keys
from evidence import anchoring
from evidence.anchoring.forms import FileView, quote_forms
from evidence.anchoring.tiers import find_verified
from evidence.model import Tier

SOURCE = """\
# Deploying

steps:
  - run: make test
  - run: make `deploy` --env **prod**

1. Build the image with "docker build".
2. Push it; never retag it.

def handle(request):
    return route(request.path)
"""

# (the clean quote, copies a report may hold of it)
SAME = [
    (
        "steps:\n  - run: make test",
        [
            "steps:\n- run: make test",
            "steps:\n  + run: make test",
            "steps:\n• run: make test",
            "steps:\n\n  *  run:   make test",
        ],
    ),
    (
        "- run: make `deploy` --env **prod**",
        [
            "run: make deploy --env prod",
            "• run: make `deploy` --env *prod*",
            "+ run: make deploy --env prod",
        ],
    ),
    (
        '1. Build the image with "docker build".\n2. Push it; never retag it.',
        [
            "Build the image with “docker build”. Push it; never retag it.",
            '• Build the image with "docker build". • Push it; never retag it.',
            '1) Build the image with "docker build".\n2) Push it; never retag it.',
        ],
    ),
    (
        "def handle(request):\n    return route(request.path)",
        [
            "• def handle(request): return `route`(request.*path*)",
            "def handle(request):\treturn route(request.path)",
        ],
    ),
]
# (a quote, an edited copy: another quote for both)
OTHER = [
    ("steps:\n  - run: make test", "steps:\n  - run: make tests"),
    ('Build the image with "docker build".', "Build the image with 'docker build'."),
    ("return route(request.path)", "return route(request.paths)"),
]


def anchored_lines(text: str) -> tuple[Tier, tuple[tuple[int, int], ...]]:
    found = find_verified(quote_forms(text), FileView(SOURCE))
    return found.tier, found.spans


def test_keys_use_the_anchorers_normalization() -> None:
    assert keys.normalize_quote is anchoring.normalize_quote


@pytest.mark.parametrize(("clean", "copies"), SAME)
def test_a_damaged_copy_keeps_the_key_and_the_anchor(clean: str, copies: list[str]) -> None:
    tier, lines = anchored_lines(clean)
    assert tier is not Tier.MISSING and lines
    for copy in copies:
        assert keys.quote_hash(copy) == keys.quote_hash(clean), copy
        copy_tier, copy_lines = anchored_lines(copy)
        assert copy_tier is not Tier.MISSING and copy_lines == lines, copy


@pytest.mark.parametrize(("quote", "edited"), OTHER)
def test_an_edited_copy_changes_the_key_and_is_not_verified(quote: str, edited: str) -> None:
    assert keys.quote_hash(edited) != keys.quote_hash(quote)
    assert anchored_lines(quote)[0] is not Tier.MISSING
    assert anchored_lines(edited)[0] is Tier.MISSING


@given(st.text())
def test_the_key_hashes_the_form_the_anchorer_compares(text: str) -> None:
    keyed = anchoring.normalize_quote(text)
    # the anchorer's form is the key's with accents composed (NFC), and only that
    assert quote_forms(text).normalized == unicodedata.normalize("NFC", keyed)
    expected = hashlib.sha256(keyed.encode("utf-8", "surrogatepass")).hexdigest()
    assert keys.quote_hash(text) == expected[: keys.QUOTE_HASH_LENGTH]


def test_a_quote_in_decomposed_letters_keeps_its_key_and_anchors_as_the_composed_one() -> None:
    composed = "café = 1"
    decomposed = unicodedata.normalize("NFD", composed)
    assert quote_forms(decomposed).normalized == quote_forms(composed).normalized
    assert keys.quote_hash(decomposed) != keys.quote_hash(composed)  # as before: never moved
