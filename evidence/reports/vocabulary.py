"""The vocabulary of the report format: record ids, headings, path tokens, line ranges, commands.

Every regular expression and word list the parser reads a report with, and the small functions
that classify one token (`is_path_like`, `split_claimed`) or one heading (`slugify`). The outline
and the contents of a report are read with these (evidence/reports/outline.py, contents.py).
"""

from __future__ import annotations

import re
import unicodedata

from evidence.model import Kind
from evidence.reports.ranges import RANGE_RE

# Record ids are <system prefix>-<kind code>-<name>: RT-RTE-chat-tools, KS-CLM-append-only.
# A line holding only such an id declares a record, whatever the kind code; in running text only
# ids with a known kind code (or the RT- prefix) count as references, so that header names such
# as X-API-Key are not taken for ids.
_NAME = r"[A-Za-z0-9]+(?:[-_.][A-Za-z0-9]+)*"
_ID = rf"[A-Z][A-Z0-9]*-[A-Z]{{2,}}-{_NAME}|RT-[A-Za-z]+-{_NAME}"
ID_RE = re.compile(
    rf"(?<![\w-])(?:[A-Z][A-Z0-9]*-(?:CMP|OBJ|RTE|CLM|ABS|BAP)-{_NAME}|RT-[A-Za-z]+-{_NAME})"
)
#: substrings one of which every id that ID_RE finds contains (a cheap test before the regex)
ID_HINTS = ("RT-", "-CMP-", "-OBJ-", "-RTE-", "-CLM-", "-ABS-", "-BAP-")
ID_FULL_RE = re.compile(rf"^(?:{_ID})$")
# an id line as sentences and Markdown leave it: "RT-RTE-chat.", "On `RT-RTE-chat`:"
HEADER_RE = re.compile(rf"^({_ID})[.:]?$")
#: a record's id and its label on one heading line, as Markdown reports write them: "### RT-RTE-
#: chat: Chat endpoint", "### `RT-RTE-chat` — Chat endpoint", "**RT-RTE-chat** (Chat endpoint)"
TITLED_RE = re.compile(
    rf"^(?:#{{1,6}}\s+)?(?:\*\*|`)?(?P<id>{_ID})(?:\*\*|`)?"
    r"(?:\s*(?::|—|–|--?|\|)\s+(?P<label>\S.*?)|\s+\((?P<paren>[^()]+)\))\s*(?:\s#+)?$"
)
# "On RT-RTE-x (as the worker sees it):": a few words in parentheses after the id
ON_RE = re.compile(rf"^On (?:\*\*|`)?({_ID})(?:\*\*|`)?(?: \([^()]{{1,120}}\))?[.:]?$")
#: "On RT-RTE-x as the worker sees it": words after the id, not in parentheses, which a sentence
#: writes as well ("On RT-RTE-x the worker retries."); said when it stands as a heading would
ON_WORDS_RE = re.compile(rf"^On (?:\*\*|`)?({_ID})(?:\*\*|`)? +\S")
#: a record id in lower case ("rt-rte-chat"): which letters are capitals is the report's to say
LOWER_ID_RE = re.compile(
    rf"^(?:[a-z][a-z0-9]*-(?:cmp|obj|rte|clm|abs|bap)-{_NAME}|rt-[a-z]+-{_NAME})[.:]?$"
)
# each "(?:.*\S)?" then "\s*$" where "(.*?)\s*$" was: the lazy form retried the spaces to the
# end of the line at each of their positions (quadratic in a run of spaces: a report could hang)
#: Markdown's emphasis around a field's name (``**Label:**``, ``*Label*:``)
_EM = r"(?:\*\*|__|\*|_)?"
#: the report's type line (``Type: agentic-…/runtime-report.md``; ``**Type:** `…` `` in Markdown)
TYPE_RE = re.compile(rf"^{_EM}Type{_EM}:{_EM}\s*`?((?:[^`]*[^`\s])?)`?\s*$")
LABEL_RE = re.compile(rf"^(?:[-*+•]\s+)?{_EM}Label{_EM}:{_EM}\s*((?:.*\S)?)\s*$")
STATUS_RE = re.compile(
    rf"^\s*(?:[•*-]\s+)?{_EM}(?P<key>[A-Za-z][A-Za-z-]*(?: +[A-Za-z-]+)*?)\s+conclusion status"
    rf"{_EM}:{_EM}\s*(?P<value>(?:.*\S)?)\s*$",
    re.IGNORECASE,
)
FIELD_RE = re.compile(
    rf"^\s*[•*-]\s+{_EM}(?P<key>[^:\s*_][^:]{{0,59}}?){_EM}:{_EM}\s+(?P<value>(?:.*\S)?)\s*$"
)
#: Markdown around a whole line: an ATX heading's hashes, or emphasis or code around it all
_DECORATION_RE = re.compile(
    r"^#{1,6}\s+(?P<heading>.*?)(?:\s+#+)?$"
    r"|^(?:\*\*(?P<strong>[^*]+)\*\*|\*(?P<em>[^*]+)\*|_(?P<under>[^_]+)_|`(?P<code>[^`]+)`)$"
)
BULLET_RE = re.compile(r"^(?:\d+[.)]|[•*-])\s")
ACCOUNT_RE = re.compile(r"^\S.{0,60}\baccount$", re.IGNORECASE)
SHA_RE = re.compile(r"(?<![0-9A-Za-z])[0-9a-fA-F]{40}(?![0-9A-Za-z])")
#: an abbreviated commit id, only where the words say so ("revision 150ffaa", "at commit
#: 3f2a9c1e"): any 7 hex letters would be words and hashes too
SHORT_SHA_RE = re.compile(
    r"\b(?:revision|commit|rev|sha)\b(?: id)?[:\s]\s*([0-9a-fA-F]{7,39})(?![0-9A-Za-z])",
    re.IGNORECASE,
)
#: a tag the words name ("tagged v0.3.0", "at tag release-2024.1"): the revision of a report
#: that names no commit id; a name with a digit, as a release's is ("tags the branch" is prose)
TAG_MENTION_RE = re.compile(
    r"\b(?:tag|tagged|tags)(?:\s+(?:it|as|this|that|commit))?\s+[`'\"“]?([A-Za-z0-9](?:[A-Za-z0-9_+/-]|\.(?!\.))*[A-Za-z0-9])",
    re.IGNORECASE,
)
#: ``SRC-1, a.js``, ``SRC-1: a.js``, and ``SRC-1 — a.js`` as a word processor joins them
CITE_RE = re.compile(r"(?<![\w-])(SRC-\d+)\s*[,:—–]\s*")
#: a path from the writer's disk, behind a drive letter (``C:\\repo\\a.js``, ``C:/repo/a.js``):
#: which of its directories is the repository's root the report does not say
DRIVE_RE = re.compile(r"^[A-Za-z]:[\\/]")
#: a cited item: what no space, comma, semicolon or bracket ends, and folders in parentheses or
#: brackets as web frameworks name them (``app/(auth)/page.tsx``, ``pages/[id].tsx``)
ITEM_RE = re.compile(r"(?:[^\s,;()\[\]]|\([^\s,;()\[\]]*\)|\[[^\s,;()\[\]]*\])+")
SEP_RE = re.compile(r"\s*,\s+and\s+|\s*[,;]\s*|\s+and\s+")
PATH_CHARS_RE = re.compile(r"^[\w@+~.-][\w@+~./()\[\]&-]*$")
EXTENSION_RE = re.compile(r"[\w-]\.[A-Za-z0-9_-]*[A-Za-z][A-Za-z0-9_-]*$")
SEARCH_RE = re.compile(r"(?<![\w/.-])(git grep|rg|grep)(?=[ \t])")

