"""``git grep`` at a commit: the hits streamed back as they come, with the spans of the matches.

git finds the lines; the spans (character offsets of the matches in a hit's text, for display)
are found again with Python's re, best effort: none when the pattern is not valid Python.

A file is binary by git's own rule alone (a NUL in its first 8000 bytes), as assay reads it
everywhere else: the repository's attributes (``-diff``, ``binary``), which would make git skip a
text file, are not read (`NO_ATTRIBUTES`; git runs in an empty directory, so that no
``.gitattributes`` is found where it looks for the work tree's). ``info/attributes`` cannot be
turned off: when the repository has one, git searches every file as text and the hits of binary
files are dropped here (`ATTRIBUTES_FILE`).
"""

from __future__ import annotations

import re
import subprocess
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from evidence.git.process import (
    RevisionError,
    error_line,
    git_command,
    run_git,
    safe_environment,
    stop,
)
from evidence.git.tree import TreeEntry, decode_path

__all__ = [
    "BadPattern",
    "GrepHit",
    "Syntax",
    "as_read",
    "gitlinks",
    "grep",
    "held_as_written",
    "is_under",
    "matcher",
    "prefixed",
    "pointer_paths",
    "then_read",
    "with_lfs_content",
]

Syntax = Literal["basic", "extended", "perl"]

#: ``-c`` options that keep git from reading attributes: a file of them named in the
#: repository's config, and (git 2.43 on) the ``.gitattributes`` of a bare repository's HEAD,
#: read from the empty tree instead (as GitLab's Gitaly does; ignored by an older git)
NO_ATTRIBUTES = (
    "-c",
    "core.attributesFile=/dev/null",
    "-c",
    "attr.tree=4b825dc642cb6eb9a060e54bf8d69288fbee4904",
)
#: the attributes file git reads whatever the command line says, in the common git directory
ATTRIBUTES_FILE = ("info", "attributes")
#: how much of a file git's rule for binary files looks at
_PROBE = 8000


class BadPattern(RevisionError):
    """git could not read the search pattern as a regular expression (a fixed string is
    searched as written)."""


@dataclass(frozen=True)
class GrepHit:
    """One line matched by a grep at the revision; spans are character offsets in `text`."""

    path: str
    line: int
    text: str
    spans: tuple[tuple[int, int], ...] = ()


def grep(
    git_dir: Path,
    commit: str,
    pattern: str,
    *,
    fixed: bool,
    ignore_case: bool,
    paths: Iterable[str],
    cancel: threading.Event | None,
    syntax: Syntax,
    word: bool,
    has_pcre: Callable[[], bool],
    read_file: Callable[[str], bytes | None],
) -> Iterator[GrepHit]:
    """Lines matching ``pattern`` at ``commit``, streamed in path order; binary files skipped.

    ``syntax`` picks the regex dialect when not ``fixed`` ("perl" falls back to "extended" when
    ``has_pcre()`` says this git lacks PCRE). ``read_file``: the bytes of a file at ``commit``
    (None: not a file there), asked only when the repository has an attributes file of its own.
    A bad pattern raises RevisionError.
    """
    every_file = _attributes_file(git_dir)
    hits = _grep(
        git_dir,
        commit,
        pattern,
        fixed=fixed,
        ignore_case=ignore_case,
        paths=paths,
        cancel=cancel,
        mode=_mode(fixed, syntax, has_pcre),
        word=word,
        every_file=every_file,
    )
    return _text_files_only(hits, read_file) if every_file else hits


def as_read(
    hits: Iterable[GrepHit],
    lines_of: Callable[[str], list[str] | None],
    spans_of: Callable[[str], tuple[tuple[int, int], ...]],
) -> Iterator[GrepHit]:
    """The hits, a line that is not UTF-8 (U+FFFD in git's) read as its file is read
    (``lines_of``: the file's lines when it is not UTF-8 text, Windows-1252 say; else None)."""
    read: dict[str, list[str] | None] = {}
    for hit in hits:
        if "\ufffd" in hit.text:
            if hit.path not in read:
                read[hit.path] = lines_of(hit.path)
            lines = read[hit.path]
            if lines is not None and hit.line <= len(lines):
                text = lines[hit.line - 1]
                hit = GrepHit(hit.path, hit.line, text, spans_of(text))
        yield hit


def prefixed(link: str, hits: Iterable[GrepHit]) -> Iterator[GrepHit]:
    """A submodule's hits, each path as the outer tree names it (``link``: the submodule's)."""
    for hit in hits:
        yield GrepHit(f"{link}/{hit.path}", hit.line, hit.text, hit.spans)


