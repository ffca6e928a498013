"""Dice as data: which game symbol each face of each physical die shows (``data/dice.toml``).

An electronic die reports its kind and a face index; the games speak in symbols ("eye", "mark",
"skull"). The mapping is data so the owner of a die can fix the face order without touching code.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DEFAULT_DICE_FILE = Path(__file__).parent / "data" / "dice.toml"


class DiceDataError(ValueError):
    """dice.toml is malformed."""


class UnknownDieError(KeyError):
    """No die of that kind is described in the dice data."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown die"


class UnknownFaceError(ValueError):
    """The device reported a face index the die does not have."""


@dataclass(frozen=True)
class Die:
    kind: str
    """The kind as the device reports it (``"cube"``)."""
    title: str
    faces: tuple[str, ...]
    """Symbols in face order: ``faces[0]`` is face 1."""
    answers: tuple[str, ...]
    """Game dice ids (``RollRequest.die``) this physical die answers."""
    names: Mapping[str, str] = field(default_factory=dict, compare=False, hash=False)
    provenance: Mapping[str, str] = field(default_factory=dict, compare=False, hash=False)

    def symbol(self, face: int) -> str:
        """The symbol on ``face`` (1-based, as devices count)."""
        if not 1 <= face <= len(self.faces):
            raise UnknownFaceError(f"the {self.title} has faces 1 to {len(self.faces)}, not {face}")
        return self.faces[face - 1]

    def name(self, symbol: str) -> str:
        """How people call a symbol: ``"mark"`` -> ``"Mark of Chaos"``."""
        return self.names.get(symbol, symbol)

    def answers_die(self, game_die: str) -> bool:
        return game_die == self.kind or game_die in self.answers

    def __repr__(self) -> str:
        return f"Dice.load()[{self.kind!r}]"


@dataclass(frozen=True)
class Dice:
    """Every die the table knows, by device kind."""

    dice: tuple[Die, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_kind", {d.kind: d for d in self.dice})

    def __getitem__(self, kind: str) -> Die:
        try:
            return self._by_kind[kind]  # type: ignore[attr-defined,no-any-return]
        except KeyError:
            raise UnknownDieError(f"no die of kind {kind!r} in the dice data") from None

    def __contains__(self, kind: object) -> bool:
        return kind in self._by_kind  # type: ignore[attr-defined]

    def __iter__(self) -> Iterator[Die]:
        return iter(self.dice)

    def symbol(self, kind: str, face: int) -> str:
        return self[kind].symbol(face)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> Dice:
        dice = []
        for kind, entry in data.get("dice", {}).items():
            try:
                faces = tuple(str(f) for f in entry["faces"])
                die = Die(
                    kind=kind,
                    title=str(entry.get("title", kind)),
                    faces=faces,
                    answers=tuple(str(a) for a in entry.get("answers", ())),
                    names={str(k): str(v) for k, v in entry.get("names", {}).items()},
                    provenance={str(k): str(v) for k, v in entry.get("provenance", {}).items()},
                )
            except (KeyError, TypeError, AttributeError) as exc:
                raise DiceDataError(f"dice.{kind}: needs a list of faces ({exc})") from exc
            if not faces:
                raise DiceDataError(f"dice.{kind}: a die needs at least one face")
            if "faces" not in die.provenance:
                raise DiceDataError(f"dice.{kind}: say where the faces come from (provenance.faces)")
            dice.append(die)
        return cls(tuple(dice))

    @classmethod
    def load(cls, path: Path | None = None) -> Dice:
        """The dice in ``path``; by default every die the table knows: the common dice
        (``data/dice.toml``) and each installed game's own (its bundle's dice file)."""
        if path is not None:
            return cls._read(path)
        from companion.games import bundles  # the registry; imported here, not at module load

        paths = [DEFAULT_DICE_FILE]
        paths += [p for p in (b.dice_path() for b in bundles().values()) if p is not None]
        dice: dict[str, Die] = {}
        for file in paths:
            for die in cls._read(file):
                if die.kind in dice:
                    raise DiceDataError(f"{file}: the die {die.kind!r} is described twice")
                dice[die.kind] = die
        return cls(tuple(dice.values()))

    @classmethod
    def _read(cls, path: Path) -> Dice:
        try:
            with path.open("rb") as fh:
                return cls.from_mapping(tomllib.load(fh))
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise DiceDataError(f"{path}: {exc}") from exc
