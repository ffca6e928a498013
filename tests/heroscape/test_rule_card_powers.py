"""The army-card powers the rulebook does not print, as their published card texts give them (issue 15):
Sgt. Drake Alexander's Pistol Fire Special Attack, Tor-Kul-Na's Trample Stomp, the Marro Stingers'
Stinger Drain, the Marrden Nagrubs' Hivelord Life Bonding and Climb X2. Every d20 is a prompt; what the
map knows (adjacent, same level, a space to end on) the players declare by choosing."""

from __future__ import annotations

from companion.games.heroscape.state import State

from .rules_support import GAME, act, act_events, alive, asked_dice, battle, d20, refused, roll_asked, wounds


def prompt_kind(state: State) -> str:
    prompt = GAME.prompt(state)
    assert prompt is not None
    return prompt.kind


# ------------------------------------------------------------------------------------- Pistol Fire


def drake_turn() -> State:
    return battle(
        [["sgt-drake-alexander", "shiori"], ["raelin", "marro-stingers"]],
        [("0:sgt-drake-alexander",) * 4, ("1:raelin",) * 4],
    )


def test_pistol_fire_rolls_three_dice_and_never_at_a_figure_who_follows_jandar() -> None:
    """'Range 5. Attack 3. Drake may not use Pistol Fire Special Attack to attack a figure who follows
    Jandar.' A special attack's dice are never modified by height (Special Attacks)."""
    state = drake_turn()
    pistol = dict(player=0, attacker="0:sgt-drake-alexander", special="pistol-fire")
    assert "follows Jandar" in refused(state, "attack", **pistol, defender="1:raelin")
    state = act(state, "attack", **pistol, defender="1:marro-stingers/1", height="attacker")
    assert asked_dice(state) == 3
    state = roll_asked(roll_asked(state, 0), 0)
    assert "has attacked" in refused(
        state, "attack", player=0, attacker="0:sgt-drake-alexander", defender="1:marro-stingers/2"
    )
    assert "once a turn" in refused(state, "attack", **pistol, defender="1:marro-stingers/2")


def test_pistol_fire_is_listed_only_where_it_may_be_used() -> None:
    listed = [a for a in GAME.legal_actions(drake_turn()) if a.kind == "attack"]
    pistol = {a.defender for a in listed if a.special == "pistol-fire"}  # type: ignore[attr-defined]
    assert "1:raelin/1" not in pistol and "1:marro-stingers/1" in pistol


# ----------------------------------------------------------------------------------- Trample Stomp


def tor_turn(ann: list[str] | None = None) -> State:
    """Ben's Tor-Kul-Na takes the first turn against Ann's Heroes."""
    return battle(
        [ann or ["shiori", "major-q10", "raelin"], ["tor-kul-na", "marro-stingers"]],
        [("0:shiori",) * 4, ("1:tor-kul-na",) * 4],
        rolls=(1, 20),
    )


STOMP = dict(player=1, power="trample-stomp", unit="1:tor-kul-na")


def test_trample_stomp_1_to_7_the_figure_is_safe_and_the_movement_ends() -> None:
    """'If you roll 1 - 7, the figure is safe and Tor-Kul-Na's movement ends.'"""
    state = act(tor_turn(), "power", **STOMP, target="0:shiori")
    assert prompt_kind(state) == "d20"
    state = d20(state, 1, 7)
    assert wounds(state, "0:shiori") == 0
    assert state.turn is not None and state.turn.step == "attack"
    assert "while moving" in refused(state, "power", **STOMP, target="0:shiori")
    assert "while it moves" in refused(state, "fall", player=1, figure="1:tor-kul-na", levels=11)


def test_trample_stomp_8_or_more_wounds_and_a_survivor_ends_the_movement() -> None:
    """'If you roll 8-20, the chosen figure receives 1 wound. ... If the chosen figure is not destroyed,
    Tor-Kul-Na's movement ends.'"""
    state = d20(act(tor_turn(), "power", **STOMP, target="0:shiori"), 1, 8)
    assert wounds(state, "0:shiori") == 1
    assert state.turn is not None and state.turn.step == "attack"


