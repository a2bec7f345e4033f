"""A repository another user owns: git's "dubious ownership" refusal comes with what to do, and
the user's own safe.directory entries (their global config, read as a file) are honoured."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from evidencekit import make_repo

from evidence.git.safe_directories import safe_directories
from evidence.revision import Revision, RevisionError

CONFIG = """\
[user]
\tname = Ann
[safe]
\tdirectory = /srv/one
\tdirectory = "/srv/two words" ; a comment
[safe "sub"]
\tdirectory = /not/this
[Safe] Directory = /srv/three
[core]
\tdirectory = /not/this/either
"""


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("GIT_CONFIG_GLOBAL", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    return home


def test_the_entries_are_read_from_the_global_config_files(home: Path) -> None:
    assert safe_directories() == ()
    (home / ".gitconfig").write_text(CONFIG, encoding="utf-8")
    assert safe_directories() == ("/srv/one", "/srv/two words", "/srv/three")
    xdg = home / ".config" / "git"
    xdg.mkdir(parents=True)
    # git reads the XDG file first; an empty value clears the entries before it
    (xdg / "config").write_text("[safe]\n\tdirectory = /srv/xdg\n", encoding="utf-8")
    assert safe_directories()[0] == "/srv/xdg"
    (home / ".gitconfig").write_text("[safe]\n\tdirectory =\n\tdirectory = *\n")
    assert safe_directories() == ("*",)


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a repository to another user needs root")
def test_a_repository_of_another_user_gets_a_hint_or_opens_when_trusted(
    tmp_path: Path, home: Path
) -> None:
    repo = tmp_path / "theirs"
    make_repo(repo, {"a.py": "x = 1\n"})
    for path in [repo, *repo.rglob("*")]:
        os.lchown(path, 65534, 65534)  # nobody
    with pytest.raises(RevisionError) as refused:
        Revision.open(repo)
    message = str(refused.value)
    assert "another user owns it" in message
    assert f"git config --global --add safe.directory {repo}" in message
    (home / ".gitconfig").write_text(f"[safe]\n\tdirectory = {repo}\n", encoding="utf-8")
    with Revision.open(repo) as revision:
        assert revision.read("a.py").text == "x = 1\n"
