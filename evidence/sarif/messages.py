"""SARIF messages -> plain text: ``text``, else ``markdown`` (shown as written, never rendered),
else the rule's (or the tool's) ``messageStrings`` entry filled with the message's arguments."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["fill", "message_text", "multiformat_text"]

_PLACEHOLDER = re.compile(r"\{\{|\}\}|\{(\d+)\}")
#: an embedded link to a location or a URL: ``[text](1)`` -> ``text``
_LINK = re.compile(r"(?<!\\)\[((?:[^\]\\]|\\.)*)\]\((\d+|[A-Za-z][A-Za-z0-9+.-]*:[^)\s]*)\)")
_ESCAPED = re.compile(r"\\([\[\]\\])")


def fill(template: str, arguments: Sequence[object]) -> str:
    """``template`` with ``{n}`` replaced by the n-th argument (``{{``/``}}`` are braces)."""

    def replace(match: re.Match[str]) -> str:
        whole = match.group()
        if whole == "{{":
            return "{"
        if whole == "}}":
            return "}"
        position = int(match.group(1))
        if position < len(arguments):
            return str(arguments[position])
        return whole  # an argument the scanner did not give: shown as the placeholder

    return _PLACEHOLDER.sub(replace, template)


def _plain(text: str) -> str:
    if "[" not in text and "\\" not in text:
        return text
    return _ESCAPED.sub(r"\1", _LINK.sub(lambda m: m.group(1), text))


def multiformat_text(value: object) -> str:
    """The text of a multiformatMessageString (``text``, else ``markdown``), "" when absent."""
    if type(value) is not dict:
        return ""
    for key in ("text", "markdown"):
        text = value.get(key)
        if isinstance(text, str) and text:
            return text
    return ""


def message_text(
    message: object,
    rule: Mapping[str, Any] | None = None,
    strings: Mapping[str, Any] | None = None,
) -> str:
    """A message as plain text. ``rule``: the result's rule (its messageStrings come first);
    ``strings``: the tool's globalMessageStrings. Embedded links keep their text."""
    if type(message) is not dict:
        return ""
    text = message.get("text")
    if not isinstance(text, str) or not text:
        text = message.get("markdown")
    if not isinstance(text, str) or not text:
        text = ""
        identifier = message.get("id")
        if isinstance(identifier, str):
            for table in (rule.get("messageStrings") if rule else None, strings):
                if isinstance(table, Mapping) and identifier in table:
                    text = multiformat_text(table[identifier])
                    break
    if not text:
        return ""
    arguments = message.get("arguments")
    if isinstance(arguments, list) and arguments:
        text = fill(text, arguments)
    return _plain(text)
