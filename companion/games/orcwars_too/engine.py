"""The ORCWARS TOO! rules engine: ``apply(state, action) -> (state, events)``, prompts, legal actions.

The engine never rolls and never draws: every die and every chip drawn is an input. It checks an action's
shape and whose it is, hands it to the rule of the moment (a question on the stack, the battle under way,
the setup, the player's B step, trading), then lets the game run on by itself as far as it can
(``flow.settle``: a battle's automatic parts, the turn's own course).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from companion.engine import (
    JSON,
    Action,
    Event,
    Game,
    GameResult,
    GameType,
    IllegalActionError,
    Player,
    PlayerId,
    Prompt,
    Roll,
    Setup,
    SetupError,
    SetupOption,
    data_digest,
)
from companion.games.orcwars_too import (
    aftermath_answers,
    battle,
    economy,
    flow,
    legal,
    levy,
    moves,
    opening,
    orders,
    prompts,
    trading,
    turns,
    view,
)
from companion.games.orcwars_too.actions import (
    CODEC,
    SECRET,
    AnswerTrade,
    AssignDamage,
    Attack,
    BuildFortress,
    BuildMine,
    Buy,
    Choose,
    ChooseStrategy,
    Claim,
    CorrectGold,
    DestroyMine,
    Discard,
    Done,
    Draw,
    DrawGold,
    LeaveBehind,
    Levy,
    Move,
    OfferTrade,
    Rampage,
    Redraw,
    TakeBosses,
    TradeForGold,
    Underground,
    UseSpy,
)
from companion.games.orcwars_too.catalog import CatalogError, default_data, load_data
from companion.games.orcwars_too.common import fail, malformed, tidy, who
from companion.games.orcwars_too.counters import GameData
from companion.games.orcwars_too.prompts import DIE_FACES
from companion.games.orcwars_too.state import (
    CAMPAIGN,
    RAMPAGE,
    ROLLOFF,
    SETUP,
    TRADING,
    TURN,
    State,
    Step,
    evolve,
)

RULES_VERSION = "orcwars-too/engine-2"
"""Bumped when the rules or the state's shape change: snapshots of another version are not reused."""
TITLE = "ORCWARS TOO!"
BATTLE_ROLLS = ("caravan-strategy", "authority", "strategy-roll", "stupidity")
"""Dice of combat part 1 and 2.1 (the rest are the aftermath's)."""


