"""The revisions a report names besides its full commit ids: abbreviated ids where the words
say so ("at commit 150ffaa"), and, in a report naming no commit, a tag ("tagged v0.3.0"); and
the sentence around a mention, as `RevisionMention` keeps it."""

from __future__ import annotations

from evidence.model import RevisionMention
from evidence.reports.vocabulary import SHORT_SHA_RE, TAG_MENTION_RE

__all__ = ["abbreviated_revisions", "sentence_around", "tagged_revisions"]

#: a sentence shown around a revision is looked for this far either side (a line of many
#: mentions and no sentence's end was searched to both its ends for each of them)
_SENTENCE_REACH = 400


def sentence_around(line: str, start: int, end: int) -> str:
    """The sentence of ``line`` around ``line[start:end]`` (at most `_SENTENCE_REACH`
    characters either side)."""
    left = floor = max(0, start - _SENTENCE_REACH)
    for stop in (". ", "? ", "! ", "; "):
        found = line.rfind(stop, floor, start)
        if found >= 0:
            left = max(left, found + 2)
    right = min(len(line), end + _SENTENCE_REACH)
    for stop in (". ", "? ", "! "):
        found = line.find(stop, end, right)
        if 0 <= found < right:
            right = found + 1
    return line[left:right].strip()


def abbreviated_revisions(lines: list[str]) -> list[RevisionMention]:
    """The abbreviated commit ids a report writes where the words say so ("at commit 150ffaa"),
    for a report that names none in full: one scan of its whole text, not one per line."""
    text = "\n".join(lines)
    found: list[RevisionMention] = []
    # the line of the last mention, kept for the next: a line of many was cut out, and its
    # lines before counted, once per mention
    start, end, number, line = 0, -1, 1, ""
    for short in SHORT_SHA_RE.finditer(text):
        if any(char.isdigit() for char in short.group(1)):  # "commit effaced" is prose
            if short.start(1) > end:  # on a later line
                begins = text.rfind("\n", start, short.start(1)) + 1 or start
                number += text.count("\n", start, begins)
                start, end = begins, text.find("\n", short.end(1))
                end = len(text) if end < 0 else end
                line = text[start:end]
            sentence = sentence_around(line, short.start(1) - start, short.end(1) - start)
            found.append(RevisionMention(short.group(1).lower(), sentence, number))
    return found


def tagged_revisions(lines: list[str]) -> list[RevisionMention]:
    """The tags a report names ("which the repository tags v0.3.0"), for a report that names no
    commit id: each as ``refs/tags/NAME`` (a tag, never a branch of that name)."""
    found: list[RevisionMention] = []
    for number, line in enumerate(lines, 1):
        if "tag" not in line.lower():
            continue
        for tag in TAG_MENTION_RE.finditer(line):
            name = tag.group(1)
            # a release's name: a digit, and a letter or a dot or dash ("tags 12 kinds" is prose)
            release = any(c.isdigit() for c in name) and not name.isdigit()
            if release and not name.endswith(".lock"):
                sentence = sentence_around(line, tag.start(1), tag.end(1))
                found.append(RevisionMention(f"refs/tags/{name}", sentence, number))
    return found
