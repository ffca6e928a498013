"""``/control/dice``: which die belongs to which player, set from a phone (the Table's dice owners).

``GET`` gives ``{"owners": {"<die>": seat}}``; ``POST`` ``{"die": N, "player": seat or null}`` sets or
clears one die's owner. The PIN is needed for both; a table without readers answers 409, a bad
request 400, never 500.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify
from werkzeug.exceptions import BadRequest

from companion.table import DiceOwnerError, Table
from web import auth, limits
from web.enrol import current_table

bp = Blueprint("dice", __name__, url_prefix="/control/dice")


def state(table: Table) -> dict[str, Any]:
    return {"owners": {str(die): seat for die, seat in table.owners.all().items()}}


@bp.get("/", strict_slashes=False)
@auth.require_pin
def show() -> Response:
    return jsonify(state(current_table()))


@bp.post("/", strict_slashes=False)
@auth.require_pin
def change() -> tuple[Response, int]:
    table = current_table()
    body = limits.read_json()
    if not isinstance(body, dict) or "die" not in body or "player" not in body:
        raise BadRequest('send a JSON object {"die": N, "player": seat or null}')
    try:
        table.assign_die(body["die"], body["player"])
    except DiceOwnerError as exc:
        raise BadRequest(str(exc)) from None
    return jsonify({"accepted": True, **state(table)}), 200
