"""``/control/enrol``: pair RFID tags with cards from a phone (the Table's enrolment API over HTTP).

``GET`` gives the state (active, game, offered tags, card choices); ``POST`` with a JSON body
``{"op": "start" | "stop" | "enrol" | "forget", ...}`` changes it. Every request needs the PIN:
even the offered tags tell which cards lie where. A table without readers answers 409, a bad request
400, never 500.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify
from werkzeug.exceptions import BadRequest, Conflict

from companion.table import EnrolmentError, InvalidTagUidError, Table
from web import auth, limits

bp = Blueprint("enrol", __name__, url_prefix="/control/enrol")
_EXTENSION = "companion.table"


def init_app(app: Flask, table: Table | None) -> None:
    app.extensions[_EXTENSION] = table


def current_table() -> Table:
    table = current_app.extensions.get(_EXTENSION)
    if table is None:
        raise Conflict("this table has no readers: start the companion with a [table] layout to enrol tags")
    return table  # type: ignore[no-any-return]


def state(table: Table) -> dict[str, Any]:
    enrolment = table.enrolment
    return {
        "active": enrolment.active,
        "game": enrolment.game,
        "pending": [tag.to_json() for tag in table.pending_tags()],
        "cards": table.card_choices(),
    }


@bp.get("/", strict_slashes=False)
@auth.require_pin
def show() -> Response:
    return jsonify(state(current_table()))


@bp.post("/", strict_slashes=False)
@auth.require_pin
def change() -> tuple[Response, int]:
    table = current_table()
    body = limits.read_json()
    if not isinstance(body, dict) or not isinstance(body.get("op"), str):
        raise BadRequest('send a JSON object with "op": start, stop, enrol or forget')
    op = body["op"]
    result: dict[str, Any] = {}
    try:
        if op == "start":
            table.start_enrolment(_text(body, "game", required=False))
        elif op == "stop":
            table.stop_enrolment()
        elif op == "enrol":
            result["tag"] = table.enrol(_text(body, "uid"), _text(body, "card")).to_json()
        elif op == "forget":
            result["forgotten"] = table.forget(_text(body, "uid"))
        else:
            raise BadRequest(f"unknown op {op!r}: start, stop, enrol or forget")
    except (EnrolmentError, InvalidTagUidError) as exc:
        raise BadRequest(str(exc)) from None
    return jsonify({"accepted": True, **result, "state": state(table)}), 200


def _text(body: dict[str, Any], key: str, required: bool = True) -> Any:
    value = body.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip():
        raise BadRequest(f'"{key}" must be a non-empty string')
    return value.strip()
