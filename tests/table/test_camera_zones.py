"""Cards the camera sees take a path of their own: zones of the mat map to the game's zones, a
sighting is played at once (the camera already waited for it to lie still, and says when it was
carried from another zone), a card gone is a lift; the mapper hears them as it hears tags."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.bundle import LivePosition, Note, Zone
from companion.games.chaos_marauders.zones import DISCARD, LINE, PAD
from companion.observations import CardGone, CardSighted
from companion.table import Table, TableConfig, TableConfigError

from .table_fakes import TOY_READERS, ToyMapper, games_of, toy_view

CAMERA_ZONES = (
    LINE.zone(camera="p1-line0", player=1, line=0),
    DISCARD.zone(camera="discard"),
    PAD.zone(camera="pad"),
)


class PileMapper(ToyMapper):
    """The toy mapper, also saying what the engine holds on the discard pile (``game["discard"]``)."""

    def cards_in(self, zone: Zone, position: LivePosition) -> Sequence[str] | None:
        if zone.kind == DISCARD:
            return position.state.get("discard", [])
        return super().cards_in(zone, position)

    def lifted(self, zone: Zone, card_id: str, position: LivePosition) -> Note | None:
        return super().lifted(zone, card_id, position) if zone.kind == LINE else None  # as Chaos Marauders


@pytest.fixture
def mapper() -> PileMapper:
    return PileMapper()


@pytest.fixture
def table(session, registry, clock, mapper) -> Table:
    config = TableConfig(settle_ms=300, removal_ms=400, move_ms=3000, readers=TOY_READERS + CAMERA_ZONES)
    return Table(session, config, registry, clock=clock, games=games_of(mapper))


def sight(
    table,
    clock,
    zone: str,
    card: str,
    track: int = 1,
    covers: tuple[int, ...] = (),
    moved_from: tuple[str, int] | None = None,
) -> None:
    table.observe(CardSighted(zone, card, 0.97, clock(), track, covers, moved_from))
    table.pump()


def gone(table, clock, zone: str, card: str, track: int) -> None:
    table.observe(CardGone(zone, card, clock(), track))
    table.pump()


def discarded(session, card: str) -> None:
    """The engine accepted the discard: its pile holds the card."""
    session.current["game"].setdefault("discard", []).append(card)


def test_a_camera_zone_is_configured_by_its_name_on_the_mat():
    section = {
        "readers": [
            {"reader": 0, "zone": "discard"},
            {"camera": "p1-line0", "zone": "line", "player": 1, "line": 0},
        ]
    }
    config = TableConfig.from_mapping(section)
    zone = config.camera_zone("p1-line0")
    assert zone is not None and (zone.kind, zone.player, zone["line"]) == (LINE, 1, 0)
    assert zone.reader is None and config.camera_zone("nowhere") is None
    assert config.zone_of(0).kind == DISCARD  # readers and camera zones side by side


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        ([{"camera": "a", "zone": "discard"}, {"camera": "a", "zone": "pad"}], "configured twice"),
        ([{"camera": "a", "reader": 1, "zone": "discard"}], "camera and zone"),
        ([{"camera": "", "zone": "discard"}], "must name a zone of the mat"),
    ],
)
def test_camera_zone_mistakes_are_named(entries, message):
    with pytest.raises(TableConfigError, match=message):
        TableConfig.from_mapping({"readers": entries})


def test_a_sighted_card_is_played_at_once_with_what_the_camera_saw(table, session, clock):
    sight(table, clock, "p1-line0", "boss", track=7)
    [command] = session.sent
    assert dict(command.payload) == {"kind": "place", "player": 0, "card": "boss", "line": 0}
    observation = command.observation
    assert observation["type"] == "card_sighted" and observation["zone"]["camera"] == "p1-line0"
    assert observation["card"] == "boss"
    clock.advance(5)
    table.pump()
    assert len(session.sent) == 1  # a card lying still is played once


def test_two_copies_of_a_card_in_one_zone_are_two_cards(table, session, clock):
    sight(table, clock, "discard", "grunt", track=1)
    sight(table, clock, "discard", "grunt", track=2)
    assert [c.payload["kind"] for c in session.sent] == ["discard", "discard"]


def test_a_card_gone_from_the_camera_is_a_lift(table, session, clock):
    session.current["game"]["lines"][1][0] = ["boss"]  # the engine holds it there
    sight(table, clock, "p1-line0", "boss", track=3)
    table.observe(CardGone("p1-line0", "boss", clock(), 3))
    table.pump()
    assert "Big Boss lifted from P2's line 1" in session.notices()


def test_an_unmapped_zone_or_a_card_the_game_lacks_is_a_notice_not_a_move(table, session, clock):
    sight(table, clock, "p3-line2", "boss")
    sight(table, clock, "discard", "bogus-card")
    assert session.sent == []
    notices = " | ".join(session.notices())
    assert "zone 'p3-line2', which the table layout does not map" in notices
    assert "'bogus-card'" in notices and "toy has no such card" in notices


# ------------------------------------------------------------------- moves between zones


def test_a_card_carried_from_a_line_to_the_discard_pile_arrives_from_the_line(table, session, clock, mapper):
    sight(table, clock, "p1-line0", "boss", track=3)
    session.current["game"]["lines"][1][0] = ["boss"]  # the engine placed it
    clock.advance(1)
    gone(table, clock, "p1-line0", "boss", 3)
    assert "Big Boss lifted from P2's line 1" in session.notices()
    clock.advance(1.5)  # carried across the table: the camera's watcher pairs the two
    sight(table, clock, "discard", "boss", track=4, moved_from=("p1-line0", 3))
    assert mapper.came_from == [None, "line"]  # as a tag moved between readers
    assert session.sent[-1].payload["kind"] == "discard"
    assert session.sent[-1].observation["moved_from"] == ["p1-line0", 3]
    assert not any("lifted" in text for text in session.notices())  # it went somewhere: no alarm


def test_the_table_takes_moves_from_the_camera_and_guesses_none(table, session, clock, mapper):
    """The same card leaving one zone and appearing in another is a move only when the camera says so:
    moves are detected once, by the watcher that saw the card go (vision/watcher.py)."""
    sight(table, clock, "p1-line0", "boss", track=3)
    gone(table, clock, "p1-line0", "boss", 3)
    clock.advance(0.5)
    sight(table, clock, "discard", "boss", track=4)
    assert mapper.came_from == [None, None]


def test_a_move_from_a_zone_the_layout_does_not_map_arrives_from_nowhere(table, session, clock, mapper):
    sight(table, clock, "discard", "grunt", track=5, moved_from=("p3-line2", 2))
    assert mapper.came_from == [None] and session.sent[-1].payload["kind"] == "discard"


def test_a_card_lifted_and_laid_back_in_its_zone_is_not_played_again(table, session, clock, mapper):
    sight(table, clock, "p1-line0", "boss", track=3)
    session.current["game"]["lines"][1][0] = ["boss"]
    gone(table, clock, "p1-line0", "boss", 3)
    assert "Big Boss lifted from P2's line 1" in session.notices()
    clock.advance(10)
    sight(table, clock, "p1-line0", "boss", track=9)
    assert len(session.sent) == 1 and not any("lifted" in text for text in session.notices())


# -------------------------------------------------------------------------------- piles


def pile_of_grunt_then_boss(table, session, clock) -> None:
    """grunt discarded, then boss laid on it (the camera saw grunt vanish under boss)."""
    sight(table, clock, "discard", "grunt", track=1)
    discarded(session, "grunt")
    sight(table, clock, "discard", "boss", track=2, covers=(1,))
    discarded(session, "boss")
    gone(table, clock, "discard", "grunt", 1)
    assert [c.payload["card"] for c in session.sent] == ["grunt", "boss"]


def test_a_pile_card_uncovered_again_is_not_discarded_again(table, session, clock, mapper):
    pile_of_grunt_then_boss(table, session, clock)
    # boss lifted off the pile: grunt shows again where boss lay (and boss is reported gone after).
    sight(table, clock, "discard", "grunt", track=3, covers=(2,))
    gone(table, clock, "discard", "boss", 2)
    assert len(session.sent) == 2 and session.notices() == []
    # boss laid back on top: the engine holds it there already.
    sight(table, clock, "discard", "boss", track=4, covers=(3,))
    assert len(session.sent) == 2


def test_a_new_copy_of_a_buried_pile_card_is_a_real_discard(table, session, clock, mapper):
    pile_of_grunt_then_boss(table, session, clock)
    sight(table, clock, "discard", "spell", track=3, covers=(2,))
    discarded(session, "spell")
    gone(table, clock, "discard", "boss", 2)
    # Another grunt laid on spell: the card under spell is boss, so this grunt is not uncovered.
    sight(table, clock, "discard", "grunt", track=4, covers=(3,))
    assert [c.payload["card"] for c in session.sent] == ["grunt", "boss", "spell", "grunt"]


def test_an_uncovered_card_the_engine_does_not_hold_is_played(table, session, clock, mapper):
    """By count: the camera's record says grunt lies there, the engine has none (its discard was
    corrected away on the phone), so grunt reappearing is played like a card just laid."""
    pile_of_grunt_then_boss(table, session, clock)
    session.current["game"]["discard"] = ["boss"]
    sight(table, clock, "discard", "grunt", track=3, covers=(2,))
    assert [c.payload["card"] for c in session.sent] == ["grunt", "boss", "grunt"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.one_of(st.none(), st.sampled_from(["grunt", "boss", "spell"])), max_size=14))
def test_piling_up_and_lifting_off_never_plays_a_card_twice(session, registry, clock, ops):
    """Cards laid on the pile (``None``: the top lifted off) as the watcher reports them. Lifting
    never plays anything; a card the engine's pile does not hold yet is always played."""
    session.current = toy_view()
    config = TableConfig(readers=CAMERA_ZONES)
    table = Table(session, config, registry, clock=clock, games=games_of(PileMapper()))
    pile: list[tuple[str, int]] = []  # (card, track) as it lies, bottom to top
    tracks = iter(range(1, 1000))
    for op in ops:
        clock.advance(1)
        sent = len(session.sent)
        if op is None:
            if not pile:
                continue
            top, lifted = pile.pop()
            if pile:  # the card beneath comes into sight where the lifted one lay
                card, _ = pile[-1]
                pile[-1] = (card, next(tracks))
                sight(table, clock, "discard", card, pile[-1][1], covers=(lifted,))
            gone(table, clock, "discard", top, lifted)
            assert len(session.sent) == sent
            continue
        if pile and op == pile[-1][0]:
            continue  # a copy laid exactly on itself is the same track to the watcher (docs/vision.md)
        fresh = op not in session.current["game"].get("discard", [])
        covers = (pile[-1][1],) if pile else ()
        pile.append((op, next(tracks)))
        sight(table, clock, "discard", op, pile[-1][1], covers=covers)
        if covers:
            gone(table, clock, "discard", pile[-2][0], covers[0])
        played = session.sent[sent:]
        assert len(played) <= 1
        if played:
            discarded(session, op)
        if fresh:
            assert [c.payload["card"] for c in played] == [op]


def test_a_pile_gathered_up_takes_its_buried_cards_with_it(table, session, clock, mapper):
    """The pile cleared away (a new game): its record no longer claims grunt lies under it, so a
    grunt uncovered later in the new pile is compared with what the engine holds now."""
    pile_of_grunt_then_boss(table, session, clock)
    gone(table, clock, "discard", "boss", 2)  # the whole pile taken away
    clock.advance(60)
    session.current["game"]["discard"] = []  # the engine's new game
    sight(table, clock, "discard", "spell", track=3)
    discarded(session, "spell")
    sight(table, clock, "discard", "grunt", track=4, covers=(3,))
    discarded(session, "grunt")
    sight(table, clock, "discard", "boss", track=5, covers=(4,))
    discarded(session, "boss")
    sight(table, clock, "discard", "grunt", track=6, covers=(5,))  # boss lifted off: grunt uncovered
    assert [c.payload["card"] for c in session.sent] == ["grunt", "boss", "spell", "grunt", "boss"]
