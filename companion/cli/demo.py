"""``companion demo``: the whole companion with a simulated table playing Chaos Marauders by itself.

Serves the TV and control page like ``companion serve`` (over a temporary event log unless ``--db``),
starts a four-player game and lets ``companion.demo_player`` answer every prompt, one action every
``1.5 / speed`` seconds. A finished game is followed by a new one. People can still use the control
page meanwhile (undo, answer a prompt first): the simulated table simply reads the new position at its
next step.

By default the players' hands act on a virtual table device (``firmware_bridge.virtual``) over a real
pseudo-terminal, through the same serial link, table and wiring as ``companion serve``: cards are
tags laid on readers, rolls come from the electronic Cube, shouts from buttons
(``companion.demo_table``). ``--no-device`` submits every action straight to the session instead.
"""

from __future__ import annotations

import argparse
import logging
import random
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

from companion.cli.serve import (
    add_server_arguments,
    configure_logging,
    open_session,
    print_banner,
    serving,
    settings_from_args,
    stop_on_signal,
)
from companion.cli.wiring import adapters
from companion.demo_player import DemoDeck, next_action
from companion.demo_table import DemoLayout, PhysicalPlayer, enrol_deck
from companion.dice import Dice
from companion.engine import Game
from companion.session.contract import Command
from companion.settings import Settings, SettingsError
from companion.table import TagRegistry

log = logging.getLogger(__name__)

GAME = "chaos-marauders"
PLAYERS = (
    {"name": "Grotsnik", "colour": "#e23b3b"},
    {"name": "Ugluk", "colour": "#2f7df6"},
    {"name": "Snagla", "colour": "#2fb84f"},
    {"name": "Bogrot", "colour": "#f2b01e"},
)
STEP_SECONDS = 1.5
GAME_OVER_PAUSE = 10
"""Steps the final scoreboard stays up before the next game starts."""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("demo", help="serve the companion with a simulated table playing")
    add_server_arguments(parser)
    parser.add_argument("--speed", type=float, default=1.0, help="actions per 1.5 s (default 1; 4 is brisk)")
    parser.add_argument("--seed", type=int, help="random seed, for a repeatable game")
    parser.add_argument(
        "--no-device", action="store_true", help="submit actions directly, without the virtual table device"
    )
    parser.set_defaults(func=run)


class SimulatedTable:
    """Plays the session's current game, one step at a time, as the players at the table would."""

    def __init__(
        self, session: Any, game: Game, rng: random.Random, hands: PhysicalPlayer | None = None
    ) -> None:
        self._session = session
        self._hands = hands
        """Enacts actions on the table device; None submits them directly."""
        self._game = game
        self._rng = rng
        self._deck = DemoDeck(rng)
        self._dice = Dice.load()
        self._idle = 0

    def new_game(self) -> None:
        if self._hands is not None:
            self._hands.clear()  # the last game's cards go back into the deck
        setup = {"game": GAME, "players": list(PLAYERS)}
        outcome = self._session.submit(Command(kind="new_game", source="demo", payload=setup))
        if not outcome.accepted:
            raise RuntimeError(f"the demo cannot start a game: {outcome.reason}")

    def step(self) -> None:
        """One action of the table: answer the prompt, or start the next game after a pause."""
        view = self._session.view()
        state = self._session.state
        if view["status"] != "playing" or state is None:
            self._idle += 1
            if self._idle >= GAME_OVER_PAUSE or view["status"] == "no_game":
                self._idle = 0
                self.new_game()
            return
        action = next_action(self._game, state, self._deck, self._rng, self._dice)
        if action is None:  # the engine says it is over; the session publishes "finished"
            return
        if self._hands is not None:
            self._hands.enact(action, state, self._deck)
            return
        payload = self._game.format_action(action)
        outcome = self._session.submit(Command(kind="act", source="demo", payload=payload))
        if not outcome.accepted:
            # Someone at the control page got there first: the next step reads the new position.
            log.info("demo action %s refused: %s", payload, outcome.reason)


def play(table: SimulatedTable, interval: float, stop: threading.Event) -> None:
    while not stop.wait(timeout=interval):
        table.step()


def run(args: argparse.Namespace) -> int:
    if args.speed <= 0:
        print("companion demo: --speed must be positive", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="companion-demo-") as tmp:
        if args.db is None and args.config is None:
            args.db = Path(tmp) / "demo.sqlite3"  # a fresh game every time, nothing left behind
        try:
            settings = settings_from_args(args)
        except SettingsError as exc:
            print(f"companion demo: {exc}", file=sys.stderr)
            return 2
        configure_logging(settings.log_level)
        with stop_on_signal() as stop:
            session = open_session(settings)
            try:
                if args.no_device:
                    with serving(settings, session) as server:
                        print_banner(settings, server.port)
                        _play(session, None, args, stop)
                else:
                    _run_with_device(settings, session, args, stop)
            finally:
                session.stop()
    return 0


def _play(
    session: Any, hands: PhysicalPlayer | None, args: argparse.Namespace, stop: threading.Event
) -> None:
    from companion.games import find_game

    table = SimulatedTable(session, find_game(GAME), random.Random(args.seed), hands)
    if session.view()["status"] != "playing":
        table.new_game()
    play(table, STEP_SECONDS / args.speed, stop)


def _run_with_device(
    settings: Settings, session: Any, args: argparse.Namespace, stop: threading.Event
) -> None:
    """The virtual device on a pty, wired like ``companion serve`` wires a real one."""
    from companion.games import find_game
    from firmware_bridge.virtual import VirtualSettings, VirtualTable

    layout = DemoLayout()
    device = VirtualTable(
        VirtualSettings(
            readers=layout.readers,
            dice=((0, "cube"), (1, "d20")),
            buttons=layout.buttons,
            device_id="demo-table",
            seed=args.seed,
        )
    )
    port = device.start()
    try:
        wired_settings = settings.with_overrides(
            serial_port=port, extra={**settings.extra, "table": layout.table_section()}
        )
        with (
            adapters(wired_settings, session) as wired,
            serving(wired_settings, session, wired.table) as server,
        ):
            print_banner(settings, server.port)
            registry = TagRegistry.open(settings.db)
            try:
                enrol_deck(registry)
            finally:
                registry.close()
            dice_ids = _device_dice(wired.link, stop)
            rng = random.Random(args.seed)
            hands = PhysicalPlayer(session, find_game(GAME), device, layout, dice_ids, rng)
            table = SimulatedTable(session, find_game(GAME), rng, hands)
            if session.view()["status"] != "playing":
                table.new_game()
            play(table, STEP_SECONDS / args.speed, stop)
    finally:
        device.stop()


def _device_dice(link: Any, stop: threading.Event, timeout: float = 10.0) -> dict[str, int]:
    """Die kind → device die id from the device's hello (waits, bounded, for the link to connect)."""
    waited = 0.0
    while waited < timeout and not stop.is_set():
        status = link.status()
        if status["state"] == "connected" and status["capabilities"]:
            return {d["kind"]: int(d["id"]) for d in status["capabilities"]["dice"]}
        stop.wait(0.05)
        waited += 0.05
    log.warning("the virtual table did not connect in %.0f s: rolls go through the control page", timeout)
    return {}
