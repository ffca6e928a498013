"""GPIO at the table (gpiozero): shout, confirm, undo and next buttons in; player LEDs and a buzzer out.

Every device takes an explicit pin factory (``gpiozero.pins.mock.MockFactory`` in tests and in the
virtual table); nothing here uses gpiozero's process-wide default. Button callbacks only enqueue an
observation for the table; LEDs follow the session's published views.
"""

from hardware.config import GpioConfig, GpioConfigError, make_pin_factory
from hardware.controls import TableButtons
from hardware.indicators import PlayerLeds, RejectBuzzer, ViewFollower
from hardware.stack import GpioStack

__all__ = [
    "GpioConfig",
    "GpioConfigError",
    "GpioStack",
    "PlayerLeds",
    "RejectBuzzer",
    "TableButtons",
    "ViewFollower",
    "make_pin_factory",
]
