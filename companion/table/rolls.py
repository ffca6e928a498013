"""Dice read at the table answer the engine's pending roll prompt.

The engine says what it waits for (``prompt.roll``: die, count, faces, policy, mixed dice;
``prompt.players``). A die result is mapped to the game's symbol by the dice data, checked against
that request and submitted as a ``Roll`` (the engine's own action) for a player the prompt asks. A
roll nobody asked for is shown and ignored: the engine never receives a die it did not request.

* ``DicePolicy.ONE_BY_ONE`` (Chaos Marauders: one Cube, thrown six times for the Idol): each result
  is a roll of its own, submitted at once.
* ``DicePolicy.TOGETHER`` (a HeroScape attack, Shattered Chaos' yellow, red and blue dice): every
  result read counts as one die of the request (of a mixed request, the first die still missing
  that the physical die can answer), each must follow the previous within the window, and a window
  that runs out loses the partial roll.
* Several players asked at once (co-operative throws for the party, simultaneous checks): a die
  goes to the seat it belongs to (``[table.dice]``) when that seat is asked, else to the first
  player the prompt still waits for. Each player's dice are gathered apart.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.bundle import Act, LivePosition, Note, Translation
from companion.dice import Dice, Die, UnknownDieError, UnknownFaceError
from companion.engine import JSON, DicePolicy, PlayerId, Roll, RollRequest
from companion.observations import DieRolled


@dataclass
class _Collecting:
    request: RollRequest
    kind: str
    """The prompt's kind: a new prompt (or request) starts afresh."""
    last: float
    symbols: list[str | None]
    observations: list[dict[str, JSON]] = field(default_factory=list)


class RollCollector:
    def __init__(self, dice: Dice, window: float) -> None:
        self._dice = dice
        self._window = window
        self._collecting: dict[PlayerId, _Collecting] = {}

    def rolled(
        self, roll: DieRolled, position: LivePosition, now: float, seat: PlayerId | None = None
    ) -> Translation:
        """A die read at the table; ``seat``: whose die it is, if the table's layout says."""
        try:
            die = self._dice[roll.kind]
            symbol = die.symbol(roll.face)
        except (UnknownDieError, UnknownFaceError) as exc:
            return Note(f"A die could not be read: {exc}")
        said = f"{die.title} rolled {die.name(symbol)}"
        asked = position.prompt
        request = asked.roll if asked is not None else None
        if asked is None or request is None or not asked.players:
            return Note(f"{said} — no roll was asked for", level="info")
        if not any(die.answers_die(request.die_at(i)) for i in range(max(1, request.count))):
            return Note(f"{said} — the table is waiting for a {self._title_of(request)} roll")
        if request.faces and symbol not in request.faces:
            return Note(
                f"{said}, which the {request.die} roll cannot show: check the die's faces in dice.toml"
            )
        player = seat if seat is not None and seat in asked.players else asked.players[0]
        for other in [p for p in self._collecting if p not in asked.players]:
            del self._collecting[other]  # answered meanwhile (on the phone): their partial roll is void
        count = 1 if request.policy is DicePolicy.ONE_BY_ONE else max(1, request.count)
        collecting = self._collecting.get(player)
        if collecting is None or (collecting.request, collecting.kind) != (request, asked.kind):
            collecting = self._collecting[player] = _Collecting(request, asked.kind, now, [None] * count)
        slot = self._slot(collecting, die)
        if slot is None:
            wanted = ", ".join(
                self._title(request.die_at(i)) for i, s in enumerate(collecting.symbols) if s is None
            )
            return Note(f"{said} — {position.name(player)}'s roll still needs: {wanted}")
        collecting.symbols[slot] = symbol
        collecting.observations.append(_observation(roll, symbol))
        collecting.last = now
        if any(s is None for s in collecting.symbols):
            return None
        del self._collecting[player]
        faces = tuple(s for s in collecting.symbols if s is not None)
        names = ", ".join(self._name(request.die_at(i), s) for i, s in enumerate(faces))
        title = die.title if not request.dice else request.die
        action = Roll(player, request.die, faces)
        observation = {"type": "dice_rolled", "dice": collecting.observations}
        return Act(action, f"{position.name(player)}'s {title} roll ({names})", observation)

    def due(self, now: float) -> Translation:
        """A several-dice roll whose window ran out before all its dice were read."""
        for player, collecting in list(self._collecting.items()):
            if collecting.last + self._window <= now:
                del self._collecting[player]
                read = sum(1 for s in collecting.symbols if s is not None)
                count = len(collecting.symbols)
                return Note(f"Only {read} of {count} dice were read in time: roll all {count} again")
        return None

    def next_deadline(self) -> float | None:
        return min((c.last + self._window for c in self._collecting.values()), default=None)

    def _slot(self, collecting: _Collecting, die: Die) -> int | None:
        """The first die of the request still missing that ``die`` can answer."""
        for index, symbol in enumerate(collecting.symbols):
            if symbol is None and die.answers_die(collecting.request.die_at(index)):
                return index
        return None

    def _physical(self, game_die: str) -> Die | None:
        return next((die for die in self._dice if die.answers_die(game_die)), None)

    def _title(self, game_die: str) -> str:
        physical = self._physical(game_die)
        return physical.title if physical is not None else game_die

    def _title_of(self, request: RollRequest) -> str:
        return request.die if request.dice else self._title(request.die)

    def _name(self, game_die: str, symbol: str) -> str:
        physical = self._physical(game_die)
        return physical.name(symbol) if physical is not None else symbol


def _observation(roll: DieRolled, symbol: str) -> dict[str, JSON]:
    return {
        "type": "die_rolled",
        "die": roll.die,
        "kind": roll.kind,
        "face": roll.face,
        "symbol": symbol,
        "at": roll.at,
    }
