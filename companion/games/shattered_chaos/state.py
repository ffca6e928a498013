"""The position of a Shattered Chaos adventure as immutable values.

The companion does not track the map: where a model stands is the players' business, and what only the
map knows (who an enemy sees, how far, who is closest) is asked when a behaviour table needs it. It keeps
what the bookkeeping needs: each adventurer's ledgers, tokens and chaos cards; each enemy model's lives;
the graveyard, the chaos card stacks and the round; and the questions waiting for an answer, a stack of
*steps* (an attack being thrown, an enemy working through its behaviour table, a chaos card to draw).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.engine import evolver
from companion.games.shattered_chaos.campaign import CampaignLog
from companion.games.shattered_chaos.evaluation import Evaluation

ADVENTURERS = "adventurers"
ENEMIES = "enemies"
CHAOS = "chaos"
CAMPAIGN = "campaign"
OVER = "over"
PHASES = (ADVENTURERS, ENEMIES, CHAOS, CAMPAIGN, OVER)


@dataclass(frozen=True, slots=True)
class Condition:
    """A condition token under a model (X.4): full side up, or half side (turned in a chaos phase)."""

    kind: str
    half: bool = False


@dataclass(frozen=True, slots=True)
class Hero:
    """An adventurer at the table: the card, the clip on the life ledger, the chaos tokens on the chaos
    ledger, the action tokens still face up, the chaos cards on the card, the destruction token."""

    card: str
    life: int
    chaos: int
    actions: int
    talents: tuple[str, ...]
    cards: tuple[str, ...] = ()
    destruction: bool = False
    shadow: bool = False
    conditions: tuple[Condition, ...] = ()
    chaos_steps: int = 0
    """Chaos steps taken before the coming action (up to 4, V.F.1)."""
    stepped: bool = False
    """The talent's free step was taken before the coming action (Stalker, V.E)."""
    laid: tuple[str, ...] = ()
    """Chaos cards of ``cards`` laid on the discard pile at the table for the coming attack (V.G: discarded
    before the action they help): that attack uses them; anything else the adventurer does first makes
    them discards for chaos tokens (line 1571)."""


@dataclass(frozen=True, slots=True)
class Model:
    """An enemy model on the board, with its own lives (VI.A.6)."""

    enemy: str
    number: int
    elite: bool
    lives: int
    conditions: tuple[Condition, ...] = ()


@dataclass(frozen=True, slots=True)
class HeroAttack:
    """An adventurer's attack (V.B.4): declared, thrown, maybe thrown again with a chaos hit, resolved."""

    seat: int
    model: int
    distance: int
    cards: tuple[str, ...] = ()
    destruction: bool = False
    reaction: bool = False
    """A reaction in the enemy phase (V.C): no reaction follows it."""
    stage: str = "throw"
    """"throw", "chaos-hit" (again?), "rethrow" (the chosen dice), "resolve" (range die and vortices)."""
    faces: tuple[str, ...] = ()
    """The throw, yellow, red, blue."""
    rethrow: tuple[str, ...] = ()
    """The colours thrown again with the chaos hit."""


@dataclass(frozen=True, slots=True)
class Sighting:
    """What the table said about one adventurer since the enemy last moved: seen within ``yes`` spaces
    (0: not known), not seen within ``no`` spaces (0: not known)."""

    seat: int
    yes: int = 0
    no: int = 0

    def known(self, reach: int) -> bool | None:
        if self.yes and self.yes <= reach:
            return True
        if self.no >= reach:
            return False
        return None


@dataclass(frozen=True, slots=True)
class EnemyTurn:
    """An enemy working through a behaviour table (VI.C): as a reaction or in the enemy phase.

    ``row`` is -1 while the first actions of the rows are tried (``trying`` is the row being tried);
    once one can be performed, ``row`` is that row and ``column`` the next action in it. ``asking`` names
    the question the table must answer about the map for the action at hand; ``eligible`` is the answer
    (the adventurers the action can reach), kept until the action is decided."""

    model: int
    mode: str
    """"reaction" or "phase"."""
    row: int = -1
    trying: int = 0
    column: int = 0
    sightings: tuple[Sighting, ...] = ()
    asking: str = ""
    """"" (nothing to ask), "sight" (who it sees within range), "reach" (who it can charge), "closest",
    "tie" (equal highest chaos: the players choose), "nearest" (which of several is closest)."""
    candidates: tuple[int, ...] = ()
    """The adventurers the question is about."""
    eligible: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class EnemyAttack:
    """An enemy's attack or special attack on an adventurer (VI.B.1-2): armour cards, the throw, a shadow's
    damage passed on, the adventurer's reaction."""

    model: int
    seat: int
    dice: tuple[str, ...]
    special: str = ""
    reach: int = 1
    """The attack's range: the attacked adventurer stands this many spaces away or fewer."""
    reaction_allowed: bool = False
    stage: str = "armour"
    """"armour" (chaos cards for armour), "throw", "redirect" (a shadow's damage), "react"."""
    armour_cards: tuple[str, ...] = ()
    damage: int = 0
    stunned: bool = False


