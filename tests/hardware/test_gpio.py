"""GPIO devices over gpiozero's MockFactory: buttons enqueue timestamped presses, LEDs follow views."""

from __future__ import annotations

import queue
from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from companion.bundle import LivePosition
from companion.engine import Player, Setup
from companion.observations import ButtonPressed
from companion.table import ManualClock
from hardware import (
    GpioConfig,
    GpioConfigError,
    GpioStack,
    PlayerLeds,
    RejectBuzzer,
    TableButtons,
    ViewFollower,
)

from ..table.table_fakes import TOY_GAME, toy_games
from .gpio_fakes import FeedSession, view

CONFIG = GpioConfig(
    pin_factory="mock",
    shout_buttons=(17, 27, 22, 23),
    player_leds=(5, 6, 13, 19),
    confirm=24,
    undo=25,
    next=16,
    buzzer=12,
    bounce_ms=0,
    beep_on_ms=1,
    beep_off_ms=1,
)


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    pins = MockFactory()
    yield pins
    pins.reset()


@pytest.fixture
def presses(factory) -> Iterator[tuple[TableButtons, queue.Queue, ManualClock]]:
    clock = ManualClock()
    sink: queue.Queue[ButtonPressed] = queue.Queue()
    buttons = TableButtons(CONFIG, factory, sink.put, clock)
    yield buttons, sink, clock
    buttons.close()


def test_each_button_press_becomes_a_timestamped_observation(factory, presses):
    _, sink, clock = presses
    for pin, name in ((24, "confirm"), (25, "undo"), (16, "next"), (23, "shout:3")):
        factory.pin(pin).drive_low()  # buttons pull up: pressed is low
        factory.pin(pin).drive_high()
        clock.advance(0.001)
        assert sink.get(timeout=1).button == name
    assert sink.empty()


def test_shout_presses_are_stamped_in_the_callback_to_the_millisecond(factory, presses):
    _, sink, clock = presses
    factory.pin(27).drive_low()  # seat 1 first
    clock.advance(0.002)
    factory.pin(17).drive_low()  # seat 0, 2 ms later
    factory.pin(27).drive_high()
    factory.pin(17).drive_high()
    first, second = sink.get(timeout=1), sink.get(timeout=1)
    assert (first.button, second.button) == ("shout:1", "shout:0")
    assert round((second.at - first.at) * 1000) == 2


def test_first_press_wins_through_the_table(factory, presses, tmp_path):
    """GPIO -> table -> command: the earliest timestamp wins whatever the queue order."""
    from companion.table import Table, TableConfig, TagRegistry

    _, sink, clock = presses

    class Recorder:
        def __init__(self) -> None:
            self.sent = []

        def submit(self, command, timeout=5.0):
            from companion.session.contract import Outcome

            self.sent.append(command)
            return Outcome(accepted=True, seq=len(self.sent))

        def view(self):
            return view(1, active=0)

        def position(self):
            # A game is being played (any game: the shout mapper below answers for it).
            return LivePosition(1, "playing", TOY_GAME, {"prompt": None}, Setup("toy", (Player("A"),)))

        def report_device(self, name, status):
            pass

    session = Recorder()
    registry = TagRegistry.open(tmp_path / "t.sqlite3")
    table = Table(session, TableConfig(), registry, clock=clock, games=toy_games)
    factory.pin(22).drive_low()  # seat 2 at t
    clock.advance(0.001)
    factory.pin(27).drive_low()  # seat 1 at t + 1 ms
    factory.pin(22).drive_high()
    factory.pin(27).drive_high()
    late, early = sink.get(timeout=1), sink.get(timeout=1)
    table.observe(early)  # the later press reaches the table first
    table.observe(late)
    table.pump()
    clock.advance(0.05)
    table.pump()
    assert [dict(c.payload) for c in session.sent] == [{"kind": "shout", "player": 2}]
    registry.close()


def test_leds_light_the_active_player_only(factory):
    leds = PlayerLeds(CONFIG.player_leds, factory)
    leds.show_active([2])
    assert [factory.pin(p).state for p in CONFIG.player_leds] == [False, False, True, False]
    leds.show_active([])
    assert not any(factory.pin(p).state for p in CONFIG.player_leds)
    leds.close()


