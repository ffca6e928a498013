"""The card catalog: the rulebook's facts hold, every value is sourced, bad files are refused clearly."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from companion.games.chaos_marauders.cards import Colour, Part, Role
from companion.games.chaos_marauders.catalog import (
    Ability,
    CatalogError,
    catalog_from_data,
    catalog_from_toml,
    catalog_to_toml,
    default_path,
    load_catalog,
    read_toml,
)
from companion.games.chaos_marauders.catalog import (
    card as catalog_card,
)

CATALOG = load_catalog()

TITLES_IN_THE_TEXTS = [
    "Crummy Snotling Slaves",
    "Hobgoblin Standard",
    "Hobgoblin Musician",
    "Orc Regimental Standard",
    "Orc Regimental Musician",
    "Grivziz Dirtballs",
    "Hak Veinthrob's Volunteers",
    "Spattznatt's Suicide Squad",
    "Claws of Malal",
    "Bozlum Pigstickers",
    "Shaman of Aaaaaaaag",
    "Chaos Marauders",
    "Blightskabb Plague Lords",
    "Venemous Creeps",
    "Horned Rat Standard",
    "Dagromm Flailbreath",
    "Sneaky Git",
    "Odlugg Spleenripper",
    "Idol",
    "Bilge Guttrot",
    "Skyrr's Blowback",
    "Garok Varokroksenrok",
    "Monggo's Meat Grinders",
    "Shotti",
    "Spittledung XXXXX",
    "Spoil Heap",
]


def packaged_data() -> dict[str, Any]:
    return copy.deepcopy(read_toml(default_path()))


def card_entry(data: dict[str, Any], card_id: str) -> dict[str, Any]:
    return next(entry for entry in data["cards"] if entry["id"] == card_id)


def test_the_deck_holds_110_cards() -> None:
    assert CATALOG.deck_size == 110
    assert len(CATALOG.deck()) == 110


@pytest.mark.parametrize("title", TITLES_IN_THE_TEXTS)
def test_every_title_in_the_rules_texts_is_in_the_catalog(title: str) -> None:
    assert CATALOG[title].title == title


def test_victory_point_chart_values_are_printed_on_the_cards() -> None:
    chart = {
        "Chaos Marauders": 10,
        "Garok Varokroksenrok": 100,
        "Idol": 90,
        "Monggo's Meat Grinders": 80,
        "Shotti": 110,
        "Spittledung XXXXX": 50,
        "Spoil Heap": 40,
    }
    assert {title: CATALOG[title].vp for title in chart} == chart
    others = [card for card in CATALOG if card.title not in chart]
    assert all(card.vp == 0 for card in others)


def test_plague_lords_are_four_and_rate_two_each() -> None:
    lords = CATALOG["blightskabb-plague-lords"]
    assert (lords.copies, lords.attack, lords.ability) == (4, 2, Ability.PLAGUE_LORDS)
    assert lords.line_duplicates


def test_bilge_guttrot_has_attack_rating_two() -> None:
    assert CATALOG["Bilge Guttrot"].attack == 2


def test_a_complete_smasher_rates_ten_on_every_card() -> None:
    assert [card.attack for card in CATALOG.machine("Smasher")] == [10, 10, 10]


def test_war_machines_are_three_card_sets_except_the_two_card_boneshaker() -> None:
    sets = {name: [card.part for card in CATALOG.machine(name)] for name in CATALOG.machines}
    three = [Part.LEFT, Part.RIGHT, Part.CREW]
    assert sets == {
        "Smasher": three,
        "Bomber": three,
        "Chucker": three,
        "Knocker": three,
        "Ockee": three,
        "Boneshaker": [Part.LEFT, Part.RIGHT],
    }
    assert "assumed" in CATALOG["boneshaker-left"].provenance["part"]
    assert all(card.colour is Colour.RED and card.copies == 1 for card in CATALOG if card.machine)


def test_duplicates_share_a_symbol_and_unique_cards_have_none() -> None:
    for card in CATALOG:
        assert (card.symbol is None) == (card.copies == 1), card.id
    symbols = [card.symbol for card in CATALOG if card.symbol]
    assert len(symbols) == len(set(symbols))


def test_standards_and_musicians_have_their_role() -> None:
    standards = {card.title for card in CATALOG if card.role is Role.STANDARD}
    musicians = {card.title for card in CATALOG if card.role is Role.MUSICIAN}
    assert standards == {"Hobgoblin Standard", "Orc Regimental Standard", "Horned Rat Standard"}
    assert musicians == {"Hobgoblin Musician", "Orc Regimental Musician"}
    assert CATALOG["Horned Rat Standard"].colour is Colour.GREEN


def test_grey_goblin_cards_have_no_attack_rating_and_no_points() -> None:
    greys = [card for card in CATALOG if card.colour is Colour.GREY]
    assert greys and all(card.attack is None and card.vp == 0 for card in greys)


def test_every_value_records_where_it_came_from() -> None:
    for card in CATALOG:
        for key in ("colour", "copies", "attack", "vp", "symbol"):
            assert card.provenance[key].startswith(("rulebook", "card reference", "assumed")), (card.id, key)


def test_cards_look_up_by_id_or_title_in_any_case() -> None:
    assert CATALOG["spittledung-xxxxx"] is CATALOG["SPITTLEDUNG xxxxx"] is CATALOG.card("spittledung-xxxxx")


def test_a_card_repr_can_be_pasted_back() -> None:
    card = CATALOG["Bozlum Pigstickers"]
    assert eval(repr(card), {"card": catalog_card}) == card


def test_the_default_catalog_is_loaded_once() -> None:
    assert load_catalog() is load_catalog()


def test_the_packaged_file_round_trips_through_toml_text() -> None:
    assert catalog_from_toml(default_path().read_text()) == CATALOG


def test_an_unknown_colour_is_refused() -> None:
    data = packaged_data()
    card_entry(data, "shotti")["colour"] = "gold"
    with pytest.raises(CatalogError, match=r"card 'shotti': unknown colour 'gold'"):
        catalog_from_data(data)


def test_copies_must_add_up_to_the_declared_deck_size() -> None:
    data = packaged_data()
    card_entry(data, "claws-of-malal")["copies"] = 9
    with pytest.raises(CatalogError, match="add up to 111, but \\[deck\\] size is 110"):
        catalog_from_data(data)


def test_an_incomplete_war_machine_set_is_refused() -> None:
    data = packaged_data()
    data["cards"] = [entry for entry in data["cards"] if entry["id"] != "bomber-right"]
    data["deck"]["size"] = 109
    with pytest.raises(CatalogError, match="war machine 'Bomber' needs one left and one right part"):
        catalog_from_data(data)


def test_a_value_without_provenance_is_refused() -> None:
    data = packaged_data()
    del card_entry(data, "idol")["provenance"]["vp"]
    with pytest.raises(CatalogError, match="card 'idol': provenance of 'vp'"):
        catalog_from_data(data)


def test_a_misspelt_field_is_refused() -> None:
    data = packaged_data()
    card_entry(data, "idol")["atack"] = 3
    with pytest.raises(CatalogError, match="unknown field"):
        catalog_from_data(data)


def test_a_multi_copy_card_without_symbol_is_refused() -> None:
    data = packaged_data()
    del card_entry(data, "sneaky-git")["symbol"]
    with pytest.raises(CatalogError, match="symbol exactly when it has several copies"):
        catalog_from_data(data)


def test_a_missing_catalog_file_is_a_catalog_error(tmp_path: Path) -> None:
    with pytest.raises(CatalogError, match="cannot read the catalog"):
        load_catalog(tmp_path / "nope.toml")


def test_an_unreadable_catalog_file_is_a_catalog_error(tmp_path: Path) -> None:
    path = tmp_path / "cards.toml"
    path.write_text("[deck\n")
    with pytest.raises(CatalogError, match="not valid TOML"):
        load_catalog(path)


def test_an_owner_override_corrects_assumed_values(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text(
        '[[cards]]\nid = "claws-of-malal"\ncopies = 7\nattack = 8\n'
        '[cards.provenance]\ncopies = "assumed: counted in my box"\nattack = "assumed: printed 8"\n'
        '[[cards]]\nid = "spoil-heap"\ncopies = 3\n'
        '[cards.provenance]\ncopies = "assumed: counted in my box"\n'
    )
    catalog = load_catalog(overrides=path)
    assert (catalog["claws-of-malal"].copies, catalog["claws-of-malal"].attack) == (7, 8)
    assert catalog["claws-of-malal"].provenance["attack"] == "assumed: printed 8"
    assert catalog.deck_size == 110


def test_an_override_without_its_source_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text('[[cards]]\nid = "claws-of-malal"\nattack = 8\n')
    with pytest.raises(CatalogError, match="override of 'attack' needs a provenance entry"):
        load_catalog(overrides=path)


def test_a_catalog_written_as_toml_reads_back_equal_with_its_sources() -> None:
    again = catalog_from_toml(catalog_to_toml(CATALOG))
    assert again == CATALOG
    assert [card.provenance for card in again] == [card.provenance for card in CATALOG]


@pytest.mark.parametrize(
    ("spelling", "card_id"),
    [
        ("Skyrr’s Blowback", "skyrrs-blowback"),  # as the card reference prints it
        ("Hak Veinthrob’s Volunteers", "hak-veinthrobs-volunteers"),
        ("Spattznatt‘s Suicide Squad", "spattznatts-suicide-squad"),
        ("Monggo′s Meat Grinders", "monggos-meat-grinders"),
        ("Skyrr´s Blowback", "skyrrs-blowback"),
        ("Skyrr＇s Ｂlowback", "skyrrs-blowback"),  # fullwidth
        ("  monggo's   MEAT grinders ", "monggos-meat-grinders"),
        ("Claws\u00a0of\tMalal", "claws-of-malal"),
        ("Venomous Creeps", "venemous-creeps"),  # card reference, Da Whozit Sekshun
        ("VENOMOUS  creeps", "venemous-creeps"),
        ("Bilge ‘No Remorse’ Guttrott", "bilge-guttrot"),
        ("Bilge 'No Remorse' Guttrott", "bilge-guttrot"),
    ],
)
def test_a_title_looks_up_in_any_typographic_spelling_and_the_texts_other_spellings(
    spelling: str, card_id: str
) -> None:
    """Titles match whatever the quotes (curly or straight), case and spacing; the spellings the rules
    texts use besides the title are the card's aliases (card reference, Da Whozit Sekshun: "Venomous
    Creeps", "Bilge ‘No Remorse’ Guttrott")."""
    assert spelling in CATALOG
    assert CATALOG[spelling].id == card_id


