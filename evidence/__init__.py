"""The UI-free core of assay: report model and parser, revision reader, quote anchoring.

Nothing in this package may import textual or rich (checked by tests/test_boundaries.py).
"""
