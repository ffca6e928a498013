"""The HeroScape rules engine: ``apply(state, action) -> (state, events)``, prompts, legal actions.

The engine never rolls: every die is an input. It never sees the map: what only the map knows is
declared. This module checks an action's shape, hands it to the rules module of the moment (armies,
rounds, combat, powers, glyphs, scenarios; ``answers`` for replies to its questions) and then settles
the position: victory, then the game's own flow (``rounds.advance``: the next turn, the end of a round).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from companion.engine import (
    JSON,
    Action,
    Event,
    Game,
    GameResult,
    GameType,
    IllegalActionError,
    PlayerId,
    Prompt,
    Roll,
    Setup,
    SetupError,
    SetupOption,
    data_digest,
)
from companion.games.heroscape import (
    actors,
    answers,
    armies,
    combat,
    disputes,
    glyphs,
    powers,
    prompts,
    result,
    rounds,
    scenarios,
    view,
)
from companion.games.heroscape.actions import (
    CODEC,
    COMBAT,
    D20,
    AddCard,
    ArmyReady,
    Attack,
    Choose,
    ChooseCard,
    CorrectStatus,
    CorrectWounds,
    Declare,
    Decline,
    Dispute,
    EndTurn,
    Fall,
    LeaveGlyph,
    LeavingEngagement,
    LoseMarker,
    Moved,
    PlaceMarkers,
    RemoveCard,
    StopOnGlyph,
    UsePower,
)
from companion.games.heroscape.catalog import (
    GAME,
    TITLE,
    Catalog,
    CatalogError,
    Scenario,
    default_catalog,
    load_catalog,
)
from companion.games.heroscape.common import fail, malformed, owned_label, who
from companion.games.heroscape.ids import FigureId, UnitId
from companion.games.heroscape.state import (
    D20 as D20Step,
)
from companion.games.heroscape.state import (
    Ask,
    Contest,
    Figure,
    PendingAttack,
    RollOff,
    Side,
    State,
    Unit,
    evolve,
    set_figure,
    set_side,
)

RULES_VERSION = "heroscape/engine-4"
"""Bumped when the rules or the state's shape change: snapshots of another version are not reused."""
DEFAULT_SCENARIO = "deadly-wall-of-water"
CORRECTED = {"alive": "back on the battlefield", "destroyed": "destroyed", "exited": "out of play"}
TEAM_CHOICES = (
    ("scenario", "As the scenario says"),
    ("none", "Every player alone"),
    ("12-34", "Players 1+2 against 3+4"),
    ("13-24", "Players 1+3 against 2+4"),
)
ARMY_CHOICES = (
    ("draft", "Draft (take turns picking cards)"),
    ("premade", "Pre-made (lay your cards on the army reader)"),
)


