"""git plumbing for evidence/revision.py, safe on untrusted repositories.

- process.py: the environment and `-c` overrides every git process runs with, `RevisionError`.
- tree.py: the tree of a commit (`ls-tree`), `TreeEntry`, `normalize_path`.
- repo.py: `open_repo`, a GitPython Repo whose git processes run safely; `find_repository`.
- reader.py: `RepoReader`, one repository through GitPython: the tree, blobs (cat-file), the
  commit's subject and author, remotes from its config reader.
- blobs.py: blobs decoded for display, and the cache of their texts.
- grep.py: `git grep` at a commit, its hits streamed as `GrepHit`s with match spans.

Import the public names from evidence.revision.
"""
