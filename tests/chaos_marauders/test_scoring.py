"""End-of-game scoring against the Victory Point Chart and the rulebook's worked example."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from companion.games.chaos_marauders.catalog import LINE_SLOTS, load_catalog
from companion.games.chaos_marauders.lines import EMPTY_LINE, Line, tribe_error
from companion.games.chaos_marauders.scoring import (
    IdolRollsError,
    ScoringError,
    Tribe,
    copies_error,
    idol_points,
    line_bonus,
    score_line,
    score_table,
    score_tribe,
)

from .strategies import complete_lines, legal_lines

CATALOG = load_catalog()


def line_of(*cards: str | None, start: int = 0) -> Line:
    padded = (None,) * start + cards
    return padded + (None,) * (LINE_SLOTS - len(padded))


EXAMPLE_TOP = line_of(
    "hobgoblin-standard",
    "spoil-heap",
    "spittledung-xxxxx",
    "smasher-left",
    "smasher-right",
    "smasher-crew",
    "grivziz-dirtballs",
    "hak-veinthrobs-volunteers",
    "claws-of-malal",
    "spattznatts-suicide-squad",
    "crummy-snotling-slaves",
    "hobgoblin-musician",
)
EXAMPLE_MIDDLE = line_of("shotti", "claws-of-malal", "bozlum-pigstickers", "crummy-snotling-slaves", start=2)
EXAMPLE_BOTTOM = line_of(
    "orc-regimental-standard",
    "grivziz-dirtballs",
    "hak-veinthrobs-volunteers",
    "spattznatts-suicide-squad",
    "orc-regimental-musician",
)
EXAMPLE = Tribe("Gorbag", (EXAMPLE_TOP, EXAMPLE_MIDDLE, EXAMPLE_BOTTOM))

COMPLETE_FOUR = line_of("hobgoblin-standard", "claws-of-malal", "grivziz-dirtballs", "hobgoblin-musician")
COMPLETE_FOUR_B = line_of(
    "orc-regimental-standard", "claws-of-malal", "grivziz-dirtballs", "orc-regimental-musician"
)
COMPLETE_FOUR_C = line_of(
    "horned-rat-standard", "hak-veinthrobs-volunteers", "monggos-meat-grinders", "hobgoblin-musician"
)


def test_rulebook_scoring_example_is_730() -> None:
    score = score_tribe(EXAMPLE, CATALOG)
    top, middle, bottom = score.lines
    assert top.bonus + top.booty + top.war_machines == 360
    assert middle.bonus + middle.booty + middle.war_machines == 110
    assert bottom.bonus + bottom.booty + bottom.war_machines == 50
    assert score.cards == 210
    assert score.total == 730


@pytest.mark.parametrize(
    ("cards", "bonus"),
    [(4, 0), (5, 50), (6, 50), (7, 100), (8, 100), (9, 150), (10, 150), (11, 200), (12, 200)],
)
def test_complete_line_bonus_follows_the_chart(cards: int, bonus: int) -> None:
    assert line_bonus(cards) == bonus


def test_only_complete_lines_earn_the_chart_bonus() -> None:
    assert score_line(EXAMPLE_MIDDLE, CATALOG, 0).bonus == 0
    assert score_line(EXAMPLE_BOTTOM, CATALOG, 0).bonus == 50


def test_every_card_in_any_line_is_worth_ten() -> None:
    assert score_line(EXAMPLE_MIDDLE, CATALOG, 0).card_points == 40


def test_war_machines_and_booty_score_in_an_incomplete_line() -> None:
    line = line_of("bomber-left", "bomber-right", "bomber-crew", "monggos-meat-grinders", start=3)
    score = score_line(line, CATALOG, 0)
    assert (score.complete, score.war_machines, score.booty) == (False, 70, 80)


def test_two_machine_parts_without_crew_score_sixty() -> None:
    line = line_of("knocker-left", "knocker-right", "claws-of-malal", "knocker-crew", start=3)
    assert score_line(line, CATALOG, 0).war_machines == 60


def test_loose_war_machine_cards_score_nothing() -> None:
    line = line_of("ockee-right", "ockee-left", start=3)
    assert score_line(line, CATALOG, 0).war_machines == 0


def test_chaos_marauders_are_worth_ten_printed_points() -> None:
    line = line_of("chaos-marauders", start=3)
    assert score_line(line, CATALOG, 0).booty == 10


def test_idol_with_a_shaman_is_worth_90_without_rolls() -> None:
    assert idol_points(True, None) == 90
    assert idol_points(True, ["mark"] * 6) == 90


def test_idol_with_six_orcish_eyes_is_worth_90() -> None:
    assert idol_points(False, ["eye"] * 6) == 90


def test_idol_with_any_mark_of_chaos_is_worth_minus_90() -> None:
    assert idol_points(False, ["eye"] * 5 + ["mark"]) == -90


@pytest.mark.parametrize("rolls", [None, ["eye"] * 5, ["eye"] * 7, ["eye"] * 5 + ["six"]])
def test_idol_without_shaman_needs_six_cube_rolls(rolls: list[str] | None) -> None:
    with pytest.raises(IdolRollsError, match="the Idol needs"):
        idol_points(False, rolls)


def test_the_idol_counts_apart_from_printed_points() -> None:
    idol_line = line_of("idol", start=4)
    tribe = Tribe("Ugluk", (idol_line, EMPTY_LINE, EMPTY_LINE))
    assert score_tribe(tribe, CATALOG, idol_rolls=["mark"] + ["eye"] * 5).total == 10 - 90
    with pytest.raises(IdolRollsError, match="Ugluk: the Idol needs 6 rolls"):
        score_tribe(tribe, CATALOG)
    shaman = Tribe("Ugluk", (idol_line, line_of("shaman-of-aaaaaaaag", start=4), EMPTY_LINE))
    assert score_tribe(shaman, CATALOG).idol == 90


def test_idol_rolls_for_a_tribe_without_idol_are_refused() -> None:
    with pytest.raises(ScoringError, match="has Idol rolls but no Idol"):
        score_tribe(EXAMPLE, CATALOG, idol_rolls=["eye"] * 6)


def test_first_to_complete_three_lines_scores_150() -> None:
    done = Tribe("Azog", (COMPLETE_FOUR, COMPLETE_FOUR_B, COMPLETE_FOUR_C))
    result = score_table([done, EXAMPLE], CATALOG, first_to_complete=0)
    assert result.players[0].first_to_complete == 150
    assert result.players[0].total == 150 + 12 * 10 + 80
    assert result.players[1].first_to_complete == 0


def test_first_to_complete_needs_three_complete_lines() -> None:
    with pytest.raises(ScoringError, match="Gorbag is named first to complete"):
        score_table([EXAMPLE], CATALOG, first_to_complete=0)


def test_the_highest_total_wins() -> None:
    small = Tribe("Azog", (COMPLETE_FOUR, EMPTY_LINE, EMPTY_LINE))
    result = score_table([small, EXAMPLE], CATALOG)
    assert (result.winners, result.tie) == ((1,), False)
    assert result.to_json()["winners"] == ["Gorbag"]


def test_ties_are_reported_as_ties() -> None:
    a = Tribe("Azog", (COMPLETE_FOUR, EMPTY_LINE, EMPTY_LINE))
    b = Tribe("Bolg", (COMPLETE_FOUR_B, EMPTY_LINE, EMPTY_LINE))
    result = score_table([a, b], CATALOG)
    assert (result.winners, result.tie) == ((0, 1), True)


def test_more_copies_than_the_deck_holds_are_refused() -> None:
    one = line_of("shotti", start=3)
    with pytest.raises(ScoringError, match="holds 2 × Shotti, but the deck has only 1"):
        score_table(
            [Tribe("A", (one, EMPTY_LINE, EMPTY_LINE)), Tribe("B", (one, EMPTY_LINE, EMPTY_LINE))], CATALOG
        )


def test_an_illegal_line_cannot_be_scored() -> None:
    bad = line_of("claws-of-malal", "claws-of-malal", start=3)
    with pytest.raises(ScoringError, match="Azog, line 2: Two cards with the symbol of Claws of Malal"):
        score_table([Tribe("Azog", (EMPTY_LINE, bad, EMPTY_LINE))], CATALOG)


def test_a_tribe_with_four_sneaky_gits_cannot_be_scored() -> None:
    # Rulebook, Drawing a Fourth Duplicate: only the Plague Lords may number four in one tribe.
    gits = line_of("sneaky-git", "sneaky-git", start=3)
    with pytest.raises(ScoringError, match="Azog: a tribe cannot hold four cards with one symbol"):
        score_table([Tribe("Azog", (gits, gits, EMPTY_LINE))], CATALOG)
    lords = line_of("blightskabb-plague-lords", "blightskabb-plague-lords", start=3)
    assert score_table([Tribe("Skab", (lords, lords, EMPTY_LINE))], CATALOG).players[0].total > 0


def test_a_tribe_has_three_lines() -> None:
    with pytest.raises(ScoringError, match="must have 3 battle lines, not 2"):
        score_table([Tribe("Azog", (EMPTY_LINE, EMPTY_LINE))], CATALOG)


def test_plague_lords_attack_value_counts_the_whole_tribe() -> None:
    tribe = Tribe(
        "Skab",
        (
            line_of("blightskabb-plague-lords", start=3),
            line_of("blightskabb-plague-lords", start=3),
            EMPTY_LINE,
        ),
    )
    assert [line.attack_value for line in score_tribe(tribe, CATALOG).lines] == [4, 4, 0]


@given(st.tuples(st.one_of(legal_lines(), complete_lines()), legal_lines(), complete_lines()))
def test_a_total_is_the_sum_of_its_parts(lines: tuple[Line, Line, Line]) -> None:
    tribe = Tribe("Azog", lines)
    assume(copies_error([tribe], CATALOG) is None)  # random lines may hold more copies than the deck
    assume(tribe_error(lines, CATALOG) is None)  # or four Sneaky Gits
    rolls = {0: ["eye"] * 6} if any("idol" in line for line in lines) else None
    score = score_table([tribe], CATALOG, idol_rolls=rolls)
    data = score.to_json()["players"][0]
    parts = ("line_bonus", "cards", "war_machines", "booty", "idol", "first_to_complete")
    assert data["total"] == sum(data[part] for part in parts)
    assert data["line_bonus"] + data["cards"] + data["war_machines"] + data["booty"] == sum(
        line["vp"] for line in data["lines"]
    )
    assert data["cards"] == 10 * sum(line["cards"] for line in data["lines"])
