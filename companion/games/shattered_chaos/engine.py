"""The Shattered Chaos rules engine: ``apply(state, action) -> (state, events)``, prompts, legal actions.

A co-operative game: the seats are the 4 or 5 adventurers (clockwise), the players win or lose together,
and the enemies are the engine's own business: it runs their behaviour tables and asks the table only what
the map knows. It never rolls: every throw is an input. This module checks an action's shape, hands it to
the rules module of the moment, then settles the position: defeat, the enemies' decisions, the next phase.
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
    Standing,
    data_digest,
)
from companion.games.shattered_chaos import actions as act
from companion.games.shattered_chaos import (
    attacks,
    behaviour,
    enemy_attacks,
    narrator,
    prompts,
    rounds,
    view,
)
from companion.games.shattered_chaos.campaign import CampaignError, CampaignLog
from companion.games.shattered_chaos.catalog import Catalog, CatalogError
from companion.games.shattered_chaos.data_loading import default_catalog, load_catalog
from companion.games.shattered_chaos.ledgers import hero_name
from companion.games.shattered_chaos.refusals import fail, malformed
from companion.games.shattered_chaos.state import (
    CAMPAIGN,
    OVER,
    Draw,
    EnemyAttack,
    EnemyTurn,
    GraveyardDraws,
    Hero,
    HeroAttack,
    NamePartner,
    State,
    evolve,
)

RULES_VERSION = "shattered-chaos/engine-2"
"""Bumped when the rules or the state's shape change: snapshots of another version are not reused."""
SETTLE_LIMIT = 2000
TABLE_WIDE = (
    act.Sighted,
    act.Closest,
    act.Target,
    act.Redirect,
    act.SetLife,
    act.SetChaos,
    act.PlaceEnemy,
    act.RemoveEnemy,
    act.SetLives,
    act.PlaceChaos,
    act.PlaceCondition,
    act.ReadNarrator,
    act.MoveNarrator,
    act.EndAdventure,
    act.KeepCard,
    act.CloseCampaign,
)
"""What the table does together: the map's answers, the narrator's instructions, the campaign box."""


PARTY_COLOURS = ("#e23b3b", "#2f7df6", "#2fb84f", "#f2b01e", "#b05cff", "#ff8a3d")
"""Seat colours the new-game form offers, one per adventurer of the data (six)."""


