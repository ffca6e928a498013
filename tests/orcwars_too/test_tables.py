"""Combat step 2.2: the two ratio tables cell by cell against the rules text, the text's example, fortress
absorption, the war machine, the castle, and the stars (leaders hacked to pieces)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.games.orcwars_too.counters import STRATEGIES
from companion.games.orcwars_too.tables import Cell, Ratio, TableError, damage, default_tables

RULES = Path("/work/shared/rules/orcwars-too-house-rules.txt")
# The text's two tables as printed (lines 217-220 and 227-230), kept here so the test runs where the
# rules text is not at hand; where it is, test_the_quoted_lines_are_the_rules_texts checks the quote.
FIELD_LINES = {
    217: " Attacker:  |  Charge          Careful          Strategy          ",
    218: "  Charge    | 1:1* - 1:1*     1:5* - 1:2*      1:1* - 1:5",
    219: "  Careful   | 1:2* - 1:5*     1:2  - 1:2       1:5  - 1:2",
    220: "  Strategy  | 1:5  - 1:1*     1:2  - 1:5       1:5  - 1:5",
}
FORTRESS_LINES = {
    227: " Attacker:  |  Charge          Careful          Strategy          ",
    228: "  Charge    | 1:1* - 1:1*     1:1  - 1:5       1:5* - 1:1",
    229: "  Careful   | 1:2  - 1:1*     1:2  - 1:5       1:1  - 1:5",
    230: "  Strategy  | 1:1  - 1:5*     1:5  - 1:1*      1:5  - 1:5",
}
ROW = {"Charge": "charge", "Careful": "careful", "Strategy": "clever"}


def cells_of(lines: dict[int, str]) -> dict[tuple[str, str], str]:
    out = {}
    for text in list(lines.values())[1:]:
        label, _, rest = text.partition("|")
        found = re.findall(r"1:\d\*?\s*-\s*1:\d\*?", rest)
        assert len(found) == 3, text
        for defender, cell in zip(STRATEGIES, found, strict=True):
            out[(ROW[label.strip()], defender)] = re.sub(r"\s*-\s*", " - ", cell)
    return out


@pytest.mark.skipif(not RULES.exists(), reason="the rules text is not on this machine")
def test_the_quoted_lines_are_the_rules_texts() -> None:
    lines = RULES.read_text(encoding="utf-8").splitlines()
    for number, text in {**FIELD_LINES, **FORTRESS_LINES}.items():
        assert lines[number - 1].rstrip() == text.rstrip(), f"line {number}"


@pytest.mark.parametrize(("name", "lines"), [("field", FIELD_LINES), ("fortress", FORTRESS_LINES)])
def test_every_cell_of_the_data_is_the_texts(name: str, lines: dict[int, str]) -> None:
    tables = default_tables()
    printed = cells_of(lines)
    assert len(printed) == 9
    for (attacker, defender), text in printed.items():
        assert str(tables.cell(name, attacker, defender)) == text, (name, attacker, defender)


def test_the_texts_example_power_23_charging_against_power_11_clever() -> None:
    """Line 224: 11 damage to the chargers, only 4 to the strategists, whoever attacks."""
    charging = damage(23, "charge", 11, "clever")
    assert (charging.damage_to_attacker, charging.damage_to_defender) == (11, 4)
    assert charging.attacker_hacked and not charging.defender_hacked
    defending = damage(11, "clever", 23, "charge")
    assert (defending.damage_to_attacker, defending.damage_to_defender) == (4, 11)
    assert defending.defender_hacked and not defending.attacker_hacked


def test_fractions_are_rounded_down() -> None:
    """Line 216: 1:2 of 7 is 3, 1:5 of 9 is 1."""
    result = damage(9, "careful", 7, "careful")
    assert (result.damage_to_attacker, result.damage_to_defender) == (3, 4)
    assert damage(9, "clever", 4, "clever").damage_to_defender == 1


def test_the_fortress_absorbs_its_rating() -> None:
    """Line 241: against fortress 4 the damage is reduced by 4 (clever against careful: 1:5 - 1:1*)."""
    result = damage(12, "clever", 10, "careful", fortress=4)
    assert result.table == "fortress"
    assert result.raw_damage_to_defender == 12 and result.absorbed == 4 and result.damage_to_defender == 8
    assert result.defender_hacked


def test_a_charging_defender_loses_the_castle_bonus() -> None:
    """Line 232: if defender charges, castle bonus is lost."""
    result = damage(12, "careful", 10, "charge", fortress=4)
    assert result.absorbed == 0 and result.damage_to_defender == 12


def test_one_war_machine_negates_the_fortress_up_to_its_power() -> None:
    """Line 243: the war machine negates the fortress bonus equal to its power."""
    assert damage(12, "clever", 10, "careful", fortress=4, war_machine=3).absorbed == 1
    assert damage(12, "clever", 10, "careful", fortress=4, war_machine=6).absorbed == 0


def test_the_castle_falls_when_the_damage_exceeds_defender_power_and_rating() -> None:
    """Line 243: total damage above the defender's power plus the castle's rating destroys the castle."""
    assert damage(15, "clever", 10, "careful", fortress=4).castle_destroyed  # 15 > 14
    assert not damage(14, "clever", 10, "careful", fortress=4).castle_destroyed  # 14 is not above 14
    assert not damage(50, "clever", 10, "careful").castle_destroyed  # no fortress, no castle


def test_the_field_table_is_symmetric_between_the_sides() -> None:
    tables = default_tables()
    for a in STRATEGIES:
        for d in STRATEGIES:
            cell, mirror = tables.cell("field", a, d), tables.cell("field", d, a)
            assert (cell.attacker, cell.defender) == (mirror.defender, mirror.attacker)


@pytest.mark.parametrize("text", ["1:3", "2:1", "1:1**", "", "one"])
def test_a_ratio_outside_the_three_is_refused(text: str) -> None:
    with pytest.raises(TableError):
        Ratio.parse(text)


def test_cells_round_trip() -> None:
    for text in ("1:1* - 1:5", "1:2 - 1:2", "1:5 - 1:1*"):
        assert str(Cell.parse(text)) == text


def test_bad_strategies_and_negative_powers_are_refused() -> None:
    with pytest.raises(ValueError, match="strategy"):
        damage(5, "run", 5, "charge")
    with pytest.raises(ValueError, match="negative"):
        damage(-1, "charge", 5, "charge")
