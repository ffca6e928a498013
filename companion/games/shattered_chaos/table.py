"""Shattered Chaos at the table: what a card on a reader (or a camera zone), a button and ``next`` mean.

* an adventurer card on its seat's place: which adventurer the seat plays (a mismatch is a notice);
* a chaos card laid by an adventurer's card (its chaos zone, or its adventurer zone when one reader watches
  the whole place) answers that adventurer's waiting draw (``draw_card``), or is one it holds already;
* a chaos card lifted off an adventurer's card is ambiguous until it lands: on the discard pile it is
  the chaos cards for armour the enemy's attack asks about (``armour_cards``), a step card used before an
  action (``step_card``), a card for the coming attack (``lay_card``: the attack declared next uses it, V.G
  line 1563), or else a discard for a chaos token (``discard_card``, line 1571); put back, nothing;
* the stacks and the discard pile are read so a re-sync or a card put back plays nothing twice; a card
  lifted off a stack while a draw waits is the card drawn (a notice says where to lay it);
* the per-seat Adventurer button answers the map's questions (the enemy sees me, I am the closest, the tie
  is me), names the partner of a chaos call and the adventurer who suffers a shadow's damage;
* ``next`` is the prompt's "no": none of them (the map), keep the throw, no armour cards, no reaction, no
  chaos card, nobody; in the adventurer phase, cards laid for an attack not made are for chaos tokens.

Dice need no mapper: an attack is a mixed throw the table fills die by die (prompts.throw_of).
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.bundle import Act, BaseMapper, ButtonRole, LivePosition, Note, Press, Translation, Zone
from companion.engine import Action, PlayerId
from companion.games.shattered_chaos import actions as act
from companion.games.shattered_chaos.catalog import Catalog
from companion.games.shattered_chaos.data_loading import default_catalog
from companion.games.shattered_chaos.engine import ShatteredChaos
from companion.games.shattered_chaos.rounds import may_attack_next
from companion.games.shattered_chaos.state import (
    ADVENTURERS,
    Draw,
    EnemyAttack,
    EnemyTurn,
    NamePartner,
    State,
)
from companion.games.shattered_chaos.zones import ADVENTURER, ADVENTURER_BUTTON, CHAOS, DISCARD, STACK, STACKS

MAP_QUESTIONS = ("enemy-sight", "enemy-reach", "enemy-within")
"""Prompts answered by every adventurer the enemy sees (or reaches): the Adventurer buttons, gathered."""


class ShatteredChaosMapper(BaseMapper):
    def __init__(self) -> None:
        self._cat = default_catalog()
        titles = {hero.id: hero.name for hero in self._cat.adventurers}
        for bronze in self._cat.bronze():  # every card a tag may be enrolled for: its silver and gold too
            for value in "bsg":
                card = self._cat.card(f"{value}{bronze.number}")
                titles[card.id] = card.title
        super().__init__(titles)

    # ----------------------------------------------------------------------------------- reading

    def cards_in(self, zone: Zone, position: LivePosition) -> Sequence[str] | None:
        state = _state(position)
        if state is None:
            return None
        if zone.kind in (ADVENTURER, CHAOS):
            seat = zone.player
            if seat is None or not 0 <= seat < state.seats:
                return None
            hero = state.party[seat]
            held = [c for c in hero.cards if c not in hero.laid]
            return [hero.card, *held] if zone.kind == ADVENTURER else held
        if zone.kind == DISCARD:
            return [*state.discard, *(c for hero in state.party for c in hero.laid)]
        if zone.kind == STACK:
            return list(state.stack(str(zone.get("stack"))))
        return None

    def placed(self, zone: Zone, card_id: str, position: LivePosition, came_from: Zone | None) -> Translation:
        state = _state(position)
        if state is None or not position.playing:
            return Note("The adventure is over: cards on the readers are not played", level="info")
        cat = _catalog(position, self._cat)
        where = zone.label(position.names)
        title = self.shown_title(card_id)
        if cat.has_adventurer(card_id):
            return self._adventurer_laid(zone, card_id, position, state, cat)
        if not cat.has_card(card_id):
            return Note(f"{title} on {where} is not a Shattered Chaos card")
        if zone.kind in (ADVENTURER, CHAOS):
            return self._to_hand(zone, card_id, position, state, cat)
        if zone.kind == DISCARD:
            return self._to_discard(card_id, position, state, cat, came_from)
        if zone.kind == STACK:
            return self._to_stack(zone, card_id, position, state, cat)
        return Note(f"Shattered Chaos has no {zone.kind.title}: {zone.source} is not played")

    def lifted(self, zone: Zone, card_id: str, position: LivePosition) -> Translation:
        state = _state(position)
        if state is None or not position.playing:
            return None
        cat = _catalog(position, self._cat)
        title = self.shown_title(card_id)
        seat = zone.player
        if zone.kind in (ADVENTURER, CHAOS) and seat is not None and 0 <= seat < state.seats:
            hero = state.party[seat]
            if card_id == hero.card:
                return Note(f"{title}'s card lifted from {zone.label(position.names)}: put it back")
            if card_id in hero.cards and card_id not in hero.laid:
                who = _name(position, state, cat, seat)
                return Note(
                    f"{who} lifted {title}: lay it on the discard pile to use it (a card for an attack goes"
                    " with the next attack, any other for a chaos token), or put it back"
                )
            return None
        if zone.kind == STACK and card_id in state.stack(str(zone.get("stack"))):
            top = state.top
            if isinstance(top, Draw):
                who = _name(position, state, cat, top.seat)
                return Note(f"{who} draws {title}: lay it by {who}'s adventurer card", level="info")
            return Note(
                f"{title} lifted from {zone.label(position.names)}: no chaos card is drawn now, put it back"
            )
        if zone.kind == DISCARD and any(card_id in hero.laid for hero in state.party):
            return Note(
                f"{title} lifted from the discard pile: it waits there for the coming attack, put it back"
            )
        return None

    # ----------------------------------------------------------------------------------- buttons

    def pressed(self, role: ButtonRole, presses: Sequence[Press], position: LivePosition) -> Translation:
        state, prompt = _state(position), position.prompt
        seats = list(dict.fromkeys(p.seat for p in presses if p.seat is not None))
        if role != ADVENTURER_BUTTON or not seats:
            return Note(f"Shattered Chaos has no {role.title} button", level="info")
        if state is None or prompt is None:
            return Note("The adventure is over", level="info")
        cat = _catalog(position, self._cat)
        top = state.top
        names = " and ".join(_name(position, state, cat, s) for s in seats)
        if isinstance(top, EnemyTurn) and prompt.kind in MAP_QUESTIONS:
            asked = [s for s in top.candidates if s in seats]
            if not asked:
                return Note(
                    f"{names}: the question is about {self._listed(position, state, cat, top.candidates)}"
                )
            said = " and ".join(_name(position, state, cat, s) for s in asked)
            return Act(act.Sighted(top.model, tuple(asked)), f"the map: {said}")
        first = seats[0]
        chosen = _name(position, state, cat, first)
        if isinstance(top, EnemyTurn) and top.asking in ("closest", "nearest", "tie"):
            if first not in top.candidates:
                return Note(
                    f"{chosen}: the question is about {self._listed(position, state, cat, top.candidates)}"
                )
            if top.asking == "tie":
                return Act(act.Target(top.model, first), f"{chosen} is the target")
            return Act(act.Closest(top.model, first), f"{chosen} is the closest")
        if isinstance(top, NamePartner):
            return Act(act.Partner(PlayerId(top.seat), first), f"{chosen} may also draw a chaos card")
        if isinstance(top, EnemyAttack) and top.stage == "redirect":
            return Act(act.Redirect(first), f"{chosen} suffers the shadow's damage")
        return Note(
            "The Adventurer buttons answer the map's questions (who the enemy sees, who is closest): "
            "nothing is asked now",
            level="info",
        )

    def next_action(self, position: LivePosition) -> Translation:
        state, prompt = _state(position), position.prompt
        if state is None or prompt is None:
            return Note("The adventure is over", level="info")
        top = state.top
        declining = _declining(prompt.kind, state)
        if declining is not None:
            label = next((c.label for c in prompt.choices if c.action == declining), declining.kind)
            return Act(declining, label)
        if top is None and state.phase == ADVENTURERS:
            laid = [(seat, card) for seat, hero in enumerate(state.party) for card in hero.laid]
            if laid:
                chain: Act | None = None
                for seat, card in reversed(laid):
                    title = self.shown_title(card)
                    chain = Act(
                        act.DiscardCard(PlayerId(seat), card), f"{title} for a chaos token", then=chain
                    )
                return chain
        return Note("Nothing to decline now: step through the choices, confirm takes one", level="info")

    # ----------------------------------------------------------------------------------- helpers

    def _listed(self, position: LivePosition, state: State, cat: Catalog, seats: Sequence[int]) -> str:
        return ", ".join(_name(position, state, cat, s) for s in seats)

    def _adventurer_laid(
        self, zone: Zone, card_id: str, position: LivePosition, state: State, cat: Catalog
    ) -> Translation:
        name = cat.adventurer(card_id).name
        seat = zone.player
        if zone.kind != ADVENTURER or seat is None or not 0 <= seat < state.seats:
            return Note(
                f"{name}'s adventurer card goes on its player's place, not on {zone.label(position.names)}"
            )
        if state.party[seat].card == card_id:
            return None
        player = position.name(seat)
        plays = cat.adventurer(state.party[seat].card).name
        return Note(f"{player} plays {plays}, not {name}: lay {plays}'s card there (or start the game anew)")

    def _to_hand(
        self, zone: Zone, card: str, position: LivePosition, state: State, cat: Catalog
    ) -> Translation:
        seat = zone.player
        title = self.shown_title(card)
        if seat is None or not 0 <= seat < state.seats:
            return Note(f"{title} on {zone.source}: no adventurer plays at that place")
        name = _name(position, state, cat, seat)
        holder = _holder(state, card)
        if holder == seat:
            if card in state.party[seat].laid:
                return Note(f"{title} is laid for {name}'s coming attack: leave it on the discard pile")
            return None  # put back, or read again
        if holder is not None:
            return Note(f"{title} is {_name(position, state, cat, holder)}'s chaos card")
        top = state.top
        if isinstance(top, Draw):
            if top.seat != seat:
                drawer = _name(position, state, cat, top.seat)
                return Note(f"{drawer} draws now: lay the chaos card by {drawer}'s adventurer card")
            if any(card in cards for _, cards in state.stacks):
                return Act(act.DrawCard(PlayerId(seat), card), f"{name} draws {title}")
        if card in state.discard:
            return Note(f"{title} was discarded: it stays on the discard pile this adventure")
        return Note(
            f"{title} by {name}'s adventurer card: no chaos card is drawn now, put it back on its stack"
        )

    def _to_discard(
        self, card: str, position: LivePosition, state: State, cat: Catalog, came_from: Zone | None
    ) -> Translation:
        title = self.shown_title(card)
        holder = _holder(state, card)
        if holder is None:
            if card in state.discard:
                return None  # discarded already (by a rule, or on the phone)
            return Note(
                f"{title} on the discard pile: nobody holds it (draw it first, or put it back on its stack)"
            )
        hero = state.party[holder]
        if card in hero.laid:
            return None
        name = _name(position, state, cat, holder)
        chaos_card = cat.card(card)
        top = state.top
        if (
            isinstance(top, EnemyAttack)
            and top.stage == "armour"
            and top.seat == holder
            and chaos_card.bonus == "armour"
        ):
            return Act(act.ArmourCards(PlayerId(holder), (card,)), f"{name} discards {title} for armour")
        free = top is None and state.phase == ADVENTURERS and hero.actions > 0
        if chaos_card.bonus == "step" and free:
            return Act(act.StepCard(PlayerId(holder), card), f"{name} discards {title} to step")
        if chaos_card.for_attack and may_attack_next(state, holder):
            return Act(act.LayCard(PlayerId(holder), card), f"{name} lays {title} for the coming attack")
        return Act(act.DiscardCard(PlayerId(holder), card), f"{name} discards {title} for a chaos token")

    def _to_stack(
        self, zone: Zone, card: str, position: LivePosition, state: State, cat: Catalog
    ) -> Translation:
        stack = str(zone.get("stack"))
        title = self.shown_title(card)
        if stack not in STACKS and stack not in cat.stacks:
            return Note(
                f"{zone.source} watches a stack called {stack!r}: the stacks are {', '.join(cat.stacks)}"
            )
        if card in state.stack(stack):
            return None
        if cat.card(card).stack != stack:
            return Note(f"{title} belongs on the {cat.card(card).stack} stack, not the {stack} one")
        return Note(
            f"{title} on the {stack} stack: a chaos card in play goes back only for the next adventure"
        )


def _state(position: LivePosition) -> State | None:
    return position.state if isinstance(position.state, State) else None


def _catalog(position: LivePosition, fallback: Catalog) -> Catalog:
    """The running engine's data (an owner's overrides included), else the packaged data."""
    game = position.game
    return game.catalog if isinstance(game, ShatteredChaos) else fallback


def _name(position: LivePosition, state: State, cat: Catalog, seat: int) -> str:
    """The adventurer's name (what the TV shows), then who plays it."""
    return cat.adventurer(state.party[seat].card).name if 0 <= seat < state.seats else position.name(seat)


def _holder(state: State, card: str) -> int | None:
    return next((seat for seat, hero in enumerate(state.party) if card in hero.cards), None)


def _declining(kind: str, state: State) -> Action | None:
    """The prompt's "no": what the ``next`` button answers."""
    top = state.top
    seat = PlayerId(getattr(top, "seat", 0))
    if kind == "chaos-hit":
        return act.ChaosHit(seat, ())
    if kind == "armour":
        return act.ArmourCards(seat, ())
    if kind == "react":
        return act.DeclineReaction(seat)
    if kind == "draw":
        return act.DeclineDraw(seat)
    if kind == "partner":
        return act.Partner(seat, None)
    if kind in MAP_QUESTIONS and isinstance(top, EnemyTurn):
        return act.Sighted(top.model, ())
    return None
