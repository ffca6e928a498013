"""Attacks from dice (rulebook, Master Game Guide, Attacking; Basic Game Guide, Attacking): the dice
each side rolls with height advantage, glyphs and powers; wounds are the skulls beyond the shields; a
figure is destroyed at its Life; special attacks; leaving-engagement attacks; falling. The players
declare what only the map knows (height, adjacency, swamp water, engagement)."""

from __future__ import annotations

from companion.games.heroscape.state import State

from .rules_support import (
    GAME,
    act,
    alive,
    asked_dice,
    battle,
    combat,
    new,
    refused,
    roll_asked,
    wounds,
)

MARRO = ["marro-stingers", "marro-drudge", "tor-kul-na"]
HEROES = ["shiori", "raelin", "sgt-drake-alexander"]


def ann_turn(card: str, ben: tuple[str, str, str, str] = ("1:tor-kul-na",) * 4, **options: object) -> State:
    """Ann (seat 0, heroes) takes turn 1 with ``card``; Ben holds the Marro."""
    ann = (f"0:{card}", "0:raelin", "0:raelin", "0:sgt-drake-alexander")
    return battle([HEROES, MARRO], [ann, ben], **options)


def ben_turn(card: str, ann: tuple[str, str, str, str] = ("0:raelin",) * 4) -> State:
    """Ben (seat 1, the Marro) takes turn 1 with ``card`` (he wins the initiative)."""
    return battle([HEROES, MARRO], [ann, (f"1:{card}",) * 4], rolls=(1, 20))


def declared(state: State, **attack: object) -> tuple[int, int]:
    """(attack dice, defense dice) of a declared attack."""
    state = act(state, "attack", **attack)
    top = state.top
    assert top is not None
    return top.attack_dice, top.defense_dice  # type: ignore[union-attr]


# ------------------------------------------------------------------------------------- the examples


def test_basic_game_example_9_the_marro_stingers_attack() -> None:
    """Basic Game, Example 9: a Stinger with height advantage rolls 4 dice against Shiori's 5; 2 skulls
    against 2 shields are blocked; the second Stinger's 2 skulls against 1 shield destroy her."""
    state = new("a-long-wait")
    state = act(state, "roll", player=0, die="combat", faces=["blank"] * 6)
    state = act(state, "roll", player=1, die="combat", faces=["skull"] + ["blank"] * 5)
    state = act(state, "choose_card", player=1, unit="1:marro-stingers")
    first = dict(player=1, attacker="1:marro-stingers/1", defender="0:shiori", height="attacker")
    assert declared(state, **first) == (4, 5)
    state = roll_asked(roll_asked(act(state, "attack", **first), 2), 0, 2)
    assert alive(state, "0:shiori") and wounds(state, "0:shiori") == 0
    assert "has attacked" in refused(state, "attack", **first)  # each figure attacks once a turn
    second = dict(first, attacker="1:marro-stingers/2")
    state = roll_asked(roll_asked(act(state, "attack", **second), 2), 0, 1)
    assert not alive(state, "0:shiori")


def test_master_game_example_19_an_attack() -> None:
    """Example 19: a Stinger rolls 3 dice; Shiori, with a minor height advantage, rolls 4; two skulls
    and no shields are two wounds; with the one she had, three: Shiori (Life 3) is destroyed, and her
    order marker stays (her turn this round is lost)."""
    state = ben_turn("marro-stingers", ann=("0:raelin", "0:shiori", "0:shiori", "0:raelin"))
    state = act(state, "correct_wounds", player=0, figure="0:shiori", wounds=1)  # an earlier attack
    attack = dict(player=1, attacker="1:marro-stingers/1", defender="0:shiori", height="defender")
    assert declared(state, **attack) == (3, 4)
    state = roll_asked(roll_asked(act(state, "attack", **attack), 2), 0, 0)
    assert not alive(state, "0:shiori")
    assert state.last_attack is not None and (state.last_attack.skulls, state.last_attack.wounds) == (2, 2)


def test_example_17_multiple_engagement() -> None:
    """Example 17: Drake moves away from two Marro Drudge; each rolls one die; two skulls, two wounds.
    The leaving figure rolls no defense."""
    state = ann_turn("sgt-drake-alexander")
    for drudge in ("1:marro-drudge/1", "1:marro-drudge/2"):
        state = act(state, "leaving_engagement", player=1, attacker=drudge, defender="0:sgt-drake-alexander")
        assert asked_dice(state) == 1
        state = roll_asked(state, 1)
    assert wounds(state, "0:sgt-drake-alexander") == 2


