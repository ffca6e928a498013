"""All eight glyphs (rulebook, Master Game Guide, Glyphs): a figure stops on one and the player says
which; a permanent glyph works while a figure stands on it, a temporary one once, then leaves the game."""

from __future__ import annotations

from companion.games.heroscape.state import State

from .rules_support import GAME, act, act_events, alive, battle, d20, refused, roll_asked, wounds

HEROES = ["shiori", "raelin", "sgt-drake-alexander"]
MARRO = ["marro-stingers", "marro-drudge", "tor-kul-na"]


def ann_turn(card: str, ben: tuple[str, ...] = ("1:tor-kul-na",) * 4) -> State:
    return battle([HEROES, MARRO], [(f"0:{card}",) * 4, ben])


def dice(state: State, **attack: object) -> tuple[int, int]:
    top = act(state, "attack", **attack).top
    return top.attack_dice, top.defense_dice  # type: ignore[union-attr]


def end_round(state: State) -> State:
    """Ends turns until the round's end asks something (or the next round begins)."""
    start = state.round
    while state.turn is not None and state.round == start and not state.stack:
        state = act(state, "end_turn", player=state.turn.seat)
    return state


def test_ulaniva_adds_a_die_to_unique_figures_attacking_normally() -> None:
    state = act(ann_turn("shiori"), "glyph", player=0, figure="0:shiori", glyph="ulaniva")
    assert dice(state, player=0, attacker="0:shiori", defender="1:tor-kul-na") == (4, 5)
    shuriken = dict(player=0, attacker="0:shiori", defender="1:tor-kul-na", special="shuriken")
    assert dice(state, **shuriken) == (2, 5)  # a special attack is never modified by a glyph


def test_crevcor_adds_a_die_to_common_figures_not_to_heroes() -> None:
    state = battle([HEROES, MARRO], [("0:raelin",) * 4, ("1:marro-stingers",) * 4], rolls=(1, 20))
    state = act(state, "glyph", player=1, figure="1:marro-stingers/1", glyph="crevcor")
    assert dice(state, player=1, attacker="1:marro-stingers/2", defender="0:raelin") == (4, 3)
    state = battle([HEROES, MARRO], [("0:shiori",) * 4, ("1:tor-kul-na",) * 4])
    state = act(state, "glyph", player=0, figure="0:shiori", glyph="crevcor")
    assert dice(state, player=0, attacker="0:shiori", defender="1:tor-kul-na") == (3, 5)


def test_a_glyph_works_only_while_a_figure_stands_on_it() -> None:
    state = act(ann_turn("shiori"), "glyph", player=0, figure="0:shiori", glyph="ulaniva")
    state = act(state, "leave_glyph", player=0, glyph="ulaniva")
    assert dice(state, player=0, attacker="0:shiori", defender="1:tor-kul-na") == (3, 5)


def test_a_one_space_figure_stands_on_one_glyph_at_a_time() -> None:
    state = act(ann_turn("shiori"), "glyph", player=0, figure="0:shiori", glyph="ulaniva")
    state = act(state, "glyph", player=0, figure="0:shiori", glyph="thorian")
    assert dice(state, player=0, attacker="0:shiori", defender="1:tor-kul-na") == (3, 5)


def test_one_figure_per_glyph_and_only_the_moving_figures() -> None:
    state = act(ann_turn("shiori"), "glyph", player=0, figure="0:shiori", glyph="ulaniva")
    assert "not moving" in refused(state, "glyph", player=0, figure="0:raelin", glyph="crevcor")
    assert "no glyph" in refused(state, "glyph", player=0, figure="0:shiori", glyph="lava")
    state = act(state, "moved", player=0)
    assert "before any attack" in refused(state, "glyph", player=0, figure="0:shiori", glyph="crevcor")


