"""``companion bench vision``: recognition accuracy and speed on a folder of scenes with their truth.

A scene folder holds JPEG frames and ``truth.json`` = ``{"scene.jpg": [{"card": id, "corners":
[[x, y] ×4], "occluded": bool}]}``. Each frame is decoded first (not timed), then ``recognize`` alone
is timed, on one core (``cv2.setNumThreads(1)``), after one untimed warm-up frame. Scoring:

- a detection is **correct** when its centre lies inside a true card's quad and its id matches;
- **top1_accuracy** = correct cards / cards not marked occluded;
- **missed** = cards not marked occluded without a correct detection (an occluded card may be
  missed, never misnamed);
- **false_positives** = every other detection: on the table, a distractor or an unenrolled card, a
  wrong id on any card (occluded or not), a second detection of a card already found.

``--make-set DIR`` writes the hard synthetic set (``DIR/refs``, ``DIR/scenes``) from a seed, so the
figures can be reproduced anywhere.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.percentiles import percentile
from vision.recognize import Detection, Recognizer
from vision.references import ReferenceSet
from vision.synth import TRUTH_FILE, write_benchmark_set


class BenchInputError(ValueError):
    """The reference folder, the scene folder or its truth.json cannot be used."""


@dataclass
class Tally:
    cards: int = 0
    correct: int = 0
    missed: int = 0
    occluded: int = 0
    occluded_named: int = 0
    false_positives: int = 0
    false_positives_empty: int = 0
    misnamed: int = 0
    wall_ms: list[float] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)

    def figures(self) -> dict[str, Any]:
        def ms(values: list[float], p: float) -> float | None:
            value = percentile(values, p)
            return None if value is None else round(value, 3)

        return {
            "top1_accuracy": round(self.correct / self.cards, 5) if self.cards else None,
            "false_positives": self.false_positives,
            "missed": self.missed,
            "ms_per_frame_p50": ms(self.wall_ms, 50),
            "ms_per_frame_p99": ms(self.wall_ms, 99),
            "frames": len(self.wall_ms),
            "cards": self.cards,
            "correct": self.correct,
            "misnamed": self.misnamed,
            "false_positives_on_empty_scenes": self.false_positives_empty,
            "occluded": self.occluded,
            "occluded_named": self.occluded_named,
            "cpu_ms_per_frame_p50": ms(self.cpu_ms, 50),
            "cpu_ms_per_frame_p99": ms(self.cpu_ms, 99),
        }


def load_truth(scenedir: Path) -> dict[str, list[dict[str, Any]]]:
    path = scenedir / TRUTH_FILE
    try:
        truth = json.loads(path.read_text())
    except FileNotFoundError:
        raise BenchInputError(f"{path}: no such file (a scene folder holds JPEGs and {TRUTH_FILE})") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise BenchInputError(f"{path}: not readable JSON ({error})") from None
    if not isinstance(truth, dict) or not truth:
        raise BenchInputError(f"{path}: expected an object of scene file → list of cards")
    for scene, cards in truth.items():
        if not isinstance(cards, list):
            raise BenchInputError(f"{path}: {scene}: expected a list of cards")
        for card in cards:
            if not (
                isinstance(card, dict)
                and isinstance(card.get("card"), str)
                and np.asarray(card.get("corners"), dtype=object).shape == (4, 2)
            ):
                raise BenchInputError(f'{path}: {scene}: each card needs "card" and four [x, y] "corners"')
    return truth


def score_frame(tally: Tally, detections: list[Detection], cards: list[dict[str, Any]]) -> None:
    quads = [np.asarray(card["corners"], np.float32) for card in cards]
    credited: set[int] = set()
    for detection in detections:
        inside = [
            index
            for index, quad in enumerate(quads)
            if cv2.pointPolygonTest(quad, detection.centre, measureDist=False) >= 0
        ]
        match = next((i for i in inside if cards[i]["card"] == detection.card and i not in credited), None)
        if match is not None:
            credited.add(match)
            continue
        tally.false_positives += 1
        if not cards:
            tally.false_positives_empty += 1
        if inside and all(cards[i]["card"] != detection.card for i in inside):
            tally.misnamed += 1
    for index, card in enumerate(cards):
        if card.get("occluded"):
            tally.occluded += 1
            tally.occluded_named += index in credited
        else:
            tally.cards += 1
            if index in credited:
                tally.correct += 1
            else:
                tally.missed += 1


def evaluate(recognizer: Recognizer, scenedir: Path) -> dict[str, Any]:
    truth = load_truth(scenedir)
    cv2.setNumThreads(1)
    tally = Tally()
    warmed = False
    for scene in sorted(truth):
        frame = cv2.imread(str(scenedir / scene), cv2.IMREAD_COLOR)
        if frame is None:
            raise BenchInputError(f"{scenedir / scene}: not a readable image")
        if not warmed:
            recognizer.recognize(frame)
            warmed = True
        wall, cpu = time.perf_counter(), time.thread_time()
        detections = recognizer.recognize(frame)
        tally.cpu_ms.append((time.thread_time() - cpu) * 1000)
        tally.wall_ms.append((time.perf_counter() - wall) * 1000)
        score_frame(tally, detections, truth[scene])
    return tally.figures()


def make_set(directory: Path, cards: int, scenes: int, empty: int, seed: int) -> str:
    write_benchmark_set(
        directory / "refs", directory / "scenes", cards=cards, scenes=scenes, empty=empty, seed=seed
    )
    return (
        f"wrote {cards} card faces to {directory / 'refs'} and {scenes} scenes ({empty} without cards) "
        f"to {directory / 'scenes'}; measure with: companion bench vision --refs {directory / 'refs'} "
        f"--scenes {directory / 'scenes'} --json"
    )


def run(args: argparse.Namespace) -> int:
    """The CLI's body: make a set, or measure one. Bad input: one line on stderr, exit 2."""
    try:
        if args.make_set is not None:
            counts = {"--cards": args.cards, "--scenes": args.scenes or "200", "--empty": args.empty}
            numbers = {}
            for flag, value in counts.items():
                if not str(value).isdigit():
                    raise BenchInputError(f"{flag} must be a whole number with --make-set, not {value!r}")
                numbers[flag] = int(value)
            if numbers["--cards"] < 2 or numbers["--scenes"] < 1 or numbers["--empty"] > numbers["--scenes"]:
                raise BenchInputError("--make-set needs --cards ≥ 2, --scenes ≥ 1 and --empty ≤ --scenes")
            print(
                make_set(
                    Path(args.make_set),
                    numbers["--cards"],
                    numbers["--scenes"],
                    numbers["--empty"],
                    args.seed,
                )
            )
            return 0
        if args.refs is None or args.scenes is None:
            raise BenchInputError("give --refs REFDIR --scenes DIR (or --make-set DIR to write a set)")
        references = ReferenceSet.from_dir(Path(args.refs))
        figures = evaluate(Recognizer(references), Path(args.scenes))
    except ValueError as error:
        print(f"companion bench vision: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key}: {value}")
    return 0
