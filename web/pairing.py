"""Joining without the PIN: being in the room is what grants trust (docs/api.md, Pairing).

A phone that has no PIN asks to join (``POST /control/join``). The table makes a six-digit code for
that phone's request alone and shows it only where people in the room look and nobody outside can
read it: on a trusted display (the kiosk browser on the Pi itself, or a TV browser let in once) and on
the control page of phones already in. Whoever types it on the asking phone
(``POST /control/join/code``) lets that phone in. The public view (the TV's stream, readable by anyone
on the network without a PIN) says only that a phone is asking, never the code.

Why that is safe enough: a code is bound to the browser that asked (a random token in its cookie), so
a guesser can only try the codes of its own requests; each request allows ``JOIN_TRIES`` tries and
expires after ``JOIN_SECONDS``; one address may ask ``JOIN_PER_ADDRESS`` times per
``JOIN_WINDOW_SECONDS`` and the whole table ``JOIN_TABLE_MAX`` times, with at most ``JOIN_PENDING_MAX``
requests waiting at once. With the defaults a guesser gets 3 tries in a million per request and at most
20 requests per 10 minutes: about one chance in 2,800 per hour, against about one in 80 for guessing a
4-digit PIN under the PIN limits; and every request shows on the TV, so a flood is seen.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import math
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace

from flask import Flask, current_app, session
from werkzeug.exceptions import TooManyRequests

from companion.engine import JSON
from web.context import current_session

log = logging.getLogger(__name__)

_PAIRING = "companion.pairing"
_JOINER = "joiner"
"""The key of a joining browser's random token in its (signed) session cookie."""
DEVICE = "pairing"
"""The name under which the view's ``devices`` says that phones are asking to join (never the codes)."""
CODE_DIGITS = 6


@dataclass(frozen=True)
class JoinRequest:
    joiner: str
    """SHA-256 of the asking browser's token: the code works there and nowhere else."""
    code: str
    name: str
    """The asking phone, as its browser describes itself ("Chrome on Android")."""
    address: str
    expires: float
    tries_left: int


