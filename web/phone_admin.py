"""``/control/phones`` and ``/control/pin/change``: the phones the table trusts, seen from a phone.

``GET /control/phones`` lists them (name, seat, last seen) with the join codes waiting;
``POST /control/phones/<id>/revoke`` logs one out at once; ``POST /control/pin/change`` sets a new PIN
and logs every other phone out. All need a trusted phone or the PIN (web.auth); a new PIN also needs
the current one typed again, so a guest let in by a join code cannot lock the owner out.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping

from flask import Blueprint, Response, current_app, jsonify
from werkzeug.exceptions import BadRequest, Conflict, NotFound

from companion.engine import JSON
from web import auth, limits, pairing, phones
from web.context import current_session
from web.trust import Phone

log = logging.getLogger(__name__)

bp = Blueprint("phone_admin", __name__, url_prefix="/control")

PIN_PATTERN = re.compile(r"[0-9]{4,12}")


def _listing(
    phone: Phone, me: Phone | None, seats: Mapping[str, int], names: Mapping[int, str]
) -> dict[str, JSON]:
    seat = seats.get(phone.id)
    return {
        "id": phone.id,
        "name": phone.name,
        "user_agent": phone.user_agent,
        "address": phone.address,
        "seat": seat,
        "seat_name": None if seat is None else names.get(seat, f"seat {seat + 1}"),
        "created": phone.created,
        "last_seen": phone.last_seen,
        "this": me is not None and phone.id == me.id,
    }


@bp.get("/phones")
@auth.require_pin
def listing() -> Response:
    position = current_session().position()
    game_id = current_session().view().get("game_id")
    holders = phones.store().holders(game_id) if isinstance(game_id, int) else {}
    seats = {phone_id: seat for seat, phone_id in holders.items()}
    me = phones.current()
    listed = [_listing(p, me, seats, position.names) for p in phones.store().phones()]
    response = jsonify(
        {
            "phones": listed,
            "joining": pairing.waiting_json(),
            "pin_in_settings": bool(current_app.config["PIN_FROM_SETTINGS"]),
        }
    )
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/phones/<phone_id>/revoke")
@auth.require_pin
def revoke(phone_id: str) -> Response:
    """Logs a phone out at once (its cookie is worth nothing from now on). Its seat stays held by it:
    another phone taking that seat is a take-over, recorded and shown like any other."""
    me = phones.current()
    if me is not None and me.id == phone_id:
        phones.leave()
        return jsonify({"revoked": phone_id, "this": True})
    gone = phones.store().remove_phones([phone_id])
    if not gone:
        raise NotFound("no such phone: it may have logged out already")
    by = f"phone {me.id} ({me.name})" if me is not None else "a request with the PIN"
    log.warning("phone %s (%s) was logged out by %s", phone_id, gone[0].name, by)
    return jsonify({"revoked": phone_id, "this": False})


@bp.post("/pin/change")
@auth.require_pin
def change_pin() -> Response:
    """``{"current": "1234", "pin": "4711"}`` sets that PIN, without ``pin`` a new random one; every
    other phone is logged out. ``current`` (or the PIN header) is the PIN now: a phone let in by a join
    code never knew it, and found by attacking, such a guest could lock every other phone out."""
    if current_app.config["PIN_FROM_SETTINGS"]:
        raise Conflict("the PIN is set in the settings file (pin = ...): change it there and restart")
    body = limits.read_json()
    if not isinstance(body, Mapping) or set(body) - {"pin", "current"}:
        raise BadRequest('send {"current": "1234", "pin": "4711"} for that PIN, or no "pin" for a new one')
    if auth.caller().phone is not None:  # the PIN header, when sent, was checked already
        auth.confirm_pin(body.get("current"))
    pin = body.get("pin")
    if pin is None:
        pin = phones.new_pin()
    if not isinstance(pin, str) or not PIN_PATTERN.fullmatch(pin):
        raise BadRequest("a PIN is 4 to 12 digits")
    me = phones.current()
    phones.store().set_setting("pin", pin)
    current_app.config["TABLE_PIN"] = pin
    auth.guard().set_pin(pin)
    others = [p.id for p in phones.store().phones() if me is None or p.id != me.id]
    gone = phones.store().remove_phones(others)
    by = f"phone {me.id} ({me.name})" if me is not None else "a request with the PIN"
    log.warning("the PIN was changed by %s: %d other phones logged out", by, len(gone))
    response = jsonify({"pin": pin, "logged_out": len(gone)})
    response.headers["Cache-Control"] = "no-store"
    return response
