"""The game data: every value with its provenance, the rules text's own examples, the owner's overrides."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.engine import SetupError
from companion.games import find_game
from companion.games.shattered_chaos.catalog import COLOURS, CatalogError, Face
from companion.games.shattered_chaos.data_loading import default_catalog, load_catalog
from companion.games.shattered_chaos.engine import ShatteredChaos

CAT = default_catalog()


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "owner.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_chaos_value_examples_of_the_rules_text() -> None:
    """V.A.7, lines 566 and 576: Deadeye with 3 chaos tokens has 5 chaos; Mender with none has 4."""
    assert CAT.chaos_value("deadeye", 3) == 5
    assert CAT.chaos_value("mender", 0) == 4


def test_three_ledgers_each_shared_by_two_adventurers() -> None:
    """V.A.7, line 515: 3 chaos ledgers, 2 of the 6 adventurers share each; up to 4 tokens (line 518)."""
    ledgers = [a.ledger for a in CAT.adventurers]
    assert len(CAT.adventurers) == 6 and sorted(ledgers.count(x) for x in set(ledgers)) == [2, 2, 2]
    assert all(len(ledger.values) == CAT.rules.ledger_tokens == 4 for ledger in CAT.ledgers)


def test_the_dice_faces_the_text_gives() -> None:
    """V.C, lines 1055-1057: yellow and red show one vortex on 3 sides, blue two vortices on one side."""
    for colour in ("yellow", "red"):
        vortices = [f.vortices for f in CAT.die(colour).faces]
        assert sorted(vortices, reverse=True)[:3] == [1, 1, 1] and sum(vortices) == 3
    blue = [f.vortices for f in CAT.die("blue").faces]
    assert blue.count(2) == 1 and sum(blue) == 2


def test_a_face_reads_its_colour_eyes_and_vortices() -> None:
    assert Face.parse("blue:0vv") == Face("blue", 0, 2)
    assert Face.parse("red:3v").symbol == "red:3v"
    assert Face.parse("yellow:2").describe() == "yellow 2"
    with pytest.raises(CatalogError):
        Face.parse("green:1")


def test_the_first_talents_of_the_six_adventurers() -> None:
    """V.E, lines 1115-1233: +2 armour, +2 range, +1 life, ±2 vortices, a step before actions, +1 damage."""
    talents = {a.name: CAT.talent(a.talent) for a in CAT.adventurers}
    assert (talents["Bastion"].bonus, talents["Bastion"].amount) == ("armour", 2)
    assert (talents["Deadeye"].bonus, talents["Deadeye"].amount) == ("range", 2)
    assert (talents["Mender"].bonus, talents["Mender"].amount) == ("life", 1)
    assert (talents["Raider"].bonus, talents["Raider"].amount) == ("vortex", 2)
    assert (talents["Stalker"].bonus, talents["Stalker"].amount) == ("step", 1)
    assert (talents["Thrasher"].bonus, talents["Thrasher"].amount) == ("damage", 1)


def test_enemy_values_the_text_gives() -> None:
    """VI.A.6 line 1758: gremlins have 7 lives with 4 adventurers; X.2 line 3004: trolls 20 with 5, big."""
    assert CAT.enemy("gremlin").lives[4] == 7
    troll = CAT.enemy("troll")
    assert troll.lives[5] == 20 and troll.big
    assert {21, 22, 23} <= set(CAT.enemy("gremlin").models)  # VII.2 line 2592


def test_36_bronze_chaos_cards_in_three_stacks() -> None:
    """V.G line 1547 and VIII.5 line 2634: bronze chaos cards 1 to 36; three stacks (line 1405)."""
    bronze = CAT.bronze()
    assert [c.number for c in bronze] == list(range(1, 37))
    assert set(CAT.stacks) == {"defensive", "offensive", "flexible"}
    assert {c.bonus for c in bronze if c.stack == "defensive"} <= {"armour", "life"}
    assert {c.bonus for c in bronze if c.stack == "offensive"} <= {"vortex", "damage"}
    assert {c.bonus for c in bronze if c.stack == "flexible"} <= {"range", "step"}


def test_a_silver_card_not_entered_is_its_bronze_card_upgraded() -> None:
    silver = CAT.card("s7")
    assert (silver.number, silver.stack, silver.bonus) == (7, CAT.card("b7").stack, CAT.card("b7").bonus)
    assert silver.amount == CAT.card("b7").amount + CAT.upgrades["silver"]
    assert silver.provenance.startswith("assumed")


def test_every_value_says_where_it_comes_from() -> None:
    for hero in CAT.adventurers:
        assert {"talent", "ledger", "life", "armour"} <= set(hero.provenance)
    for enemy in CAT.enemies:
        assert {"lives", "armour", "models", "reactions", "phase"} <= set(enemy.provenance)
        assert all(v.startswith(("rules text", "assumed")) for v in enemy.provenance.values())
    for card in CAT.cards:
        assert card.provenance.startswith(("rules text", "assumed"))
    for colour in COLOURS:
        assert CAT.die(colour).provenance.startswith("rules text")
    assert all(s.provenance["cards"] for s in CAT.sections)
    assert set(CAT.rules.provenance) >= {"action_tokens", "stun_vortices", "critical_vortices"}


def test_the_behaviour_tables_end_in_an_action_always_possible() -> None:
    """VI.C line 2346: the last listed action in the first column can always be performed."""
    for enemy in CAT.enemies:
        for table in (enemy.reactions, enemy.phase):
            assert table[-1][0].kind in ("move", "retreat")


def test_the_owner_corrects_values_with_their_provenance(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
[[adventurers]]
id = "bastion"
start_life = 11
max_life = 13
provenance = "my box: the red digit is 11"

[[enemies]]
id = "gremlin"
lives = { 4 = 6, 5 = 9 }
provenance.lives = "the gremlin card"

[[damage_tables]]
adventurers = 5
rows = [{ from = 0, spaces = 5 }, { from = 10, spaces = 2 }]
provenance.rows = "the round counter's table for 5"

[dice.sc-blue]
faces = ["blue:1", "blue:2", "blue:3", "blue:4", "blue:6", "blue:0vv"]
provenance.faces = "my blue die"
""",
    )
    cat = load_catalog(overrides=path)
    assert (cat.adventurer("bastion").start_life, cat.adventurer("bastion").max_life) == (11, 13)
    assert cat.adventurer("bastion").provenance["start_life"] == "my box: the red digit is 11"
    assert cat.enemy("gremlin").lives == {4: 6, 5: 9}
    assert [r.spaces for r in cat.damage_tables[5].rows] == [5, 2]
    assert "blue:6" in cat.die("blue").symbols
    engine = find_game("shattered-chaos", path)
    assert isinstance(engine, ShatteredChaos) and engine.catalog.adventurer("bastion").start_life == 11
    assert "owner-" in engine.rules_version and engine.rules_version != ShatteredChaos().rules_version


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[[adventurers]]\nid = "bastion"\nstart_life = 11\n', "say where"),
        ('[[adventurers]]\nid = "bastion"\nstart_life = 99\nprovenance = "x"\n', "max_life"),
        ('[[enemies]]\nid = "gremlin"\nsize = "huge"\nprovenance = "x"\n', "size"),
        ('[dice.sc-green]\nfaces = ["green:1"]\n', "the dice are"),
        ('[dice.blue]\nfaces = ["blue:1"]\nprovenance = "x"\n', "as the table names them: sc-yellow"),
        ('[dice.sc-red]\nfaces = ["red:1", "blue:2"]\nprovenance = "x"\n', "every face names the red die"),
        ("[mystery]\nx = 1\n", "unknown sections"),
        ('[[talents]]\nid = "new"\ntitle = "x"\nbonus = "luck"\namount = 1\nprovenance = "x"\n', "bonus"),
        ("this is not toml [", "cannot read"),
    ],
)
def test_an_unusable_overrides_file_is_one_sentence(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(CatalogError, match=message):
        load_catalog(overrides=path)
    with pytest.raises(SetupError, match=message):
        ShatteredChaos.with_owner_data(path)


def test_a_new_talent_and_a_silver_card_join_the_data(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
[[talents]]
id = "iron-will"
title = "+1 armour against enemy attacks"
bonus = "armour"
amount = 1
provenance = "talent card of the second adventure"

[[cards]]
id = "s3"
number = 3
value = "silver"
stack = "defensive"
bonus = "armour"
amount = 3
provenance = "silver card 3"
""",
    )
    cat = load_catalog(overrides=path)
    assert cat.talent("iron-will").amount == 1
    assert cat.card("s3").amount == 3 and cat.card("s3").provenance == "silver card 3"
