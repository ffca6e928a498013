"""Everything a HeroScape table can tell the engine, as JSON-able actions (``kind`` names them).

Figures and army cards in play are named by ``companion.games.heroscape.ids`` (``"1:marro-stingers#2/3"``).
What only the map knows is declared: an attack's height advantage and ``conditions`` (the declarable
conditions are listed in the view), a fall's drop in levels, a figure stopping on a glyph.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from companion.engine import Action, ActionCodec, PlayerId, Roll

COMBAT = "combat"
D20 = "d20"
COMBAT_FACES = ("skull", "shield", "blank")
D20_FACES = tuple(str(n) for n in range(1, 21))

Height = Literal["none", "attacker", "attacker-major", "defender", "defender-major"]


@dataclass(frozen=True)
class AddCard(Action):
    """An army card joins ``player``'s army (laid on the army reader, or picked on the phone)."""

    kind: ClassVar[str] = "add_card"
    player: PlayerId
    card: str


@dataclass(frozen=True)
class RemoveCard(Action):
    """An army card leaves a premade army still being gathered."""

    kind: ClassVar[str] = "remove_card"
    player: PlayerId
    unit: str


@dataclass(frozen=True)
class ArmyReady(Action):
    """The army is complete: a premade army is gathered, or a drafting player passes."""

    kind: ClassVar[str] = "army_ready"
    player: PlayerId


@dataclass(frozen=True)
class PlaceMarkers(Action):
    """Order markers 1, 2, 3 and X on army cards (units), placed face down: secret."""

    kind: ClassVar[str] = "place_markers"
    player: PlayerId
    markers: tuple[str, str, str, str]


@dataclass(frozen=True)
class Attack(Action):
    """``attacker`` attacks ``defender``: normally, or with the special attack ``special`` (a power id)."""

    kind: ClassVar[str] = "attack"
    player: PlayerId
    attacker: str
    defender: str
    special: str | None = None
    height: Height = "none"
    conditions: tuple[str, ...] = ()
    """Declared facts of the map that powers need: "adjacent", "aura", "swamp-water-attacker",
    "swamp-water-defender" (listed with labels in the view)."""


@dataclass(frozen=True)
class Moved(Action):
    """The turn's figures have moved: after-move powers and attacks from now on."""

    kind: ClassVar[str] = "moved"
    player: PlayerId


@dataclass(frozen=True)
class UsePower(Action):
    """An activated special power (a d20 power), aimed at ``target`` where it needs one."""

    kind: ClassVar[str] = "power"
    player: PlayerId
    power: str
    unit: str
    target: str | None = None


@dataclass(frozen=True)
class LeavingEngagement(Action):
    """``attacker`` (an engaged opponent's figure) attacks ``defender`` as it leaves the engagement;
    ``player`` owns the attacker and rolls the one die."""

    kind: ClassVar[str] = "leaving_engagement"
    player: PlayerId
    attacker: str
    defender: str


@dataclass(frozen=True)
class Fall(Action):
    """``figure`` moved down ``levels`` levels (not onto water): the engine says what to roll."""

    kind: ClassVar[str] = "fall"
    player: PlayerId
    figure: str
    levels: int


@dataclass(frozen=True)
class StopOnGlyph(Action):
    """``figure`` stopped on the glyph ``glyph`` (turned power-side up if it lay symbol-side up)."""

    kind: ClassVar[str] = "glyph"
    player: PlayerId
    figure: str
    glyph: str


@dataclass(frozen=True)
class LeaveGlyph(Action):
    """The figure on the permanent glyph ``glyph`` moved off it."""

    kind: ClassVar[str] = "leave_glyph"
    player: PlayerId
    glyph: str
    conditions: tuple[str, ...] = ()
    """"friend-adjacent": a friendly figure is adjacent (the only way off the Glyph of Proftaka)."""


@dataclass(frozen=True)
class Dispute(Action):
    """``player`` asks ``opponent`` for a d20 roll-off the rulebook calls for: a Line of Sight dispute
    ("line-of-sight") or who uses Simultaneous Special Powers first ("simultaneous-powers")."""

    kind: ClassVar[str] = "dispute"
    player: PlayerId
    opponent: PlayerId
    about: Literal["line-of-sight", "simultaneous-powers"]


@dataclass(frozen=True)
class Choose(Action):
    """The answer to a question the engine asked (``option`` is one of the prompt's choices)."""

    kind: ClassVar[str] = "choose"
    player: PlayerId
    option: str


@dataclass(frozen=True)
class Declare(Action):
    """What only the map knows, for a scenario: ``fact`` with the figures it concerns."""

    kind: ClassVar[str] = "declare"
    player: PlayerId
    fact: Literal["exited", "zone", "water", "flooded", "siren", "siren-adjacent", "none"]
    figures: tuple[str, ...] = ()


@dataclass(frozen=True)
class Decline(Action):
    kind: ClassVar[str] = "decline"
    player: PlayerId


@dataclass(frozen=True)
class EndTurn(Action):
    kind: ClassVar[str] = "end_turn"
    player: PlayerId


@dataclass(frozen=True)
class ChooseCard(Action):
    """The Basic Game: the army card ``player`` takes this turn with."""

    kind: ClassVar[str] = "choose_card"
    player: PlayerId
    unit: str


@dataclass(frozen=True)
class LoseMarker(Action):
    """The Glyph of Ored took one of ``player``'s order markers: which one (secret, from their phone)."""

    kind: ClassVar[str] = "lose_marker"
    player: PlayerId
    marker: Literal["1", "2", "3", "X"]


@dataclass(frozen=True)
class CorrectWounds(Action):
    """A hand correction: ``figure`` has ``wounds`` wound markers (answers no prompt)."""

    kind: ClassVar[str] = "correct_wounds"
    player: PlayerId
    figure: str
    wounds: int


@dataclass(frozen=True)
class CorrectStatus(Action):
    """A hand correction: ``figure`` is on the battlefield, destroyed, or out of play (answers no prompt)."""

    kind: ClassVar[str] = "correct_status"
    player: PlayerId
    figure: str
    status: Literal["alive", "destroyed", "exited"]


CORRECTIONS = (CorrectWounds, CorrectStatus)
CODEC = ActionCodec(
    AddCard,
    RemoveCard,
    ArmyReady,
    PlaceMarkers,
    Roll,
    Attack,
    Moved,
    UsePower,
    LeavingEngagement,
    Fall,
    StopOnGlyph,
    LeaveGlyph,
    Dispute,
    Choose,
    Declare,
    Decline,
    EndTurn,
    ChooseCard,
    LoseMarker,
    CorrectWounds,
    CorrectStatus,
)
