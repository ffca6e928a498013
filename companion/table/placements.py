"""Settled tag readings become game commands or notices (the game-agnostic half of the table).

Which card a tag is comes from the registry; which zone a reader watches from the config; what the
card on that zone means from the game's mapper. Before acting, the engine's view is consulted, so a
card the engine already shows there (a re-sync after reconnecting, a card put back after a lift) is
not played twice, and a lift the engine expected (the card left by a rule) raises no alarm.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.bundle import Act, LivePosition, Note, TableMapper
from companion.engine import JSON
from companion.observations import ReaderId, TagUid
from companion.table.camera_cards import CameraCards
from companion.table.config import ReaderZone
from companion.table.enrolment import PendingTag
from companion.table.registry import EnrolledTag, TagRegistry
from companion.table.settle import Ambiguous, Cleared, Lifted, Placed, Settled, SettleTracker

if TYPE_CHECKING:
    from companion.table.table import Table

RECHECK_S = 1.0
"""How often an open "card lifted" notice is checked against the engine (a correction clears it)."""
CAMERA_PREFIX = "CAM:"


def camera_uid(zone: str, track: int) -> TagUid:
    """The stand-in tag of a card the camera follows: its zone and its track, never a real UID."""
    return TagUid(f"{CAMERA_PREFIX}{zone}:{track}")


class Placements:
    def __init__(self, table: Table, tracker: SettleTracker, registry: TagRegistry) -> None:
        self._table = table
        self._tracker = tracker
        self._registry = registry
        self._lifted: dict[TagUid, tuple[ReaderZone, str]] = {}
        self._last_zone: dict[TagUid, str] = {}
        """Where each tag last settled: a card leaving play differs from one fresh from the pile."""
        self._recheck_at: float | None = None
        self._camera: dict[TagUid, EnrolledTag] = {}
        """What each camera stand-in tag is: the camera names the card itself, no enrolment needed."""
        self._covers: dict[TagUid, frozenset[TagUid]] = {}
        """The stand-ins each camera card vanished over when it appeared (until it is placed)."""
        self._camera_cards = CameraCards(table.config.move_ms / 1000)

    def settled(self, settled: Settled, now: float) -> None:
        if isinstance(settled, Placed):
            self._placed(settled.reader, settled.uid, settled.seen_at, settled.settled_at)
        elif isinstance(settled, Lifted):
            self._lift(settled.reader, settled.uid, now)
        elif isinstance(settled, Ambiguous):
            self._ambiguous(settled)
        elif isinstance(settled, Cleared):
            self._table.notices.clear(f"amb:{settled.uid}")

    def sighted(self, uid: TagUid, game: str, card: str, covers: frozenset[TagUid] = frozenset()) -> None:
        """The camera identified ``uid``'s card (before its reading reaches the tracker)."""
        self._camera[uid] = EnrolledTag(uid, game, card, 0.0)
        self._covers[uid] = covers

    def _lookup(self, uid: TagUid) -> EnrolledTag | None:
        return self._camera.get(uid) or self._registry.lookup(uid)

    def reconsider(self, uid: TagUid, now: float) -> None:
        """After an enrolment: the tag, if it lies on a reader, is read again as if it just settled."""
        self._table.notices.clear(f"tag:{uid}")
        reader = self._tracker.placed_reader(uid)
        if reader is not None and not self._table.enrolment.active:
            self._placed(reader, uid, now, now)

    def next_deadline(self) -> float | None:
        return self._recheck_at if self._lifted else None

    def recheck(self, now: float) -> None:
        """Clears "lifted" notices for cards the engine no longer shows there (corrected by hand)."""
        if not self._lifted or (self._recheck_at is not None and now < self._recheck_at):
            return
        self._recheck_at = now + RECHECK_S
        position = self._table.position()
        mapper = self._table.mapper_for(position.game_name)
        for uid, (zone, card) in list(self._lifted.items()):
            shown = mapper.cards_in(zone, position) if mapper else None
            if shown is None or card not in shown:
                self._clear_lifted(uid)

    # ----------------------------------------------------------------------------------- placing

    def _placed(self, reader: ReaderId, uid: TagUid, seen_at: float, settled_at: float) -> None:
        table = self._table
        zone = table.config.zone_of(reader)
        if zone is None:
            table.notices.post(
                f"reader:{reader}",
                f"A tag lies on reader {reader}, which the table configuration does not map",
            )
            return
        position = table.position()
        place = zone.label(position.names)
        tag = self._lookup(uid)
        if tag is not None and uid in self._camera:
            pass  # a card the camera named: enrolment is for tags
        elif table.enrolment.active or tag is None:
            table.enrolment.offer(PendingTag(uid, place, seen_at, tag.card_id if tag else None))
            table.changed()
            if tag is None and not table.enrolment.active:
                table.notices.post(
                    f"tag:{uid}", f"Unknown card tag {uid} on {place}: enrol it on the control page"
                )
            return
        history, copies = uid, None
        if uid in self._camera:
            # A new stand-in in every zone: give it the history of the card it is (moved, uncovered).
            covers = self._covers.pop(uid, frozenset())
            arrival = self._camera_cards.arrived(reader, uid, tag.card_id, settled_at, covers)
            history, copies = arrival.continues or uid, arrival.copies
            self._clear_lifted(history)
        mapper = self._mapper_playing(tag, place, position)
        if mapper is None:
            return
        self._clear_lifted(uid)
        came_from = self._last_zone.pop(history, None) if history != uid else self._last_zone.get(uid)
        self._last_zone[uid] = zone.zone
        shown = mapper.cards_in(zone, position)
        if shown is not None:
            # A reader reads every tag of a pile; the camera only its top, so its record counts.
            here = copies if copies is not None else self._tags_lying(reader, tag.card_id)
            if shown.count(tag.card_id) >= here:
                return  # every copy lying there is already the engine's: not played twice
        translation = mapper.placed(zone, tag.card_id, position, came_from)
        if isinstance(translation, Act):
            observation: dict[str, JSON] = {
                "type": "card_sighted" if uid in self._camera else "tag_placed",
                "reader": reader,
                "uid": uid,
                "zone": zone.to_json(),
                "card": tag.card_id,
                "seen_at": seen_at,
                "settled_at": settled_at,
                "came_from": came_from,
            }
            translation = translation.with_observation(observation)
        table.dispatch(translation, settled_at)

    def _mapper_playing(self, tag: EnrolledTag, place: str, position: LivePosition) -> TableMapper | None:
        """The running game's mapper when the tag belongs to it; else a notice and None."""
        table = self._table
        game = position.game_name
        title = self._title(tag)
        if game is None:
            table.note(f"{title} put on {place}, but no game is running", level="info")
            return None
        if tag.game != game:
            table.notices.post(
                f"tag:{tag.uid}",
                f"Tag {tag.uid} is enrolled as {title} of {tag.game}, not {game}: "
                "re-enrol it on the control page",
            )
            return None
        mapper = table.mapper_for(game)
        if mapper is None:
            table.note(f"The table cannot play {game} from its readers: use the control page")
        return mapper

    def _tags_lying(self, reader: ReaderId, card: str) -> int:
        """Copies of ``card`` lying on ``reader``."""
        return sum(1 for uid in self._tracker.committed_on(reader) if self._card_of(uid) == card)

    # ----------------------------------------------------------------------------------- lifting

    def _lift(self, reader: ReaderId, uid: TagUid, now: float) -> None:
        table = self._table
        table.notices.clear(f"tag:{uid}")
        table.notices.clear(f"amb:{uid}")
        zone = table.config.zone_of(reader)
        if zone is None and not self._tracker.committed_on(reader):
            table.notices.clear(f"reader:{reader}")
        tag = self._lookup(uid)
        if zone is not None and tag is not None and uid in self._camera:
            self._camera_cards.left(reader, uid, tag.card_id, now)
        if zone is None or tag is None or table.enrolment.active:
            return
        position = table.position()
        if position.game_name != tag.game:
            return
        mapper = table.mapper_for(tag.game)
        if mapper is None:
            return
        shown = mapper.cards_in(zone, position)
        if shown is not None:
            still_here = self._tags_lying(reader, tag.card_id)
            if shown.count(tag.card_id) <= still_here:
                return  # the engine already took it away (a rule discarded it): the lift confirms it
        translation = mapper.lifted(zone, tag.card_id, position)
        if isinstance(translation, Note):
            table.notices.post(f"lifted:{uid}", translation.text, translation.level)
            self._lifted[uid] = (zone, tag.card_id)
            self._recheck_at = now + RECHECK_S
        else:
            table.dispatch(translation, now)

    def _clear_lifted(self, uid: TagUid) -> None:
        if self._lifted.pop(uid, None) is not None:
            self._table.notices.clear(f"lifted:{uid}")

    # ---------------------------------------------------------------------------------- ambiguous

    def _ambiguous(self, settled: Ambiguous) -> None:
        table = self._table
        tag = self._lookup(settled.uid)
        what = self._title(tag) if tag else f"Card tag {settled.uid}"
        names = table.position().names
        places = []
        for reader in settled.readers:
            zone = table.config.zone_of(reader)
            places.append(zone.label(names) if zone else f"reader {reader}")
        table.notices.post(
            f"amb:{settled.uid}", f"{what} reads on {' and '.join(places)} at once: move it onto one of them"
        )

    def _card_of(self, uid: TagUid) -> str | None:
        tag = self._lookup(uid)
        return tag.card_id if tag else None

    def _title(self, tag: EnrolledTag) -> str:
        """The card's name as the TV may show it."""
        mapper = self._table.mapper_for(tag.game)
        try:
            return mapper.shown_title(tag.card_id) if mapper else tag.card_id
        except KeyError:
            return tag.card_id
