"""``/control/dice``: which die belongs to which player, set from a phone (the Table's dice owners).

``GET`` gives ``{"owners": {"<die>": seat}}``; ``POST`` ``{"die": N, "player": seat or null}`` sets or
clears one die's owner. The PIN is needed for both; a table without readers answers 409, a bad
request 400, never 500.

A die's owner decides whose rolls it answers, so giving a die away is acting for a seat: a phone that
plays a seat gives a die only to its own seat, and takes back or changes only a die that is free or
its own (403 otherwise, as for a command: web.acting). A shared phone and the PIN set any die.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Blueprint, Response, jsonify
from werkzeug.exceptions import BadRequest, Forbidden

from companion.table import DiceOwnerError, Table
from web import acting, auth, limits
from web.context import current_session
from web.enrol import current_table

log = logging.getLogger(__name__)

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
    die, player = body["die"], body["player"]
    _check_seat_may_assign(table, die, player)
    try:
        table.assign_die(die, player)
    except DiceOwnerError as exc:
        raise BadRequest(str(exc)) from None
    log.info("die %s now belongs to %s", die, "nobody" if player is None else f"seat {player}")
    return jsonify({"accepted": True, **state(table)}), 200


def _check_seat_may_assign(table: Table, die: Any, player: Any) -> None:
    """403 unless the caller may give ``die`` to ``player``: a phone that plays a seat only to or from
    its own seat (a die of another seat answers that seat's rolls: taking it is rolling for them)."""
    sender = acting.sender()
    if sender is None or sender.seat is None:
        return  # the PIN, or a shared phone: the table's own settings
    if isinstance(die, bool) or not isinstance(die, int) or isinstance(player, bool):
        return  # a malformed body: assign_die answers 400
    names = current_session().position().names

    def name(seat: int) -> str:
        return names.get(seat, f"seat {seat + 1}")

    mine = sender.seat
    if player is not None and player != mine:
        raise Forbidden(
            f"only {name(player)}'s phone can give a die to {name(player)}: this phone plays {name(mine)}"
        )
    owner = table.owners.owner(die)
    if owner is not None and owner != mine:
        raise Forbidden(
            f"die {die} is {name(owner)}'s: only {name(owner)}'s phone or a shared phone can change that"
        )
