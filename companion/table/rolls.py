"""Dice read at the table answer the engine's pending roll prompt.

The engine says what it waits for (``prompt.roll``: die, count, faces, policy, mixed dice;
``prompt.players``). A device reports a die by its number and a face index; ``[table.dice]`` and the
dice data say which die it is and what the face shows (``companion.dice.DeviceDice``). The symbol is
checked against the request and submitted as a ``Roll`` (the engine's own action) for a player the
prompt asks. A roll nobody asked for is shown and ignored: the engine never receives a die it did not
request.

* ``DicePolicy.ONE_BY_ONE`` (Chaos Marauders: one Cube, thrown six times for the Idol): each result
  is a roll of its own, submitted at once.
* ``DicePolicy.TOGETHER`` (a HeroScape attack, Shattered Chaos' yellow, red and blue dice): every
  result read counts as one die of the request (of a mixed request, the first die still missing
  that the physical die can answer), each must follow the previous within the window, and a window
  that runs out loses the partial roll.

Whose roll a die answers: a die a phone gave to a seat (``DiceOwners``, the ``owner`` passed in)
answers only its owner's rolls, and for its owner when several players are asked; a die nobody owns
answers the one player asked, or, when several are (co-operative throws for the party, simultaneous
checks), the first of them the prompt still waits for who has no die of their own. Each player's
dice are gathered apart. A throw for the table (``RollRequest.anyone``: an enemy's attack in a
co-operative game) takes any die, whoever owns it, for the prompt's first player.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

from companion.bundle import Act, LivePosition, Note, Translation
from companion.dice import DeviceDice, Dice, Die, UnknownDieError, UnknownFaceError
from companion.engine import JSON, DicePolicy, PlayerId, Prompt, Roll, RollRequest
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
    def __init__(self, dice: Dice, window: float, named: Mapping[int, tuple[str, ...]] | None = None) -> None:
        """``named``: ``[table.dice]``, which die of ``dice`` each device die is (``DeviceDice``)."""
        self._dice = dice
        self._device_dice = DeviceDice(dice, dict(named or {}))
        self._window = window
        self._collecting: dict[PlayerId, _Collecting] = {}

    def rolled(
        self,
        roll: DieRolled,
        position: LivePosition,
        now: float,
        owner: PlayerId | None = None,
        owned: Collection[PlayerId] = (),
    ) -> Translation:
        """A die read at the table. ``owner``: the seat this die belongs to (set from a phone), None
        for anyone's die; ``owned``: every seat that has a die of its own."""
        asked = position.prompt
        request = asked.roll if asked is not None else None
        if asked is None or request is None or not asked.players:
            return self._unasked(roll)
        if owner is not None and (owner not in position.names or request.anyone):
            owner = None  # a seat of an earlier, bigger game, or a throw for the table: anyone's die
        player = asked.players[0] if request.anyone else _roller(asked, owner, owned)
        try:
            reading = self._device_dice.read(
                roll.die, roll.face, roll.faces, self._missing(player, request, asked.kind)
            )
        except (UnknownDieError, UnknownFaceError) as exc:
            return Note(f"A die could not be read: {exc}")
        die, symbol, said = reading.die, reading.symbol, reading.said
        wanted = [request.die_at(i) for i in range(max(1, request.count))]
        if die is None or symbol is None or not any(die.answers_die(w) for w in wanted):
            return Note(f"{said} — the table is waiting for a {self._title_of(request)} roll")
        if request.faces and symbol not in request.faces:
            return Note(
                f"{said}, which the {request.die} roll cannot show: check the die's faces in dice.toml"
            )
        if owner is not None and owner not in asked.players:
            rollers = " and ".join(position.name(p) for p in asked.players)
            return Note(f"{said} — that is {position.name(owner)}'s die; {rollers} is to roll")
        if player is None:
            return Note(
                f"{said} — several players are to roll and each has a die of their own: whose is this"
                " one? Give it to a player on the control page (Dice), or enter the roll there"
            )
        for other in [p for p in self._collecting if p not in asked.players]:
            del self._collecting[other]  # answered meanwhile (on the phone): their partial roll is void
        count = 1 if request.policy is DicePolicy.ONE_BY_ONE else max(1, request.count)
        collecting = self._collecting.get(player)
        if collecting is None or (collecting.request, collecting.kind) != (request, asked.kind):
            collecting = self._collecting[player] = _Collecting(request, asked.kind, now, [None] * count)
        slot = self._slot(collecting, die)
        if slot is None:
            needed = ", ".join(
                self._title(request.die_at(i)) for i, s in enumerate(collecting.symbols) if s is None
            )
            return Note(f"{said} — {position.name(player)}'s roll still needs: {needed}")
        collecting.symbols[slot] = symbol
        collecting.observations.append(_observation(roll, die, symbol))
        collecting.last = now
        if any(s is None for s in collecting.symbols):
            return None
        del self._collecting[player]
        faces = tuple(s for s in collecting.symbols if s is not None)
        names = ", ".join(self._name(request.die_at(i), s) for i, s in enumerate(faces))
        title = self._title_of(request)
        action = Roll(player, request.die, faces)
        observation = {"type": "dice_rolled", "dice": collecting.observations}
        return Act(action, f"{position.name(player)}'s {title} roll ({names})", observation)

    def _unasked(self, roll: DieRolled) -> Note:
        try:
            said = self._device_dice.read(roll.die, roll.face, roll.faces, None).said
        except (UnknownDieError, UnknownFaceError) as exc:
            return Note(f"A die could not be read: {exc}")
        return Note(f"{said} — no roll was asked for", level="info")

    def _missing(self, player: PlayerId | None, request: RollRequest, kind: str) -> tuple[str, ...]:
        """The game dice ``player``'s roll still waits for, in the request's order (a die that may be
        several is read as the first of them it can be)."""
        collecting = self._collecting.get(player) if player is not None else None
        count = max(1, request.count)
        if collecting is None or (collecting.request, collecting.kind) != (request, kind):
            return tuple(dict.fromkeys(request.die_at(i) for i in range(count)))
        missing = [request.die_at(i) for i, s in enumerate(collecting.symbols) if s is None]
        return tuple(dict.fromkeys(missing or [request.die_at(i) for i in range(count)]))

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
        """How people call the roll: its die, or the dice of a mixed throw ("yellow attack die + red ...")."""
        if request.dice:
            return " + ".join(self._title(die) for die in dict.fromkeys(request.dice))
        return self._title(request.die)

    def _name(self, game_die: str, symbol: str) -> str:
        physical = self._physical(game_die)
        return physical.name(symbol) if physical is not None else symbol


def _observation(roll: DieRolled, die: Die, symbol: str) -> dict[str, JSON]:
    return {
        "type": "die_rolled",
        "die": roll.die,
        "kind": die.kind,
        "face": roll.face,
        "symbol": symbol,
        "at": roll.at,
    }


def _roller(asked: Prompt, owner: PlayerId | None, owned: Collection[PlayerId]) -> PlayerId | None:
    """The player a die answers for (see the module's docstring); None when it cannot be told."""
    if owner is not None:
        return owner if owner in asked.players else None
    if len(asked.players) == 1:
        return asked.players[0]
    return next((p for p in asked.players if p not in owned), None)
