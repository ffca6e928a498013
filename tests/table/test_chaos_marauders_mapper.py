"""The Chaos Marauders mapper over positions of the real engine (no session, no threads)."""

from __future__ import annotations

import pytest

from companion.bundle import LivePosition, Press, ZoneError
from companion.engine import Player, PlayerId, Setup
from companion.games import find_game
from companion.games.chaos_marauders import zones
from companion.table.config import TableConfig, TableConfigError
from companion.table.mappers import Act, Note, find_mapper, resolve_card

GAME = find_game("chaos-marauders")
MAPPER = find_mapper("chaos-marauders")
OWN_LINE = zones.LINE.zone(reader=0, player=0, line=2)
THEIR_LINE = zones.LINE.zone(reader=1, player=1, line=0)
DISCARD = zones.DISCARD.zone(reader=2)
PAD = zones.PAD.zone(reader=3)
SETUP = Setup("chaos-marauders", (Player("Grotsnik"), Player("Ugluk")))


def published(*actions: dict) -> LivePosition:
    """The position the table reads after ``actions``, as the session would publish it."""
    state = GAME.new_game(SETUP)
    for action in actions:
        state, _ = GAME.apply(state, GAME.parse_action(action))
    return LivePosition(len(actions), "playing", GAME, state, SETUP)


def test_a_card_on_the_players_own_line_is_a_place_with_the_slot_left_open():
    act = MAPPER.placed(OWN_LINE, "grivziz-dirtballs", published(), None)
    assert isinstance(act, Act)
    assert dict(act.payload) == {
        "kind": "place",
        "player": 0,
        "card": "grivziz-dirtballs",
        "line": 2,
        "slot": None,
        "target": None,
    }
    GAME.parse_action(act.payload)  # the engine's codec accepts it


def test_a_card_on_an_opponents_line_names_the_target():
    act = MAPPER.placed(THEIR_LINE, "sneaky-git", published(), None)
    assert act.payload["target"] == 1 and act.payload["player"] == 0


def test_discarding_the_card_waiting_to_be_placed():
    view = published({"kind": "draw", "player": 0, "card": "grivziz-dirtballs"})
    act = MAPPER.placed(DISCARD, "grivziz-dirtballs", view, None)
    assert (
        dict(act.payload) == {"kind": "discard", "player": 0, "card": "grivziz-dirtballs"}
        and act.then is None
    )


def test_a_card_laid_straight_on_the_discard_pile_is_drawn_then_discarded():
    act = MAPPER.placed(DISCARD, "grivziz-dirtballs", published(), None)
    assert act.payload["kind"] == "draw" and act.then.payload["kind"] == "discard"


def test_a_green_card_laid_on_the_discard_pile_in_the_first_round_is_only_drawn():
    # The engine discards a green card drawn in the first round unresolved: a discard after it is refused.
    view = published()
    assert view.state.round == 1
    act = MAPPER.placed(DISCARD, "venemous-creeps", view, None)
    assert dict(act.payload) == {"kind": "draw", "player": 0, "card": "venemous-creeps"} and act.then is None
    state = GAME.new_game(Setup("chaos-marauders", (Player("Grotsnik"), Player("Ugluk"))))
    state, events = GAME.apply(state, GAME.parse_action(act.payload))
    assert "GreenDiscarded" in [e.kind for e in events] and state.discard == ("venemous-creeps",)


def test_a_card_leaving_play_needs_nothing_on_the_discard_pile():
    view = published(
        {"kind": "draw", "player": 0, "card": "grivziz-dirtballs"},
        {"kind": "discard", "player": 0, "card": "grivziz-dirtballs"},
    )
    assert MAPPER.placed(DISCARD, "grivziz-dirtballs", view, OWN_LINE) is None
    assert MAPPER.placed(DISCARD, "grivziz-dirtballs", view, PAD) is None
    # Not seen since the table started, and on top of the pile: the engine discarded it already.
    assert MAPPER.placed(DISCARD, "grivziz-dirtballs", view, None) is None
    # Last seen on the discard pile (reshuffled into the draw pile since): a fresh draw.
    act = MAPPER.placed(DISCARD, "grivziz-dirtballs", view, DISCARD)
    assert (act.payload["kind"], act.payload["player"], act.then.payload["kind"]) == ("draw", 1, "discard")


