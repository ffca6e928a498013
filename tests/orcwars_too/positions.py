"""A small board with adjacency and a few counters (written as an owner's overrides file), positions built
from it, and helpers to play actions and rolls on them."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from companion.engine import Action, Event, Player, PlayerId, Roll, Setup
from companion.games.orcwars_too.actions import ChooseStrategy
from companion.games.orcwars_too.catalog import _packaged, apply_overrides, build
from companion.games.orcwars_too.counters import GameData
from companion.games.orcwars_too.engine import OrcwarsToo
from companion.games.orcwars_too.state import (
    CAMPAIGN,
    TURN,
    Army,
    Garrison,
    Hand,
    Land,
    PlayerTurn,
    SetupSeat,
    State,
)

P = "test board: a value of the tests' own"
BOARD = f"""
replace = ["leaders", "troops", "war_machines", "shamans", "spies", "caravans", "territories"]

[[territories]]
id = "home-a"
name = "Home A"
kind = "orcland"
adjacent = ["middle", "fort-land"]
provenance.all = "{P}"

[[territories]]
id = "home-b"
name = "Home B"
kind = "orcland"
adjacent = ["middle", "wilds"]
provenance.all = "{P}"

[[territories]]
id = "middle"
name = "Middle"
kind = "orcland"
adjacent = ["home-a", "home-b", "wilds", "fort-land"]
provenance.all = "{P}"

[[territories]]
id = "fort-land"
name = "Fort Land"
kind = "orcland"
adjacent = ["home-a", "middle", "road"]
provenance.all = "{P}"

[[territories]]
id = "wilds"
name = "The Wilds"
kind = "outland"
adjacent = ["home-b", "middle", "road"]
provenance.all = "{P}"

[[territories]]
id = "road"
name = "The Road"
kind = "outland"
adjacent = ["wilds", "fort-land"]
provenance.all = "{P}"

[underground]
table = ["home-a", "home-b", "middle", "fort-land", "wilds", "road",
         "home-a", "home-b", "middle", "fort-land", "wilds", "road",
         "home-a", "home-b", "middle", "fort-land", "wilds", "road"]
provenance.table = "{P}"

[[leaders]]
id = "grim"
name = "Grim"
race = "orc"
authority = 5
survivability = 4
home = "home-a"
provenance.all = "{P}"

[[leaders]]
id = "snag"
name = "Snag"
race = "goblin"
authority = 4
survivability = 5
home = "home-b"
provenance.all = "{P}"

[[leaders]]
id = "brute"
name = "Brute"
race = "ogre"
authority = 3
survivability = 2
home = "middle"
provenance.all = "{P}"

[[leaders]]
id = "sly"
name = "Sly"
race = "orc"
authority = 6
survivability = 6
home = "home-a"
provenance.all = "{P}"

[[troops]]
id = "orcs"
name = "Orcs"
race = "orc"
power = 2
native = "home-a"
copies = 4
provenance.all = "{P}"

[[troops]]
id = "goblins"
name = "Goblins"
race = "goblin"
power = 1
native = "home-b"
copies = 4
provenance.all = "{P}"

[[troops]]
id = "trolls"
name = "Trolls"
race = "troll"
power = 6
native = "middle"
copies = 2
provenance.all = "{P}"

[[troops]]
id = "ogres"
name = "Ogres"
race = "ogre"
power = 5
native = "middle"
copies = 2
provenance.all = "{P}"

[[war_machines]]
id = "catapult"
name = "Catapult"
power = 3
copies = 1
provenance.all = "{P}"

[[shamans]]
id = "shaman"
name = "Shaman"
copies = 2
provenance.all = "{P}"

[[spies]]
id = "spy"
name = "Spy"
copies = 1
provenance.all = "{P}"

[[caravans]]
id = "salt"
name = "Salt Caravan"
route = ["road", "wilds", "middle", "home-b"]
provenance.all = "{P}"

[[caravans]]
id = "silk"
name = "Silk Caravan"
route = ["road", "fort-land", "home-a"]
provenance.all = "{P}"

