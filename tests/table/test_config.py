"""The ``[table]`` section: reader zones and timing windows, checked on load."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games.chaos_marauders.zones import DISCARD, LINE, PAD
from companion.table import TableConfig, TableConfigError

EXAMPLE = """
[table]
settle_ms = 250
removal_ms = 500

[[table.readers]]
reader = 0
zone = "line"
player = 0
line = 0

[[table.readers]]
reader = 1
zone = "line"
player = 1
line = 2
slot = 4

[[table.readers]]
reader = 7
zone = "discard"

[[table.readers]]
reader = 8
zone = "pad"

[table.buttons]
"0" = "shout:0"
"4" = "undo"

[table.dice]
"0" = "d20"
"1" = ["cube", "heroscape-combat"]
"""


def test_the_example_section_loads(tmp_path: Path):
    path = tmp_path / "table.toml"
    path.write_text(EXAMPLE)
    config = TableConfig.load(path)
    assert (config.settle_ms, config.removal_ms, config.roll_window_ms) == (250, 500, 3000)
    assert config.zone_of(1) == LINE.zone(reader=1, player=1, line=2, slot=4)
    assert config.zone_of(7).kind is DISCARD
    assert config.zone_of(8).kind is PAD
    assert config.zone_of(3) is None
    assert (config.button_role("0"), config.button_role("4"), config.button_role("next")) == (
        "shout:0",
        "undo",
        "next",
    )
    assert config.dice == ((0, ("d20",)), (1, ("cube", "heroscape-combat")))


def test_a_missing_section_gives_the_defaults(tmp_path: Path):
    path = tmp_path / "table.toml"
    path.write_text('game = "chaos-marauders"\n')
    assert TableConfig.load(path) == TableConfig()
    assert TableConfig().settle_ms == 300


def test_labels_name_places_as_players_do():
    names = {0: "Grotsnik"}
    assert LINE.zone(reader=0, player=0, line=1).label(names) == "Grotsnik's line 2"
    assert LINE.zone(reader=0, player=1, line=0).label(names) == "P2's line 1"
    assert DISCARD.zone(reader=0).label(names) == "the discard pile"
    assert PAD.zone(reader=0).label(names) == "the play pad"


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ({"readers": [{"reader": 0, "zone": "line", "player": 0}]}, "needs player and line"),
        ({"readers": [{"reader": 0, "zone": "cup"}]}, "is not one of line, discard, pad, army, hand"),
        ({"readers": [{"reader": 0, "zone": "hand"}]}, "a hand zone needs player"),
        ({"readers": [{"reader": 0, "zone": "discard", "line": 1}]}, "a discard zone has no line"),
        ({"readers": [{"zone": "discard"}]}, "needs reader and zone"),
        ({"readers": [{"reader": -1, "zone": "discard"}]}, "whole number from 0"),
        ({"readers": [{"reader": 1, "zone": "pad"}, {"reader": 1, "zone": "discard"}]}, "configured twice"),
        ({"settle_ms": "fast"}, "must be a number"),
        ({"settle_ms": -5}, "cannot be negative"),
        ({"setle_ms": 300}, "unknown keys"),
        ({"buttons": {"0": "shout"}}, "not a button role"),
        ({"buttons": {"0": 1}}, "map device button ids"),
        ({"dice": ["d20"]}, "table.dice must map device die numbers"),
        ({"dice": {"zero": "d20"}}, "map a die number to a die"),
        ({"dice": {"0": []}}, "map a die number to a die"),
        ({"dice": {"0": ["d20", 6]}}, "must name dice of the dice data"),
        ({"dice": {"2": 1}}, "whose die it is is set from a phone"),  # a seat is not which die it is
    ],
)
def test_mistakes_are_named(section, message):
    with pytest.raises(TableConfigError, match=message):
        TableConfig.from_mapping(section)
