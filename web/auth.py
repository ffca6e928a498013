"""The table's PIN: who may change the game.

A state-changing request comes from a trusted phone (its cookie names a session the table keeps, see
web.phones: a phone is let in once, by the PIN or a pairing code, and stays in until it logs out, is
logged out from another phone, or the PIN changes) or carries the PIN itself, as the ``X-Table-Pin``
header (scripts) or a ``pin`` form field. A PIN offered is always checked, even beside a cookie, and a
request with the right one is the table owner's: it may act for any seat. Comparisons are
constant-time; an address that keeps guessing waits a while.
"""

from __future__ import annotations

import functools
import hmac
import logging
import math
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import ParamSpec, TypeVar

from flask import Flask, current_app, g, request
from werkzeug.exceptions import Forbidden, TooManyRequests

from companion.engine import JSON
from web import phones
from web.context import current_session
from web.trust import Phone

PIN_HEADER = "X-Table-Pin"
PIN_FIELD = "pin"
_GUARD = "companion.pin_guard"
_MAX_REMEMBERED = 4096
"""Addresses remembered with wrong PINs before quiet ones are forgotten."""
_DEVICE = "pin"
"""The name under which the view's ``devices`` reports a table-wide PIN lock (a notice on the TV)."""

log = logging.getLogger(__name__)

P = ParamSpec("P")
R = TypeVar("R")


