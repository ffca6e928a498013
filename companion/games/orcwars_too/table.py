"""ORCWARS TOO! at the table: chips on the chiefs' hand readers and the territories' readers, the chiefs'
Done buttons, the next button. Dice need no mapper (the engine's roll prompts say which die).

The engine knows where every chip lies, so a chip read anywhere is read against that, not against the
reader it came from: a chip of the tribe cup laid on a hand is drawn, a chip of a hand laid on a territory
is levied there, a leader carried from one territory to another moves (or retreats) there.

| At the table | The engine |
|---|---|
| a leader laid on a hand in the setup | ``take_bosses`` (a second before anything is drawn) |
| a chip of the tribe cup laid on a hand | ``draw`` while draws are owed; then ``buy`` and ``draw`` |
| a gold chip or a caravan laid on the hand (or the territory) a gold draw is for | ``draw_gold`` |
| a chip lifted off a hand | setup: ``trade_for_gold``; B5: ``discard``; B2 with no leader: ``redraw`` |
| a chip of a hand laid on a territory | ``levy`` by his leader there (joining the levy under way) |
| a leader of a hand laid on his home territory | ``levy`` of the leader himself |
| a leader carried to another territory | ``move`` (B3); after a battle ``choose`` where he retreats |
| a chief's Done button | ``done`` when the prompt offers it to him |
| next | ``done`` when the prompt offers one; declines a question; else steps through the choices |

Hands are secret: nothing the table shows names a chip of a hand (``shown_title`` says "A chip", the
summaries of draws and levies too). Chips moving as the engine moves them (an army following its leader,
losses taken off the board, a captive into the winner's hand) need nothing: ``cards_in`` already shows them
where they go.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.bundle import Act, BaseMapper, ButtonRole, LivePosition, Note, Press, Translation, Zone
from companion.engine import Action, Game, PlayerId
from companion.games.orcwars_too import flow
from companion.games.orcwars_too.actions import (
    GOLD,
    Buy,
    Choose,
    Discard,
    Done,
    Draw,
    DrawGold,
    Levy,
    Move,
    Redraw,
    TakeBosses,
    TradeForGold,
)
from companion.games.orcwars_too.catalog import default_data
from companion.games.orcwars_too.common import who
from companion.games.orcwars_too.counters import UNIT_KINDS, GameData, Kind
from companion.games.orcwars_too.economy import ARMY, HAND, SETUP_HAND, TREASURY, caravan_territory
from companion.games.orcwars_too.state import SETUP, State
from companion.games.orcwars_too.turns import draws_owed
from companion.games.orcwars_too.zones import DONE, TERRITORY
from companion.games.orcwars_too.zones import HAND as HAND_ZONE

DECLINES = ("no battle", "let pass", "keep")
"""A question's options the next button takes: let it be."""


@dataclass(frozen=True)
class Where:
    """Where the engine has a chip: ``place`` is "cup", "pile", "hand", "captive", "army" (a leader, his
    units or shaman), "garrison", "caravan" (on the board) or "" (nowhere: off the board)."""

    place: str
    seat: int = -1
    territory: str = ""
    leader: str = ""


def locate(state: State, chip: str, data: GameData | None = None) -> Where:
    """Where the engine has ``chip`` (a caravan on the board is found with ``data``, its route)."""
    if chip in state.cup:
        return Where("cup")
    if chip in state.caravan_pile:
        return Where("pile")
    for seat, hand in enumerate(state.hands):
        if chip in hand.counters or chip in hand.caravans:
            return Where("hand", seat)
        if chip in hand.captives:
            return Where("captive", seat)
    for army in state.armies:
        if chip == army.leader or chip in army.units or chip == army.shaman:
            return Where("army", army.owner, army.territory, army.leader)
    for garrison in state.garrisons:
        if chip in garrison.units or chip == garrison.shaman:
            return Where("garrison", garrison.owner, garrison.territory)
    for caravan in state.caravans:
        if caravan.chip == chip and data is not None:
            return Where("caravan", territory=caravan_territory(data, caravan))
    return Where("")


