"""Turns a request body into a session Command, and the session's Outcome into an HTTP answer.

Shared by ``POST /api/commands`` (source "api") and ``POST /control/commands`` (source "control").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, get_args

from flask import Response, jsonify
from werkzeug.exceptions import BadRequest, ServiceUnavailable

from companion.session.contract import Command, CommandKind, Outcome, Sender
from web import acting, limits
from web.context import current_session

KINDS: tuple[str, ...] = tuple(k for k in get_args(CommandKind) if k != "note")
"""What a client may send: a note is the companion's own record (a seat taken over), never a client's."""
_FIELDS = {"kind", "payload", "observation"}

# Outcome.error -> HTTP status. A refused action is a conflict with the game's position (409); a body
# the engine cannot even read, or a setup it cannot play, is the client's mistake (400).
STATUS_BY_ERROR: dict[str | None, int] = {
    None: 200,
    "malformed": 400,
    "setup": 400,
    "forbidden": 403,  # a phone acting for a seat it does not play, or sending another seat's secret
    "illegal": 409,
    "no_game": 409,
    "nothing_to_undo": 409,
    "nothing_to_redo": 409,
    "unavailable": 503,  # the writer did not take the command in time: nothing changed, try again
    "storage": 503,  # the event log cannot be written (disk full): nothing changed, fine once there is room
    "internal": 500,  # a bug in an engine or the log (logged by the session); nothing changed
}


def parse_command(body: Any, source: str, sender: Sender | None = None) -> Command:
    """A Command from a decoded JSON body; raises BadRequest saying what is wrong."""
    if not isinstance(body, Mapping):
        raise BadRequest('the body must be a JSON object like {"kind": "undo"}')
    extra = set(body) - _FIELDS
    if extra:
        raise BadRequest(f"unknown fields: {', '.join(sorted(map(str, extra)))}")
    kind = body.get("kind")
    if kind not in KINDS:
        raise BadRequest(f"'kind' must be one of {', '.join(KINDS)}")
    payload = body.get("payload", {})
    if payload is None:
        payload = {}
    if not isinstance(payload, Mapping):
        raise BadRequest("'payload' must be a JSON object")
    observation = body.get("observation")
    if observation is not None and not isinstance(observation, Mapping):
        raise BadRequest("'observation' must be a JSON object or null")
    if kind == "new_game":
        limits.check_player_names(payload)
    return Command(kind=kind, source=source, payload=dict(payload), observation=observation, sender=sender)


def json_body() -> Any:
    """The request's JSON body; BadRequest (or 413) unless it is JSON that parses within web.limits."""
    return limits.read_json()


def outcome_response(outcome: Outcome) -> tuple[Response, int]:
    status = STATUS_BY_ERROR.get(outcome.error, 200 if outcome.accepted else 409)
    return jsonify(outcome.to_json()), status


def submit_from_request(source: str) -> tuple[Response, int]:
    """Parses the JSON body, submits it to the session as its sender (web.acting) and answers with the
    Outcome: a phone's command for a seat it does not play is refused by the session (403)."""
    command = parse_command(json_body(), source, acting.sender())
    try:
        outcome = current_session().submit(command)
    except TimeoutError:
        raise ServiceUnavailable("the game is busy; try again") from None
    return outcome_response(outcome)
