"""Who a command acts as: the table's owner (the PIN), or a phone and the seat it plays.

The session checks a phone's commands against ``Game.actor`` in the position they meet
(``companion.session.contract.Sender``): a phone that plays a seat acts for that seat alone (its own
turn, its own prompts, its own rolls when ``PLAYER_ROLLS`` lets players enter their own), a phone with
no seat acts for every seat no phone plays (and enters any roll) but sends no secret, and the PIN acts
for anyone.
"""

from __future__ import annotations

from flask import current_app

from companion.session.contract import Sender
from web import auth, phones
from web.context import current_session


def sender() -> Sender | None:
    """The Sender of the current request's command; None for the table's owner (the right PIN)."""
    phone = auth.caller().phone
    if phone is None:
        return None
    game_id = current_session().view().get("game_id")
    if not isinstance(game_id, int):
        return Sender(rolls=bool(current_app.config["PLAYER_ROLLS"]))
    holders = phones.store().holders(game_id)
    seat = next((s for s, holder in holders.items() if holder == phone.id), None)
    return Sender(seat=seat, rolls=bool(current_app.config["PLAYER_ROLLS"]), held=frozenset(holders))
