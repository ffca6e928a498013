"""All of a table's GPIO, built from its config, started and closed together (for the entry point).

Wiring, in ``companion serve``::

    gpio = GpioStack(GpioConfig.from_mapping(section), session, table.observe)
    table.on_rejected(gpio.rejected)
    gpio.start()
    ...
    gpio.close()
"""

from __future__ import annotations

from collections.abc import Callable

from gpiozero import Factory

from companion.observations import Observation
from companion.session.contract import Outcome, SessionPort
from companion.table.clock import Clock, monotonic
from hardware.config import GpioConfig, make_pin_factory
from hardware.controls import TableButtons
from hardware.indicators import PlayerLeds, RejectBuzzer, ViewFollower


class GpioStack:
    def __init__(
        self,
        config: GpioConfig,
        session: SessionPort,
        sink: Callable[[Observation], None],
        pin_factory: Factory | None = None,
        clock: Clock = monotonic,
    ) -> None:
        self.pin_factory = pin_factory if pin_factory is not None else make_pin_factory(config.pin_factory)
        self.buttons = TableButtons(config, self.pin_factory, sink, clock)
        self.leds = PlayerLeds(config.player_leds, self.pin_factory)
        self.follower = ViewFollower(session, self.leds)
        self.buzzer = (
            RejectBuzzer(config.buzzer, self.pin_factory, config) if config.buzzer is not None else None
        )

    def rejected(self, outcome: Outcome) -> None:
        """For ``Table.on_rejected``."""
        if self.buzzer is not None:
            self.buzzer.rejected(outcome)

    def start(self) -> None:
        self.follower.start()

    def close(self) -> None:
        self.follower.stop()
        self.buttons.close()
        self.leds.close()
        if self.buzzer is not None:
            self.buzzer.close()
