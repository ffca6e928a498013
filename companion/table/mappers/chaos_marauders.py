"""Chaos Marauders at the table: what a card on a line, the discard pile or the pad means.

* line reader -> ``place`` for the player the prompt names (the engine implies the draw when the
  card was laid straight from the pile); ``slot`` from the reader's config or None, in which case the
  engine places it in the only open slot or asks which. A line of another player -> ``target``.
* discard reader -> ``discard`` of the card waiting to be placed; a card laid there straight from
  the pile is drawn first, then discarded (two inputs, the second only if the first is accepted);
  a card moved there from its line while a war machine's crew must make room -> ``make_room``.
  A card a rule already discarded needs nothing: the engine shows it on the discard pile.
* pad -> ``draw``: the card just drawn, shown to the table (green cards are resolved from here).
* shout button -> ``shout``; next button -> ``decline`` when the prompt offers it.

Chaos Marauders placed by the active player is secret until someone shouts, so every notice calls
it "a card" (the engine's own events do the same).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.engine import JSON, PlayerId
from companion.games.chaos_marauders.cards import Colour
from companion.games.chaos_marauders.catalog import Ability, load_catalog
from companion.games.chaos_marauders.state import LINES, SLOTS
from companion.table.config import ReaderZone, ZoneKind
from companion.table.mappers import Act, Note, Translation
from companion.table.views import game_view, player_names, prompt

HIDDEN = "hidden"
"""The id the view gives a face-down card (the active player's Chaos Marauders)."""


class ChaosMaraudersMapper:
    game = "chaos-marauders"
    rolls_one_at_a_time = True  # one Cube at the table: the Idol's six rolls are six throws

    def __init__(self) -> None:
        catalog = load_catalog()
        self._titles = {card.id: card.title for card in catalog}
        self._secret = {card.id for card in catalog if card.ability == Ability.CHAOS_MARAUDERS}
        self._green = {card.id for card in catalog if card.colour is Colour.GREEN}

    def card_title(self, card_id: str) -> str:
        return self._titles[card_id]

    def card_ids(self) -> Sequence[str]:
        return list(self._titles)

    def shown_title(self, card_id: str) -> str:
        return "A card" if card_id in self._secret else self._titles[card_id]

    def cards_in(self, zone: ReaderZone, view: Mapping[str, JSON]) -> Sequence[str] | None:
        if zone.zone is not ZoneKind.LINE:
            return None
        slots = self._slots(view, zone)
        if zone.slot is not None:
            slots = slots[zone.slot : zone.slot + 1]
        secret = next(iter(self._secret), HIDDEN)
        return [secret if cell["id"] == HIDDEN else cell["id"] for cell in slots if isinstance(cell, Mapping)]

    def placed(
        self, zone: ReaderZone, card_id: str, view: Mapping[str, JSON], came_from: ZoneKind | None
    ) -> Translation:
        player = self._player(view)
        if player is None:
            return Note("The game is over: cards on the readers are not played", level="info")
        names = player_names(view)
        what = f"{self.shown_title(card_id)} on {zone.label(names)}"
        if zone.zone is ZoneKind.LINE:
            assert zone.player is not None and zone.line is not None
            if zone.line >= LINES or (zone.slot is not None and zone.slot >= SLOTS):
                return Note(f"Reader {zone.reader} is set to a line or slot Chaos Marauders does not have")
            payload: dict[str, JSON] = {"kind": "place", "player": player, "card": card_id, "line": zone.line}
            payload["slot"] = zone.slot
            payload["target"] = zone.player if zone.player != player else None
            return Act(payload, what)
        if zone.zone is ZoneKind.DISCARD:
            return self._discarded(player, card_id, view, what, came_from)
        if self._awaits_draw(view):
            return Act({"kind": "draw", "player": player, "card": card_id}, what)
        drawn = (game_view(view) or {}).get("drawn_card")
        if isinstance(drawn, Mapping) and drawn.get("id") == card_id:
            return None  # the card being placed was shown on the pad: nothing new
        return Note(f"{what}: no card is to be drawn now", level="info")

    def lifted(self, zone: ReaderZone, card_id: str, view: Mapping[str, JSON]) -> Translation:
        if zone.zone is not ZoneKind.LINE:
            return None
        place = zone.label(player_names(view))
        if self._room_for(card_id, view) is not None:
            title = self.shown_title(card_id)
            return Note(f"{title} lifted from {place}: lay it on the discard pile to make room")
        return Note(
            f"{self.shown_title(card_id)} lifted from {place} — put it back or correct it on the control page"
        )

    def shout(self, player: PlayerId, view: Mapping[str, JSON]) -> Translation:
        name = player_names(view).get(player, f"P{player + 1}")
        return Act({"kind": "shout", "player": player}, f"{name}'s shout")

    def next_action(self, view: Mapping[str, JSON]) -> Translation:
        for choice in self._choices(view):
            if choice["action"].get("kind") == "decline":
                return Act(choice["action"], "Decline")
        return Note("Nothing to decline now: answer the prompt on the control page", level="info")

    # ------------------------------------------------------------------------------------ helpers

    def _discarded(
        self, player: int, card_id: str, view: Mapping[str, JSON], what: str, came_from: ZoneKind | None
    ) -> Translation:
        for choice in self._choices(view):
            action = choice["action"]
            if action.get("kind") == "discard" and action.get("card") == card_id:
                return Act(action, what)
        room = self._room_for(card_id, view)
        if room is not None:
            return Act(room, what)
        if came_from in (ZoneKind.LINE, ZoneKind.PAD):
            # Leaving play: a rule discarded it (a mismatch was already flagged when it was lifted).
            return None
        pile = (game_view(view) or {}).get("discard_pile")
        top = pile.get("top") if isinstance(pile, Mapping) else None
        on_top = isinstance(top, Mapping) and top.get("id") == card_id
        if self._awaits_draw(view) and not (came_from is None and on_top):
            draw = {"kind": "draw", "player": player, "card": card_id}
            if card_id in self._green and (game_view(view) or {}).get("round") == 1:
                return Act(draw, what)  # first round: the draw itself discards a green card unresolved
            discard = Act({"kind": "discard", "player": player, "card": card_id}, what)
            return Act(draw, what, then=discard)
        if on_top:
            return None  # the engine discarded it already (since before the table started watching)
        return Note(f"{what}: the game has no {self.shown_title(card_id)} to discard now")

    def _room_for(self, card_id: str, view: Mapping[str, JSON]) -> dict[str, JSON] | None:
        """The prompt's ``make_room`` answer that discards ``card_id`` from its placer's lines."""
        for choice in self._choices(view):
            action = choice["action"]
            if action.get("kind") != "make_room":
                continue
            cells = self._line_slots(view, action.get("player"), action.get("line"))
            slot = action.get("slot")
            if isinstance(slot, int) and 0 <= slot < len(cells):
                cell = cells[slot]
                if isinstance(cell, Mapping) and cell.get("id") == card_id:
                    return dict(action)
        return None

    def _slots(self, view: Mapping[str, JSON], zone: ReaderZone) -> list[Any]:
        return self._line_slots(view, zone.player, zone.line)

    def _line_slots(self, view: Mapping[str, JSON], seat: object, line: object) -> list[Any]:
        players = (game_view(view) or {}).get("players") or []
        for player in players:
            if player.get("seat") == seat and isinstance(line, int) and 0 <= line < len(player["lines"]):
                return list(player["lines"][line]["slots"])
        return []

    def _player(self, view: Mapping[str, JSON]) -> int | None:
        asked = prompt(view)
        players = (asked or {}).get("players") or ()
        return int(players[0]) if players else None

    def _awaits_draw(self, view: Mapping[str, JSON]) -> bool:
        return (prompt(view) or {}).get("kind") == "draw"

    def _choices(self, view: Mapping[str, JSON]) -> list[Mapping[str, Any]]:
        asked = prompt(view) or {}
        return [
            c
            for c in asked.get("choices") or ()
            if isinstance(c, Mapping) and isinstance(c.get("action"), Mapping)
        ]
