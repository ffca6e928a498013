"""Every input the Chaos Marauders engine accepts, as frozen values with a ``kind`` (JSON by the codec).

Seats are ``player``/``target``; lines are 0 (top) to 2 (bottom); slots 0 (left) to 11 (right).
Dice results arrive as the shared :class:`~companion.engine.Roll` with die "cube" and faces
"eye" (Orcish Eye) or "mark" (Mark of Chaos).

Which prompt each answers (``Prompt.kind``):

- "draw": ``draw``, or ``place`` (the draw is implied);
- "place": ``place``, ``discard``; for a drawn Sneaky Git also ``pick`` (assassinate one's own Git);
- "attack": ``attack``, ``decline``;  "bilge": ``reorganise``, ``attack``, ``decline``;
- "stick" / "steal" / "take": ``pick``, ``decline``;  "blast": ``blast``, ``decline``;
- "roll": ``roll`` (several faces at once where several rolls are due: Dagromm, Odlugg's meal,
  booty under Odlugg's eye, the Idol's six);
- at any moment of the active player's turn: ``shout`` (others); and ``force_discard`` (a Sneaky
  Git's owner, while the victim's drawn card is fresh);
- at any moment, answering no prompt: ``correct_place`` / ``correct_remove``, hand corrections of
  the table from the control page (corrections.py; never listed as legal actions).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from companion.engine import Action, ActionCodec, PlayerId, Roll

CUBE = "cube"
EYE = "eye"
MARK = "mark"
FACES = (EYE, MARK)


@dataclass(frozen=True)
class Draw(Action):
    """The active player took ``card`` from the draw pile (the table's reader says which)."""

    kind: ClassVar[str] = "draw"
    player: PlayerId
    card: str


@dataclass(frozen=True)
class Place(Action):
    """``player`` places ``card`` on ``line``/``slot`` of ``target``'s lines (default: his own).

    Accepted for the pending card, or in place of a draw (the draw is implied). ``slot`` None: the only
    open slot of that line; with several, the card stays pending and the prompt asks for the slot.
    """

    kind: ClassVar[str] = "place"
    player: PlayerId
    card: str
    line: int
    slot: int | None = None
    target: PlayerId | None = None


@dataclass(frozen=True)
class Discard(Action):
    """``player`` discards a pending card (``card`` None: the only / first one)."""

    kind: ClassVar[str] = "discard"
    player: PlayerId
    card: str | None = None


@dataclass(frozen=True)
class Attack(Action):
    """``player``'s line ``line`` attacks ``target``'s line ``target_line``."""

    kind: ClassVar[str] = "attack"
    player: PlayerId
    line: int
    target: PlayerId
    target_line: int


@dataclass(frozen=True)
class Decline(Action):
    """``player`` declines the offer in front of him (an attack, a Pigsticker, Creeps, Blowback, Bilge)."""

    kind: ClassVar[str] = "decline"
    player: PlayerId


@dataclass(frozen=True)
class Pick(Action):
    """``player`` picks the card at ``target``'s ``line``/``slot`` for the ability in front of him:
    a Bozlum Pigsticker's victim, a card for Venemous Creeps to steal, a card taken from a false shouter,
    or (his own line) a Sneaky Git to assassinate."""

    kind: ClassVar[str] = "pick"
    player: PlayerId
    target: PlayerId
    line: int
    slot: int


@dataclass(frozen=True)
class Blast(Action):
    """``player`` aims Skyrr's Blowback at ``target``'s line ``line``."""

    kind: ClassVar[str] = "blast"
    player: PlayerId
    target: PlayerId
    line: int


@dataclass(frozen=True)
class Reorganise(Action):
    """Bilge Guttrot's reorganisation: ``player``'s whole new layout, three lines of twelve slots."""

    kind: ClassVar[str] = "reorganise"
    player: PlayerId
    lines: tuple[tuple[str | None, ...], ...]


@dataclass(frozen=True)
class Shout(Action):
    """A player (not the active one) shouts "Chaos Marauders!"."""

    kind: ClassVar[str] = "shout"
    player: PlayerId


@dataclass(frozen=True)
class ForceDiscard(Action):
    """A Sneaky Git's owner uses the Git at the victim's ``line``/``slot`` to discard the card the
    victim has just drawn."""

    kind: ClassVar[str] = "force_discard"
    player: PlayerId
    line: int
    slot: int


@dataclass(frozen=True)
class MakeRoom(Action):
    """``player`` discards his own card at ``line``/``slot`` to make room for a war machine card his
    crew brings, when no open slot takes it (card reference p.15; see ``make_room``)."""

    kind: ClassVar[str] = "make_room"
    player: PlayerId
    line: int
    slot: int


@dataclass(frozen=True)
class CorrectPlace(Action):
    """A hand correction: ``card`` taken from the draw pile or the discard pile (``source``) is put on
    ``player``'s ``line``/``slot``. ``owner``: the seat owning it, for a Sneaky Git only."""

    kind: ClassVar[str] = "correct_place"
    player: PlayerId
    card: str
    line: int
    slot: int
    source: Literal["pile", "discard"] = "pile"
    owner: PlayerId | None = None


@dataclass(frozen=True)
class CorrectRemove(Action):
    """A hand correction: the card on ``player``'s ``line``/``slot`` goes to the discard pile."""

    kind: ClassVar[str] = "correct_remove"
    player: PlayerId
    line: int
    slot: int


CORRECTIONS = (CorrectPlace, CorrectRemove)
"""Hand corrections: allowed at any moment, never offered by a prompt or ``legal_actions``."""

CODEC = ActionCodec(
    Draw,
    Place,
    Discard,
    Attack,
    Decline,
    Pick,
    Blast,
    Reorganise,
    Shout,
    ForceDiscard,
    MakeRoom,
    Roll,
    CorrectPlace,
    CorrectRemove,
)

__all__ = [
    "CODEC",
    "CORRECTIONS",
    "CUBE",
    "EYE",
    "FACES",
    "MARK",
    "Attack",
    "Blast",
    "CorrectPlace",
    "CorrectRemove",
    "Decline",
    "Discard",
    "Draw",
    "ForceDiscard",
    "MakeRoom",
    "Pick",
    "Place",
    "Reorganise",
    "Roll",
    "Shout",
]
