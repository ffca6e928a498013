"""The contract every game bundle keeps (docs/bundles.md), checked over every installed game and the
test-only Raid (tests/bundles/raid): a new game's package is held to it here without anyone writing
its tests. Random play is the game's own demo brain (the platform throws the dice)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from companion.bundle import Act, GameBundle, LivePosition, Note, Press, Zone, ZoneKind
from companion.demo_player import DemoBrain
from companion.dice import Dice
from companion.engine import ActionError, Game, GameResult, Player, PlayerId, Setup
from companion.games import bundles
from companion.table import TableConfig
from tests.bundles.raid.bundle import BUNDLE as RAID

CONTRACT = {**bundles(), RAID.name: RAID}
STEPS = 400
"""Positions visited per game played for the checks that look at every legal action."""


@pytest.fixture(params=sorted(CONTRACT), ids=str)
def bundle(request: pytest.FixtureRequest) -> GameBundle:
    return CONTRACT[request.param]


@dataclass
class Played:
    game: Game
    setup: Setup
    positions: list[LivePosition]


def setup_of(bundle: GameBundle, game: Game, seats: int, rng: random.Random) -> Setup:
    kit = bundle.load_demo(rng)
    people = kit.players if kit is not None else [{"name": f"P{i + 1}"} for i in range(game.max_players)]
    players = tuple(Player(p["name"], p.get("colour", "#888888")) for p in people[:seats])
    options = tuple(sorted(dict(kit.options).items())) if kit is not None else ()
    return Setup(bundle.name, players, options)


def play(
    bundle: GameBundle, seed: int, seats: int | None = None, steps: int = 20_000
) -> Iterator[LivePosition]:
    """Every position of one game its demo players play (at most ``steps`` actions)."""
    rng = random.Random(seed)
    game = bundle.load_engine()
    seats = max(game.min_players, min(2 if seats is None else seats, game.max_players))
    kit = bundle.load_demo(rng)
    assert kit is not None, f"{bundle.name} has no demo kit: the contract plays games with it"
    brain = DemoBrain(kit, rng, Dice.load())
    setup = setup_of(bundle, game, seats, rng)
    state = game.new_game(setup)
    for seq in range(steps + 1):
        status = "finished" if game.is_over(state) else "playing"
        position = LivePosition(seq, status, game, state, setup)
        yield position
        if status == "finished":
            return
        action = brain.next_action(position)
        assert action is not None, f"{bundle.name}'s demo has no answer to {game.prompt(state)}"
        state, _ = game.apply(state, action)


# ---------------------------------------------------------------------------------- declarations


def test_its_name_and_title_are_declared_once_and_agree_everywhere(bundle: GameBundle) -> None:
    game = bundle.load_engine()
    assert (game.name, game.title) == (bundle.name, bundle.title)
    view = game.view(game.new_game(setup_of(bundle, game, game.min_players, random.Random(0))))
    assert (view["game"], view["title"]) == (bundle.name, bundle.title)
    assert bundle.package.rsplit(".", 1)[-1] == bundle.name.replace("-", "_")
    assert list(bundles()).count(bundle.name) <= 1


def test_its_files_are_there_and_its_data_loads(bundle: GameBundle) -> None:
    for name in bundle.screens:
        path = bundle.screen_path(name)
        assert path is not None and path.is_file(), name
    if bundle.dice_path() is not None:
        assert list(Dice.load(bundle.dice_path()))
    mapper = bundle.load_mapper()
    cards = bundle.cards()
    if mapper is not None:
        assert cards is not None and {card["id"] for card in cards} >= set(mapper.card_ids())
        assert all(isinstance(card["title"], str) for card in cards)
        json.dumps(cards)


def kinds_of(bundle: GameBundle) -> dict[str, tuple[ZoneKind, ...]]:
    return {kind.name: (kind,) for kind in bundle.zones}


def roles_of(bundle: GameBundle) -> dict[str, tuple[Any, ...]]:
    return {role.name: (role,) for role in bundle.buttons}


def test_its_demo_table_and_its_camera_mat_are_layouts_the_table_accepts(bundle: GameBundle) -> None:
    game = bundle.load_engine()
    kit = bundle.load_demo(random.Random(1))
    assert kit is not None
    for seats in range(game.min_players, min(game.max_players, len(kit.players)) + 1):
        section = kit.layout(seats).table
        config = TableConfig.from_mapping(section, kinds_of(bundle), roles_of(bundle))
        assert {zone.kind for zone in config.readers} <= set(bundle.zones)
    if bundle.mat is not None:
        from vision.zones import load_layout

        for seats in range(game.min_players, game.max_players + 1):
            layout = load_layout(bundle.name, seats, bundle.mat_path())
            for by_slot in (False, True):
                entries = {"readers": layout.reader_entries(by_slot)}
                TableConfig.from_mapping(entries, kinds_of(bundle), roles_of(bundle))


# ------------------------------------------------------------------------------------ the engine


@pytest.mark.parametrize("seed", [1, 2])
def test_its_codec_round_trips_every_legal_action_of_random_play(bundle: GameBundle, seed: int) -> None:
    for position in play(bundle, seed, steps=STEPS):
        game, state = position.game, position.state
        assert game is not None
        for action in game.legal_actions(state):
            data = json.loads(json.dumps(game.format_action(action)))
            assert game.parse_action(data) == action, data
            public = game.public_action(action)
            assert public["kind"] == action.kind and json.dumps(public)


def test_its_views_are_json_and_its_result_is_typed_and_final_once_over(bundle: GameBundle) -> None:
    positions = list(play(bundle, 3))
    last = positions[-1]
    game = last.game
    assert game is not None and game.is_over(last.state), f"{bundle.name}'s demo game never ended"
    seats = len(last.setup.players) if last.setup else 0
    for position in [*positions[:: max(1, len(positions) // 150)], last]:
        state = position.state
        view = game.view(state)
        json.dumps(view)
        for seat in range(seats):
            json.dumps(game.private_view(state, PlayerId(seat)))
        result = game.result(state)
        assert isinstance(result, GameResult) and result.final == game.is_over(state)
        assert [s.seat for s in result.standings] == list(range(seats))
        assert set(result.winners) <= set(range(seats))
        assert all(s.rank == 1 for s in result.standings if s.seat in result.winners)
        assert result.cooperative == game.game_type.cooperative
        assert GameResult.from_json(json.loads(json.dumps(result.to_json()))) == result
    # Final once over: nothing is accepted any more, and the result stays final.
    for action in game.legal_actions(last.state)[:50]:
        with pytest.raises(ActionError):
            game.apply(last.state, action)
    assert game.prompt(last.state) is None and game.result(last.state).final


def test_its_demo_plays_a_whole_game_for_every_table_size(bundle: GameBundle) -> None:
    game = bundle.load_engine()
    for seats in range(game.min_players, game.max_players + 1):
        *_, last = play(bundle, seats, seats)
        assert last.game is not None and last.game.is_over(last.state), (bundle.name, seats)


# ------------------------------------------------------------------------------------ the mapper


def sample_zone(kind: ZoneKind, bundle: GameBundle, seat: int = 0) -> Zone:
    """A zone of ``kind`` as a table layout would configure it: the demo's own entry if it has one."""
    kit = bundle.load_demo(random.Random(0))
    entries = kit.layout(2).table.get("readers", ()) if kit is not None else ()
    for entry in entries:
        if entry.get("zone") == kind.name:
            values = {k: v for k, v in entry.items() if k not in ("reader", "camera", "zone")}
            return kind.zone(reader=int(entry.get("reader", 0)), **values)
    values = {
        f.name: seat if f.type == "seat" else 0 if f.type == "number" else "somewhere" for f in kind.fields
    }
    return kind.zone(reader=0, **values)


