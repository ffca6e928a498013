"""The table's buttons: each press becomes a ``ButtonPressed`` observation, timestamped in the callback.

The callback runs on gpiozero's thread and does two things only: read the monotonic clock and
enqueue. The timestamp is taken there, not when the table gets round to it, so two shouts a few
milliseconds apart are ordered by when the buttons went down. It is the host's monotonic clock
(``ButtonPressed.at``), the one the serial bridge maps the microcontroller's presses onto.
"""

from __future__ import annotations

from collections.abc import Callable

from gpiozero import Button, Factory

from companion.observations import ButtonId, ButtonPressed, Observation
from companion.table.clock import Clock, monotonic
from hardware.config import GpioConfig


class TableButtons:
    """Owns the gpiozero ``Button`` devices; ``close()`` releases their pins."""

    def __init__(
        self,
        config: GpioConfig,
        pin_factory: Factory,
        sink: Callable[[Observation], None],
        clock: Clock = monotonic,
    ) -> None:
        self._sink = sink
        self._clock = clock
        self.buttons: dict[str, Button] = {}
        roles = [
            (name, pin) for name, pin in config.pins() if not name.startswith("led:") and name != "buzzer"
        ]
        bounce = config.bounce_ms / 1000 if config.bounce_ms else None
        try:
            for name, pin in roles:
                button = Button(pin, pull_up=True, bounce_time=bounce, pin_factory=pin_factory)
                button.when_pressed = self._callback(ButtonId(name))
                self.buttons[name] = button
        except Exception:
            self.close()
            raise

    def _callback(self, name: ButtonId) -> Callable[[], None]:
        def pressed() -> None:
            self._sink(ButtonPressed(name, self._clock()))

        return pressed

    def close(self) -> None:
        for button in self.buttons.values():
            button.close()
        self.buttons.clear()
