"""Permalinks for each host style, from ssh and https remotes."""

from __future__ import annotations

from pathlib import Path

import pytest
from evidencekit import git, make_repo

from evidence.permalink import (
    HostStyle,
    Remote,
    host_style,
    line_fragment,
    link_for,
    local_reference,
    parse_remote,
    web_permalink,
)
from evidence.revision import Revision

SHA = "0123456789abcdef0123456789abcdef01234567"


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("git@github.com:acme/widget.git", Remote("https", "github.com", "acme/widget")),
        ("git@github.com:acme/widget", Remote("https", "github.com", "acme/widget")),
        ("github.com:acme/widget.git", Remote("https", "github.com", "acme/widget")),
        ("ssh://git@github.com/acme/widget.git", Remote("https", "github.com", "acme/widget")),
        ("ssh://git@gitlab.com:2222/g/sub/w.git", Remote("https", "gitlab.com", "g/sub/w")),
        ("git+ssh://git@github.com/acme/widget", Remote("https", "github.com", "acme/widget")),
        ("https://github.com/acme/widget", Remote("https", "github.com", "acme/widget")),
        ("https://github.com/acme/widget.git/", Remote("https", "github.com", "acme/widget")),
        ("https://GitHub.com/acme/widget.git", Remote("https", "github.com", "acme/widget")),
        (
            "https://user:s3cret@github.com/acme/widget.git",
            Remote("https", "github.com", "acme/widget"),
        ),
        ("https://oauth2:tok@gitlab.com/a/b.git", Remote("https", "gitlab.com", "a/b")),
        ("https://git.corp:8443/a/b.git", Remote("https", "git.corp:8443", "a/b")),
        ("https://github.com:443/a/b.git", Remote("https", "github.com", "a/b")),
        ("http://gitea.local/a/b.git", Remote("http", "gitea.local", "a/b")),
        ("git://github.com/a/b.git", Remote("https", "github.com", "a/b")),
    ],
)
def test_parse_remote(url: str, expected: Remote) -> None:
    assert parse_remote(url) == expected


@pytest.mark.parametrize(
    "url",
    [
        "",
        "/srv/git/widget.git",
        "./relative/repo",
        "file:///srv/git/widget.git",
        "C:\\repos\\widget",
        "https://github.com/onlyowner",
        "https://github.com/a/../b",
        "https://github.com/a\n/b",
        "https://github.com/a/b\x1b[31m",
        "https://github.com:notaport/a/b",
        "ftp://github.com/a/b",
    ],
)
def test_parse_remote_rejects_local_and_odd_remotes(url: str) -> None:
    assert parse_remote(url) is None


@pytest.mark.parametrize(
    ("host", "style"),
    [
        ("github.com", HostStyle.GITHUB),
        ("gitlab.com", HostStyle.GITLAB),
        ("bitbucket.org", HostStyle.BITBUCKET),
        ("bitbucket.example.com", HostStyle.BITBUCKET_SERVER),
        ("codeberg.org", HostStyle.GITEA),
        ("gitea.com", HostStyle.GITEA),
        ("gitlab.example.org", HostStyle.GITLAB),
        ("gitlab.example.org:8443", HostStyle.GITLAB),
        ("forgejo.example.net", HostStyle.GITEA),
        ("github.enterprise.corp", HostStyle.GITHUB),
        ("git.example.org", None),
        ("notgithub.io", None),
    ],
)
def test_host_style(host: str, style: HostStyle | None) -> None:
    assert host_style(host) is style


def test_host_style_configured_host_wins() -> None:
    assert host_style("git.example.org", {"git.example.org": "gitea"}) is HostStyle.GITEA
    assert host_style("git.example.org", {"git.example.org": "nonsense"}) is None


@pytest.mark.parametrize(
    ("style", "lines", "fragment"),
    [
        (HostStyle.GITHUB, (231, 236), "#L231-L236"),
        (HostStyle.GITHUB, (7, 7), "#L7"),
        (HostStyle.GITEA, (231, 236), "#L231-L236"),
        (HostStyle.GITLAB, (231, 236), "#L231-236"),
        (HostStyle.GITLAB, (7, 7), "#L7"),
        (HostStyle.BITBUCKET, (231, 236), "#lines-231:236"),
        (HostStyle.BITBUCKET, (7, 7), "#lines-7"),
        (HostStyle.BITBUCKET_SERVER, (231, 236), "#231-236"),
        (HostStyle.BITBUCKET_SERVER, (7, 7), "#7"),
        (HostStyle.GITHUB, (236, 231), "#L231-L236"),
        (HostStyle.GITHUB, None, ""),
    ],
)
def test_line_fragment(style: HostStyle, lines: tuple[int, int] | None, fragment: str) -> None:
    assert line_fragment(style, lines) == fragment


