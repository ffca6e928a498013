"""Dice as data: each die a game rolls, its faces and the symbols on them (``data/dice.toml``).

A device reports a die by its own number and a face index, nothing more; the games speak in symbols
("eye", "mark", "skull"). Two pieces of data join them: the dice files (the common dice here, each
game's own in its bundle) say what each face of a die shows, and the table's ``[table.dice]`` says
which die each device die is (``DeviceDice``). So a new game's dice (Shattered Chaos's coloured
attack dice, ORCWARS' d3) are a data file, never a protocol or firmware change, and the owner of a
die can fix its face order without touching code.

A face shows one symbol (``"eye"``) or several (``["3", "vortex"]`` in the file); several are joined
with ``+`` (``"3+vortex"``), which is how the engine receives the face in a ``Roll``.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator, Mapping, Sequence
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


SYMBOL_JOIN = "+"
"""Joins the symbols of a face that shows several (``"3+vortex"``)."""


@dataclass(frozen=True)
class Die:
    kind: str
    """The die's id in the dice data (``"cube"``, ``"d20"``); ``[table.dice]`` names device dice by it."""
    title: str
    faces: tuple[str, ...]
    """What each face shows, in face order: ``faces[0]`` is face 1 (symbols joined by ``+``)."""
    answers: tuple[str, ...]
    """Game dice ids (``RollRequest.die``) this physical die answers."""
    names: Mapping[str, str] = field(default_factory=dict, compare=False, hash=False)
    provenance: Mapping[str, str] = field(default_factory=dict, compare=False, hash=False)

    def symbol(self, face: int) -> str:
        """The symbol on ``face`` (1-based, as devices count)."""
        if not 1 <= face <= len(self.faces):
            raise UnknownFaceError(f"the {self.title} has faces 1 to {len(self.faces)}, not {face}")
        return self.faces[face - 1]

    @property
    def sides(self) -> int:
        """How many faces the die has (a d3 made from a six-sided die has six)."""
        return len(self.faces)

    def symbols(self, face: int) -> tuple[str, ...]:
        """Every symbol on ``face`` (1-based): ``("3", "vortex")``."""
        return tuple(self.symbol(face).split(SYMBOL_JOIN))

    def name(self, symbol: str) -> str:
        """How people call a face or symbol: ``"mark"`` -> ``"Mark of Chaos"``, ``"3+vortex"`` -> ``"3 +
        Vortex"``."""
        return " + ".join(self.names.get(part, part) for part in symbol.split(SYMBOL_JOIN))

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
                faces = tuple(_face(f, kind) for f in entry["faces"])
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
            if "sides" in entry and entry["sides"] != len(faces):
                raise DiceDataError(
                    f"dice.{kind}: sides = {entry['sides']!r} but {len(faces)} faces are listed"
                )
            if "faces" not in die.provenance:
                raise DiceDataError(f"dice.{kind}: say where the faces come from (provenance.faces)")
            dice.append(die)
        return cls(tuple(dice))

    @classmethod
    def load(cls, path: Path | None = None, owner_data: Mapping[str, Path] | None = None) -> Dice:
        """The dice in ``path``; by default every die the table knows: the common dice
        (``data/dice.toml``) and each installed game's own (its bundle's dice file).

        ``owner_data``: the table's ``[data]`` files (game name -> the owner's overrides file). A game's
        dice corrected there (``[dice.<id>]`` with the fields that change and their ``provenance``, for
        a die of that game's dice file) are read so by the table, as the game's engine reads them."""
        if path is not None:
            return cls._read(path)
        from companion.games import bundles  # the registry; imported here, not at module load

        files: list[tuple[Path, Path | None]] = [(DEFAULT_DICE_FILE, None)]
        for bundle in bundles().values():
            packaged = bundle.dice_path()
            if packaged is not None:
                files.append((packaged, (owner_data or {}).get(bundle.name)))
        dice: dict[str, Die] = {}
        for file, owner in files:
            for die in cls._read(file) if owner is None else cls._read_with_owner(file, owner):
                if die.kind in dice:
                    raise DiceDataError(f"{file}: the die {die.kind!r} is described twice")
                dice[die.kind] = die
        return cls(tuple(dice.values()))

    @classmethod
    def _read(cls, path: Path) -> Dice:
        return cls.from_mapping(_toml(path))

    @classmethod
    def _read_with_owner(cls, path: Path, owner: Path) -> Dice:
        """A game's dice file with the owner's corrections of its dice (the ``dice`` section of the
        owner's overrides file; entries naming other dice are the game's own business)."""
        data = _toml(path)
        packaged = data.get("dice", {})
        for kind, change in dict(_toml(owner).get("dice", {})).items():
            if kind in packaged:
                packaged[kind] = _corrected(packaged[kind], change, f"{owner}: dice.{kind}")
        return cls.from_mapping(data)