class Pairing:
    """Join requests and their codes, in memory (a restart cancels them). Thread-safe."""

    def __init__(
        self,
        *,
        seconds: float = 120.0,
        tries: int = 3,
        per_address: int = 3,
        table_max: int = 20,
        window_seconds: float = 600.0,
        pending_max: int = 4,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.seconds = seconds
        self._tries = tries
        self._per_address = per_address
        self._table_max = table_max
        self._window = window_seconds
        self._pending_max = pending_max
        self._clock = clock
        self._lock = threading.Lock()
        self._requests: dict[str, JoinRequest] = {}  # joiner -> its request
        self._timer: threading.Timer | None = None
        self.changes = 0
        """Counts every change of the requests: the public report carries it (never a code), so a screen
        that may read the codes knows when to read them again."""
        self._asked: deque[tuple[float, str]] = deque()  # (time, address) of every request in the window

    def ask(self, joiner: str, name: str, address: str) -> JoinRequest:
        """The request of this browser (an open one is kept, never a second code); TooManyRequests with
        the reason when this address or the table has asked too often."""
        key = _hash(joiner)
        with self._lock:
            now = self._clock()
            self._expire(now)
            if key in self._requests:
                return self._requests[key]
            mine = [t for t, a in self._asked if a == address]
            if len(mine) >= self._per_address:
                wait = math.ceil(mine[0] + self._window - now)
                raise TooManyRequests(f"this device asked to join too often: wait {wait} s")
            if len(self._asked) >= self._table_max:
                wait = math.ceil(self._asked[0][0] + self._window - now)
                raise TooManyRequests(f"many phones asked to join lately: wait {wait} s, or use the PIN")
            if len(self._requests) >= self._pending_max:
                raise TooManyRequests("several phones are asking already: try again in a minute")
            taken = {r.code for r in self._requests.values()}
            code = _code()
            while code in taken:
                code = _code()
            request = JoinRequest(key, code, name, address, now + self.seconds, self._tries)
            self._requests[key] = request
            self.changes += 1
            self._asked.append((now, address))
            return request

    def request_of(self, joiner: str | None) -> JoinRequest | None:
        if joiner is None:
            return None
        with self._lock:
            self._expire(self._clock())
            return self._requests.get(_hash(joiner))

    def redeem(self, joiner: str, code: str) -> tuple[bool, JoinRequest | None]:
        """(True, the request) when ``code`` is this browser's code: the request is used up. (False, what
        is left of it: None once it expired or its tries ran out)."""
        key = _hash(joiner)
        with self._lock:
            self._expire(self._clock())
            request = self._requests.get(key)
            if request is None:
                return False, None
            self.changes += 1
            if hmac.compare_digest(code.encode(), request.code.encode()):
                del self._requests[key]
                return True, request
            left = replace(request, tries_left=request.tries_left - 1)
            if left.tries_left <= 0:
                del self._requests[key]
                return False, None
            self._requests[key] = left
            return False, left

    def cancel(self, joiner: str | None) -> None:
        if joiner is not None:
            with self._lock:
                if self._requests.pop(_hash(joiner), None) is not None:
                    self.changes += 1

    def waiting(self) -> list[JoinRequest]:
        with self._lock:
            self._expire(self._clock())
            return sorted(self._requests.values(), key=lambda r: r.expires)

    def remind(self, seconds: float, again: Callable[[], None]) -> None:
        """Calls ``again`` after ``seconds`` (one reminder at a time: a new one replaces the last)."""
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
            self._timer = threading.Timer(seconds, again)
            self._timer.daemon = True
            self._timer.start()

    def seconds_left(self, request: JoinRequest) -> int:
        return max(0, math.ceil(request.expires - self._clock()))

    def _expire(self, now: float) -> None:
        for key in [k for k, r in self._requests.items() if r.expires <= now]:
            del self._requests[key]
            self.changes += 1
        while self._asked and now - self._asked[0][0] >= self._window:
            self._asked.popleft()


def _hash(joiner: str) -> str:
    return hashlib.sha256(joiner.encode()).hexdigest()


def _code() -> str:
    return f"{secrets.randbelow(10**CODE_DIGITS):0{CODE_DIGITS}d}"


def init_app(app: Flask) -> None:
    app.extensions[_PAIRING] = Pairing(
        seconds=float(app.config["JOIN_SECONDS"]),
        tries=int(app.config["JOIN_TRIES"]),
        per_address=int(app.config["JOIN_PER_ADDRESS"]),
        table_max=int(app.config["JOIN_TABLE_MAX"]),
        window_seconds=float(app.config["JOIN_WINDOW_SECONDS"]),
        pending_max=int(app.config["JOIN_PENDING_MAX"]),
    )


def pairing() -> Pairing:
    return current_app.extensions[_PAIRING]  # type: ignore[no-any-return]


def joiner(create: bool = False) -> str | None:
    """This browser's joining token (made when ``create``): what binds a code to the phone that asked."""
    token = session.get(_JOINER)
    if not isinstance(token, str) and create:
        token = session[_JOINER] = secrets.token_urlsafe(24)
    return token if isinstance(token, str) else None


def forget_joiner() -> None:
    session.pop(_JOINER, None)


def waiting_json() -> list[dict[str, JSON]]:
    """The open requests with their codes: for trusted displays and trusted phones only."""
    table = pairing()
    return [
        {"code": r.code, "name": r.name, "address": r.address, "seconds_left": table.seconds_left(r)}
        for r in table.waiting()
    ]


def tell_the_table() -> None:
    """The public view says how many phones are asking (the TV and phones then fetch the codes if they
    may), and a timer says it again when the oldest request expires."""
    table = pairing()
    waiting = table.waiting()
    status: dict[str, JSON] = {
        "state": "waiting" if waiting else "idle",
        "waiting": len(waiting),
        "changes": table.changes,
    }
    if waiting:
        count = "A phone asks" if len(waiting) == 1 else f"{len(waiting)} phones ask"
        text = f"{count} to join: the code is on the table's screen and on phones already in"
        status["notices"] = [{"level": "info", "text": text}]
    session_port = current_session()
    session_port.report_device(DEVICE, status)
    if waiting:
        later = max(0.0, table.seconds_left(waiting[0])) + 0.5
        app = current_app._get_current_object()  # type: ignore[attr-defined]

        def again() -> None:
            with app.app_context():
                tell_the_table()

        table.remind(later, again)
