"""What the demo's chiefs do: every answer but the dice (the platform throws those), the way a keen
table plays ORCWARS TOO! with these house rules.

Chips are drawn at random, as from the real cup. A chief takes a boss or two, keeps his hand, levies his
leaders at home and his native troops beside them (now and then foreigners too, on a check), marches on
the orclands he does not hold (free ones first, an enemy's when he is the stronger), attacks the caravans
and neutral troops he meets, rampages in the outlands, builds a mine or a fortress now and then, and
chooses his strategy in secret on his phone. Every action is one the engine accepts (checked before it is
proposed), so the game always moves on.
"""

from __future__ import annotations

import random

from companion.bundle import LivePosition
from companion.engine import Action, PlayerId, Prompt
from companion.games.orcwars_too.actions import (
    GOLD,
    AnswerTrade,
    AssignDamage,
    Attack,
    BuildFortress,
    BuildMine,
    Buy,
    Choose,
    ChooseStrategy,
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
    UseSpy,
)
from companion.games.orcwars_too.common import enemies_in, friendly, hostile_in, power
from companion.games.orcwars_too.counters import UNIT_KINDS, GameData, Kind
from companion.games.orcwars_too.engine import OrcwarsToo
from companion.games.orcwars_too.places import neutral_units
from companion.games.orcwars_too.state import SETUP, Army, State
from companion.games.orcwars_too.trading import partners
from companion.games.orcwars_too.turns import draws_owed

STRATEGY_WEIGHTS = {"charge": 4, "careful": 3, "clever": 3, "flee": 1}
FIGHT = {"engage": 0.5, "engage-enemy": 0.4, "pass": 0.5, "pass-attack": 0.5}
"""How keen the chiefs are to fight when asked (the first option of each question is the fight)."""