# every host style, from an ssh remote and from an https remote
HOST_CASES = [
    (
        "git@github.com:acme/widget.git",
        f"https://github.com/acme/widget/blob/{SHA}/src/app.py#L231-L236",
    ),
    (
        "https://github.com/acme/widget.git",
        f"https://github.com/acme/widget/blob/{SHA}/src/app.py#L231-L236",
    ),
    (
        "git@gitlab.com:acme/tools/widget.git",
        f"https://gitlab.com/acme/tools/widget/-/blob/{SHA}/src/app.py#L231-236",
    ),
    (
        "https://gitlab.com/acme/tools/widget",
        f"https://gitlab.com/acme/tools/widget/-/blob/{SHA}/src/app.py#L231-236",
    ),
    (
        "ssh://git@gitlab.example.org:2222/acme/widget.git",
        f"https://gitlab.example.org/acme/widget/-/blob/{SHA}/src/app.py#L231-236",
    ),
    (
        "git@bitbucket.org:acme/widget.git",
        f"https://bitbucket.org/acme/widget/src/{SHA}/src/app.py#lines-231:236",
    ),
    (
        "https://someone@bitbucket.org/acme/widget.git",
        f"https://bitbucket.org/acme/widget/src/{SHA}/src/app.py#lines-231:236",
    ),
    # self-hosted Bitbucket is Bitbucket Server (Data Center): another layout than bitbucket.org
    (
        "ssh://git@bitbucket.example.com:7999/proj/widget.git",
        f"https://bitbucket.example.com/projects/proj/repos/widget/browse/src/app.py?at={SHA}#231-236",
    ),
    (
        "https://alice@bitbucket.example.com/scm/proj/widget.git",
        f"https://bitbucket.example.com/projects/proj/repos/widget/browse/src/app.py?at={SHA}#231-236",
    ),
    (
        "https://bitbucket.corp:8443/context/scm/proj/widget.git",
        f"https://bitbucket.corp:8443/context/projects/proj/repos/widget/browse/src/app.py?at={SHA}#231-236",
    ),
    (
        "ssh://git@bitbucket.example.com:7999/~alice/widget.git",
        f"https://bitbucket.example.com/users/alice/repos/widget/browse/src/app.py?at={SHA}#231-236",
    ),
    (
        "git@codeberg.org:acme/widget.git",
        f"https://codeberg.org/acme/widget/src/commit/{SHA}/src/app.py#L231-L236",
    ),
    (
        "https://codeberg.org/acme/widget.git",
        f"https://codeberg.org/acme/widget/src/commit/{SHA}/src/app.py#L231-L236",
    ),
    (
        "ssh://git@gitea.example.com:2222/acme/widget.git",
        f"https://gitea.example.com/acme/widget/src/commit/{SHA}/src/app.py#L231-L236",
    ),
    (
        "https://forgejo.example.com:3000/acme/widget.git",
        f"https://forgejo.example.com:3000/acme/widget/src/commit/{SHA}/src/app.py#L231-L236",
    ),
]


@pytest.mark.parametrize(("remote", "url"), HOST_CASES)
def test_web_permalink_for_each_host_style(remote: str, url: str) -> None:
    assert web_permalink(remote, SHA, "src/app.py", (231, 236)) == url


def test_credentials_never_reach_the_link() -> None:
    url = web_permalink("https://alice:hunter2@github.com/acme/widget.git", SHA, "a.py", (1, 2))
    assert url is not None
    assert "hunter2" not in url and "alice" not in url


def test_web_permalink_without_lines_and_with_odd_path() -> None:
    url = web_permalink("git@github.com:a/b.git", SHA, "docs/read me#1?.md")
    assert url == f"https://github.com/a/b/blob/{SHA}/docs/read%20me%231%3F.md"


def test_a_name_that_is_not_utf8_is_linked_by_its_bytes() -> None:
    # git names such a file by its bytes (read here as lone surrogates); the host's page too
    url = web_permalink("git@github.com:a/b.git", SHA, "src/lat\udce9n.txt", (2, 2))
    assert url == f"https://github.com/a/b/blob/{SHA}/src/lat%E9n.txt#L2"


def test_a_local_reference_writes_a_names_controls_as_escapes() -> None:
    # printed by `assay show --permalink` and put on the clipboard: an escape sequence or an
    # undecodable byte of a file's name must neither drive the terminal nor fail to encode
    reference = local_reference("e\x1b[31m\u202e\nlat\udce9.txt", SHA, (3, 4))
    assert reference == f"e\\u001b[31m\\u202e\\u000alat\\udce9.txt:3-4@{SHA}"
    assert reference.isprintable() and reference.encode("utf-8")


