"""What a new game's setup must be before any engine reads it: colours that are colours, options the
game knows (each refused by name)."""

from __future__ import annotations

import pytest

from companion.engine import Player, Setup, SetupError, is_colour
from companion.games.chaos_marauders.engine import ChaosMarauders
from companion.games.heroscape.engine import HeroScape


@pytest.mark.parametrize("colour", ["#e23b3b", "#FFF", "#2f7DF6"])
def test_a_colour_is_hash_and_hex_digits(colour: str) -> None:
    assert is_colour(colour)
    setup = Setup.from_json({"game": "g", "players": [{"name": "a", "colour": colour}]})
    assert setup.players[0].colour == colour


@pytest.mark.parametrize(
    "colour",
    ["red", "#12345", "#1234567", "", "#e23b3b; background: url(http://evil/)", "var(--x)", "#ggg"],
)
def test_anything_else_is_refused_naming_the_player(colour: str) -> None:
    assert not is_colour(colour)
    with pytest.raises(SetupError, match=r"player 2.s colour .* is not a colour like #e23b3b"):
        Setup.from_json({"game": "g", "players": [{"name": "a"}, {"name": "b", "colour": colour}]})


@pytest.mark.parametrize("game", [ChaosMarauders(), HeroScape()])
def test_unknown_options_are_refused_with_their_names(game) -> None:
    setup = Setup(game.name, (Player("a"), Player("b")), (("colour_blind", True), ("seed", 3)))
    with pytest.raises(SetupError) as refused:
        game.check_options(setup)
    assert f"unknown options for {game.title}: colour_blind, seed (known: " in str(refused.value)


def test_chaos_marauders_declares_the_first_player_option_it_reads() -> None:
    game = ChaosMarauders()
    setup = Setup(game.name, (Player("a"), Player("b")), (("first_player", 1),))
    game.check_options(setup)
    assert game.new_game(setup).active == 1
    assert [o.name for o in game.setup_options()] == ["first_player"]
