"""The position of an ORCWARS TOO! game as immutable values.

Every chip lies in exactly one place: the tribe cup, a chief's hand (secret), a leader's army on the board,
a garrison (troops left behind, or neutral troops), a captive held by a chief, a battle's stupid trolls
waiting to rejoin; gold chips in the gold pile, a hand, an army's or a leader's purse, or a caravan's
treasury; caravan chips in the gold pile, a hand (unplaced) or on the board. The map itself is the players':
the companion keeps who holds what where, what each leader did this player turn, and the questions it waits
on (a stack of steps, and at most one battle).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from companion.engine import evolver

NEUTRAL = -1
"""The owner of neutral troops (rebels, abandoned or regenerated troops): nobody's."""

SETUP = "setup"
ROLLOFF = "rolloff"
TURN = "turn"
OVER = "over"

# The turn's steps (rulebook "Turn sequence").
MOVE_CARAVANS = "A"
PLACE_CARAVANS = "B1"
REINFORCE = "B2"
CAMPAIGN = "B3"
RAMPAGE = "B4"
DISCARD = "B5"
TRADING = "C"
STEP_NAMES = {
    MOVE_CARAVANS: "Move caravans",
    PLACE_CARAVANS: "Place and move new caravans",
    REINFORCE: "Draw reinforcements",
    CAMPAIGN: "Move, levy, use spies and fight",
    RAMPAGE: "Rampage and mine gold",
    DISCARD: "Discard",
    TRADING: "Trading",
}


@dataclass(frozen=True, slots=True)
class Hand:
    counters: tuple[str, ...] = ()
    """Chips in the hand (units, shamans, spies): secret but for their number."""
    gold: int = 0
    caravans: tuple[str, ...] = ()
    """Caravan chips drawn and not yet placed (placed at the chief's next B1)."""
    captives: tuple[str, ...] = ()
    """Enemy leaders captured, kept apart until traded or executed at the end of the trading phase."""


@dataclass(frozen=True, slots=True)
class Army:
    """A leader on the board with the units under him (an army, or a lonely chief without units)."""

    leader: str
    owner: int
    territory: str
    """"" while lost in the dark underground."""
    units: tuple[str, ...] = ()
    """Troops and war machines (the leader apart)."""
    shaman: str | None = None
    gold: int = 0
    moved: bool = False
    attacked: bool = False
    levied: bool = False
    """He levied units this player turn (once per turn)."""
    arrived: bool = False
    """The leader himself was levied onto the board this player turn (he levies only at home)."""
    rampaged: bool = False
    struck: tuple[str, ...] = ()
    """Caravans this army attacked this player turn (each once)."""
    retreated: bool = False
    """Retreated after a battle this player turn: no caravan attack."""


@dataclass(frozen=True, slots=True)
class Garrison:
    """Troops on the board without a leader: left behind by their chief, or neutral (``NEUTRAL``)."""

    territory: str
    owner: int
    units: tuple[str, ...]
    shaman: str | None = None


@dataclass(frozen=True, slots=True)
class Land:
    """What lies on a territory besides the counters: who controls it, a fortress, a mine."""

    territory: str
    controller: int | None = None
    fortress: int = 0
    """The fortress's rating; 0: none."""
    mine: bool = False


@dataclass(frozen=True, slots=True)
class Caravan:
    """A caravan on the board: where on its route, and its power and treasury once first attacked."""

    chip: str
    step: int
    power: int | None = None
    treasury: int = 0


