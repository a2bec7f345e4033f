"""Kestrel: field notes and equipment tickets for remote field stations."""

__version__ = "0.3.0"
