"""The table's PIN: who may change the game.

A state-changing request carries the PIN as the ``X-Table-Pin`` header or a ``pin`` form field, or a
signed session cookie that a phone got by entering the PIN once on the control page. The cookie holds
a keyed digest of the PIN, never the PIN itself, so a new PIN (a restart without a configured one)
logs every phone out. Comparisons are constant-time; an address that keeps guessing waits a while.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import threading
import time
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from flask import Flask, current_app, request, session
from werkzeug.exceptions import Forbidden, TooManyRequests

PIN_HEADER = "X-Table-Pin"
PIN_FIELD = "pin"
_COOKIE_KEY = "table_pin"
_GUARD = "companion.pin_guard"

P = ParamSpec("P")
R = TypeVar("R")


class PinGuard:
    """Checks PINs in constant time and locks out an address after repeated wrong guesses."""

    def __init__(
        self,
        pin: str,
        *,
        max_failures: int = 5,
        lockout_seconds: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._pin = pin.encode()
        self._max_failures = max_failures
        self._lockout = lockout_seconds
        self._clock = clock
        self._failures: dict[str, tuple[int, float]] = {}  # address -> (count, time of the last)
        self._lock = threading.Lock()

    def digest(self) -> str:
        """What a logged-in cookie holds: a digest of the PIN under the app's signing key."""
        key = str(current_app.config["SECRET_KEY"]).encode()
        return hmac.new(key, b"table-pin:" + self._pin, hashlib.sha256).hexdigest()

    def locked(self, address: str) -> bool:
        with self._lock:
            count, last = self._failures.get(address, (0, 0.0))
            if count >= self._max_failures and self._clock() - last < self._lockout:
                return True
            if count >= self._max_failures:  # the lockout has passed: start counting afresh
                del self._failures[address]
            return False

    def check(self, candidate: str, address: str) -> bool:
        """True when ``candidate`` is the PIN; counts a wrong guess against ``address``."""
        ok = hmac.compare_digest(candidate.encode(), self._pin)
        with self._lock:
            if ok:
                self._failures.pop(address, None)
            else:
                count, _ = self._failures.get(address, (0, 0.0))
                self._failures[address] = (count + 1, self._clock())
        return ok


def init_app(app: Flask) -> None:
    app.extensions[_GUARD] = PinGuard(
        str(app.config["TABLE_PIN"]),
        max_failures=int(app.config["PIN_MAX_FAILURES"]),
        lockout_seconds=float(app.config["PIN_LOCKOUT_SECONDS"]),
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


def has_cookie() -> bool:
    """True when this browser entered the right PIN before (and the PIN has not changed since)."""
    stored = session.get(_COOKIE_KEY)
    return isinstance(stored, str) and hmac.compare_digest(stored, guard().digest())


def check_request() -> None:
    """Raises 403 (no or wrong PIN) or 429 (too many wrong PINs) unless the request may change things."""
    if has_cookie():
        return
    pin_guard = guard()
    if pin_guard.locked(_address()):
        raise TooManyRequests("too many wrong PINs from this device: wait half a minute and try again")
    pin = _offered_pin()
    if pin is None:
        raise Forbidden(f"this needs the table's PIN (the {PIN_HEADER} header, or log in on /control)")
    if not pin_guard.check(pin, _address()):
        raise Forbidden("wrong PIN: the PIN is printed where the companion was started")


def log_in(pin: str) -> bool:
    """Checks ``pin`` (counting wrong guesses) and, when right, remembers it in the session cookie."""
    pin_guard = guard()
    if pin_guard.locked(_address()):
        raise TooManyRequests("too many wrong PINs from this device: wait half a minute and try again")
    if not pin_guard.check(pin, _address()):
        return False
    session[_COOKIE_KEY] = pin_guard.digest()
    session.permanent = True  # a phone at the table stays logged in for the evening
    return True


def log_out() -> None:
    session.pop(_COOKIE_KEY, None)


def require_pin(view: Callable[P, R]) -> Callable[P, R]:
    """Decorates a state-changing view: it runs only with the PIN (header, form field or cookie)."""

    @functools.wraps(view)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        check_request()
        return view(*args, **kwargs)

    return wrapper
