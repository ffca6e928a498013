"""``companion score`` and ``companion cards``: JSON out, exit 2 with a one-line reason for bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.cli.extras import games_with
from companion.games.chaos_marauders.catalog import load_catalog

ROOT = Path(__file__).resolve().parents[2]

EXAMPLE_LINES = [
    [
        "Hobgoblin Standard",
        "Spoil Heap",
        "Spittledung XXXXX",
        "smasher-left",
        "smasher-right",
        "smasher-crew",
        "grivziz-dirtballs",
        "Hak Veinthrob's Volunteers",
        "claws-of-malal",
        "spattznatts-suicide-squad",
        "crummy-snotling-slaves",
        "Hobgoblin Musician",
    ],
    [None, None, "Shotti", "claws-of-malal", "bozlum-pigstickers", "crummy-snotling-slaves"],
    [
        "orc-regimental-standard",
        "grivziz-dirtballs",
        "hak-veinthrobs-volunteers",
        "spattznatts-suicide-squad",
        "orc-regimental-musician",
    ],
]
DONE_LINES = [
    ["hobgoblin-standard", "claws-of-malal", "grivziz-dirtballs", "idol", "hobgoblin-musician"],
    ["orc-regimental-standard", "hak-veinthrobs-volunteers", "grivziz-dirtballs", "orc-regimental-musician"],
    ["horned-rat-standard", "monggos-meat-grinders", "hak-veinthrobs-volunteers", "hobgoblin-musician"],
]


def layout(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "game": "chaos-marauders",
        "first_to_complete": "Azog",
        "players": [{"name": "Gorbag", "lines": EXAMPLE_LINES}, {"name": "Azog", "lines": DONE_LINES}],
        "idol_rolls": {"Azog": ["eye"] * 6},
    }
    data.update(changes)
    return data


def solo(lines: list[list[str | None]]) -> dict[str, Any]:
    """One player, Gorbag, with these lines; no first to complete and no Idol rolls."""
    return layout(players=[{"name": "Gorbag", "lines": lines}], first_to_complete=None, idol_rolls={})


def write(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "layout.json"
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return path


def score(tmp_path: Path, data: object, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["score", str(write(tmp_path, data))])
    out, err = capsys.readouterr()
    return code, out, err


def test_score_prints_the_rulebook_example_breakdown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = score(tmp_path, layout(), capsys)
    assert (code, err) == (0, "")
    result = json.loads(out)
    gorbag, azog = result["players"]
    assert result["game"] == "chaos-marauders"
    assert (gorbag["name"], gorbag["total"]) == ("Gorbag", 730)
    assert gorbag["war_machines"] == 70 and gorbag["booty"] == 200 and gorbag["cards"] == 210
    assert [line["complete"] for line in gorbag["lines"]] == [True, False, True]
    assert [line["bonus"] for line in gorbag["lines"]] == [200, 0, 50]
    assert gorbag["lines"][0]["attack_value"] > 10
    assert (azog["first_to_complete"], azog["idol"]) == (150, 90)
    assert azog["total"] == 150 + 130 + 90 + 80 + 50
    assert (result["winners"], result["tie"]) == (["Gorbag"], False)
    typed = result["result"]  # the platform's one form of a result, as the view and the hall read it
    assert typed["final"] and typed["winners"] == [0] and typed["points_label"] == "VP"
    assert [(s["name"], s["rank"], s["points"]) for s in typed["standings"]] == [
        ("Gorbag", 1, 730),
        ("Azog", 2, 500),
    ]
    assert typed["outcome"] == "Gorbag wins with 730 VP" and typed["standings"][0]["details"]["booty"] == 200


def test_score_reports_a_tie(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    one = [["hobgoblin-standard", "claws-of-malal", "grivziz-dirtballs", "hobgoblin-musician"], [], []]
    two = [
        ["orc-regimental-standard", "claws-of-malal", "grivziz-dirtballs", "orc-regimental-musician"],
        [],
        [],
    ]
    players = [{"name": "A", "lines": one}, {"name": "B", "lines": two}]
    code, out, _ = score(tmp_path, layout(players=players, first_to_complete=None, idol_rolls={}), capsys)
    assert code == 0
    assert json.loads(out)["winners"] == ["A", "B"] and json.loads(out)["tie"] is True
    typed = json.loads(out)["result"]
    assert typed["tie"] and [s["rank"] for s in typed["standings"]] == [1, 1]
    assert typed["outcome"].startswith("A tie: A & B with ")


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        ("{not json", "is not valid JSON"),
        ([], "a layout must be a JSON object"),
        (layout(game="heroscape"), '"game" must be "chaos-marauders"'),
        (layout(idol_rolls={}), "Azog: the Idol needs 6 rolls"),
        (layout(idol_rolls={"Azog": ["eye"] * 5}), "the Idol needs exactly 6 rolls"),
        (layout(first_to_complete="Gorbag"), "Gorbag is named first to complete but has an incomplete line"),
        (layout(first_to_complete="Nobody"), '"first_to_complete" names no player'),
        (
            solo([["hobgoblin-standard", "Bogus Card"], [], []]),
            "Gorbag, line 1: unknown card 'Bogus Card'",
        ),
        (
            solo([[None] * 13, [], []]),
            "at most 12 slots, not 13",
        ),
        (
            solo([[None, "claws-of-malal", "claws-of-malal"], [], []]),
            "Gorbag, line 1: Two cards with the symbol of Claws of Malal",
        ),
        (
            layout(
                players=[
                    {"name": "Gorbag", "lines": EXAMPLE_LINES},
                    {"name": "Bolg", "lines": [[None, "shotti"], [], []]},
                ],
                first_to_complete=None,
                idol_rolls={},
            ),
            "the table holds 2 × Shotti, but the deck has only 1",
        ),
        (solo([[], []]), "Gorbag must have 3 battle lines"),
    ],
)
def test_an_invalid_layout_exits_2_with_a_one_line_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], data: object, reason: str
) -> None:
    code, out, err = score(tmp_path, data, capsys)
    assert (code, out) == (2, "")
    assert reason in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_a_missing_layout_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_score_runs_as_a_command(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "companion", "score", str(write(tmp_path, layout()))],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["players"][0]["total"] == 730
    bad = subprocess.run(
        [sys.executable, "-m", "companion", "score", str(write(tmp_path, "{"))],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert bad.returncode == 2 and bad.stderr.startswith("companion score:") and bad.stderr.count("\n") == 1


def test_cards_prints_a_readable_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "chaos-marauders"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split()[:3] == ["id", "title", "colour"]
    assert "Spittledung XXXXX" in out and out.rstrip().endswith("43 titles, 110 cards")


def test_cards_json_lists_every_title_with_its_values(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "chaos-marauders", "--json"]) == 0
    cards = json.loads(capsys.readouterr().out)
    assert [card["id"] for card in cards] == [card.id for card in load_catalog()]
    assert sum(card["copies"] for card in cards) == 110
    needed = {
        "id",
        "title",
        "colour",
        "symbol",
        "copies",
        "attack",
        "vp",
        "role",
        "machine",
        "part",
        "ability",
    }
    assert all(needed <= set(card) and card["provenance"] for card in cards)
    by_id = {card["id"]: card for card in cards}
    assert by_id["idol"]["symbol"] is None and by_id["idol"]["role"] is None
    assert (by_id["smasher-crew"]["machine"], by_id["smasher-crew"]["part"]) == ("Smasher", "crew")
    assert by_id["hobgoblin-standard"]["role"] == "standard"


def test_cards_of_an_unknown_game_exits_2_with_the_known_names(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "orcwars"]) == 2
    err = capsys.readouterr().err
    known = ", ".join(games_with("cards"))  # every installed game with a cards command, whichever they are
    assert {"chaos-marauders", "heroscape"} <= set(known.split(", "))
    assert err == f"companion cards: unknown game 'orcwars' (known: {known})\n"


def test_cards_applies_an_owner_overrides_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "table.toml"
    path.write_text(
        '[[cards]]\nid = "claws-of-malal"\nattack = 9\n[cards.provenance]\nattack = "assumed: my box"\n'
    )
    assert main(["cards", "chaos-marauders", "--json", "--catalog", str(path)]) == 0
    cards = {card["id"]: card for card in json.loads(capsys.readouterr().out)}
    assert cards["claws-of-malal"]["attack"] == 9


def test_a_broken_overrides_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "table.toml"
    path.write_text(
        '[[cards]]\nid = "claws-of-malal"\ncopies = 9\n[cards.provenance]\ncopies = "assumed: x"\n'
    )
    assert main(["cards", "chaos-marauders", "--catalog", str(path)]) == 2
    assert "add up to 111" in capsys.readouterr().err


def test_score_accepts_titles_with_curly_apostrophes_and_the_texts_other_spellings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The layout's titles as the rules texts print them (Hak Veinthrob’s, Monggo’s), in any case and
    spacing, and the texts' other spellings (card reference, Da Whozit Sekshun: "Bilge ‘No Remorse’
    Guttrott") score exactly as the card ids do; "Venomous Creeps" is known as the card it names."""
    typed: list[list[str | None]] = [
        ["hobgoblin standard", "Hak Veinthrob’s Volunteers", "Monggo’s  Meat Grinders"],
        ["Orc Regimental Standard", "Bilge ‘No Remorse’ Guttrott", "Spattznatt’s Suicide Squad"],
        ["HOBGOBLIN STANDARD", "Hobgoblin  Musician"],
    ]
    ids: list[list[str | None]] = [
        ["hobgoblin-standard", "hak-veinthrobs-volunteers", "monggos-meat-grinders"],
        ["orc-regimental-standard", "bilge-guttrot", "spattznatts-suicide-squad"],
        ["hobgoblin-standard", "hobgoblin-musician"],
    ]
    by_title = score(tmp_path, solo(typed), capsys)
    by_id = score(tmp_path, solo(ids), capsys)
    assert by_title == by_id and by_title[0] == 0
    code, _, err = score(tmp_path, solo([["Hobgoblin Standard", "Venomous Creeps"], [], []]), capsys)
    assert code == 2 and "Venemous Creeps is used once and discarded" in err


def test_score_refuses_a_name_that_is_no_card_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = score(tmp_path, solo([["Hobgoblin Standard", "Venomous Creep"], [], []]), capsys)
    assert (code, out) == (2, "")
    assert err == "companion score: Gorbag, line 1: unknown card 'Venomous Creep'\n"


@pytest.mark.parametrize("card", ["Venemous Creeps", "Dagromm Flailbreath", "Skyrr\u2019s Blowback"])
def test_score_refuses_a_card_used_once_and_discarded_in_a_line(
    card: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Creeps, Dagromm and the Blowback are discarded after use (card reference): no line holds them."""
    code, out, err = score(tmp_path, solo([["Hobgoblin Standard", card], [], []]), capsys)
    assert (code, out) == (2, "")
    assert err.startswith("companion score: ") and "used once and discarded" in err
    assert err.count("\n") == 1
