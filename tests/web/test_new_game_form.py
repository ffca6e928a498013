"""The new-game form's defaults start: the player counts each game's engine accepts, per choice."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from companion.engine import (
    JSON,
    Action,
    ActionCodec,
    Event,
    Game,
    Player,
    Prompt,
    Setup,
    SetupError,
    SetupOption,
)
from web.catalogs import new_game_form


@dataclass(frozen=True)
class Nothing(Action):
    kind: ClassVar[str] = "nothing"


class Duel(Game[int]):
    """Two scenarios: one for 2 players, one for 2 to 5; "teams" only with 4."""

    name = "duel"
    title = "Duel"
    min_players = 2
    max_players = 5
    actions = ActionCodec(Nothing)
    rules_version = "duel-1"

    def setup_options(self) -> tuple[SetupOption, ...]:
        return (
            SetupOption("scenario", "Scenario", "choice", (("pair", "Pair"), ("brawl", "Brawl")), "pair"),
            SetupOption("teams", "Teams", "bool", (), False),
            SetupOption("mode", "Mode", "choice", (("solo", "Solo"), ("teams", "Teams")), "solo"),
        )

    def new_game(self, setup: Setup) -> int:
        count = len(setup.players)
        if setup.option("scenario", "pair") == "pair" and count != 2:
            raise SetupError(f"Pair is for 2 players, not {count}")
        if setup.option("mode", "solo") == "teams" and count != 4:
            raise SetupError("teams need four players")
        return 0

    def apply(self, state: int, action: Action) -> tuple[int, tuple[Event, ...]]:
        return state, ()

    def legal_actions(self, state: int) -> Sequence[Action]:
        return []

    def prompt(self, state: int) -> Prompt | None:
        return None

    def is_over(self, state: int) -> bool:
        return False

    def view(self, state: int) -> dict[str, JSON]:
        return {}


def test_the_defaults_start_and_each_choice_names_the_counts_it_starts_with() -> None:
    form = new_game_form("duel", "Duel", Duel())
    assert form["player_counts"] == [2]
    assert [p["name"] for p in form["default_players"]] == ["Player 1", "Player 2"]
    starts = {(s["options"]["scenario"], s["options"]["mode"]): s["players"] for s in form["starts"]}
    assert starts == {
        ("pair", "solo"): [2],
        ("pair", "teams"): [],
        ("brawl", "solo"): [2, 3, 4, 5],
        ("brawl", "teams"): [4],  # a choice that starts only with another one's help is still offered
    }


def test_a_game_names_its_own_players() -> None:
    class Named(Duel):
        default_players = (Player("Ana", "#111111"), Player("Ben", "#222222"))

    form = new_game_form("duel", "Duel", Named())
    assert form["default_players"] == [
        {"name": "Ana", "colour": "#111111"},
        {"name": "Ben", "colour": "#222222"},
    ]


def test_installed_games_offer_startable_defaults(client) -> None:
    games = {g["name"]: g for g in client.get("/api/available-games").json["games"]}
    heroscape = games["heroscape"]
    scenario = next(o for o in heroscape["options"] if o["name"] == "scenario")
    default = next(
        s["players"]
        for s in heroscape["starts"]
        if s["options"]["scenario"] == scenario["default"]
        and s["options"]["army"] == "draft"
        and s["options"]["teams"] == "scenario"
    )
    assert len(heroscape["default_players"]) in default  # never four for a 2-3 player scenario
    assert "Grotsnik" not in [p["name"] for p in heroscape["default_players"]]
    assert [p["name"] for p in games["chaos-marauders"]["default_players"]] == [
        "Grotsnik",
        "Ugluk",
        "Snagla",
        "Bogrot",
    ]
    # The two newer games name their seats as their rules do, and their defaults start.
    party = [p["name"] for p in games["shattered-chaos"]["default_players"]]
    assert party == ["Bastion", "Deadeye", "Mender", "Raider", "Stalker"]  # the data's first adventurers
    assert len(party) in games["shattered-chaos"]["player_counts"]
    seats = {o["name"]: o for o in games["shattered-chaos"]["options"]}["adventurers"]
    assert seats["kind"] == "per_seat" and seats["distinct"]  # one adventurer per player: the form swaps
    chiefs = [p["name"] for p in games["orcwars-too"]["default_players"]]
    assert chiefs == [f"Chief {n}" for n in range(1, 7)] and 6 in games["orcwars-too"]["player_counts"]
    for game in games.values():
        colours = [p["colour"] for p in game["default_players"]]
        assert len(set(colours)) == len(colours), game["name"]  # every seat told apart on the TV
    assert games["orcwars-too"]["game_type"]["hidden_information"]  # platform's kind, kept in the form
