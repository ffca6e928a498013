"""The table's web app: TV scoreboard, phone control page, JSON API and the live SSE stream.

``create_app(config, session)`` is the only way in (flaskr's factory): the entry point builds the
session and passes it here, so tests hand in a fake or a real session over a temporary database.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask

from companion.session.contract import SessionPort
from web import (
    api,
    auth,
    context,
    control,
    dice,
    enrol,
    errors,
    headers,
    icon,
    limits,
    pairing,
    phone_admin,
    phones,
    results,
    screens,
    seats,
    stream,
    tv,
)

DEFAULTS: dict[str, Any] = {
    "TABLE_PIN": None,  # the settings' PIN; None: the one the table keeps (web.phones), made once
    "SECRET_KEY": None,  # the settings' cookie key; None: one made once and kept with the trusted phones
    "TRUST_DB": None,  # where trusted phones, seats and the kept PIN live (web.trust); None: in memory
    "PUBLIC_URL": None,  # base URL for the QR code; None: this machine's LAN address (never a Host header)
    "DEFAULT_GAME": None,  # the game the new-game form offers first (the settings name it)
    "DEFAULT_PLAYERS": [],
    "GAME_DATA": {},  # the settings' [data]: game -> the owner's overrides file (dice names read from it)
    "SSE_KEEPALIVE": 15.0,
    "SSE_RETRY_MS": 2000,
    "SSE_MAX_STREAMS": 24,  # open streams at once (each holds a server thread); 503 beyond
    "SSE_STALL_SECONDS": 30.0,  # a stream whose client reads nothing this long while views wait is closed
    # Request limits (web.limits): a command is a few hundred bytes; these stop a body that could hurt.
    "MAX_CONTENT_LENGTH": 64 * 1024,  # bytes of a request body; 413 beyond
    "JSON_MAX_DEPTH": 32,  # nesting of a JSON body (the parser recurses per level)
    "TEXT_MAX_CHARS": 200,  # any string (or key) in a JSON body
    "NAME_MAX_CHARS": 32,  # a player's name, shown large on the TV
    "PIN_MAX_FAILURES": 5,  # wrong PINs from one address before it must wait
    "PIN_LOCKOUT_SECONDS": 30.0,
    # Wrong PINs from all addresses together before PIN entry pauses for addresses that never gave the
    # right one; with a 4-digit PIN, 20 per 10 minutes makes guessing it take about 40 hours on average.
    "PIN_TABLE_MAX_FAILURES": 20,
    "PIN_TABLE_WINDOW_SECONDS": 600.0,
    "PHONE_IDLE_DAYS": 30,  # a trusted phone not seen for this long must be let in again
    "PLAYER_ROLLS": True,  # a phone that plays a seat enters its own seat's dice (web.acting)
    "TV_FRAME_ANCESTORS": None,  # pages that may frame the TV page (a hall); None: none may (web.headers)
    "HALL_CONFIRM": False,  # the table publishes to a hall: players confirm results on their phones
    # Joining without the PIN (web.pairing): a code for the asking phone, shown on trusted displays only.
    "PAIR_LOCAL_DISPLAY": True,  # a browser on this machine (the kiosk on the TV) is a trusted display
    "JOIN_SECONDS": 120.0,  # a code's life
    "JOIN_TRIES": 3,  # wrong codes before a request is void
    "JOIN_PER_ADDRESS": 3,  # requests per address per window
    "JOIN_TABLE_MAX": 20,  # requests of all addresses together per window
    "JOIN_WINDOW_SECONDS": 600.0,
    "JOIN_PENDING_MAX": 4,  # requests waiting at once
    # Cookies only ride on same-site requests: another site cannot post commands with a phone's cookie.
    "SESSION_COOKIE_SAMESITE": "Strict",
    "SESSION_COOKIE_HTTPONLY": True,
}


def create_app(config: Mapping[str, Any], session: SessionPort, table: Any = None) -> Flask:
    """The Flask app over ``session``; ``config`` overrides ``DEFAULTS`` (None values leave a default).

    ``table`` (a ``companion.table.Table``, or None without readers) backs the enrolment routes.
    """
    app = Flask(__name__)
    app.config.update(DEFAULTS)
    app.config.update({key: value for key, value in config.items() if value is not None})
    app.json.sort_keys = False  # type: ignore[attr-defined]  # views keep the engine's key order
    context.init_app(app, session)
    phones.init_app(app)  # settles TABLE_PIN and SECRET_KEY (the settings', else the kept ones)
    auth.init_app(app)
    pairing.init_app(app)
    stream.init_app(app)
    seats.init_app(app)
    enrol.init_app(app, table)
    headers.init_app(app)
    app.register_blueprint(tv.bp)
    app.register_blueprint(icon.bp)
    app.register_blueprint(control.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(stream.bp)
    app.register_blueprint(enrol.bp)
    app.register_blueprint(dice.bp)
    app.register_blueprint(screens.bp)
    app.register_blueprint(seats.bp)
    app.register_blueprint(phone_admin.bp)
    app.register_blueprint(results.bp)
    errors.init_app(app)
    limits.init_app(app)
    return app
