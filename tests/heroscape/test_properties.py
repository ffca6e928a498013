"""Rules invariants over random play (hypothesis picks the scenario, the player count, the way armies
are gathered and the seed of the random table; ``simulate.play`` checks every invariant after every
action and replays the game)."""

from __future__ import annotations

import dataclasses
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine import Action, ActionError, Player, Setup
from companion.games.heroscape import actions
from companion.games.heroscape.common import acting_pool, living_figures, opponents
from companion.games.heroscape.ids import FigureId, UnitId
from companion.games.heroscape.simulate import choose, play
from companion.games.heroscape.state import State

from .rules_support import CAT, GAME, NAMES


@st.composite
def setups(draw: st.DrawFn) -> Setup:
    scenario = draw(st.sampled_from([s for s in CAT.scenarios]))
    players = draw(st.sampled_from(scenario.players))
    options = {"scenario": scenario.id, "army": draw(st.sampled_from(["draft", "premade"]))}
    if scenario.round_limit and draw(st.booleans()):
        options["rounds"] = draw(st.integers(1, 3))
    options["partial_credit"] = draw(st.booleans())
    return Setup("heroscape", tuple(Player(n) for n in NAMES[:players]), tuple(sorted(options.items())))


def random_position(setup: Setup, seed: int, steps: int) -> State:
    """The position after up to ``steps`` random legal actions from a new game (fewer if it ends)."""
    rng = random.Random(seed)
    state: State = GAME.new_game(setup)
    for _ in range(steps):
        action = choose(GAME, state, rng)
        if action is None:
            break
        state = GAME.apply(state, action)[0]
    return state


@settings(max_examples=15)
@given(setups(), st.integers(0, 2**32))
def test_random_play_breaks_no_invariant_and_replays_exactly(setup: Setup, seed: int) -> None:
    played = play(GAME, setup, random.Random(seed), cap=3000)
    assert played.violations == []
    assert played.state.finished or played.capped


@settings(max_examples=15)
@given(setups(), st.integers(0, 2**32), st.integers(0, 150))
def test_a_refused_action_changes_nothing_and_every_listed_action_is_accepted(
    setup: Setup, seed: int, steps: int
) -> None:
    """The engine is pure: refusing leaves the position as it was; every legal action applies (the
    list is worked out from the position's rules, never by trying each action)."""
    state = random_position(setup, seed, steps)
    for action in GAME.legal_actions(state):
        GAME.apply(state, action)
    copy = state
    for raw in (
        {"kind": "end_turn", "player": 1},
        {"kind": "attack", "player": 0, "attacker": "0:x", "defender": "1:y"},
    ):
        try:
            GAME.apply(state, GAME.parse_action(raw))
        except ActionError as refused:
            assert str(refused) and "\n" not in str(refused)
        assert state == copy


@settings(max_examples=25)
@given(setups(), st.integers(0, 2**32), st.integers(0, 200))
def test_wounds_only_grow_on_the_battlefield_until_a_heal_or_correction(
    setup: Setup, seed: int, steps: int
) -> None:
    """A destroyed figure never comes back except by Marro Rebirth or a hand correction, and a figure
    never carries as many wounds as its Life."""
    rng = random.Random(seed)
    state: State = GAME.new_game(setup)
    for _ in range(steps):
        action = choose(GAME, state, rng)
        if action is None:
            break
        after, events = GAME.apply(state, action)
        kinds = {e.kind for e in events}
        for seat in range(after.seats):
            for uid, unit in after.units_of(seat):
                for n, figure in enumerate(unit.figures, start=1):
                    earlier = state.figure(uid.figure(n))
                    if earlier is not None and not earlier.alive and figure.alive:
                        assert kinds & {"FigureReborn", "Corrected"}, (action, events)
                    assert not figure.alive or figure.wounds < CAT.card(uid.card).life
        state = after


FIGURES = [
    "0:shiori",
    "1:marro-stingers/2",
    "1:marro-stingers#2/3",
    "0:raelin/9",
    "7:nobody",
    "x",
    "",
    "2:marro-hive",
]
TEXTS = [
    *FIGURES,
    "shuriken",
    "ored",
    "thorian",
    "roll",
    "hive-mind:1:marro-drudge",
    "1",
    "X",
    "zone",
    "exited",
]
VALUES = st.one_of(
    st.sampled_from(TEXTS),
    st.integers(-3, 40),
    st.booleans(),
    st.none(),
    st.lists(st.sampled_from(TEXTS), max_size=5),
    st.lists(st.sampled_from(["skull", "shield", "blank", "7", "20", "0"]), max_size=8),
)
FIELDS = ["player", "attacker", "defender", "special", "height", "conditions", "figure", "figures", "levels",
          "glyph", "card", "unit", "power", "target", "option", "fact", "marker", "markers", "die", "faces",
          "wounds", "status"]  # fmt: skip


