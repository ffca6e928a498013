"""Gathering armies (rulebook, Master Game Guide, 2. Gather and Place Your Army): the point limit, the
Unique rule, the box's copies, the scenarios' pre-set armies, drafting orders for two and for three or
more players, and a card registered by hand or by tag (both send ``add_card``)."""

from __future__ import annotations

import pytest

from companion.engine import SetupError
from companion.games.heroscape.state import State

from .rules_support import CAT, GAME, act, d20, new, refused


def cards_of(state: State, seat: int) -> list[str]:
    return [unit.card for unit in state.sides[seat].units]


def gathering(scenario: str = "custom", players: int = 2, **options: object) -> State:
    return new(scenario, players, army="premade", **options)


def test_an_army_may_not_exceed_the_point_limit() -> None:
    """'make sure that the total point value doesn't exceed the one listed in your chosen game scenario
    (it can be lower, but not higher)'."""
    state = gathering(points=400)
    state = act(state, "add_card", player=0, card="tor-kul-na")  # 220
    state = act(state, "add_card", player=0, card="sgt-drake-alexander")  # 390
    assert "costs 60 points" in refused(state, "add_card", player=0, card="shiori")
    assert "has 10 left" in refused(state, "add_card", player=0, card="shiori")
    state = act(state, "army_ready", player=0)  # lower than the limit is fine
    assert state.sides[0].ready


def test_no_army_holds_two_of_the_same_unique_card() -> None:
    """Unique/Common: 'you cannot select two of the same Unique Army Card'."""
    state = act(gathering(sets=2), "add_card", player=0, card="shiori")
    assert "Unique" in refused(state, "add_card", player=0, card="shiori")
    # An opponent may have his own Shiori when two sets are combined (Unique Army Cards, page 14).
    state = act(state, "add_card", player=1, card="shiori")
    assert cards_of(state, 1) == ["shiori"]


def test_common_cards_may_repeat_as_far_as_the_box_holds_them() -> None:
    state = gathering()
    state = act(state, "add_card", player=0, card="marro-stingers")
    state = act(state, "add_card", player=0, card="marro-stingers")
    assert [u.copy for u in state.sides[0].units] == [1, 2]
    assert "already in an army" in refused(state, "add_card", player=1, card="marro-stingers")
    two_boxes = act(
        act(gathering(sets=2), "add_card", player=0, card="marro-stingers"),
        "add_card",
        player=0,
        card="marro-stingers",
    )
    assert cards_of(act(two_boxes, "add_card", player=1, card="marro-stingers"), 1) == ["marro-stingers"]


def test_a_card_goes_back_and_the_copies_are_renumbered() -> None:
    state = gathering()
    for card in ("marro-stingers", "shiori", "marro-stingers"):
        state = act(state, "add_card", player=0, card=card)
    state = act(state, "remove_card", player=0, unit="0:marro-stingers")
    assert [(u.card, u.copy) for u in state.sides[0].units] == [("shiori", 1), ("marro-stingers", 1)]
    assert "no 0:raelin" in refused(state, "remove_card", player=0, unit="0:raelin")


def test_an_empty_army_is_not_ready_and_unknown_cards_are_refused() -> None:
    state = gathering()
    assert "no card yet" in refused(state, "army_ready", player=0)
    assert "no army card" in refused(state, "add_card", player=0, card="orc-warriors")


def test_a_premade_army_is_placed_after_a_roll_off() -> None:
    """Using a Pre-Made Army: 'players roll to see who places his Army on the battlefield first. Re-roll
    ties.' Then the first round begins with the order markers."""
    state = gathering()
    state = act(act(state, "add_card", player=0, card="shiori"), "army_ready", player=0)
    state = act(act(state, "add_card", player=1, card="marro-drudge"), "army_ready", player=1)
    assert state.phase == "rolloff" and state.rolloff is not None and state.rolloff.purpose == "placement"
    state = d20(d20(state, 0, 9), 1, 9)
    assert state.rolloff is not None and state.rolloff.contenders == (0, 1)  # a tie rolls again
    state = d20(d20(state, 0, 3), 1, 12)
    assert state.phase == "markers" and state.round == 1


