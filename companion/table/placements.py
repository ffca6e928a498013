"""Settled tag readings become the table's decisions (the game-agnostic half of the RFID path).

Which card a tag is comes from the registry; which zone a reader watches from the config; what the
card on that zone means from the running game's mapper (``plays``). Pure: every method reads its
inputs and returns decisions (``companion.table.decisions``) for the table to carry out.
"""

from __future__ import annotations

from collections.abc import Callable

from companion.bundle import Zone
from companion.engine import JSON
from companion.observations import ReaderId, TagUid
from companion.table.config import TableConfig
from companion.table.decisions import Clear, Decision, Offer, Post, Reading, Tell
from companion.table.enrolment import PendingTag
from companion.table.plays import Lifts, arrive, shown_title
from companion.table.registry import EnrolledTag
from companion.table.settle import Ambiguous, Cleared, Lifted, Placed, Settled, SettleTracker

Lookup = Callable[[TagUid], EnrolledTag | None]
"""The registry's answer for a tag (read fresh each time: enrolment may happen from a terminal)."""


class Placements:
    def __init__(self, config: TableConfig, tracker: SettleTracker, lookup: Lookup, lifts: Lifts) -> None:
        self._config = config
        self._tracker = tracker
        self._lookup = lookup
        self._lifts = lifts
        self._last_zone: dict[TagUid, Zone] = {}
        """Where each tag last settled: a card leaving play differs from one fresh from the pile."""
        self._left_at: dict[TagUid, float] = {}
        """When each tag's lift from there was reported (it left at that moment)."""

    def settled(self, settled: Settled, now: float, reading: Reading) -> list[Decision]:
        if isinstance(settled, Placed):
            return self._placed(settled.reader, settled.uid, settled.seen_at, settled.settled_at, reading)
        if isinstance(settled, Lifted):
            return self._lift(settled.reader, settled.uid, settled.gone_at, now, reading)
        if isinstance(settled, Ambiguous):
            return self._ambiguous(settled, reading)
        if isinstance(settled, Cleared):
            return [Clear(f"amb:{settled.uid}")]
        return []

    def reconsider(self, uid: TagUid, now: float, reading: Reading) -> list[Decision]:
        """After an enrolment: the tag, if it lies on a reader, is read again as if it just settled."""
        out: list[Decision] = [Clear(f"tag:{uid}")]
        reader = self._tracker.placed_reader(uid)
        if reader is not None and not reading.enrolling:
            out.extend(self._placed(reader, uid, now, now, reading))
        return out

    # ----------------------------------------------------------------------------------- placing

    def _placed(
        self, reader: ReaderId, uid: TagUid, seen_at: float, settled_at: float, reading: Reading
    ) -> list[Decision]:
        zone = self._config.zone_of(reader)
        if zone is None:
            text = f"A tag lies on reader {reader}, which the table configuration does not map"
            return [Post(f"reader:{reader}", text)]
        position = reading.position
        game = reading.game
        place = ((game.zone(zone) if game is not None else None) or zone).label(position.names)
        tag = self._lookup(uid)
        if reading.enrolling or tag is None:
            out: list[Decision] = [Offer(PendingTag(uid, place, seen_at, tag.card_id if tag else None))]
            if tag is None and not reading.enrolling:
                out.append(
                    Post(f"tag:{uid}", f"Unknown card tag {uid} on {place}: enrol it on the control page")
                )
            return out
        title = shown_title(reading.games(tag.game), tag.card_id)
        if position.game_name is None:
            return [Tell(f"{title} put on {place}, but no game is running", level="info")]
        if tag.game != position.game_name:
            text = (
                f"Tag {uid} is enrolled as {title} of {tag.game}, not {position.game_name}: "
                "re-enrol it on the control page"
            )
            return [Post(f"tag:{uid}", text)]
        out = self._lifts.back(uid)
        left_at = self._left_at.pop(uid, None)
        came_from = self._last_zone.get(uid)
        if left_at is not None and settled_at - left_at > self._config.move_ms / 1000:
            came_from = None  # it left long ago (a card taken out, back in play much later): not a move
        self._last_zone[uid] = zone
        observation: dict[str, JSON] = {
            "type": "tag_placed",
            "reader": reader,
            "uid": uid,
            "zone": zone.to_json(),
            "card": tag.card_id,
            "seen_at": seen_at,
            "settled_at": settled_at,
        }
        lying = self._tags_lying(reader, tag.card_id)
        out.extend(
            arrive(
                zone,
                tag.card_id,
                reading,
                came_from=came_from,
                lying=lying,
                observation=observation,
                since=settled_at,
            )
        )
        return out

    def _tags_lying(self, reader: ReaderId, card: str) -> int:
        """Copies of ``card`` lying on ``reader`` (a reader reads every tag of a pile)."""
        return sum(1 for uid in self._tracker.committed_on(reader) if self._card_of(uid) == card)

    # ----------------------------------------------------------------------------------- lifting

    def _lift(
        self, reader: ReaderId, uid: TagUid, gone_at: float, now: float, reading: Reading
    ) -> list[Decision]:
        out: list[Decision] = [Clear(f"tag:{uid}"), Clear(f"amb:{uid}")]
        if self._tracker.placed_reader(uid) is None:
            self._left_at[uid] = gone_at  # off every reader (not moved on before its lift was due)
        zone = self._config.zone_of(reader)
        if zone is None and not self._tracker.committed_on(reader):
            out.append(Clear(f"reader:{reader}"))
        tag = self._lookup(uid)
        if zone is None or tag is None or reading.enrolling:
            return out
        if reading.position.game_name != tag.game:
            return out
        still_here = self._tags_lying(reader, tag.card_id)
        out.extend(self._lifts.depart(uid, zone, tag.card_id, reading, still_here, now))
        return out

    # ---------------------------------------------------------------------------------- ambiguous

    def _ambiguous(self, settled: Ambiguous, reading: Reading) -> list[Decision]:
        tag = self._lookup(settled.uid)
        what = shown_title(reading.games(tag.game), tag.card_id) if tag else f"Card tag {settled.uid}"
        names = reading.position.names
        places = []
        for reader in settled.readers:
            zone = self._config.zone_of(reader)
            places.append(zone.label(names) if zone else f"reader {reader}")
        text = f"{what} reads on {' and '.join(places)} at once: move it onto one of them"
        return [Post(f"amb:{settled.uid}", text)]

    def _card_of(self, uid: TagUid) -> str | None:
        tag = self._lookup(uid)
        return tag.card_id if tag else None