#: headings under "Shared records" and the kind of record each one declares
KIND_HEADINGS: dict[str, Kind] = {
    "components": Kind.COMPONENT,
    "operative objects": Kind.OBJECT,
    "routes": Kind.ROUTE,
    "claims": Kind.CLAIM,
    "evidenced absences": Kind.ABSENCE,
    "behavioral-authority paths": Kind.AUTHORITY,
    "behavioral authority paths": Kind.AUTHORITY,
    "behavioural-authority paths": Kind.AUTHORITY,
}
#: the kind an id's middle part implies (RT-RTE-... is a route)
ID_PREFIX_KINDS: dict[str, Kind] = {
    "CMP": Kind.COMPONENT,
    "OBJ": Kind.OBJECT,
    "RTE": Kind.ROUTE,
    "CLM": Kind.CLAIM,
    "ABS": Kind.ABSENCE,
    "BAP": Kind.AUTHORITY,
}
#: what an empty record-kind section or annotations section says
NONE_MARKERS = frozenset({"none declared in this member", "none declared in this member.", "none"})
#: evidence-layer words that share citation lists with paths but are not paths
LAYER_WORDS = frozenset(
    {
        "implementation",
        "doctrine",
        "design",
        "doctrine/design",
        "documentation",
        "configuration",
        "execution",
        "observation",
        "test",
        "tests",
    }
)
#: well-known file names without an extension or a directory
BARE_FILES = frozenset(
    {"Dockerfile", "Makefile", "Procfile", "Gemfile", "Rakefile", "Jenkinsfile", "Vagrantfile"}
    | {"LICENSE", "README", "CHANGELOG", "NOTICE", "AUTHORS", "CODEOWNERS", "Containerfile"}
)
#: rg/grep options that take a value as the next argument
VALUE_FLAGS = frozenset(
    {"-g", "--glob", "-t", "--type", "-T", "--type-not", "-m", "--max-count", "-A", "-B", "-C"}
    | {"-f", "--file", "--include", "--exclude", "-M", "--max-columns", "-j", "--threads"}
)
#: rg/grep options whose value is the pattern
PATTERN_FLAGS = frozenset({"-e", "--regexp"})
#: characters a narrative heading has at most
MAX_HEADING = 100


