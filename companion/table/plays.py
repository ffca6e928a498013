"""A card arriving in a zone or leaving it, for the tag path and the camera path alike.

Before the running game's mapper is asked, the engine's own count is consulted (``cards_in``): a card
the engine already holds there as often as it lies there (a re-sync after reconnecting, a card put
back after a lift) is not played twice, and a lift the engine expected (a rule took the card away)
raises no alarm. Pure: each function returns the table's decisions.
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.bundle import Act, Note, Zone
from companion.engine import JSON
from companion.table.decisions import Clear, Decision, Play, Post, Reading, Tell
from companion.table.mappers import TableGame

RECHECK_S = 1.0
"""How often an open "card lifted" notice is checked against the engine (a correction clears it)."""


def shown_title(game: TableGame | None, card: str) -> str:
    """The card's name as the TV may show it (a card the rules keep secret stays "A card")."""
    try:
        return game.mapper.shown_title(card) if game is not None else card
    except KeyError:
        return card


def arrive(
    zone: Zone,
    card: str,
    reading: Reading,
    *,
    came_from: Zone | None,
    lying: int,
    observation: Mapping[str, JSON],
    since: float,
) -> list[Decision]:
    """``card`` settled in ``zone``, where ``lying`` copies of it now lie: the running game's answer."""
    game, position = reading.game, reading.position
    if game is None:
        return [Tell(f"The table cannot play {position.game_name} from its readers: use the control page")]
    here = game.zone(zone)
    if here is None:
        return [Tell(f"{game.title} has no {zone.kind.title}: {zone.source} is not played", level="info")]
    shown = game.mapper.cards_in(here, position)
    if shown is not None and shown.count(card) >= lying:
        return []  # every copy lying there is already the engine's: not played twice
    came = None if came_from is None else game.zone(came_from) or came_from
    translation = game.mapper.placed(here, card, position, came)
    if isinstance(translation, Act):
        logged = {**observation, "came_from": came_from.kind.name if came_from is not None else None}
        translation = translation.with_observation(logged)
    return [Play(translation, since)]


class Lifts:
    """Cards lifted from a zone where the engine still holds them, each with its notice until the card
    is back, went elsewhere, or the engine no longer holds it there (a correction on the phone)."""

    def __init__(self) -> None:
        self._lifted: dict[str, tuple[Zone, str]] = {}
        self._recheck_at: float | None = None

    def depart(
        self, key: str, zone: Zone, card: str, reading: Reading, still_lying: int, now: float
    ) -> list[Decision]:
        """``card`` (known to the table as ``key``) left ``zone``, where ``still_lying`` copies stay."""
        game, position = reading.game, reading.position
        here = game.zone(zone) if game is not None else None
        if game is None or here is None:
            return []
        shown = game.mapper.cards_in(here, position)
        if shown is not None and shown.count(card) <= still_lying:
            return []  # the engine already took it away (a rule discarded it): the lift confirms it
        translation = game.mapper.lifted(here, card, position)
        if isinstance(translation, Note):
            self._lifted[key] = (here, card)
            self._recheck_at = now + RECHECK_S
            return [Post(f"lifted:{key}", translation.text, translation.level)]
        return [Play(translation, now)]

    def back(self, key: str) -> list[Decision]:
        """The card known as ``key`` is somewhere again: its "lifted" notice goes."""
        return [Clear(f"lifted:{key}")] if self._lifted.pop(key, None) is not None else []

    def next_deadline(self) -> float | None:
        return self._recheck_at if self._lifted else None

    def recheck(self, now: float, reading: Reading) -> list[Decision]:
        """Clears "lifted" notices for cards the engine no longer shows there (corrected by hand)."""
        if not self._lifted or (self._recheck_at is not None and now < self._recheck_at):
            return []
        self._recheck_at = now + RECHECK_S
        game, position = reading.game, reading.position
        out: list[Decision] = []
        for key, (zone, card) in list(self._lifted.items()):
            here = game.zone(zone) if game is not None else None  # another game may be played now
            shown = game.mapper.cards_in(here, position) if game is not None and here is not None else None
            if shown is None or card not in shown:
                out.extend(self.back(key))
        return out
