import hashlib

from kestrel import auth
from kestrel.auth import Token, require_token
from kestrel.http import Request


def _request(secret: str) -> Request:
    return Request("GET", "/tickets", headers={"authorization": "Bearer " + secret})


def test_token_with_scope_is_accepted(monkeypatch):
    digest = hashlib.sha256(b"s3cret").hexdigest()
    monkeypatch.setattr(auth, "TOKENS", {digest: Token("KS-00001", frozenset({"tickets:read"}))})
    assert require_token(_request("s3cret")) is not None
    assert require_token(_request("s3cret"), scope="tickets:write") is None


def test_missing_header_is_rejected():
    assert require_token(Request("GET", "/tickets")) is None
