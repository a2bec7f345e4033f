"""A reStructuredText document read as it renders, line for line (see read_as.py).

What a reader copies from a rendered page (Sphinx, a code host) has a link's or a role's text
but not its target, no section underlines, directive or comment lines, list marks or table
borders, and ``::`` before a literal block is a colon; a substitution the document defines
shows its text, and a function's or method's role ``()`` after it, as Sphinx shows them.
Literal blocks are left as written; a line of the file stays one line, so that the lines found
are the file's own.
"""

from __future__ import annotations

import re

__all__ = ["RST_NOTE", "rst_text"]

#: how the note of a quote found in a reStructuredText document read as it renders starts
RST_NOTE = "rst:"
# a section's underline or overline: one punctuation character repeated
_ADORNMENT = re.compile(r"^([=\-`:'\"~^_*+#<>.])\1{2,}\s*$")
# ".. note::", ".. code-block:: python", ".. _label:", ".. |sub| image:: x", ".. a comment"
_EXPLICIT = re.compile(r"^\s*\.\.(?:\s|$)")
_ADMONITION = re.compile(
    r"^\s*\.\.\s+(attention|caution|danger|error|hint|important|note|tip|warning|seealso)::\s*",
    re.IGNORECASE,
)
_OPTION = re.compile(r"^\s+:[\w-]+:(?:\s|$)")  # a directive's option, under it
# `text <target>`_ and `text <target>`__: the text; `text`_ : the text; text_ stays a word
_LINK = re.compile(r"`([^`<>\n]+?)\s*<[^`<>\n]+>`__?")
_NAMED = re.compile(r"`([^`<>\n]+)`__?")
# :role:`text`, :role:`Title <target>`, :py:func:`~a.b` (its last part)
_ROLE = re.compile(r":(?:[\w-]{1,40}:){0,2}([\w-]{1,40}):`(~?)([^`<\n]*?)(?:\s*<[^`\n]*>)?`")
_FOOTNOTE_TEXT = re.compile(r"^\s*\.\.\s+\[(?:#\w*|\*|\d+|[\w.-]+)\]\s+")
_FOOTNOTE = re.compile(r"\s?\[(?:#|\*|\d+|#\w+)\]_")
_BULLET = re.compile(r"^(\s*)(?:[-*+•]|#\.|\d{1,9}[.)]|\(\d{1,9}\)|[a-zA-Z][.)])\s+")
_LINE_BLOCK = re.compile(r"^(\s*)\|\s")
_GRID_BORDER = re.compile(r"^\s*\+(?:[-=]+\+)+\s*$")
_SIMPLE_BORDER = re.compile(r"^\s*=+(?:\s+=+)+\s*$")
_ESCAPE = re.compile(r"\\(.)")
# ".. |name| replace:: text" (or unicode:: U+00A9, image:: a.png): a substitution's definition
_SUBSTITUTION = re.compile(r"^\s*\.\.\s+\|([^|\n]{1,80})\|\s+(replace|unicode|image)::\s*(.*)$")
_UNICODE_CODE = re.compile(r"^(?:U\+|u|0x|\\x|&#x)([0-9a-fA-F]{1,6});?$")
# |name| where a substitution is used (|name|_ links it)
_SUBSTITUTED = re.compile(r"\|([^|\s][^|\n]{0,79})\|(?:__?)?")
# the roles Sphinx shows with "()" after their text (add_function_parentheses)
_CALLABLE_ROLES = frozenset({"func", "meth"})


def rst_text(text: str) -> str | None:
    """The document as it renders, each line where the file has it (underlines, directives,
    comments and table borders blank); None when reading it so changes nothing."""
    read: list[str] = []
    substitutions = _substitutions(text) if "|" in text else {}
    literal: int | None = None  # the indentation a literal block's lines are deeper than
    indented_after = False  # the line before was ``::``: a literal block follows
    for line in text.split("\n"):
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if literal is not None:
            if not stripped or indent > literal:
                read.append(line)
                continue
            literal = None
        if indented_after and stripped:
            indented_after = False
        if _ADORNMENT.match(line) or _GRID_BORDER.match(line) or _SIMPLE_BORDER.match(line):
            read.append("")
            continue
        admonition = _ADMONITION.match(line)
        if admonition is not None:  # rendered as its title, then its text
            title = admonition.group(1).capitalize().replace("Seealso", "See also")
            read.append(f"{title} {_inline(line[admonition.end() :], substitutions)}".rstrip())
            continue
        note = _FOOTNOTE_TEXT.match(line)
        if note is not None:  # a footnote's text, shown at the page's end
            read.append(_inline(line[note.end() :], substitutions))
            continue
        if _EXPLICIT.match(line):
            if "::" in line:  # a directive's body (code-block, literalinclude) stays as written
                literal = indent
            read.append("")
            continue
        if _OPTION.match(line) and read and not read[-1].strip():
            read.append("")
            continue
        if stripped.endswith("::"):
            literal = indent
            line = line.rstrip()[:-2].rstrip()
            line = line + ":" if line.strip() else line
        read.append(_inline(line, substitutions))
    rendered = "\n".join(read)
    return None if rendered == text else rendered


def _substitutions(text: str) -> dict[str, str]:
    """What each ``|name|`` defined in the document shows: a replacement's text, a Unicode
    character's, nothing for an image (Sphinx's own, from its configuration, stay as written)."""
    found: dict[str, str] = {}
    for line in text.split("\n"):
        definition = _SUBSTITUTION.match(line)
        if definition is None:
            continue
        name, kind, value = definition.groups()
        if kind == "unicode":
            value = value.split(" .. ", 1)[0]  # a comment after the codes
            codes = [_UNICODE_CODE.match(part) for part in value.split()]
            value = "".join(
                chr(int(code.group(1), 16)) if code and int(code.group(1), 16) <= 0x10FFFF else part
                for code, part in zip(codes, value.split(), strict=True)
            )
        found[name] = "" if kind == "image" else value.strip()
    return found


def _inline(line: str, substitutions: dict[str, str]) -> str:
    """One line outside literal blocks as it renders."""
    if substitutions and "|" in line:  # before a row's bars: "|logo|" alone is no table
        line = _SUBSTITUTED.sub(lambda use: substitutions.get(use.group(1), use.group(0)), line)
    if line.lstrip().startswith("|") and line.rstrip().endswith("|"):  # a grid table's row
        line = line.replace("|", " ")
    line = _BULLET.sub(r"\1", line, count=1)
    line = _LINE_BLOCK.sub(r"\1", line, count=1)
    line = _ROLE.sub(_role_text, line)
    line = _NAMED.sub(r"\1", _LINK.sub(r"\1", line))
    line = _FOOTNOTE.sub("", line)
    return _ESCAPE.sub(r"\1", line)


def _role_text(role: re.Match[str]) -> str:
    """A role's text as rendered: ``~a.b.c`` shows ``c``; a function's or method's, without a
    title of its own, ends in ``()`` as Sphinx shows it."""
    tilde, text = role.group(2), role.group(3).strip()
    shown = text.rsplit(".", 1)[-1] if tilde else text
    titled = role.group(0).rstrip("`").rstrip().endswith(">")
    if role.group(1) in _CALLABLE_ROLES and not titled and shown and not shown.endswith(")"):
        shown += "()"
    return shown
