"""Web links to a file at a commit, built from a repository's remote URL.

Understands the URL layouts of GitHub, GitLab, Bitbucket (bitbucket.org, and Bitbucket Server or
Data Center on any other host), Gitea/Forgejo and Azure DevOps (``dev.azure.com``, the older
``*.visualstudio.com``, and their ssh hosts' ``v3/ORG/PROJECT/REPO``), from ssh
(``git@host:owner/repo.git``, ``ssh://git@host:22/owner/repo.git``) and http(s) remotes, with or
without ``.git`` and with credentials stripped. A remote on an unknown host gives no web link; the
caller then falls back to :func:`local_reference` (``path:231-236@<full id>``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING
from urllib.parse import quote, unquote, urlsplit

from evidence.model import LineRange
from evidence.text import escaped

if TYPE_CHECKING:
    from evidence.revision import Revision


class HostStyle(StrEnum):
    """The URL layout of a code host."""

    GITHUB = "github"
    GITLAB = "gitlab"
    BITBUCKET = "bitbucket"
    BITBUCKET_SERVER = "bitbucket-server"  # self-hosted: /projects/P/repos/r/browse/path?at=
    GITEA = "gitea"  # Gitea and Forgejo (Codeberg) share their layout
    AZURE_DEVOPS = "azure-devops"  # /ORG/PROJECT/_git/REPO?path=/a.py&version=GC<id>&line=


#: well-known hosts; self-hosted instances are recognised by a style name in their host name
KNOWN_HOSTS: dict[str, HostStyle] = {
    "github.com": HostStyle.GITHUB,
    "gitlab.com": HostStyle.GITLAB,
    "bitbucket.org": HostStyle.BITBUCKET,
    "codeberg.org": HostStyle.GITEA,
    "gitea.com": HostStyle.GITEA,
    "try.gitea.io": HostStyle.GITEA,
    "next.forgejo.org": HostStyle.GITEA,
    "dev.azure.com": HostStyle.AZURE_DEVOPS,
    "ssh.dev.azure.com": HostStyle.AZURE_DEVOPS,
}

_HOST_HINTS: tuple[tuple[str, HostStyle], ...] = (
    ("github", HostStyle.GITHUB),
    ("gitlab", HostStyle.GITLAB),
    ("bitbucket", HostStyle.BITBUCKET_SERVER),  # bitbucket.org, the cloud, is known above
    ("gitea", HostStyle.GITEA),
    ("forgejo", HostStyle.GITEA),
    ("codeberg", HostStyle.GITEA),
    ("visualstudio", HostStyle.AZURE_DEVOPS),  # ORG.visualstudio.com, vs-ssh.visualstudio.com
)

# scp-like syntax: [user@]host:path, where no slash comes before the colon
_SCP = re.compile(
    r"^(?:(?P<user>[^@/:]+)@)?(?P<host>[A-Za-z0-9.\-]+|\[[0-9A-Fa-f:.]+\]):(?P<path>.*)$"
)
# an escape as Azure DevOps writes a space in a project's name ("Big%20Tools"), kept escaped
_SAFE_SEGMENT = re.compile(r"^(?:[A-Za-z0-9._~\-]|%[0-9A-Fa-f]{2})+$")


@dataclass(frozen=True)
class Remote:
    """A remote reduced to what a web link needs: scheme, host (with port) and project path."""

    scheme: str  # "https" or "http"
    host: str  # lowercase host name, with ":port" for http(s) remotes on a non-default port
    project: str  # "owner/repo", or "group/subgroup/repo" on GitLab

    @property
    def hostname(self) -> str:
        """The host name without any port."""
        return self.host.rsplit(":", 1)[0] if self.host.count(":") == 1 else self.host

    @property
    def web_root(self) -> str:
        """The project's web address, e.g. ``https://github.com/owner/repo``."""
        return f"{self.scheme}://{self.host}/{self.project}"


@dataclass(frozen=True)
class Link:
    """What `y` copies: a web permalink, or a local reference when there is none."""

    text: str
    web: bool
    reason: str = ""  # why there is no web link ("no remote", "unknown host git.example.org")