def test_trample_stomp_destroying_the_figure_lets_tor_kul_na_move_on_and_stomp_again() -> None:
    """'If the wound destroys the figure, move Tor-Kul-Na on the space that the figure occupied, and you
    may continue Tor-Kul-Na's movement.' 'each time he uses this power': more than once a turn."""
    state = act(tor_turn(), "correct_wounds", player=0, figure="0:shiori", wounds=2)
    state, events = act_events(
        act(state, "power", **STOMP, target="0:shiori"), "roll", player=1, die="d20", faces=["20"]
    )
    assert not alive(state, "0:shiori")
    assert state.turn is not None and state.turn.step == "move"
    assert any("moves on" in e.text for e in events)
    state = d20(act(state, "power", **STOMP, target="0:raelin"), 1, 12)
    assert wounds(state, "0:raelin") == 1


def test_trample_stomp_only_small_or_medium_figures() -> None:
    """'choose a small or medium figure' (Major Q10 is large)."""
    assert "small or medium" in refused(tor_turn(), "power", **STOMP, target="0:major-q10")


def test_trample_stomp_is_offered_while_tor_kul_na_moves() -> None:
    prompt = GAME.prompt(tor_turn())
    assert prompt is not None
    labels = [c.label for c in prompt.choices]
    assert any(label.startswith("Trample Stomp: Ann's Shiori") for label in labels)
    assert not any("Q10" in label for label in labels if label.startswith("Trample Stomp"))


def test_a_trapped_tor_kul_na_cannot_trample() -> None:
    """Glyph of Proftaka: 'The trapped figure cannot move from this space.'"""
    state = act(tor_turn(), "glyph", player=1, figure="1:tor-kul-na", glyph="proftaka")
    assert "trapped" in refused(state, "power", **STOMP, target="0:shiori")


# ----------------------------------------------------------------------------------- Stinger Drain


def stinger_turn() -> State:
    """Ben's Stingers take the first turn, after moving."""
    state = battle(
        [["raelin", "sonlen"], ["marro-stingers", "tor-kul-na"]],
        [("0:raelin",) * 4, ("1:marro-stingers",) * 4],
        rolls=(1, 20),
    )
    return act(state, "moved", player=1)


DRAIN = dict(player=1, power="stinger-drain", unit="1:marro-stingers")
STING = dict(player=1, attacker="1:marro-stingers/1", defender="0:raelin")


def attack_dice(state: State) -> int:
    return act(state, "attack", **STING).top.attack_dice  # type: ignore[union-attr]


def test_the_d20_prompt_says_what_each_roll_does() -> None:
    prompt = GAME.prompt(act(stinger_turn(), "power", **DRAIN))
    assert prompt is not None and prompt.text == (
        "Ben: roll the d20 for Stinger Drain (1-4: a Stinger is destroyed and none attacks this turn; "
        "10 or higher: +1 attack)"
    )
    prompt = GAME.prompt(act(tor_turn(), "power", **STOMP, target="0:shiori"))
    assert prompt is not None and prompt.text == (
        "Ben: roll the d20 for Trample Stomp (8 or higher wounds it; lower, and the movement ends)"
    )


def test_stinger_drain_10_or_more_adds_1_to_the_attack() -> None:
    """'If you roll a 10 or higher, add 1 to the attack value of this card.'"""
    assert attack_dice(stinger_turn()) == 3
    assert attack_dice(d20(act(stinger_turn(), "power", **DRAIN), 1, 10)) == 4
    assert attack_dice(d20(act(stinger_turn(), "power", **DRAIN), 1, 9)) == 3  # 5-9: add 0


def test_stinger_drain_1_to_4_destroys_a_stinger_and_no_attack_this_turn() -> None:
    """'If you roll a 1-4, you must destroy a Marro Stinger you control and you cannot attack this
    turn.' The player chooses which."""
    state = d20(act(stinger_turn(), "power", **DRAIN), 1, 4)
    prompt = GAME.prompt(state)
    assert prompt is not None and prompt.kind == "drain-destroy" and prompt.players == (1,)
    assert "This needs an answer" in refused(state, "decline", player=1)
    state = act(state, "choose", player=1, option="1:marro-stingers/3")
    assert not alive(state, "1:marro-stingers/3") and alive(state, "1:marro-stingers/1")
    assert "cannot attack" in refused(state, "attack", **STING)
    assert not [a for a in GAME.legal_actions(state) if a.kind == "attack"]
    assert GAME.view(state)["turn"]["attackers"] == []  # the phone offers no attack form


def test_stinger_drain_after_moving_before_attacking_once() -> None:
    state = act(stinger_turn(), "attack", **STING)
    state = roll_asked(roll_asked(state, 0), 0)
    assert "before attacking" in refused(state, "power", **DRAIN)
    state = d20(act(stinger_turn(), "power", **DRAIN), 1, 12)
    assert "used this turn" in refused(state, "power", **DRAIN)
    assert "needs no target" in refused(stinger_turn(), "power", **DRAIN, target="0:raelin")