def test_the_pad_draws_and_a_drawn_card_shown_there_is_not_drawn_twice():
    assert dict(MAPPER.placed(PAD, "idol", published(), None).payload) == {
        "kind": "draw",
        "player": 0,
        "card": "idol",
    }
    view = published({"kind": "draw", "player": 0, "card": "grivziz-dirtballs"})
    assert MAPPER.placed(PAD, "grivziz-dirtballs", view, None) is None
    assert isinstance(MAPPER.placed(PAD, "claws-of-malal", view, None), Note)


def test_cards_in_reads_the_engines_line_hidden_card_included():
    view = published({"kind": "place", "player": 0, "card": "chaos-marauders", "line": 2, "slot": 3})
    assert MAPPER.cards_in(OWN_LINE, view) == ["chaos-marauders"]
    assert MAPPER.cards_in(zones.LINE.zone(reader=0, player=0, line=2, slot=4), view) == []
    assert MAPPER.cards_in(DISCARD, view) == list(view.state.discard)  # the pile, bottom to top
    assert MAPPER.shown_title("chaos-marauders") == "A card"
    assert MAPPER.shown_title("idol") == "Idol"


def test_shout_and_next():
    shout = MAPPER.pressed(zones.SHOUT, [Press(PlayerId(1), 1.0)], published())
    assert dict(shout.payload) == {"kind": "shout", "player": 1}
    assert isinstance(MAPPER.next_action(published()), Note)  # drawing cannot be declined


@pytest.mark.parametrize("card", ["bozlum-pigstickers", "Bozlum Pigstickers", "BOZLUM PIGSTICKERS"])
def test_cards_are_found_by_id_or_title(card):
    assert resolve_card(MAPPER, card) == "bozlum-pigstickers"
    assert MAPPER.card_title("bozlum-pigstickers") == "Bozlum Pigstickers"


@pytest.mark.parametrize("typed", ["Skyrr\u2019s Blowback", "  skyrr's   BLOWBACK ", "skyrrs-blowback"])
def test_enrolment_finds_a_title_in_any_typographic_spelling(typed):
    """``companion enrol --card`` reads a title as ``companion score`` does (curly quotes, case, spaces)."""
    assert resolve_card(MAPPER, typed) == "skyrrs-blowback"


def test_a_reader_set_to_a_line_or_slot_the_game_lacks_is_refused_with_the_layout():
    with pytest.raises(ZoneError, match="line is at most 2"):
        zones.LINE.zone(reader=9, player=0, line=3)
    with pytest.raises(TableConfigError, match="slot is at most 11"):
        TableConfig.from_mapping(
            {"readers": [{"reader": 9, "zone": "line", "player": 0, "line": 0, "slot": 12}]}
        )


def test_a_card_moved_from_a_line_to_the_discard_pile_makes_room_for_a_war_machine():
    cramped = [
        {"kind": "correct_place", "player": 0, "card": card, "line": line, "slot": slot}
        for line in range(3)
        for card, slot in (("hobgoblin-standard", 10), ("hobgoblin-musician", 11))
    ]
    view = published(
        *cramped,
        {"kind": "correct_place", "player": 1, "card": "smasher-left", "line": 0, "slot": 3},
        {"kind": "draw", "player": 0, "card": "smasher-crew"},
    )
    lifted = MAPPER.lifted(OWN_LINE, "hobgoblin-standard", view)
    assert isinstance(lifted, Note) and "make room" in lifted.text
    act = MAPPER.placed(DISCARD, "hobgoblin-standard", view, OWN_LINE)
    assert isinstance(act, Act)
    assert dict(act.payload) == {"kind": "make_room", "player": 0, "line": 0, "slot": 10}
    GAME.parse_action(act.payload)
    # A card the crew has no use for discarding is not taken for room.
    assert MAPPER.placed(DISCARD, "hobgoblin-musician", view, OWN_LINE) is None


def test_the_shout_race_is_the_game_s_the_first_press_wins_and_the_tv_says_by_how_much():
    presses = [Press(PlayerId(0), 10.001, "gpio"), Press(PlayerId(1), 10.004, "gpio")]
    act = MAPPER.pressed(zones.SHOUT, presses, published())
    assert isinstance(act, Act) and dict(act.payload) == {"kind": "shout", "player": 0}
    assert act.note == "Grotsnik shouted first, 3 ms ahead of Ugluk"
    alone = MAPPER.pressed(zones.SHOUT, presses[1:], published())
    assert isinstance(alone, Act) and alone.note == "" and alone.payload["player"] == 1
