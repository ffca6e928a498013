"""The HeroScape view (TV, phones, API) and the private view: secret order markers stay off the public
view until revealed, the attack's exact odds before a roll, the dice as rolled, victory status."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from typing import Any

from companion.engine import PlayerId
from companion.games.heroscape.state import State

from .rules_support import GAME, act, battle, markers, premade, roll_asked

ARMIES = [["marro-drudge", "sonlen"], ["marro-stingers", "tor-kul-na"]]
ORDERS = [
    ("0:marro-drudge", "0:sonlen", "0:marro-drudge", "0:sonlen"),
    ("1:tor-kul-na", "1:marro-stingers", "1:marro-stingers", "1:tor-kul-na"),
]
COMBAT_DIE = ("skull", "skull", "skull", "shield", "shield", "blank")
"""Issue 9: three skulls, two shields, one blank (the test counts wounds on its own, face by face)."""


def public(state: State) -> dict[str, Any]:
    shown = GAME.view(state)
    json.dumps(shown)  # every view goes over SSE as JSON
    return shown


def unit(shown: dict[str, Any], seat: int, card: str) -> dict[str, Any]:
    return next(u for u in shown["players"][seat]["army"] if u["card"] == card)


def declared_attack() -> State:
    state = act(battle(ARMIES, ORDERS), "moved", player=0)
    return act(state, "attack", player=0, attacker="0:marro-drudge#1", defender="1:marro-stingers#1")


def wound_chance_by_counting(attack: int, defense: int) -> Fraction:
    """P(at least one wound), by listing every face of every die."""
    hits = 0
    throws = list(itertools.product(COMBAT_DIE, repeat=attack + defense))
    for throw in throws:
        skulls = throw[:attack].count("skull")
        shields = throw[attack:].count("shield")
        hits += skulls > shields
    return Fraction(hits, len(throws))


def test_placed_markers_show_only_as_placed_until_revealed() -> None:
    state = premade(ARMIES)
    state = markers(state, 0, *ORDERS[0])
    shown = public(state)
    assert [p["markers_placed"] for p in shown["players"]] == [True, False]
    assert all(not u["revealed_markers"] for p in shown["players"] for u in p["army"])
    assert "place_markers" not in json.dumps(shown)
    assert GAME.public_action(
        GAME.parse_action({"kind": "place_markers", "player": 0, "markers": list(ORDERS[0])})
    ) == {
        "kind": "place_markers",
        "player": 0,
    }
    mine = GAME.private_view(state, PlayerId(0))
    assert mine is not None and {m: mine["markers"][m]["unit"] for m in "123X"} == dict(
        zip("123X", ORDERS[0], strict=True)
    )
    theirs = GAME.private_view(state, PlayerId(1))
    assert theirs is not None and theirs["markers"] is None  # Ben sees nothing of Ann's


def test_teammates_see_each_others_markers_and_opponents_see_nothing() -> None:
    """Rulebook, A Round of Play: "Teammates can look at each other's Markers." Players 1+2 against 3+4."""
    armies = [["raelin"], ["tor-kul-na"], ["shiori"], ["major-q10"]]
    state = premade(armies, teams="12-34")
    orders = [(f"{seat}:{cards[0]}",) * 4 for seat, cards in enumerate(armies)]
    state = markers(state, 1, *orders[1])
    ann = GAME.private_view(state, PlayerId(0))
    assert ann is not None and ann["markers"] is None  # Ann has not placed hers yet
    (ben,) = ann["teammates"]
    assert ben["seat"] == 1 and ben["name"] == "Ben"
    assert {m: ben["markers"][m]["unit"] for m in "123X"} == dict(zip("123X", orders[1], strict=True))
    for opponent in (2, 3):
        seen = GAME.private_view(state, PlayerId(opponent))
        assert seen is not None and "1:tor-kul-na" not in json.dumps(seen)
        assert [mate["seat"] for mate in seen["teammates"]] == [5 - opponent]
    alone = GAME.private_view(markers(premade(armies), 1, *orders[1]), PlayerId(0))
    assert alone is not None and alone["teammates"] == []  # every player alone: nobody to look at


def test_the_first_turn_reveals_marker_1_and_nothing_else() -> None:
    shown = public(battle(ARMIES, ORDERS))
    assert unit(shown, 0, "marro-drudge")["revealed_markers"] == ["1"]
    assert unit(shown, 0, "sonlen")["revealed_markers"] == []
    assert all(not u["revealed_markers"] for u in shown["players"][1]["army"])
    assert shown["turn"]["player"] == 0 and shown["turn"]["marker"] == 1
    assert shown["initiative"]["order"] == [0, 1]
    assert [r[1] for r in shown["initiative"]["rolls"]] == [20, 19]
    assert shown["round"] == 1 and shown["round_limit"] == 10


def test_the_turn_lists_the_attack_forms_figures_and_targets() -> None:
    turn = public(battle(ARMIES, ORDERS))["turn"]
    assert [a["id"] for a in turn["attackers"]] == [
        "0:marro-drudge/1",
        "0:marro-drudge/2",
        "0:marro-drudge/3",
    ]
    targets = {t["id"] for t in turn["targets"]}
    assert "1:tor-kul-na/1" in targets and "1:marro-stingers/3" in targets
    assert not any(t["id"].startswith("0:") for t in turn["targets"])


def test_the_exact_odds_are_shown_before_the_roll() -> None:
    pending = public(declared_attack())["pending_attack"]
    assert (pending["attack_dice"], pending["defense_dice"], pending["stage"]) == (2, 3, "attack")
    assert pending["attack_faces"] == []
    odds = pending["odds"]
    assert odds["p_at_least_one"] == float(wound_chance_by_counting(2, 3))
    assert abs(sum(odds["distribution"]) - 1) < 1e-12
    prompt = public(declared_attack())["prompt"]
    assert prompt["roll"] == {
        "die": "combat",
        "count": 2,
        "faces": ["skull", "shield", "blank"],
        "policy": "together",
        "dice": [],
        "anyone": False,
    }


def test_the_attack_dice_show_while_the_defence_is_rolled_then_the_last_attack() -> None:
    state = roll_asked(declared_attack(), skulls=2)
    pending = public(state)["pending_attack"]
    assert pending["stage"] == "defense" and pending["attack_faces"] == ["skull", "skull"]
    state = roll_asked(state, shields=1)
    shown = public(state)
    assert shown["pending_attack"] is None
    last = shown["last_attack"]
    assert last["attack_faces"] == ["skull", "skull"]
    assert sorted(last["defense_faces"]) == ["blank", "blank", "shield"]
    assert (last["skulls"], last["shields"], last["wounds"], last["destroyed"]) == (2, 1, 1, True)
    assert last["attacker_label"] == "Ann's Drudge 1" and last["defender_label"] == "Ben's Stingers 1"
    stingers = unit(shown, 1, "marro-stingers")
    assert stingers["living"] == 2
    assert [f["status"] for f in stingers["figures"]] == ["destroyed", "alive", "alive"]


def test_a_hero_shows_its_wounds() -> None:
    state = act(battle(ARMIES, ORDERS), "moved", player=0)
    state = act(state, "attack", player=0, attacker="0:marro-drudge#1", defender="1:tor-kul-na#1")
    state = roll_asked(roll_asked(state, skulls=2), shields=0)
    tor = unit(public(state), 1, "tor-kul-na")
    assert tor["hero"] and tor["life"] == 6
    assert tor["figures"][0]["wounds"] == 2 and tor["living"] == 1


def test_victory_status_names_the_leader_on_points() -> None:
    shown = public(battle(ARMIES, ORDERS))
    totals = [p["score"]["total"] for p in shown["players"]]
    leader = shown["players"][totals.index(max(totals))]["name"]
    assert shown["victory"] == [f"Most points on the battlefield: {leader} ({max(totals):g})"]
    assert shown["scenario"]["goal"]


def test_the_finished_game_has_its_result() -> None:
    state = act(
        battle(
            [["marro-drudge"], ["marrden-nagrubs"]], [("0:marro-drudge",) * 4, ("1:marrden-nagrubs",) * 4]
        ),
        "moved",
        player=0,
    )
    for figure in (1, 2, 3):
        state = act(
            state,
            "attack",
            player=0,
            attacker=f"0:marro-drudge/{figure}",
            defender=f"1:marrden-nagrubs/{figure}",
        )
        state = roll_asked(roll_asked(state, skulls=2), shields=0)
    shown = public(state)
    assert shown["finished"] and shown["prompt"] is None
    assert shown["result"]["winners"] == [0] and shown["result"]["tie"] is False
    assert shown["result"]["reason"]
    typed = GAME.result(state)  # the platform's form: the scenario's winner first, then points
    assert typed.final and typed.winners == (0,) and not typed.tie
    assert [s.rank for s in typed.standings] == [1, 2] and typed.points_label == "points on the battlefield"
    assert typed.outcome == f"Ann wins: {state.reason}" and typed.details["reason"] == state.reason


def shiori_attacks() -> State:
    """Ann's Shiori on the Glyph of Ulaniva with one marker (the X) left on her card, from higher ground,
    against Ben's Tor-Kul-Na."""
    state = battle(
        [["shiori", "raelin"], ["tor-kul-na"]],
        [("0:shiori", "0:raelin", "0:raelin", "0:shiori"), ("1:tor-kul-na",) * 4],
    )
    state = act(state, "glyph", player=0, figure="0:shiori", glyph="ulaniva")
    return act(state, "attack", player=0, attacker="0:shiori", defender="1:tor-kul-na", height="attacker")


