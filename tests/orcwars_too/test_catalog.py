"""The game's data: the starter counters and board marked as invented, the rules' numbers with the lines
they come from, the readings as choices, the owner's overrides (and the engine built over them), the dice."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.dice import Dice
from companion.engine import SetupError, data_digest
from companion.games import find_bundle, find_game
from companion.games.orcwars_too.catalog import CatalogError, default_data, load_data
from companion.games.orcwars_too.counters import ASSUMED, Kind
from companion.games.orcwars_too.engine import OrcwarsToo

INVENTED = "assumed — invented starter value, owner to replace from the physical counters"


def test_the_marker_of_invented_values_is_the_agreed_sentence() -> None:
    assert ASSUMED == INVENTED


def test_every_starter_counter_caravan_and_territory_says_it_is_invented() -> None:
    data = default_data()
    for counter in data.counters:
        assert counter.provenance.get("all") == INVENTED, counter.id
    for caravan in data.caravans:
        assert caravan.provenance.get("all") == INVENTED, caravan.id
    for territory in data.board:
        assert territory.provenance.get("all") == INVENTED, territory.id


def test_every_rules_value_names_its_line_a_reading_or_that_it_is_assumed() -> None:
    provenance = default_data().rules.provenance
    assert provenance
    for key, text in provenance.items():
        assert text.startswith(("rulebook: line", "rulebook: lines", "reading:", "assumed")), key
    assert provenance["victory.lands"].startswith("rulebook: line 266")
    assert INVENTED in provenance["survivability.die"]


def test_the_numbers_the_text_gives() -> None:
    rules = default_data().rules
    assert (rules.setup_units, rules.bosses) == (6, (1, 2))
    assert (rules.free_draws, rules.extra_draws, rules.extra_cost, rules.redraws, rules.redraw_size) == (
        3,
        2,
        2,
        3,
        6,
    )
    assert rules.hand_limit == 10 and rules.always_fails == 8 and rules.authority_die == "d8"
    assert rules.caravan_power == (1, 1, 2, 2, 3, -1)
    assert (rules.charge_at_most, rules.careful_at_most) == (3, 5)
    assert dict(rules.stupidity) == {"charge": 1, "careful": 1, "clever": 2}
    assert (rules.surrender_at_most, rules.regenerates_at_least) == (2, 5)
    assert (rules.victory_lands, rules.victory_leaders) == (12, 5)
    assert rules.big_races == ("troll", "ogre") and rules.small_races == ("kobold", "goblin")


def test_the_readings_taken_are_choices_in_the_data() -> None:
    rules = default_data().rules
    assert rules.retreat == "losses" and rules.end_condition == "either"
    assert {u.effect for u in rules.spy_uses} <= {"steal-gold", "table"}
    assert rules.caravan_strategy == ("charge", "careful", "clever")


def test_the_box_has_every_kind_of_counter_and_no_chip_twice() -> None:
    data = default_data()
    kinds = {c.kind for c in data.counters}
    assert kinds == set(Kind)
    ids = [c.id for c in data.counters] + [c.id for c in data.caravans]
    assert len(ids) == len(set(ids))
    assert any(t.orcland for t in data.board) and any(not t.orcland for t in data.board)
    assert len(data.board.underground) == 18 and not data.board.has_adjacency


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "owner.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_owner_corrects_a_counter_and_a_reading(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
[[troops]]
id = "red-orcs"
power = 3
provenance.power = "owner: the Red Orcs chip in my box reads 3"

[aftermath]
retreat = "attacker"
provenance.retreat = "owner: our table reads line 253 as the attacker always"
""",
    )
    data = load_data(path)
    assert all(c.power == 3 for c in data.counters if c.type == "red-orcs")
    assert data.counter("red-orcs#1").provenance["power"].startswith("owner:")
    assert data.counter("red-orcs#1").provenance["all"] == INVENTED  # its other values are still invented
    assert data.rules.retreat == "attacker"


def test_the_owner_replaces_the_whole_mix(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
replace = ["troops"]
[[troops]]
id = "black-orcs"
name = "Black Orcs"
race = "orc"
power = 4
native = "black-mountain"
copies = 2
provenance.all = "owner: counted from the box"
""",
    )
    data = load_data(path)
    troops = [c for c in data.counters if c.kind is Kind.TROOP]
    assert [c.id for c in troops] == ["black-orcs#1", "black-orcs#2"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[[troops]]\nid = "red-orcs"\npower = 3\n', "provenance.power"),
        ('[[troops]]\nid = "red-orcs"\nstrength = 3\nprovenance.all = "x"\n', "no field 'strength'"),
        ('[[leaders]]\nid = "thar"\nauthority = 9\nprovenance.authority = "x"\n', "authority must be"),
        ('[[troops]]\nid = "red-orcs"\nnative = "atlantis"\nprovenance.native = "x"\n', "no territory"),
        ('[aftermath]\nretreat = "nobody"\nprovenance.retreat = "x"\n', "retreat must be one of"),
        ('[aftermath]\nretreat = "attacker"\n', "provenance.retreat"),
        ("[nonsense]\nx = 1\n", "no section"),
        ('remove = { troops = ["unicorns"] }\n', "unknown ids"),
        (
            '[[territories]]\nid = "kol"\nadjacent = ["high-gobliny"]\nprovenance.all = "x"\n',
            "every territory or for none",
        ),
        ("this is not toml", "cannot read"),
    ],
)
def test_a_bad_overrides_file_says_what_is_wrong(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(CatalogError, match=message):
        load_data(write(tmp_path, text))


def test_the_engine_plays_over_the_owners_data_with_its_digest(tmp_path: Path) -> None:
    path = write(tmp_path, '[setup]\nunits = 5\nprovenance.units = "owner: our house plays five"\n')
    engine = find_game("orcwars-too", path)
    assert isinstance(engine, OrcwarsToo) and engine.data.rules.setup_units == 5
    assert engine.rules_version == f"{OrcwarsToo().rules_version}+owner-{data_digest(path.read_bytes())}"
    bad = write(tmp_path, "[setup]\nunits = 0\n")
    with pytest.raises(SetupError, match="ORCWARS TOO! data"):
        OrcwarsToo.with_owner_data(bad)


def test_the_dice_the_game_asks_for_are_all_known_to_the_table() -> None:
    dice = Dice.load()
    for game_die in ("d3", "d6", "d8", "d20"):
        assert any(d.answers_die(game_die) for d in dice), game_die
    d3 = dice["d3"]
    assert sorted(set(d3.faces)) == ["1", "2", "3"] and "faces" in d3.provenance
    assert find_bundle("orcwars-too").dice_path() is not None
