"""Everything a Shattered Chaos table can tell the engine, as JSON-able actions (``kind`` names them).

``player`` is an adventurer's seat. Enemy models are named by their model number (which also says which
enemy card it belongs to and whether it is the elite version). What only the map knows is an answer to the
engine's question (``sighted``, ``closest``), never a guess of the engine's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from companion.engine import Action, ActionCodec, PlayerId, Roll

ATTACK_DIE = "sc-attack"
"""The name of an attack's throw (``Roll.die``): a mixed throw of the coloured dice (``die_of``), each face
naming its colour (data/dice.toml)."""


def die_of(colour: str) -> str:
    """The die id of a colour's attack die, as the table's dice data names it (``"sc-blue"``)."""
    return f"sc-{colour}"


# ------------------------------------------------------------------------------ adventurer phase


@dataclass(frozen=True)
class Move(Action):
    """A move of up to 4 steps (V.B.1), one action token."""

    kind: ClassVar[str] = "move"
    player: PlayerId


@dataclass(frozen=True)
class Interact(Action):
    """An interaction (V.B.2), one action token; ``card`` is the number on the adventure token's back."""

    kind: ClassVar[str] = "interact"
    player: PlayerId
    card: str = ""


@dataclass(frozen=True)
class ChaosCall(Action):
    """A chaos call (V.B.3), one action token: a chaos token, a chaos card, and a companion's chaos card."""

    kind: ClassVar[str] = "chaos_call"
    player: PlayerId


@dataclass(frozen=True)
class Attack(Action):
    """An attack on the enemy model ``model`` standing ``distance`` spaces away (V.B.4), with the chaos cards
    ``cards`` discarded before it and the destruction token if ``destruction``; in the enemy phase, the
    attacked adventurer's reaction (V.C)."""

    kind: ClassVar[str] = "attack"
    player: PlayerId
    model: int
    distance: int
    cards: tuple[str, ...] = ()
    destruction: bool = False


@dataclass(frozen=True)
class ChaosStep(Action):
    """The chaos step skill (V.F.1): ``steps`` steps before an action, one chaos token each."""

    kind: ClassVar[str] = "chaos_step"
    player: PlayerId
    steps: int


@dataclass(frozen=True)
class TalentStep(Action):
    """A talent's free step before an action (Stalker, V.E)."""

    kind: ClassVar[str] = "talent_step"
    player: PlayerId


@dataclass(frozen=True)
class StepCard(Action):
    """A chaos card with steps discarded before an action (V.G)."""

    kind: ClassVar[str] = "step_card"
    player: PlayerId
    card: str


@dataclass(frozen=True)
class PickUp(Action):
    """Chaos tokens picked up from a space the adventurer stands on or moves across (V.B.1)."""

    kind: ClassVar[str] = "pick_up"
    player: PlayerId
    tokens: int


@dataclass(frozen=True)
class DiscardCard(Action):
    """A chaos card discarded unused, for a chaos token (V.G, line 1571)."""

    kind: ClassVar[str] = "discard_card"
    player: PlayerId
    card: str


@dataclass(frozen=True)
class LayCard(Action):
    """A chaos card for an attack taken off the adventurer card and laid on the discard pile before the
    attack is declared (V.G, line 1563): the coming attack uses it (the table's reading of the pile)."""

    kind: ClassVar[str] = "lay_card"
    player: PlayerId
    card: str


@dataclass(frozen=True)
class Destroy(Action):
    """The destroy skill (X.5): a destruction token for 2 chaos tokens."""

    kind: ClassVar[str] = "destroy"
    player: PlayerId


# ------------------------------------------------------------------------------ answers


@dataclass(frozen=True)
class ChaosHit(Action):
    """The chaos hit skill (V.F.2): the colours to throw again (none: keep the throw)."""

    kind: ClassVar[str] = "chaos_hit"
    player: PlayerId
    dice: tuple[str, ...] = ()


@dataclass(frozen=True)
class Resolve(Action):
    """The attack's die for range (``range_die``, a colour) and its vortices after chosen adjustments."""

    kind: ClassVar[str] = "resolve"
    player: PlayerId
    range_die: str
    vortices: int


@dataclass(frozen=True)
class DrawCard(Action):
    """The chaos card ``card`` drawn (from the stack the adventurer chose)."""

    kind: ClassVar[str] = "draw_card"
    player: PlayerId
    card: str


@dataclass(frozen=True)
class DeclineDraw(Action):
    kind: ClassVar[str] = "decline_draw"
    player: PlayerId


@dataclass(frozen=True)
class Partner(Action):
    """After a chaos call: the adventurer who may also draw a chaos card (None: nobody)."""

    kind: ClassVar[str] = "partner"
    player: PlayerId
    partner: int | None = None


@dataclass(frozen=True)
class ArmourCards(Action):
    """Chaos cards with armour discarded before an enemy's throw against ``player`` (none: keep them)."""

    kind: ClassVar[str] = "armour_cards"
    player: PlayerId
    cards: tuple[str, ...] = ()