class OrcwarsToo(Game[State]):
    name = "orcwars-too"
    title = TITLE
    min_players = 2
    max_players = 6
    actions = CODEC
    game_type = GameType(simultaneous_moves=True, hidden_information=True)
    default_players = tuple(
        Player(f"Chief {n}", colour)
        for n, colour in enumerate(("#e23b3b", "#2f7df6", "#2fb84f", "#f2b01e", "#b05cff", "#ff8a3d"), 1)
    )
    """Each player is the chief of a tribe (the house rules' word); the tribes' names are the owner's
    counters, so the seats are offered as chiefs by number."""

    def __init__(self, data: GameData | None = None, owner_data: str = "") -> None:
        self.data = data or default_data()
        self.owner_data = owner_data
        """The :func:`data_digest` of the owner's overrides file the data was built with, or ""."""

    @classmethod
    def with_owner_data(cls, path: Path) -> OrcwarsToo:
        """The engine over the packaged starter data with the owner's overrides file applied (the counters
        of the physical box, the board, readings of his choice; each value with its provenance)."""
        try:
            data = load_data(path)
            digest = data_digest(path.read_bytes())
        except (CatalogError, OSError) as exc:
            raise SetupError(f"{cls.title} data {path}: {exc}") from None
        return cls(data, digest)

    @property
    def rules_version(self) -> str:
        owner = f"+owner-{self.owner_data}" if self.owner_data else ""
        return f"{RULES_VERSION}+{len(self.data.counters)}chips{owner}"

    def setup_options(self) -> tuple[SetupOption, ...]:
        return (
            SetupOption(
                "turn_limit",
                "Turn limit",
                "int",
                (),
                0,
                "0: play to victory. Otherwise the game ends after that turn and the most lands and "
                "fortresses win (a club night's clock)",
                0,
                opening.MAX_TURN_LIMIT,
            ),
        )

    def new_game(self, setup: Setup) -> State:
        return opening.new_game(self.data, setup)

    # ------------------------------------------------------------------------------------- apply

    def apply(self, state: State, action: Action) -> tuple[State, tuple[Event, ...]]:
        if state.finished:
            raise IllegalActionError("The game is over")
        seat = getattr(action, "player", None)
        if not isinstance(seat, int) or not 0 <= seat < state.seats:
            malformed(f"{action.kind}.player: there is no seat {seat} (0 to {state.seats - 1})")
        ev: list[Event] = []
        if state.levy is not None and not (isinstance(action, Levy) and action.leader == state.levy.leader):
            state = evolve(state, levy=None)  # anything else ends the levy under way
        state = tidy(self.data, self._handle(state, action, seat, ev), ev)
        return flow.settle(self.data, state, ev), tuple(ev)

    def _handle(self, state: State, action: Action, seat: int, ev: list[Event]) -> State:
        data = self.data
        if isinstance(action, CorrectGold):
            return turns.correct_gold(data, state, seat, action.gold, ev)
        if isinstance(action, Roll):
            return self._roll(state, action, ev)
        top = state.top
        if top is not None:
            return self._answer_step(state, top, action, seat, ev)
        need = flow.battle_need(data, state)
        if need is not None:
            return self._answer_battle(state, need, action, seat, ev)
        if state.phase == SETUP:
            return self._setup(state, action, seat, ev)
        if state.phase == ROLLOFF:
            fail("Roll the d6 for who goes first")
        if state.step == TRADING:
            return self._trade(state, action, seat, ev)
        return self._turn(state, action, seat, ev)

    def _not_now(self, state: State) -> None:
        asked = self.prompt(state)
        fail(f"Not now: {asked.text}" if asked else "Not now")

    # -------------------------------------------------------------------------------------- rolls

    def _roll(self, state: State, action: Roll, ev: list[Event]) -> State:
        data = self.data
        die, _ = self._expected_die(state)
        if die == "":
            fail("No roll is asked for now")
        if action.die != die:
            fail(f"Roll the {die}, not the {action.die}")
        if len(action.faces) != 1 or action.faces[0] not in DIE_FACES[die]:
            malformed(
                f"roll.faces: one {die} result from 1 to {len(DIE_FACES[die])}, got {list(action.faces)}"
            )
        value = int(action.faces[0])
        top = state.top
        if top is not None:
            if top.purpose == "check":
                if top.subject.startswith("rampage"):
                    return economy.rampage_checked(data, state, top, value, ev)
                return levy.checked(data, state, top, value, ev)
            if top.purpose == "caravan-power":
                return economy.caravan_power_rolled(data, state, top, value, ev)
            if top.purpose == "underground":
                return moves.caves_rolled(data, state, top, value, ev)
            return moves.pass_checked(data, state, top, value, ev)
        need = flow.battle_need(data, state)
        if need is not None:
            part = battle.part_for(need, action.player)
            if part.kind in BATTLE_ROLLS:
                return battle.rolled(data, state, part, value, ev)
            return aftermath_answers.rolled(data, state, part, value, ev)
        return opening.rolled_off(data, state, action.player, value, ev)

    def _expected_die(self, state: State) -> tuple[str, int]:
        asked = self.prompt(state)
        if asked is None or asked.roll is None:
            return "", 0
        return asked.roll.die, asked.roll.count

    # ---------------------------------------------------------------------------------- questions

    def _answer_step(self, state: State, top: Step, action: Action, seat: int, ev: list[Event]) -> State:
        data = self.data
        if top.purpose == "gold" and isinstance(action, DrawGold):
            if seat != top.seat:
                fail(f"It is {who(state, top.seat)}'s draw")
            return economy.draw_gold(data, state, top, seat, action.chip, ev)
        if top.purpose == "draw" and isinstance(action, Draw):
            return turns.draw(data, state, seat, action.counters, ev)
        if isinstance(action, Levy) and top.purpose == "check" and levy.joins_levy(state, action.leader):
            # a chip laid beside the leader while his levy's check waits: it joins that levy
            return levy.levy(data, state, seat, action.leader, action.counters, action.neutrals, ev)
        if isinstance(action, Choose) and top.purpose in (
            "runaway",
            "surface",
            "pass",
            "pass-attack",
            "engage",
            "engage-enemy",
        ):
            if seat != top.seat:
                fail(f"The question is {who(state, top.seat)}'s to answer")
            if top.purpose == "runaway":
                return economy.ran_away(data, state, top, action.option, ev)
            if top.purpose == "surface":
                return moves.surfaced(data, state, top, action.option, ev)
            return moves.answered(data, state, top, action.option, ev)
        self._not_now(state)
        raise AssertionError  # unreachable: _not_now raises

    def _answer_battle(
        self, state: State, need: battle.Need, action: Action, seat: int, ev: list[Event]
    ) -> State:
        data = self.data
        if need.kind == "strategy" and isinstance(action, ChooseStrategy):
            return battle.choose_strategy(data, state, seat, action.strategy, ev)
        if need.kind == "assign" and isinstance(action, AssignDamage):
            if seat not in need.seats:
                fail(f"{' and '.join(who(state, s) for s in need.seats)} assign this damage")
            part = battle.part_for(need, seat)
            return aftermath_answers.assign(data, state, part, action.damage, action.survivor, ev)
        if isinstance(action, Choose) and need.kind in ("biggest", "loser", "retreat", "escape"):
            if need.kind != "loser" and seat not in need.seats:
                fail(f"{who(state, need.seats[0])} answers this")
            if need.kind == "biggest":
                return battle.chose_biggest(data, state, need, action.option, ev)
            return aftermath_answers.chose(data, state, need, action.option, ev)
        self._not_now(state)
        raise AssertionError

    # -------------------------------------------------------------------------------------- parts

    def _setup(self, state: State, action: Action, seat: int, ev: list[Event]) -> State:
        data = self.data
        if isinstance(action, TakeBosses):
            return opening.take_bosses(data, state, seat, action.leaders, ev)
        if isinstance(action, Draw):
            return turns.draw(data, state, seat, action.counters, ev)
        if isinstance(action, TradeForGold):
            return opening.trade_for_gold(data, state, seat, action.counters, ev)
        if isinstance(action, Done):
            return opening.setup_done(data, state, seat, ev)
        self._not_now(state)
        raise AssertionError

    def _trade(self, state: State, action: Action, seat: int, ev: list[Event]) -> State:
        data = self.data
        if isinstance(action, OfferTrade):
            return trading.offer(
                data,
                state,
                seat,
                action.partner,
                action.give,
                action.give_gold,
                action.take,
                action.take_gold,
                ev,
            )
        if isinstance(action, AnswerTrade):
            return trading.answer(data, state, seat, action.accept, ev)
        if isinstance(action, Done):
            return turns.done(data, state, seat, ev)
        self._not_now(state)
        raise AssertionError

    def _turn(self, state: State, action: Action, seat: int, ev: list[Event]) -> State:
        data = self.data
        turn = state.current
        if state.phase != TURN or turn is None:
            self._not_now(state)
        assert turn is not None
        if turn.seat != seat:
            fail(f"It is {who(state, turn.seat)}'s turn")
        if isinstance(action, Done):
            return turns.done(data, state, seat, ev)
        if isinstance(action, Draw):
            return turns.draw(data, state, seat, action.counters, ev)
        if isinstance(action, Redraw):
            return turns.redraw(data, state, seat, ev)
        if isinstance(action, Buy):
            return turns.buy(data, state, seat, ev)
        if isinstance(action, Discard):
            return turns.discard(data, state, seat, action.counters, ev)
        if isinstance(action, BuildMine) and turn.step in (CAMPAIGN, RAMPAGE):
            return orders.build_mine(data, state, seat, action.leader, ev)
        if turn.step == RAMPAGE:
            if isinstance(action, Rampage):
                return economy.rampage(data, state, seat, action.leader, action.with_leader, ev)
            if isinstance(action, DestroyMine):
                return orders.destroy_mine(data, state, seat, action.territory, ev)
        if turn.step != CAMPAIGN:
            self._not_now(state)
        return self._campaign(state, action, seat, ev)

    def _campaign(self, state: State, action: Action, seat: int, ev: list[Event]) -> State:
        data = self.data
        if isinstance(action, Levy):
            return levy.levy(data, state, seat, action.leader, action.counters, action.neutrals, ev)
        if isinstance(action, Move):
            return moves.move(data, state, seat, action.leader, action.to, action.via, ev)
        if isinstance(action, Underground):
            return moves.underground(data, state, seat, action.leader, ev)
        if isinstance(action, LeaveBehind):
            return orders.leave_behind(data, state, seat, action.leader, action.units, ev)
        if isinstance(action, Claim):
            return levy.claim(data, state, seat, action.leader, ev)
        if isinstance(action, Attack):
            return orders.attack(data, state, seat, action.leader, action.target, ev)
        if isinstance(action, BuildFortress):
            return orders.build_fortress(data, state, seat, action.leader, action.rating, ev)
        if isinstance(action, UseSpy):
            return economy.spy_used(data, state, seat, action.spy, action.use, action.target, ev)
        self._not_now(state)
        raise AssertionError

    # ------------------------------------------------------------------------------------ queries

    def legal_actions(self, state: State) -> Sequence[Action]:
        return [a for a in legal.candidates(self.data, state) if self.is_legal(state, a)]

    def prompt(self, state: State) -> Prompt | None:
        return prompts.prompt(self.data, state)

    def is_over(self, state: State) -> bool:
        return state.finished

    def view(self, state: State) -> dict[str, JSON]:
        return view.view(self.data, state, self.prompt(state))

    def private_view(self, state: State, seat: PlayerId) -> dict[str, JSON] | None:
        return view.private_view(self.data, state, seat)

    def result(self, state: State) -> GameResult:
        return view.result(self.data, state)

    def actor(self, state: State, action: Action) -> PlayerId | None:
        """Whose decision the action is: a chief's roll is his (his phone enters it where players enter
        their own dice, a shared phone or the table where they do not), a roll of a side without a
        chief and a gold correction are the table's; a leader's orders are his owner's; every other
        action is its player's."""
        if isinstance(action, CorrectGold):
            return None
        if isinstance(action, Roll):
            chief = action.player
            return PlayerId(chief) if isinstance(chief, int) and 0 <= chief < len(state.names) else None
        leader = getattr(action, "leader", None)
        if isinstance(leader, str):
            army = state.army(leader)
            if army is not None:
                return PlayerId(army.owner)
        player = getattr(action, "player", None)
        return PlayerId(player) if isinstance(player, int) else None

    def public_action(self, action: Action) -> dict[str, JSON]:
        if isinstance(action, SECRET):
            shown: dict[str, JSON] = {"kind": action.kind, "player": getattr(action, "player", None)}
            chips = getattr(action, "counters", None)
            if chips is not None:
                shown["count"] = len(chips)
            if isinstance(action, OfferTrade):
                shown["partner"] = action.partner
            return shown
        return self.format_action(action)