[gold]
chips = 30
provenance.chips = "{P}"
"""


def board_data(rules: str = "") -> GameData:
    """The test board's data, with ``rules`` (TOML of rule sections) applied over it."""
    import tomllib

    raw = apply_overrides(_packaged(), tomllib.loads(BOARD), "test board")
    if rules:
        raw = apply_overrides(raw, tomllib.loads(rules), "test rules")
    return build(raw)


def engine(rules: str = "") -> OrcwarsToo:
    return OrcwarsToo(board_data(rules))


def setup(players: int = 2, turn_limit: int = 0) -> Setup:
    names = ("Grotsnik", "Ugluk", "Snagla", "Bogrot")[:players]
    return Setup("orcwars-too", tuple(Player(n) for n in names), (("turn_limit", turn_limit),))


def position(
    game: OrcwarsToo,
    armies: Iterable[Army] = (),
    hands: dict[int, Hand] | None = None,
    lands: Iterable[Land] = (),
    garrisons: Iterable[Garrison] = (),
    seats: int = 2,
    seat: int = 0,
    step: str = CAMPAIGN,
    gold_pile: int | None = None,
    held: tuple[str, ...] | None = None,
    **changes: object,
) -> State:
    """A position in ``seat``'s B step ``step`` of turn 2, the given chips placed and every other chip in
    the tribe cup (gold in the pile)."""
    data = game.data
    armies = tuple(armies)
    garrisons = tuple(garrisons)
    hands = {s: hands.get(s, Hand()) if hands else Hand() for s in range(seats)}
    placed = {a.leader for a in armies} | {u for a in armies for u in a.units}
    placed |= {a.shaman for a in armies if a.shaman} | {u for g in garrisons for u in g.units}
    placed |= {g.shaman for g in garrisons if g.shaman}
    placed |= {c for h in hands.values() for c in (*h.counters, *h.captives)}
    gold = data.gold_chips - sum(h.gold for h in hands.values()) - sum(a.gold for a in armies)
    state = State(
        names=tuple(setup(seats).players[i].name for i in range(seats)),
        colours=("#e23b3b", "#2f7df6", "#2fb84f", "#f2b01e")[:seats],
        phase=TURN,
        turn=2,
        step="B",
        order=tuple(range(seats)),
        current=PlayerTurn(
            seat,
            step,
            held_at_start=held
            if held is not None
            else tuple(sorted({a.territory for a in armies if a.owner == seat})),
        ),
        setups=tuple(SetupSeat("ready") for _ in range(seats)),
        cup=tuple(sorted(c.id for c in data.counters if c.id not in placed)),
        gold_pile=gold if gold_pile is None else gold_pile,
        caravan_pile=tuple(sorted(c.id for c in data.caravans)),
        hands=tuple(hands[s] for s in range(seats)),
        armies=armies,
        garrisons=garrisons,
        lands=tuple(sorted(lands, key=lambda land: land.territory)),
    )
    return replace(state, **changes)  # type: ignore[arg-type]


def play(game: OrcwarsToo, state: State, *actions: Action) -> tuple[State, list[Event]]:
    """Applies the actions in turn; the final state and every event."""
    events: list[Event] = []
    for action in actions:
        state, ev = game.apply(state, action)
        events.extend(ev)
    return state, events


def roll(game: OrcwarsToo, state: State, *faces: int) -> tuple[State, list[Event]]:
    """Answers each roll the engine asks for with the next face (any seat may enter a die)."""
    events: list[Event] = []
    for face in faces:
        asked = game.prompt(state)
        assert asked is not None and asked.roll is not None, f"no roll asked: {asked}"
        state, ev = game.apply(state, Roll(PlayerId(0), asked.roll.die, (str(face),)))
        events.extend(ev)
    return state, events


def choose(game: OrcwarsToo, state: State, attacker: str, defender: str) -> State:
    """Both strategies of a battle between two chiefs' armies, chosen in secret (attacker first)."""
    battle = state.battle
    assert battle is not None
    state, _ = game.apply(state, ChooseStrategy(PlayerId(battle.attacker.owner), attacker))  # type: ignore[arg-type]
    state, _ = game.apply(state, ChooseStrategy(PlayerId(battle.defender.owner), defender))  # type: ignore[arg-type]
    return state


def texts(events: Iterable[Event]) -> str:
    return "\n".join(e.text for e in events)