class OrcwarsMapper(BaseMapper):
    def __init__(self) -> None:
        data = default_data()
        titles = {c.id: _title(data, c.id) for c in data.counters}
        titles.update({c.id: c.name for c in data.caravans})
        titles[GOLD] = "Gold"
        super().__init__(titles)

    def shown_title(self, card_id: str) -> str:
        """Chips of a hand are secret (a notice may be about a chip just drawn): never named. Gold is
        counted in the open, and a caravan is drawn in the open."""
        if card_id == GOLD:
            return "A gold chip"
        title = self._titles[card_id]
        return title if default_data().has_caravan(card_id) else "A chip"

    # ---------------------------------------------------------------------------------- reading

    def cards_in(self, zone: Zone, position: LivePosition) -> Sequence[str] | None:
        found = _playing(position)
        if found is None:
            return None
        data, state = found
        if zone.kind == HAND_ZONE:
            seat = zone.player
            if seat is None or seat >= state.seats:
                return None
            hand = state.hands[seat]
            return [*hand.counters, *hand.captives, *hand.caravans, *[GOLD] * hand.gold]
        if zone.kind == TERRITORY:
            territory = str(zone["territory"])
            out: list[str] = []
            for army in state.armies_in(territory):
                out += [
                    army.leader,
                    *army.units,
                    *([army.shaman] if army.shaman else []),
                    *[GOLD] * army.gold,
                ]
            for garrison in state.garrisons_in(territory):
                out += [*garrison.units, *([garrison.shaman] if garrison.shaman else [])]
            for caravan in state.caravans:
                if caravan_territory(data, caravan) == territory:
                    out += [caravan.chip, *[GOLD] * caravan.treasury]
            return out
        return None

    def placed(self, zone: Zone, card_id: str, position: LivePosition, came_from: Zone | None) -> Translation:
        found = _playing(position)
        if found is None:
            return Note(
                f"{self.shown_title(card_id)} on {zone.label(position.names)}: no game of ORCWARS TOO!"
            )
        data, state = found
        where = zone.label(position.names)
        if card_id == GOLD:
            return self._gold(zone, state, position)
        if data.has_caravan(card_id):
            return self._caravan(zone, card_id, data, state, position)
        if not data.has_counter(card_id):
            return Note(f"{self.shown_title(card_id)} on {where} is no chip of this box: check the data")
        if zone.kind == HAND_ZONE:
            seat = zone.player
            if seat is None or seat >= state.seats:
                return Note(f"{self.shown_title(card_id)} on {where}: no chief plays that seat")
            return self._to_hand(seat, card_id, data, state, position)
        if zone.kind == TERRITORY:
            territory = str(zone["territory"])
            if territory not in data.board:
                return Note(f"{where} is not on this board: check the reader's territory in [table]")
            return self._to_territory(territory, card_id, data, state, position)
        return Note(f"ORCWARS TOO! does not read {where}", level="info")

    def lifted(self, zone: Zone, card_id: str, position: LivePosition) -> Translation:
        found = _playing(position)
        if found is None or card_id == GOLD:
            return None  # gold is counted, never named: the engine pays and banks it
        data, state = found
        if zone.kind == HAND_ZONE and zone.player is not None and zone.player < state.seats:
            return self._off_hand(zone.player, card_id, data, state, position)
        if zone.kind == TERRITORY and data.has_counter(card_id):
            here = locate(state, card_id)
            prompt = position.prompt
            mover = prompt.players[0] if prompt is not None and prompt.players else None
            if here.seat == mover or (state.battle is not None and state.battle.territory == here.territory):
                return None  # the chief's own chips on the move, or a battle's chips changing hands
            name = data.board.name(here.territory or str(zone["territory"]))
            return Note(
                f"{data.name(card_id)} lifted from {name}: put it back, or correct the game on the phone"
            )
        return None

    def pressed(self, role: ButtonRole, presses: Sequence[Press], position: LivePosition) -> Translation:
        seat = presses[0].seat if presses else None
        prompt = position.prompt
        if role != DONE or seat is None:
            return Note(f"ORCWARS TOO! has no {role.title} button", level="info")
        if prompt is not None:
            for choice in prompt.choices:
                if isinstance(choice.action, Done) and choice.action.player == seat:
                    return Act(choice.action, choice.label)
        return Note(f"Nothing for {position.name(seat)} to be done with now", level="info")

    def next_action(self, position: LivePosition) -> Translation:
        prompt = position.prompt
        if prompt is None:
            return Note("Nothing to move on from", level="info")
        dones = [c for c in prompt.choices if isinstance(c.action, Done)]
        if len(dones) == 1:
            return Act(dones[0].action, dones[0].label)
        for choice in prompt.choices:
            if isinstance(choice.action, Choose) and choice.action.option in DECLINES:
                return Act(choice.action, choice.label)
        return Note("Step through the choices with next, confirm takes one", level="info")

    # -------------------------------------------------------------------------------- the chips

    def _to_hand(
        self, seat: int, chip: str, data: GameData, state: State, position: LivePosition
    ) -> Translation:
        here = locate(state, chip)
        name = position.name(seat)
        if here.place in ("hand", "captive") and here.seat == seat:
            return None  # his already: a chip put back
        if here.place in ("hand", "captive"):
            return Note(
                f"A chip of {position.name(here.seat)}'s hand on {name}'s: chips change hands in a trade"
            )
        if here.place != "cup":
            return Note(
                f"{data.name(chip)} is on the board, not in the tribe cup: put it back where it stood"
            )
        game = position.game
        assert game is not None
        if data.counter(chip).kind is Kind.LEADER and state.phase == SETUP:
            bosses = TakeBosses(PlayerId(seat), (chip,))
            if game.is_legal(state, bosses):
                return Act(bosses, f"{name} takes {data.name(chip)} as a boss")
        draw = Draw(PlayerId(seat), (chip,))
        if draws_owed(data, state, seat):
            return Act(draw, f"{name} draws a chip")
        buy = Buy(PlayerId(seat))
        if game.is_legal(state, buy):
            return Act(buy, f"{name} buys a unit", then=Act(draw, f"{name} draws the unit bought"))
        asked = position.prompt
        if asked is not None and seat not in asked.players:
            return Note(f"Not now ({asked.text}): put the chip back in the tribe cup")
        return Note(f"{name} draws nothing now: put the chip back in the tribe cup")

    def _off_hand(
        self, seat: int, chip: str, data: GameData, state: State, position: LivePosition
    ) -> Translation:
        if not data.has_counter(chip):
            return None
        game = position.game
        assert game is not None
        player = PlayerId(seat)
        asked: tuple[Action, ...] = (TradeForGold(player, (chip,)), Redraw(player))
        if data.counter(chip).kind in UNIT_KINDS:
            asked = (Discard(player, (chip,)), *asked)
        for action in asked:
            if game.is_legal(state, action):
                summary = {
                    "trade_for_gold": f"{position.name(seat)} trades a unit for gold",
                    "discard": f"{position.name(seat)} discards a unit",
                    "redraw": f"{position.name(seat)} shows a hand without leaders and draws anew",
                }[action.kind]
                return Act(action, summary)
        return None  # on its way to the board: read where it lands

    def _to_territory(
        self, territory: str, chip: str, data: GameData, state: State, position: LivePosition
    ) -> Translation:
        here = locate(state, chip)
        place = data.board.name(territory)
        kind = data.counter(chip).kind
        if here.place == "army" and here.leader == chip:
            return self._leader_to(territory, chip, here, data, state, position)
        if here.place in ("army", "garrison"):
            return None  # a unit following its leader (or the engine moved it): the leader's move counts
        if here.place == "hand":
            seat = PlayerId(here.seat)
            name = position.name(seat)
            if kind is Kind.LEADER:
                if data.counter(chip).native != territory:
                    return Note(f"A leader of {name}'s hand is levied at his home territory: lay him there")
                return Act(Levy(seat, chip), f"{name} levies a leader at {place}")
            if kind is Kind.SPY:
                return Note(f"A spy is used from {name}'s hand on the phone, not laid on the board")
            leader = levying_leader(data, state, here.seat, territory)
            if leader is None:
                return Note(f"A chip of {name}'s hand on {place}: no leader of his stands there to levy it")
            return Act(Levy(seat, leader, (chip,)), f"{data.name(leader)} levies a chip at {place}")
        if here.place == "cup":
            return Note(f"A chip of the tribe cup on {place}: draw it into a hand first")
        return None

    def _leader_to(
        self, territory: str, leader: str, here: Where, data: GameData, state: State, position: LivePosition
    ) -> Translation:
        if here.territory == territory:
            return None
        owner = PlayerId(here.seat)
        place = data.board.name(territory)
        need = flow.battle_need(data, state) if state.battle is not None else None
        if need is not None and need.kind in ("retreat", "escape") and owner in need.seats:
            if territory in need.options:
                return Act(Choose(owner, territory), f"{data.name(leader)} retreats to {place}")
            return Note(f"{data.name(leader)} cannot retreat to {place}: the phone lists where he may go")
        prompt = position.prompt
        if prompt is not None and prompt.kind == "campaign" and prompt.players == (owner,):
            return Act(Move(owner, leader, territory), f"{data.name(leader)} moves to {place}")
        asked = f" ({prompt.text})" if prompt is not None else ""
        return Note(f"{data.name(leader)} moves in {who(state, owner)}'s turn, at B3{asked}: put him back")

    def _gold(self, zone: Zone, state: State, position: LivePosition) -> Translation:
        top = state.top
        if top is None or top.purpose != "gold" or not state.gold_pile:
            return None  # gold moves as the engine says (paid, banked, traded): counted, not read
        to = top.options[0]
        if (zone.kind == HAND_ZONE and zone.player == top.seat and to in (HAND, SETUP_HAND)) or (
            zone.kind == TERRITORY and to in (ARMY, TREASURY)
        ):
            return Act(DrawGold(PlayerId(top.seat), GOLD), f"{position.name(top.seat)} draws a gold")
        return None

    def _caravan(
        self, zone: Zone, chip: str, data: GameData, state: State, position: LivePosition
    ) -> Translation:
        if chip not in state.caravan_pile:
            return None  # on the board or in a hand already: the engine moved it
        top = state.top
        if top is None or top.purpose != "gold":
            return Note(f"The {data.name(chip)} comes out of the gold pile when gold is drawn: put it back")
        if zone.kind == HAND_ZONE and zone.player != top.seat:
            return Note(f"The gold pile is {position.name(top.seat)}'s to draw from now")
        return Act(
            DrawGold(PlayerId(top.seat), chip), f"{position.name(top.seat)} draws the {data.name(chip)}"
        )


def _playing(position: LivePosition) -> tuple[GameData, State] | None:
    """The running game's data and state, when an ORCWARS TOO! game is being played."""
    game: Game | None = position.game
    state = position.state
    data = getattr(game, "data", None)
    if not position.playing or not isinstance(state, State) or not isinstance(data, GameData):
        return None
    return data, state


def levying_leader(data: GameData, state: State, seat: int, territory: str) -> str | None:
    """The leader of ``seat`` in ``territory`` a chip laid beside him joins: the one whose levy is under
    way, else the one with the highest authority who has not levied this turn."""
    armies = [a for a in state.armies_in(territory) if a.owner == seat]
    if state.levy is not None and any(a.leader == state.levy.leader for a in armies):
        return state.levy.leader
    free = sorted(
        (a for a in armies if not a.levied), key=lambda a: (-data.counter(a.leader).authority, a.leader)
    )
    return free[0].leader if free else None


def _title(data: GameData, chip: str) -> str:
    """A chip's printed name, with its copy for a counter of several ("Red Orcs (2)"), for enrolment."""
    counter = data.counter(chip)
    _, _, copy = chip.partition("#")
    return f"{counter.name} ({copy})" if copy else counter.name