def held_as_written(git_dir: Path, commit: str, paths: Iterable[str]) -> bool:
    """True when each path is a file or a directory at ``commit`` as written (a search of it
    needs no spelling: `Revision.grep` then skips listing the whole tree)."""
    wanted = set(paths) - {"", "."}  # as given (normalized, or a name the tree lists so)
    if not wanted:
        return True
    specs = (f":(literal){path}" for path in wanted)
    found = run_git(git_dir, git_dir, "ls-tree", "-z", "--full-tree", commit, "--", *specs)
    plain = set()  # a file or a directory: not a symlink (120000), not a submodule
    for entry in found.stdout.split(b"\0"):
        info, tab, name = entry.partition(b"\t")
        if tab and info.split(b" ")[:2] in _PLAIN:
            plain.add(decode_path(name))
    return found.returncode == 0 and wanted <= plain


def gitlinks(git_dir: Path, commit: str) -> dict[str, str]:
    """The submodules at ``commit`` (path -> the commit it pins) that its .gitmodules names
    (none without one: the tree is not listed for them)."""
    from evidence.git.submodules import submodules

    listed = run_git(git_dir, git_dir, "cat-file", "blob", f"{commit}:.gitmodules")
    if listed.returncode != 0:
        return {}
    paths = submodules(listed.stdout.decode("utf-8", "replace"))
    if not paths:
        return {}
    if len(paths) <= _NAMED_LINKS:
        named = [commit, "--", *(f":(literal){path}" for path in paths)]
    else:  # more than a command line holds: the whole tree, listed once
        named = ["-r", commit]
    found = run_git(git_dir, git_dir, "ls-tree", "-z", "--full-tree", *named)
    links = {}
    for entry in found.stdout.split(b"\0"):
        info, tab, name = entry.partition(b"\t")
        fields = info.split(b" ")
        if tab and fields[:2] == [b"160000", b"commit"] and len(fields) == 3:
            links[decode_path(name)] = fields[2].decode("ascii", "replace")
    return {path: links[path] for path in paths if path in links}


#: submodules looked up by name in one ls-tree (a .gitmodules naming more lists the tree)
_NAMED_LINKS = 200


#: the modes and types of `held_as_written`'s files and directories
_PLAIN = ([b"100644", b"blob"], [b"100755", b"blob"], [b"040000", b"tree"])


def _mode(fixed: bool, syntax: Syntax, has_pcre: Callable[[], bool]) -> str:
    if fixed:
        return "-F"
    if syntax == "perl":
        return "-P" if has_pcre() else "-E"
    return "-E" if syntax == "extended" else "-G"


def _attributes_file(git_dir: Path) -> bool:
    """True when the repository keeps ``info/attributes`` (git reads it, and it may say a text
    file is binary)."""
    from evidence.git.submodules import common_directory

    try:
        return common_directory(git_dir).joinpath(*ATTRIBUTES_FILE).stat().st_size > 0
    except OSError:
        return False


def _text_files_only(
    hits: Iterator[GrepHit], read_file: Callable[[str], bytes | None]
) -> Iterator[GrepHit]:
    """The hits of the files that git's own rule reads as text (no NUL in the first 8000
    bytes), each file read once."""
    binary: dict[str, bool] = {}
    for hit in hits:
        if hit.path not in binary:
            data = read_file(hit.path)
            binary[hit.path] = data is None or b"\0" in data[:_PROBE]
        if not binary[hit.path]:
            yield hit