class HeroScape(Game[State]):
    name = GAME
    title = TITLE
    min_players = 2
    max_players = 4
    actions = CODEC
    game_type = GameType(simultaneous_moves=True, hidden_information=True)
    """Every player places order markers at once, face down (A Round of Play): the phones keep them."""

    def __init__(self, catalog: Catalog | None = None, owner_data: str = "") -> None:
        self.catalog = catalog or default_catalog()
        self.owner_data = owner_data
        """The :func:`data_digest` of the owner's overrides file the catalog was built with, or ""."""

    @classmethod
    def with_owner_data(cls, path: Path) -> HeroScape:
        """The engine over the packaged army cards with the owner's overrides file (``[[cards]]`` with an
        ``id`` and the corrected values, each with its provenance) applied."""
        try:
            catalog = load_catalog(overrides=path)
            digest = data_digest(path.read_bytes())
        except (CatalogError, OSError) as exc:
            raise SetupError(f"{cls.title} data {path}: {exc}") from None
        return cls(catalog, digest)

    @property
    def rules_version(self) -> str:
        owner = f"+owner-{self.owner_data}" if self.owner_data else ""
        return f"{RULES_VERSION}+{len(self.catalog.cards)}cards{owner}"

    # ------------------------------------------------------------------------------------- setup

    def setup_options(self) -> tuple[SetupOption, ...]:
        scenarios = tuple(
            (s.id, f"{s.title} ({'/'.join(map(str, s.players))} players)") for s in self.catalog.scenarios
        )
        return (
            SetupOption(
                "scenario",
                "Scenario",
                "choice",
                scenarios,
                DEFAULT_SCENARIO,
                "The rulebook's battles, or your own",
            ),
            SetupOption(
                "army", "Armies", "choice", ARMY_CHOICES, "draft", "Scenarios with listed armies use those"
            ),
            SetupOption("points", "Point limit", "int", (), 0, "0: the scenario's", 0, 5000),
            SetupOption("rounds", "Round limit", "int", (), 0, "0: the scenario's", 0, 99),
            SetupOption(
                "partial_credit",
                "Partial credit for wounded cards",
                "bool",
                (),
                False,
                "At the round limit, a card scores its share of life left",
            ),
            SetupOption(
                "teams", "Teams", "choice", TEAM_CHOICES, "scenario", "Four players may play two teams"
            ),
            SetupOption(
                "sets", "Master Sets owned", "int", (), 1, "Cards of several boxes may be drafted", 1, 4
            ),
            SetupOption(
                "survivors",
                "Campaign survivors",
                "text",
                (),
                "",
                "Source of Corruption: the Heroes who survived The Unexpected Capture "
                "(card ids, comma-separated; empty: all)",
            ),
        )

    def new_game(self, setup: Setup) -> State:
        cat = self.catalog
        count = len(setup.players)
        names = tuple(p.name for p in setup.players)
        if len(set(names)) != count:
            raise SetupError("every player needs a different name")
        known = {o.name for o in self.setup_options()}
        unknown = set(dict(setup.options)) - known
        if unknown:
            raise SetupError(
                f"unknown options: {', '.join(sorted(unknown))} (known: {', '.join(sorted(known))})"
            )
        scenario_id = setup.option("scenario", DEFAULT_SCENARIO)
        if not isinstance(scenario_id, str) or not cat.has_scenario(scenario_id):
            raise SetupError(
                f"unknown scenario {scenario_id!r} (known: {', '.join(s.id for s in cat.scenarios)})"
            )
        scenario = cat.scenario(scenario_id)
        if count not in scenario.players:
            counts = " or ".join(map(str, scenario.players))
            raise SetupError(f"{scenario.title} is for {counts} players, not {count}")
        army = setup.option("army", "draft")
        if army not in ("draft", "premade"):
            raise SetupError("army must be draft or premade")
        mode = "preset" if scenario.army == "preset" else army
        points = _whole(setup.option("points", 0), "points", 0, 5000)
        rounds_limit = _whole(setup.option("rounds", 0), "rounds", 0, 99)
        if rounds_limit and scenario.basic:
            raise SetupError(f"{scenario.title} is a Basic Game: players alternate turns, no rounds to limit")
        sets = _whole(setup.option("sets", 1), "sets", 1, 4)
        partial = setup.option("partial_credit", False)
        if not isinstance(partial, bool):
            raise SetupError("partial_credit must be true or false")
        limits = (0,) * count if mode == "preset" else tuple(points or p for p in scenario.points[count])
        state = State(
            names=names,
            colours=tuple(p.colour for p in setup.players),
            scenario=scenario.id,
            basic=scenario.basic,
            army_mode=mode,
            limits=limits,
            teams=_teams(setup.option("teams", "scenario"), scenario, count),
            round_limit=rounds_limit or scenario.round_limit,
            partial_credit=partial,
            sets=sets,
            sides=armies.preset_sides(
                cat, scenario, count, _survivors(cat, setup.option("survivors", ""), scenario)
            ),
            hive=armies.new_unit(cat.card("marro-hive"), 1) if scenario.has("rogue-hive") else None,
        )
        ev: list[Event] = []
        if mode == "preset":
            return self._settle(rounds.start_battle(cat, state, scenario, ev), ev)
        if mode == "draft":
            return armies.opening_rolloff(state, "draft")
        return evolve(state, phase="army")

    # ------------------------------------------------------------------------------------- apply

    def apply(self, state: State, action: Action) -> tuple[State, tuple[Event, ...]]:
        if state.finished:
            raise IllegalActionError("The battle is over")
        seat = getattr(action, "player", None)
        if not isinstance(seat, int) or not 0 <= seat < state.seats:
            malformed(f"{action.kind}.player: there is no seat {seat} (0 to {state.seats - 1})")
        ev: list[Event] = []
        rolling_off = isinstance(action, Dispute) or (
            isinstance(action, Roll) and isinstance(state.top, Contest)
        )
        state = self._handle(state, action, ev)
        if rolling_off:
            # A roll-off changes nothing but its record: the position it waits on top of was settled
            # already, and settling it again (a victory judged mid-flood, say) would change the game.
            return state, tuple(ev)
        return self._settle(state, ev), tuple(ev)

    def _handle(self, state: State, a: Action, ev: list[Event]) -> State:
        cat, scenario = self.catalog, self.catalog.scenario(state.scenario)
        if isinstance(a, CorrectWounds | CorrectStatus):
            return _correct(cat, state, a, ev)
        if isinstance(a, Roll):
            return self._roll(state, a, ev)
        top = state.top
        if (
            isinstance(top, Ask)
            and isinstance(a, Choose | Declare | Decline | LoseMarker)
            and top.seat == a.player
        ):
            return answers.answer(cat, state, top, a, ev)
        if isinstance(a, Dispute):
            return disputes.start(state, a.player, a.opponent, a.about, ev)
        if isinstance(a, Declare):
            return scenarios.declare(cat, state, scenario, a.player, a.fact, a.figures, ev)
        if state.stack:
            asked = self.prompt(state)
            fail(f"Not now: {asked.text}" if asked else "Not now")
        if isinstance(a, AddCard | ArmyReady | RemoveCard):
            return _army(cat, state, scenario, a, ev)
        if isinstance(a, PlaceMarkers):
            return rounds.place_markers(cat, state, a.player, a.markers, ev)
        if isinstance(a, ChooseCard):
            return rounds.choose_card(cat, state, a.player, a.unit, ev)
        return _turn_action(cat, state, a, ev)

    def _roll(self, state: State, a: Roll, ev: list[Event]) -> State:
        cat, top = self.catalog, state.top
        if isinstance(top, PendingAttack):
            roller = FigureId.parse(top.attacker if top.skulls is None else top.defender).seat
            count = top.attack_dice if top.skulls is None else top.defense_dice
            _check_roll(state, a, roller, COMBAT, count)
            if top.skulls is None:
                return combat.attack_rolled(cat, state, a.faces, ev)
            return combat.defense_rolled(cat, state, a.faces, ev)
        if isinstance(top, D20Step):
            _check_roll(state, a, top.seat, D20, 1)
            return answers.d20_rolled(cat, state, top, int(a.faces[0]), ev)
        if isinstance(top, Contest):
            _check_roll(state, a, top.waiting[0], D20, 1)
            return disputes.rolled(state, top, a.player, int(a.faces[0]), ev)
        if state.stack or state.phase != "rolloff" or state.rolloff is None:
            fail("No roll is asked for now")
        rolloff = state.rolloff
        seat = rolloff.waiting[0]
        if rolloff.purpose == "first":
            _check_roll(state, a, seat, COMBAT, prompts.BASIC_FIRST_DICE)
            value = a.faces.count("skull")
        else:
            _check_roll(state, a, seat, D20, 1)
            value = int(a.faces[0])
        return _rolled_off(cat, state, seat, value, ev)

    # ------------------------------------------------------------------------------------- settle

    def _settle(self, state: State, ev: list[Event]) -> State:
        cat, scenario = self.catalog, self.catalog.scenario(state.scenario)
        if isinstance(state.top, Contest):
            return state  # a roll-off under way: the game waits on it (a hand correction meanwhile)
        for _ in range(200):
            before = state
            state = scenarios.check_victory(cat, state, scenario, ev)
            if state.finished or state.stack:
                return state
            state = rounds.advance(cat, state, scenario, ev)
            if state == before:
                return state
        return state

    # ------------------------------------------------------------------------------------ queries

    def legal_actions(self, state: State) -> Sequence[Action]:
        # Listed from the position's rules, not tried one by one: every action listed applies (the
        # property tests and the simulator hold the listing to that).
        return prompts.legal(self.catalog, state, self.catalog.scenario(state.scenario), state.sets)

    def prompt(self, state: State) -> Prompt | None:
        return prompts.prompt(self.catalog, state, self.catalog.scenario(state.scenario), state.sets)

    def is_over(self, state: State) -> bool:
        return state.finished

    def view(self, state: State) -> dict[str, JSON]:
        return view.view(self.catalog, state, self.catalog.scenario(state.scenario), self.prompt(state))

    def private_view(self, state: State, seat: PlayerId) -> dict[str, JSON] | None:
        return view.private_view(self.catalog, state, seat)

    def actor(self, state: State, action: Action) -> PlayerId | None:
        return actors.actor(state, action)

    def result(self, state: State) -> GameResult:
        return result.result(self.catalog, state)

    def public_action(self, action: Action) -> dict[str, JSON]:
        if isinstance(action, PlaceMarkers | LoseMarker):
            return {"kind": action.kind, "player": action.player}  # face down: nobody else may read them
        return self.format_action(action)