@dataclass(frozen=True, slots=True)
class Step:
    """A question the engine waits on outside battles: a roll, a choice, chips drawn.

    ``purpose`` names the rule; the other fields are that rule's subject. The handlers live with the rule
    (economy, moves, turns); prompts read the same fields.
    """

    purpose: str
    seat: int
    leader: str = ""
    territory: str = ""
    subject: str = ""
    count: int = 0
    target: int = 0
    """The number a roll must not exceed (checks), or another count the rule needs."""
    options: tuple[str, ...] = ()
    rolls: tuple[int, ...] = ()
    data: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Fighter:
    """One side of a battle and what happened to it, filled in step by step (combat parts 1 to 3)."""

    owner: int
    """A seat, or NEUTRAL for neutral troops, rebels and caravans."""
    kind: str
    """"army" (led), "garrison" (a chief's troops without leader), "neutral", "rebels" or "caravan"."""
    leaders: tuple[str, ...] = ()
    """The leaders fighting, the commander (highest authority) first."""
    units: tuple[str, ...] = ()
    shamans: tuple[str, ...] = ()
    blessed: tuple[str, ...] = ()
    """Leaders with a shaman when the battle began (+1 to their survivability)."""
    caravan: str = ""
    caravan_power: int = 0
    proposed: str = ""
    """The strategy chosen on the phone ("charge", "careful", "clever", "flee"): secret until revealed."""
    authority_roll: int = 0
    biggest: str = ""
    """The race the owner chose to count as the biggest unit when the biggest units tie."""
    strategy_roll: int = 0
    real: str = ""
    stupidity: tuple[tuple[str, int], ...] = ()
    """(troll, d6) for each troll rolled for so far."""
    surrender_roll: int = 0
    assigned: tuple[tuple[str, int], ...] | None = None
    survivor: str = ""
    survival_roll: int = 0
    fates: tuple[tuple[str, int], ...] = ()
    """(destroyed leader, survivability roll)."""
    regeneration: tuple[tuple[str, int], ...] = ()
    """(destroyed troll, d6)."""

    @property
    def led(self) -> bool:
        return bool(self.leaders)


@dataclass(frozen=True, slots=True)
class Battle:
    territory: str
    attacker: Fighter
    defender: Fighter
    origin: str = "attack"
    """"attack" (on a leader's orders), "enter" (entering a territory with enemies), "surprise" (up from the
    caves into a fortress), "rebels" (units that would not be levied or claimed), "caravan"."""
    fortress: int = 0
    """The rating of the fortress the defender fights from; 0: the field table."""
    war_machine: int = 0
    """The power of the attacker's one war machine that negates the fortress."""
    revealed: bool = False
    loser: str = ""
    """"attacker", "defender" or "none" once settled; "" before."""
    retreat_rolls: tuple[int, ...] = ()
    """The caves' d20 when the losers retreat from a fortress."""
    retreat_to: str | None = None
    """Where the losers retreat to; "" when no free territory borders (they are destroyed)."""
    escapes: tuple[tuple[str, str], ...] = ()
    """(leader, territory) for leaders of the winning side who escaped and must retreat alone."""
    troll_check: int = 0
    """The winner's authority roll for the trolls up for grabs (0: not rolled)."""
    mover: str = ""
    """The leader whose move started the battle (his next entry check follows it)."""

    def side(self, name: str) -> Fighter:
        return self.attacker if name == "attacker" else self.defender


@dataclass(frozen=True, slots=True)
class PlayerTurn:
    """What the player whose B steps these are has done of them."""

    seat: int
    step: str
    free_left: int = 0
    bought: int = 0
    redraws: int = 0
    drawn: bool = False
    """He drew at least one reinforcement this turn (no redraw after that)."""
    held_at_start: tuple[str, ...] = ()
    """Territories where he had a unit when his B steps began (mines need a unit there all turn)."""
    mines_worked: tuple[str, ...] = ()
    """Mines destroyed or already producing this turn."""


@dataclass(frozen=True, slots=True)
class SetupSeat:
    stage: str = "bosses"
    """"bosses", "draw", "trade", "ready"."""


@dataclass(frozen=True, slots=True)
class RollOff:
    """Who goes first: "start" (the random player of the first turn) or "order" (tied authority)."""

    purpose: str
    contenders: tuple[int, ...]
    rolls: tuple[tuple[int, int], ...] = ()

    @property
    def waiting(self) -> tuple[int, ...]:
        rolled = {seat for seat, _ in self.rolls}
        return tuple(s for s in self.contenders if s not in rolled)


@dataclass(frozen=True, slots=True)
class OpenLevy:
    """A levy under way: at the table its chips are laid beside the leader one at a time, and each joins
    the same levy (one authority check for all of them) until the chief does anything else or the check
    is rolled."""

    leader: str
    units: tuple[str, ...]
    """The units levied so far (neutral troops included; a shaman is no unit)."""
    before: int
    """The army's power before the levy (the kobolds' and goblins' modifier of its check)."""


@dataclass(frozen=True, slots=True)
class Offer:
    """A trade offered in the trading phase, waiting for the partner's answer."""

    seat: int
    partner: int
    give: tuple[str, ...]
    give_gold: int
    take: tuple[str, ...]
    take_gold: int


