"""The position of a HeroScape game as immutable values.

The companion does not track the map: a figure's place is the players' business. It tracks what the
bookkeeping needs: each army card in play with its figures' wounds, the order markers (secret until
revealed), initiative, whose turn with which card, what each figure did this turn, the glyphs in play,
and the questions waiting for an answer (a stack of *steps*: rolls, choices, declarations).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from companion.engine import evolver
from companion.games.heroscape.ids import FigureId, UnitId

ALIVE = ""
DESTROYED = "destroyed"
EXITED = "exited"
"""A figure's status: on the battlefield, destroyed, or taken out of play by a scenario (an exit zone)."""

MARKERS = ("1", "2", "3", "X")


@dataclass(frozen=True, slots=True)
class Figure:
    wounds: int = 0
    status: str = ALIVE

    @property
    def alive(self) -> bool:
        return self.status == ALIVE


@dataclass(frozen=True, slots=True)
class Unit:
    """One army card in play: its card, which copy in its player's army, its figures."""

    card: str
    copy: int
    figures: tuple[Figure, ...]
    negated: bool = False
    """The Negation Marker lies on it (Glyph of Nilrend): its special powers are off for the game."""
    gift: bool = False
    """The scenario gives it outside the army's points (Waters of Life: Player 2's Marro Hive)."""
    alive: bool = field(init=False, compare=False, repr=False)
    """A figure of it is still on the battlefield (worked out once: every rule and view asks it)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "alive", any(f.status == ALIVE for f in self.figures))

    def living(self) -> list[int]:
        """Numbers (from 1) of the figures still on the battlefield."""
        return [i + 1 for i, f in enumerate(self.figures) if f.status == ALIVE]


@dataclass(frozen=True, slots=True)
class Side:
    """One player's army and order markers."""

    units: tuple[Unit, ...] = ()
    ready: bool = False
    """The army is complete (a premade army registered, or a pass in the draft)."""
    markers: tuple[str, ...] | None = None
    """This round's markers 1, 2, 3 and X: the unit each lies on (``UnitId.format()``), or None until
    placed. Secret until revealed: only ``private_view`` shows them."""
    revealed: tuple[bool, ...] = (False, False, False)
    removed: tuple[bool, ...] = (False, False, False, False)
    """Markers taken off by the Glyph of Ored this round (that turn is lost)."""
    out: bool = False
    """Out of the game (Rogue Hive: lost the Hive with no figures left)."""


@dataclass(frozen=True, slots=True)
class Turn:
    seat: int
    marker: int
    """0, 1 or 2 for turns 1-3 of the round; -1 in the Basic Game (no markers)."""
    unit: str
    """The unit whose turn it is (``UnitId.format()``)."""
    step: str = "move"
    """"move" until the player has moved (before-move powers), then "attack"."""
    attackers: tuple[str, ...] = ()
    """Figures that made an attack this turn (normal or special)."""
    specials: tuple[tuple[str, str, int], ...] = ()
    """(figure, special attack power id, uses so far) this turn."""
    struck: tuple[tuple[str, str], ...] = ()
    """(attacker, defender) pairs of attacks that may hit each figure once (Whirlwind Assault)."""
    powers: tuple[str, ...] = ()
    """Activated powers already used this turn (power ids)."""
    first: str | None = None
    """The army card taking a turn first, before the revealed card's own turn: a squad through the
    Marro Hive's Hive Mind, a Hivelord through the Nagrubs' Hivelord Life Bonding."""
    first_power: str = ""
    """The power (id) that gave that first turn."""
    first_offered: bool = False
    attack_bonus: int = 0
    """Added to the turn's figures' normal attack (Stinger Drain on 10 or more)."""
    no_attack: bool = False
    """The turn's figures may not attack (Stinger Drain on 1-4)."""


@dataclass(frozen=True, slots=True)
class PendingAttack:
    """An attack declared: the attacker's roll, then the defender's."""

    attacker: str
    defender: str
    special: str | None
    attack_dice: int
    defense_dice: int
    skulls: int | None = None
    attack_faces: tuple[str, ...] = ()
    kind: str = "attack"
    """"attack", "leaving" (leaving engagement: one die, no defense) or "fall" (the drop's dice)."""
    attack_parts: tuple[tuple[str, int], ...] = ()
    defense_parts: tuple[tuple[str, int], ...] = ()
    """Where the dice come from: ("Attack", 3), ("height advantage", 1), ("Glyph of Ulaniva", 1)..."""