class ShatteredChaos(Game[State]):
    name = "shattered-chaos"
    title = "Shattered Chaos"
    min_players = 4
    max_players = 5
    actions = act.CODEC
    game_type = GameType(cooperative=True)

    def __init__(self, catalog: Catalog | None = None, owner_data: str = "") -> None:
        self.catalog = catalog or default_catalog()
        self.owner_data = owner_data
        """The :func:`data_digest` of the owner's overrides file the catalog was built with, or ""."""

    @property
    def default_players(self) -> tuple[Player, ...]:  # type: ignore[override]
        """The new-game form's seats: the first adventurers in the data's order, the party an empty
        Adventurers option seats (one adventurer per player), named as the data (and the owner) name them."""
        return tuple(
            Player(adventurer.name, colour)
            for adventurer, colour in zip(self.catalog.adventurers, PARTY_COLOURS, strict=False)
        )

    @classmethod
    def with_owner_data(cls, path: Path) -> ShatteredChaos:
        """The engine over the packaged data with the owner's overrides file applied (data_loading)."""
        try:
            catalog = load_catalog(overrides=path)
            digest = data_digest(path.read_bytes())
        except (CatalogError, OSError) as exc:
            raise SetupError(f"{cls.title} data {path}: {exc}") from None
        return cls(catalog, digest)

    @property
    def rules_version(self) -> str:
        owner = f"+owner-{self.owner_data}" if self.owner_data else ""
        return f"{RULES_VERSION}{owner}"

    # ------------------------------------------------------------------------------------- setup

    def setup_options(self) -> tuple[SetupOption, ...]:
        cat = self.catalog
        adventures = tuple((a.number, f"{a.number}. {a.title}") for a in cat.adventures)
        names = ", ".join(a.name for a in cat.adventurers)
        return (
            SetupOption(
                "adventure",
                "Adventure",
                "choice",
                adventures,
                cat.adventures[0].number,
                "Which adventure's narrator cards you play",
            ),
            SetupOption(
                "adventurers",
                "Adventurers (clockwise, one per player)",
                "per_seat",
                tuple((a.id, a.name) for a in cat.adventurers),
                None,
                f"Who plays which adventurer ({names}); each plays once",
                distinct=True,
            ),
            SetupOption(
                "starting",
                "Starting player",
                "int",
                (),
                1,
                "Which player (counted from 1) the narrator cards give the starting player card",
                1,
                5,
            ),
            SetupOption(
                "campaign",
                "Campaign log",
                "text",
                (),
                "",
                "The log the last adventure printed (adventures: 1W2; cards: s3); empty: a new campaign",
            ),
        )

    def new_game(self, setup: Setup) -> State:
        cat = self.catalog
        count = len(setup.players)
        if count not in cat.rules.adventurers:
            raise SetupError(f"{self.title} is played by 4 or 5 adventurers: one seat each, not {count}")
        known = {o.name for o in self.setup_options()}
        unknown = set(dict(setup.options)) - known
        if unknown:
            raise SetupError(
                f"unknown options: {', '.join(sorted(unknown))} (known: {', '.join(sorted(known))})"
            )
        number = setup.option("adventure", cat.adventures[0].number)
        if not isinstance(number, int) or isinstance(number, bool) or not cat.has_adventure(number):
            raise SetupError(f"adventure must be one of {', '.join(str(a.number) for a in cat.adventures)}")
        cards = _party(cat, setup.option("adventurers", ""), count)
        starting = setup.option("starting", 1)
        if not isinstance(starting, int) or isinstance(starting, bool) or not 1 <= starting <= count:
            raise SetupError(f"starting must be a player from 1 to {count}")
        text = setup.option("campaign", "")
        if not isinstance(text, str):
            raise SetupError("campaign must be the campaign log's text")
        try:
            campaign = CampaignLog.parse(text, cat)
        except CampaignError as exc:
            raise SetupError(f"campaign log: {exc}") from None
        rules = cat.rules
        party = tuple(
            Hero(
                card,
                cat.adventurer(card).start_life,
                rules.start_chaos_tokens,
                rules.action_tokens,
                (cat.adventurer(card).talent, *campaign.talents_of(card)),
            )
            for card in cards
        )
        stack = campaign.stack(cat)
        stacks = tuple((name, tuple(c for c in stack if cat.card(c).stack == name)) for name in cat.stacks)
        narrator: dict[str, list[str]] = {}
        for card, _ in cat.adventure(number).narrator:
            narrator.setdefault(card[0].upper(), []).append(card)
        return State(
            adventure=number,
            names=tuple(p.name for p in setup.players),
            colours=tuple(p.colour for p in setup.players),
            party=party,
            campaign=campaign,
            stacks=stacks,
            narrator=tuple((k, tuple(v)) for k, v in sorted(narrator.items())),
            starting=starting - 1,
        )

    # ------------------------------------------------------------------------------------- apply

    def apply(self, state: State, action: Action) -> tuple[State, tuple[Event, ...]]:
        if state.phase == OVER:
            raise IllegalActionError("The adventure is over")
        seat = getattr(action, "player", None)
        if seat is not None and (not isinstance(seat, int) or not 0 <= seat < state.seats):
            malformed(f"{action.kind}.player: there is no seat {seat} (0 to {state.seats - 1})")
        for field in ("adventurer", "partner"):
            other = getattr(action, field, None)
            if other is not None and not 0 <= other < state.seats:
                malformed(f"{action.kind}.{field}: there is no seat {other} (0 to {state.seats - 1})")
        ev: list[Event] = []
        state = self._handle(state, action, ev)
        return self._settle(state, ev), tuple(ev)

    def _handle(self, state: State, a: Action, ev: list[Event]) -> State:
        cat, top = self.catalog, state.top
        if isinstance(a, Roll):
            return self._roll(state, a, ev)
        answered = _answer(cat, state, top, a, ev)
        if answered is not None:
            return answered
        handler = _DECLARATIONS.get(type(a))
        if handler is not None:
            return handler(cat, state, a, ev)
        asked = self.prompt(state)
        fail(f"Not now: {asked.text}" if asked else "Not now")

    def _roll(self, state: State, a: Roll, ev: list[Event]) -> State:
        cat, top = self.catalog, state.top
        if a.die != act.ATTACK_DIE:
            malformed(f"roll.die: the attack dice are thrown as {act.ATTACK_DIE!r}, not {a.die!r}")
        if isinstance(top, HeroAttack) and top.stage in ("throw", "rethrow"):
            if a.player != top.seat:
                fail(f"{hero_name(cat, state, top.seat)} throws the dice of this attack")
            return attacks.thrown(cat, state, top, a.faces, ev)
        if isinstance(top, EnemyAttack) and top.stage == "throw":
            if a.player != top.seat:
                fail(f"The dice of this attack are thrown for {hero_name(cat, state, top.seat)}")
            return enemy_attacks.thrown(cat, state, top, a.faces, ev)
        fail("No throw is asked for now")

    # ------------------------------------------------------------------------------------- settle

    def _settle(self, state: State, ev: list[Event]) -> State:
        for _ in range(SETTLE_LIMIT):
            after = _settle_once(self.catalog, state, ev)
            if after is state or after == state:
                return after
            state = after
        raise RuntimeError("the position did not settle")  # a rules bug, never a player's doing

    # ------------------------------------------------------------------------------------ queries

    def legal_actions(self, state: State) -> Sequence[Action]:
        return prompts.legal(self.catalog, state)

    def prompt(self, state: State) -> Prompt | None:
        return prompts.prompt(self.catalog, state)

    def is_over(self, state: State) -> bool:
        return state.phase == OVER

    def view(self, state: State) -> dict[str, JSON]:
        return view.view(self.catalog, state, self.prompt(state), self.result(state))

    def result(self, state: State) -> GameResult:
        evaluation = state.evaluation
        won = state.outcome == "won"
        standings = tuple(
            Standing(
                seat=PlayerId(seat),
                name=state.names[seat],
                rank=1,
                details={
                    "adventurer": self.catalog.adventurer(hero.card).name,
                    "life": hero.life,
                    "shadow": hero.shadow,
                    "damage": self.catalog.adventurer(hero.card).start_life - hero.life,
                },
            )
            for seat, hero in enumerate(state.party)
        )
        title = self.catalog.adventure(state.adventure).title
        named = f"Adventure {state.adventure}"
        named = title if title.startswith(named) else f"{named}, {title}"
        if evaluation is None:
            outcome = f"{named}, round {state.round}: under way"
        else:
            outcome = f"{named} {'won' if won else 'lost'} in round {state.round}"
        details: dict[str, JSON] = {
            "adventure": state.adventure,
            "round": state.round,
            "outcome": state.outcome,
        }
        if evaluation is not None:
            details["evaluation"] = evaluation.to_json()
            details["campaign"] = state.campaign.format()
        return GameResult(
            final=state.phase == OVER,
            winners=tuple(PlayerId(s) for s in range(state.seats)) if won else (),
            standings=standings,
            points_label="damage suffered",
            higher_is_better=False,
            outcome=outcome,
            details=details,
            cooperative=True,
            summary=self._summary(state),
            follow_on=self._next_adventure(state),
        )

    def _summary(self, state: State) -> tuple[str, ...]:
        """The party's final evaluation (IX.A-B) in a few lines for the final screens."""
        evaluation = state.evaluation
        if evaluation is None:
            return ()
        where = self.catalog.adventure(state.adventure).compartment
        box = f"Campaign box ({where}): draw {evaluation.draw} chaos cards, keep {evaluation.keep}"
        log = f"Campaign log: {state.campaign.format()}"
        if evaluation.lost:
            return (f"Defeat: the round marker goes to the end, section {evaluation.section}", box, log)
        spaces = f"{evaluation.spaces} {'space' if evaluation.spaces == 1 else 'spaces'}"
        marker = (
            f"{evaluation.damage} damage suffered: the marker moves {spaces}, "
            f"round {evaluation.start_round} → round {evaluation.final_round}, section {evaluation.section}"
        )
        return (marker, box, log)

    def _next_adventure(self, state: State) -> dict[str, JSON]:
        """How the campaign carries on once the box is closed (IX): the next adventure (the same one after
        a defeat: "we encourage you to try again", IX.C line 2967), the same adventurers, the campaign log."""
        if state.phase != OVER or state.evaluation is None:
            return {}
        numbers = [a.number for a in self.catalog.adventures]
        following = [n for n in numbers if n > state.adventure]
        adventure = following[0] if state.outcome == "won" and following else state.adventure
        return {
            "adventure": adventure,
            "adventurers": [hero.card for hero in state.party],
            "campaign": state.campaign.format(),
        }

    def actor(self, state: State, action: Action) -> PlayerId | None:
        if isinstance(action, TABLE_WIDE):
            return None
        if isinstance(action, Roll):
            top = state.top
            return PlayerId(action.player) if isinstance(top, HeroAttack) else None
        seat = getattr(action, "player", None)
        return None if seat is None else PlayerId(seat)