class PinGuard:
    """Checks PINs in constant time and slows guessing down twice over.

    Per address: ``max_failures`` wrong PINs lock that address out for ``lockout_seconds``. Per table:
    more than ``table_max_failures`` wrong PINs from all addresses together within
    ``table_window_seconds`` lock PIN entry for every address that has not given the right PIN since
    the start, so many addresses cannot share out the guessing. The owner keeps the table: phones with
    the cookie never ask the guard, and an address that gave the right PIN before stays trusted (its
    own per-address limit still applies), so an expired phone or a script of the owner gets back in.
    """

    def __init__(
        self,
        pin: str,
        *,
        max_failures: int = 5,
        lockout_seconds: float = 30.0,
        table_max_failures: int = 20,
        table_window_seconds: float = 600.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._pin = pin.encode()
        self._max_failures = max_failures
        self._lockout = lockout_seconds
        self._table_max = table_max_failures
        self._table_window = table_window_seconds
        self._clock = clock
        self._failures: dict[str, tuple[int, float]] = {}  # address -> (count, time of the last)
        self._table_failures: deque[float] = deque()  # times of the wrong PINs within the window
        self._trusted: set[str] = set()  # addresses that gave the right PIN since the start
        self._lock = threading.Lock()
        self.reported_locked = False
        """Whether the table was last told that PIN entry is locked (see ``_tell_the_table``)."""

    def set_pin(self, pin: str) -> None:
        """A new PIN (changed from a phone): the next checks compare with it."""
        with self._lock:
            self._pin = pin.encode()

    def locked(self, address: str) -> str | None:
        """Why ``address`` may not try a PIN now (a sentence for the 429), or None when it may."""
        with self._lock:
            now = self._clock()
            self._forget(now)
            count, last = self._failures.get(address, (0, 0.0))
            if count >= self._max_failures and now - last < self._lockout:
                wait = math.ceil(self._lockout - (now - last))
                return f"too many wrong PINs from this device: wait {wait} s and try again"
            if count >= self._max_failures:  # the lockout has passed: start counting afresh
                del self._failures[address]
            if self.table_locked_at(now) and address not in self._trusted:
                wait = math.ceil(self._table_failures[0] + self._table_window - now)
                return (
                    "too many wrong PINs at this table: new phones wait"
                    f" {wait} s (a phone already logged in still works)"
                )
            return None

    def table_locked_at(self, now: float) -> bool:
        """True while the table as a whole has had too many wrong PINs (call under the lock)."""
        return len(self._table_failures) >= self._table_max

    @property
    def table_locked(self) -> bool:
        with self._lock:
            now = self._clock()
            self._forget(now)
            return self.table_locked_at(now)

    def check(self, candidate: str, address: str) -> bool:
        """True when ``candidate`` is the PIN; counts a wrong guess against ``address`` and the table."""
        ok = hmac.compare_digest(candidate.encode(), self._pin)
        with self._lock:
            now = self._clock()
            if ok:
                self._failures.pop(address, None)
                self._trusted.add(address)
            else:
                count, _ = self._failures.get(address, (0, 0.0))
                self._failures[address] = (count + 1, now)
                self._table_failures.append(now)
        return ok

    def _forget(self, now: float) -> None:
        """Drops wrong PINs older than the table's window, and addresses quiet for as long (so a flood
        of addresses cannot grow the table without bound)."""
        while self._table_failures and now - self._table_failures[0] >= self._table_window:
            self._table_failures.popleft()
        if len(self._failures) > _MAX_REMEMBERED:
            horizon = max(self._lockout, self._table_window)
            for address in [a for a, (_, last) in self._failures.items() if now - last >= horizon]:
                del self._failures[address]


def init_app(app: Flask) -> None:
    app.extensions[_GUARD] = PinGuard(
        str(app.config["TABLE_PIN"]),
        max_failures=int(app.config["PIN_MAX_FAILURES"]),
        lockout_seconds=float(app.config["PIN_LOCKOUT_SECONDS"]),
        table_max_failures=int(app.config["PIN_TABLE_MAX_FAILURES"]),
        table_window_seconds=float(app.config["PIN_TABLE_WINDOW_SECONDS"]),
    )


def guard() -> PinGuard:
    return current_app.extensions[_GUARD]


def _address() -> str:
    return request.remote_addr or "unknown"


def _offered_pin() -> str | None:
    pin = request.headers.get(PIN_HEADER)
    if pin is None and request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data"):
        pin = request.form.get(PIN_FIELD)
    return pin


def _refuse_if_locked(pin_guard: PinGuard) -> None:
    reason = pin_guard.locked(_address())
    _tell_the_table(pin_guard)
    if reason is not None:
        raise TooManyRequests(reason)


def _check(pin_guard: PinGuard, pin: str) -> bool:
    ok = pin_guard.check(pin, _address())
    _tell_the_table(pin_guard)
    return ok


def _tell_the_table(pin_guard: PinGuard) -> None:
    """Logs and shows on the TV (a device notice) when the table-wide lock starts, and clears the
    notice at the first PIN request after it ended: the owner learns that someone is guessing."""
    locked = pin_guard.table_locked
    if locked == pin_guard.reported_locked:
        return
    pin_guard.reported_locked = locked
    status: dict[str, JSON] = {"state": "locked" if locked else "ready"}
    if locked:
        log.warning("many wrong PINs from several devices: PIN entry paused for devices not logged in")
        text = f"Many wrong PINs since {time.strftime('%H:%M')}: new phones wait up to a few minutes"
        status["notices"] = [{"level": "warning", "text": text}]
    current_session().report_device(_DEVICE, status)


@dataclass(frozen=True)
class Caller:
    """Who sent a state-changing request: a trusted ``phone``, or (None) the table's owner with the PIN."""

    phone: Phone | None


def has_cookie() -> bool:
    """True when this browser is a phone the table trusts (it was let in and nobody logged it out)."""
    return phones.current() is not None


def check_request() -> Caller:
    """The caller of a request that may change things; 403 (no or wrong PIN) or 429 (too many wrong
    PINs) otherwise. A PIN offered is checked even when the cookie alone would do: a made-up header
    never passes for the owner's."""
    pin = _offered_pin()
    if pin is not None:
        pin_guard = guard()
        _refuse_if_locked(pin_guard)
        if not _check(pin_guard, pin):
            raise Forbidden("wrong PIN: the PIN is printed where the companion was started")
        caller = Caller(None)
    else:
        phone = phones.current()
        if phone is None:
            raise Forbidden(
                f"this needs the table's PIN (the {PIN_HEADER} header, or log in on /control)"
                " or a phone the table let in"
            )
        caller = Caller(phone)
    g.companion_caller = caller
    return caller


def caller() -> Caller:
    """The caller ``require_pin`` let through for this request."""
    found = g.get("companion_caller")
    return found if isinstance(found, Caller) else check_request()


def log_in(pin: str) -> bool:
    """Checks ``pin`` (counting wrong guesses) and, when right, lets this browser in as a phone."""
    pin_guard = guard()
    _refuse_if_locked(pin_guard)
    if not _check(pin_guard, pin):
        return False
    phones.admit()
    return True


def confirm_pin(pin: object) -> None:
    """403 unless ``pin`` is the table's PIN (wrong guesses counted as at login): for what only the one
    who knows the PIN may do, even from a phone already in (one let in by a join code never saw it)."""
    pin_guard = guard()
    _refuse_if_locked(pin_guard)
    if not isinstance(pin, str) or not _check(pin_guard, pin):
        raise Forbidden("type the table's current PIN: only someone who knows it may change it")


def log_out() -> None:
    phones.leave()


def require_pin(view: Callable[P, R]) -> Callable[P, R]:
    """Decorates a state-changing view: it runs only for a trusted phone or with the PIN."""

    @functools.wraps(view)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        check_request()
        return view(*args, **kwargs)

    return wrapper
