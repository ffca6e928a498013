"""Buttons at the table become commands.

Button roles: ``shout:<seat>``, ``confirm``, ``undo``, ``next`` (``hardware`` names GPIO buttons so;
the microcontroller's numbered buttons are named by ``[table.buttons]``).

* shout — the first press wins. Presses arriving within the shout window are gathered, then ordered
  by the timestamp taken in the GPIO callback (not by arrival: the callback threads may be scheduled
  out of order), so a 3 ms lead counts even when the later press reached the queue first.
* confirm — answers the prompt when it offers exactly one choice (nothing to get wrong), or the
  choice ``next`` has shown on the TV; otherwise the players pick on the control page.
* next — the game's "move on" action (end the turn, decline an optional effect), from the mapper.
  Where the game has none but the prompt offers several choices (a card laid on a line reader:
  which slot?), ``next`` steps through them, naming each on the TV, and ``confirm`` takes the one
  shown: the table answers without a phone.
* undo — handled by the table as a session undo, not here.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.bundle import Act, LivePosition, Note, TableMapper, Translation
from companion.engine import JSON, PlayerId

SHOUT_PREFIX = "shout:"


@dataclass(frozen=True)
class _Press:
    player: PlayerId
    at: float
    source: str


def shout_seat(button: str) -> PlayerId | None:
    if not button.startswith(SHOUT_PREFIX):
        return None
    try:
        return PlayerId(int(button[len(SHOUT_PREFIX) :]))
    except ValueError:
        return None


class ShoutRace:
    """Gathers shout presses for one window and names the winner."""

    def __init__(self, window: float) -> None:
        self._window = window
        self._presses: list[_Press] = []
        self._closes_at: float | None = None

    def pressed(self, player: PlayerId, at: float, now: float, source: str = "gpio") -> None:
        if self._closes_at is None:
            self._closes_at = now + self._window
        if all(p.player != player for p in self._presses):  # a bounce or a second press does not count
            self._presses.append(_Press(player, at, source))

    def next_deadline(self) -> float | None:
        return self._closes_at

    def due(self, now: float) -> tuple[list[tuple[PlayerId, float]], str] | None:
        """The presses in time order (winner first) and the winning press's source, once the window
        closed; else None."""
        if self._closes_at is None or self._closes_at > now:
            return None
        ordered = sorted(self._presses, key=lambda p: (p.at, p.player))
        self._presses, self._closes_at = [], None
        return [(p.player, p.at) for p in ordered], ordered[0].source


def shout_result(
    order: list[tuple[PlayerId, float]], mapper: TableMapper, position: LivePosition
) -> tuple[Translation, str | None]:
    """The winner's shout action, and a line for the TV naming the margin when it was close."""
    winner, won_at = order[0]
    margin = None
    if len(order) > 1:
        runner, runner_at = order[1]
        lead_ms = (runner_at - won_at) * 1000
        margin = f"{position.name(winner)} shouted first, {lead_ms:.0f} ms ahead of {position.name(runner)}"
    translation = mapper.shout(winner, position)
    if isinstance(translation, Act) and translation.observation is None:
        observation = {"type": "shout", "presses": [{"player": p, "at": at} for p, at in order]}
        translation = translation.with_observation(observation)
    return translation, margin


Shown = tuple[str, dict[str, JSON]]
"""A prompt choice as the table shows it: (label, action JSON)."""


class ChoiceCursor:
    """The prompt choice the ``next`` button has shown on the TV, valid until the position's seq moves
    on (any accepted input may change the prompt, so a choice shown before it is never taken)."""

    def __init__(self) -> None:
        self._seq: int | None = None
        self._index = -1
        self._count = 0

    def step(self, position: LivePosition) -> str | None:
        """Moves to the next choice of the prompt (the first one after the prompt changed) and names
        it for the TV; None when the prompt offers no choice."""
        choices = position.choice_payloads()
        if not choices:
            return None
        seq = position.seq
        self._index = (self._index + 1) % len(choices) if seq == self._seq else 0
        self._seq = seq
        self._count = len(choices)
        return (
            f"Next button: {choices[self._index][0]} (choice {self._index + 1} of {len(choices)})."
            " Press Confirm to take it"
        )

    def place(self) -> dict[str, int]:
        """Which choice is shown (``index`` from 1) of how many (``count``), for the TV."""
        return {"index": self._index + 1, "count": self._count}

    def shown(self, position: LivePosition) -> Shown | None:
        """The choice shown for this very position, if any."""
        choices = position.choice_payloads()
        if self._seq is None or position.seq != self._seq or not 0 <= self._index < len(choices):
            return None
        return choices[self._index]


def confirm(position: LivePosition, cursor: ChoiceCursor | None = None) -> Translation:
    choices = position.choice_payloads()
    chosen = choices[0] if len(choices) == 1 else cursor.shown(position) if cursor else None
    if chosen is not None:
        label, action = chosen
        return Act(action, label or "confirm", {"type": "button", "button": "confirm"})
    if not choices:
        return Note("Nothing to confirm right now", level="info")
    labels = "; ".join(label for label, _ in choices)
    return Note(
        f"Several choices ({labels}): press next to step through them, or pick one on the control page",
        level="info",
    )