def without_credentials(url: str) -> str:
    """``url`` without a password or token: ``https://user:token@host/x`` and
    ``https://token@host/x`` become ``https://host/x``, and an http(s) URL loses its query and
    fragment (``?access_token=…``: git needs neither); other schemes keep their user name (an
    ssh login is not a secret) but lose a password. Paths and scp-like remotes are unchanged."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        return url
    authority, slash, path = rest.partition("/")
    userinfo, at, host = authority.rpartition("@")
    if scheme.lower() in ("http", "https"):
        # the query and fragment cut after the user info is: a password may hold `?` or `#`
        host, path = _before_query(host), _before_query(path)
        return f"{scheme}://{host}{slash}{path}"
    if not at:
        return url
    user = userinfo.partition(":")[0]
    return f"{scheme}://{user}@{host}{slash}{path}"


def _before_query(text: str) -> str:
    return text.partition("?")[0].partition("#")[0]


def parse_remote(url: str) -> Remote | None:
    """Reduce a git remote URL to scheme, host and project path; None for local or odd remotes."""
    url = url.strip()
    if not url or any(ord(ch) < 0x20 or ch == "\x7f" for ch in url):
        return None
    if "://" in url:
        try:
            parts = urlsplit(url)
            port = parts.port
        except ValueError:
            return None
        scheme = parts.scheme.lower()
        hostname = (parts.hostname or "").lower()
        if not hostname or scheme not in ("https", "http", "ssh", "git", "git+ssh", "ssh+git"):
            return None
        web_scheme = "http" if scheme == "http" else "https"
        host = hostname
        # an ssh or git port says nothing about the web server; an http(s) port does
        if port is not None and scheme in ("https", "http"):
            default = 443 if scheme == "https" else 80
            if port != default:
                host = f"{hostname}:{port}"
        path = parts.path
    else:
        match = _SCP.match(url)
        if match is None:
            return None
        host = match["host"].lower()
        if len(host) == 1:  # C:\path on Windows, not a host
            return None
        web_scheme = "https"
        path = match["path"]
    project = _project_path(path)
    if project is None:
        return None
    return Remote(scheme=web_scheme, host=host, project=project)


def _project_path(path: str) -> str | None:
    segments = [segment for segment in path.split("/") if segment]
    if segments and segments[-1].endswith(".git"):
        segments[-1] = segments[-1][: -len(".git")]
    # a leading "~user" (personal repositories: Bitbucket Server's, some ssh remotes) is kept
    # for Bitbucket Server's links; the other hosts' drop the "~"
    if len(segments) < 2 or not all(_SAFE_SEGMENT.match(segment) for segment in segments):
        return None
    plain = [unquote(segment) for segment in segments]
    if any(segment.lstrip("~") in ("", ".", "..") for segment in plain):
        return None
    if any(ord(char) < 0x20 or char in "/\\?#\x7f" for segment in plain for char in segment):
        return None
    return "/".join(segments)


def host_style(host: str, hosts: Mapping[str, str] | None = None) -> HostStyle | None:
    """The URL layout of a host: configured, well known, or hinted by its name; else None."""
    name = host.lower()
    bare = name.rsplit(":", 1)[0] if name.count(":") == 1 else name
    for candidate in (name, bare):
        if hosts and candidate in hosts:
            try:
                return HostStyle(hosts[candidate])
            except ValueError:
                return None
        if candidate in KNOWN_HOSTS:
            return KNOWN_HOSTS[candidate]
    labels = bare.split(".")
    for hint, style in _HOST_HINTS:
        if any(label == hint or label.startswith(hint + "-") for label in labels):
            return style
    return None


def line_fragment(style: HostStyle, lines: LineRange | None) -> str:
    """The URL fragment selecting lines in the host's form (``#L231-L236``, ``#lines-231:236``)."""
    if lines is None or style is HostStyle.AZURE_DEVOPS:  # Azure's lines are in the query
        return ""
    first, last = lines
    if last < first:
        first, last = last, first
    if style is HostStyle.BITBUCKET:
        return f"#lines-{first}" if first == last else f"#lines-{first}:{last}"
    if style is HostStyle.BITBUCKET_SERVER:
        return f"#{first}" if first == last else f"#{first}-{last}"
    if first == last:
        return f"#L{first}"
    if style is HostStyle.GITLAB:
        return f"#L{first}-{last}"
    return f"#L{first}-L{last}"


def web_permalink(
    remote_url: str | None,
    commit: str,
    path: str,
    lines: LineRange | None = None,
    *,
    hosts: Mapping[str, str] | None = None,
) -> str | None:
    """The web URL of ``path`` at ``commit`` with the selected lines; None without a known host."""
    if not remote_url:
        return None
    remote = parse_remote(remote_url)
    if remote is None:
        return None
    style = host_style(remote.host, hosts)
    if style is None:
        return None
    # a name's bytes that are not UTF-8 (lone surrogates here) are linked as the bytes git holds
    file_path = quote(path.lstrip("/").encode("utf-8", "surrogateescape"), safe="/-_.~")
    if style is HostStyle.BITBUCKET_SERVER:
        return _bitbucket_server(remote, commit, file_path, line_fragment(style, lines))
    if style is HostStyle.AZURE_DEVOPS:
        return _azure_devops(remote, commit, file_path, lines)
    remote = Remote(remote.scheme, remote.host, remote.project.lstrip("~"))
    if style is HostStyle.GITHUB:
        middle = f"blob/{commit}"
    elif style is HostStyle.GITLAB:
        middle = f"-/blob/{commit}"
    elif style is HostStyle.BITBUCKET:
        middle = f"src/{commit}"
    else:
        middle = f"src/commit/{commit}"
    return f"{remote.web_root}/{middle}/{file_path}{line_fragment(style, lines)}"