def test_the_attack_says_which_modifiers_its_dice_include() -> None:
    """Attacking: 'Check the Attack number on your Attacker's Army Card, adding any extra dice for height
    advantage, special powers or Glyphs': the view and the event say which were added."""
    state = shiori_attacks()
    pending = public(state)["pending_attack"]
    assert pending["attack_dice"] == 6 and pending["defense_dice"] == 5
    assert pending["attack_parts"] == [
        ["Attack", 3],
        ["height advantage", 1],
        ["Glyph of Ulaniva", 1],
        ["Concentrated Will", 1],
    ]
    assert pending["defense_parts"] == [["Defense", 5]]
    state = act(state, "roll", player=0, die="combat", faces=["blank"] * 6)
    last_declared = GAME.apply(
        battle([["shiori"], ["tor-kul-na"]], [("0:shiori",) * 4, ("1:tor-kul-na",) * 4]),
        GAME.parse_action(
            {"kind": "attack", "player": 0, "attacker": "0:shiori", "defender": "1:tor-kul-na"}
        ),
    )[1]
    assert "3 attack dice (Attack 3) against 5 defense dice (Defense 5)" in last_declared[0].text
    state = roll_asked(state, 0, 0)
    last = public(state)["last_attack"]
    assert last["attack_parts"] == pending["attack_parts"] and last["defense_parts"] == [["Defense", 5]]


