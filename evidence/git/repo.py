"""GitPython on an untrusted repository: a `git.Repo` whose every git process runs safely.

`open_repo` gives a Repo whose Git command object carries SAFE_CONFIG as persistent ``-c``
options and `safe_environment()` (so the repository's config cannot run a program: no pager,
diff driver, textconv, external diff, hooks, fsmonitor, lazy fetch), and that never reads the
work tree or the index through it. Object reads go through GitPython's persistent cat-file
process (`GitCmdObjectDB`), started with the same options. `find_repository` is how ``--repo``
defaults to the repository containing the current directory.

The ``-c`` options cannot name every diff driver a repository's .gitattributes may select:
porcelain that diffs (``diff``, ``log -p``, ``show``) must be given ``--no-ext-diff
--no-textconv`` (tests/evidence/test_git_repo.py shows a plain ``git diff`` going wrong).
"""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evidence.git.process import SAFE_CONFIG, RevisionError, safe_environment
from evidence.text import shown_path

if TYPE_CHECKING:
    import git

__all__ = ["find_repository", "open_repo"]


def open_repo(path: str | Path, *, search_parent: bool = False) -> git.Repo:
    """A GitPython Repo of the repository at ``path`` (its work tree or git directory), set up so
    that nothing in it runs a program; RevisionError when it is not a readable repository.

    The caller closes it (``repo.close()`` stops its cat-file processes)."""
    import git

    target = Path(path)
    if not target.exists():
        raise RevisionError(f"{shown_path(path)}: no such directory")
    try:
        repo = _repo_class()(str(target), search_parent_directories=search_parent)
    except git.NoSuchPathError:
        raise RevisionError(f"{shown_path(path)}: no such directory") from None
    except git.InvalidGitRepositoryError:
        where = " or any parent directory" if search_parent else ""
        raise RevisionError(f"{shown_path(path)}{where}: not a git repository") from None
    except (git.GitError, OSError, ValueError) as error:
        raise RevisionError(f"{shown_path(path)}: cannot open the repository: {error}") from None
    env = safe_environment()
    # GitPython starts each git process from os.environ updated with these: what the safe
    # environment drops is emptied, and git is pointed at this repository's directory
    env.update({key: "" for key in os.environ if key not in env})
    env["GIT_DIR"] = git_dir = str(Path(repo.git_dir).resolve())
    repo.git.update_environment(**env)
    # no work tree is read: git is given its git directory as one, so that a core.worktree
    # naming a directory gone since (a submodule removed) does not make it refuse to run
    repo.git.set_persistent_git_options(
        c=list(SAFE_CONFIG), no_pager=True, no_replace_objects=True, work_tree=git_dir
    )
    return repo


@functools.cache
def _repo_class() -> type[git.Repo]:
    import git

    class Repo(git.Repo):
        """GitPython's Repo reading configuration without conditional includes.

        GitPython evaluates ``includeIf`` (gitdir, gitdir/i, onbranch, hasconfig) while the Repo
        is half built and raises AttributeError on each; assay reads nothing from the
        configuration that such an include could set, and the git processes it runs evaluate
        them themselves (under SAFE_CONFIG).
        """

        def _config_reader(
            self, config_level: Any = None, git_dir: Any = None
        ) -> git.GitConfigParser:
            reader = super()._config_reader(config_level, git_dir)
            reader._repo = None  # no repository: conditional includes are left out
            return reader

    return Repo


def find_repository(start: str | Path = ".") -> Path:
    """The top of the repository containing ``start`` (searching parent directories), for
    ``--repo``'s default; RevisionError when there is none."""
    repo = open_repo(start, search_parent=True)
    try:
        top = repo.working_tree_dir or repo.git_dir
        return Path(str(top))
    finally:
        repo.close()
