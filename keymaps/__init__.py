"""Binding ids, keymap presets and the loader for user overrides."""
