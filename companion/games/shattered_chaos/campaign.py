"""The campaign log (IX): what carries from one adventure to the next.

The adventures played (won or lost, and the section the round marker ended on), the silver and gold chaos
cards kept from the campaign box (each replaces the card of the same number in the party's chaos card
stack, IX.B line 2877), and the talents the adventurers gained. Lives and chaos tokens do not carry: every
adventure starts from the start values (V.A.8, line 611).

The log travels as a short text a phone can copy from the finished game and paste into the next game's
setup (``CampaignLog.parse`` / ``format`` are paired)::

    adventures: 1W2 2L5; cards: s3 g12; talents: bastion=iron-will
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from companion.games.shattered_chaos.catalog import Catalog

MAX_CHARS = 4000
"""A log longer than any campaign of ten adventures could write: the edge of a hostile paste."""
_PLAYED = re.compile(r"^(\d{1,2})([wl])(\d{1,2})$")
_RANK = {"bronze": 0, "silver": 1, "gold": 2}


class CampaignError(ValueError):
    """The campaign log cannot be read (the message says which part)."""


@dataclass(frozen=True, slots=True)
class Played:
    adventure: int
    won: bool
    section: int

    def format(self) -> str:
        return f"{self.adventure}{'W' if self.won else 'L'}{self.section}"


@dataclass(frozen=True)
class CampaignLog:
    played: tuple[Played, ...] = ()
    kept: tuple[str, ...] = ()
    """Silver and gold chaos cards kept from the campaign box, in the order kept."""
    talents: tuple[tuple[str, str], ...] = ()
    """(adventurer id, talent id) gained in the campaign, in the order gained."""

    def stack(self, cat: Catalog) -> tuple[str, ...]:
        """The chaos cards at the party's disposal: the bronze cards, each replaced by the best silver or
        gold card of its number kept."""
        best = {card.number: card for card in cat.bronze()}
        for card_id in self.kept:
            card = cat.card(card_id)
            held = best.get(card.number)
            if held is None or _RANK[card.value] >= _RANK[held.value]:
                best[card.number] = card
        return tuple(best[n].id for n in sorted(best))

    def talents_of(self, adventurer: str) -> tuple[str, ...]:
        return tuple(talent for who, talent in self.talents if who == adventurer)

    def with_played(self, played: Played) -> CampaignLog:
        return CampaignLog((*self.played, played), self.kept, self.talents)

    def with_kept(self, card_id: str) -> CampaignLog:
        return CampaignLog(self.played, (*self.kept, card_id), self.talents)

    def with_talent(self, adventurer: str, talent: str) -> CampaignLog:
        return CampaignLog(self.played, self.kept, (*self.talents, (adventurer, talent)))

    def format(self) -> str:
        parts = []
        if self.played:
            parts.append("adventures: " + " ".join(p.format() for p in self.played))
        if self.kept:
            parts.append("cards: " + " ".join(self.kept))
        if self.talents:
            gained: dict[str, list[str]] = {}
            for who, talent in self.talents:
                gained.setdefault(who, []).append(talent)
            parts.append("talents: " + " ".join(f"{who}={','.join(t)}" for who, t in gained.items()))
        return "; ".join(parts)

    @classmethod
    def parse(cls, text: str, cat: Catalog) -> CampaignLog:
        """Reads a log written by ``format`` (any case, any spacing); raises CampaignError."""
        if len(text) > MAX_CHARS:
            raise CampaignError(f"a campaign log is at most {MAX_CHARS} characters")
        played: list[Played] = []
        kept: list[str] = []
        talents: list[tuple[str, str]] = []
        for part in filter(None, (p.strip() for p in text.split(";"))):
            key, colon, values = part.partition(":")
            key = key.strip().lower()
            if not colon or key not in ("adventures", "cards", "talents"):
                raise CampaignError(f"{part[:40]!r}: a part begins with adventures:, cards: or talents:")
            for word in values.lower().split():
                if key == "adventures":
                    played.append(_played(word, cat))
                elif key == "cards":
                    kept.append(_kept(word, cat))
                else:
                    talents.extend(_talents(word, cat))
        return cls(tuple(played), tuple(kept), tuple(talents))


def _played(word: str, cat: Catalog) -> Played:
    found = _PLAYED.match(word)
    if found is None:
        raise CampaignError(f"{word[:20]!r}: an adventure is written number, W or L, section (1W2)")
    number, section = int(found.group(1)), int(found.group(3))
    if not cat.has_adventure(number):
        raise CampaignError(f"{word}: there is no adventure {number}")
    if not 1 <= section <= len(cat.sections):
        raise CampaignError(f"{word}: the round counter has sections 1 to {len(cat.sections)}")
    return Played(number, found.group(2) == "w", section)


def _kept(word: str, cat: Catalog) -> str:
    if not re.fullmatch(r"[sg]\d{1,3}", word) or not cat.has_card(word):
        raise CampaignError(f"{word[:20]!r}: a kept card is s or g and its number (s3, g12)")
    return word


def _talents(word: str, cat: Catalog) -> list[tuple[str, str]]:
    who, equals, names = word.partition("=")
    if not equals:
        raise CampaignError(f"{word[:40]!r}: talents are written adventurer=talent,talent")
    try:
        adventurer = cat.adventurer_named(who).id
    except KeyError:
        raise CampaignError(f"{who[:20]!r} is not an adventurer") from None
    out = []
    for talent in filter(None, names.split(",")):
        if not cat.has_talent(talent):
            raise CampaignError(f"{talent[:40]!r} is not a talent in the data")
        out.append((adventurer, talent))
    return out
