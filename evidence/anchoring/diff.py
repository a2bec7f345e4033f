"""What differs between a quote and the passage it was matched with, token then character."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from rapidfuzz.distance import Levenshtein

from evidence.anchoring.normalize import TRANSLATION
from evidence.model import DiffPart


def diff_markup(parts: Iterable[DiffPart]) -> str:
    """The differences inline, as `git diff --word-diff` writes them: ``[-quote-]{+source+}``."""
    pieces = []
    for part in parts:
        if part.op == "equal":
            pieces.append(part.quote)
        elif part.op == "delete":
            pieces.append(f"[-{part.quote}-]")
        elif part.op == "insert":
            pieces.append(f"{{+{part.source}+}}")
        else:
            pieces.append(f"[-{part.quote}-]{{+{part.source}+}}")
    return "".join(pieces)


def char_diff(quote: Iterable[str], source: Iterable[str]) -> tuple[DiffPart, ...]:
    """What differs between two token sequences: token alignment, refined to characters."""
    q_tokens, s_tokens = list(quote), list(source)
    parts: list[DiffPart] = []

    def add(op: str, q: str, s: str) -> None:
        if not q and not s:
            return
        if parts and parts[-1].op == op:
            last = parts.pop()
            q, s = last.quote + q, last.source + s
        parts.append(DiffPart(op, q, s))

    for index, op in enumerate(Levenshtein.opcodes(q_tokens, s_tokens)):
        q = " ".join(q_tokens[op.src_start : op.src_end])
        s = " ".join(s_tokens[op.dest_start : op.dest_end])
        if index:
            # the space before this op belongs to whichever side has tokens in it
            if q and s:
                add("equal", " ", " ")
            elif q:
                add("delete", " ", "")
            else:
                add("insert", "", " ")
        if op.tag == "equal":
            add("equal", q, s)
        elif op.tag == "delete":
            add("delete", q, "")
        elif op.tag == "insert":
            add("insert", "", s)
        elif op.src_end - op.src_start == op.dest_end - op.dest_start:
            # as many tokens each side: each token against its own, so that two edits read as
            # two and not as one run from the first to the last
            pairs = zip(
                q_tokens[op.src_start : op.src_end],
                s_tokens[op.dest_start : op.dest_end],
                strict=True,
            )
            for number, (q_token, s_token) in enumerate(pairs):
                if number:
                    add("equal", " ", " ")
                _refined(add, q_token, s_token)
        else:
            _refined(add, q, s)
    return tuple(parts)


def _refined(add: Callable[[str, str, str], None], q: str, s: str) -> None:
    """Two differing texts as their common prefix and suffix around what differs, and that
    as what was added around the other where one holds the other (`option` in `**options`,
    `Widget` in ``` ``Widget`` ```)."""
    prefix = _common_prefix(q, s)
    suffix = _common_prefix(q[prefix:][::-1], s[prefix:][::-1])
    add("equal", q[:prefix], s[:prefix])
    q_mid, s_mid = q[prefix : len(q) - suffix], s[prefix : len(s) - suffix]
    if q_mid and s_mid and (q_mid in s_mid or s_mid in q_mid):
        op, outer, inner = ("insert", s_mid, q_mid) if q_mid in s_mid else ("delete", q_mid, s_mid)
        at = outer.index(inner)
        for piece, same in ((outer[:at], False), (inner, True), (outer[at + len(inner) :], False)):
            if same:
                add("equal", piece, piece)
            else:
                add(op, piece if op == "delete" else "", piece if op == "insert" else "")
    else:
        add("replace" if q_mid and s_mid else "delete" if q_mid else "insert", q_mid, s_mid)
    add("equal", q[len(q) - suffix :], s[len(s) - suffix :])


def _common_prefix(a: str, b: str) -> int:
    size = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        size += 1
    return size


#: what normalizing changes that is never the code's: typographic quotes, ellipsis characters
#: and no-break spaces made plain (backticks and asterisks may be the code's; see `as_written`)
_PLAIN = str.maketrans({k: v for k, v in TRANSLATION.items() if v is not None})


def written_diff(
    quote_text: str,
    quote_tokens: Sequence[str],
    source_lines: str,
    source_tokens: Sequence[str],
) -> tuple[DiffPart, ...]:
    """The differences of a fuzzy match as a reviewer reads them: the source's side as the file
    has it (`**options`, not the `options` the matcher compared), the quote's as the report has
    it but for formatting: list markers, typographic characters, and backticks or asterisks
    where the source's lines have none. `quote_tokens` and `source_tokens` are what the matcher
    compared (normalized), `source_lines` the matched lines; either side falls back to them
    when its text cannot be lined up with them."""
    source = _source_as_written(source_lines.split(), source_tokens)
    drop = "".join(c for c in "`*" if c not in source_lines)
    quote = _quote_as_written(quote_text.split(), quote_tokens, drop)
    return char_diff(quote or quote_tokens, source or source_tokens)


def _quote_as_written(raw: list[str], tokens: Sequence[str], drop: str) -> list[str] | None:
    written, at = [], 0
    for token in raw:
        compared = token.translate(TRANSLATION)
        shown = token.translate(_PLAIN).translate({ord(c): None for c in drop})
        if at < len(tokens) and compared == tokens[at]:
            written.append(shown)
            at += 1
        elif not compared and shown and 0 < at < len(tokens):
            written.append(shown)  # only characters the matcher drops, the code's here
        # else a list marker, a bullet or an ellipsis at an edge: the report's, not the quote's
    return written if at == len(tokens) else None


def _source_as_written(raw: list[str], tokens: Sequence[str]) -> list[str] | None:
    if not tokens:
        return None
    for start, token in enumerate(raw):
        if token.translate(TRANSLATION) != tokens[0]:
            continue
        written, at = [], 0
        for token in raw[start:]:
            compared = token.translate(TRANSLATION)
            if compared == tokens[at]:
                written.append(token)
                at += 1
                if at == len(tokens):
                    return written
            elif compared:
                break
            else:
                written.append(token)  # `**` or a backtick alone: the file's, shown
    return None