def test_no_skull_reads_nothing_to_block_and_a_wound_says_the_life_left() -> None:
    """'For every skull you roll ... your opponent must roll at least one shield, to block it': with no
    skull there is nothing to block. A wound says how much Life is left, as the TV's row does."""
    state = roll_asked(roll_asked(shiori_attacks(), 0), 0)
    assert public(state)["last_attack"]["outcome"] == "no skull, nothing to block"
    state = roll_asked(shiori_attacks(), 2)
    state, events = GAME.apply(
        state,
        GAME.parse_action(
            {"kind": "roll", "player": 1, "die": "combat", "faces": ["shield"] + ["blank"] * 4}
        ),
    )
    texts = [e.text for e in events]
    assert "Ben's Tor-Kul-Na: 2 skulls against 1 shield, 1 wound" in texts
    assert "Ben's Tor-Kul-Na has 1 wound: 5 of 6 life left" in texts
    assert public(state)["last_attack"]["outcome"] == "2 skulls against 1 shield, 1 wound"


def test_the_views_figure_labels_are_the_engines() -> None:
    """The TV's and phones' names of figures are the ones the events use (figure_label)."""
    from companion.games.heroscape.common import figure_label
    from companion.games.heroscape.ids import FigureId

    from .rules_support import CAT

    state = battle(
        [["marro-stingers", "marro-stingers", "shiori"], ["marrden-nagrubs", "tor-kul-na"]],
        [("0:shiori",) * 4, ("1:tor-kul-na",) * 4],
    )
    shown = public(state)
    labels = {f["id"]: f["label"] for p in shown["players"] for u in p["army"] for f in u["figures"]}
    assert labels["0:marro-stingers#2/3"] == "Stingers 6" and labels["0:shiori/1"] == "Shiori"
    for figure, label in labels.items():
        assert label == figure_label(CAT, state, FigureId.parse(figure))
