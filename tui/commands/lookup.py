"""`assay show`, `assay grep` and `assay browse`: look up source at a revision, never the work tree.

`show` and `grep` stay headless and never import textual; `browse` opens the browse app.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import chain

import click

from evidence.model import FileState
from evidence.revision import BadPattern, GrepHit, Revision, RevisionError, SourceFile
from evidence.text import escaped, shown_path, visible
from tui.commands.errors import InputError
from tui.commands.options import keymap_option
from tui.commands.repository import repo_option, repository

#: lines lexed before the first shown line, so that multi-line tokens start right
LEX_BEFORE = 300

_RANGE = re.compile(r":(\d+)(?:-(\d+))?$")


def terminal_safe(text: str) -> str:
    """A line of untrusted text with control, bidi and zero-width characters made visible.

    The same symbols as the app shows (`evidence.text.visible`): ``␛`` for ESC, ``<RLO>``...
    """
    return visible(text)


@dataclass(frozen=True)
class Target:
    """What `assay show` was asked for: REV:PATH[:A-B]."""

    rev: str | None
    path: str
    lines: tuple[int, int] | None


def parse_target(spec: str) -> Target:
    """Split ``REV:PATH[:A[-B]]``; an empty REV means HEAD. Raises ValueError with the reason."""
    rev, colon, rest = spec.partition(":")
    if not colon or not rest:
        raise ValueError(f"expected REV:PATH[:A-B], got {spec!r}")
    lines: tuple[int, int] | None = None
    match = _RANGE.search(rest)
    if match is not None and match.start() > 0:
        first = int(match[1])
        last = int(match[2]) if match[2] else first
        if first < 1 or last < first:
            raise ValueError(f"bad line range {match[0][1:]!r}: expected A-B with 1 <= A <= B")
        lines = (first, last)
        rest = rest[: match.start()]
    return Target(rev or None, rest, lines)


def open_revision(repo: str | None, rev: str | None) -> Revision:
    """Open the revision of ``--repo`` (None: the repository containing the current directory)
    or exit 2 with the reason."""
    try:
        return Revision.open(repository(repo), rev)
    except RevisionError as error:
        raise InputError(str(error)) from None


def file_problem(source: SourceFile, short: str) -> str | None:
    """Why a file has no lines to show, naming the revision, or None."""
    problem = source.problem
    if problem is None:
        return None
    if "this revision" in problem:
        return problem.replace("this revision", short, 1)
    return f"{problem} at {short}"


def highlighted_lines(path: str, lines: list[str], first: int, last: int) -> list[str]:
    """Lines first..last (1-based) with ANSI syntax colours; input made terminal-safe first."""
    from pygments import lex
    from pygments.formatters import Terminal256Formatter

    from evidence.syntax import lexer_for

    lexer = lexer_for(path)
    start = max(1, first - LEX_BEFORE)
    text = "\n".join(terminal_safe(line) for line in lines[start - 1 : last])
    formatter = Terminal256Formatter(style="monokai")
    out: list[str] = [""]
    for token_type, value in lex(text, lexer):
        for index, part in enumerate(value.split("\n")):
            if index:
                out.append("")
            if part:
                out[-1] += _paint(formatter, token_type, part)
    del out[last - start + 1 :]
    while len(out) < last - start + 1:
        out.append("")
    return out[first - start :]


def _paint(formatter: object, token_type: object, text: str) -> str:
    style = formatter.style_string.get(str(token_type))  # type: ignore[attr-defined]
    while style is None and token_type is not None:
        token_type = token_type.parent  # type: ignore[attr-defined]
        style = formatter.style_string.get(str(token_type))  # type: ignore[attr-defined]
    if not style or not style[0]:
        return text
    return f"{style[0]}{text}{style[1]}"


@click.command(short_help="Print lines of a file at a revision, numbered.")
@click.argument("target", metavar="REV:PATH[:A-B]")
@repo_option()
@click.option("--context", "-C", type=click.IntRange(min=0), default=0, help="Lines around A-B.")
@click.option("--plain", is_flag=True, help="No colours, even on a terminal.")
@click.option("--permalink", is_flag=True, help="Print the web link of the lines instead.")
def show(target: str, repo: str | None, context: int, plain: bool, permalink: bool) -> None:
    """Print lines of a file at a revision with line numbers, like `bat` at REV.

    REV:PATH prints the whole file, REV:PATH:A-B (or :A) only those lines; the file is read from
    the revision, never from the work tree. An empty REV (":PATH"), or none (PATH[:A-B] naming a
    file at HEAD), means HEAD.
    """
    wanted, revision = _shown(target, repo)
    try:  # a damaged object (a corrupt pack) is bad input, not an internal error
        with revision:
            source = revision.read(wanted.path)
            problem = file_problem(source, revision.short)
            if source.directory:  # the reviewer mistyped nothing, a folder is not a file
                problem = (
                    f"{source.path} is a directory at {revision.short}: `assay grep PATTERN "
                    f"-- {source.path}/` searches it, `assay browse` lists its files"
                )
            if problem is not None:
                raise InputError(problem + _at_head_hint(target, wanted, repo, source))
            lines = source.lines
            if wanted.lines is not None and wanted.lines[0] > max(len(lines), 1):
                raise InputError(
                    f"{shown_path(source.path)} has {len(lines)} lines at {revision.short}"
                )
            if permalink:
                _print_permalink(revision, source.path, wanted.lines, len(lines))
                return
            first, last = wanted.lines or (1, len(lines))
            last = min(last, len(lines))
            shown_first = max(1, first - context)
            shown_last = min(len(lines), last + context)
            color = not plain and sys.stdout.isatty()
            if color:
                texts = highlighted_lines(source.path, lines, shown_first, shown_last)
            else:
                texts = [terminal_safe(line) for line in lines[shown_first - 1 : shown_last]]
            width = len(str(shown_last))
            marking = wanted.lines is not None and context > 0
            out = []
            for number, text in enumerate(texts, start=shown_first):
                mark = (">" if first <= number <= last else " ") if marking else ""
                gutter = f"{mark}{number:>{width}} │ " if color else f"{mark}{number:>{width}} | "
                if color:
                    gutter = click.style(gutter, dim=not (marking and mark == ">"))
                out.append(gutter + text)
            click.echo("\n".join(out), color=color)
    except RevisionError as error:
        raise InputError(str(error)) from None


def _at_head_hint(target: str, wanted: Target, repo: str | None, source: SourceFile) -> str:
    """When REV:PATH read a missing PATH at a branch or tag named like a file (`notes.txt:3`
    with a branch notes.txt), how to read that file at HEAD instead; else ""."""
    if wanted.rev is None or source.state is not FileState.MISSING or source.inside:
        return ""
    try:
        at_head = parse_target(":" + target)
        with Revision.open(repository(repo)) as head:
            held = head.exists(at_head.path)
    except (ValueError, RevisionError):
        return ""
    return f" ({at_head.path} at HEAD: assay show :{target})" if held else ""


def _shown(target: str, repo: str | None) -> tuple[Target, Revision]:
    """What `assay show` reads and at which revision: REV:PATH[:A-B], else PATH[:A-B] at HEAD
    (`assay show src/app.py:10-20`, as one asks `bat`) when PATH is a file there; exits 2 with
    the reason the first reading failed when neither holds."""
    try:
        wanted: Target | None = parse_target(target)
    except ValueError as error:
        wanted, failure = None, str(error)
    if wanted is not None:
        try:
            return wanted, Revision.open(repository(repo), wanted.rev)
        except RevisionError as error:
            failure = str(error)
    try:
        at_head = parse_target(":" + target)
        revision = Revision.open(repository(repo))
    except ValueError:
        raise InputError(failure) from None
    except RevisionError as error:  # no REV:PATH to read: HEAD's is the reason (no commits)
        raise InputError(failure if wanted is not None else str(error)) from None
    if revision.held(at_head.path) is False:  # None: inside a submodule, said when read
        revision.close()
        raise InputError(f"{failure} (nor is {shown_path(at_head.path)} a file at HEAD)")
    return at_head, revision


def _print_permalink(
    revision: Revision, path: str, lines: tuple[int, int] | None, count: int
) -> None:
    from evidence.permalink import link_to

    if lines is not None:
        lines = (lines[0], min(lines[1], count))
    link = link_to(revision, revision.remote_url(), path, lines)
    click.echo(link.text)
    if not link.web:
        reason = escaped(link.reason)  # it may name a submodule's path
        click.echo(f"assay show: no web link ({reason}); printed a local reference", err=True)


@click.command(short_help="Print path:line:text of each match at a revision.")
@click.argument("pattern")
@click.argument("paths", nargs=-1, metavar="[-- PATHS...]")
@repo_option()
@click.option("--rev", default=None, help="Revision to search (default HEAD).")
@click.option("-F", "--fixed-strings", "fixed", is_flag=True, help="PATTERN is a fixed string.")
@click.option("-i", "--ignore-case", "ignore_case", is_flag=True, help="Ignore case.")
@click.option("-w", "--word-regexp", "word", is_flag=True, help="Match whole words only.")
@click.option(
    "-l", "--files-with-matches", "files_only", is_flag=True, help="Print only the files' paths."
)
@click.option("-c", "--count", "count", is_flag=True, help="Print path:N, the lines matched.")
@click.option(
    "-C",
    "--context",
    "context",
    type=click.IntRange(0, 1000),
    default=0,
    help="Lines of context around each match (path-line-text; -- between groups).",
)
@click.option("--color/--no-color", default=None, help="Colour the output (default: on a tty).")
def grep(
    pattern: str,
    paths: tuple[str, ...],
    repo: str | None,
    rev: str | None,
    fixed: bool,
    ignore_case: bool,
    word: bool,
    files_only: bool,
    count: bool,
    context: int,
    color: bool | None,
) -> None:
    """Print path:line:text for every line matching PATTERN at the revision.

    Searches the commit's tree, never the work tree; PATHS are literal files or directories
    of it (a symlink in it followed, as rg follows one; a path it lacks is an error). Exits 0
    when something matched, 1 when nothing did, 2 on errors.
    """
    use_color = sys.stdout.isatty() if color is None else color
    found = 0
    with open_revision(repo, rev) as revision:
        try:
            hits = revision.grep(
                pattern, fixed=fixed, ignore_case=ignore_case, word=word, paths=paths
            )
            for line in _grep_lines(revision, hits, files_only, count, context, use_color):
                found += 1
                click.echo(line, color=use_color)
        except BadPattern as error:
            raise InputError(f"{error} (-F searches for PATTERN as written)") from None
        except RevisionError as error:
            raise InputError(str(error)) from None
    raise SystemExit(0 if found else 1)


def _grep_lines(
    revision: Revision,
    hits: Iterator[GrepHit],
    files_only: bool,
    count: bool,
    context: int,
    color: bool,
) -> Iterator[str]:
    """What `assay grep` prints of ``hits`` (streamed in path order): each hit, the files
    (``-l``), their counts (``-c``), or each hit with ``context`` lines around it."""
    if not (files_only or count or context):
        yield from (format_hit(hit, color=color) for hit in hits)
        return
    by_file: list[GrepHit] = []
    groups = 0
    for hit in chain(hits, [None]):
        if by_file and (hit is None or hit.path != by_file[0].path):
            path = terminal_safe(by_file[0].path)
            if files_only:
                yield click.style(path, fg="magenta") if color else path
            elif count:
                yield f"{click.style(path, fg='magenta') if color else path}:{len(by_file)}"
            else:
                if groups:
                    yield "--"  # as grep -C parts one file's from the next
                yield from _in_context(revision, by_file, context, color)
            groups += 1
            by_file = []
        if hit is not None:
            by_file.append(hit)


def _in_context(
    revision: Revision, hits: list[GrepHit], context: int, color: bool
) -> Iterator[str]:
    """One file's hits with ``context`` lines around each (``path-line-text``), ``--`` between
    groups that do not touch, as grep -C prints them."""
    source = revision.read(hits[0].path)
    lines = source.lines if source.text_here else []
    if len(lines) < hits[-1].line:  # not read here (in a submodule's clone): the hits alone
        yield from (format_hit(hit, color=color) for hit in hits)
        return
    matched = {hit.line: hit for hit in hits}
    shown: list[int] = []
    for hit in hits:
        low, high = max(1, hit.line - context), min(len(lines), hit.line + context)
        shown += [n for n in range(low, high + 1) if not shown or n > shown[-1]]
    path = terminal_safe(hits[0].path)
    previous = 0
    for number in shown:
        if previous and number > previous + 1:
            yield "--"
        previous = number
        if number in matched:
            yield format_hit(matched[number], color=color)
            continue
        yield _located(path, number, "-", terminal_safe(lines[number - 1]), color)


def format_hit(hit: GrepHit, *, color: bool) -> str:
    """One ``path:line:text`` line, matches coloured like git grep when ``color``."""
    path, text = terminal_safe(hit.path), hit.text
    if not color:
        return _located(path, hit.line, ":", terminal_safe(text), color)
    body = "".join(
        click.style(terminal_safe(piece), fg="red", bold=True) if matched else terminal_safe(piece)
        for piece, matched in _pieces(text, hit.spans)
    )
    return _located(path, hit.line, ":", body, color)


def _located(path: str, line: int, separator: str, body: str, color: bool) -> str:
    """``path:line:body`` (``-`` for a context line), coloured like git grep when ``color``."""
    if not color:
        return f"{path}{separator}{line}{separator}{body}"
    mark = click.style(separator, fg="cyan")
    number = click.style(str(line), fg="green")
    return f"{click.style(path, fg='magenta')}{mark}{number}{mark}{body}"


def _pieces(text: str, spans: tuple[tuple[int, int], ...]) -> Iterator[tuple[str, bool]]:
    at = 0
    for start, end in sorted(spans):
        start, end = max(start, at), min(end, len(text))
        if start >= end:
            continue
        yield text[at:start], False
        yield text[start:end], True
        at = end
    yield text[at:], False


@click.command(short_help="Browse a revision: find files, grep, go to line, links.")
@click.argument("file", required=False, metavar="[PATH[:LINE]]")
@repo_option()
@click.option("--rev", default=None, help="Revision to browse (default HEAD).")
@keymap_option
def browse(file: str | None, repo: str | None, rev: str | None, preset: str | None) -> None:
    """Browse a revision without reports: file finder, grep, go to line, permalinks.

    Keys (default keymap): o or / open a file by name, ctrl+f find in the file, G grep, : or g
    go to line, y copy permalink, b what cites the file, ? every key, q quit.
    """
    from keymaps.loader import usable_keymap

    path: str | None = None
    line: int | None = None
    if file:
        match = _RANGE.search(file)
        if match is not None and match.start() > 0 and not match[2]:
            path, line = file[: match.start()], int(match[1])
        else:
            path = file
    keymap, problem = usable_keymap(preset)
    revision = open_revision(repo, rev)
    from screens.themes import theme_file
    from tui.app import run
    from tui.factory import make_browse_app

    app = make_browse_app(revision, path=path, line=line, keymap=keymap, theme_file=theme_file())
    if problem is not None:
        app.warn_on_start(problem)
    run(app)


__all__ = ["browse", "grep", "show", "parse_target", "format_hit", "terminal_safe"]
