"""``/control/dice``: which die belongs to which player, set from a phone (the Table's dice owners).

``GET`` gives ``{"owners": {"<die>": seat}}``; ``POST`` ``{"die": N, "player": seat or null}`` sets or
clears one die's owner. The PIN is needed for both; a table without readers answers 409, a bad
request 400, never 500.

A die's owner decides whose rolls it answers, so giving a die away is acting for a seat: a phone that
plays a seat gives a die only to its own seat, and takes back or changes only a die that is free or
its own; a shared phone does the same for the seats no phone plays (403 otherwise, as for a command:
web.acting). The PIN sets any die.
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
    """403 unless the caller may act for the seats the change touches (web.acting): a phone that plays
    a seat only for its own, a shared phone only for seats no phone plays (a die of a seat answers
    that seat's rolls: taking it, or giving one, is rolling for them)."""
    sender = acting.sender()
    if sender is None:
        return  # the PIN: the table's owner
    if isinstance(die, bool) or not isinstance(die, int) or isinstance(player, bool):
        return  # a malformed body: assign_die answers 400
    names = current_session().position().names

    def name(seat: int) -> str:
        return names.get(seat, f"seat {seat + 1}")

    def may(seat: int) -> bool:
        return seat == sender.seat if sender.seat is not None else seat not in sender.held

    this = f"this phone plays {name(sender.seat)}" if sender.seat is not None else "this is a shared phone"
    if isinstance(player, int) and not may(player):
        raise Forbidden(f"only {name(player)}'s phone can give a die to {name(player)}: {this}")
    owner = table.owners.owner(die)
    if owner is not None and not may(owner):
        raise Forbidden(f"die {die} is {name(owner)}'s: only {name(owner)}'s phone can change that")
