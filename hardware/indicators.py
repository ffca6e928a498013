"""What the table shows with GPIO: a lit LED for each player whose turn it is, a buzzer for refusals.

``ViewFollower`` reads the session's published views on its own thread and drives the LEDs; it
never changes game state.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Mapping

from gpiozero import LED, Buzzer, Factory

from companion.engine import JSON
from companion.session.contract import Outcome, SessionPort, Subscription
from companion.table.views import active_players
from hardware.config import GpioConfig

log = logging.getLogger(__name__)


class PlayerLeds:
    def __init__(self, pins: Iterable[int], pin_factory: Factory) -> None:
        self.leds: list[LED] = []
        try:
            for pin in pins:
                self.leds.append(LED(pin, pin_factory=pin_factory))
        except Exception:
            self.close()
            raise

    def show_active(self, seats: Iterable[int]) -> None:
        """Lights exactly the LEDs of ``seats`` (seats without an LED are ignored)."""
        lit = set(seats)
        for seat, led in enumerate(self.leds):
            led.value = seat in lit

    def close(self) -> None:
        for led in self.leds:
            led.close()
        self.leds.clear()


class RejectBuzzer:
    """A short double beep when the session refuses something the table sent."""

    def __init__(self, pin: int, pin_factory: Factory, config: GpioConfig | None = None) -> None:
        config = config or GpioConfig()
        self._on = config.beep_on_ms / 1000
        self._off = config.beep_off_ms / 1000
        self._count = config.beeps
        self.buzzer = Buzzer(pin, pin_factory=pin_factory)

    def beep(self, background: bool = True) -> None:
        """Starts the pattern; in the background it returns at once (it runs on gpiozero's thread)."""
        self.buzzer.beep(on_time=self._on, off_time=self._off, n=self._count, background=background)

    def rejected(self, outcome: Outcome) -> None:
        """For ``Table.on_rejected``: a refusal beeps."""
        self.beep()

    def close(self) -> None:
        self.buzzer.close()


class ViewFollower:
    """Subscribes to the session and keeps the player LEDs on the active players."""

    def __init__(self, session: SessionPort, leds: PlayerLeds) -> None:
        self._session = session
        self._leds = leds
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._subscription: Subscription | None = None
        self._seen = threading.Condition()
        self._last_seq: int | None = None

    def apply(self, view: Mapping[str, JSON]) -> None:
        self._leds.show_active(active_players(view))
        with self._seen:
            seq = view.get("seq")
            self._last_seq = seq if isinstance(seq, int) else self._last_seq
            self._seen.notify_all()

    def wait_for(self, seq: int, timeout: float) -> bool:
        """Blocks until a view with ``seq`` or later was applied (for tests and start-up checks)."""
        with self._seen:
            return self._seen.wait_for(lambda: self._last_seq is not None and self._last_seq >= seq, timeout)

    def start(self) -> None:
        subscription = self._subscription = self._session.subscribe()

        def run() -> None:
            while not self._stop.is_set():
                try:
                    view = subscription.get(timeout=0.5)
                    if view is not None:
                        self.apply(view)
                except Exception:  # one bad view (or LED) must not leave the LEDs dark for the rest
                    log.exception("the LEDs could not show a view; they follow the next one")

        self._thread = threading.Thread(target=run, name="gpio-leds", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        if self._subscription is not None:
            self._subscription.close()  # wakes the thread's pending get()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