def test_example_8_falling_from_a_cliff_as_high_as_the_figure() -> None:
    """Example 8: Shiori (height 4) moves down a 4-level cliff: one die; no skull, no wound."""
    state = ann_turn("shiori")
    state = act(state, "fall", player=0, figure="0:shiori", levels=4)
    assert asked_dice(state) == 1
    state = roll_asked(state, 0, 1)
    assert wounds(state, "0:shiori") == 0 and alive(state, "0:shiori")


# -------------------------------------------------------------------------------------------- dice


def test_height_advantage_adds_one_die_or_two_from_ten_levels_above() -> None:
    """Height Advantage: one extra die for the higher figure; two when its base is 10 or more levels
    above the lower figure's height."""
    state = ann_turn("sgt-drake-alexander")
    attack = dict(player=0, attacker="0:sgt-drake-alexander", defender="1:tor-kul-na")
    assert declared(state, **attack) == (6, 5)
    assert declared(state, **attack, height="attacker") == (7, 5)
    assert declared(state, **attack, height="attacker-major") == (8, 5)
    assert declared(state, **attack, height="defender") == (6, 6)
    assert declared(state, **attack, height="defender-major") == (6, 7)


def test_the_basic_game_knows_no_major_height_advantage() -> None:
    state = new("a-long-wait")
    state = act(state, "roll", player=0, die="combat", faces=["skull"] * 6)
    state = act(state, "roll", player=1, die="combat", faces=["blank"] * 6)
    state = act(state, "choose_card", player=0, unit="0:sonlen")
    attack = dict(player=0, attacker="0:sonlen", defender="1:tor-kul-na", height="attacker-major")
    assert "one extra die" in refused(state, "attack", **attack)


def test_wounds_are_the_skulls_beyond_the_shields_and_destroy_at_life() -> None:
    """'For each unblocked skull ... one Wound Marker'; 'When a figure has as many Wound Markers as the
    Life number on its Army Card, it is destroyed.'"""
    state = ann_turn("sgt-drake-alexander")
    state = act(state, "attack", player=0, attacker="0:sgt-drake-alexander", defender="1:tor-kul-na")
    state = roll_asked(roll_asked(state, 5), 0, 2)
    assert wounds(state, "1:tor-kul-na") == 3 and alive(state, "1:tor-kul-na")
    state = act(state, "correct_wounds", player=1, figure="1:tor-kul-na", wounds=5)
    assert "has attacked" in refused(
        state, "attack", player=0, attacker="0:sgt-drake-alexander", defender="1:tor-kul-na"
    )


def test_as_many_skulls_as_shields_is_blocked() -> None:
    state = ann_turn("sgt-drake-alexander")
    state = act(state, "attack", player=0, attacker="0:sgt-drake-alexander", defender="1:tor-kul-na")
    state = roll_asked(roll_asked(state, 3), 0, 3)
    assert wounds(state, "1:tor-kul-na") == 0
    assert state.last_attack is not None and state.last_attack.wounds == 0


def test_a_squad_figure_falls_to_one_wound_and_the_squad_attacks_one_figure_at_a_time() -> None:
    """'A figure with only one Life is destroyed by only one wound'; each figure attacks once a turn."""
    state = ben_turn("marro-stingers")
    for n in (1, 2, 3):
        state = act(state, "attack", player=1, attacker=f"1:marro-stingers/{n}", defender="0:raelin")
        state = roll_asked(roll_asked(state, 0), 0)
    assert "cannot attack" in refused(
        state, "attack", player=1, attacker="1:marro-drudge/1", defender="0:raelin"
    )
    state = ann_turn("shiori", ben=("1:marro-drudge",) * 4)
    state = act(state, "attack", player=0, attacker="0:shiori", defender="1:marro-stingers/2")
    state = roll_asked(roll_asked(state, 1), 0, 0)
    assert not alive(state, "1:marro-stingers/2") and alive(state, "1:marro-stingers/1")


