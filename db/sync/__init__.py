"""`assay sync`: verdicts shared through a git repository (files.py: the verdict files;
engine.py: fetch, import, write, commit, push). Import from the modules."""
