"""GPIO pin assignments, from the ``[hardware.gpio]`` section of the settings file (BCM numbers)::

[hardware.gpio]
pin_factory = "lgpio"
shout_buttons = [17, 27, 22, 23]   # one per seat, seat 0 first (Chaos Marauders' shout)
player_leds = [5, 6, 13, 19]
seat_buttons = { ready = [20, 21] }   # any game's per-seat button role: "ready:0", "ready:1"
confirm = 24
undo = 25
next = 16
buzzer = 12
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gpiozero import Factory

PIN_FACTORIES = ("lgpio", "rpigpio", "pigpio", "native", "mock")


class GpioConfigError(ValueError):
    """The ``[hardware.gpio]`` section is malformed (a pin used twice, an unknown key)."""


@dataclass(frozen=True)
class GpioConfig:
    pin_factory: str = "lgpio"
    """gpiozero pin library: "lgpio" (any Pi on current Raspberry Pi OS), "mock" for a virtual table."""
    shout_buttons: tuple[int, ...] = ()
    """The per-seat buttons of the role ``shout`` (seat 0 first); ``seat_buttons`` names any role."""
    player_leds: tuple[int, ...] = ()
    seat_buttons: tuple[tuple[str, tuple[int, ...]], ...] = ()
    """A game's per-seat button role -> its pins, seat 0 first: presses arrive as ``<role>:<seat>``."""
    confirm: int | None = None
    undo: int | None = None
    next: int | None = None
    buzzer: int | None = None
    bounce_ms: int = 10
    """Debounce for the buttons; short, because a shout race is decided in milliseconds."""
    beep_on_ms: int = 80
    beep_off_ms: int = 60
    beeps: int = 2

    def __post_init__(self) -> None:
        if self.pin_factory not in PIN_FACTORIES:
            raise GpioConfigError(
                f"pin_factory {self.pin_factory!r} is not one of {', '.join(PIN_FACTORIES)}"
            )
        used: dict[int, str] = {}
        for name, pin in self.pins():
            if pin in used:
                raise GpioConfigError(f"GPIO{pin} is used for both {used[pin]} and {name}")
            used[pin] = name

    def pins(self) -> list[tuple[str, int]]:
        """(role, BCM pin) for every configured pin: "shout:0", "led:0", "confirm", ..."""
        out = [(f"shout:{seat}", pin) for seat, pin in enumerate(self.shout_buttons)]
        out += [(f"{role}:{seat}", pin) for role, pins in self.seat_buttons for seat, pin in enumerate(pins)]
        out += [(f"led:{seat}", pin) for seat, pin in enumerate(self.player_leds)]
        out += [
            (name, pin)
            for name in ("confirm", "undo", "next", "buzzer")
            if (pin := getattr(self, name)) is not None
        ]
        return out

    @classmethod
    def from_mapping(cls, section: Mapping[str, Any]) -> GpioConfig:
        known = {f for f in cls.__dataclass_fields__}
        unknown = set(section) - known
        if unknown:
            raise GpioConfigError(f"unknown keys in [hardware.gpio]: {', '.join(sorted(unknown))}")
        values: dict[str, Any] = {}
        for key, value in section.items():
            if key == "pin_factory":
                if not isinstance(value, str):
                    raise GpioConfigError("pin_factory must be text")
                values[key] = value
            elif key in ("shout_buttons", "player_leds"):
                if not isinstance(value, list) or not all(_is_pin(v) for v in value):
                    raise GpioConfigError(f"{key} must be a list of GPIO numbers, got {value!r}")
                values[key] = tuple(value)
            elif key == "seat_buttons":
                values[key] = _seat_buttons(value)
            elif not _is_pin(value):
                raise GpioConfigError(f"{key} must be a whole number, got {value!r}")
            else:
                values[key] = value
        return cls(**values)

    @classmethod
    def load(cls, path: Path) -> GpioConfig:
        with path.open("rb") as fh:
            return cls.from_mapping(tomllib.load(fh).get("hardware", {}).get("gpio", {}))


def _seat_buttons(value: object) -> tuple[tuple[str, tuple[int, ...]], ...]:
    if not isinstance(value, Mapping):
        raise GpioConfigError("seat_buttons must map a button role to its pins, e.g. {ready = [20, 21]}")
    out = []
    for role, pins in value.items():
        if not isinstance(role, str) or not role.isidentifier() or role in ("confirm", "undo", "next", "led"):
            raise GpioConfigError(f"seat_buttons: {role!r} cannot name a game's button role")
        if not isinstance(pins, list) or not all(_is_pin(p) for p in pins):
            raise GpioConfigError(f"seat_buttons.{role} must be a list of GPIO numbers, got {pins!r}")
        out.append((role, tuple(pins)))
    return tuple(out)


def _is_pin(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def make_pin_factory(name: str) -> Factory:
    """The named gpiozero pin factory, created explicitly (never gpiozero's global default)."""
    if name == "mock":
        from gpiozero.pins.mock import MockFactory

        return MockFactory()
    if name == "lgpio":
        from gpiozero.pins.lgpio import LGPIOFactory

        return LGPIOFactory()
    if name == "rpigpio":
        from gpiozero.pins.rpigpio import RPiGPIOFactory

        return RPiGPIOFactory()
    if name == "pigpio":
        from gpiozero.pins.pigpio import PiGPIOFactory

        return PiGPIOFactory()
    if name == "native":
        from gpiozero.pins.native import NativeFactory

        return NativeFactory()
    raise GpioConfigError(f"pin_factory {name!r} is not one of {', '.join(PIN_FACTORIES)}")