def _bitbucket_server(remote: Remote, commit: str, file_path: str, fragment: str) -> str | None:
    """A Bitbucket Server link: its clones are ``ssh://host:7999/PROJ/repo.git`` or
    ``https://host[/context]/scm/PROJ/repo.git`` (``~user`` for a personal repository)."""
    segments = remote.project.split("/")
    context: list[str] = []
    if len(segments) >= 3 and segments[-3] == "scm":
        context, segments = segments[:-3], segments[-2:]
    if len(segments) != 2:
        return None
    owner, repository = segments
    kind = f"users/{owner[1:]}" if owner.startswith("~") else f"projects/{owner}"
    root = "/".join((f"{remote.scheme}://{remote.host}", *context, kind, "repos", repository))
    return f"{root}/browse/{file_path}?at={commit}{fragment}"


#: the ssh hosts of Azure DevOps: ``v3/ORG/PROJECT/REPO``, whose web pages are on dev.azure.com
_AZURE_SSH = ("ssh.dev.azure.com", "vs-ssh.visualstudio.com")


def _azure_devops(
    remote: Remote, commit: str, file_path: str, lines: LineRange | None
) -> str | None:
    """An Azure DevOps link: the repository's page (``…/PROJECT/_git/REPO``, as its https clones
    say) with the file, the commit (``GC``) and the lines in the query."""
    segments = remote.project.split("/")
    if remote.hostname in _AZURE_SSH:
        if len(segments) != 4 or segments[0] != "v3":
            return None
        organization, project, repository = segments[1:]
        root = f"https://dev.azure.com/{organization}/{project}/_git/{repository}"
    elif len(segments) >= 3 and segments[-2] == "_git":
        root = remote.web_root
    else:
        return None
    query = f"?path=/{file_path}&version=GC{commit}"
    if lines is not None:
        first, last = sorted(lines)
        # the selection ends before (lineEnd, lineEndColumn): the last line whole, as a click
        # on the line numbers selects
        query += f"&line={first}&lineEnd={last + 1}&lineStartColumn=1&lineEndColumn=1"
        query += "&lineStyle=plain"
    return f"{root}{query}&_a=contents"


def local_reference(path: str, commit: str, lines: LineRange | None = None) -> str:
    """The fallback reference ``path:231-236@<full id>`` (``path@<id>`` without lines); a
    name's controls and undecodable bytes written as ``\\uXXXX`` (it is printed and copied)."""
    path = escaped(path)
    if lines is None:
        return f"{path}@{commit}"
    first, last = sorted(lines)
    span = str(first) if first == last else f"{first}-{last}"
    return f"{path}:{span}@{commit}"


def link_for(
    remote_url: str | None,
    commit: str,
    path: str,
    lines: LineRange | None = None,
    *,
    hosts: Mapping[str, str] | None = None,
) -> Link:
    """The web permalink when the remote allows one, else the local reference with the reason."""
    url = web_permalink(remote_url, commit, path, lines, hosts=hosts)
    if url is not None:
        return Link(text=url, web=True)
    if not remote_url:
        reason = "no remote"
    else:
        remote = parse_remote(remote_url)
        if remote is None:
            reason = "remote is not a web host"
        elif host_style(remote.host, hosts) is None:
            reason = f"unknown host {remote.hostname}"
        else:  # a Bitbucket Server or Azure DevOps remote of no known shape
            reason = f"no web page of {remote.project} on {remote.hostname}"
    return Link(text=local_reference(path, commit, lines), web=False, reason=reason)


def link_to(
    revision: Revision,
    remote_url: str | None,
    path: str,
    lines: LineRange | None = None,
    *,
    hosts: Mapping[str, str] | None = None,
) -> Link:
    """`link_for` a file of ``revision`` (``remote_url``: its repository's). A file inside a
    submodule is linked in the submodule's repository at the commit the revision pins (its URL
    from .gitmodules, a relative one taken from ``remote_url`` as git does): the outer
    repository's web page has no such file. Without a web link there, the local reference."""
    spelled = revision.spell(path)
    if spelled.submodule is None:
        return link_for(remote_url, revision.commit, path, lines, hosts=hosts)
    from evidence.git.submodules import absolute_url, submodules

    prefix, commit = spelled.submodule
    inner_path = spelled.path[len(prefix) + 1 :]
    _name, url = submodules(revision.read(".gitmodules").text).get(prefix, ("", ""))
    inner = revision.submodule(prefix, commit)
    inner_url = absolute_url(url, remote_url)
    if inner is not None and inner.spell(inner_path).submodule is not None:  # nested
        link = link_to(inner, inner_url, inner_path, lines, hosts=hosts)
    else:
        link = link_for(inner_url, commit, inner_path, lines, hosts=hosts)
    if link.web:
        return link
    why = f"inside the submodule {prefix}: {link.reason or 'no web link'}"
    return Link(local_reference(path, revision.commit, lines), web=False, reason=why)
