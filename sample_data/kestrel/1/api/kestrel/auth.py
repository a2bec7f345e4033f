"""Bearer tokens for station devices and coordinators."""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from pathlib import Path

from kestrel.http import Request

SCOPES = frozenset({"tickets:read", "tickets:write", "notes:write", "stations:read"})


@dataclass(frozen=True)
class Token:
    holder: str
    scopes: frozenset[str]


def load_tokens(path: Path) -> dict[str, Token]:
    """Read `digest holder scope,scope` lines; blank lines and # comments are skipped."""
    tokens: dict[str, Token] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        digest, holder, scopes = line.split(maxsplit=2)
        tokens[digest] = Token(holder, frozenset(scopes.split(",")) & SCOPES)
    return tokens


TOKENS: dict[str, Token] = {}


def require_token(request: Request, scope: str = "tickets:read") -> Token | None:
    header = request.headers.get("authorization", "")
    if not header.startswith("Bearer "):
        return None
    digest = hashlib.sha256(header.removeprefix("Bearer ").encode()).hexdigest()
    for known, token in TOKENS.items():
        if hmac.compare_digest(known, digest) and scope in token.scopes:
            return token
    return None