PRESETS = {
    # Rulebook, each scenario's Player 1 / Player 2 lists (a card id once per card).
    "a-long-wait": (
        ["sgt-drake-alexander", "raelin", "sonlen", "shiori"],
        ["marro-stingers", "marro-drudge", "tor-kul-na"],
    ),
    "spring-surprise": (
        ["shiori", "sgt-drake-alexander", "raelin", "major-q10"],
        ["marro-stingers", "marrden-nagrubs", "marro-drudge", "tor-kul-na"],
    ),
    "ominous-beginnings": (
        ["sgt-drake-alexander", "raelin", "sonlen"],
        ["marro-stingers", "marro-drudge", "marrden-nagrubs"],
    ),
    "protect-the-waters": (
        ["sgt-drake-alexander", "raelin", "sonlen"],
        ["marro-stingers", "marro-drudge", "marrden-nagrubs"],
    ),
    "unexpected-capture": (
        ["sgt-drake-alexander", "raelin", "sonlen", "shiori", "major-q10"],
        ["marro-stingers", "marro-drudge", "marro-drudge", "marrden-nagrubs", "marrden-nagrubs"],
    ),
    "source-of-corruption": (
        ["sgt-drake-alexander", "raelin", "sonlen", "shiori", "major-q10"],
        ["marro-stingers"] * 2
        + ["marro-drudge"] * 2
        + ["marrden-nagrubs"] * 2
        + ["tor-kul-na", "marro-hive"],
    ),
}


@pytest.mark.parametrize("scenario", sorted(PRESETS))
def test_each_scenarios_pre_set_armies(scenario: str) -> None:
    state = new(scenario)
    assert sorted(cards_of(state, 0)) == sorted(PRESETS[scenario][0])
    assert sorted(cards_of(state, 1)) == sorted(PRESETS[scenario][1])
    assert state.started and all(side.ready for side in state.sides)


def test_figures_on_the_cards_squads_and_heroes() -> None:
    """Squad Cards show two or more figures (here three each), Hero Cards one; every figure starts
    unwounded."""
    state = new("source-of-corruption")
    figures = sum(len(u.figures) for u in state.sides[1].units)
    assert figures == 6 * 3 + 2
    assert all(f.wounds == 0 and f.alive for side in state.sides for u in side.units for f in u.figures)


def test_campaign_survivors_are_the_only_heroes_placed() -> None:
    """Source of Corruption, Campaign Setup: place only Player 1's Heroes that were not destroyed."""
    state = new("source-of-corruption", survivors="raelin, sonlen, shiori, major-q10")
    assert sorted(cards_of(state, 0)) == ["major-q10", "raelin", "shiori", "sonlen"]
    with pytest.raises(SetupError, match="tor-kul-na"):
        new("source-of-corruption", survivors="tor-kul-na")


def test_waters_of_life_heroes_against_squads_and_the_hive() -> None:
    """Waters of Life: Player 1 500 points of Heroes only, never the Hive; Player 2 300 points of Squads
    and the Marro Hive it starts with."""
    state = gathering("waters-of-life")
    assert state.limits == (500, 300)
    assert cards_of(state, 1) == ["marro-hive"]
    assert "all Heroes" in refused(state, "add_card", player=0, card="marro-stingers")
    assert "may not join" in refused(state, "add_card", player=0, card="marro-hive")
    assert "all Squads" in refused(state, "add_card", player=1, card="shiori")
    assert "no card yet" in refused(state, "army_ready", player=1)  # the Hive alone is not an army
    for card in ("marro-stingers", "marro-stingers", "marro-drudge", "marro-drudge", "marrden-nagrubs"):
        state = act(state, "add_card", player=1, card=card)  # 250 points: the Hive is outside the 300
    assert sum(CAT.card(u.card).points for u in state.sides[1].units) == 410
    assert "stays in the army" in refused(state, "remove_card", player=1, unit="1:marro-hive")
    state = act(state, "remove_card", player=1, unit="1:marro-stingers")
    assert [u.card for u in state.sides[1].units if u.gift] == ["marro-hive"]
    assert act(state, "army_ready", player=1).sides[1].ready


@pytest.mark.parametrize("scenario", ["sirens-call", "rogue-hive"])
def test_no_army_may_include_the_hive_where_the_scenario_places_it(scenario: str) -> None:
    assert "may not join" in refused(gathering(scenario), "add_card", player=0, card="marro-hive")


@pytest.mark.parametrize(
    ("scenario", "players", "limits"),
    [
        ("deadly-wall-of-water", 2, (500, 500)),
        ("deadly-wall-of-water", 3, (300, 300, 300)),
        ("sirens-call", 4, (285, 285, 285, 285)),
        ("rogue-hive", 3, (380, 380, 380)),
        ("rogue-hive", 4, (285, 285, 285, 285)),
    ],
)
def test_scenario_point_limits(scenario: str, players: int, limits: tuple[int, ...]) -> None:
    assert gathering(scenario, players).limits == limits


def test_a_scenario_refuses_a_player_count_it_is_not_written_for() -> None:
    with pytest.raises(SetupError, match="for 2 or 3 players"):
        new("deadly-wall-of-water", 4)


# ------------------------------------------------------------------------------------------ drafting


def drafting(players: int, rolls: list[int], scenario: str = "custom", **options: object) -> State:
    state = new(scenario, players, army="draft", **options)
    assert state.phase == "rolloff" and state.rolloff is not None and state.rolloff.purpose == "draft"
    for seat, value in enumerate(rolls):
        state = d20(state, seat, value)
    assert state.phase == "draft"
    return state


