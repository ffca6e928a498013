"""ORCWARS TOO! at the table: the mapper over positions of the real engine (the test board), and the
real Table and Session reading tags, buttons and dice, hands kept secret."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from pathlib import Path

import pytest

from companion.bundle import Act, LivePosition, Note, Press
from companion.dice import Dice
from companion.engine import PlayerId, Roll
from companion.games.orcwars_too.actions import (
    GOLD,
    AssignDamage,
    Attack,
    ChooseStrategy,
    Done,
    Draw,
    Move,
    TakeBosses,
    TradeForGold,
)
from companion.games.orcwars_too.engine import OrcwarsToo
from companion.games.orcwars_too.state import CAMPAIGN, DISCARD, REINFORCE, Army, Caravan, Hand, Land, State
from companion.games.orcwars_too.table import OrcwarsMapper
from companion.games.orcwars_too.zones import DONE, HAND, TERRITORY
from companion.observations import DieId, DieRolled, ReaderId, TagGone, TagSeen, TagUid
from companion.session import Command, Session
from companion.table import ManualClock, Table, TableConfig, TagRegistry
from companion.table.rolls import RollCollector

from .positions import engine, play, position, roll, setup

MAPPER = OrcwarsMapper()
GAME = engine()
P0, P1 = PlayerId(0), PlayerId(1)
HAND_0 = HAND.zone(reader=0, player=0)
HAND_1 = HAND.zone(reader=1, player=1)
MIDDLE = TERRITORY.zone(reader=2, territory="middle")
HOME_A = TERRITORY.zone(reader=3, territory="home-a")
WILDS = TERRITORY.zone(reader=4, territory="wilds")


def live(state: State, game: OrcwarsToo = GAME, seq: int = 1) -> LivePosition:
    return LivePosition(seq, "playing", game, state, setup(state.seats))


def payload(translation: object) -> dict:
    assert isinstance(translation, Act), translation
    return dict(translation.payload)


# ------------------------------------------------------------------------------------------- setup


def test_bosses_then_chips_drawn_onto_the_hand_then_one_traded_for_gold_by_lifting_it() -> None:
    state = GAME.new_game(setup(2))
    act = MAPPER.placed(HAND_0, "grim", live(state), None)
    assert payload(act) == {"kind": "take_bosses", "player": 0, "leaders": ["grim"]}
    state, _ = play(GAME, state, act.action)
    second = MAPPER.placed(HAND_0, "sly", live(state), None)
    assert isinstance(second.action, TakeBosses)  # a second boss before anything is drawn
    act = MAPPER.placed(HAND_0, "orcs#1", live(state), None)
    assert payload(act) == {"kind": "draw", "player": 0, "counters": ["orcs#1"]}
    assert "orcs" not in act.summary.lower() and "Orcs" not in act.summary  # a hand is secret
    state, _ = play(GAME, state, Draw(P0, ("orcs#1", "orcs#2", "orcs#3", "goblins#1", "goblins#2")))
    assert isinstance(MAPPER.placed(HAND_0, "trolls#1", live(state), None), Note)  # six chips: no more
    traded = MAPPER.lifted(HAND_0, "goblins#2", live(state))
    assert isinstance(traded.action, TradeForGold) and traded.action.counters == ("goblins#2",)
    state, _ = play(GAME, state, traded.action)
    gold = MAPPER.placed(HAND_0, GOLD, live(state), None)
    assert payload(gold) == {"kind": "draw_gold", "player": 0, "chip": "gold"}
    assert MAPPER.placed(HAND_1, GOLD, live(state), None) is None  # not Ugluk's draw: gold is counted


def test_a_caravan_drawn_with_gold_in_the_setup_goes_on_its_starting_territory() -> None:
    state = GAME.new_game(setup(2))
    state, _ = play(
        GAME,
        state,
        TakeBosses(P0, ("grim",)),
        Draw(P0, ("orcs",) * 4 + ("trolls",)),
        TradeForGold(P0, ("orcs#1",)),
    )
    road = TERRITORY.zone(reader=5, territory="road")
    act = MAPPER.placed(road, "salt", live(state), None)
    assert payload(act) == {"kind": "draw_gold", "player": 0, "chip": "salt"}
    state, _ = play(GAME, state, act.action)
    assert "salt" in MAPPER.cards_in(road, live(state))


def test_the_table_never_names_a_chip_of_a_hand() -> None:
    assert MAPPER.shown_title("trolls#1") == "A chip" and MAPPER.shown_title(GOLD) == "A gold chip"
    assert MAPPER.card_title("red-orcs#2") == "Red Orcs (2)"  # enrolment tells the copies apart
    assert "gold" in MAPPER.card_ids() and "darokin-caravan" in MAPPER.card_ids()


# ------------------------------------------------------------------------------------------ the turn


def turn(step: str = CAMPAIGN, **kw) -> State:
    kw.setdefault("armies", [Army("grim", 0, "middle")])
    kw.setdefault("lands", [Land("middle", 0)])
    return position(GAME, step=step, **kw)


def test_reinforcements_drawn_then_a_unit_bought_by_laying_another_chip() -> None:
    state = turn(REINFORCE, hands={0: Hand(gold=3)})
    state = replace(state, current=replace(state.current, free_left=1))
    assert payload(MAPPER.placed(HAND_0, "trolls#1", live(state), None))["kind"] == "draw"
    state, _ = play(GAME, state, Draw(P0, ("trolls#1",)))
    act = MAPPER.placed(HAND_0, "ogres#1", live(state), None)
    assert payload(act) == {"kind": "buy", "player": 0} and payload(act.then)["kind"] == "draw"
    state, _ = play(GAME, state, act.action, act.then.action)
    assert state.hands[0].gold == 1 and "ogres#1" in state.hands[0].counters


def test_a_hand_without_leaders_is_shown_and_redrawn_by_lifting_a_chip() -> None:
    state = turn(REINFORCE, armies=[], lands=[], hands={0: Hand(("orcs#1", "goblins#1"))})
    act = MAPPER.lifted(HAND_0, "orcs#1", live(state))
    assert payload(act) == {"kind": "redraw", "player": 0}
    state, _ = play(GAME, state, act.action)
    assert MAPPER.lifted(HAND_0, "goblins#1", live(state)) is None  # the rest follow it into the cup


def test_chips_of_the_hand_laid_beside_a_leader_join_his_levy() -> None:
    state = turn(hands={0: Hand(("orcs#1", "ogres#1", "snag"))})
    act = MAPPER.placed(MIDDLE, "orcs#1", live(state), HAND_0)
    assert payload(act) == {
        "kind": "levy",
        "player": 0,
        "leader": "grim",
        "counters": ["orcs#1"],
        "neutrals": False,
    }
    assert "Orcs" not in act.summary
    state, _ = play(GAME, state, act.action)
    act = MAPPER.placed(MIDDLE, "ogres#1", live(state), HAND_0)
    state, _ = play(GAME, state, act.action)
    assert state.army("grim").units == ("ogres#1", "orcs#1") and state.top.data == ("ogres#1",)
    wrong_home = MAPPER.placed(MIDDLE, "snag", live(state), HAND_0)
    assert isinstance(wrong_home, Note) and "home" in wrong_home.text and "Snag" not in wrong_home.text


def test_a_leader_of_the_hand_laid_on_his_home_is_levied() -> None:
    state = turn(hands={0: Hand(("sly",))})
    act = MAPPER.placed(HOME_A, "sly", live(state), HAND_0)
    assert payload(act) == {"kind": "levy", "player": 0, "leader": "sly", "counters": [], "neutrals": False}


def test_a_leader_carried_to_another_territory_moves_and_his_army_follows_quietly() -> None:
    state = turn(armies=[Army("grim", 0, "middle", ("orcs#1",))])
    assert MAPPER.placed(WILDS, "orcs#1", live(state), MIDDLE) is None  # the unit ahead of its leader
    assert MAPPER.lifted(MIDDLE, "orcs#1", live(state)) is None  # the chief's own chips on the move
    act = MAPPER.placed(WILDS, "grim", live(state), MIDDLE)
    assert isinstance(act.action, Move) and act.action.to == "wilds"
    state, _ = play(GAME, state, act.action)
    assert sorted(MAPPER.cards_in(WILDS, live(state))) == ["grim", "orcs#1"]


def test_a_leader_moved_out_of_his_chiefs_turn_is_a_notice() -> None:
    state = turn(armies=[Army("grim", 0, "middle"), Army("snag", 1, "home-b")])
    note = MAPPER.placed(WILDS, "snag", live(state), None)
    assert isinstance(note, Note) and "Ugluk's turn" in note.text
    lifted = MAPPER.lifted(TERRITORY.zone(reader=6, territory="home-b"), "snag", live(state))
    assert isinstance(lifted, Note) and "Snag lifted from Home B" in lifted.text


def test_the_losers_leader_carried_to_a_free_territory_is_his_retreat() -> None:
    state = turn(armies=[Army("grim", 0, "middle", ("goblins#1",)), Army("snag", 1, "middle", ("ogres#1",))])
    state, _ = play(GAME, state, Attack(P0, "grim", "seat:1"), ChooseStrategy(P0, "careful"))
    state, _ = play(GAME, state, ChooseStrategy(P1, "clever"))  # 1:5 - 1:2: Grim's side takes 1, Snag's 3
    state, _ = roll(GAME, state, 1, 1)  # both checks pass
    state, _ = play(
        GAME,
        state,
        AssignDamage(P0, (("goblins#1", 1),), ""),
        AssignDamage(P1, (("ogres#1", 3),), "ogres#1"),
    )
    state, _ = roll(GAME, state, 1)  # the ogre survives: Grotsnik lost more, he gives way
    assert "retreat to which" in GAME.prompt(state).text
    assert payload(MAPPER.placed(HOME_A, "grim", live(state), MIDDLE)) == {
        "kind": "choose",
        "player": 0,
        "option": "home-a",
    }
    assert isinstance(
        MAPPER.placed(TERRITORY.zone(reader=7, territory="road"), "grim", live(state), MIDDLE), Note
    )


def test_lifting_chips_off_the_hand_at_b5_discards_them() -> None:
    chips = tuple(f"orcs#{n}" for n in range(1, 5)) + tuple(f"goblins#{n}" for n in range(1, 5))
    state = turn(DISCARD, hands={0: Hand((*chips, "trolls#1", "trolls#2", "ogres#1"))})
    act = MAPPER.lifted(HAND_0, "ogres#1", live(state))
    assert payload(act) == {"kind": "discard", "player": 0, "counters": ["ogres#1"]}
    assert MAPPER.lifted(HAND_0, GOLD, live(state)) is None  # gold paid or banked: counted, never read


def test_the_done_buttons_and_the_next_button() -> None:
    state = turn()
    act = MAPPER.pressed(DONE, [Press(P0, 1.0)], live(state))
    assert act.action == Done(P0)
    assert isinstance(MAPPER.pressed(DONE, [Press(P1, 1.0)], live(state)), Note)  # not Ugluk's to end
    assert MAPPER.next_action(live(state)).action == Done(P0)
    engage = turn(armies=[Army("grim", 0, "middle", ("orcs#1",)), Army("snag", 1, "wilds")])
    engage, _ = play(GAME, engage, Move(P0, "grim", "wilds"))
    assert GAME.prompt(engage).kind == "choose"
    assert payload(MAPPER.next_action(live(engage)))["option"] == "no battle"


def test_cards_in_a_hand_and_a_territory_are_the_engines_chips_and_gold() -> None:
    state = turn(
        armies=[Army("grim", 0, "middle", ("orcs#1",), gold=2)],
        hands={0: Hand(("trolls#1",), gold=3)},
        caravans=(Caravan("salt", 2, power=1, treasury=1),),
    )
    assert sorted(MAPPER.cards_in(HAND_0, live(state))) == [GOLD, GOLD, GOLD, "trolls#1"]
    assert sorted(MAPPER.cards_in(MIDDLE, live(state))) == [GOLD, GOLD, GOLD, "grim", "orcs#1", "salt"]


# -------------------------------------------------------------------------------- the live table


READERS = (HAND_0, HAND_1, MIDDLE, HOME_A, WILDS)


class Live:
    def __init__(self, db: Path) -> None:
        self.clock = ManualClock()
        self.session = Session(db, lambda name: GAME)
        self.session.start()
        self.feed = self.session.subscribe()
        outcome = self.session.submit(Command(kind="new_game", source="control", payload=setup(2).to_json()))
        assert outcome.accepted, outcome.reason
        self.registry = TagRegistry.open(db)
        config = TableConfig(readers=READERS, dice=((0, ("d6", "d3")),))
        self.table = Table(self.session, config, self.registry, clock=self.clock)

    def put(self, reader: int, uid: str) -> None:
        self.table.observe(TagSeen(ReaderId(reader), TagUid(uid), self.clock()))
        self.clock.advance(0.31)
        self.table.pump()

    def lift(self, reader: int, uid: str) -> None:
        self.table.observe(TagGone(ReaderId(reader), TagUid(uid), self.clock()))
        self.clock.advance(0.41)
        self.table.pump()

    def wait_for(self, check: Callable[[Mapping], bool]) -> Mapping:
        while True:
            view = self.feed.get(timeout=5)
            assert view is not None, "no matching view was published"
            if check(view):
                return view

    def close(self) -> None:
        self.feed.close()
        self.session.stop()
        self.registry.close()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Live]:
    world = Live(tmp_path / "table.sqlite3")
    yield world
    world.close()


def test_a_chip_drawn_onto_a_hand_reader_is_drawn_and_stays_secret(table: Live) -> None:
    table.registry.enrol(TagUid("0C000001"), "orcwars-too", "grim")
    table.registry.enrol(TagUid("0C000002"), "orcwars-too", "trolls#1")
    table.put(0, "0C000001")
    table.put(0, "0C000002")
    view = table.wait_for(lambda v: v["seq"] >= 3)
    assert view["game"]["players"][0]["hand"] == 2
    assert "trolls" not in json.dumps(view).lower()  # the TV's view, the ticker, the notices
    drawn = [h for h in table.session.history() if (h.get("action") or {}).get("kind") == "draw"]
    assert drawn and drawn[-1]["action"] == {"kind": "draw", "player": 0, "count": 1}
    assert drawn[-1]["observation"] is None  # the tag read would name it
    assert table.session.position().state.hands[0].counters == ("grim", "trolls#1")


def test_a_six_sided_e_die_is_read_as_the_d3_the_caravan_rolls() -> None:
    """A d3 is thrown with a d6 (1-2, 3-4, 5-6): an e-die named ["d6", "d3"] answers both."""
    state = position(GAME, armies=[Army("grim", 0, "road", ("ogres#1",))], caravans=(Caravan("salt", 0),))
    state, _ = play(GAME, state, Attack(P0, "grim", "salt"))
    state, _ = roll(GAME, state, 1)  # power 1: one gold for its treasury
    state, _ = play(
        GAME, state, *[c.action for c in GAME.prompt(state).choices[:1]], ChooseStrategy(P0, "charge")
    )
    assert GAME.prompt(state).roll.die == "d3"
    collector = RollCollector(Dice.load(), 3.0, {0: ("d6", "d3")})
    act = collector.rolled(DieRolled(DieId(0), 5, 0.0, faces=6), live(state), 0.0)
    assert isinstance(act, Act) and act.action == Roll(P0, "d3", ("3",))
    state, events = play(GAME, state, act.action)
    assert "d3 3, Clever Strategy" in "\n".join(e.text for e in events)


def test_every_chief_throws_his_own_die_for_who_goes_first() -> None:
    state = GAME.new_game(setup(2))
    for seat, boss, chips in ((P0, "grim", "orcs"), (P1, "snag", "goblins")):
        state, _ = play(
            GAME, state, TakeBosses(seat, (boss,)), Draw(seat, (chips,) * 4 + ("trolls",)), Done(seat)
        )
    collector = RollCollector(Dice.load(), 3.0, {0: ("d6", "d3"), 1: ("d6",)})
    ugluks = collector.rolled(DieRolled(DieId(1), 6, 0.0, faces=6), live(state), 0.0, owner=P1, owned=(P1,))
    assert ugluks.action == Roll(P1, "d6", ("6",))  # Ugluk's own die, though Grotsnik is asked first
    state, _ = play(GAME, state, ugluks.action)
    anyones = collector.rolled(DieRolled(DieId(0), 2, 0.1, faces=6), live(state), 0.1, owned=(P1,))
    assert anyones.action == Roll(P0, "d6", ("2",))


def test_a_chip_drawn_while_another_chief_is_asked_waits_for_him() -> None:
    state = GAME.new_game(setup(2))
    state, _ = play(GAME, state, TakeBosses(P0, ("grim",)), Draw(P0, ("orcs",) * 4 + ("trolls",)))
    state, _ = play(GAME, state, TradeForGold(P0, ("orcs#1",)))  # Grotsnik's gold draw comes first
    note = MAPPER.placed(HAND_1, "goblins#1", live(state), None)
    assert isinstance(note, Note) and note.text.startswith("Not now (Grotsnik: draw 1 gold chip")
