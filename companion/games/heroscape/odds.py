"""Exact odds of an attack: how many wounds A attack dice do against D defence dice.

Each attack die counts only skulls, each defence die only shields; the wounds are the skulls beyond
the shields. The face counts come from the combat die's data (``data/dice.toml``), never from
constants here, and the arithmetic is exact (fractions); floats only at the edge, for JSON.
"""

from __future__ import annotations

import functools
import tomllib
from fractions import Fraction
from importlib import resources
from math import comb

from companion.engine import JSON

SKULL = "skull"
SHIELD = "shield"
MAX_DICE = 40
"""More dice than any attack could gather (12 combat dice come in the box): a sanity bound."""


@functools.cache
def combat_faces() -> tuple[str, ...]:
    """The combat die's faces, from the game's dice data."""
    text = resources.files("companion.games.heroscape").joinpath("data", "dice.toml").read_text("utf-8")
    return tuple(tomllib.loads(text)["dice"]["heroscape-combat"]["faces"])


def face_chance(face: str, faces: tuple[str, ...] | None = None) -> Fraction:
    faces = combat_faces() if faces is None else faces
    return Fraction(faces.count(face), len(faces))


def binomial(n: int, p: Fraction) -> list[Fraction]:
    """P(k successes) for k = 0..n."""
    return [comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]


def wound_distribution(attack: int, defense: int, faces: tuple[str, ...] | None = None) -> list[Fraction]:
    """P(w wounds) for w = 0..attack."""
    if not 0 <= attack <= MAX_DICE or not 0 <= defense <= MAX_DICE:
        raise ValueError(f"dice must be 0 to {MAX_DICE}, not {attack} and {defense}")
    return list(_distribution(attack, defense, combat_faces() if faces is None else faces))


@functools.lru_cache(maxsize=1024)
def _distribution(attack: int, defense: int, faces: tuple[str, ...]) -> tuple[Fraction, ...]:
    """The distribution, kept: the view shows it for every attack under way, and few counts occur."""
    skulls = binomial(attack, face_chance(SKULL, faces))
    shields = binomial(defense, face_chance(SHIELD, faces))
    out = [Fraction(0)] * (attack + 1)
    for s, ps in enumerate(skulls):
        for h, ph in enumerate(shields):
            out[max(0, s - h)] += ps * ph
    return tuple(out)


def odds(attack: int, defense: int, faces: tuple[str, ...] | None = None) -> dict[str, JSON]:
    """``{"p_at_least_one", "expected", "distribution"}``: the chance of at least one wound, the mean
    wounds, and the chance of each number of wounds from 0 to ``attack``."""
    dist = wound_distribution(attack, defense, faces)
    return {
        "attack": attack,
        "defense": defense,
        "p_at_least_one": float(1 - dist[0]),
        "expected": float(sum(w * p for w, p in enumerate(dist))),
        "distribution": [float(p) for p in dist],
    }