def test_an_opponents_figure_only() -> None:
    state = ann_turn("shiori")
    assert "opponent" in refused(state, "attack", player=0, attacker="0:shiori", defender="0:raelin")
    assert "Ann's turn" in refused(state, "attack", player=1, attacker="1:tor-kul-na", defender="0:raelin")
    assert "cannot attack" in refused(state, "attack", player=0, attacker="0:raelin", defender="1:tor-kul-na")


def test_destroying_a_common_figure_fills_a_card_that_already_lost_one() -> None:
    """Destroying a Common Figure when your Army includes two or more of the same Army Card: 'If a
    common Army Card already has a destroyed figure on it, you must fill up that card first'."""
    state = battle(
        [["sgt-drake-alexander"], ["marro-stingers", "marro-stingers"]],
        [("0:sgt-drake-alexander",) * 4, ("1:marro-stingers",) * 4],
    )
    state = act(state, "correct_status", player=1, figure="1:marro-stingers/1", status="destroyed")
    state = act(state, "attack", player=0, attacker="0:sgt-drake-alexander", defender="1:marro-stingers#2/3")
    state = roll_asked(roll_asked(state, 1), 0)
    first, second = state.sides[1].units
    assert [f.alive for f in first.figures].count(False) == 2
    assert all(f.alive for f in second.figures)


def test_an_order_marker_activates_any_three_figures_of_twin_common_cards() -> None:
    """'each Order Marker placed on either Army Card activates any three of them'."""
    state = battle(
        [["raelin"], ["marro-stingers", "marro-stingers"]],
        [("0:raelin",) * 4, ("1:marro-stingers",) * 4],
        rolls=(1, 20),
    )
    for attacker in ("1:marro-stingers/1", "1:marro-stingers#2/2", "1:marro-stingers#2/3"):
        state = act(state, "attack", player=1, attacker=attacker, defender="0:raelin")
        state = roll_asked(roll_asked(state, 0), 0)
    message = refused(state, "attack", player=1, attacker="1:marro-stingers/2", defender="0:raelin")
    assert "activates 3 figures" in message


# ------------------------------------------------------------------------------ powers and glyphs


def test_raelins_aura_adds_a_defense_die_to_her_army_but_not_to_her() -> None:
    """Special Powers, Attack Dice and Defense Dice: figures within 6 clear sight spaces of Raelin add 1
    to their defense dice (declared: the map knows the distance); the aura does not affect Raelin."""
    state = ben_turn("tor-kul-na")
    attack = dict(player=1, attacker="1:tor-kul-na")
    assert declared(state, **attack, defender="0:shiori", conditions=["aura"]) == (6, 4)
    assert declared(state, **attack, defender="0:shiori") == (6, 3)
    assert "does not apply" in refused(state, "attack", **attack, defender="0:raelin", conditions=["aura"])


def test_concentrated_will_with_one_unrevealed_marker_on_shiori() -> None:
    """Shiori's card: 'If Shiori has only one unrevealed order marker on her Army Card, add 1 to her
    attack and defense.' The X counts: it is never revealed."""
    lone = ann_turn("shiori")  # marker 1 on Shiori, revealed now: none unrevealed left
    assert declared(lone, player=0, attacker="0:shiori", defender="1:tor-kul-na") == (3, 5)
    one_left = battle(
        [HEROES, MARRO], [("0:shiori", "0:raelin", "0:raelin", "0:shiori"), ("1:tor-kul-na",) * 4]
    )  # turn 1 revealed, the X still face down
    assert declared(one_left, player=0, attacker="0:shiori", defender="1:tor-kul-na") == (4, 5)
    defending = ben_turn("tor-kul-na", ann=("0:raelin", "0:shiori", "0:raelin", "0:raelin"))
    assert declared(defending, player=1, attacker="1:tor-kul-na", defender="0:shiori") == (6, 4)
    two_left = ben_turn("tor-kul-na", ann=("0:raelin", "0:shiori", "0:shiori", "0:raelin"))
    assert declared(two_left, player=1, attacker="1:tor-kul-na", defender="0:shiori") == (6, 3)


def test_swamp_water_strength_for_a_drudge_in_swamp_water() -> None:
    state = ben_turn("marro-drudge")
    attack = dict(player=1, attacker="1:marro-drudge/1", defender="0:raelin")
    assert declared(state, **attack) == (2, 3)
    assert declared(state, **attack, conditions=["swamp-water-attacker"]) == (3, 3)
    state = ann_turn("raelin", ben=("1:marro-drudge",) * 4)
    defend = dict(player=0, attacker="0:raelin", defender="1:marro-drudge/1")
    assert declared(state, **defend, conditions=["swamp-water-defender"]) == (3, 3)
    assert "does not apply" in refused(state, "attack", **defend, conditions=["swamp-water-attacker"])


