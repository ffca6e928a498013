"""``companion demo``: the whole companion with a simulated table playing a game by itself.

Serves the TV and control page like ``companion serve`` (over a temporary event log unless ``--db``),
starts a game of ``--game`` and lets the game's demo kit (its bundle's ``demo``) answer every prompt,
one action every ``1.5 / speed`` seconds. A finished game stays on the TV for ``GAME_OVER_SECONDS``,
then a new one starts. People can still use the control page meanwhile (undo, answer a prompt first):
the simulated table simply reads the new position at its next step.

By default the players' hands act on a virtual table device (``firmware_bridge.virtual``) over a real
pseudo-terminal, through the same serial link, table and wiring as ``companion serve``: cards are
tags laid on readers, rolls come from electronic dice, presses from buttons (the game's kit says how).
``--no-device`` submits every action straight to the session instead. ``--camera`` lays the cards
on a rendered calibration mat instead of on readers: a simulated camera films it, and the camera
service (recognizer, watcher) hands what it sees to the same table (dice and buttons stay on the
device).
"""

from __future__ import annotations

import argparse
import logging
import random
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from companion.bundle import DemoHands, DemoKit, DemoLayout, GameBundle, LivePosition
from companion.cli.hall_wiring import hall_publishing
from companion.cli.serve import (
    ServerError,
    add_server_arguments,
    configure_logging,
    open_session,
    print_banner,
    serving,
    settings_from_args,
    stop_on_signal,
)
from companion.cli.wiring import adapters
from companion.demo_player import DemoBrain
from companion.dice import Dice
from companion.engine import JSON
from companion.games import UnknownGameError, bundles, find_bundle
from companion.session import EventLogError
from companion.session.contract import Command, Sender
from companion.settings import Settings, SettingsError
from companion.table import TagRegistry, normalise_uid

log = logging.getLogger(__name__)

STEP_SECONDS = 1.5
GAME_OVER_SECONDS = 30.0
"""How long the final scoreboard stays up before the next game starts, whatever the speed."""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("demo", help="serve the companion with a simulated table playing")
    add_server_arguments(parser)
    parser.add_argument("--players", type=int, help="how many players (default: the game's demo table)")
    parser.add_argument("--speed", type=float, default=1.0, help="actions per 1.5 s (default 1; 4 is brisk)")
    parser.add_argument("--seed", type=int, help="random seed, for a repeatable game")
    parser.add_argument(
        "--no-device", action="store_true", help="submit actions directly, without the virtual table device"
    )
    parser.add_argument(
        "--camera", action="store_true", help="cards on a rendered mat read by the camera, not on readers"
    )
    parser.set_defaults(func=run)


