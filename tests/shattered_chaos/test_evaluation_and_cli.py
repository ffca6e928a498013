"""The final evaluation (IX.A-C) and the command-line contracts of issue 17: ``companion score LAYOUT.json``,
``companion odds shattered-chaos --distance D [--adventurer NAME] [--armor A] --json`` and
``companion simulate shattered-chaos --games N --seed S --json``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.games.shattered_chaos.data_loading import default_catalog
from companion.games.shattered_chaos.evaluation import Member, evaluate

CAT = default_catalog()
SCORE_KEYS = {"damage", "spaces", "final_round", "section", "draw", "keep"}


def example_layout(**changes: Any) -> dict[str, Any]:
    """IX.A's example (lines 2786-2830): round 8; Bastion 6 damage, Deadeye a shadow with 9, Raider none,
    Stalker 2 lives above her start."""
    layout: dict[str, Any] = {
        "game": "shattered-chaos",
        "adventurers": 4,
        "round": 8,
        "party": [
            {"name": "Bastion", "start_life": 10, "life": 4, "shadow": False},
            {"name": "Deadeye", "start_life": 9, "life": 0, "shadow": True},
            {"name": "Raider", "start_life": 9, "life": 9, "shadow": False},
            {"name": "Stalker", "start_life": 8, "life": 10, "shadow": False},
        ],
        "lost": False,
    }
    layout.update(changes)
    return layout


def score(
    tmp_path: Path, layout: object, capsys: pytest.CaptureFixture[str], *flags: str
) -> tuple[int, Any, str]:
    path = tmp_path / "layout.json"
    path.write_text(json.dumps(layout), encoding="utf-8")
    code = main(["score", str(path), *flags])
    out, err = capsys.readouterr()
    return code, json.loads(out) if code == 0 else out, err


def test_the_example_of_the_final_evaluation_comes_out_exactly(tmp_path, capsys) -> None:
    """Line 2822: 13 damage; line 2827: 4 spaces, from round 8 to round 4, the second section."""
    code, out, _ = score(tmp_path, example_layout(), capsys)
    assert code == 0
    assert {k: out[k] for k in SCORE_KEYS} == {
        "damage": 13,
        "spaces": 4,
        "final_round": 4,
        "section": 2,
        "draw": 6,
        "keep": 3,
    }
    assert [m["damage"] for m in out["party"]] == [6, 9, 0, -2]
    assert out["owner_values"] == []  # every number of the example is the rules text's own
    assert out["provenance"]["spaces"].startswith("rules text IX.A example")


def test_values_of_the_assumed_table_are_named_as_the_owners(tmp_path, capsys) -> None:
    layout = example_layout(round=9)
    layout["party"][0]["life"] = 10  # 7 damage: a cell the text does not print
    code, out, _ = score(tmp_path, layout, capsys)
    assert code == 0 and out["damage"] == 7
    assert "spaces" in out["owner_values"] and out["provenance"]["spaces"].startswith("assumed")


def test_a_defeat_puts_the_marker_on_the_last_section_draw_2_keep_2(tmp_path, capsys) -> None:
    """IX.C line 2970: the marker at the end of the round counter, the 5th section; draw and keep 2."""
    code, out, _ = score(tmp_path, example_layout(lost=True, round=6), capsys)
    assert code == 0
    assert (out["section"], out["draw"], out["keep"], out["spaces"]) == (5, 2, 2, 0)
    assert out["final_round"] == CAT.last_round


def test_extra_lives_count_against_the_damage() -> None:
    """IX.A line 2772: lives above the start value may be calculated into the damage."""
    party = (Member("Bastion", 10, 12, False), Member("Deadeye", 9, 9, False))
    table = {**CAT.damage_tables}
    assert (
        evaluate(
            CAT, 4, 3, (*party, Member("Raider", 9, 9, False), Member("Stalker", 8, 8, False)), False
        ).damage
        == -2
    )
    assert table[4].row(-2).spaces == table[4].rows[0].spaces  # below the first row counts as the first


def test_the_marker_never_goes_left_of_round_1() -> None:
    party = tuple(Member(n, 9, 9, False) for n in ("Bastion", "Deadeye", "Raider", "Stalker"))
    result = evaluate(CAT, 4, 2, party, False)
    assert result.final_round == 1 and result.section == 1


@pytest.mark.parametrize(
    ("layout", "message"),
    [
        (example_layout(adventurers=6), "evaluation tables are for 4 or 5"),
        (example_layout(adventurers=5), "lists 4 adventurers, not 5"),
        (example_layout(round=0), "round must be"),
        (example_layout(round="8"), "round must be"),
        (example_layout(lost="no"), "lost must be"),
        (example_layout(party="Bastion"), "party must be a list"),
        (example_layout(extra=1), "unknown layout fields"),
        (
            {**example_layout(), "party": [{"name": "Gandalf", "start_life": 9, "life": 9, "shadow": False}]},
            "not an adventurer",
        ),
    ],
)
def test_a_bad_layout_is_refused_with_a_reason(tmp_path, capsys, layout, message) -> None:
    code, _, err = score(tmp_path, layout, capsys)
    assert code == 2 and message in err and err.count("\n") == 1


def test_a_living_adventurer_under_one_life_is_refused(tmp_path, capsys) -> None:
    layout = example_layout()
    layout["party"][1]["shadow"] = False
    code, _, err = score(tmp_path, layout, capsys)
    assert code == 2 and "shadow" in err


def test_the_same_adventurer_twice_is_refused(tmp_path, capsys) -> None:
    layout = example_layout()
    layout["party"][1]["name"] = "bastion"
    code, _, err = score(tmp_path, layout, capsys)
    assert code == 2 and "twice" in err


def test_score_reads_the_owners_table(tmp_path, capsys) -> None:
    owner = tmp_path / "owner.toml"
    owner.write_text(
        "[[damage_tables]]\nadventurers = 4\nrows = [{ from = 0, spaces = 3 }]\n"
        'provenance.rows = "my counter"\n',
        encoding="utf-8",
    )
    code, out, _ = score(tmp_path, example_layout(), capsys, "--catalog", str(owner))
    assert (
        code == 0
        and out["spaces"] == 3
        and out["final_round"] == 5
        and out["provenance"]["spaces"] == "my counter"
    )


# --------------------------------------------------------------------------------------------- odds


def odds(capsys, *flags: str) -> tuple[int, Any, str]:
    code = main(["odds", "shattered-chaos", *flags])
    out, err = capsys.readouterr()
    return code, json.loads(out) if code == 0 and "--json" in flags else out, err


def test_odds_contract(capsys) -> None:
    code, out, _ = odds(capsys, "--distance", "3", "--adventurer", "Deadeye", "--armor", "1", "--json")
    assert code == 0
    assert {"p_reach", "p_stun", "p_critical", "expected_damage", "distance", "adventurer", "armor"} <= set(
        out
    )
    assert out["adventurer"] == "Deadeye" and out["distance"] == 3 and out["armor"] == 1
    assert 0 <= out["p_critical"] <= out["p_stun"] <= out["p_reach"] <= 1
    assert sum(out["damage_distribution"]) == pytest.approx(1)


def test_deadeyes_range_makes_far_attacks_reach(capsys) -> None:
    _, plain, _ = odds(capsys, "--distance", "6", "--json")
    _, deadeye, _ = odds(capsys, "--distance", "6", "--adventurer", "deadeye", "--json")
    assert plain["p_reach"] == 0  # no die shows 6 eyes
    assert deadeye["p_reach"] > 0  # +2 range (V.E line 1135)


def test_raider_stuns_whenever_he_hits(capsys) -> None:
    """V.E line 1189: ±2 vortices; 2 or more stun (V.C line 982)."""
    _, raider, _ = odds(capsys, "--distance", "1", "--adventurer", "Raider", "--json")
    assert raider["p_stun"] == pytest.approx(raider["p_reach"])


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (("--distance", "0"), "--distance is 1 to 30"),
        (("--distance", "2", "--armor", "-1"), "--armor 0 to 30"),
        (("--distance", "2", "--adventurer", "Nobody"), "not an adventurer"),
    ],
)
def test_bad_odds_flags(capsys, flags, message) -> None:
    code, _, err = odds(capsys, *flags, "--json")
    assert code == 2 and message in err


def test_odds_in_words(capsys) -> None:
    code, out, _ = odds(capsys, "--distance", "2", "--adventurer", "Thrasher")
    assert code == 0 and "Thrasher attacking an enemy 2 spaces away" in out and "expected damage" in out


# ----------------------------------------------------------------------------------------- simulate


def test_simulate_contract(capsys) -> None:
    code = main(["simulate", "shattered-chaos", "--games", "3", "--seed", "4", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0, out["violation_examples"]
    assert out["games"] == 3 and out["invariant_violations"] == 0 and out["finished_games"] == 3
    assert out["games_per_second"] > 0 and out["actions"] > 0 and out["map_questions"] > 0


def test_cards_lists_adventurers_and_chaos_cards(capsys) -> None:
    assert main(["cards", "shattered-chaos", "--json"]) == 0
    cards = json.loads(capsys.readouterr().out)
    ids = {c["id"] for c in cards}
    assert {"bastion", "thrasher", "b1", "b36", "s36", "g1"} <= ids and len(cards) == 6 + 3 * 36