def test_thorian_speed_only_adjacent_figures_attack_drake_normally() -> None:
    state = ben_turn("marro-stingers")
    attack = dict(player=1, attacker="1:marro-stingers/1", defender="0:sgt-drake-alexander")
    assert "adjacent" in refused(state, "attack", **attack)
    assert declared(state, **attack, conditions=["adjacent"]) == (3, 4)


def test_unknown_conditions_are_refused_in_one_line() -> None:
    state = ann_turn("shiori")
    message = refused(
        state, "attack", player=0, attacker="0:shiori", defender="1:tor-kul-na", conditions=["lava"]
    )
    assert "Unknown conditions: lava" in message


# -------------------------------------------------------------------------------- special attacks


def test_a_special_attack_is_never_modified_by_height_but_the_defender_keeps_his() -> None:
    """Special Powers: 'Special attacks can never be modified by Glyphs, other special powers or height
    advantages'. Shuriken: 3 dice against a small or medium figure, 2 against others. The defender
    still rolls his defense dice with his own height advantage."""
    state = ann_turn("shiori", ben=("1:marro-stingers",) * 4)
    shuriken = dict(player=0, attacker="0:shiori", special="shuriken")
    assert declared(state, **shuriken, defender="1:marro-stingers/1", height="attacker") == (3, 3)
    assert declared(state, **shuriken, defender="1:tor-kul-na") == (2, 5)
    assert declared(state, **shuriken, defender="1:tor-kul-na", height="defender") == (2, 6)


def test_a_special_attack_is_instead_of_the_normal_attack() -> None:
    state = ann_turn("shiori")
    state = act(state, "attack", player=0, attacker="0:shiori", defender="1:tor-kul-na")
    state = roll_asked(roll_asked(state, 0), 0)
    message = refused(
        state, "attack", player=0, attacker="0:shiori", defender="1:tor-kul-na", special="shuriken"
    )
    assert "made its attack" in message


def test_major_q10s_machine_pistol_four_times_a_turn_and_not_with_the_wrist_rocket() -> None:
    state = battle([["major-q10"], MARRO], [("0:major-q10",) * 4, ("1:tor-kul-na",) * 4])
    pistol = dict(player=0, attacker="0:major-q10", defender="1:tor-kul-na", special="machine-pistol")
    for _ in range(4):
        assert declared(state, **pistol) == (2, 5)
        state = roll_asked(roll_asked(act(state, "attack", **pistol), 0), 0)
    assert "4 times a turn" in refused(state, "attack", **pistol)
    rocket = dict(pistol, special="wrist-rocket")
    assert "made its attack" in refused(state, "attack", **rocket)


def test_whirlwind_assault_strikes_each_adjacent_figure_once() -> None:
    state = battle([["raelin"], MARRO], [("0:raelin",) * 4, ("1:marro-drudge",) * 4])
    whirl = dict(player=0, attacker="0:raelin", special="whirlwind-assault")
    for target in ("1:marro-drudge/1", "1:marro-drudge/2"):
        state = roll_asked(roll_asked(act(state, "attack", **whirl, defender=target), 0), 0)
    assert "each adjacent figure once" in refused(state, "attack", **whirl, defender="1:marro-drudge/1")


def test_the_basic_game_has_no_special_attacks_and_any_hit_destroys() -> None:
    """Basic Game: 'If you roll more skulls than the Defender rolls shields ... the Defender is
    destroyed.'"""
    state = new("a-long-wait")
    state = act(state, "roll", player=0, die="combat", faces=["skull"] * 6)
    state = act(state, "roll", player=1, die="combat", faces=["blank"] * 6)
    state = act(state, "choose_card", player=0, unit="0:shiori")
    assert "no special attacks" in refused(
        state, "attack", player=0, attacker="0:shiori", defender="1:tor-kul-na", special="shuriken"
    )
    state = roll_asked(
        roll_asked(act(state, "attack", player=0, attacker="0:shiori", defender="1:tor-kul-na"), 1), 0
    )
    assert not alive(state, "1:tor-kul-na")


