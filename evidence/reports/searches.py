"""The search commands a report's line writes (`rg -n 'require_token' api/server.py`), read to
be run again at the revision: the tool, its options, the pattern and the paths, as a shell
would split them, and the sentence around the command (the claim it supports).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import islice

from evidence.model import SearchReplay
from evidence.reports.revisions import sentence_around
from evidence.reports.vocabulary import PATTERN_FLAGS, SEARCH_RE, VALUE_FLAGS, is_path_like

__all__ = ["searches_in"]


def searches_in(line: str) -> Iterator[SearchReplay]:
    """Each search command the line writes, in order (its report line and record not set)."""
    position = 0
    while True:
        match = SEARCH_RE.search(line, position)
        if match is None:
            return
        result = _search(line, match.start(), match.group(1))
        if result is None:
            position = match.end()
            continue
        replay, position = result
        yield replay


def _tokens(line: str, position: int) -> Iterator[tuple[str, bool, int]]:
    """Shell-like words from ``position``: (word, was quoted, end offset)."""
    length = len(line)
    while True:
        while position < length and line[position] in " \t":
            position += 1
        if position >= length:
            return
        quote = line[position]
        if quote in "'\"":
            close = line.find(quote, position + 1)
            if close < 0:
                return
            yield line[position + 1 : close], True, close + 1
            position = close + 1
        else:
            end = position
            while end < length and line[end] not in " \t":
                end += 1
            yield line[position:end], False, end
            position = end


#: the words of a search command read at most (its tool, options, pattern and paths)
_MOST_WORDS = 64
#: an unquoted pattern that is a word of a sentence (lowercase letters, maybe its punctuation)
_PROSE_WORD = re.compile(r"[a-z]+[.,:;]?")


def _search(line: str, start: int, tool: str) -> tuple[SearchReplay, int] | None:
    """The search command starting at ``line[start:]``, if the words after the tool make one."""
    flags: list[str] = []
    paths: list[str] = []
    pattern: str | None = None
    quoted_pattern = False
    options_done = False
    end = start + len(tool)
    words = islice(_tokens(line, end), _MOST_WORDS)  # a line of "grep -e grep -e ..." is no
    for word, quoted, word_end in words:  # command: each "grep" read to its end was quadratic
        bare = word.strip("`")
        if not quoted and not options_done and bare == "--":
            options_done, end = True, word_end
            continue
        if not quoted and not options_done and bare.startswith("-") and len(bare) > 1:
            flags.append(bare)
            end = word_end
            if bare in VALUE_FLAGS or bare in PATTERN_FLAGS:
                value = next(words, None)
                if value is None:
                    break
                if bare in PATTERN_FLAGS and pattern is None:
                    pattern, quoted_pattern = value[0], value[1]
                    flags.pop()
                else:
                    flags.append(value[0])
                end = value[2]
            continue
        if pattern is None:
            if not bare and not quoted:
                break
            pattern, quoted_pattern, end = (word if quoted else bare), quoted, word_end
            continue
        candidate = bare.rstrip(".,;:)")
        if quoted or not (is_path_like(candidate) or candidate in (".", "./")):
            break
        paths.append(candidate)
        leading = len(word) - len(word.lstrip("`"))
        end = word_end - len(word) + leading + len(candidate)
        if candidate != bare:
            break
    if pattern is None or not (quoted_pattern or flags or paths):
        return None
    in_code = start > 0 and line[start - 1] == "`"
    if not (quoted_pattern or paths or in_code) and _PROSE_WORD.fullmatch(pattern):
        return None  # "a grep -r over the tree": a flag, then a word of the sentence
    command = line[start:end].rstrip("`")
    sentence = sentence_around(line, start, end)
    replay = SearchReplay(command, tool, pattern, tuple(flags), tuple(paths), sentence, 0, "")
    return replay, end
