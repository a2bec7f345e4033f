"""A deliberately tiny request/response layer so the API has no framework dependency."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from http import HTTPStatus


@dataclass
class Request:
    method: str
    path: str
    headers: dict[str, str] = field(default_factory=dict)
    query: dict[str, str] = field(default_factory=dict)
    body: bytes = b""


@dataclass
class Response:
    status: HTTPStatus
    body: bytes
    content_type: str = "application/json"


def json_response(payload: object, status: HTTPStatus = HTTPStatus.OK) -> Response:
    return Response(status, json.dumps(payload, ensure_ascii=False).encode("utf-8"))


def error(status: HTTPStatus, message: str) -> Response:
    return json_response({"ok": False, "error": message}, status)