def _grep(
    git_dir: Path,
    commit: str,
    pattern: str,
    *,
    fixed: bool,
    ignore_case: bool,
    paths: Iterable[str],
    cancel: threading.Event | None,
    mode: str,
    word: bool,
    every_file: bool,
) -> Iterator[GrepHit]:
    """git's hits; ``every_file``: binary files searched too (git's attributes may be wrong)."""
    if "\0" in pattern or "\n" in pattern:
        raise RevisionError("a search pattern cannot contain a newline or NUL")
    if not pattern:
        raise RevisionError("empty search pattern")
    args = [
        *NO_ATTRIBUTES,
        "grep",
        "-n",
        "-z",
        "--text" if every_file else "-I",
        "--full-name",
        "--no-column",  # grep.column would put a column number before each hit's text
        "--no-color",
        "--no-textconv",
        "--no-recurse-submodules",
        mode,
    ]
    if ignore_case:
        args.append("-i")
    if word:
        args.append("-w")
    args += ["-e", pattern, commit, "--"]
    # "" and "." mean the whole tree; every other path is a literal pathspec, never a glob
    # (normalized by the caller, unless the tree lists it as given: a backslash in a name)
    args += [f":(literal){path}" for path in paths if path not in ("", ".")]
    spans_of = _span_finder(pattern, fixed=fixed, ignore_case=ignore_case, mode=mode, word=word)
    # stderr to a file, not a pipe: git writes an error per file it cannot read, and a full
    # pipe nobody reads until stdout ends would stop git, and this loop with it, for good
    with tempfile.TemporaryFile() as errors, tempfile.TemporaryDirectory() as nowhere:
        process = subprocess.Popen(
            git_command(git_dir, *args),
            cwd=nowhere,  # git reads a .gitattributes here as the work tree's
            env=safe_environment(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=errors,
        )
        assert process.stdout is not None
        prefix = commit.encode("ascii") + b":"
        done = threading.Event()
        if cancel is not None:
            # git may search for seconds without printing a line: stop it as soon as asked
            threading.Thread(target=_kill_on, args=(cancel, done, process), daemon=True).start()
        try:
            pending = b""
            for raw in process.stdout:
                if cancel is not None and cancel.is_set():
                    return
                # a newline in a file's name ends no hit: split there, "evil\nsrc/auth.py" would
                # show its lines as src/auth.py's; the NULs after the path say where a hit ends
                chunk = pending + raw
                if chunk.count(b"\0") < 2 and chunk.endswith(b"\n"):
                    pending = chunk
                    continue
                pending = b""
                parts = chunk.rstrip(b"\n").split(b"\0", 2)
                if len(parts) != 3:
                    continue
                raw_path, raw_line, raw_text = parts
                path = decode_path(raw_path.removeprefix(prefix))
                text = raw_text.decode("utf-8", "replace").removesuffix("\r")
                try:
                    line = int(raw_line)
                except ValueError:
                    continue
                yield GrepHit(path, line, text, spans_of(text))
            process.wait()
            if cancel is not None and cancel.is_set():
                return
            errors.seek(0)
            said = errors.read(1 << 20)
            if process.returncode not in (0, 1):
                message = error_line(said)
                # git names a pattern it cannot read by its argument ("-e option, 'def main(':
                # missing closing parenthesis"): the reason alone, the pattern named once
                reason = message.removeprefix(f"-e option, '{pattern}': ")
                if reason != message:
                    raise BadPattern(f"{pattern!r} is not a valid regular expression: {reason}")
                raise RevisionError(f"search for {pattern!r} failed: {message}")
            unread = unread_objects(said, len(commit))
            if unread:  # git still exits 0 or 1: the hits above miss those files
                raise RevisionError(
                    f"search for {pattern!r} is incomplete: git could not read {unread} file(s) "
                    f"({error_line(said)}); the repository is damaged or a partial clone"
                )
        finally:
            done.set()
            if process.poll() is None:
                process.kill()
            stop(process)


#: the first line of a Git LFS pointer (evidence/git/lfs.py), as `pointer_paths` finds them
LFS_SIGNATURES = (
    "version https://git-lfs.github.com/spec/v1",
    "version https://hawser.github.com/spec/v1",
)


def pointer_paths(git_dir: Path, commit: str, paths: Iterable[str]) -> list[str]:
    """The paths at ``commit`` (under ``paths``) whose blob starts like a Git LFS pointer: git
    greps the pointers, never their content (the caller reads that)."""
    binary = "--text" if _attributes_file(git_dir) else "-I"
    args = [*NO_ATTRIBUTES, "grep", "-l", "-z", binary, "--full-name", "--no-textconv"]
    args.append("--no-recurse-submodules")
    for signature in LFS_SIGNATURES:
        args += ["-F", "-e", signature]
    args += [commit, "--", *(f":(literal){path}" for path in paths if path not in ("", "."))]
    with tempfile.TemporaryDirectory() as nowhere:
        found = run_git(git_dir, Path(nowhere), *args)
    prefix = commit.encode("ascii") + b":"
    return [decode_path(raw.removeprefix(prefix)) for raw in found.stdout.split(b"\0") if raw]


def is_under(path: str, paths: Iterable[str]) -> bool:
    """True when ``path`` is one of ``paths`` or inside one (none, "" or ".": the whole tree)."""
    wanted = [p for p in paths if p not in ("", ".")]
    return not wanted or any(path == p or path.startswith(p + "/") for p in wanted)


def then_read(
    hits: Iterator[GrepHit],
    spans_of: Callable[[str], tuple[tuple[int, int], ...]],
    paths: Callable[[], Iterable[str]],
    lines_of: Callable[[str], list[str] | None],
    cancel: threading.Event | None,
) -> Iterator[GrepHit]:
    """git's hits, then the matching lines (found with Python's re) of the files ``paths()``
    lists, asked once git's are done, as ``lines_of`` reads them (None: not such a file)."""
    yield from hits
    for path in paths():
        if cancel is not None and cancel.is_set():
            return
        for number, text in enumerate(lines_of(path) or (), 1):
            spans = spans_of(text)
            if spans:
                yield GrepHit(path, number, text, spans)


def with_lfs_content(
    hits: Iterator[GrepHit],
    spans_of: Callable[[str], tuple[tuple[int, int], ...]],
    entries: Mapping[str, TreeEntry],
    read_blob: Callable[[str], bytes],
    pointers: Callable[[], Iterable[str]],
    lines_of: Callable[[str], list[str] | None],
    cancel: threading.Event | None,
) -> Iterator[GrepHit]:
    """git's hits but those in Git LFS pointers, then the matching lines of the LFS files whose
    content this clone has (``pointers``: the paths `pointer_paths` lists, asked once git's are
    done; ``lines_of``: their
    content's lines, as `Revision.read` reads them). git greps the pointers, not the files."""
    from evidence.git.lfs import POINTER_LIMIT, parse_pointer

    for hit in hits:  # git's, streamed; a line of a pointer is not the file's
        entry = entries.get(hit.path)
        if (
            entry is None
            or entry.size >= POINTER_LIMIT
            or parse_pointer(read_blob(entry.oid)) is None
        ):
            yield hit
    for path in pointers():
        if cancel is not None and cancel.is_set():
            return
        for number, text in enumerate(lines_of(path) or (), 1):
            spans = spans_of(text)
            if spans:
                yield GrepHit(path, number, text, spans)


def matcher(
    pattern: str, *, fixed: bool, ignore_case: bool, syntax: Syntax, word: bool
) -> Callable[[str], tuple[tuple[int, int], ...]]:
    """The spans of ``pattern``'s matches in a line, with Python's re as `grep` computes them
    (no spans: no match, or a pattern Python cannot read)."""
    mode = "-G" if syntax == "basic" and not fixed else "-E"
    return _span_finder(pattern, fixed=fixed, ignore_case=ignore_case, mode=mode, word=word)


#: git grep's word for a file whose object it could not read, and the object's id (a run of
#: hex digits no longer than an id: two threads' lines run together make a longer one)
_UNREAD = re.compile(rb": unable to read ([0-9a-f]{40,64})(?![0-9a-f])")


def unread_objects(said: bytes, id_length: int) -> int:
    """How many objects git grep's stderr says it could not read. git says it twice for a file,
    and its threads' lines may run together: the distinct ids of the repository's length
    (40, or 64 for SHA-256) it names, not its lines (an id run into the next line's is no
    id: counted, it made 801 of 800 files)."""
    return len({found for found in _UNREAD.findall(said) if len(found) == id_length})


def _kill_on(
    cancel: threading.Event, done: threading.Event, process: subprocess.Popen[bytes]
) -> None:
    """Kill `process` once `cancel` is set, unless `done` is set first."""
    while not done.is_set():
        if cancel.wait(0.05):
            if process.poll() is None:
                process.kill()
            return


def _span_finder(pattern: str, *, fixed: bool, ignore_case: bool, mode: str, word: bool) -> _Spans:
    """Character spans of the matches in a hit's line, computed with Python's re."""
    flags = re.IGNORECASE if ignore_case else 0
    if fixed:
        source = re.escape(pattern)
    elif mode == "-G":
        source = _basic_to_python(pattern)
    else:
        source = pattern
    if word:
        source = rf"(?<!\w)(?:{source})(?!\w)"
    try:
        compiled = re.compile(source, flags)
    except (re.error, RecursionError, OverflowError):
        return _Spans(None)
    return _Spans(compiled)


class _Spans:
    """The spans of a compiled pattern's matches in a line (at most 100; none without one)."""

    def __init__(self, compiled: re.Pattern[str] | None) -> None:
        self.compiled = compiled

    def __call__(self, text: str) -> tuple[tuple[int, int], ...]:
        if self.compiled is None:
            return ()
        spans = []
        for match in self.compiled.finditer(text):
            if match.end() > match.start():
                spans.append((match.start(), match.end()))
            if len(spans) >= 100:
                break
        return tuple(spans)


def _basic_to_python(pattern: str) -> str:
    """Translate a POSIX basic regex (grep's default) to Python's dialect, best effort."""
    out: list[str] = []
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if char == "\\" and index + 1 < len(pattern):
            following = pattern[index + 1]
            out.append(following if following in "(){}|+?" else "\\" + following)
            index += 2
            continue
        out.append("\\" + char if char in "(){}|+?" else char)
        index += 1
    return "".join(out)