@dataclass(frozen=True)
class DeclineReaction(Action):
    kind: ClassVar[str] = "decline_reaction"
    player: PlayerId


@dataclass(frozen=True)
class Sighted(Action):
    """The map's answer about enemy ``model``: the adventurers (seats) that fit the engine's question
    (seen within its range, or reachable by its charge)."""

    kind: ClassVar[str] = "sighted"
    model: int
    adventurers: tuple[int, ...] = ()


@dataclass(frozen=True)
class Closest(Action):
    """The map's answer: ``adventurer`` is the closest to ``model`` by steps (of several as close, the
    table's choice, VI.B)."""

    kind: ClassVar[str] = "closest"
    model: int
    adventurer: int


@dataclass(frozen=True)
class Target(Action):
    """The table's choice between adventurers of equal highest chaos (VI.B)."""

    kind: ClassVar[str] = "target"
    model: int
    adventurer: int


@dataclass(frozen=True)
class Redirect(Action):
    """The adventurer who suffers a shadow's damage (V.A.8)."""

    kind: ClassVar[str] = "redirect"
    adventurer: int


# ------------------------------------------------------------------------------ the narrator and corrections


@dataclass(frozen=True)
class PlaceEnemy(Action):
    """The enemy model ``model`` is placed on the board (its number says which enemy, which version)."""

    kind: ClassVar[str] = "place_enemy"
    model: int


@dataclass(frozen=True)
class RemoveEnemy(Action):
    """A narrator card takes the model off the board (not killed: no graveyard, no chaos token)."""

    kind: ClassVar[str] = "remove_enemy"
    model: int


@dataclass(frozen=True)
class SetLives(Action):
    """Correction: the model's lives (below 1: killed in a different way, IV.3 line 279)."""

    kind: ClassVar[str] = "set_lives"
    model: int
    lives: int


@dataclass(frozen=True)
class SetLife(Action):
    """Correction: the adventurer's life ledger."""

    kind: ClassVar[str] = "set_life"
    player: PlayerId
    life: int


@dataclass(frozen=True)
class SetChaos(Action):
    """Correction: the chaos tokens on the adventurer's chaos ledger."""

    kind: ClassVar[str] = "set_chaos"
    player: PlayerId
    tokens: int


@dataclass(frozen=True)
class PlaceChaos(Action):
    """A narrator card places chaos tokens on the map."""

    kind: ClassVar[str] = "place_chaos"
    tokens: int


@dataclass(frozen=True)
class PlaceCondition(Action):
    """A narrator card places a condition token under an enemy model or an adventurer."""

    kind: ClassVar[str] = "place_condition"
    condition: str
    model: int | None = None
    adventurer: int | None = None


@dataclass(frozen=True)
class ReadNarrator(Action):
    """The current narrator card of a stack has been read and completed: it goes to the discard pile."""

    kind: ClassVar[str] = "read_narrator"
    card: str


@dataclass(frozen=True)
class MoveNarrator(Action):
    """A narrator card goes on top of another stack (IV.1)."""

    kind: ClassVar[str] = "move_narrator"
    card: str
    stack: str


@dataclass(frozen=True)
class EndAdventure(Action):
    """The narrator cards say the adventure is won, or the party gives up on it (IX.C)."""

    kind: ClassVar[str] = "end_adventure"
    outcome: Literal["won", "lost"]


# ------------------------------------------------------------------------------ the campaign box


@dataclass(frozen=True)
class KeepCard(Action):
    """A silver or gold chaos card kept from the campaign box (IX.B)."""

    kind: ClassVar[str] = "keep_card"
    card: str


@dataclass(frozen=True)
class GainTalent(Action):
    """An adventurer gains a talent in the campaign."""

    kind: ClassVar[str] = "gain_talent"
    player: PlayerId
    talent: str


@dataclass(frozen=True)
class CloseCampaign(Action):
    """The campaign box is put away: the adventure is over."""

    kind: ClassVar[str] = "close_campaign"


CODEC = ActionCodec(
    Move,
    Interact,
    ChaosCall,
    Attack,
    ChaosStep,
    TalentStep,
    StepCard,
    PickUp,
    DiscardCard,
    LayCard,
    Destroy,
    ChaosHit,
    Resolve,
    DrawCard,
    DeclineDraw,
    Partner,
    ArmourCards,
    DeclineReaction,
    Sighted,
    Closest,
    Target,
    Redirect,
    PlaceEnemy,
    RemoveEnemy,
    SetLives,
    SetLife,
    SetChaos,
    PlaceChaos,
    PlaceCondition,
    ReadNarrator,
    MoveNarrator,
    EndAdventure,
    KeepCard,
    GainTalent,
    CloseCampaign,
    Roll,
)

ADVENTURER_ACTIONS = (Move, Interact, ChaosCall, Attack)
"""The actions that turn an action token over (V.B)."""