# ------------------------------------------------------------------------ engagement and falling


def test_phantom_walk_is_never_attacked_when_leaving_an_engagement() -> None:
    state = ann_turn("shiori")
    message = refused(state, "leaving_engagement", player=1, attacker="1:tor-kul-na", defender="0:shiori")
    assert "never attacked" in message


def test_leaving_engagement_attacks_come_while_the_figures_move() -> None:
    state = ann_turn("raelin")
    leave = dict(player=1, attacker="1:tor-kul-na", defender="0:raelin")
    assert "Only a figure moving" in refused(
        state, "leaving_engagement", **dict(leave, defender="0:sgt-drake-alexander")
    )
    assert "engaged opponent's player" in refused(state, "leaving_engagement", **dict(leave, player=0))
    state = act(state, "moved", player=0)
    assert "before any attack" in refused(state, "leaving_engagement", **leave)


def test_a_leaving_engagement_skull_is_one_wound_and_can_destroy() -> None:
    """Example 20: Raelin flies off, but was engaged when she started: the engaged figure rolls its
    leaving-engagement attack; a skull is a wound, and her fifth destroys her (Life 5)."""
    state = ann_turn("raelin")
    state = act(state, "correct_wounds", player=0, figure="0:raelin", wounds=4)
    state = act(state, "leaving_engagement", player=1, attacker="1:tor-kul-na", defender="0:raelin")
    state = combat(state, 1, skulls=1)
    assert not alive(state, "0:raelin")


def test_falls_minor_major_and_extreme() -> None:
    """Falling: a drop of the figure's height or more rolls one die; 10 levels more than its height,
    three; 20 more, the d20: 19 or 20 survives, 1-18 destroys. Each skull is a wound."""
    state = ann_turn("sgt-drake-alexander")  # height 5
    drake = dict(player=0, figure="0:sgt-drake-alexander")
    assert "less than" in refused(state, "fall", **drake, levels=4)
    assert asked_dice(act(state, "fall", **drake, levels=5)) == 1
    assert asked_dice(act(state, "fall", **drake, levels=14)) == 1
    major = act(state, "fall", **drake, levels=15)
    assert asked_dice(major) == 3
    assert wounds(roll_asked(major, 2), "0:sgt-drake-alexander") == 2
    extreme = act(state, "fall", **drake, levels=25)
    prompt = GAME.prompt(extreme)
    assert prompt is not None and prompt.roll is not None and prompt.roll.die == "d20"
    survived = act(extreme, "roll", player=0, die="d20", faces=["19"])
    assert alive(survived, "0:sgt-drake-alexander") and wounds(survived, "0:sgt-drake-alexander") == 0
    assert not alive(act(extreme, "roll", player=0, die="d20", faces=["18"]), "0:sgt-drake-alexander")


def test_a_flier_never_falls_and_only_a_moving_figure_does() -> None:
    state = ann_turn("raelin")
    assert "flies" in refused(state, "fall", player=0, figure="0:raelin", levels=30)
    assert "not moving" in refused(state, "fall", player=0, figure="0:shiori", levels=30)


def test_a_destroyed_figure_is_out_of_play_and_cannot_attack() -> None:
    state = ann_turn("shiori")
    state = act(state, "correct_wounds", player=0, figure="0:shiori", wounds=2)
    state = act(state, "fall", player=0, figure="0:shiori", levels=4)
    state = roll_asked(state, 1)
    assert not alive(state, "0:shiori")
    assert "cannot attack" in refused(state, "attack", player=0, attacker="0:shiori", defender="1:tor-kul-na")


def test_the_basic_game_ignores_thorian_speed() -> None:
    """The Basic Game uses the cards' Basic side: no special powers, so Drake is attacked from range."""
    state = new("a-long-wait")
    state = act(state, "roll", player=0, die="combat", faces=["blank"] * 6)
    state = act(state, "roll", player=1, die="combat", faces=["skull"] * 6)
    state = act(state, "choose_card", player=1, unit="1:marro-stingers")
    attack = dict(player=1, attacker="1:marro-stingers/1", defender="0:sgt-drake-alexander")
    assert declared(state, **attack) == (3, 4)


