"""The assay app: CLI entry, app factory, widgets."""
