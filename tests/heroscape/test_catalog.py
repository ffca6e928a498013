"""The army card data against the numbers the project was given (issue 9) and the rulebook, and the
catalog's checks on the owner's overrides."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games.heroscape.catalog import CatalogError, load_catalog
from companion.games.heroscape.odds import combat_faces

from .rules_support import CAT

# Life / Move / Range / Attack / Defense / Points, figures (issue 9, "Data").
ISSUE_9 = {
    "raelin": (5, 6, 1, 3, 3, 120, 1),
    "sgt-drake-alexander": (6, 6, 1, 6, 4, 170, 1),
    "shiori": (3, 6, 1, 3, 3, 60, 1),
    "sonlen": (6, 5, 6, 4, 3, 160, 1),
    "major-q10": (4, 5, 8, 4, 5, 150, 1),
    "tor-kul-na": (6, 6, 1, 6, 5, 220, 1),
    "marro-hive": (6, 0, 1, 1, 2, 160, 1),
    "marro-stingers": (1, 5, 5, 3, 3, 60, 3),
    "marro-drudge": (1, 5, 5, 2, 2, 50, 3),
    "marrden-nagrubs": (1, 6, 1, 2, 2, 30, 3),
}


@pytest.mark.parametrize("card_id", sorted(ISSUE_9))
def test_every_card_has_the_given_numbers(card_id: str) -> None:
    card = CAT.card(card_id)
    assert (
        card.life,
        card.move,
        card.range,
        card.attack,
        card.defense,
        card.points,
        card.figures,
    ) == ISSUE_9[card_id]


def test_the_box_holds_thirteen_army_cards_and_24_figures_beside_the_hive() -> None:
    """Rulebook, Game Contents: 24 painted figures, 1 painted Hive, 13 Army Cards."""
    assert {c.id for c in CAT.cards} == set(ISSUE_9)
    assert sum(c.copies for c in CAT.cards) == 13
    figures = sum(c.copies * c.figures for c in CAT.cards if c.id != "marro-hive")
    assert figures == 24


def test_the_box_holds_every_army_the_scenarios_set_out() -> None:
    """Rulebook, Source of Corruption: six Stingers, six Drudge and six Nagrubs at once (two cards each)."""
    for scenario in CAT.scenarios:
        for army in scenario.preset:
            for card_id in set(army):
                assert army.count(card_id) <= CAT.card(card_id).copies, (scenario.id, card_id)


def test_unique_heroes_and_common_squads() -> None:
    """Rulebook, Example 1: Unique/Common, Hero/Squad."""
    for card in CAT.cards:
        assert card.unique == card.hero, card.id
        assert card.figures == (1 if card.hero else 3)


def test_double_space_figures_and_shiori_facts() -> None:
    """Rulebook: Major Q10 and Tor-Kul-Na take up two spaces; Shiori is a Medium 4 Unique Hero of Einar."""
    assert CAT.card("major-q10").spaces == CAT.card("tor-kul-na").spaces == 2
    shiori = CAT.card("shiori")
    assert (shiori.general, shiori.species, shiori.size, shiori.height) == ("Einar", "Human", "medium", 4)
    assert shiori.basic["defense"] == 5  # Basic Game, Example 9: Shiori rolls 5 defense dice


def test_shioris_powers_read_as_the_card_prints_them() -> None:
    """Rulebook, Example 1: Concentrated Will, Phantom Walk, Shuriken Special Attack (range 5, 3 dice
    against small or medium figures, 2 against others)."""
    shiori = CAT.card("shiori")
    shuriken = shiori.power("special-attack")
    assert shuriken is not None and shuriken.number("range") == 5
    assert shuriken.params["by_size"] == {"small": 3, "medium": 3} and shuriken.number("attack") == 2
    assert shiori.power("concentrated-will") is not None and shiori.power("disengage") is not None


def test_every_value_says_where_it_comes_from() -> None:
    for card in CAT.cards:
        for key in ("stats", "copies", "facts", "basic"):
            assert card.provenance.get(key), (card.id, key)
        for power in card.powers:
            assert power.provenance, (card.id, power.id)
    for scenario in CAT.scenarios:
        assert scenario.provenance
    for glyph in CAT.glyphs:
        assert glyph.provenance


def test_the_combat_die_has_three_skulls_two_shields_one_blank() -> None:
    faces = combat_faces()
    assert sorted(faces) == sorted(["skull"] * 3 + ["shield"] * 2 + ["blank"])


def test_all_eight_glyphs() -> None:
    """Rulebook, Glyphs Key: eight glyphs, six permanent and two temporary."""
    assert {g.id for g in CAT.glyphs} == {
        "ulaniva",
        "crevcor",
        "wannok",
        "thorian",
        "proftaka",
        "brandar",
        "nilrend",
        "ored",
    }
    assert {g.id for g in CAT.glyphs if not g.permanent} == {"nilrend", "ored"}
    assert CAT.glyph("nilrend").fails_below == 5 and CAT.glyph("ored").fails_below == 10


def test_an_override_changes_a_value_that_says_where_it_comes_from(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text('[[cards]]\nid = "shiori"\npoints = 65\nprovenance.points = "my card"\n')
    assert load_catalog(path).card("shiori").points == 65


def test_an_override_without_provenance_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text('[[cards]]\nid = "shiori"\npoints = 65\n')
    with pytest.raises(CatalogError, match=r"provenance\.points"):
        load_catalog(path)


def test_an_override_of_an_unknown_card_or_field_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text('[[cards]]\nid = "nobody"\n')
    with pytest.raises(CatalogError, match="names no army card"):
        load_catalog(path)
    path.write_text('[[cards]]\nid = "shiori"\ncolour = "red"\nprovenance.colour = "x"\n')
    with pytest.raises(CatalogError, match="no field 'colour'"):
        load_catalog(path)