# ---------------------------------------------------------------------------------------- dispatch


def _answer(cat: Catalog, state: State, top: object, a: Action, ev: list[Event]) -> State | None:
    """The action as the answer to the question on top, or None when it answers none."""
    if isinstance(top, HeroAttack):
        if isinstance(a, act.ChaosHit) and top.stage == "chaos-hit":
            _own(cat, state, top.seat, a.player)
            return attacks.chaos_hit(cat, state, top, a.dice, ev)
        if isinstance(a, act.Resolve) and top.stage == "resolve":
            _own(cat, state, top.seat, a.player)
            return attacks.resolve(cat, state, top, a.range_die, a.vortices, ev)
    if isinstance(top, EnemyTurn) and getattr(a, "model", None) == top.model:
        if isinstance(a, act.Sighted):
            return behaviour.answer_sighted(cat, state, top, a.adventurers)
        if isinstance(a, act.Closest):
            return behaviour.answer_closest(cat, state, top, a.adventurer, ev)
        if isinstance(a, act.Target):
            return behaviour.answer_target(cat, state, top, a.adventurer, ev)
    if isinstance(top, EnemyAttack):
        if isinstance(a, act.ArmourCards):
            _own(cat, state, top.seat, a.player)
            return enemy_attacks.use_armour(cat, state, top, a.cards, ev)
        if isinstance(a, act.Redirect):
            return enemy_attacks.redirect(cat, state, top, a.adventurer, ev)
        if isinstance(a, act.DeclineReaction):  # the cards laid for a reaction become chaos tokens
            return rounds.unlay(cat, enemy_attacks.decline(cat, state, top, a.player, ev), a.player, ev)
        if isinstance(a, act.Attack) and top.stage == "react":
            _own(cat, state, top.seat, a.player)
            return attacks.declare(cat, state, a.player, a.model, a.distance, a.cards, a.destruction, ev)
    if isinstance(top, Draw):
        if isinstance(a, act.DrawCard):
            return rounds.draw_card(cat, state, top, a.player, a.card, ev)
        if isinstance(a, act.DeclineDraw):
            return rounds.decline_draw(cat, state, top, a.player, ev)
    if isinstance(top, NamePartner) and isinstance(a, act.Partner):
        return rounds.name_partner(cat, state, top, a.player, a.partner, ev)
    return None