@dataclass(frozen=True, slots=True)
class Draw:
    """An adventurer draws a chaos card of their choice (a chaos call, its partner, the graveyard)."""

    seat: int
    reason: str
    """"chaos-call", "partner", "graveyard"."""


@dataclass(frozen=True, slots=True)
class NamePartner:
    """After a chaos call: another adventurer who may also draw a chaos card (V.B.3)."""

    seat: int


@dataclass(frozen=True, slots=True)
class GraveyardDraws:
    """The chaos phase's draws: one per killed enemy (a big one counts 3), clockwise from the starting
    player (VII.3.2); ``done`` of ``total`` taken."""

    total: int
    done: int = 0


@dataclass(frozen=True, slots=True)
class CampaignBox:
    """After the final evaluation: the chaos cards kept from the campaign box (IX.B)."""

    keep: int
    kept: int = 0


Step = HeroAttack | EnemyTurn | EnemyAttack | Draw | NamePartner | GraveyardDraws | CampaignBox


@dataclass(frozen=True, slots=True)
class Decision:
    """The enemy's latest decided action, for the TV in large type."""

    model: int
    text: str
    kind: str
    target: int | None = None
    instruction: str = ""
    """What the players do on the map for it ("move it next to Deadeye by the fewest steps")."""


@dataclass(frozen=True, slots=True)
class AttackReport:
    """The last attack thrown, for the TV: by an adventurer or by an enemy."""

    by_enemy: bool
    seat: int
    model: int
    faces: tuple[str, ...]
    text: str
    range_die: str = ""
    damage: int = 0
    vortices: int = 0
    stunned: bool = False
    critical: bool = False
    success: bool = True
    killed: bool = False


@dataclass(frozen=True)
class State:
    adventure: int
    names: tuple[str, ...]
    colours: tuple[str, ...]
    party: tuple[Hero, ...]
    """Seat order is clockwise: the starting player card and the graveyard draws go round it."""
    campaign: CampaignLog
    stacks: tuple[tuple[str, tuple[str, ...]], ...]
    """Each chaos card stack and the cards still in it."""
    narrator: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """Each narrator stack (A, B, C...) and its cards, the current card first."""
    round: int = 1
    phase: str = ADVENTURERS
    starting: int = 0
    models: tuple[Model, ...] = ()
    """The enemy models on the board, by number."""
    graveyard: tuple[tuple[str, int], ...] = ()
    """(enemy, model number) killed this round."""
    discard: tuple[str, ...] = ()
    map_chaos: int = 0
    """Chaos tokens known to lie on the map (killed enemies, fallen adventurers, the narrator's)."""
    steps: tuple[Step, ...] = ()
    enemy_after: int = 0
    """The enemy phase: the highest model number that has acted."""
    decision: Decision | None = None
    decisions: tuple[str, ...] = ()
    """This phase's decided enemy actions, oldest first (the TV lists the last few)."""
    last_attack: AttackReport | None = None
    revealed: tuple[str, ...] = ()
    """Adventure cards turned up by interactions this adventure (their numbers)."""
    outcome: str = ""
    """"", "won" or "lost"."""
    evaluation: Evaluation | None = None
    reason: str = ""

    @property
    def seats(self) -> int:
        return len(self.party)

    @property
    def top(self) -> Step | None:
        return self.steps[-1] if self.steps else None

    def model(self, number: int) -> Model | None:
        return next((m for m in self.models if m.number == number), None)

    def stack(self, name: str) -> tuple[str, ...]:
        return dict(self.stacks).get(name, ())

    def living(self) -> tuple[int, ...]:
        """Seats of the adventurers who are not shadows."""
        return tuple(seat for seat, hero in enumerate(self.party) if not hero.shadow)

    @property
    def finished(self) -> bool:
        return self.phase == OVER


evolve = evolver(State)


def set_hero(state: State, seat: int, hero: Hero) -> State:
    party = list(state.party)
    party[seat] = hero
    return evolve(state, party=tuple(party))


def set_model(state: State, model: Model) -> State:
    return evolve(state, models=tuple(model if m.number == model.number else m for m in state.models))


def push(state: State, *steps: Step) -> State:
    return evolve(state, steps=state.steps + steps)


def pop(state: State) -> State:
    return evolve(state, steps=state.steps[:-1])


def replace_top(state: State, step: Step) -> State:
    return evolve(state, steps=(*state.steps[:-1], step))
