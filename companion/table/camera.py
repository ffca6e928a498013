"""The camera's own path into the table: cards it sighted or saw go, played through the game's mapper.

The camera's watcher already waited for each card to lie still (``CardSighted``) or stay away
(``CardGone``) and paired the cards carried between zones (``CardSighted.moved_from``), so nothing
here waits or guesses a move: a sighting is played at once, a card gone is a lift. The record of
what lies in each zone (``camera_cards``) tells a card uncovered or put back on a pile from a new
one. Pure: every method returns the table's decisions.
"""

from __future__ import annotations

from companion.engine import JSON
from companion.observations import CardGone, CardSighted
from companion.table.camera_cards import CameraCards, camera_key
from companion.table.config import TableConfig
from companion.table.decisions import Decision, Post, Reading, Tell
from companion.table.plays import Lifts, arrive


class CameraPath:
    def __init__(self, config: TableConfig, lifts: Lifts) -> None:
        self._config = config
        self._lifts = lifts
        self._record = CameraCards(config.move_ms / 1000)

    def sighted(self, sighting: CardSighted, reading: Reading) -> list[Decision]:
        zone = self._config.camera_zone(sighting.zone)
        if zone is None:
            text = f"The camera sees a card in zone {sighting.zone!r}, which the table layout does not map"
            return [Post(f"camera:{sighting.zone}", text)]
        position, game = reading.position, reading.game
        name = position.game_name
        if name is None or game is None or sighting.card not in game.mapper.card_ids():
            what = "no game is running" if name is None else f"{name} has no such card"
            where = zone.label(position.names)
            return [Tell(f"The camera sees {sighting.card!r} on {where}, but {what}", level="info")]
        key = camera_key(sighting.zone, sighting.track)
        covers = frozenset(camera_key(sighting.zone, track) for track in sighting.covers)
        moved = None
        if sighting.moved_from is not None:
            moved = (sighting.moved_from[0], camera_key(*sighting.moved_from))
        arrival = self._record.arrived(sighting.zone, key, sighting.card, sighting.at, covers, moved)
        out = self._lifts.back(arrival.continues) if arrival.continues is not None else []
        came_from = self._config.camera_zone(arrival.came_from) if arrival.came_from is not None else None
        observation: dict[str, JSON] = {
            "type": "card_sighted",
            "camera": sighting.zone,
            "track": sighting.track,
            "zone": zone.to_json(),
            "card": sighting.card,
            "confidence": sighting.confidence,
            "seen_at": sighting.at,
            "moved_from": list(sighting.moved_from) if sighting.moved_from is not None else None,
        }
        out.extend(
            arrive(
                zone,
                sighting.card,
                reading,
                came_from=came_from,
                lying=arrival.copies,
                observation=observation,
                since=sighting.at,
            )
        )
        return out

    def gone(self, gone: CardGone, now: float, reading: Reading) -> list[Decision]:
        zone = self._config.camera_zone(gone.zone)
        if zone is None:
            return []
        key = camera_key(gone.zone, gone.track)
        self._record.left(gone.zone, key, gone.at)
        if reading.position.game_name is None:
            return []
        still = self._record.lying(gone.zone, gone.card)
        return self._lifts.depart(key, zone, gone.card, reading, still, now)
