"""Textual screens of the assay app, one module each."""
