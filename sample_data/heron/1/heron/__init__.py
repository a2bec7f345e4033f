"""Heron: tide gauge reader and uploader."""

__version__ = "0.4.1"