def test_a_bitbucket_server_remote_of_another_shape_gives_no_link() -> None:
    odd = link_for("https://bitbucket.example.com/a/b/c.git", SHA, "x.py")
    assert not odd.web and odd.reason == "no web page of a/b/c on bitbucket.example.com"
    assert web_permalink("git@bitbucket.org:acme/widget.git", SHA, "x.py", (7, 7)) == (
        f"https://bitbucket.org/acme/widget/src/{SHA}/x.py#lines-7"
    )


def test_web_permalink_unknown_host_or_no_remote() -> None:
    assert web_permalink("git@git.example.org:a/b.git", SHA, "a.py", (1, 2)) is None
    assert web_permalink(None, SHA, "a.py", (1, 2)) is None
    assert web_permalink("/srv/repo.git", SHA, "a.py", (1, 2)) is None


def test_web_permalink_configured_host() -> None:
    url = web_permalink(
        "git@git.example.org:a/b.git", SHA, "a.py", (3, 4), hosts={"git.example.org": "gitlab"}
    )
    assert url == f"https://git.example.org/a/b/-/blob/{SHA}/a.py#L3-4"


def test_local_reference() -> None:
    assert local_reference("src/app.py", SHA, (231, 236)) == f"src/app.py:231-236@{SHA}"
    assert local_reference("src/app.py", SHA, (9, 9)) == f"src/app.py:9@{SHA}"
    assert local_reference("src/app.py", SHA) == f"src/app.py@{SHA}"


def test_link_for_falls_back_with_a_reason() -> None:
    web = link_for("git@github.com:a/b.git", SHA, "x.py", (1, 3))
    assert web.web and web.text.endswith("#L1-L3")
    none = link_for(None, SHA, "x.py", (1, 3))
    assert not none.web and none.text == f"x.py:1-3@{SHA}" and none.reason == "no remote"
    unknown = link_for("https://tok@git.example.org/a/b.git", SHA, "x.py", (1, 3))
    assert not unknown.web and unknown.reason == "unknown host git.example.org"
    assert "tok" not in unknown.reason
    local = link_for("/srv/b.git", SHA, "x.py", None)
    assert local.text == f"x.py@{SHA}" and local.reason == "remote is not a web host"


REMOTE_URLS = [
    "https://github.com/acme/kestrel.git",
    "git@github.com:acme/kestrel.git",
    "ssh://git@gitlab.example.com:2222/group/sub/kestrel.git",
    "https://user:secret@bitbucket.org/acme/kestrel",
    "git+ssh://git@codeberg.org/acme/kestrel",
]


@pytest.mark.parametrize("url", REMOTE_URLS)
def test_remote_url_from_the_config_reader_is_what_git_config_gives(
    url: str, tmp_path: Path
) -> None:
    """Remotes come from GitPython's config reader: the same URL `git config --get` prints, and
    the same permalink."""
    root = tmp_path / "r"
    make_repo(root, {"a.py": "x = 1\n"})
    git(root, "remote", "add", "origin", url)
    git(root, "remote", "add", "other", "https://example.org/first.git")
    git(root, "config", "--add", "remote.other.url", "https://example.org/second.git")
    with Revision.open(root) as revision:
        assert revision.remote_url() == git(root, "config", "--get", "remote.origin.url") == url
        assert revision.remote_url("other") == git(root, "config", "--get", "remote.other.url")
        assert revision.remote_url("missing") is None
        link = link_for(revision.remote_url(), revision.commit, "a.py", (1, 1))
        assert link == link_for(url, revision.commit, "a.py", (1, 1))


def test_remote_url_written_by_hand_reads_as_git_reads_it(tmp_path: Path) -> None:
    root = tmp_path / "r"
    make_repo(root, {"a.py": "x = 1\n"})
    with (root / ".git" / "config").open("a", encoding="utf-8") as config:
        config.write('[remote "origin"]\n\turl = "https://github.com/acme/kestrel.git"\n')
        config.write('[remote "up"]\n\turl = git@github.com:acme/up.git ; a comment\n')
    with Revision.open(root) as revision:
        for name in ("origin", "up"):
            assert revision.remote_url(name) == git(root, "config", "--get", f"remote.{name}.url")


def test_without_an_origin_the_one_remote_is_the_repositorys(tmp_path: Path) -> None:
    # `git clone -o github ...`: links named "no remote" though the clone has one
    root = tmp_path / "r"
    make_repo(root, {"a.py": "x = 1\n"})
    git(root, "remote", "add", "github", "git@github.com:acme/widget.git")
    with Revision.open(root) as revision:
        assert revision.remote_url() == "git@github.com:acme/widget.git"
        git(root, "remote", "add", "mirror", "git@gitlab.com:acme/widget.git")
    with Revision.open(root) as revision:  # two, neither origin: not guessed between
        assert revision.remote_url() is None
        assert revision.remote_url("mirror") == "git@gitlab.com:acme/widget.git"