def _own(cat: Catalog, state: State, seat: int, player: int) -> None:
    if player != seat:
        fail(f"That is {hero_name(cat, state, seat)}'s decision")


def _card(card: str) -> str:
    if len(card) > 8:
        malformed("a chaos card is named by its id (b7, s7, g7)")
    return card


_DECLARATIONS = {
    act.Move: lambda cat, s, a, ev: rounds.move(cat, s, a.player, ev),
    act.Interact: lambda cat, s, a, ev: rounds.interact(cat, s, a.player, a.card, ev),
    act.ChaosCall: lambda cat, s, a, ev: rounds.chaos_call(cat, s, a.player, ev),
    act.Attack: lambda cat, s, a, ev: attacks.declare(
        cat, s, a.player, a.model, a.distance, a.cards, a.destruction, ev
    ),
    act.ChaosStep: lambda cat, s, a, ev: rounds.chaos_step(cat, s, a.player, a.steps, ev),
    act.TalentStep: lambda cat, s, a, ev: rounds.talent_step(cat, s, a.player, ev),
    act.StepCard: lambda cat, s, a, ev: rounds.step_card(cat, s, a.player, _card(a.card), ev),
    act.PickUp: lambda cat, s, a, ev: rounds.pick_up(cat, s, a.player, a.tokens, ev),
    act.DiscardCard: lambda cat, s, a, ev: rounds.discard_card(cat, s, a.player, _card(a.card), ev),
    act.Destroy: lambda cat, s, a, ev: rounds.destroy(cat, s, a.player, ev),
    act.LayCard: lambda cat, s, a, ev: rounds.lay_card(cat, s, a.player, _card(a.card), ev),
    act.PlaceEnemy: lambda cat, s, a, ev: narrator.place_enemy(cat, s, a.model, ev),
    act.RemoveEnemy: lambda cat, s, a, ev: narrator.remove_enemy(cat, s, a.model, ev),
    act.SetLives: lambda cat, s, a, ev: narrator.set_lives(cat, s, a.model, a.lives, ev),
    act.SetLife: lambda cat, s, a, ev: narrator.set_life(cat, s, a.player, a.life, ev),
    act.SetChaos: lambda cat, s, a, ev: narrator.set_chaos(cat, s, a.player, a.tokens, ev),
    act.PlaceChaos: lambda cat, s, a, ev: narrator.place_chaos(cat, s, a.tokens, ev),
    act.PlaceCondition: lambda cat, s, a, ev: narrator.place_condition(
        cat, s, a.condition, a.model, a.adventurer, ev
    ),
    act.ReadNarrator: lambda cat, s, a, ev: narrator.read_narrator(cat, s, a.card, ev),
    act.MoveNarrator: lambda cat, s, a, ev: narrator.move_narrator(cat, s, a.card, a.stack, ev),
    act.EndAdventure: lambda cat, s, a, ev: narrator.end_adventure(cat, s, a.outcome, ev),
    act.KeepCard: lambda cat, s, a, ev: narrator.keep_card(cat, s, _card(a.card), ev),
    act.GainTalent: lambda cat, s, a, ev: narrator.gain_talent(cat, s, a.player, a.talent, ev),
    act.CloseCampaign: lambda cat, s, a, ev: narrator.close_campaign(cat, s, ev),
}


