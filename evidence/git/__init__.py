"""git plumbing for evidence/revision.py, safe on untrusted repositories.

- process.py: the environment and `-c` overrides every git process runs with, `RevisionError`.
- tree.py: the tree of a commit (`ls-tree`), `TreeEntry`, `normalize_path`.
- blobs.py: blobs through `cat-file --batch`, decoded for display, and the cache of their texts.
- grep.py: `git grep` at a commit, its hits streamed as `GrepHit`s with match spans.

Import the public names from evidence.revision.
"""