@dataclass(frozen=True, slots=True)
class D20:
    """A roll of the 20-sided die the engine waits for, and what it decides."""

    seat: int
    purpose: str
    """"power", "glyph", "extreme-fall", "drink", "flood", "wannok"."""
    source: str = ""
    """The power id, glyph id or scenario rule rolled for."""
    unit: str = ""
    target: str = ""
    threshold: int = 0


@dataclass(frozen=True, slots=True)
class Ask:
    """A question the engine asks one player; the answer is a ``choose``, ``declare`` or ``decline``."""

    seat: int
    purpose: str
    source: str = ""
    subject: str = ""
    seats: tuple[int, ...] = ()
    """Players still to answer a question asked of several in turn (a flood, the Siren's Call)."""


@dataclass(frozen=True, slots=True)
class RollOff:
    """Everyone (or the tied) rolls; the highest wins, ties for highest roll again.

    ``purpose``: "draft" (who drafts first), "initiative", "hive" (Rogue Hive control) with the d20, or
    "first" (the Basic Game: six combat dice each, the most skulls goes first).
    """

    purpose: str
    contenders: tuple[int, ...]
    rolls: tuple[tuple[int, int], ...] = ()

    @property
    def waiting(self) -> tuple[int, ...]:
        rolled = {seat for seat, _ in self.rolls}
        return tuple(s for s in self.contenders if s not in rolled)


@dataclass(frozen=True, slots=True)
class Contest:
    """A d20 roll-off two players ask for to settle something the engine does not judge (a Line of Sight
    dispute, Simultaneous Special Powers): each rolls, the high roller wins, a tie rolls again. It
    changes nothing but the record of its result."""

    about: str
    """"line-of-sight" or "simultaneous-powers"."""
    contenders: tuple[int, ...]
    rolls: tuple[tuple[int, int], ...] = ()
    again: bool = False
    """A tie: everyone rolls again."""

    @property
    def waiting(self) -> tuple[int, ...]:
        rolled = {seat for seat, _ in self.rolls}
        return tuple(s for s in self.contenders if s not in rolled)


@dataclass(frozen=True, slots=True)
class ContestResult:
    """The last roll-off settled: what it was about, who won, and the deciding rolls (winner first)."""

    about: str
    winner: int
    loser: int
    rolls: tuple[int, int]
    when: tuple[int, int] = (0, 0)
    """The round and turn of the round it was settled in (the TV shows it for that turn)."""


@dataclass(frozen=True, slots=True)
class Draft:
    """Who drafts next: ``order`` is the picking order of this pass, ``index`` the picker in it,
    ``picks`` the cards that picker still takes this time (the last of a pass takes two); ``ring`` is
    the seats from the first drafter to the left, which the passes run along and back."""

    order: tuple[int, ...]
    index: int = 0
    picks: int = 1
    ring: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class GlyphInPlay:
    glyph: str
    holder: str | None = None
    """The figure standing on it (a permanent glyph is in effect while one does)."""
    removed: bool = False


@dataclass(frozen=True, slots=True)
class LastAttack:
    attacker: str
    defender: str
    special: str | None
    attack_dice: int
    defense_dice: int
    attack_faces: tuple[str, ...]
    defense_faces: tuple[str, ...]
    skulls: int
    shields: int
    wounds: int
    destroyed: bool
    kind: str = "attack"
    attack_parts: tuple[tuple[str, int], ...] = ()
    defense_parts: tuple[tuple[str, int], ...] = ()


Step = PendingAttack | D20 | Ask | Contest


