"""What a game's demo kit offers ``companion demo`` (and the contract test): who plays, what they do
next, and the hands that do it at a simulated table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from companion.bundle.table import LivePosition
from companion.engine import JSON


class TableDevice(Protocol):
    """What a demo's hands need of a table device (``firmware_bridge.virtual.VirtualTable`` has these)."""

    def put_tag(self, reader: int, uid: str) -> None: ...

    def remove_tag(self, reader: int, uid: str | None = None) -> None: ...

    def roll(self, die: int, face: int | None = None) -> int: ...

    def press(self, button: int) -> None: ...

    def release(self, button: int) -> None: ...


class DemoTable(Protocol):
    """What a demo's hands may do with the running companion (the CLI provides it)."""

    def position(self) -> LivePosition:
        """The current position (the session's latest published one)."""

    def submit(self, payload: Mapping[str, JSON], seat: int | None = None) -> bool:
        """Submits an action as if from the control page; True when accepted. ``seat``: as the phone
        that plays that seat (checked like any phone: its own seat's decisions and secrets only); None:
        as the table's owner."""

    def wait_after(self, seq: int, timeout: float) -> bool:
        """Waits (bounded) until an input after ``seq`` was accepted; True when one was."""

    def die_face(self, die: str, symbol: str) -> tuple[int, int] | None:
        """(device die id, 1-based face) that shows ``symbol`` on a die answering ``die``, if the
        device has one."""


@dataclass(frozen=True)
class DemoLayout:
    """The simulated table a demo plays on: readers, buttons and dice of the virtual device, and the
    ``[table]`` settings that map them (a dict as the settings file would give it)."""

    readers: int
    buttons: tuple[int, ...]
    dice: tuple[tuple[int, str | tuple[str, ...]], ...]
    """(device die, die id): the die of the dice data it is, or several alike in faces that it stands for
    (``("d6", "d3")``: one six-sided e-die read as whichever the engine asks for, as ``[table.dice]``
    allows)."""
    table: Mapping[str, Any]


class DemoHands(Protocol):
    """Does the chosen action the way players at the table would (cards on readers, dice, buttons);
    what has no physical act is submitted as from the control page."""

    def enact(self, action: Any, position: LivePosition) -> None: ...

    def clear(self) -> None:
        """Takes every card off the table (a new game starts)."""


class DemoKit(Protocol):
    """A game's demo, built by the bundle's ``demo`` function from a random generator: who plays, what
    they do (dice aside: the platform throws the physical dice), and with which hands."""

    players: Sequence[Mapping[str, str]]
    options: Mapping[str, JSON]
    """The setup options of the demo's games."""

    def layout(self, seats: int) -> DemoLayout: ...

    def tags(self) -> Mapping[str, str]:
        """UID -> card id of every physical card's tag (deterministic: a restart finds them again)."""

    def next_action(self, position: LivePosition) -> Any:
        """What the players do next in ``position`` (an engine Action; never a roll), or None."""

    def hands(self, table: DemoTable, device: TableDevice) -> DemoHands:
        """The players' hands on ``device``, laid out as the last ``layout`` call said."""