ACTION_CLASSES = [
    cls
    for cls in vars(actions).values()
    if isinstance(cls, type) and issubclass(cls, Action) and cls is not Action
]


@settings(max_examples=60)
@given(setups(), st.integers(0, 2**32), st.integers(0, 120), st.data())
def test_any_input_is_accepted_or_refused_in_one_line_never_a_crash(
    setup: Setup, seed: int, steps: int, data: st.DataObject
) -> None:
    """Bad input gets a clear one-line message and changes nothing; the engine never raises anything
    else, whatever the phones or the API send."""
    state = random_position(setup, seed, steps)
    for _ in range(8):
        cls = data.draw(st.sampled_from(ACTION_CLASSES))
        raw = {"kind": cls.kind}
        own = [f.name for f in dataclasses.fields(cls)]
        for name in data.draw(st.lists(st.sampled_from(own + FIELDS[:3]), max_size=len(own), unique=True)):
            raw[name] = data.draw(VALUES)
        if data.draw(st.booleans()):
            raw["player"] = data.draw(st.integers(0, state.seats - 1))
        try:
            GAME.apply(state, GAME.parse_action(raw))
        except ActionError as refused:
            assert str(refused) and "\n" not in str(refused), raw


CARD_IDS = st.from_regex(r"[a-z0-9][a-z0-9-]{0,20}", fullmatch=True)


@given(st.integers(0, 9), CARD_IDS, st.integers(1, 9), st.integers(1, 9))
def test_unit_and_figure_names_round_trip(seat: int, card: str, copy: int, number: int) -> None:
    """``UnitId.parse(u.format()) == u`` and the same for figures (paired parse and format)."""
    unit = UnitId(seat, card, copy)
    assert UnitId.parse(unit.format()) == unit
    figure = unit.figure(number)
    assert FigureId.parse(figure.format()) == figure
    if copy == 1:
        assert "#" not in unit.format()


@given(st.text(max_size=30))
def test_any_text_is_a_name_or_a_one_line_refusal(text: str) -> None:
    for parse in (UnitId.parse, FigureId.parse):
        try:
            parsed = parse(text)
        except ActionError as refused:
            assert "\n" not in str(refused)
        else:
            assert parse(parsed.format()) == parsed


@settings(max_examples=10)
@given(setups(), st.integers(0, 2**32), st.integers(0, 200))
def test_every_legal_action_survives_the_codec(setup: Setup, seed: int, steps: int) -> None:
    """What the engine lists goes out as JSON and comes back the same action (the event log stores it)."""
    state = random_position(setup, seed, steps)
    for action in GAME.legal_actions(state):
        assert GAME.parse_action(json.loads(json.dumps(GAME.format_action(action)))) == action


@settings(max_examples=25)
@given(setups(), st.integers(0, 2**32), st.integers(0, 250))
def test_the_attacks_listed_are_exactly_those_the_engine_accepts(setup: Setup, seed: int, steps: int) -> None:
    """Every attacker of the turn against every opponent's figure, normally and with each special attack,
    with and without declaring adjacency: listed (with the least it must declare) if and only if the
    engine accepts it."""
    state = random_position(setup, seed, steps)
    turn = state.turn
    if turn is None or state.stack or state.finished:
        return
    listed = {a for a in GAME.legal_actions(state) if isinstance(a, actions.Attack)}
    pool = {f for f in acting_pool(CAT, state)} | set(living_figures(state, turn.seat))
    rivals = [
        f
        for seat in range(state.seats)
        if opponents(state, turn.seat, seat)
        for f in living_figures(state, seat)
    ]
    for attacker in pool:
        card = CAT.card(attacker.unit.card)
        for special in [None, *(p.id for p in card.powers_of("special-attack"))]:
            for defender in rivals:
                accepted = []
                for conditions in ((), ("adjacent",)):
                    action = actions.Attack(
                        turn.seat, attacker.format(), defender.format(), special, "none", conditions
                    )
                    if GAME.is_legal(state, action):
                        accepted.append(action)
                if accepted:
                    assert accepted[0] in listed, accepted[0]
                    listed.discard(accepted[0])
    assert not listed, listed  # nothing listed that the engine refuses
