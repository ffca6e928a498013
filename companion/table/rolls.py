"""Dice read at the table answer the engine's pending roll prompt.

The engine says what it waits for (``prompt.roll``: die, count, faces; ``prompt.players``). A die
result is mapped to the game's symbol by the dice data, checked against that request and submitted
as a ``Roll`` for the prompted player. A roll nobody asked for is shown and ignored: the engine never
receives a die it did not request.

Several dice for one prompt: games whose engine counts rolls down one at a time (Chaos Marauders:
one Cube, thrown six times for the Idol) get each result at once. Others (a HeroScape attack, all
dice thrown together) get one ``Roll`` with ``count`` faces: every result read counts as one die,
each must follow the previous within the window, and a window that runs out loses the partial roll.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.bundle import Act, LivePosition, Note, Translation
from companion.dice import DeviceDice, Dice, Die, UnknownDieError, UnknownFaceError
from companion.engine import JSON
from companion.observations import DieRolled


@dataclass
class _Collecting:
    request: tuple[Any, ...]
    """The prompt being answered (kind, players, die, count): a new prompt starts afresh."""
    count: int
    last: float
    symbols: list[str] = field(default_factory=list)
    observations: list[dict[str, JSON]] = field(default_factory=list)


class RollCollector:
    def __init__(self, dice: Dice, window: float, named: Mapping[int, tuple[str, ...]] | None = None) -> None:
        """``named``: ``[table.dice]``, which die of ``dice`` each device die is (``DeviceDice``)."""
        self._dice = dice
        self._device_dice = DeviceDice(dice, dict(named or {}))
        self._window = window
        self._collecting: _Collecting | None = None

    def rolled(
        self,
        roll: DieRolled,
        position: LivePosition,
        now: float,
        one_at_a_time: bool = False,
        owner: int | None = None,
    ) -> Translation:
        """``owner``: the seat this die belongs to (set from a phone), or None for anyone's die."""
        asked = position.prompt
        request = asked.roll if asked is not None else None
        try:
            reading = self._device_dice.read(roll.die, roll.face, roll.faces, request and request.die)
        except (UnknownDieError, UnknownFaceError) as exc:
            return Note(f"A die could not be read: {exc}")
        die, symbol, said = reading.die, reading.symbol, reading.said
        if asked is None or request is None:
            return Note(f"{said} — no roll was asked for", level="info")
        wanted = request.die
        if die is None or symbol is None or not die.answers_die(wanted):
            return Note(f"{said} — the table is waiting for a {self._title_of(wanted)} roll")
        if request.faces and symbol not in request.faces:
            return Note(f"{said}, which the {wanted} roll cannot show: check the die's faces in dice.toml")
        players = tuple(asked.players)
        if owner is not None and owner in position.names:  # an owner not in this game: anyone's die
            if owner not in players:
                rollers = " and ".join(position.name(p) for p in players)
                return Note(f"{said} — that is {position.name(owner)}'s die; {rollers} is to roll")
            players = (owner,)
        if len(players) != 1:
            return Note(f"{said} — several players are to roll: enter it on the control page")
        count = 1 if one_at_a_time else max(1, request.count)
        key = (asked.kind, asked.text, players, wanted, count)
        if self._collecting is None or self._collecting.request != key:
            self._collecting = _Collecting(key, count, now)
        collecting = self._collecting
        collecting.symbols.append(symbol)
        collecting.observations.append(_observation(roll, die, symbol))
        collecting.last = now
        if len(collecting.symbols) < count:
            return None
        self._collecting = None
        names = ", ".join(die.name(s) for s in collecting.symbols)
        who = position.name(players[0])
        payload = {"kind": "roll", "player": players[0], "die": wanted, "faces": collecting.symbols}
        observation = {"type": "dice_rolled", "dice": collecting.observations}
        return Act(payload, f"{who}'s {die.title} roll ({names})", observation)

    def due(self, now: float) -> Translation:
        """A multi-dice roll whose window ran out before all dice were read."""
        if self._collecting is None or self._collecting.last + self._window > now:
            return None
        read, count = len(self._collecting.symbols), self._collecting.count
        self._collecting = None
        return Note(f"Only {read} of {count} dice were read in time: roll all {count} again")

    def next_deadline(self) -> float | None:
        return None if self._collecting is None else self._collecting.last + self._window

    def _title_of(self, game_die: str) -> str:
        for die in self._dice:
            if die.answers_die(game_die):
                return die.title
        return game_die


def _observation(roll: DieRolled, die: Die, symbol: str) -> dict[str, JSON]:
    return {
        "type": "die_rolled",
        "die": roll.die,
        "kind": die.kind,
        "face": roll.face,
        "symbol": symbol,
        "at": roll.at,
    }