@dataclass(frozen=True)
class State:
    names: tuple[str, ...]
    colours: tuple[str, ...]
    scenario: str
    basic: bool
    army_mode: str
    """"preset", "draft" or "premade"."""
    limits: tuple[int, ...]
    """Each seat's army point limit (0: a preset army)."""
    teams: tuple[int, ...]
    """Each seat's team; players of one team win or lose together."""
    round_limit: int
    partial_credit: bool
    sets: int = 1
    """Master Sets the table plays with: each card can be taken this many times its box copies."""
    phase: str = "army"
    """"rolloff", "draft", "army", "markers", "turns", "over"."""
    sides: tuple[Side, ...] = ()
    rolloff: RollOff | None = None
    draft: Draft | None = None
    round: int = 1
    order: tuple[int, ...] = ()
    """This round's turn order, the initiative winner first (the Basic Game: the alternation)."""
    initiative_rolls: tuple[tuple[int, int], ...] = ()
    turn_index: int = 0
    """Which turn of the round is being played (0 .. 3 x players - 1; Basic Game: counts on)."""
    turn: Turn | None = None
    stack: tuple[Step, ...] = ()
    glyphs: tuple[GlyphInPlay, ...] = ()
    flooded: bool = False
    hive_controller: int | None = None
    hive: Unit | None = None
    """The scenario's Marro Hive when no army holds it (Rogue Hive: whoever controls it this round)."""
    last_attack: LastAttack | None = None
    last_contest: ContestResult | None = None
    """The last d20 roll-off players asked for (the only thing a roll-off changes)."""
    last_turn_seat: int | None = None
    """Who took the round's last turn (rolls the Deadly Wall of Water's d20)."""
    started: bool = False
    """The armies are on the battlefield (victory conditions apply from now on)."""
    finished: bool = False
    winners: tuple[int, ...] = ()
    reason: str = ""

    @property
    def seats(self) -> int:
        return len(self.names)

    @property
    def top(self) -> Step | None:
        return self.stack[-1] if self.stack else None

    def unit(self, unit_id: UnitId | str) -> Unit | None:
        uid = UnitId.parse(unit_id) if isinstance(unit_id, str) else unit_id
        if not 0 <= uid.seat < self.seats:
            return None
        for unit in self.sides[uid.seat].units:
            if unit.card == uid.card and unit.copy == uid.copy:
                return unit
        if self.hive is not None and self.hive_controller == uid.seat and uid.card == self.hive.card:
            return self.hive
        return None

    def figure(self, figure_id: FigureId | str) -> Figure | None:
        fid = FigureId.parse(figure_id) if isinstance(figure_id, str) else figure_id
        unit = self.unit(fid.unit)
        if unit is None or not 1 <= fid.number <= len(unit.figures):
            return None
        return unit.figures[fid.number - 1]

    def units_of(self, seat: int) -> list[tuple[UnitId, Unit]]:
        """A seat's army cards in play, the controlled Rogue Hive included."""
        out = [(UnitId(seat, u.card, u.copy), u) for u in self.sides[seat].units]
        if self.hive is not None and self.hive_controller == seat:
            out.append((UnitId(seat, self.hive.card, self.hive.copy), self.hive))
        return out

    def has_figures(self, seat: int) -> bool:
        if any(u.alive for u in self.sides[seat].units):
            return True
        return self.hive is not None and self.hive_controller == seat and self.hive.alive


evolve = evolver(State)


def set_side(state: State, seat: int, side: Side) -> State:
    sides = list(state.sides)
    sides[seat] = side
    return evolve(state, sides=tuple(sides))


def set_unit(state: State, uid: UnitId, unit: Unit) -> State:
    """The state with ``uid``'s army card replaced by ``unit``."""
    if state.hive is not None and state.hive_controller == uid.seat and uid.card == state.hive.card:
        if not any(u.card == uid.card and u.copy == uid.copy for u in state.sides[uid.seat].units):
            return evolve(state, hive=unit)
    side = state.sides[uid.seat]
    units = tuple(unit if (u.card, u.copy) == (uid.card, uid.copy) else u for u in side.units)
    return set_side(state, uid.seat, replace(side, units=units))


def set_figure(state: State, fid: FigureId, figure: Figure) -> State:
    unit = state.unit(fid.unit)
    assert unit is not None
    figures = list(unit.figures)
    figures[fid.number - 1] = figure
    return set_unit(state, fid.unit, replace(unit, figures=tuple(figures)))


def push(state: State, *steps: Step) -> State:
    return evolve(state, stack=state.stack + steps)


def pop(state: State) -> State:
    return evolve(state, stack=state.stack[:-1])


def replace_top(state: State, step: Step) -> State:
    return evolve(state, stack=(*state.stack[:-1], step))
