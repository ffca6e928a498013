"""Everything an ORCWARS TOO! table can tell the engine, as JSON-able actions (``kind`` names them).

Chips are named by their counter ids (``red-orcs#2``), leaders by theirs (``thar``), territories by the
board's ids. Draws name the chips drawn: the companion never draws, the players do. Rolls are the shared
:class:`companion.engine.Roll`. Draws, discards, the gold trade of the setup, trade offers and the secret
strategy are secret: only their kind and player are public while the game runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from companion.engine import Action, ActionCodec, PlayerId, Roll

GOLD = "gold"
"""A plain gold chip drawn (a caravan chip is named by its id)."""

Strategy = Literal["charge", "careful", "clever", "flee"]


@dataclass(frozen=True)
class TakeBosses(Action):
    """Setup: the leaders (1 or 2, as the player prefers) a player starts with."""

    kind: ClassVar[str] = "take_bosses"
    player: PlayerId
    leaders: tuple[str, ...]


@dataclass(frozen=True)
class Draw(Action):
    """Chips drawn from the tribe cup into the player's hand (secret)."""

    kind: ClassVar[str] = "draw"
    player: PlayerId
    counters: tuple[str, ...]


@dataclass(frozen=True)
class TradeForGold(Action):
    """Setup: chips of the hand traded back into the tribe cup for gold, one for one (secret)."""

    kind: ClassVar[str] = "trade_for_gold"
    player: PlayerId
    counters: tuple[str, ...]


@dataclass(frozen=True)
class DrawGold(Action):
    """One chip drawn from the gold pile: ``"gold"`` or a caravan chip's id."""

    kind: ClassVar[str] = "draw_gold"
    player: PlayerId
    chip: str


@dataclass(frozen=True)
class Done(Action):
    """The player is done with this part (setup, reinforcements, his campaign, rampage, trading)."""

    kind: ClassVar[str] = "done"
    player: PlayerId


@dataclass(frozen=True)
class Redraw(Action):
    """B2, no leader in play or in hand: the hand shown and discarded, six new units to be drawn."""

    kind: ClassVar[str] = "redraw"
    player: PlayerId


@dataclass(frozen=True)
class Buy(Action):
    """B2: one more unit for 2 gold (at most two a turn)."""

    kind: ClassVar[str] = "buy"
    player: PlayerId


@dataclass(frozen=True)
class Levy(Action):
    """``leader`` levies chips of the hand (with the leader himself when he is in the hand) and, with
    ``neutrals``, every neutral troop standing in his territory."""

    kind: ClassVar[str] = "levy"
    player: PlayerId
    leader: str
    counters: tuple[str, ...] = ()
    neutrals: bool = False


@dataclass(frozen=True)
class Move(Action):
    """``leader`` and his army move to ``to``; a lonely leader may go ``via`` a territory on the way."""

    kind: ClassVar[str] = "move"
    player: PlayerId
    leader: str
    to: str
    via: str = ""


@dataclass(frozen=True)
class Underground(Action):
    """``leader``'s army goes into the caves from a friendly territory with a mine or fortress."""

    kind: ClassVar[str] = "underground"
    player: PlayerId
    leader: str


@dataclass(frozen=True)
class LeaveBehind(Action):
    """``leader`` leaves ``units`` in his friendly territory (a shaman never leaves his leader)."""

    kind: ClassVar[str] = "leave_behind"
    player: PlayerId
    leader: str
    units: tuple[str, ...]


@dataclass(frozen=True)
class Claim(Action):
    """``leader`` takes the troops his chief left behind in his territory into his army."""

    kind: ClassVar[str] = "claim"
    player: PlayerId
    leader: str


@dataclass(frozen=True)
class Attack(Action):
    """``leader``'s army attacks in its territory: a chief (``"seat:2"``), the neutral troops
    (``"neutral"``) or a caravan (its chip id)."""

    kind: ClassVar[str] = "attack"
    player: PlayerId
    leader: str
    target: str


@dataclass(frozen=True)
class BuildFortress(Action):
    kind: ClassVar[str] = "build_fortress"
    player: PlayerId
    leader: str
    rating: int


@dataclass(frozen=True)
class BuildMine(Action):
    kind: ClassVar[str] = "build_mine"
    player: PlayerId
    leader: str


@dataclass(frozen=True)
class DestroyMine(Action):
    """B4: the player's troops destroy the mine in ``territory`` instead of working it."""

    kind: ClassVar[str] = "destroy_mine"
    player: PlayerId
    territory: str


@dataclass(frozen=True)
class UseSpy(Action):
    """A spy of the hand used (one of the data's spy uses, against ``target``'s chief) and discarded."""

    kind: ClassVar[str] = "use_spy"
    player: PlayerId
    spy: str
    use: str
    target: int = -1


@dataclass(frozen=True)
class Rampage(Action):
    """B4, in an outland: ``leader``'s army rampages for gold; ``with_leader``: the leader too."""

    kind: ClassVar[str] = "rampage"
    player: PlayerId
    leader: str
    with_leader: bool = True


@dataclass(frozen=True)
class Discard(Action):
    """B5: chips discarded from a hand of more than ten units (secret)."""

    kind: ClassVar[str] = "discard"
    player: PlayerId
    counters: tuple[str, ...]


@dataclass(frozen=True)
class OfferTrade(Action):
    """C: chips and gold offered to ``partner`` for chips and gold of his (secret until accepted)."""

    kind: ClassVar[str] = "offer_trade"
    player: PlayerId
    partner: PlayerId
    give: tuple[str, ...] = ()
    give_gold: int = 0
    take: tuple[str, ...] = ()
    take_gold: int = 0


@dataclass(frozen=True)
class AnswerTrade(Action):
    kind: ClassVar[str] = "answer_trade"
    player: PlayerId
    accept: bool


@dataclass(frozen=True)
class ChooseStrategy(Action):
    """Combat 1.1: the side's proposed strategy, chosen on its own phone (secret until both are revealed)."""

    kind: ClassVar[str] = "strategy"
    player: PlayerId
    strategy: Strategy


@dataclass(frozen=True)
class AssignDamage(Action):
    """Combat 2.2: the damage the side took, unit by unit (none more than its power), and the one damaged
    unit that rolls to survive ("" for none)."""

    kind: ClassVar[str] = "assign_damage"
    player: PlayerId
    damage: tuple[tuple[str, int], ...]
    survivor: str = ""


@dataclass(frozen=True)
class Choose(Action):
    """The answer to a question the engine asked (``option`` is one of the prompt's choices)."""

    kind: ClassVar[str] = "choose"
    player: PlayerId
    option: str


@dataclass(frozen=True)
class CorrectGold(Action):
    """A hand correction: the player's hand holds ``gold`` gold (the table is the truth); the gold pile
    gives or takes the difference."""

    kind: ClassVar[str] = "correct_gold"
    player: PlayerId
    gold: int


SECRET = (Draw, TradeForGold, Discard, OfferTrade, ChooseStrategy)

CODEC = ActionCodec(
    TakeBosses,
    Draw,
    TradeForGold,
    DrawGold,
    Done,
    Redraw,
    Buy,
    Levy,
    Move,
    Underground,
    LeaveBehind,
    Claim,
    Attack,
    BuildFortress,
    BuildMine,
    DestroyMine,
    UseSpy,
    Rampage,
    Discard,
    OfferTrade,
    AnswerTrade,
    ChooseStrategy,
    AssignDamage,
    Choose,
    CorrectGold,
    Roll,
)
