"""Special powers that are rolls or choices (every d20 power is a prompt): Sonlen's Dragon Healing and
Dragon Swoop, the Marro Hive's Hive Mind and Marro Rebirth. Timing is the card's words: "before
moving", "after moving and before attacking", "after taking a turn"."""

from __future__ import annotations

from companion.games.heroscape.state import State

from .rules_support import GAME, act, alive, battle, d20, markers, new, refused, roll_asked, wounds

HEROES = ["sonlen", "raelin", "sgt-drake-alexander"]
MARRO = ["marro-stingers", "marro-drudge", "tor-kul-na"]


def sonlen_turn() -> State:
    return battle([HEROES, MARRO], [("0:sonlen",) * 4, ("1:tor-kul-na",) * 4])


def choices(state: State) -> list[str]:
    prompt = GAME.prompt(state)
    assert prompt is not None
    return [c.label for c in prompt.choices]


def test_dragon_healing_before_moving_heals_a_wounded_hero_on_15_or_more() -> None:
    state = act(sonlen_turn(), "correct_wounds", player=0, figure="0:raelin", wounds=2)
    assert any(label.startswith("Dragon Healing: Ann's Raelin") for label in choices(state))
    use = dict(player=0, power="dragon-healing", unit="0:sonlen")
    assert "wounded Hero" in refused(state, "power", **use, target="0:sgt-drake-alexander")
    state = act(state, "power", **use, target="0:raelin")
    prompt = GAME.prompt(state)
    assert prompt is not None and prompt.roll is not None and prompt.roll.die == "d20"
    assert wounds(d20(state, 0, 14), "0:raelin") == 2
    healed = d20(state, 0, 15)
    assert wounds(healed, "0:raelin") == 1
    assert "used this turn" in refused(healed, "power", **use, target="0:raelin")


def test_dragon_healing_is_used_before_moving_only() -> None:
    state = act(sonlen_turn(), "correct_wounds", player=0, figure="0:raelin", wounds=2)
    state = act(state, "moved", player=0)
    assert "before moving" in refused(
        state, "power", player=0, power="dragon-healing", unit="0:sonlen", target="0:raelin"
    )


def test_dragon_swoop_after_moving_and_before_attacking_wounds_on_15_or_more() -> None:
    state = sonlen_turn()
    swoop = dict(player=0, power="dragon-swoop", unit="0:sonlen", target="1:tor-kul-na")
    state = d20(act(state, "power", **swoop), 0, 17)
    assert wounds(state, "1:tor-kul-na") == 1
    assert state.turn is not None and state.turn.step == "attack"  # using it ends the move
    other = sonlen_turn()
    other = act(other, "attack", player=0, attacker="0:sonlen", defender="1:tor-kul-na")
    other = roll_asked(roll_asked(other, 0), 0)
    assert "before attacking" in refused(other, "power", **swoop)


def test_only_the_turns_card_uses_its_powers() -> None:
    state = sonlen_turn()
    message = refused(state, "power", player=0, power="dragon-swoop", unit="0:raelin", target="1:tor-kul-na")
    assert "not taking this turn" in message
    assert "no power" in refused(
        state, "power", player=0, power="hive-mind", unit="0:sonlen", target="1:tor-kul-na"
    )


def hive_turn(extra: list[str] | None = None) -> State:
    """Ben's Marro Hive with his squads, markers all on the Hive, Ben first."""
    return battle(
        [["raelin", "sonlen"], ["marro-hive", "marro-stingers", "marro-drudge", *(extra or [])]],
        [("0:raelin",) * 4, ("1:marro-hive",) * 4],
        rolls=(1, 20),
    )


def test_hive_mind_offers_a_small_or_medium_common_marro_squad_first() -> None:
    state = hive_turn(["marrden-nagrubs"])
    prompt = GAME.prompt(state)
    assert prompt is not None and prompt.kind == "hive-mind"
    offered = {c.action.option for c in prompt.choices if c.action.kind == "choose"}  # type: ignore[attr-defined]
    assert offered == {"hive-mind:1:marro-stingers", "hive-mind:1:marro-drudge"}  # Nagrubs are no Marro
    state = act(state, "choose", player=1, option="hive-mind:1:marro-stingers")
    state = act(state, "attack", player=1, attacker="1:marro-stingers/1", defender="0:raelin")
    state = roll_asked(roll_asked(state, 0), 0)
    state = act(state, "end_turn", player=1)
    assert state.turn is not None and state.turn.unit == "1:marro-hive" and state.turn.first is None
    assert GAME.prompt(state).kind == "turn"  # type: ignore[union-attr]
    state = act(state, "attack", player=1, attacker="1:marro-hive", defender="0:raelin")
    assert state.top.attack_dice == 1  # type: ignore[union-attr]


def test_hive_mind_may_be_declined() -> None:
    state = act(hive_turn(), "decline", player=1)
    assert state.turn is not None and state.turn.unit == "1:marro-hive" and GAME.prompt(state).kind == "turn"  # type: ignore[union-attr]


def test_marro_rebirth_after_the_hives_turn_on_13_or_more() -> None:
    state = act(hive_turn(), "decline", player=1)
    state = act(state, "correct_status", player=1, figure="1:marro-drudge/2", status="destroyed")
    state = act(state, "end_turn", player=1)
    prompt = GAME.prompt(state)
    assert prompt is not None and prompt.kind == "rebirth-offer"
    state = act(state, "choose", player=1, option="roll")
    assert not alive(d20(state, 1, 12), "1:marro-drudge/2")
    assert alive(d20(state, 1, 13), "1:marro-drudge/2")


def test_marro_rebirth_asks_which_squad_when_several_lost_figures() -> None:
    state = act(hive_turn(), "decline", player=1)
    state = act(state, "correct_status", player=1, figure="1:marro-drudge/2", status="destroyed")
    state = act(state, "correct_status", player=1, figure="1:marro-stingers/1", status="destroyed")
    state = d20(act(act(state, "end_turn", player=1), "choose", player=1, option="roll"), 1, 20)
    assert GAME.prompt(state).kind == "rebirth"  # type: ignore[union-attr]
    state = act(state, "choose", player=1, option="marro-stingers")
    assert alive(state, "1:marro-stingers/1") and not alive(state, "1:marro-drudge/2")


def test_no_rebirth_offered_with_nobody_to_bring_back() -> None:
    state = act(act(hive_turn(), "decline", player=1), "end_turn", player=1)
    assert GAME.prompt(state).kind == "turn"  # type: ignore[union-attr]
    assert state.turn is not None and state.turn.seat == 0


def test_the_basic_game_has_no_special_powers() -> None:
    state = new("a-long-wait")
    state = act(state, "roll", player=0, die="combat", faces=["skull"] * 6)
    state = act(state, "roll", player=1, die="combat", faces=["blank"] * 6)
    state = act(state, "choose_card", player=0, unit="0:sonlen")
    message = refused(state, "power", player=0, power="dragon-swoop", unit="0:sonlen", target="1:tor-kul-na")
    assert "no special powers" in message


def test_markers_on_the_hive_in_a_scenario_that_gives_it() -> None:
    """Source of Corruption: Player 2's pre-set army includes the Marro Hive and Tor-Kul-Na."""
    state = new("source-of-corruption")
    state = markers(state, 0, "0:raelin", "0:sonlen", "0:shiori", "0:major-q10")
    state = markers(state, 1, "1:marro-hive", "1:tor-kul-na", "1:marro-hive", "1:marro-stingers#2")
    assert state.phase == "rolloff"
