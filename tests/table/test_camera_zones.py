"""Cards the camera sees take the readers' path: zones of the mat map to the game's zones, a sighting
is played like a settled tag (the camera already waited for it to lie still), a card gone is a lift."""

from __future__ import annotations

import pytest

from companion.games.chaos_marauders.zones import DISCARD, LINE
from companion.observations import CardGone, CardSighted
from companion.table import ReaderZone, Table, TableConfig, TableConfigError

from .table_fakes import TOY_READERS, toy_mappers

CAMERA_ZONES = (
    ReaderZone(1_000_000, LINE, 1, 0, camera="p1-line0"),
    ReaderZone(1_000_001, DISCARD, camera="discard"),
)


@pytest.fixture
def table(session, registry, clock) -> Table:
    config = TableConfig(settle_ms=300, removal_ms=400, readers=TOY_READERS + CAMERA_ZONES)
    return Table(session, config, registry, clock=clock, mappers=toy_mappers)


def sight(table, clock, zone: str, card: str, track: int = 1) -> None:
    table.observe(CardSighted(zone, card, 0.97, clock(), track))
    table.pump()


def test_a_camera_zone_is_configured_by_its_name_on_the_mat():
    section = {
        "readers": [
            {"reader": 0, "zone": "discard"},
            {"camera": "p1-line0", "zone": "line", "player": 1, "line": 0},
        ]
    }
    config = TableConfig.from_mapping(section)
    zone = config.camera_zone("p1-line0")
    assert zone is not None and (zone.kind, zone.player, zone.line) == (LINE, 1, 0)
    assert config.zone_of(zone.reader) == zone and config.camera_zone("nowhere") is None


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
