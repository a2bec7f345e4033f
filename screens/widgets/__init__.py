"""Widgets of the assay app."""
