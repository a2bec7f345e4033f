"""An audit: many systems, each at its own repository and revision, named in ``assay.toml``."""