@dataclass(frozen=True)
class State:
    names: tuple[str, ...]
    colours: tuple[str, ...]
    turn_limit: int = 0
    phase: str = SETUP
    turn: int = 0
    step: str = ""
    order: tuple[int, ...] = ()
    """This turn's player order (B steps)."""
    current: PlayerTurn | None = None
    setups: tuple[SetupSeat, ...] = ()
    cup: tuple[str, ...] = ()
    gold_pile: int = 0
    caravan_pile: tuple[str, ...] = ()
    hands: tuple[Hand, ...] = ()
    armies: tuple[Army, ...] = ()
    garrisons: tuple[Garrison, ...] = ()
    lands: tuple[Land, ...] = ()
    caravans: tuple[Caravan, ...] = ()
    stack: tuple[Step, ...] = ()
    battle: Battle | None = None
    last_battle: Battle | None = None
    last_damage: tuple[tuple[str, Any], ...] = ()
    """The last battle's step 2.2 working (the TV's show), as (key, value) pairs."""
    rolloff: RollOff | None = None
    offer: Offer | None = None
    levy: OpenLevy | None = None
    """The levy under way, which more chips of the hand may still join."""
    traded: tuple[int, ...] = ()
    """Seats done trading this turn."""
    announced: tuple[tuple[int, tuple[str, ...]], ...] = ()
    """(seat, conditions met) announced at the start of this turn."""
    finished: bool = False
    winners: tuple[int, ...] = ()
    reason: str = ""

    @property
    def seats(self) -> int:
        return len(self.names)

    @property
    def top(self) -> Step | None:
        return self.stack[-1] if self.stack else None

    # ---------------------------------------------------------------------------------- lookups

    def army(self, leader: str) -> Army | None:
        return next((a for a in self.armies if a.leader == leader), None)

    def armies_of(self, seat: int) -> tuple[Army, ...]:
        return tuple(a for a in self.armies if a.owner == seat)

    def armies_in(self, territory: str) -> tuple[Army, ...]:
        return tuple(a for a in self.armies if a.territory == territory)

    def garrisons_in(self, territory: str) -> tuple[Garrison, ...]:
        return tuple(g for g in self.garrisons if g.territory == territory)

    def garrison(self, territory: str, owner: int) -> Garrison | None:
        return next((g for g in self.garrisons if g.territory == territory and g.owner == owner), None)

    def land(self, territory: str) -> Land:
        return next((land for land in self.lands if land.territory == territory), Land(territory))

    def caravan(self, chip: str) -> Caravan | None:
        return next((c for c in self.caravans if c.chip == chip), None)


evolve = evolver(State)


def set_hand(state: State, seat: int, hand: Hand) -> State:
    hands = list(state.hands)
    hands[seat] = hand
    return evolve(state, hands=tuple(hands))


def set_army(state: State, army: Army) -> State:
    return evolve(state, armies=tuple(army if a.leader == army.leader else a for a in state.armies))


def drop_army(state: State, leader: str) -> State:
    return evolve(state, armies=tuple(a for a in state.armies if a.leader != leader))


def set_land(state: State, land: Land) -> State:
    others = tuple(x for x in state.lands if x.territory != land.territory)
    empty = land.controller is None and not land.fortress and not land.mine
    return replace(
        state, lands=others if empty else tuple(sorted((*others, land), key=lambda x: x.territory))
    )


def set_garrison(
    state: State, territory: str, owner: int, units: tuple[str, ...], shaman: str | None
) -> State:
    """The state with ``owner``'s garrison in ``territory`` holding ``units`` (none: the garrison is gone)."""
    others = tuple(g for g in state.garrisons if not (g.territory == territory and g.owner == owner))
    if not units:
        return evolve(state, garrisons=others)
    garrison = Garrison(territory, owner, tuple(sorted(units)), shaman)
    return evolve(state, garrisons=(*others, garrison))


def set_caravan(state: State, caravan: Caravan) -> State:
    return evolve(state, caravans=tuple(caravan if c.chip == caravan.chip else c for c in state.caravans))


def push(state: State, *steps: Step) -> State:
    return evolve(state, stack=state.stack + steps)


def pop(state: State) -> State:
    return evolve(state, stack=state.stack[:-1])
