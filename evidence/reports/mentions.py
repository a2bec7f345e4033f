"""Files a report names in its prose, as a Markdown report names them: `` `api/server.py:73` ``,
`` `api/kestrel/auth.py` ``, ``[auth.py](api/kestrel/auth.py#L30)``, a code host's link to the
file at a revision, or ``api/server.py:73`` written plainly. The record rests on each as on a
cited file: such a report's claims cite nothing in ``(SRC-1, path)`` form, and a file it names
that the revision does not have was never said to be missing.

Read as citations with no source (``Citation("", (path,), line)``), each checked as a cited
path. Only what names a repository's file deliberately: a folder and an extension, or its lines
(`` `server.py` `` may be a file the system writes at run time, ``/etc/app.conf`` or
``~/.app.toml`` are the machine's, a URL's path is a route).
"""

from __future__ import annotations

import re

from evidence.reports.vocabulary import (
    is_path_like,
    marker_token,
    permalink_path,
    relative_link_path,
    split_claimed,
)

__all__ = ["mentions_in", "names_a_file"]

#: a code span: a run of backticks, its text, the same run (CommonMark)
_SPAN = re.compile(r"(?<!`)(`+)(?!`)([^`\n]+?)(?<!`)\1(?!`)")
#: a Markdown link: its text and where it goes
_LINK = re.compile(r"\[([^\]\n]*)\]\(([^)\s]+)\)")
#: a path with a folder and its lines, written plainly: ``api/server.py:73``, ``a/b.js:3-9``
_PLAIN = re.compile(
    r"(?<![\w./:@~`-])((?:[\w.-]+/)+[\w.-]*\w\.[A-Za-z][\w]{0,7}):(\d+)(?:-(\d+))?(?![\w/])"
)
#: what every plain ``path:line`` holds (an extension, a colon, a digit): a cheap look first,
#: most lines of prose with a slash hold none
_PLAIN_HINT = re.compile(r"\.[A-Za-z]\w{0,7}:\d")
#: the last name's extension: ``.py``, ``.tsx``, ``.H`` (a file, not a folder or a route)
_EXTENSION = re.compile(r"[\w-]\.([A-Za-z][A-Za-z0-9]{0,7})$")
#: the extensions a file named without a folder is taken for one by (`` `server.py:74` ``):
#: ``api.stripe.com:443``, ``db.internal:5432`` or ``redis.svc.cluster.local:6379`` are a host
#: and its port, which a system's analysis names as often as its files
# fmt: off
_FILE_EXTENSIONS = frozenset((
    "py", "pyi", "pyx", "ipynb", "js", "mjs", "cjs", "jsx", "ts", "tsx", "mts", "cts", "vue",
    "svelte", "astro", "go", "rs", "java", "kt", "kts", "scala", "groovy", "gradle", "rb", "erb",
    "php", "c", "h", "cc", "cpp", "cxx", "hpp", "hh", "hxx", "m", "mm", "swift", "cs", "fs", "vb",
    "dart", "lua", "pl", "pm", "r", "jl", "ex", "exs", "erl", "hrl", "hs", "elm", "clj", "cljs",
    "ml", "mli", "nim", "zig", "sol", "sh", "bash", "zsh", "fish", "ps1", "bat", "cmd", "sql",
    "graphql", "gql", "proto", "thrift", "html", "htm", "css", "scss", "sass", "less", "xml",
    "xsd", "xsl", "json", "jsonc", "json5", "yaml", "yml", "toml", "ini", "cfg", "conf", "env",
    "properties", "md", "mdx", "markdown", "rst", "txt", "adoc", "tex", "csv", "tsv", "lock",
    "tf", "tfvars", "hcl", "nix", "dockerfile", "mk", "cmake", "gemspec", "podspec", "plist",
    "sbt", "cabal",
))
#: files whose names have no extension by custom: a report names `docker/Dockerfile` as often as
#: `api/server.py`
_EXTENSIONLESS = frozenset((
    "Dockerfile", "Containerfile", "Makefile", "GNUmakefile", "makefile", "Rakefile", "Gemfile",
    "Procfile", "Jenkinsfile", "Vagrantfile", "Justfile", "justfile", "Brewfile", "Caddyfile",
    "Tiltfile", "Earthfile", "Pipfile", "CODEOWNERS", "BUILD", "WORKSPACE",
))
# fmt: on


def names_a_file(path: str, *, lines: bool = False) -> bool:
    """The path names a file, not a folder, a route or a host: its last name has an extension
    (or, in a folder, lines are named of it: ``bin/serve:3``), one of a source or document
    file's when it has no folder (``api.stripe.com`` is a host), or is a name such files have
    without one (``Dockerfile``, ``Makefile``)."""
    if path.rsplit("/", 1)[-1] in _EXTENSIONLESS:
        return True
    extension = _EXTENSION.search(path)
    if "/" in path:
        return extension is not None or lines
    return extension is not None and extension.group(1).lower() in _FILE_EXTENSIONS


def _named(token: str) -> str | None:
    """``path`` or ``path:a-b`` when the token names a repository's file deliberately."""
    if token.startswith(("/", "~", "$", "%", "<", "\\", "..")):
        return None  # the machine's, a variable's, or an example's (`.../src/a.js`)
    token = marker_token(token)
    if not token or " " in token:
        return None
    path, claimed = split_claimed(token)
    if not is_path_like(path) or "://" in path or path.endswith("/"):
        return None
    if ("/" not in path and claimed is None) or not names_a_file(path, lines=bool(claimed)):
        return None
    return path if claimed is None else f"{path}:{claimed[0]}-{claimed[1]}"


def _linked(url: str) -> str | None:
    """The file a link goes to: a code host's link at a revision, or a relative one."""
    if url.startswith(("http://", "https://")):
        found = permalink_path(url)
        return None if found is None else _named(found)
    found = relative_link_path(url)
    return None if found is None else _named(found)


def mentions_in(line: str) -> list[str]:
    """The files (``path`` or ``path:a-b``) a line of prose names, in order, each once."""
    found: list[tuple[int, str]] = []
    spans = list(_SPAN.finditer(line)) if "`" in line else []
    for span in spans:
        named = _named(span.group(2).strip())
        if named is not None:
            found.append((span.start(), named))
    if "](" in line:
        for link in _LINK.finditer(line):
            named = _linked(link.group(2))
            if named is not None:
                found.append((link.start(), named))
    if "/" in line and _PLAIN_HINT.search(line) is not None:
        inside = [(span.start(), span.end()) for span in spans]
        for plain in _PLAIN.finditer(line):
            if any(start <= plain.start() < end for start, end in inside):
                continue  # `a/b.py:3` read above
            first, last = plain.group(2), plain.group(3) or plain.group(2)
            found.append((plain.start(), f"{plain.group(1)}:{first}-{last}"))
    seen: dict[str, None] = {}
    for _, named in sorted(found):
        seen.setdefault(named, None)
    return list(seen)