# --------------------------------------------------------------------------- Hivelord Life Bonding


def nagrub_turn(tor_wounds: int = 2) -> State:
    """Ben reveals his marker on the Nagrubs; Tor-Kul-Na carries wounds."""
    state = battle(
        [["raelin", "sonlen"], ["marrden-nagrubs", "tor-kul-na"]],
        [("0:raelin",) * 4, ("1:marrden-nagrubs",) * 4],
        rolls=(1, 20),
    )
    return act(state, "correct_wounds", player=1, figure="1:tor-kul-na", wounds=tor_wounds)


def test_life_bonding_offers_the_hivelord_a_turn_before_the_nagrubs() -> None:
    """'Before taking a turn with Marrden Nagrubs, you may first take a turn with any Hivelord you
    control.'"""
    state = nagrub_turn()
    prompt = GAME.prompt(state)
    assert prompt is not None and prompt.kind == "life-bonding"
    options = {c.action.option for c in prompt.choices if c.action.kind == "choose"}  # type: ignore[attr-defined]
    assert options == {"hivelord-life-bonding:1:tor-kul-na"}
    state = act(state, "choose", player=1, option="hivelord-life-bonding:1:tor-kul-na")
    assert state.turn is not None and state.turn.first == "1:tor-kul-na"
    state = act(state, "attack", player=1, attacker="1:tor-kul-na", defender="0:raelin")
    state = roll_asked(roll_asked(state, 0), 0)
    state = act(state, "end_turn", player=1)
    assert state.turn is not None and state.turn.first is None and state.turn.unit == "1:marrden-nagrubs"
    state = act(state, "attack", player=1, attacker="1:marrden-nagrubs/1", defender="0:raelin")
    assert asked_dice(state) == 2


def test_life_bonding_destroys_an_adjacent_nagrub_to_remove_a_wound_before_moving() -> None:
    """'Before moving the chosen Hivelord, you may destroy one adjacent Marrden Nagrub you control. If
    you destroy a Marrden Nagrub with Hivelord Life Bonding, remove 1 wound marker from the chosen
    Hivelord's Army Card.'"""
    state = act(nagrub_turn(), "choose", player=1, option="hivelord-life-bonding:1:tor-kul-na")
    bond = dict(player=1, power="hivelord-life-bonding", unit="1:marrden-nagrubs")
    assert "Nagrub" in refused(state, "power", **bond, target="0:raelin")
    state = act(state, "power", **bond, target="1:marrden-nagrubs/2")
    assert not alive(state, "1:marrden-nagrubs/2") and wounds(state, "1:tor-kul-na") == 1
    assert "used this turn" in refused(state, "power", **bond, target="1:marrden-nagrubs/1")
    other = act(
        act(nagrub_turn(), "choose", player=1, option="hivelord-life-bonding:1:tor-kul-na"), "moved", player=1
    )
    assert "before moving" in refused(other, "power", **bond, target="1:marrden-nagrubs/1")


def test_life_bonding_may_be_declined_and_works_only_on_the_hivelords_turn() -> None:
    state = act(nagrub_turn(), "decline", player=1)
    assert state.turn is not None and state.turn.unit == "1:marrden-nagrubs" and state.turn.first is None
    bond = dict(
        player=1, power="hivelord-life-bonding", unit="1:marrden-nagrubs", target="1:marrden-nagrubs/1"
    )
    assert "Hivelord" in refused(state, "power", **bond)


# ---------------------------------------------------------------------------------------- Climb X2


def test_climb_x2_a_nagrub_falls_by_its_doubled_height() -> None:
    """Climb X2: 'When moving up or down levels of terrain, Marrden Nagrubs may double their Height.'
    Falling: 'If a figure moves down onto a level that is equal to or higher than the figure's height,
    you must roll one combat die' (Nagrubs are 3 high: 6 with Climb X2; a major fall from 16)."""
    state = act(
        act(nagrub_turn(), "decline", player=1), "correct_wounds", player=1, figure="1:tor-kul-na", wounds=0
    )
    fall = dict(player=1, figure="1:marrden-nagrubs/1")
    assert "no fall" in refused(state, "fall", **fall, levels=5)
    assert asked_dice(act(state, "fall", **fall, levels=6)) == 1
    assert asked_dice(act(state, "fall", **fall, levels=16)) == 3
