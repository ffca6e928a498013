"""Buttons at the table become commands.

Every game has ``confirm``, ``undo`` and ``next``; a game declares its own roles in its bundle
(``ButtonRole``: Chaos Marauders' per-seat ``shout``). Buttons arrive named by their role
(``hardware`` names GPIO buttons so; the microcontroller's numbered buttons are named by
``[table.buttons]``), per-seat ones as ``<role>:<seat>``.

* a game's role — its presses go to the game's mapper (``TableMapper.pressed``). A role with a
  window gathers the presses that follow the first within it and hands them over in the order they
  were pressed, by their own timestamps, not by arrival: the callback threads may be scheduled out of
  order, so a 3 ms lead counts even when the later press reached the queue first.
  ``ButtonPressed.at`` is the host's monotonic clock for GPIO and microcontroller buttons alike, so
  the two may be mixed. What the order means (the first shout wins) is the game's to say.
* confirm — answers the prompt when it offers exactly one choice (nothing to get wrong), or the
  choice ``next`` has shown on the TV; otherwise the players pick on the control page.
* next — the game's "move on" action (end the turn, decline an optional effect), from the mapper.
  Where the game has none but the prompt offers several choices (a card laid on a line reader:
  which slot?), ``next`` steps through them, naming each on the TV, and ``confirm`` takes the one
  shown: the table answers without a phone.
* undo — handled by the table as a session undo, not here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.bundle import Act, LivePosition, Note, Press, Translation
from companion.engine import JSON, Choice


@dataclass
class _Window:
    closes_at: float
    presses: list[Press] = field(default_factory=list)


class Gathering:
    """Presses of a game's button roles, each role gathered for its window, then handed over."""

    def __init__(self) -> None:
        self._open: dict[str, _Window] = {}

    def pressed(self, role: str, window: float, press: Press, now: float) -> list[Press] | None:
        """The presses to hand over now (at once for a role without a window), else None."""
        if window <= 0:
            return [press]
        gathering = self._open.setdefault(role, _Window(now + window))
        if all(p.seat != press.seat for p in gathering.presses):  # a bounce or a second press: once
            gathering.presses.append(press)
        return None

    def next_deadline(self) -> float | None:
        return min((w.closes_at for w in self._open.values()), default=None)

    def due(self, now: float) -> list[tuple[str, list[Press]]]:
        """Each role whose window closed, with its presses in time order (earliest first)."""
        out = []
        for role, gathering in list(self._open.items()):
            if gathering.closes_at <= now:
                del self._open[role]
                ordered = sorted(gathering.presses, key=lambda p: (p.at, -1 if p.seat is None else p.seat))
                out.append((role, ordered))
        return out


def press_observation(role: str, presses: list[Press]) -> dict[str, JSON]:
    """What the table logs with the command a game's button made."""
    return {
        "type": "button",
        "role": role,
        "presses": [{"player": p.seat, "at": p.at, "source": p.source} for p in presses],
    }


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
        choices = _choices(position)
        if not choices:
            return None
        seq = position.seq
        self._index = (self._index + 1) % len(choices) if seq == self._seq else 0
        self._seq = seq
        self._count = len(choices)
        return (
            f"Next button: {choices[self._index].label} (choice {self._index + 1} of {len(choices)})."
            " Press Confirm to take it"
        )

    def place(self) -> dict[str, int]:
        """Which choice is shown (``index`` from 1) of how many (``count``), for the TV."""
        return {"index": self._index + 1, "count": self._count}

    def choice(self, position: LivePosition) -> Choice | None:
        """The choice shown for this very position, if any."""
        choices = _choices(position)
        if self._seq is None or position.seq != self._seq or not 0 <= self._index < len(choices):
            return None
        return choices[self._index]

    def shown(self, position: LivePosition) -> Shown | None:
        """The choice shown, as the TV outlines it (label and action JSON)."""
        chosen = self.choice(position)
        if chosen is None or position.game is None:
            return None
        return chosen.label, position.game.format_action(chosen.action)


def _choices(position: LivePosition) -> tuple[Choice, ...]:
    prompt = position.prompt
    return prompt.choices if prompt is not None else ()


def confirm(position: LivePosition, cursor: ChoiceCursor | None = None) -> Translation:
    choices = _choices(position)
    chosen = choices[0] if len(choices) == 1 else cursor.choice(position) if cursor else None
    if chosen is not None:
        return Act(chosen.action, chosen.label or "confirm", {"type": "button", "button": "confirm"})
    if not choices:
        return Note("Nothing to confirm right now", level="info")
    labels = "; ".join(choice.label for choice in choices)
    return Note(
        f"Several choices ({labels}): press next to step through them, or pick one on the control page",
        level="info",
    )