class Chiefs:
    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def next_action(self, position: LivePosition) -> Action | None:
        prompt, state, game = position.prompt, position.state, position.game
        if prompt is None or prompt.roll is not None or not isinstance(state, State):
            return None
        if not isinstance(game, OrcwarsToo) or not prompt.players:
            return None
        action = self._answer(game, state, prompt)
        if action is not None and game.is_legal(state, action):
            return action
        legal = [a for a in game.legal_actions(state) if a.kind != "roll"]  # the safety net
        return self._rng.choice(legal) if legal else None

    def _answer(self, game: OrcwarsToo, state: State, prompt: Prompt) -> Action | None:
        data, kind = game.data, prompt.kind
        seat = PlayerId(prompt.players[0])
        if kind == "setup":
            return self._setup(game, state, prompt)
        if kind == "draw_gold":
            pile = [GOLD] * state.gold_pile + list(state.caravan_pile)
            return DrawGold(seat, self._rng.choice(pile)) if pile else None
        if kind in ("draw", "reinforce"):
            if kind == "reinforce" and game.is_legal(state, Redraw(seat)) and self._rng.random() < 0.8:
                return Redraw(seat)
            return self._draw(data, state, seat)
        if kind == "buy":
            hand = state.hands[seat]
            units = sum(1 for c in hand.counters if c in data.units)
            keen = hand.gold >= data.rules.extra_cost + 2 and units < 8 and self._rng.random() < 0.6
            return Buy(seat) if keen and game.is_legal(state, Buy(seat)) else Done(seat)
        if kind == "campaign":
            return self._campaign(game, state, seat)
        if kind == "rampage":
            return self._rampage(game, state, seat)
        if kind == "discard":
            units = [c for c in state.hands[seat].counters if data.counter(c).kind in UNIT_KINDS]
            return Discard(seat, (min(units, key=lambda c: (data.counter(c).power, c)),)) if units else None
        if kind == "trading":
            return self._trade(game, state, seat)
        if kind == "answer_trade":
            return AnswerTrade(seat, self._rng.random() < 0.6)
        if kind == "strategy":
            return self._strategy(prompt, seat)
        if kind == "assign":
            mine = [
                c.action
                for c in prompt.choices
                if isinstance(c.action, AssignDamage) and c.action.player == seat
            ]
            return self._rng.choice(mine) if mine else None
        if kind == "choose":
            return self._choose(state, prompt)
        return self._rng.choice(prompt.choices).action if prompt.choices else None

    # ------------------------------------------------------------------------------------ setup

    def _setup(self, game: OrcwarsToo, state: State, prompt: Prompt) -> Action | None:
        data = game.data
        seats = list(prompt.players)
        self._rng.shuffle(seats)  # the chiefs set up side by side, not one after the other
        for seat in seats:
            player = PlayerId(seat)
            stage, hand = state.setups[seat].stage, state.hands[seat].counters
            leaders = [c for c in state.cup if data.counter(c).kind is Kind.LEADER]
            if stage == "bosses" and leaders:
                return TakeBosses(player, (self._rng.choice(leaders),))
            second = TakeBosses(player, (self._rng.choice(leaders),)) if leaders else None
            if second is not None and len(hand) == 1 and self._rng.random() < 0.35:
                if game.is_legal(state, second):
                    return second
            if draws_owed(data, state, seat):
                return self._draw(data, state, player)
            tradable = [c for c in hand if data.counter(c).kind is not Kind.LEADER]
            if stage == "draw" and tradable and self._rng.random() < 0.5:
                return TradeForGold(player, (self._rng.choice(tradable),))
            if state.phase == SETUP and any(
                isinstance(c.action, Done) and c.action.player == seat for c in prompt.choices
            ):
                return Done(player)
        return None

    def _draw(self, data: GameData, state: State, seat: PlayerId) -> Action | None:
        return Draw(seat, (self._rng.choice(state.cup),)) if state.cup else None

    # --------------------------------------------------------------------------------- campaign

    def _campaign(self, game: OrcwarsToo, state: State, seat: PlayerId) -> Action:
        data = game.data
        for found in (
            self._join_levy(data, state, seat),
            *self._leaders_home(data, state, seat),
            *self._levies(data, state, seat),
            *self._orders(game, state, seat),
            self._spy(data, state, seat),
        ):
            if found is not None and game.is_legal(state, found):
                return found
        return Done(seat)

    def _join_levy(self, data: GameData, state: State, seat: PlayerId) -> Action | None:
        levy = state.levy
        army = state.army(levy.leader) if levy is not None else None
        if army is None or army.owner != seat or len(army.units) >= 6:
            return None
        chip = self._recruit(data, state, seat, army)
        return Levy(seat, army.leader, (chip,)) if chip else None

    def _leaders_home(self, data: GameData, state: State, seat: PlayerId) -> list[Action]:
        hand = state.hands[seat].counters
        return [
            Levy(seat, c) for c in hand if data.counter(c).kind is Kind.LEADER and self._rng.random() < 0.9
        ]

    def _levies(self, data: GameData, state: State, seat: PlayerId) -> list[Action]:
        out: list[Action] = []
        for army in state.armies_of(seat):
            if army.territory and not army.levied and friendly(state, army.territory, seat):
                chip = self._recruit(data, state, seat, army)
                if chip:
                    out.append(Levy(seat, army.leader, (chip,)))
        return out

    def _recruit(self, data: GameData, state: State, seat: int, army: Army) -> str:
        """A chip of the hand for the army: a native troop, else (now and then) a foreigner on a check."""
        home = data.counter(army.leader).native
        hand = state.hands[seat].counters
        natives = [c for c in hand if data.counter(c).kind is Kind.TROOP and data.counter(c).native == home]
        if natives:
            return natives[0]
        others = [c for c in hand if data.counter(c).kind in (Kind.TROOP, Kind.SHAMAN)]
        if army.shaman:
            others = [c for c in others if data.counter(c).kind is Kind.TROOP]
        return self._rng.choice(others) if others and self._rng.random() < 0.4 else ""

    def _orders(self, game: OrcwarsToo, state: State, seat: PlayerId) -> list[Action]:
        data = game.data
        out: list[Action] = []
        armies = list(state.armies_of(seat))
        self._rng.shuffle(armies)
        for army in armies:
            here = army.territory
            if not here:
                continue
            for caravan in state.caravans:
                if data.caravan(caravan.chip).route[caravan.step] == here and army.units:
                    if self._rng.random() < 0.6:
                        out.append(Attack(seat, army.leader, caravan.chip))
            if neutral_units(state, here) and army.units and self._rng.random() < 0.6:
                out.append(Attack(seat, army.leader, "neutral"))
            foes = enemies_in(state, here, seat)
            if foes and not army.attacked and self._rng.random() < 0.5:
                out.append(Attack(seat, army.leader, f"seat:{foes[0]}"))
            if not army.moved:
                guard = self._guard(data, state, seat, army)
                if guard is not None:
                    out.append(guard)
                target = self._target(data, state, seat, army)
                if target:
                    out.append(Move(seat, army.leader, target))
                gold = state.hands[seat].gold
                if army.units and gold >= 4 and self._rng.random() < 0.15:
                    out.append(
                        BuildFortress(seat, army.leader, min(gold - 1, max(data.rules.fortress_ratings)))
                    )
            if self._rng.random() < 0.3:
                out.append(BuildMine(seat, army.leader))
        return out

    def _guard(self, data: GameData, state: State, seat: int, army: Army) -> Action | None:
        """Before marching off, a troop left to hold the land (another chief's leader would claim it)."""
        here = army.territory
        troops = [u for u in army.units if data.counter(u).kind is Kind.TROOP]
        if len(troops) < 2 or state.garrison(here, seat) is not None or not friendly(state, here, seat):
            return None
        weakest = min(troops, key=lambda u: (data.counter(u).power, u))
        return LeaveBehind(seat, army.leader, (weakest,)) if self._rng.random() < 0.7 else None

    def _target(self, data: GameData, state: State, seat: int, army: Army) -> str:
        """Where the army marches: an orcland the chief does not hold, free ones first, an enemy's when it is
        the stronger; an outland to rampage in now and then; sometimes it stays."""
        if self._rng.random() < 0.15:
            return ""
        strength = power(data, (army.leader, *army.units))
        free, weaker, outlands = [], [], []
        for territory in data.board:
            place = territory.id
            if place == army.territory or not data.board.adjacent(army.territory, place):
                continue
            if not territory.orcland:
                outlands.append(place)
            elif state.land(place).controller == seat:
                continue
            elif not hostile_in(state, place, seat):
                free.append(place)
            elif army.units and strength > _defence(data, state, place, seat):
                weaker.append(place)
        if weaker and (not free or self._rng.random() < 0.35):
            return self._rng.choice(weaker)
        if free and self._rng.random() < 0.85:
            return self._rng.choice(free)
        return self._rng.choice(outlands) if outlands and army.units else ""

    def _spy(self, data: GameData, state: State, seat: PlayerId) -> Action | None:
        spies = [c for c in state.hands[seat].counters if data.counter(c).kind is Kind.SPY]
        rich = max(range(state.seats), key=lambda s: (s != seat, state.hands[s].gold))
        if spies and rich != seat and data.rules.spy_uses and self._rng.random() < 0.3:
            use = self._rng.choice(data.rules.spy_uses)
            return UseSpy(seat, spies[0], use.id, rich)
        return None

    # ---------------------------------------------------------------------------------- the rest

    def _rampage(self, game: OrcwarsToo, state: State, seat: PlayerId) -> Action:
        for army in state.armies_of(seat):
            rampage = Rampage(seat, army.leader, True)
            if self._rng.random() < 0.8 and game.is_legal(state, rampage):
                return rampage
        return Done(seat)

    def _trade(self, game: OrcwarsToo, state: State, seat: PlayerId) -> Action:
        captives = state.hands[seat].captives
        others = [p for p in partners(game.data, state, seat) if p not in state.traded]
        if captives and others and self._rng.random() < 0.5:
            partner = self._rng.choice(others)
            ransom = min(2, state.hands[partner].gold)
            return OfferTrade(seat, PlayerId(partner), give=(captives[0],), take_gold=ransom)
        return Done(seat)

    def _strategy(self, prompt: Prompt, seat: PlayerId) -> Action | None:
        mine = [
            c.action
            for c in prompt.choices
            if isinstance(c.action, ChooseStrategy) and c.action.player == seat
        ]
        if not mine:
            return None
        weights = [STRATEGY_WEIGHTS.get(a.strategy, 1) for a in mine]
        return self._rng.choices(mine, weights)[0]

    def _choose(self, state: State, prompt: Prompt) -> Action | None:
        options = [c.action for c in prompt.choices if isinstance(c.action, Choose)]
        if not options:
            return None
        top = state.top
        keen = FIGHT.get(top.purpose, -1.0) if top is not None else -1.0
        if keen >= 0:
            return options[0] if self._rng.random() < keen else options[-1]
        if top is not None and top.purpose == "surface":
            return options[0] if self._rng.random() < 0.7 else options[-1]
        places = [a for a in options if a.option != "none"]
        return self._rng.choice(places or options)


def _defence(data: GameData, state: State, territory: str, seat: int) -> int:
    """The power of everything hostile to ``seat`` standing in ``territory``."""
    found: list[str] = []
    for army in state.armies_in(territory):
        if army.owner != seat:
            found += [army.leader, *army.units]
    for garrison in state.garrisons_in(territory):
        if garrison.owner != seat:
            found += garrison.units
    return power(data, found)