def _toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise DiceDataError(f"{path}: {exc}") from exc


def _corrected(entry: Any, change: Any, where: str) -> dict[str, Any]:
    """A die's entry with an owner's correction: the changed fields, each with where it comes from."""
    if not isinstance(entry, Mapping) or not isinstance(change, Mapping):
        raise DiceDataError(f"{where}: a die's correction is a table of its fields (faces = [...])")
    fields = {k: v for k, v in change.items() if k != "provenance"}
    said = change.get("provenance")
    if isinstance(said, str):
        said = dict.fromkeys(fields, said)
    if not isinstance(said, Mapping) or any(name not in said for name in fields):
        missing = ", ".join(name for name in fields if not isinstance(said, Mapping) or name not in said)
        raise DiceDataError(f"{where}: say where {missing} comes from (provenance = ...)")
    old = entry.get("provenance")
    provenance = dict(old) if isinstance(old, Mapping) else {}
    provenance.update({name: str(said[name]) for name in fields})
    return {**entry, **fields, "provenance": provenance}


def _face(face: Any, kind: str) -> str:
    """One face of a dice file: a symbol (``"eye"``, ``"3+vortex"``), or a list of the symbols it shows."""
    if isinstance(face, int) and not isinstance(face, bool):
        return str(face)
    if isinstance(face, str) and face:
        return face
    if (
        isinstance(face, list)
        and face
        and all(isinstance(x, str) and x and SYMBOL_JOIN not in x for x in face)
    ):
        return SYMBOL_JOIN.join(face)
    raise DiceDataError(f"dice.{kind}: a face is a symbol or a list of symbols, not {face!r}")


class DeviceDiceError(ValueError):
    """``[table.dice]`` names a die the dice data does not describe."""


@dataclass(frozen=True)
class DeviceDice:
    """Which die of the dice data each device die is: ``[table.dice]`` (``"1" = "cube"``, or a list,
    ``"1" = ["cube", "heroscape-combat"]``, for one electronic die that stands for whichever of them
    the running game rolls). A device die the table does not name may be any die with as many faces
    as the device says it has: a roll is then read as the die the pending prompt asks for, if that
    has as many faces (an older settings file, from before the device stopped naming its dice, keeps
    working)."""

    dice: Dice
    named: Mapping[int, tuple[str, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for device_die, kinds in self.named.items():
            for kind in kinds:
                if kind not in self.dice:
                    known = ", ".join(d.kind for d in self.dice)
                    raise DeviceDiceError(
                        f"table.dice: die {device_die} is {kind!r}, which is not one of {known}"
                    )

    def candidates(self, die: int, faces: int | None) -> tuple[Die, ...]:
        """The dice device die ``die`` may be, in the order given (or the dice data's order)."""
        if die in self.named:
            return tuple(self.dice[kind] for kind in self.named[die])
        return tuple(d for d in self.dice if faces is None or d.sides == faces)

    def read(self, die: int, face: int, faces: int | None, wanted: str | Sequence[str] | None) -> Reading:
        """What a roll of device die ``die`` shows, read as a die the table waits for (``wanted``: a
        game die id, ``RollRequest.die``, or several, the first preferred, for a mixed throw) when it
        may be one. Raises ``UnknownDieError`` / ``UnknownFaceError`` with a message for the TV."""
        candidates = self.candidates(die, faces)
        if not candidates:
            raise UnknownDieError(
                f"die {die} has {faces} faces and no die of the dice data has as many: "
                f'name it in [table.dice] (e.g. "{die}" = "d{faces}") or describe it in a dice file'
            )
        games = (wanted,) if isinstance(wanted, str) else tuple(wanted or ())
        answering = [d for game in games for d in candidates if d.answers_die(game)]
        if not answering and len(candidates) > 1:
            return Reading(None, None, f"Die {die} rolled face {face}")  # which die is meant? nobody asks
        chosen = (answering or candidates)[0]
        if faces is not None and chosen.sides != faces:
            raise UnknownDieError(
                f"die {die} has {faces} faces but [table.dice] names it the {chosen.title}"
                f" ({chosen.sides} faces)"
            )
        symbol = chosen.symbol(face)
        return Reading(chosen, symbol, f"{chosen.title} rolled {chosen.name(symbol)}")


@dataclass(frozen=True)
class Reading:
    """A device's die roll read through the dice data."""

    die: Die | None
    """The die it is; None when several could be meant and the table waits for none of them."""
    symbol: str | None
    said: str
    """For the TV: "Cube of Devastation rolled Mark of Chaos", "Die 1 rolled face 6"."""