def slugify(text: str) -> str:
    """A lowercase ASCII slug of a heading (``Request and delegation`` -> ``request-and-...``,
    ``Évaluation`` -> ``evaluation``). A heading with no ASCII letter or digit (``依頼と経路``)
    keeps its own letters, lowercased: the one slug all such headings shared (``section``,
    ``section-2`` in their order) gave a narrative's verdicts to another one when a report's
    next version added or moved a heading."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")
    if not slug:  # (any other heading keeps the slug it had: the verdicts given on it stay)
        # letters, marks (a vowel sign is part of its word) and digits of any script
        kept = (
            char if unicodedata.category(char)[0] in "LMN" else " "
            for char in unicodedata.normalize("NFKC", text).lower()
        )
        slug = "-".join("".join(kept).split())
    return slug or "section"


#: typographic quotes as word processors and exporters write them, and the ASCII ones they stand
#: for (one character for one: offsets in a line stay)
SMART_QUOTES = str.maketrans({"“": '"', "”": '"', "‘": "'", "’": "'"})


def _balanced(token: str) -> bool:
    """Every parenthesis and bracket of the token closed, in order."""
    if "(" not in token and ")" not in token and "[" not in token and "]" not in token:
        return True
    depth = {"(": 0, "[": 0}
    for character in token:
        if character in "([":
            depth[character] += 1
        elif character in ")]":
            opener = "(" if character == ")" else "["
            depth[opener] -= 1
            if depth[opener] < 0:
                return False
    return not any(depth.values())


def is_path_like(token: str) -> bool:
    """True for a token that reads as a repository path (``src/a.js``, ``au-mcp.md``, ...)."""
    if not token or not PATH_CHARS_RE.match(token) or token in LAYER_WORDS:
        return False
    if not _balanced(token):  # "a.js)" ends a sentence; "app/(auth)/page.tsx" is a folder
        return False
    if token.startswith("SRC-") or ID_FULL_RE.match(token) or token.strip("./") == "":
        return False
    if "/" in token:
        return "//" not in token and any(ch.isalnum() for ch in token)
    return bool(EXTENSION_RE.search(token)) or token in BARE_FILES


#: a marker's path in quotes or backticks, which may hold spaces: ``"docs/User Guide.md":3``,
#: ``'a b/c.py:3'``, `` `a b/c.py`:3 ``
QUOTED_PATH_RE = re.compile(r"""(["'`])([^"'`]+?)\1(:[^\s"'`]*|#L[^\s"'`]*)?[.,;]?""")


def quoted_marker(token: str) -> str | None:
    """A marker token whose path is quoted and holds a space, as ``path:range`` (None: it is
    not one)."""
    found = QUOTED_PATH_RE.fullmatch(token)
    if found is None or " " not in found[2]:
        return None
    inner = found[2].strip()  # the range may be inside the quotes or after them
    path, _claimed = split_claimed(inner)
    if not is_path_like(path.replace(" ", "_")):
        return None
    return inner + (found[3] or "")


def marker_token(token: str) -> str:
    """A ``--- path`` marker's token as Markdown or a sentence left it: without backticks or
    bold around it (`` `src/a.js:3-9` ``, ``**src/a.js**``), without a full stop after it,
    with its range as prose writes it (``src/a.js, lines 3-9``, ``src/a.js (line 3)``,
    ``src/a.js: 3``) and its Markdown escapes (``my\\_module.py``) or Windows separators
    (``src\\a.js``) read."""
    if len(token) > 4 and token.startswith("**") and token.endswith("**"):
        token = token[2:-2]
    if token.startswith("`"):
        token = token.replace("`", "")
    link = MARKDOWN_LINK_RE.fullmatch(token.rstrip(".,;"))
    if link is not None:  # [text](url): the file the link names, else its text
        url, text = link.group(2), link.group(1).replace("`", "")
        token = permalink_path(url) or _relative_link(url, text) or text
    elif token.startswith(("https://", "http://")):
        token = permalink_path(token.rstrip(".,;")) or token
    prose = PROSE_RANGE_RE.match(token) if " " in token else None  # a.js:3 stays as written
    if prose is not None:
        first, last = prose.group("first"), prose.group("last") or prose.group("first")
        token = f"{prose.group('path')}:{first}-{last}"
    if len(token) > 1 and token[-1] in ".,;":
        token = token[:-1]
    return written_path(token)


#: a URL's escape of one byte (``%20``)
_PERCENT_RE = re.compile(r"%[0-9A-Fa-f]{2}")


def unescaped(token: str) -> str:
    """A path token as meant where a shell escaped its spaces (``my\\ file.md``) or a URL
    encoded its characters (``my%20file.md``, copied from a link): either may hold spaces."""
    if "\\ " in token:
        token = token.replace("\\ ", " ")
    if "%" in token and _PERCENT_RE.search(token):
        from urllib.parse import unquote

        token = unquote(token)
    return token


def written_path(token: str) -> str:
    """A path as its writer meant it: Markdown's escapes read (``my\\_module.py``), Windows'
    separators made ``/`` (``src\\a.js``), a leading ``/`` (the repository's root) dropped."""
    if "\\" in token:
        token = MARKDOWN_ESCAPE_RE.sub(r"\1", token).replace("\\", "/")
    return token[1:] if token.startswith("/") and token[1:2] not in ("/", "") else token


#: a Markdown link, ``[text](url)``
MARKDOWN_LINK_RE = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")
#: a code host's link to a file at a revision: GitHub's and GitLab's ``/blob/REV/path``,
#: Gitea's ``/src/commit/REV/path``, Bitbucket's ``/src/REV/path``; the lines after ``#``
PERMALINK_RE = re.compile(
    r"^https?://[^/]+/(?:[^#?]+?/)?(?:-/)?(?:blob|src/commit|src/branch|src/tag|src)/"
    r"(?P<rev>[^/#?]+)/(?P<path>[^#?]+)(?:\?[^#]*)?(?:#(?P<lines>.*))?$"
)
_FRAGMENT_RE = re.compile(r"^(?:L|lines-)(\d+)(?:C\d+)?(?:[-:]L?(\d+)(?:C\d+)?)?$")


def permalink_path(url: str) -> str | None:
    """``path:a-b`` (or ``path``) of a code host's link to a file at a revision; None for any
    other URL. The revision in it is a revision mention of its own (`SHA_RE`)."""
    from urllib.parse import unquote

    link = PERMALINK_RE.match(url)
    if link is None:
        return None
    path = unquote(link.group("path")).strip("/")
    fragment = _FRAGMENT_RE.match(link.group("lines") or "")
    if fragment is None:
        return path
    first, last = fragment.group(1), fragment.group(2) or fragment.group(1)
    return f"{path}:{first}-{last}"


def relative_link_path(url: str) -> str | None:
    """``path:a-b`` (or ``path``) of a link to a file relative to the report (``api/a.py#L3``,
    ``../src/a.py``: the report's folder is not known, its ``../`` are left out); None for a
    URL, a link within the page or to mail."""
    from urllib.parse import unquote

    path, _, fragment = url.partition("#")
    if not path or ":" in path or path.startswith("/"):
        return None  # a URL (scheme:), within the page (#), or from a site's root
    while path.startswith(("../", "./")):
        path = path.split("/", 1)[1]
    path = unquote(path)
    lines = _FRAGMENT_RE.match(fragment)
    if lines is None:
        return path or None
    return f"{path}:{lines.group(1)}-{lines.group(2) or lines.group(1)}"


def _relative_link(url: str, text: str) -> str | None:
    """The file a relative link goes to, with the lines its text names of that file when the
    link names none (``[`a.py:14`](src/a.py)``)."""
    path = relative_link_path(url)
    if path is None or RANGE_RE.search(path):
        return path
    named, lines = split_claimed(text)
    if lines is not None and named.rsplit("/", 1)[-1] == path.rsplit("/", 1)[-1]:
        return f"{path}:{lines[0]}-{lines[1]}"
    return path


#: a path and its range as a sentence writes them: ``a.js, line 3``, ``a.js (lines 3-9)``,
#: ``a.js lines 3 to 9``, ``a.js: 3``, ``a.js:3 - 9``, ``a.js (3-9)``
PROSE_RANGE_RE = re.compile(
    r"^(?P<path>[^\s,():]+)(?:,?\s+\(?\s*(?:lines?|L)\s*|:\s*|\s+\(\s*)(?P<first>\d+)"
    r"(?:\s*(?:-|–|to|\.\.)\s*L?(?P<last>\d+))?\s*\)?[.,;]?$",
    re.IGNORECASE,
)
#: a backslash Markdown put before punctuation (``my\\_module.py``): the punctuation is meant
MARKDOWN_ESCAPE_RE = re.compile(r"\\([!-/:-@\[-`{-~])")


def split_claimed(token: str) -> tuple[str, tuple[int, int] | None]:
    """Split ``path:325-329`` / ``path:42`` / ``path#L3-L9`` (RANGE_RE's forms) into the path and
    the claimed range."""
    match = RANGE_RE.search(token)
    if not match or match.start() == 0:
        return token, None
    first = match.group(1) or match.group(3)
    last = match.group(2) or match.group(4) or first
    return token[: match.start()], (_line_number(first), _line_number(last))


#: the largest line number a range keeps: past any file's end, within what SQLite stores
LINE_MAX = 2**31 - 1


def _line_number(digits: str) -> int:
    """A claimed line number, at most LINE_MAX (a number of 4,300 digits or more would not even
    convert: Python refuses it)."""
    return LINE_MAX if len(digits) > 10 else min(int(digits), LINE_MAX)


def system_from_title(title: str) -> str:
    """The system a report is about: the title without its ``<member> report`` tail."""
    words = title.split()
    if len(words) >= 3 and words[-1].lower() == "report":
        return " ".join(words[:-2])
    return words[0] if words else ""


def undecorated(text: str) -> str:
    """A stripped line without the Markdown a Markdown-written report puts around a heading or
    a record id (``## Routes``, ``**RT-RTE-chat**``, `` `RT-RTE-chat` ``)."""
    if text[:1] not in "#*_`":
        return text
    found = _DECORATION_RE.match(text)
    if found is None:
        return text
    return next(part for part in found.groups() if part is not None).strip()