def test_teammates_are_not_opponents() -> None:
    """Team play: teammates play separately but towards a common goal; they do not attack each other."""
    armies = [["raelin"], ["tor-kul-na"], ["shiori"], ["major-q10"]]
    orders = [("0:raelin",) * 4, ("1:tor-kul-na",) * 4, ("2:shiori",) * 4, ("3:major-q10",) * 4]
    state = battle(armies, orders, scenario="sirens-call")
    assert state.teams == (0, 0, 1, 1)
    assert "opponent" in refused(state, "attack", player=0, attacker="0:raelin", defender="1:tor-kul-na")
    assert declared(state, player=0, attacker="0:raelin", defender="2:shiori") == (3, 3)


def twin_stingers(ben_first: bool = True) -> State:
    """Ann's Drake against Ben's two Marro Stingers cards; Ben's first card already lost a figure."""
    state = battle(
        [["sgt-drake-alexander"], ["marro-stingers", "marro-stingers"]],
        [("0:sgt-drake-alexander",) * 4, ("1:marro-stingers",) * 4],
        rolls=(1, 20) if ben_first else None,
    )
    return act(state, "correct_status", player=1, figure="1:marro-stingers/1", status="destroyed")


def test_the_fill_up_rule_moves_the_glyphs_with_the_figures() -> None:
    """Destroying a Common Figure: 'you must fill up that card first, before placing the destroyed
    figure on an empty card'. The figure destroyed on the second card goes on the first; a living
    figure of the first card now counts on the second. Glyphs stay with the figures standing on
    them: the destroyed one leaves its glyph, the living one keeps its own (Glyphs: a permanent
    glyph works 'for as long as a figure is standing on it')."""
    state = twin_stingers()
    state = act(state, "glyph", player=1, figure="1:marro-stingers#2/3", glyph="wannok")
    state = act(state, "glyph", player=1, figure="1:marro-stingers/2", glyph="crevcor")
    state = act(state, "end_turn", player=1)
    state = act(state, "attack", player=0, attacker="0:sgt-drake-alexander", defender="1:marro-stingers#2/3")
    state = roll_asked(state, 1)
    defense = GAME.prompt(state)
    assert defense is not None and defense.roll is not None
    state, events = GAME.apply(
        state, GAME.parse_action({"kind": "roll", "player": 1, "die": "combat", "faces": ["blank"] * 3})
    )
    holders = {g.glyph: g.holder for g in state.glyphs}
    assert holders["wannok"] is None  # the destroyed Stinger stood on Wannok
    assert holders["crevcor"] is not None and alive(state, holders["crevcor"])  # the living one keeps Crevcor
    first, second = state.sides[1].units
    assert [f.alive for f in first.figures] == [False, False, True]
    assert all(f.alive for f in second.figures)
    destroyed = [e for e in events if e.kind == "FigureDestroyed"]
    assert len(destroyed) == 1 and not alive(state, str(destroyed[0].data["figure"]))
    assert "Stingers 6" in destroyed[0].text  # the figure that was hit, by the name the table used


def test_a_card_the_fill_up_rule_empties_is_out_of_play_and_loses_its_turn() -> None:
    """Life: 'When all figures on an Army Card have been destroyed, the Army Card is out of play. Do not
    reveal any unrevealed Order Markers that are on that card for that round of play.'"""
    state = battle(
        [["sgt-drake-alexander"], ["marro-stingers", "marro-stingers"]],
        [
            ("0:sgt-drake-alexander",) * 4,
            ("1:marro-stingers", "1:marro-stingers#2", "1:marro-stingers#2", "1:marro-stingers#2"),
        ],
    )
    for figure in ("1:marro-stingers/1", "1:marro-stingers/2"):
        state = act(state, "correct_status", player=1, figure=figure, status="destroyed")
    state = act(state, "attack", player=0, attacker="0:sgt-drake-alexander", defender="1:marro-stingers#2/1")
    state = roll_asked(roll_asked(state, 1), 0)
    first, second = state.sides[1].units
    assert not first.alive and all(f.alive for f in second.figures)  # the fill-up emptied card 1
    state, events = GAME.apply(state, GAME.parse_action({"kind": "end_turn", "player": 0}))
    assert any(e.kind == "TurnLost" for e in events)
    assert state.turn is not None and state.turn.seat == 0 and state.turn.marker == 1
    assert state.sides[1].revealed[0] is False  # the marker on the empty card stays face down
