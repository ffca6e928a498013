"""What the platform asks of the engine: its kind, whose decision an action is, secret actions and their
public form, the private view, the result, setup options, and the bundle."""

from __future__ import annotations

import json

import pytest

from companion.engine import PlayerId, Roll, SetupError
from companion.games import find_bundle
from companion.games.orcwars_too.actions import (
    AssignDamage,
    ChooseStrategy,
    CorrectGold,
    Discard,
    Done,
    Draw,
    Levy,
    Move,
    OfferTrade,
)
from companion.games.orcwars_too.engine import OrcwarsToo
from companion.games.orcwars_too.state import Army, Hand, Land

from .positions import engine, position, setup


def test_the_game_is_simultaneous_with_hidden_information() -> None:
    kind = OrcwarsToo.game_type
    assert kind.simultaneous_moves and kind.hidden_information and not kind.cooperative


def test_secret_actions_show_only_their_kind_player_and_count() -> None:
    game = OrcwarsToo()
    draw = Draw(PlayerId(1), ("red-orcs", "ogres"))
    assert game.secret_action(draw) and game.public_action(draw) == {"kind": "draw", "player": 1, "count": 2}
    strategy = ChooseStrategy(PlayerId(0), "clever")
    assert game.public_action(strategy) == {"kind": "strategy", "player": 0}
    assert game.secret_action(Discard(PlayerId(0), ("ogres#1",)))
    offer = OfferTrade(PlayerId(0), PlayerId(1), give_gold=2)
    assert game.public_action(offer) == {"kind": "offer_trade", "player": 0, "partner": 1}
    for public in (Move(PlayerId(0), "thar", "kol"), Roll(PlayerId(0), "d8", ("3",)), Done(PlayerId(0))):
        assert not game.secret_action(public)
    assert game.secret_action(AssignDamage(PlayerId(0), (("ogres#1", 2),))) is False


def test_the_actor_is_the_leaders_owner_the_secret_choosers_seat_or_the_dice_thrower() -> None:
    game = engine()
    state = position(game, armies=[Army("grim", 0, "home-a"), Army("snag", 1, "home-b")])
    assert game.actor(state, Move(PlayerId(1), "grim", "middle")) == 0  # someone else's leader: his owner
    assert game.actor(state, Levy(PlayerId(1), "snag")) == 1
    assert game.actor(state, ChooseStrategy(PlayerId(1), "charge")) == 1
    assert game.actor(state, Roll(PlayerId(1), "d8", ("2",))) == 1  # his own die (found by attacking)
    assert game.actor(state, Roll(PlayerId(5), "d8", ("2",))) is None  # no chief at seat 6: the table's
    assert game.actor(state, CorrectGold(PlayerId(0), 3)) is None
    assert game.actor(state, Done(PlayerId(0))) == 0


def test_the_private_view_holds_the_hand_and_the_public_view_never_does() -> None:
    game = engine()
    state = position(game, hands={0: Hand(("orcs#1", "trolls#2", "spy"), 3)})
    public = json.dumps(game.view(state))
    assert "trolls#2" not in public and "Trolls" not in public
    mine = game.private_view(state, PlayerId(0))
    assert mine is not None and {c["id"] for c in mine["hand"]} == {"orcs#1", "trolls#2", "spy"}
    assert game.private_view(state, PlayerId(1))["hand"] == []  # type: ignore[index]
    assert game.private_view(state, PlayerId(7)) is None
    player = game.view(state)["players"][0]
    assert player["hand"] == 3 and player["gold"] == 3 and player["hand_units"] == 2


def test_what_may_be_drawn_is_told_by_type_never_by_where_the_chips_are() -> None:
    game = engine()
    state = position(game, hands={1: Hand(("orcs#1", "orcs#2"))})
    drawable = {d["type"]: d["left"] for d in game.private_view(state, PlayerId(0))["drawable"]}  # type: ignore[index]
    assert drawable["orcs"] == 4  # two in the cup, two in another hand: the same to this player
    assert all("chips" not in d for d in game.private_view(state, PlayerId(0))["drawable"])  # type: ignore[index]


def test_the_result_ranks_by_lands_and_manned_fortresses_until_someone_wins() -> None:
    game = engine()
    state = position(
        game,
        armies=[Army("grim", 0, "fort-land", ("orcs#1",))],
        lands=[Land("home-a", 1), Land("home-b", 1), Land("fort-land", 0, fortress=3)],
    )
    result = game.result(state)
    assert not result.final and result.points_label == "lands + fortresses"
    assert [s.points for s in result.standings] == [2.0, 2.0]  # 1 land + a manned fortress; 2 lands
    assert result.standings[0].details["fortresses"] == 1
    over = position(game, lands=[Land("home-a", 1)], finished=True, winners=(0,), reason="power victory")
    final = game.result(over)
    assert (
        final.final
        and final.winners == (0,)
        and final.standings[0].rank == 1
        and final.standings[1].rank == 2
    )


def test_setup_options_and_a_setup_it_cannot_play() -> None:
    game = OrcwarsToo()
    assert [o.name for o in game.setup_options()] == ["turn_limit"]
    with pytest.raises(SetupError, match="2 to 6 players"):
        game.new_game(setup(2).__class__("orcwars-too", setup(2).players[:1]))
    with pytest.raises(SetupError, match="turn_limit"):
        game.new_game(setup(2).__class__("orcwars-too", setup(2).players, (("turn_limit", -1),)))
    with pytest.raises(SetupError, match="unknown options"):
        game.new_game(setup(2).__class__("orcwars-too", setup(2).players, (("bosses", 3),)))


def test_the_bundle_declares_engine_catalog_dice_screens_and_commands() -> None:
    bundle = find_bundle("orcwars-too")
    assert isinstance(bundle.load_engine(), OrcwarsToo)
    assert {c.name for c in bundle.commands} == {"combat", "cards", "simulate"}
    assert set(bundle.screens) == {"tv.js", "tv.css", "control.js", "control.css"}
    for name in bundle.screens:
        assert bundle.screen_path(name).exists()  # type: ignore[union-attr]
    cards = bundle.cards()
    assert cards and all("id" in c and "title" in c for c in cards)
    assert bundle.mapper and bundle.demo and {kind.name for kind in bundle.zones} == {"hand", "territory"}
    assert [role.name for role in bundle.buttons] == ["done"]