def test_thorian_only_adjacent_opponents_attack_the_holders_army_normally() -> None:
    state = act(
        ann_turn("shiori", ben=("1:marro-stingers",) * 4),
        "glyph",
        player=0,
        figure="0:shiori",
        glyph="thorian",
    )
    for _ in range(3):
        state = act(state, "end_turn", player=state.turn.seat)  # type: ignore[union-attr]
    assert state.turn is not None and state.turn.seat == 1
    attack = dict(player=1, attacker="1:marro-stingers/1", defender="0:raelin")
    assert "adjacent" in refused(state, "attack", **attack)
    assert dice(state, **attack, conditions=["adjacent"]) == (3, 3)


def test_proftaka_traps_its_figure_unless_a_friend_is_adjacent() -> None:
    state = act(ann_turn("shiori"), "glyph", player=0, figure="0:shiori", glyph="proftaka")
    assert "friendly figure adjacent" in refused(state, "leave_glyph", player=0, glyph="proftaka")
    state = act(state, "leave_glyph", player=0, glyph="proftaka", conditions=["friend-adjacent"])
    assert state.glyphs[0].holder is None


def test_wannok_at_the_end_of_the_round_a_one_wounds_its_figure() -> None:
    state = act(ann_turn("raelin"), "glyph", player=0, figure="0:raelin", glyph="wannok")
    state = end_round(state)
    prompt = GAME.prompt(state)
    assert prompt is not None and prompt.roll is not None and "Wannok" in prompt.text
    state = d20(state, 0, 1)
    assert wounds(state, "0:raelin") == 1


def test_wannok_on_two_or_more_an_opponent_wounds_a_figure_of_his_choice() -> None:
    state = act(ann_turn("raelin"), "glyph", player=0, figure="0:raelin", glyph="wannok")
    state = d20(end_round(state), 0, 2)
    state = act(state, "choose", player=0, option="1")
    prompt = GAME.prompt(state)
    assert prompt is not None and prompt.players == (1,)
    state = act(state, "choose", player=1, option="1:marro-stingers/3")
    assert not alive(state, "1:marro-stingers/3")
    assert state.phase == "markers" and state.round == 2


def test_nilrend_negates_an_opponents_unique_figure_on_five_or_more() -> None:
    """Nilrend: choose an opponent's unique figure, d20: 1-4 nothing, 5-20 its powers are negated for
    the rest of the game. Then the glyph leaves the game."""
    state = battle([HEROES, MARRO], [("0:raelin",) * 4, ("1:marro-stingers",) * 4], rolls=(1, 20))
    state = act(state, "glyph", player=1, figure="1:marro-stingers/1", glyph="nilrend")
    prompt = GAME.prompt(state)
    assert prompt is not None and {c.action.option for c in prompt.choices if c.action.kind == "choose"} == {  # type: ignore[attr-defined]
        "0:shiori",
        "0:raelin",
        "0:sgt-drake-alexander",
    }
    state = act(state, "choose", player=1, option="0:sgt-drake-alexander")
    failed = d20(state, 1, 4)
    assert not failed.unit("0:sgt-drake-alexander").negated  # type: ignore[union-attr]
    state = d20(state, 1, 5)
    assert state.unit("0:sgt-drake-alexander").negated  # type: ignore[union-attr]
    # Thorian Speed is gone: a Stinger attacks Drake from range.
    assert dice(state, player=1, attacker="1:marro-stingers/2", defender="0:sgt-drake-alexander") == (3, 4)
    assert "removed from the game" in refused(
        state, "glyph", player=1, figure="1:marro-stingers/2", glyph="nilrend"
    )


def test_a_negated_shiori_loses_phantom_walk_and_shuriken() -> None:
    state = battle([HEROES, MARRO], [("0:shiori",) * 4, ("1:marro-stingers",) * 4], rolls=(1, 20))
    state = act(state, "glyph", player=1, figure="1:marro-stingers/1", glyph="nilrend")
    state = d20(act(state, "choose", player=1, option="0:shiori"), 1, 20)
    state = act(state, "end_turn", player=1)
    assert state.turn is not None and state.turn.unit == "0:shiori"
    state = act(state, "leaving_engagement", player=1, attacker="1:marro-stingers/2", defender="0:shiori")
    state = roll_asked(state, 0)
    assert "negated" in refused(
        state, "attack", player=0, attacker="0:shiori", defender="1:marro-stingers/2", special="shuriken"
    )


