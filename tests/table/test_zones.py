"""Zones as games declare them: typed fields checked when the layout loads, labels, one reader serving
every game whose kind of that name it fits, and a reader the running game has no place for."""

from __future__ import annotations

import pytest

from companion.bundle import ZoneError, ZoneField, ZoneKind
from companion.games import add_bundle, remove_bundle
from companion.table import TableConfig, TableConfigError
from companion.table.mappers import TableGame

from .table_fakes import ToyMapper, toy_view

HAND = ZoneKind("hand", "hand", fields=(ZoneField.seat(),), label="{owner}'s hand")
TERRITORY = ZoneKind("territory", "territory", fields=(ZoneField.named("territory"),), label="{territory}")
ENEMY = ZoneKind("enemy", "enemy model", fields=(ZoneField.number("model", maximum=2, title="enemy model"),))
OTHER_HAND = ZoneKind(
    "hand",
    "hand",
    fields=(ZoneField.seat(), ZoneField.number("slot", required=False)),
    label="{owner}'s hand",
)
KINDS = {"hand": (HAND, OTHER_HAND), "territory": (TERRITORY,), "enemy": (ENEMY,)}


def load(*readers: dict) -> TableConfig:
    return TableConfig.from_mapping({"readers": list(readers)}, KINDS, {})


def test_each_field_type_is_checked_and_read_as_people_read_it():
    config = load(
        {"reader": 0, "zone": "hand", "player": 1},
        {"reader": 1, "zone": "territory", "territory": " Mountains of Thar "},
        {"reader": 2, "zone": "enemy", "model": 2},
    )
    hand, land, enemy = (config.zone_of(r) for r in (0, 1, 2))
    assert (hand.player, land["territory"], enemy["model"]) == (1, "Mountains of Thar", 2)
    assert hand.label({1: "Ugluk"}) == "Ugluk's hand" and land.label() == "Mountains of Thar"
    assert enemy.label() == "enemy model" and enemy.source == "reader 2"
    assert land.to_json() == {
        "reader": 1,
        "camera": None,
        "zone": "territory",
        "territory": "Mountains of Thar",
    }


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"reader": 0, "zone": "territory"}, "needs territory"),
        ({"reader": 0, "zone": "territory", "territory": 3}, "territory must be a name"),
        ({"reader": 0, "zone": "enemy", "model": 3}, "enemy model is at most 2"),
        ({"reader": 0, "zone": "enemy", "model": -1}, "whole number from 0"),
        ({"reader": 0, "zone": "enemy", "model": 0, "owner": 1}, "has no owner"),
        ({"reader": 0, "zone": "hand", "player": 0, "line": 1}, "has no line"),
    ],
)
def test_a_field_a_kind_lacks_or_a_value_it_refuses_stops_the_layout(entry, message):
    with pytest.raises(TableConfigError, match=message):
        load(entry)


def test_a_kind_refuses_fields_that_are_not_its_own_and_names_that_are_reserved():
    with pytest.raises(ZoneError):
        HAND.zone(reader=0)
    with pytest.raises(ValueError, match="cannot name a zone field"):
        ZoneField.number("reader")
    with pytest.raises(ValueError, match="declares a field twice"):
        ZoneKind("x", "x", fields=(ZoneField.seat(), ZoneField.seat()))


def test_a_reader_serves_each_game_whose_kind_of_that_name_it_fits():
    """Two games both have a hand, one with slots: a reader with a slot fits only that game's hand."""
    plain, slotted = (
        load({"reader": 0, "zone": "hand", "player": 0}),
        load({"reader": 0, "zone": "hand", "player": 0, "slot": 2}),
    )
    zone = plain.zone_of(0)
    assert zone.kind == HAND and zone.of_kind(OTHER_HAND).kind == OTHER_HAND
    with_slot = slotted.zone_of(0)
    assert with_slot.kind == OTHER_HAND and with_slot.of_kind(HAND) is None
    game = TableGame("g", "G", ToyMapper(), (HAND,))
    assert game.zone(zone) == zone and game.zone(with_slot) is None
    assert TableGame("h", "H", ToyMapper(), (TERRITORY,)).zone(zone) is None


def test_games_may_define_a_kind_of_one_name_differently(raid_installed):
    """Raid has a hand; a second game whose hand has slots installs beside it, and the layout reads
    both (the registry no longer refuses the second definition)."""
    from dataclasses import replace

    from companion.games import zone_kinds

    other = replace(raid_installed, name="raid-too", package="tests.bundles.raid", zones=(OTHER_HAND,))
    add_bundle(other)
    try:
        assert set(zone_kinds()["hand"]) >= {raid_installed.zone_kind("hand"), OTHER_HAND}
        config = TableConfig.from_mapping(
            {"readers": [{"reader": 0, "zone": "hand", "player": 0, "slot": 1}]}
        )
        assert config.zone_of(0).kind == OTHER_HAND
    finally:
        remove_bundle("raid-too")


def test_a_reader_the_running_game_has_no_place_for_is_not_played(session, registry, clock):
    from companion.observations import ReaderId, TagSeen, TagUid
    from companion.table import Table

    from .table_fakes import TOY_READERS, toy_game

    config = TableConfig(settle_ms=10, readers=(*TOY_READERS, HAND.zone(reader=9, player=0)))
    table = Table(session, config, registry, clock=clock, games=lambda game: toy_game(ToyMapper()))
    registry.enrol(TagUid("04AA"), "toy", "grunt")
    session.current = toy_view()
    table.observe(TagSeen(ReaderId(9), TagUid("04AA"), clock()))
    clock.advance(0.02)
    table.pump()
    assert session.sent == []
    assert "Toy has no hand: reader 9 is not played" in session.notices()
