"""One module per `assay` sub-command; tui.cli imports them lazily so start-up stays fast."""