def test_ored_takes_a_random_marker_and_that_turn_is_lost() -> None:
    """Ored: d20 1-9 nothing; 10-20 remove one random order marker from an opponent's card. The victim
    says on his own phone which marker was taken; its turn is lost."""
    ben = ("1:marro-stingers", "1:tor-kul-na", "1:marro-drudge", "1:tor-kul-na")
    state = act(ann_turn("raelin", ben=ben), "glyph", player=0, figure="0:raelin", glyph="ored")
    assert d20(state, 0, 9).stack == ()
    state = d20(state, 0, 10)
    state = act(state, "choose", player=0, option="1:tor-kul-na")
    prompt = GAME.prompt(state)
    assert prompt is not None and prompt.players == (1,) and prompt.choices == ()
    assert {a.marker for a in GAME.legal_actions(state)} == {"2", "X"}  # type: ignore[attr-defined]
    assert "does not lie" in refused(state, "lose_marker", player=1, marker="1")
    state, events = act_events(state, "lose_marker", player=1, marker="2")
    assert GAME.public_action(GAME.parse_action({"kind": "lose_marker", "player": 1, "marker": "2"})) == {
        "kind": "lose_marker",
        "player": 1,
    }
    assert not any("2" in e.text for e in events)
    seats = []
    while state.turn is not None and state.round == 1:
        seats.append((state.turn.seat, state.turn.marker + 1))
        state = act(state, "end_turn", player=state.turn.seat)
    assert (1, 2) not in seats and (1, 3) in seats


def test_a_figure_corrected_off_the_battlefield_no_longer_holds_its_glyph() -> None:
    state = act(ann_turn("shiori"), "glyph", player=0, figure="0:shiori", glyph="thorian")
    state = act(state, "correct_status", player=0, figure="0:shiori", status="destroyed")
    assert state.glyphs[0].holder is None


def test_ored_may_take_no_marker() -> None:
    """'you may remove one random Order Marker': the finder may decline."""
    state = act(ann_turn("raelin"), "glyph", player=0, figure="0:raelin", glyph="ored")
    state = act(d20(state, 0, 15), "decline", player=0)
    assert state.stack == () and not any(any(side.removed) for side in state.sides)


def test_a_figure_trapped_on_proftaka_cannot_step_onto_another_glyph_or_fall() -> None:
    """Glyph of Proftaka: 'The trapped figure cannot move from this space. The figure can move off the
    Glyph of Proftaka only if a friendly figure occupies an adjacent space.'"""
    state = act(ann_turn("shiori"), "glyph", player=0, figure="0:shiori", glyph="proftaka")
    assert "trapped" in refused(state, "glyph", player=0, figure="0:shiori", glyph="ulaniva")
    assert "trapped" in refused(state, "fall", player=0, figure="0:shiori", levels=4)
    assert state.glyphs[0].holder == "0:shiori/1"
    state = act(state, "leave_glyph", player=0, glyph="proftaka", conditions=["friend-adjacent"])
    state = act(state, "glyph", player=0, figure="0:shiori", glyph="ulaniva")
    assert {g.glyph: g.holder for g in state.glyphs}["ulaniva"] == "0:shiori/1"


def test_deadly_wall_of_water_has_four_glyphs_on_the_battlefield() -> None:
    """Deadly Wall of Water, Setup: 'Randomly place four of the shuffled Glyphs symbol-side up where
    shown. Place the other Glyphs out of play, keeping them secret.'"""
    state = battle(
        [HEROES, MARRO], [("0:shiori",) * 4, ("1:tor-kul-na",) * 4], scenario="deadly-wall-of-water"
    )
    for glyph in ("ulaniva", "crevcor", "wannok", "thorian"):
        state = act(state, "glyph", player=0, figure="0:shiori", glyph=glyph)
    assert "four" in refused(state, "glyph", player=0, figure="0:shiori", glyph="proftaka")
    state = act(state, "glyph", player=0, figure="0:shiori", glyph="ulaniva")  # one of the four again