def _settle_once(cat: Catalog, state: State, ev: list[Event]) -> State:
    if state.phase in (CAMPAIGN, OVER):
        return state
    if not state.outcome and not state.living():
        ev.append(Event("Defeat", "Every adventurer is a shadow: the adventure is lost", {}))
        state = evolve(state, outcome="lost")
    if state.outcome:
        return narrator.enter_campaign(cat, evolve(state, steps=()), ev)
    top = state.top
    if top is None:
        return rounds.advance_phase(cat, state, ev)
    if isinstance(top, EnemyTurn):
        return behaviour.advance(cat, state, top, ev)
    if isinstance(top, EnemyAttack):
        return enemy_attacks.advance(cat, state, top, ev)
    if isinstance(top, HeroAttack):
        return _advance_attack(cat, state, top, ev)
    if isinstance(top, Draw):
        return rounds.advance_draw(cat, state, top, ev)
    if isinstance(top, NamePartner):
        return rounds.advance_partner(cat, state, top, ev)
    if isinstance(top, GraveyardDraws):
        return rounds.advance_graveyard(cat, state, top, ev)
    return state


def _advance_attack(cat: Catalog, state: State, top: HeroAttack, ev: list[Event]) -> State:
    if state.model(top.model) is None:  # taken off the board by a correction while the dice were out
        return evolve(state, steps=state.steps[:-1])
    if top.stage != "resolve":
        return state
    options = attacks.outcomes(cat, state, top)
    if not options:
        return attacks.missed(cat, state, top, ev)
    if len(options) == 1:
        return attacks.hit(cat, state, top, options[0], ev)
    return state


def _party(cat: Catalog, chosen: JSON, count: int) -> tuple[str, ...]:
    """The adventurer of each seat: a list in seat order (the new-game form's menu per seat), or the names
    separated by commas as games set up before the menus were (their logs replay); empty: the first ones."""
    if isinstance(chosen, str):
        names = [n for n in (p.strip() for p in chosen.split(",")) if n]
    elif isinstance(chosen, list | tuple) and all(isinstance(n, str) for n in chosen):
        names = [n.strip() for n in chosen]
    else:
        raise SetupError("adventurers: one adventurer per player, in seat order")
    if not names:
        return tuple(a.id for a in cat.adventurers[:count])
    cards = []
    for name in names:
        try:
            cards.append(cat.adventurer_named(name).id)
        except KeyError:
            known = ", ".join(a.name for a in cat.adventurers)
            raise SetupError(f"{name[:40]!r} is not an adventurer ({known})") from None
    if len(cards) != count:
        raise SetupError(f"name one adventurer per player: {count}, not {len(cards)}")
    if len(set(cards)) != len(cards):
        raise SetupError("every adventurer plays once")
    return tuple(cards)