def picker(state: State) -> int:
    assert state.draft is not None
    return state.draft.order[state.draft.index]


def pick_order(state: State, cards: list[str]) -> list[int]:
    """Who picks each of ``cards`` in turn."""
    seats = []
    for card in cards:
        seat = picker(state)
        seats.append(seat)
        state = act(state, "add_card", player=seat, card=card)
    return seats


def test_two_players_draft_one_then_two_then_one_each() -> None:
    """For a 2-player game: the higher roller drafts one card; the other then chooses two; then each in
    turn chooses one."""
    state = drafting(2, [4, 17])  # Ben rolls higher: Ben drafts first
    cards = ["shiori", "raelin", "sonlen", "marro-drudge", "marro-stingers", "marrden-nagrubs"]
    assert pick_order(state, cards) == [1, 0, 0, 1, 0, 1]


def test_three_players_draft_back_and_forth_the_ends_taking_two() -> None:
    """For 3 or more: the highest drafts one, then to the left one each, the last takes two; the draft
    reverses and the first drafter, now last, takes two; and so on."""
    state = drafting(3, [5, 20, 11], points=2000)  # Ben first, then Cid, then Ann (to the left)
    cards = [
        "shiori", "raelin", "sonlen", "major-q10", "tor-kul-na", "marro-drudge",
        "marro-stingers", "marrden-nagrubs", "marro-drudge", "marro-stingers", "marrden-nagrubs",
    ]  # fmt: skip
    assert pick_order(state, cards) == [1, 2, 0, 0, 2, 1, 1, 2, 0, 0, 2]


def test_a_draft_roll_off_tie_rolls_again() -> None:
    state = new("custom", 3, army="draft")
    state = d20(d20(d20(state, 0, 18), 1, 18), 2, 3)
    assert state.phase == "rolloff" and state.rolloff is not None and state.rolloff.contenders == (0, 1)
    assert "Ben's to roll" not in refused(state, "roll", player=2, die="d20", faces=["5"])
    state = d20(d20(state, 0, 2), 1, 7)
    assert picker(state) == 1


def test_a_player_who_cannot_afford_a_card_passes_and_is_complete() -> None:
    """'If at any time a player cannot pick another Army Card because choosing it would exceed the total
    Army point limit, that player must pass. If you pass, you have completed your Army.'"""
    state = drafting(2, [20, 1], points=250)
    state = act(state, "add_card", player=0, card="tor-kul-na")  # 220: 30 left, only Nagrubs fit
    state = act(state, "add_card", player=1, card="sgt-drake-alexander")
    state = act(state, "add_card", player=1, card="shiori")  # 230: nothing fits Ben any more
    assert picker(state) == 0
    state = act(state, "add_card", player=0, card="marrden-nagrubs")  # 250: Ann can afford nothing
    assert all(side.ready for side in state.sides) and state.phase == "markers"
    assert sorted(cards_of(state, 1)) == ["sgt-drake-alexander", "shiori"]


def test_a_player_may_pass_to_end_the_draft_early() -> None:
    state = drafting(2, [20, 1])
    state = act(state, "add_card", player=0, card="shiori")
    assert "Ben's pick" in refused(state, "army_ready", player=0)
    assert "no card yet" in refused(state, "army_ready", player=1)  # nobody goes to battle empty-handed
    state = act(state, "add_card", player=1, card="marro-drudge")
    state = act(state, "army_ready", player=1)
    assert picker(state) == 0 and state.sides[1].ready
    state = act(state, "army_ready", player=0)
    assert state.phase == "markers"


def test_out_of_turn_picks_are_refused() -> None:
    state = drafting(2, [20, 1])
    assert "Ann's pick" in refused(state, "add_card", player=1, card="shiori")


def test_every_drafted_army_respects_its_limit_and_the_box() -> None:
    state = drafting(2, [20, 1])
    while state.phase == "draft":
        seat = picker(state)
        prompt = GAME.prompt(state)
        assert prompt is not None
        cards = [c.action for c in prompt.choices if c.action.kind == "add_card"]
        state = GAME.apply(state, cards[0] if cards else prompt.choices[-1].action)[0]
        assert sum(CAT.card(u.card).points for u in state.sides[seat].units) <= 500
    for card in CAT.cards:
        taken = sum(1 for side in state.sides for u in side.units if u.card == card.id)
        assert taken <= card.copies


def test_four_players_draft_snakes_with_the_ends_taking_two() -> None:
    state = drafting(4, [1, 2, 20, 3], points=300)  # Cid first, then Dee, Ann, Ben
    cards = [
        "shiori",
        "raelin",
        "sonlen",
        "marro-drudge",
        "marro-stingers",
        "marrden-nagrubs",
        "marro-drudge",
    ]
    assert pick_order(state, cards) == [2, 3, 0, 1, 1, 0, 3]
