"""The HeroScape table mapper over real engine positions: army cards by RFID tag on a player's army
reader (drafted, gathered, put back), the next button, and readings that must change nothing."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.bundle import Act, LivePosition, Note, Zone
from companion.demo_player import DemoBrain
from companion.games import find_bundle
from companion.games.heroscape.demo import HeroScapeDemo
from companion.games.heroscape.state import State
from companion.games.heroscape.table import HeroScapeMapper
from companion.games.heroscape.zones import ARMY

from .rules_support import GAME, act, battle, d20, new, setup

MAPPER = HeroScapeMapper()
ARMY_OF = {0: ARMY.zone(reader=0, player=0), 1: ARMY.zone(reader=1, player=1)}
SHARED = Zone(ARMY, reader=7)  # no seat: the layout would refuse it, the mapper must cope


def position(state: State, scenario: str = "custom", players: int = 2, **options: Any) -> LivePosition:
    status = "finished" if state.finished else "playing"
    return LivePosition(7, status, GAME, state, setup(scenario, players, **options))


def accepted(translation: object, state: State) -> State:
    """The mapper's act, applied by the engine (a mapper's act must be one the engine takes)."""
    assert isinstance(translation, Act), translation
    state, _ = GAME.apply(state, GAME.parse_action(dict(translation.payload)))
    return state


def drafting() -> State:
    """Deadly Wall of Water, drafted: Ann won the roll and picks first."""
    state = new("deadly-wall-of-water", 2, army="draft")
    return d20(d20(state, 0, 15), 1, 3)


def gathering() -> State:
    return new("custom", 2, army="premade")


def test_the_bundle_names_this_mapper_and_its_army_zone() -> None:
    bundle = find_bundle("heroscape")
    assert isinstance(bundle.load_mapper(), HeroScapeMapper)
    assert [kind.name for kind in bundle.zones] == ["army"]
    assert ARMY_OF[1].label({1: "Ben"}) == "Ben's army cards"
    assert find_bundle("heroscape").buttons == ()  # no button of its own: confirm, undo, next


def test_a_card_on_the_pickers_army_reader_drafts_it() -> None:
    state = drafting()
    translation = MAPPER.placed(ARMY_OF[0], "sonlen", position(state, "deadly-wall-of-water"), None)
    assert isinstance(translation, Act)
    assert translation.payload == {"kind": "add_card", "player": 0, "card": "sonlen"}
    assert "Sonlen" in translation.summary
    after = accepted(translation, state)
    assert [u.card for u in after.sides[0].units] == ["sonlen"]
    assert after.draft is not None and after.draft.order[after.draft.index] == 1  # Ben picks next


def test_a_card_laid_before_the_draft_roll_waits_for_it() -> None:
    state = new("deadly-wall-of-water", 2, army="draft")
    note = MAPPER.placed(ARMY_OF[1], "sonlen", position(state, "deadly-wall-of-water"), None)
    assert isinstance(note, Note)
    assert note.text == "Sonlen on Ben's army cards: not yet (Who drafts first: Ann rolls the d20)"


def test_a_card_on_another_players_reader_in_the_draft_is_a_notice() -> None:
    state = drafting()
    translation = MAPPER.placed(ARMY_OF[1], "sonlen", position(state, "deadly-wall-of-water"), None)
    assert isinstance(translation, Note)
    assert "Ann's pick" in translation.text


def test_a_second_unique_hero_is_refused_with_the_rules_reason() -> None:
    state = drafting()
    state = act(state, "add_card", player=0, card="raelin")
    state = act(state, "add_card", player=1, card="shiori")
    state = act(state, "add_card", player=1, card="sonlen")  # the last of the pass takes two
    translation = MAPPER.placed(ARMY_OF[0], "raelin", position(state, "deadly-wall-of-water"), None)
    assert isinstance(translation, Note)
    assert translation.text.startswith("Raelin the Kyrie Warrior on Ann's army cards: ")
    assert (
        GAME.is_legal(state, GAME.parse_action({"kind": "add_card", "player": 0, "card": "raelin"})) is False
    )


def test_premade_armies_gather_card_by_card_and_a_lifted_card_is_put_back() -> None:
    state = gathering()
    for card in ("marro-drudge", "marro-drudge", "tor-kul-na"):
        state = accepted(MAPPER.placed(ARMY_OF[1], card, position(state), None), state)
    assert [(u.card, u.copy) for u in state.sides[1].units] == [
        ("marro-drudge", 1),
        ("marro-drudge", 2),
        ("tor-kul-na", 1),
    ]
    assert MAPPER.cards_in(ARMY_OF[1], position(state)) == ["marro-drudge", "marro-drudge", "tor-kul-na"]
    lifted = MAPPER.lifted(ARMY_OF[1], "marro-drudge", position(state))
    assert isinstance(lifted, Act)
    assert lifted.payload == {"kind": "remove_card", "player": 1, "unit": "1:marro-drudge#2"}
    state = accepted(lifted, state)
    assert [u.card for u in state.sides[1].units] == ["marro-drudge", "tor-kul-na"]


def test_once_an_army_is_ready_its_cards_stay() -> None:
    state = accepted(MAPPER.placed(ARMY_OF[0], "sonlen", position(gathering()), None), gathering())
    state = act(state, "army_ready", player=0)
    lifted = MAPPER.lifted(ARMY_OF[0], "sonlen", position(state))
    assert isinstance(lifted, Note) and "put it back" in lifted.text
    assert MAPPER.placed(ARMY_OF[0], "sonlen", position(state), "army") is None  # put back: nothing to do
    stranger = MAPPER.placed(ARMY_OF[0], "shiori", position(state), None)
    assert isinstance(stranger, Note) and "not in Ann's army" in stranger.text


def test_a_reader_of_no_player_or_an_unknown_seat_changes_nothing() -> None:
    state = gathering()
    assert isinstance(MAPPER.placed(SHARED, "sonlen", position(state), None), Note)
    assert isinstance(MAPPER.placed(ARMY.zone(reader=3, player=3), "sonlen", position(state), None), Note)
    assert MAPPER.lifted(SHARED, "sonlen", position(state)) is None
    assert MAPPER.cards_in(SHARED, position(state)) is None


def in_battle() -> State:
    return battle(
        [["sonlen", "marro-stingers"], ["tor-kul-na", "marro-drudge"]],
        [
            ("0:sonlen", "0:sonlen", "0:marro-stingers", "0:sonlen"),
            ("1:tor-kul-na", "1:marro-drudge", "1:tor-kul-na", "1:tor-kul-na"),
        ],
    )


def test_in_battle_the_army_cards_are_the_engines_and_a_stranger_is_a_notice() -> None:
    state = in_battle()
    assert MAPPER.cards_in(ARMY_OF[0], position(state)) == ["sonlen", "marro-stingers"]
    note = MAPPER.placed(ARMY_OF[1], "raelin", position(state), None)
    assert isinstance(note, Note) and "not in Ben's army" in note.text


def test_the_next_button_ends_moving_then_the_turn() -> None:
    state = in_battle()
    assert GAME.prompt(state).kind == "turn"  # type: ignore[union-attr]
    moved = MAPPER.next_action(position(state))
    assert isinstance(moved, Act) and moved.payload == {"kind": "moved", "player": 0}
    state = accepted(moved, state)
    ended = MAPPER.next_action(position(state))
    assert isinstance(ended, Act) and ended.payload == {"kind": "end_turn", "player": 0}
    state = accepted(ended, state)
    assert state.turn is not None and state.turn.seat == 1  # Ben's turn 1


def test_the_next_button_declines_an_optional_question() -> None:
    state = in_battle()
    state = act(state, "glyph", player=0, figure="0:sonlen#1", glyph="nilrend")
    prompt = GAME.prompt(state)
    assert prompt is not None and prompt.kind == "nilrend", prompt
    declined = MAPPER.next_action(position(state))
    assert isinstance(declined, Act) and declined.payload == {"kind": "decline", "player": 0}
    accepted(declined, state)


def test_the_next_button_never_answers_a_roll_or_a_finished_game() -> None:
    state = act(
        act(in_battle(), "moved", player=0),
        "attack",
        player=0,
        attacker="0:sonlen#1",
        defender="1:marro-drudge#1",
    )
    assert GAME.prompt(state).roll is not None  # type: ignore[union-attr]
    assert isinstance(MAPPER.next_action(position(state)), Note)
    over = LivePosition(9, "finished", GAME, state, setup("custom"))
    assert isinstance(MAPPER.next_action(over), Note)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 30), premade=st.booleans(), players=st.integers(2, 3))
def test_a_card_the_mapper_lets_through_is_one_the_engine_takes(
    seed: int, steps: int, premade: bool, players: int
) -> None:
    """Over positions the demo players reach while armies are gathered: every tag on every army reader
    becomes an act the engine accepts, or a notice for a card the engine would refuse there."""
    options = {"army": "premade" if premade else "draft"}
    table_setup = setup("deadly-wall-of-water", players, **options)
    state = GAME.new_game(table_setup)
    rng = random.Random(seed)
    brain = DemoBrain(HeroScapeDemo(rng), rng)
    for _ in range(steps):
        action = brain.next_action(LivePosition(1, "playing", GAME, state, table_setup))
        if action is None or state.phase not in ("rolloff", "draft", "army"):
            break
        state, _ = GAME.apply(state, action)
    live = LivePosition(2, "playing", GAME, state, table_setup)
    for seat in range(players):
        for card in MAPPER.card_ids():
            translation = MAPPER.placed(ARMY.zone(reader=seat, player=seat), card, live, None)
            add = GAME.parse_action({"kind": "add_card", "player": seat, "card": card})
            if isinstance(translation, Act):
                assert GAME.is_legal(state, GAME.parse_action(dict(translation.payload))), translation
            elif state.phase in ("draft", "army") and not state.sides[seat].ready:
                assert isinstance(translation, Note) and translation.text
                assert not GAME.is_legal(state, add), (card, seat, translation)
