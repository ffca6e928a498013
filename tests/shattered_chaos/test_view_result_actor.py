"""What the TV and phones read (view), the typed result of a co-operative game and who takes each action."""

from __future__ import annotations

import json

import pytest

from companion.engine import Player, PlayerId, Roll, Setup, SetupError
from companion.games.shattered_chaos import actions as act
from companion.games.shattered_chaos.odds import attack_odds

from .rules_support import BASTION, DEADEYE, GAME, STALKER, apply, enemies, new, spend_all, throw, with_hero


def test_the_game_type_is_cooperative() -> None:
    assert GAME.game_type.cooperative and not GAME.game_type.hidden_information


def test_the_view_shows_ledgers_tokens_cards_enemies_the_round_counter_and_what_comes_next() -> None:
    state = with_hero(enemies(new(), 21, 41), DEADEYE, cards=("b25",), chaos=3)
    view = json.loads(json.dumps(GAME.view(state)))
    deadeye = view["players"][DEADEYE]
    assert deadeye["adventurer"] == "Deadeye" and deadeye["chaos"] == 5 and deadeye["chaos_tokens"] == 3
    assert deadeye["life"] == deadeye["start_life"] and deadeye["actions"] == 2
    assert deadeye["cards"][0]["title"] == "Bronze 25: +2 range" and deadeye["attack"]["range"] == 2
    assert [e["name"] for e in view["enemies"]] == ["Gremlin 21", "Troll 41"]
    assert view["enemies"][1]["lives"] == view["enemies"][1]["max_lives"]
    assert len(view["round_counter"]["sections"]) == 5 and view["round_counter"]["marker"] == 1
    assert view["phase_title"] == "Adventurer phase" and view["next"].startswith("Then the enemy phase")
    assert view["players"][0]["starting"] and view["result"] is None and not view["finished"]


def test_the_enemy_decision_and_the_question_are_in_the_view() -> None:
    state = spend_all(enemies(new(), 21))
    view = GAME.view(state)
    assert view["question"]["asking"] == "sight" and view["question"]["range"] == 3
    state, _ = apply(state, act.Sighted(21, (BASTION,)))
    view = GAME.view(state)
    assert view["decision"]["text"] == "Gremlin 21 attacks Bastion (chaos 5) with red"
    assert view["enemy_attack"]["stage"] == "throw" and view["enemies"][0]["acting"]


def test_the_attack_under_way_carries_its_odds_before_the_throw() -> None:
    state = with_hero(enemies(new(), 21), DEADEYE, cards=("b25",))
    state, _ = apply(state, act.Attack(DEADEYE, 21, 6, ("b25",)))
    odds = GAME.view(state)["attack"]["odds"]
    expected = attack_odds(GAME.catalog, 6, range_bonus=4).to_json()
    assert odds == expected and odds["p_reach"] > 0


def test_the_final_evaluation_in_the_view_and_the_finished_result() -> None:
    state, _ = apply(new(), act.EndAdventure("won"))
    view = GAME.view(state)
    assert view["evaluation"]["section"] == GAME.catalog.section_of_round(1).number
    state, _ = apply(state, act.CloseCampaign())
    view = GAME.view(state)
    assert view["finished"] and view["result"]["headline"] == "Adventure 1 won!"
    assert view["result"]["winners"] == [0, 1, 2, 3] and "section" in view["result"]["reason"]


def test_a_finished_adventure_says_its_evaluation_and_how_the_campaign_carries_on() -> None:
    state, _ = apply(new(), act.EndAdventure("won"), act.KeepCard("s7"), act.CloseCampaign())
    result = GAME.result(state)
    assert result.outcome == "Adventure 1 won in round 1" and result.cooperative
    assert result.summary[0].startswith("0 damage suffered: the marker moves")
    assert result.summary[-1] == "Campaign log: adventures: 1W1; cards: s7"
    assert result.follow_on == {
        "adventure": 2,
        "adventurers": ["bastion", "deadeye", "raider", "stalker"],
        "campaign": "adventures: 1W1; cards: s7",
    }
    # The next adventure starts from it: the silver card replaces bronze 7 in the party's stack.
    following = Setup(
        "shattered-chaos", tuple(Player(f"P{i}") for i in range(4)), tuple(result.follow_on.items())
    )
    carried = GAME.new_game(following)
    assert carried.adventure == 2 and "s7" in {c for _, cards in carried.stacks for c in cards}
    lost, _ = apply(new(), act.EndAdventure("lost"), act.CloseCampaign())
    assert GAME.result(lost).follow_on["adventure"] == 1  # after a defeat: try it again (IX.C line 2967)
    assert GAME.result(new()).follow_on == {} and GAME.result(new()).summary == ()


def test_the_adventurers_are_chosen_per_seat_and_the_old_text_still_reads() -> None:
    players = tuple(Player(f"P{i}") for i in range(4))
    chosen = Setup(
        "shattered-chaos", players, (("adventurers", ["thrasher", "mender", "raider", "deadeye"]),)
    )
    assert [h.card for h in GAME.new_game(chosen).party] == ["thrasher", "mender", "raider", "deadeye"]
    typed = Setup("shattered-chaos", players, (("adventurers", "Thrasher, Mender, Raider, Deadeye"),))
    assert GAME.new_game(typed).party == GAME.new_game(chosen).party  # a log from before the menus replays
    for bad, message in (
        (["thrasher", "thrasher", "raider", "deadeye"], "every adventurer plays once"),
        (["thrasher", "mender"], "one adventurer per player"),
        (["thrasher", 3, "raider", "deadeye"], "in seat order"),
        (["nobody", "mender", "raider", "deadeye"], "is not an adventurer"),
    ):
        with pytest.raises(SetupError, match=message):
            GAME.new_game(Setup("shattered-chaos", players, (("adventurers", bad),)))
    option = next(o for o in GAME.setup_options() if o.name == "adventurers")
    assert option.kind == "per_seat" and [v for v, _ in option.choices][:2] == ["bastion", "deadeye"]


def test_result_while_playing_every_seat_ranks_first() -> None:
    result = GAME.result(new())
    assert not result.final and result.cooperative and result.winners == ()
    assert [s.rank for s in result.standings] == [1, 1, 1, 1]
    assert result.standings[0].details["adventurer"] == "Bastion"


def test_whose_decision_an_action_is() -> None:
    state = enemies(new(), 21)
    assert GAME.actor(state, act.Move(DEADEYE)) == PlayerId(DEADEYE)
    assert GAME.actor(state, act.PlaceEnemy(22)) is None
    assert GAME.actor(state, act.SetLife(BASTION, 3)) is None  # a correction, for the table
    assert GAME.actor(state, act.EndAdventure("won")) is None
    attacking, _ = apply(state, act.Attack(STALKER, 21, 1))
    assert GAME.actor(attacking, throw(STALKER, "yellow:1", "red:1", "blue:1")) == PlayerId(STALKER)
    enemy = spend_all(state)
    assert GAME.actor(enemy, act.Sighted(21, ())) is None  # the map's answer: anyone at the table
    enemy, _ = apply(enemy, act.Sighted(21, (BASTION,)))
    assert GAME.actor(enemy, Roll(BASTION, act.ATTACK_DIE, ("red:1",))) is None  # the enemy's dice
