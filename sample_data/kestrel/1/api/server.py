"""HTTP entry point of the Kestrel API: routes requests to ticket, note and station handlers."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from http import HTTPStatus
from wsgiref.simple_server import make_server

from kestrel import stations
from kestrel.auth import require_token
from kestrel.config import load_settings
from kestrel.http import Request, Response, error, json_response
from kestrel.notes import NoteStore, NoteTooLarge
from kestrel.tickets import Severity, TicketNotFound, TicketStore, escalate_due

SETTINGS = load_settings()
TICKETS = TicketStore(SETTINGS.database_path)
NOTES = NoteStore(SETTINGS.database_path)


def clock() -> datetime:
    return datetime.now(UTC)


def health(request: Request) -> Response:
    return json_response({"ok": True, "service": "kestrel"})


def list_stations(request: Request) -> Response:
    region = request.query.get("region")
    found = [s.to_dict() for s in stations.STATIONS.values() if region in (None, s.region)]
    return json_response({"stations": found})


def list_tickets(request: Request) -> Response:
    if require_token(request, scope="tickets:read") is None:
        return error(HTTPStatus.UNAUTHORIZED, "missing or invalid token")
    station = request.query.get("station")
    return json_response({"tickets": [t.to_dict() for t in TICKETS.open_tickets(station)]})


def create_ticket(request: Request) -> Response:
    if require_token(request, scope="tickets:write") is None:
        return error(HTTPStatus.UNAUTHORIZED, "missing or invalid token")
    body = json.loads(request.body or b"{}")
    severity = Severity[str(body.get("severity", "normal")).upper()]
    ticket = TICKETS.open(body["station"], body["title"], severity, clock())
    return json_response(ticket.to_dict(), HTTPStatus.CREATED)


def escalate_ticket(request: Request, ticket_id: int) -> Response:
    if require_token(request, scope="tickets:write") is None:
        return error(HTTPStatus.UNAUTHORIZED, "missing or invalid token")
    try:
        ticket = TICKETS.escalate(ticket_id, clock())
    except TicketNotFound:
        return error(HTTPStatus.NOT_FOUND, f"no ticket {ticket_id}")
    return json_response(ticket.to_dict())


def upload_note(request: Request) -> Response:
    if require_token(request, scope="notes:write") is None:
        return error(HTTPStatus.UNAUTHORIZED, "missing or invalid token")
    body = json.loads(request.body or b"{}")
    try:
        note = NOTES.add(body["station"], body["body"], body.get("title", ""), body.get("ticket"))
    except NoteTooLarge as exc:
        return error(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, str(exc))
    return json_response(note.to_dict(), HTTPStatus.CREATED)


def run_escalation(request: Request) -> Response:
    escalated = escalate_due(TICKETS, clock())
    return json_response({"escalated": [t.id for t in escalated]})


ROUTES = {
    ("GET", "/health"): health,
    ("GET", "/stations"): list_stations,
    ("GET", "/tickets"): list_tickets,
    ("POST", "/tickets"): create_ticket,
    ("POST", "/notes"): upload_note,
    ("POST", "/escalations/run"): run_escalation,
}


def dispatch(request: Request) -> Response:
    handler = ROUTES.get((request.method, request.path))
    if handler is not None:
        return handler(request)
    if request.method == "POST" and request.path.startswith("/tickets/"):
        ticket_id, _, action = request.path.removeprefix("/tickets/").partition("/")
        if action == "escalate" and ticket_id.isdigit():
            return escalate_ticket(request, int(ticket_id))
    return error(HTTPStatus.NOT_FOUND, f"no route for {request.method} {request.path}")


def application(environ, start_response):  # type: ignore[no-untyped-def]
    length = int(environ.get("CONTENT_LENGTH") or 0)
    request = Request(
        method=environ["REQUEST_METHOD"],
        path=environ.get("PATH_INFO", "/"),
        headers={"authorization": environ.get("HTTP_AUTHORIZATION", "")},
        query=dict(p.split("=", 1) for p in environ.get("QUERY_STRING", "").split("&") if "=" in p),
        body=environ["wsgi.input"].read(length) if length else b"",
    )
    response = dispatch(request)
    start_response(f"{response.status.value} {response.status.phrase}",
                   [("Content-Type", response.content_type)])
    return [response.body]


if __name__ == "__main__":
    with make_server("127.0.0.1", 8040, application) as server:
        server.serve_forever()