@pytest.mark.parametrize("title", TITLES_IN_THE_TEXTS)
def test_every_title_looks_up_as_the_texts_print_it_with_curly_apostrophes(title: str) -> None:
    assert CATALOG[title.replace("'", "’")].title == title


@pytest.mark.parametrize("spelling", ["Venomous Creep", "Skyrrs Blowback", "Bilge", "Sneaky-Gitz", ""])
def test_names_that_are_no_card_are_still_refused(spelling: str) -> None:
    assert spelling not in CATALOG
    with pytest.raises(KeyError, match="unknown card"):
        CATALOG[spelling]


def test_aliases_are_data_with_their_provenance() -> None:
    creeps = CATALOG["venemous-creeps"]
    assert creeps.aliases == ("Venomous Creeps",)
    assert creeps.provenance["aliases"].startswith("card reference: Da Whozit Sekshun")
    assert creeps.to_json()["aliases"] == ["Venomous Creeps"]


def test_an_alias_without_provenance_is_refused() -> None:
    data = packaged_data()
    card_entry(data, "shotti")["aliases"] = ["Shoti"]
    with pytest.raises(CatalogError, match="card 'shotti': provenance of 'aliases'"):
        catalog_from_data(data)


def test_an_alias_spelling_another_cards_name_is_refused() -> None:
    data = packaged_data()
    entry = card_entry(data, "shotti")
    entry["aliases"] = ["SPOIL  heap"]
    entry["provenance"]["aliases"] = "assumed: a test"
    with pytest.raises(CatalogError, match="alias 'spoil heap' is already used by 'shotti'"):
        catalog_from_data(data)


def test_aliases_must_be_a_list_of_texts() -> None:
    data = packaged_data()
    entry = card_entry(data, "shotti")
    entry["aliases"] = "Shoti"
    entry["provenance"]["aliases"] = "assumed: a test"
    with pytest.raises(CatalogError, match="aliases must be a list of non-empty texts"):
        catalog_from_data(data)