#: Azure Repos selects lines from (line, column) to (lineEnd, lineEndColumn), the end not
#: included: lines 231-236 whole end at column 1 of line 237, as a click on the gutter gives
AZURE_QUERY = (
    f"?path=/src/app.py&version=GC{SHA}&line=231&lineEnd=237&lineStartColumn=1"
    "&lineEndColumn=1&lineStyle=plain&_a=contents"
)
AZURE = "https://dev.azure.com/acme/Tools/_git/widget"


@pytest.mark.parametrize(
    ("remote", "url"),
    [
        (AZURE, AZURE + AZURE_QUERY),
        (AZURE + ".git", AZURE + AZURE_QUERY),
        ("https://acme@dev.azure.com/acme/Tools/_git/widget", AZURE + AZURE_QUERY),
        ("git@ssh.dev.azure.com:v3/acme/Tools/widget", AZURE + AZURE_QUERY),
        ("acme@vs-ssh.visualstudio.com:v3/acme/Tools/widget", AZURE + AZURE_QUERY),
        ("ssh://git@ssh.dev.azure.com/v3/acme/Tools/widget", AZURE + AZURE_QUERY),
        (
            "https://dev.azure.com/acme/_git/widget",
            "https://dev.azure.com/acme/_git/widget" + AZURE_QUERY,
        ),
        (
            "https://acme.visualstudio.com/Tools/_git/widget",
            "https://acme.visualstudio.com/Tools/_git/widget" + AZURE_QUERY,
        ),
        (
            "https://acme.visualstudio.com/DefaultCollection/Tools/_git/widget",
            "https://acme.visualstudio.com/DefaultCollection/Tools/_git/widget" + AZURE_QUERY,
        ),
        # a project's or repository's name may hold spaces: the remote writes them escaped
        (
            "https://dev.azure.com/acme/Big%20Tools/_git/the%20widget",
            "https://dev.azure.com/acme/Big%20Tools/_git/the%20widget" + AZURE_QUERY,
        ),
        (
            "git@ssh.dev.azure.com:v3/acme/Big%20Tools/the%20widget",
            "https://dev.azure.com/acme/Big%20Tools/_git/the%20widget" + AZURE_QUERY,
        ),
    ],
)
def test_azure_devops_remotes_link_to_the_file_at_the_commit(remote: str, url: str) -> None:
    assert web_permalink(remote, SHA, "src/app.py", (231, 236)) == url


def test_an_azure_devops_link_names_one_line_or_none_and_escapes_the_path() -> None:
    one = web_permalink(AZURE, SHA, "src/app.py", (7, 7))
    assert one == (
        f"{AZURE}?path=/src/app.py&version=GC{SHA}&line=7&lineEnd=8&lineStartColumn=1"
        "&lineEndColumn=1&lineStyle=plain&_a=contents"
    )
    odd = web_permalink(AZURE, SHA, "docs/a b&line=9#.md")
    assert odd == f"{AZURE}?path=/docs/a%20b%26line%3D9%23.md&version=GC{SHA}&_a=contents"


def test_an_azure_devops_link_holds_no_credentials() -> None:
    for remote in (
        "https://acme:pat-s3cret@dev.azure.com/acme/Tools/_git/widget",
        "https://pat-s3cret@dev.azure.com/acme/Tools/_git/widget",
    ):
        link = link_for(remote, SHA, "src/app.py", (231, 236))
        assert link.web and link.text == AZURE + AZURE_QUERY
        assert "s3cret" not in link.text


def test_an_azure_devops_remote_of_another_shape_gives_no_link() -> None:
    for remote in (
        "https://dev.azure.com/acme/Tools/widget",  # no _git
        "git@ssh.dev.azure.com:v3/acme/widget",  # v3/ORG/PROJECT/REPO, a part short
        "https://dev.azure.com/acme/a%2Fb/_git/widget",  # an escaped slash
        "https://dev.azure.com/acme/%2e%2e/_git/widget",
    ):
        link = link_for(remote, SHA, "src/app.py", (1, 2))
        assert not link.web and link.text == f"src/app.py:1-2@{SHA}", remote


def test_a_self_hosted_azure_devops_server_is_configured_by_name() -> None:
    remote = "https://tfs.corp/tfs/DefaultCollection/Tools/_git/widget"
    assert host_style("dev.azure.com") is HostStyle.AZURE_DEVOPS
    assert web_permalink(remote, SHA, "src/app.py", (231, 236)) is None
    url = web_permalink(remote, SHA, "src/app.py", (231, 236), hosts={"tfs.corp": "azure-devops"})
    assert url == "https://tfs.corp/tfs/DefaultCollection/Tools/_git/widget" + AZURE_QUERY