# ---------------------------------------------------------------------------------------- helpers


def _whole(value: JSON, name: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise SetupError(f"{name} must be a whole number from {low} to {high}, not {value!r}")
    return value


def _teams(choice: JSON, scenario: Scenario, count: int) -> tuple[int, ...]:
    if choice == "scenario":
        return scenario.teams.get(count, tuple(range(count)))
    if choice == "none":
        return tuple(range(count))
    if choice in ("12-34", "13-24"):
        if count != 4:
            raise SetupError("teams of two need four players")
        return (0, 0, 1, 1) if choice == "12-34" else (0, 1, 0, 1)
    raise SetupError(f"teams must be one of {', '.join(t for t, _ in TEAM_CHOICES)}")


def _survivors(cat: Catalog, text: JSON, scenario: Scenario) -> tuple[str, ...] | None:
    if not isinstance(text, str):
        raise SetupError("survivors must be text: card ids separated by commas")
    if not text.strip() or not scenario.has("campaign-survivors"):
        return None
    ids = tuple(t.strip() for t in text.split(",") if t.strip())
    unknown = [i for i in ids if i not in scenario.preset[0]]
    if unknown:
        raise SetupError(
            f"survivors: {', '.join(unknown)} is not one of Player 1's Heroes here "
            f"({', '.join(scenario.preset[0])})"
        )
    return ids


def _check_roll(state: State, a: Roll, seat: int, die: str, count: int) -> None:
    if a.player != seat:
        fail(f"The dice are {who(state, seat)}'s to roll")
    if a.die != die:
        fail(f"Roll the {'combat dice' if die == COMBAT else 'd20'}, not {a.die}")
    faces = prompts.COMBAT_FACES if die == COMBAT else prompts.D20_FACES
    if len(a.faces) != count or any(f not in faces for f in a.faces):
        what = (
            f"{count} combat {'die' if count == 1 else 'dice'} (skull, shield or blank)"
            if die == COMBAT
            else "one d20 (1 to 20)"
        )
        malformed(f"roll.faces: expected {what}, got {list(a.faces)}")


def _rolled_off(cat: Catalog, state: State, seat: int, value: int, ev: list[Event]) -> State:
    rolloff = state.rolloff
    assert rolloff is not None
    rolloff = RollOff(rolloff.purpose, rolloff.contenders, (*rolloff.rolls, (seat, value)))
    said = f"{value} {'skull' if value == 1 else 'skulls'}" if rolloff.purpose == "first" else str(value)
    ev.append(
        Event(
            "RolledOff",
            f"{who(state, seat)} rolls {said}",
            {"seat": seat, "roll": value},
        )
    )
    if rolloff.purpose == "initiative":
        state = evolve(state, initiative_rolls=(*state.initiative_rolls, (seat, value)))
    if rolloff.waiting:
        return evolve(state, rolloff=rolloff)
    best = max(v for _, v in rolloff.rolls)
    tied = tuple(s for s, v in rolloff.rolls if v == best)
    if len(tied) > 1:
        names = " and ".join(who(state, s) for s in tied)
        ev.append(Event("RollOffTied", f"{names} tie at {best} and roll again", {}))
        return evolve(state, rolloff=RollOff(rolloff.purpose, tied))
    winner = tied[0]
    scenario = cat.scenario(state.scenario)
    state = evolve(state, rolloff=None)
    if rolloff.purpose == "draft":
        return armies.start_draft(cat, state, scenario, winner, state.sets, ev)
    if rolloff.purpose == "placement":
        ev.append(
            Event(
                "PlacementOrder",
                f"{who(state, winner)} places his army first, then each player to his left in turn",
                {"seat": winner},
            )
        )
        return rounds.begin_round(cat, state, scenario, ev)
    if rolloff.purpose == "hive":
        ev.append(
            Event(
                "HiveControlled", f"{who(state, winner)} controls the Marro Hive this round", {"seat": winner}
            )
        )
        return evolve(state, hive_controller=winner, phase="markers")
    seats = rounds.playing_seats(state) if rolloff.purpose == "initiative" else list(range(state.seats))
    order = rounds.order_from(state, winner, seats)
    if rolloff.purpose == "first":
        ev.append(Event("FirstPlayer", f"{who(state, winner)} goes first", {"seat": winner}))
        return evolve(state, phase="turns", order=order, turn_index=0, turn=None, round=1)
    ev.append(
        Event(
            "Initiative",
            f"{who(state, winner)} wins the initiative; the turn order is "
            + ", ".join(who(state, s) for s in order),
            {"order": list(order)},
        )
    )
    return rounds.start_turns(cat, evolve(state, order=order), ev)


def _army(cat: Catalog, state: State, scenario: Scenario, a: Action, ev: list[Event]) -> State:
    seat = a.player  # type: ignore[attr-defined]
    if state.phase == "draft":
        draft = state.draft
        assert draft is not None
        if isinstance(a, AddCard):
            return armies.draft_pick(cat, state, scenario, seat, a.card, state.sets, ev)
        if isinstance(a, ArmyReady):
            if seat != draft.order[draft.index]:
                fail(f"It is {who(state, draft.order[draft.index])}'s pick")
            if not armies.own_cards(state, scenario, seat):
                fail(f"{who(state, seat)}'s army has no card yet: draft one before passing")
            state = armies.pass_draft(state, seat, "passes", ev)
            return armies.advance(cat, state, scenario, state.sets, ev)
        fail("A drafted card stays in the army")
    if state.phase != "army":
        fail("Armies are gathered before the battle")
    if state.sides[seat].ready:
        fail(f"{who(state, seat)}'s army is complete")
    if isinstance(a, AddCard):
        return armies.add_card(cat, state, scenario, seat, a.card, state.sets, ev)
    if isinstance(a, RemoveCard):
        return armies.remove_card(cat, state, seat, UnitId.parse(a.unit), ev)
    side = state.sides[seat]
    if not armies.own_cards(state, scenario, seat):
        fail(f"{who(state, seat)}'s army has no card yet")
    ev.append(
        Event(
            "ArmyComplete",
            f"{who(state, seat)}'s army is ready ({armies.army_points(cat, side)} points)",
            {"seat": seat},
        )
    )
    return set_side(state, seat, Side(units=side.units, ready=True))


def _turn_action(cat: Catalog, state: State, a: Action, ev: list[Event]) -> State:
    seat = a.player  # type: ignore[attr-defined]
    if isinstance(a, Attack):
        fig = FigureId.parse(a.attacker), FigureId.parse(a.defender)
        return combat.declare_attack(cat, state, seat, *fig, a.special, a.height, frozenset(a.conditions), ev)
    if isinstance(a, EndTurn):
        return rounds.end_turn(cat, state, seat, ev)
    if isinstance(a, Moved):
        turn = state.turn
        if turn is None or turn.seat != seat or turn.step != "move":
            fail("Nothing is moving now")
        ev.append(Event("Moved", f"{who(state, seat)}'s figures have moved", {}))
        return evolve(state, turn=replace(turn, step="attack"))
    if isinstance(a, UsePower):
        return powers.use_power(cat, state, seat, a.power, a.unit, a.target, ev)
    if isinstance(a, LeavingEngagement):
        return combat.leaving_engagement(
            cat, state, seat, FigureId.parse(a.attacker), FigureId.parse(a.defender), ev
        )
    if isinstance(a, Fall):
        _own_turn(state, seat)
        return combat.fall(cat, state, seat, FigureId.parse(a.figure), a.levels, ev)
    if isinstance(a, StopOnGlyph):
        return glyphs.stop_on_glyph(cat, state, seat, FigureId.parse(a.figure), a.glyph, ev)
    if isinstance(a, LeaveGlyph):
        return glyphs.leave_glyph(cat, state, seat, a.glyph, frozenset(a.conditions), ev)
    if isinstance(a, Choose | Decline | LoseMarker):
        fail("No question is waiting for that answer")
    fail(f"{a.kind} is not part of a HeroScape turn")


def _own_turn(state: State, seat: int) -> None:
    if state.turn is None or state.turn.seat != seat:
        fail("Figures move, and fall, on their own turn")


def _correct(cat: Catalog, state: State, a: CorrectWounds | CorrectStatus, ev: list[Event]) -> State:
    """Hand corrections: the table is the truth. They answer no prompt and change nothing else."""
    fid = FigureId.parse(a.figure)
    figure = state.figure(fid)
    if figure is None:
        fail(f"There is no figure {a.figure} in play")
    name = owned_label(cat, state, fid)
    life = cat.card(fid.unit.card).life
    if isinstance(a, CorrectWounds):
        if not 0 <= a.wounds < life:
            fail(f"{name} has Life {life}: wounds from 0 to {life - 1} (destroy it instead)")
        ev.append(
            Event("Corrected", f"Correction: {name} has {_count(a.wounds, 'wound')}", {"figure": a.figure})
        )
        return set_figure(state, fid, Figure(a.wounds, figure.status))
    status = "" if a.status == "alive" else a.status
    ev.append(Event("Corrected", f"Correction: {name} is {CORRECTED[a.status]}", {"figure": a.figure}))
    kept = figure.wounds if status == "" else min(figure.wounds, life)
    state = set_figure(state, fid, Figure(kept, status))
    if status:
        state = glyphs.step_off(state, fid)  # off the battlefield, it stands on no glyph
    return state


def units_of_card(state: State, seat: int, card: str) -> list[Unit]:
    return [u for u in state.sides[seat].units if u.card == card]


def _count(n: int, what: str) -> str:
    return f"{n} {what}" if n == 1 else f"{n} {what}s"
