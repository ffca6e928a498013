"""Per-game translation of settled table readings into that game's actions.

The zone, settle and registry logic is the same for every game; only "what does a card on this
zone mean" differs. Each game that can be played from the table has a small mapper module here,
found by the game's registry name (``find_mapper("chaos-marauders")``).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from companion.engine import JSON, PlayerId
from companion.table.config import ReaderZone, ZoneKind

MAPPERS: dict[str, str] = {
    "chaos-marauders": "companion.table.mappers.chaos_marauders:ChaosMaraudersMapper",
}


@dataclass(frozen=True)
class Act:
    """Submit this action (the game's action JSON) to the session."""

    payload: Mapping[str, JSON]
    summary: str
    """What the table did, for notices when the engine refuses: "Bozlum Pigstickers on line 2"."""
    observation: Mapping[str, JSON] | None = None
    """What the table saw, stored with the input; the table fills it in for tag readings."""
    then: Act | None = None
    """A follow-up submitted only if this one is accepted (a card drawn, then discarded at once)."""

    def with_observation(self, observation: Mapping[str, JSON]) -> Act:
        """This act and its follow-ups, all recording ``observation``."""
        then = self.then.with_observation(observation) if self.then else None
        return Act(self.payload, self.summary, observation, then)


@dataclass(frozen=True)
class Note:
    """Do not act; tell the players this instead."""

    text: str
    level: str = "warning"


Translation = Act | Note | None
"""None: the reading needs nothing (a card lifted that the engine already moved away)."""


class UnknownGameMapperError(LookupError):
    """No table mapper is installed for that game."""


class UnknownCardChoiceError(ValueError):
    """The card named is neither an id nor a title of the game's cards."""


class GameMapper(Protocol):
    game: str
    rolls_one_at_a_time: bool
    """The engine takes a several-dice prompt one result at a time (the prompt counts down), so each
    die read is submitted at once; else the table gathers ``count`` results into one roll."""

    def card_title(self, card_id: str) -> str:
        """The printed title; raises KeyError for a card the game does not have."""

    def card_ids(self) -> Sequence[str]:
        """Every card id, for the enrolment picker."""

    def shown_title(self, card_id: str) -> str:
        """What notices on the TV may call the card (a card the rules keep secret stays "a card")."""

    def cards_in(self, zone: ReaderZone, view: Mapping[str, JSON]) -> Sequence[str] | None:
        """Card ids the engine shows in that zone (None when the zone holds no cards the engine tracks)."""

    def placed(
        self, zone: ReaderZone, card_id: str, view: Mapping[str, JSON], came_from: ZoneKind | None
    ) -> Translation:
        """A card settled on a zone. ``came_from``: the zone the table last saw this tag settle in
        (None: not since the table started), which tells a card leaving play from a fresh draw."""

    def lifted(self, zone: ReaderZone, card_id: str, view: Mapping[str, JSON]) -> Translation:
        """A card left a zone for longer than the removal window."""

    def shout(self, player: PlayerId, view: Mapping[str, JSON]) -> Translation:
        """A player pressed their shout button first."""

    def next_action(self, view: Mapping[str, JSON]) -> Translation:
        """The "next" button: move play on (decline an optional effect) where the game has that."""


def find_mapper(game: str) -> GameMapper:
    try:
        target = MAPPERS[game]
    except KeyError:
        raise UnknownGameMapperError(f"no table mapper for the game {game!r}") from None
    module_name, _, class_name = target.partition(":")
    return getattr(importlib.import_module(module_name), class_name)()  # type: ignore[no-any-return]


def resolve_card(mapper: GameMapper, text: str) -> str:
    """A card id from an id or a printed title, case-insensitively; raises UnknownCardChoiceError."""
    wanted = text.strip().casefold()
    for card in mapper.card_ids():
        if wanted in (card.casefold(), mapper.card_title(card).casefold()):
            return card
    raise UnknownCardChoiceError(f"{mapper.game} has no card {text!r}")
