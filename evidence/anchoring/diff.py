"""What differs between a quote and the passage it was matched with, token then character."""

from __future__ import annotations

from collections.abc import Iterable

from rapidfuzz.distance import Levenshtein

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
        else:
            prefix = _common_prefix(q, s)
            suffix = _common_prefix(q[prefix:][::-1], s[prefix:][::-1])
            add("equal", q[:prefix], s[:prefix])
            q_mid, s_mid = q[prefix : len(q) - suffix], s[prefix : len(s) - suffix]
            add("replace" if q_mid and s_mid else "delete" if q_mid else "insert", q_mid, s_mid)
            add("equal", q[len(q) - suffix :], s[len(s) - suffix :])
    return tuple(parts)


def _common_prefix(a: str, b: str) -> int:
    size = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        size += 1
    return size