def test_the_view_follower_moves_the_led_with_the_turn(factory):
    leds = PlayerLeds(CONFIG.player_leds, factory)
    session = FeedSession()
    follower = ViewFollower(session, leds)
    follower.start()
    session.views.put(view(1, active=0))
    assert follower.wait_for(1, timeout=2)
    assert [factory.pin(p).state for p in CONFIG.player_leds] == [True, False, False, False]
    session.views.put(view(2, active=3))
    assert follower.wait_for(2, timeout=2)
    assert [factory.pin(p).state for p in CONFIG.player_leds] == [False, False, False, True]
    session.views.put(view(3, active=None))  # game over or no game: all dark
    assert follower.wait_for(3, timeout=2)
    assert not any(factory.pin(p).state for p in CONFIG.player_leds)
    follower.stop()
    assert session.closed
    leds.close()


def test_the_leds_survive_a_bad_view_and_follow_the_next(factory):
    """A view the LEDs cannot read (a game's odd players list) lights nothing; the thread keeps
    following the turn (it used to end on the first such view)."""
    leds = PlayerLeds(CONFIG.player_leds, factory)
    session = FeedSession()
    follower = ViewFollower(session, leds)
    follower.start()
    odd = {"seq": 1, "status": "playing", "game": {"players": [{"seat": "north", "active": True}, 7]}}
    session.views.put(odd)
    assert follower.wait_for(1, timeout=2)  # read: no seat it can light
    assert not any(factory.pin(p).state for p in CONFIG.player_leds)
    session.views.put({"seq": 2, "status": "playing", "game": {"players": "everyone"}})
    session.views.put(view(3, active=1))
    assert follower.wait_for(3, timeout=2)
    assert [factory.pin(p).state for p in CONFIG.player_leds] == [False, True, False, False]
    follower.stop()
    leds.close()


def test_a_rejection_beeps_twice(factory):
    buzzer = RejectBuzzer(CONFIG.buzzer, factory, CONFIG)
    pin = factory.pin(CONFIG.buzzer)
    pin.clear_states()
    buzzer.beep(background=False)
    pin.assert_states([False, True, False, True, False])
    buzzer.close()


def test_gpio_config_from_toml_section():
    config = GpioConfig.from_mapping(
        {"pin_factory": "mock", "shout_buttons": [17, 27], "undo": 25, "buzzer": 12}
    )
    assert config.shout_buttons == (17, 27) and config.undo == 25
    assert ("shout:1", 27) in config.pins()


def test_any_game_s_per_seat_buttons_are_named_role_and_seat(factory):
    config = GpioConfig.from_mapping({"pin_factory": "mock", "seat_buttons": {"ready": [20, 21]}, "next": 16})
    sink: queue.Queue[ButtonPressed] = queue.Queue()
    buttons = TableButtons(config, factory, sink.put)
    assert sorted(buttons.buttons) == ["next", "ready:0", "ready:1"]
    factory.pin(21).drive_low()
    assert sink.get(timeout=1).button == "ready:1"
    buttons.close()


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ({"shout_buttons": [17, 17]}, "GPIO17 is used for both"),
        ({"undo": 25, "confirm": 25}, "GPIO25"),
        ({"buzer": 12}, "unknown keys"),
        ({"player_leds": "5,6"}, "list of GPIO numbers"),
        ({"pin_factory": "magic"}, "pin_factory"),
        ({"undo": True}, "whole number"),
        ({"seat_buttons": {"ready": [20], "horn": [20]}}, "GPIO20 is used for both"),
        ({"seat_buttons": {"next": [20]}}, "cannot name a game's button role"),
        ({"seat_buttons": [20]}, "must map a button role"),
    ],
)
def test_gpio_config_errors_name_the_problem(section, message):
    with pytest.raises(GpioConfigError, match=message):
        GpioConfig.from_mapping(section)


def test_the_stack_builds_every_device_and_releases_the_pins(factory):
    session = FeedSession()
    sink: queue.Queue[ButtonPressed] = queue.Queue()
    stack = GpioStack(CONFIG, session, sink.put, pin_factory=factory)
    stack.start()
    factory.pin(25).drive_low()
    factory.pin(25).drive_high()
    assert sink.get(timeout=1).button == "undo"
    session.views.put(view(4, active=1))
    assert stack.follower.wait_for(4, timeout=2)
    assert factory.pin(6).state is True
    stack.close()
    assert session.closed
    again = GpioStack(CONFIG, FeedSession(), sink.put, pin_factory=factory)  # the pins are free again
    again.close()
