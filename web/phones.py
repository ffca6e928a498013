"""Trusted phones: server-side sessions that a phone's cookie points to (docs/api.md, Phones).

A phone is let in once, by the PIN (web.auth) or a pairing code shown on the table's screen
(web.pairing), and stays in across restarts until it logs out, another phone logs it out, the PIN
changes, or it is not seen for ``PHONE_IDLE_DAYS``. Its cookie holds only a random token; the table
(web.trust) knows which phone that is, so logging a phone out works at once, whatever its cookie says.
"""

from __future__ import annotations

import logging
import secrets
import time
from pathlib import Path

from flask import Flask, current_app, g, request, session

from web.trust import Phone, TrustStore

log = logging.getLogger(__name__)

_STORE = "companion.trust"
_TOKEN = "phone"
"""The key of the phone's token in its (signed) session cookie."""


def new_pin() -> str:
    return f"{secrets.randbelow(10_000):04d}"


def init_app(app: Flask) -> None:
    """Opens the trust store and settles the PIN and the cookie key before anything reads them.

    The PIN: the settings' (``TABLE_PIN``) when given, else the one kept from the last start, else a
    new one, kept. A PIN that differs from the kept one is a PIN change: every phone logs in again.
    The cookie key: the settings' (``SECRET_KEY``), else one made once and kept, so a restart keeps
    every phone's cookie valid.
    """
    path = app.config.get("TRUST_DB")
    store = TrustStore(Path(path) if path else None)
    app.extensions[_STORE] = store
    configured = app.config.get("TABLE_PIN")
    kept = store.setting("pin")
    if configured:
        pin = str(configured)
        if kept is not None and kept != pin:
            gone = store.remove_phones([p.id for p in store.phones()])
            log.warning("the PIN in the settings changed: %d phones must log in again", len(gone))
        if kept != pin:
            store.set_setting("pin", pin)
    else:
        pin = kept or new_pin()
        if kept is None:
            store.set_setting("pin", pin)
    app.config["TABLE_PIN"] = pin
    app.config["PIN_FROM_SETTINGS"] = bool(configured)
    if not app.config.get("SECRET_KEY"):
        key = store.setting("secret_key")
        if key is None:
            key = secrets.token_hex(32)
            store.set_setting("secret_key", key)
        app.config["SECRET_KEY"] = key
    forgotten = store.forget_idle(_idle_seconds(app))
    if forgotten:
        log.info(
            "%d phones not seen for %s days must log in again", len(forgotten), app.config["PHONE_IDLE_DAYS"]
        )


def _idle_seconds(app: Flask) -> float:
    return float(app.config["PHONE_IDLE_DAYS"]) * 86400


def store() -> TrustStore:
    return store_of(current_app)


def store_of(app: Flask) -> TrustStore:
    return app.extensions[_STORE]  # type: ignore[no-any-return]


def describe(user_agent: str) -> str:
    """A phone's name from its browser's user agent: "Chrome on Android", "Safari on iPhone"."""
    browsers = (
        ("Edg/", "Edge"),
        ("OPR/", "Opera"),
        ("SamsungBrowser", "Samsung Internet"),
        ("FxiOS", "Firefox"),
        ("Firefox/", "Firefox"),
        ("CriOS", "Chrome"),
        ("Chrome/", "Chrome"),
        ("Safari/", "Safari"),
    )
    systems = (
        ("iPhone", "iPhone"),
        ("iPad", "iPad"),
        ("Android", "Android"),
        ("CrOS", "ChromeOS"),
        ("Windows", "Windows"),
        ("Macintosh", "Mac"),
        ("Linux", "Linux"),
    )
    browser = next((name for mark, name in browsers if mark in user_agent), None)
    system = next((name for mark, name in systems if mark in user_agent), None)
    if browser is None:
        tool = user_agent.split("/")[0].strip()[:24]
        return tool or "A browser"
    return f"{browser} on {system}" if system else browser


def current() -> Phone | None:
    """The trusted phone this request comes from, or None (no cookie, or one the table no longer knows)."""
    if "companion_phone" in g:
        return g.companion_phone  # type: ignore[no-any-return]
    token = session.get(_TOKEN)
    phone = None
    if isinstance(token, str):
        phone = store().phone_of(token, request.remote_addr, _idle_seconds(current_app))
    g.companion_phone = phone
    return phone


def admit() -> Phone:
    """Lets this browser in as a phone (the PIN or a pairing code was right): a fresh token, never the
    one it came with, so a cookie planted before cannot ride along."""
    user_agent = request.headers.get("User-Agent", "")[:300]
    now = time.time()
    old = current()
    if old is not None:
        store().remove_phones([old.id])
    phone = Phone(
        id=secrets.token_hex(6),
        name=describe(user_agent),
        user_agent=user_agent,
        address=request.remote_addr or "",
        created=now,
        last_seen=now,
    )
    token = secrets.token_urlsafe(32)
    store().add_phone(phone, token)
    session.clear()
    session[_TOKEN] = token
    session.permanent = True  # a phone at the table stays in for the evening, and the next
    g.companion_phone = phone
    log.info("phone %s (%s) let in from %s", phone.id, phone.name, phone.address)
    return phone


def leave() -> None:
    """This phone logs itself out: its seats are free again, its cookie is worth nothing from now on."""
    phone = current()
    if phone is not None:
        store().release_everywhere(phone.id)
        store().remove_phones([phone.id])
        log.info("phone %s (%s) logged out", phone.id, phone.name)
    session.clear()
    g.companion_phone = None