class SimulatedTable:
    """Plays the session's current game, one step at a time, as the players at the table would."""

    def __init__(
        self,
        session: Any,
        bundle: GameBundle,
        kit: DemoKit,
        brain: DemoBrain,
        hands: DemoHands | None = None,
        *,
        seats: int | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._session = session
        self._bundle = bundle
        self._kit = kit
        self._brain = brain
        self._hands = hands
        """Enacts actions on the table device; None submits them directly."""
        self._seats = seats or len(kit.players)
        self._clock = clock
        self._over_since: float | None = None

    def new_game(self) -> None:
        if self._hands is not None:
            self._hands.clear()  # the last game's cards go back into the box
        setup = {
            "game": self._bundle.name,
            "players": [dict(p) for p in self._kit.players[: self._seats]],
            "options": dict(self._kit.options),
        }
        outcome = self._session.submit(Command(kind="new_game", source="demo", payload=setup))
        if not outcome.accepted:
            raise RuntimeError(f"the demo cannot start a game: {outcome.reason}")

    def step(self) -> None:
        """One action of the table: answer the prompt, or start the next game after a pause."""
        position: LivePosition = self._session.position()
        if position.status == "no_game" or position.game is None or position.game.name != self._bundle.name:
            self.new_game()
            return
        if not position.playing:
            now = self._clock()
            if self._over_since is None:
                self._over_since = now
                self._tell_game_over()
            elif now - self._over_since >= GAME_OVER_SECONDS:
                self._over_since = None
                self.new_game()
            return
        self._over_since = None
        action = self._brain.next_action(position)
        if action is None:  # nothing this table can answer (someone else must): wait
            return
        if self._hands is not None:
            self._hands.enact(action, position)
            return
        payload = position.game.format_action(action)
        outcome = self._session.submit(Command(kind="act", source="demo", payload=payload))
        if not outcome.accepted:
            # Someone at the control page got there first: the next step reads the new position.
            log.info("demo action %s refused: %s", payload, outcome.reason)

    def _tell_game_over(self) -> None:
        """One line for the journal: how the game was played, and when the next one starts."""
        hands = self._hands
        made = ""
        if hands is not None and isinstance(getattr(hands, "physical", None), int):
            late = getattr(hands, "late", 0)
            made = (
                f": {hands.physical} moves made at the table, {getattr(hands, 'direct', 0)} entered as"
                f" from the control page ({late} the table did not take up in time)"
            )
        log.info("the demo's game is over%s; the next one starts in %.0f s", made, GAME_OVER_SECONDS)


class SessionTable:
    """``companion.bundle.DemoTable`` over the running session and the device's dice."""

    def __init__(self, session: Any, dice: Dice, dice_ids: Mapping[str, int]) -> None:
        self._session = session
        self._dice = dice
        self._dice_ids = dict(dice_ids)

    def position(self) -> LivePosition:
        return self._session.position()  # type: ignore[no-any-return]

    def submit(self, payload: Mapping[str, JSON], seat: int | None = None) -> bool:
        sender = Sender(seat=seat) if seat is not None else None  # a seat's own phone, checked as such
        command = Command(kind="act", source="control", payload=dict(payload), sender=sender)
        outcome = self._session.submit(command)
        if not outcome.accepted:
            # Someone at the control page got there first: the next step reads the new position.
            log.info("demo action %s refused: %s", dict(payload), outcome.reason)
        return bool(outcome.accepted)

    def wait_after(self, seq: int, timeout: float) -> bool:
        subscription = self._session.subscribe()
        deadline = time.monotonic() + timeout
        try:
            while self.position().seq <= seq and time.monotonic() < deadline:
                subscription.get(timeout=0.05)  # wakes on every published view
            return self.position().seq > seq
        finally:
            subscription.close()

    def die_face(self, die: str, symbol: str) -> tuple[int, int] | None:
        for physical in self._dice:
            if physical.answers_die(die) and physical.kind in self._dice_ids and symbol in physical.faces:
                return self._dice_ids[physical.kind], physical.faces.index(symbol) + 1
        return None


def play(table: SimulatedTable, interval: float, stop: threading.Event) -> None:
    while not stop.wait(timeout=interval):
        table.step()


def choose_bundle(args: argparse.Namespace, settings: Settings) -> GameBundle:
    """The bundle of ``--game`` (else the settings' game); it must have a demo."""
    bundle = find_bundle(settings.game)
    if bundle.demo is None:
        playable = ", ".join(b.name for b in bundles().values() if b.demo is not None)
        raise UnknownGameError(f"{bundle.title} has no demo table (demos: {playable})")
    return bundle


def run(args: argparse.Namespace) -> int:
    if args.speed <= 0:
        print("companion demo: --speed must be positive", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="companion-demo-") as tmp:
        if args.db is None and args.config is None:
            args.db = Path(tmp) / "demo.sqlite3"  # a fresh game every time, nothing left behind
        try:
            settings = settings_from_args(args)
            bundle = choose_bundle(args, settings)
        except (SettingsError, UnknownGameError) as exc:
            print(f"companion demo: {exc}", file=sys.stderr)
            return 2
        rng = random.Random(args.seed)
        kit = bundle.load_demo(rng)
        assert kit is not None
        engine = bundle.load_engine()
        fewest, most = engine.min_players, min(engine.max_players, len(kit.players))
        seats = args.players or len(kit.players)
        if not fewest <= seats <= most:
            print(f"companion demo: {bundle.title} is played by {fewest} to {most} players", file=sys.stderr)
            return 2
        camera = None
        if args.camera:
            try:
                camera = _camera_demo(bundle.name, seats, kit, rng, Path(tmp), args.no_device)
            except ValueError as exc:  # no mat for this game or seat count, or --no-device
                print(f"companion demo: {exc}", file=sys.stderr)
                return 2
        configure_logging(settings.log_level)
        settings = settings.with_overrides(game=bundle.name)
        with stop_on_signal() as stop:
            try:
                session = open_session(settings)
            except EventLogError as exc:  # the --db given is damaged, newer or locked
                print(f"companion demo: {exc}", file=sys.stderr)
                return 1
            try:
                with hall_publishing(settings, session):  # with [hall] in --config, the demo joins a hall
                    if args.no_device:
                        with serving(settings, session) as server:
                            print_banner(settings, server)
                            table = SimulatedTable(session, bundle, kit, DemoBrain(kit, rng), seats=seats)
                            play(table, STEP_SECONDS / args.speed, stop)
                    else:
                        _run_with_device(settings, session, bundle, kit, rng, seats, args.speed, stop, camera)
            except ServerError as exc:  # the port is taken
                print(f"companion demo: {exc}", file=sys.stderr)
                return 1
            finally:
                session.stop()
    return 0


def _run_with_device(
    settings: Settings,
    session: Any,
    bundle: GameBundle,
    kit: DemoKit,
    rng: random.Random,
    seats: int,
    speed: float,
    stop: threading.Event,
    camera: Any | None = None,
) -> None:
    """The virtual device on a pty, wired like ``companion serve`` wires a real one; with ``camera``
    (a ``vision.camera_table.CameraDemo``) the cards lie on its rendered mat instead of on readers."""
    from firmware_bridge.virtual import VirtualTable

    layout = kit.layout(seats)
    dice = Dice.load()
    device = VirtualTable(device_settings(layout, dice, device_id="demo-table", seed=rng.randrange(2**32)))
    port = device.start()
    try:
        section = table_section(layout)
        section = section if camera is None else camera.table_section(section)
        wired_settings = settings.with_overrides(
            serial_port=port,
            extra={**settings.extra, "table": section},
            camera=None if camera is None else camera.settings(),
        )
        with (
            adapters(wired_settings, session, camera.source if camera else None) as wired,
            serving(wired_settings, session, wired.table) as server,
        ):
            print_banner(settings, server)
            enrol_tags(settings.db, bundle.name, kit.tags())
            hands_on = device if camera is None else camera.device(device, wired.camera)
            hands = kit.hands(SessionTable(session, dice, dice_ids(layout)), hands_on)
            table = SimulatedTable(session, bundle, kit, DemoBrain(kit, rng, dice), hands, seats=seats)
            play(table, STEP_SECONDS / speed, stop)
    finally:
        device.stop()


def device_settings(layout: DemoLayout, dice: Dice, **settings: Any) -> Any:
    """The virtual device of a demo layout (``VirtualSettings``): its dice count faces, as the board's
    CONFIG does; what they are is the layout's ``[table.dice]`` (``table_section``)."""
    from firmware_bridge.virtual import VirtualSettings

    return VirtualSettings(
        readers=layout.readers,
        dice=tuple((die, dice[_kinds(kind)[0]].sides) for die, kind in layout.dice),
        buttons=layout.buttons,
        **settings,
    )


def table_section(layout: DemoLayout) -> dict[str, Any]:
    """The layout's ``[table]`` settings, with ``[table.dice]`` naming each of its device dice (a list
    for a die that stands for several)."""
    named = {str(die): kind if isinstance(kind, str) else list(kind) for die, kind in layout.dice}
    return {"dice": named, **layout.table}


def dice_ids(layout: DemoLayout) -> dict[str, int]:
    """Die kind -> the device die that is it, for the demo's hands (``SessionTable``)."""
    return {each: die for die, kind in layout.dice for each in _kinds(kind)}


def _kinds(kind: str | tuple[str, ...]) -> tuple[str, ...]:
    return (kind,) if isinstance(kind, str) else tuple(kind)


def _camera_demo(
    game: str, seats: int, kit: DemoKit, rng: random.Random, folder: Path, no_device: bool
) -> Any:
    """The rendered mat, faces and frames of ``demo --camera`` (``vision.camera_table.CameraDemo``)."""
    from vision.camera_table import CameraDemo

    if no_device:
        raise ValueError("--camera plays on the simulated table: leave out --no-device")
    print("companion demo: rendering and enrolling the card faces for the camera...", file=sys.stderr)
    return CameraDemo(game, seats, kit.tags(), random.Random(rng.random()), folder)


def enrol_tags(db: Path, game: str, tags: Mapping[str, str]) -> None:
    """Enrols the demo's tags (idempotent): the table then knows every physical card."""
    registry = TagRegistry.open(db)
    try:
        for uid, card in tags.items():
            registry.enrol(normalise_uid(uid), game, card)
    finally:
        registry.close()