def check(translation: object, game: Game) -> None:
    """A translation the table can carry out: an act of the game's own actions (its codec reads it
    back), a note with text, or nothing."""
    assert translation is None or isinstance(translation, Act | Note), translation
    while isinstance(translation, Act):
        data = json.loads(json.dumps(translation.payload))
        assert game.parse_action(data) == translation.action
        assert translation.summary
        translation = translation.then
    if isinstance(translation, Note):
        assert translation.text and translation.level in ("info", "warning")


def test_its_mapper_handles_every_zone_kind_and_button_it_declares(bundle: GameBundle) -> None:
    mapper = bundle.load_mapper()
    if mapper is None:
        assert not bundle.zones and not bundle.buttons
        return
    zones = [sample_zone(kind, bundle) for kind in bundle.zones]
    cards = list(mapper.card_ids())
    rng = random.Random(5)
    positions = list(play(bundle, 4, steps=STEPS))
    for position in positions[:: max(1, len(positions) // 40)]:
        game = position.game
        assert game is not None
        for zone in zones:
            shown = mapper.cards_in(zone, position)
            assert shown is None or all(isinstance(card, str) for card in shown)
            for card in rng.sample(cards, min(3, len(cards))):
                assert isinstance(mapper.shown_title(card), str)
                for came_from in (None, *zones):
                    check(mapper.placed(zone, card, position, came_from), game)
                check(mapper.lifted(zone, card, position), game)
        for role in bundle.buttons:
            seat = PlayerId(0) if role.per_seat else None
            check(mapper.pressed(role, [Press(seat, 1.0), Press(seat, 1.001)], position), game)
        check(mapper.next_action(position), game)
