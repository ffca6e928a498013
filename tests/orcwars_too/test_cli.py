"""The command-line contracts: ``companion combat orcwars-too ... --json`` prints exactly the issue's keys;
``companion simulate orcwars-too ... --json`` plays random games with its invariants; ``cards`` lists
the chips with their provenance."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from companion.cli import main

COMBAT_KEYS = [
    "table",
    "damage_to_attacker",
    "damage_to_defender",
    "attacker_hacked",
    "defender_hacked",
    "castle_destroyed",
]


def combat(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["combat", "orcwars-too", *args])
    out = capsys.readouterr()
    return status, out.out, out.err


def test_the_real_command_prints_the_texts_example_as_json() -> None:
    command = [
        sys.executable,
        "-m",
        "companion",
        "combat",
        "orcwars-too",
        "--attacker",
        "23:charge",
        "--defender",
        "11:clever",
        "--json",
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert list(result) == COMBAT_KEYS
    assert result == {
        "table": "field",
        "damage_to_attacker": 11,
        "damage_to_defender": 4,
        "attacker_hacked": True,
        "defender_hacked": False,
        "castle_destroyed": False,
    }


def test_a_fortress_and_a_war_machine(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = combat(
        capsys,
        "--attacker",
        "20:clever",
        "--defender",
        "5:careful",
        "--fortress",
        "4",
        "--war-machine",
        "3",
        "--json",
    )
    assert status == 0
    assert json.loads(out) == {
        "table": "fortress",
        "damage_to_attacker": 1,
        "damage_to_defender": 19,
        "attacker_hacked": False,
        "defender_hacked": True,
        "castle_destroyed": True,
    }


def test_without_json_it_explains_the_cell(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = combat(capsys, "--attacker", "23:charge", "--defender", "11:clever")
    assert status == 0
    assert "cell 1:1* - 1:5" in out and "damage to the attacker: 11" in out


@pytest.mark.parametrize(
    "args",
    [
        ("--attacker", "23:run", "--defender", "11:clever"),
        ("--attacker", "x:charge", "--defender", "11:clever"),
        ("--attacker", "23", "--defender", "11:clever"),
        ("--attacker", "23:charge", "--defender=-1:clever"),
        ("--attacker", "23:charge", "--defender", "11:clever", "--fortress", "-2"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], args: tuple[str, ...]) -> None:
    status, out, err = combat(capsys, *args, "--json")
    assert status == 2 and out == ""
    assert err.startswith("companion combat:") and err.count("\n") == 1


def test_simulate_prints_its_figures_and_finds_no_violation(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["simulate", "orcwars-too", "--players", "3", "--games", "2", "--seed", "3", "--json"])
    figures = json.loads(capsys.readouterr().out)
    assert status == 0
    assert figures["games"] == 2 and figures["players"] == 3 and figures["seed"] == 3
    assert figures["invariant_violations"] == 0 and figures["violation_examples"] == []
    assert figures["finished_games"] == 2 and figures["actions"] > 100
    assert figures["games_per_second"] > 0


def test_simulate_refuses_a_player_count_it_cannot_play(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "orcwars-too", "--players", "9", "--games", "1", "--json"]) == 2
    assert "2 to 6 players" in capsys.readouterr().err


def test_cards_lists_every_chip_with_provenance(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "orcwars-too", "--json"]) == 0
    chips = json.loads(capsys.readouterr().out)
    kinds = {"leader", "troop", "war-machine", "shaman", "spy", "caravan", "gold"}
    assert {c["kind"] for c in chips} == kinds
    assert all(c["provenance"] for c in chips)
    assert len({c["id"] for c in chips}) == len(chips)


def test_cards_refuses_an_unusable_overrides_file(capsys: pytest.CaptureFixture[str], tmp_path) -> None:
    bad = tmp_path / "mine.toml"
    bad.write_text('[[troops]]\nid = "red-orcs"\npower = 4\n')
    assert main(["cards", "orcwars-too", "--data", str(bad)]) == 2
    assert "provenance.power" in capsys.readouterr().err
