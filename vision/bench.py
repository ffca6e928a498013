"""``companion bench vision``: recognition accuracy and speed on a folder of scenes with their truth.

A scene folder holds JPEG frames and ``truth.json`` = ``{"scene.jpg": [{"card": id, "corners":
[[x, y] ×4], "occluded": bool, ...}]}``. A folder that also holds ``set.json`` (``vision.scenes``)
is a set of scenes on a mat: each frame is read as the camera reads it (the mat's markers, then
``vision.slots``); other folders are tables without a mat, read by the free recogniser
(``vision.recognize``). Each frame is decoded first (not timed); the reading alone is timed, on one
core (``cv2.setNumThreads(1)``), after one untimed warm-up frame: wall clock and the process's CPU
time. On a mat, finding the mat is timed apart (``mat_ms``: the camera does it once in 50 frames),
and the frame read again unchanged (``tracked_ms``: what every frame of cards lying still costs).
Scoring: ``vision.scoring``.

``--make-set DIR`` writes a set from a seed so the figures can be reproduced anywhere: ``--renderer
tuning`` (the default: this module's scenes, the faces the thresholds were set on), ``held-out``
(``vision.heldout``: other faces, another renderer, another mat), ``table`` (the first free-table
set); ``--frame WIDTHxHEIGHT`` is the camera's frame of the mat sets and of ``--tracking`` (1280x720
unless given).
``--conditions`` and ``--tracking`` render their own scenes (``vision.bench_conditions``,
``vision.bench_tracking``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.references import ReferenceSet
from vision.scoring import Tally, score_frame
from vision.synth import TRUTH_FILE, write_benchmark_set

RENDERERS = ("tuning", "held-out", "table")


class BenchInputError(ValueError):
    """The reference folder, the scene folder or its truth.json cannot be used."""


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


def evaluate(references: ReferenceSet, scenedir: Path) -> dict[str, Any]:
    truth = load_truth(scenedir)
    cv2.setNumThreads(1)
    from vision.scenes import SET_FILE

    if (scenedir / SET_FILE).is_file():
        return _evaluate_mat(references, scenedir, truth)
    from vision.recognize import Recognizer

    recognizer = Recognizer(references)
    tally = Tally()
    warmed = False
    for scene in sorted(truth):
        frame = _frame(scenedir, scene)
        if not warmed:
            recognizer.recognize(frame)
            warmed = True
        wall, cpu = time.perf_counter(), time.process_time()
        detections = recognizer.recognize(frame)
        tally.cpu_ms.append((time.process_time() - cpu) * 1000)
        tally.wall_ms.append((time.perf_counter() - wall) * 1000)
        score_frame(tally, detections, truth[scene], (frame.shape[1], frame.shape[0]))
    return tally.figures()


def _evaluate_mat(
    references: ReferenceSet, scenedir: Path, truth: dict[str, list[dict[str, Any]]]
) -> dict[str, Any]:
    from vision.mat import MatFinder
    from vision.scenes import scene_layout
    from vision.slots import SlotReader

    tally = Tally()
    readers: dict[tuple[float, float], SlotReader] = {}
    warmed = False
    for scene in sorted(truth):
        frame = _frame(scenedir, scene)
        layout = scene_layout(scenedir, scene)
        assert layout is not None
        key = (layout.width_mm, layout.height_mm)
        reader = readers.get(key)
        if reader is None:
            reader = readers[key] = SlotReader(layout, references)
        finder = MatFinder(layout)  # every scene is another camera: its lens is its own
        wall = time.perf_counter()
        view = finder.find(frame)
        tally.extra.setdefault("mat_ms", []).append((time.perf_counter() - wall) * 1000)
        if view is None:
            raise BenchInputError(f"{scenedir / scene}: the mat's markers are not in view")
        if not warmed:
            reader.read(frame, view)
            warmed = True
        reader.forget()
        wall, cpu = time.perf_counter(), time.process_time()
        readings = reader.read(frame, view)
        tally.cpu_ms.append((time.process_time() - cpu) * 1000)
        tally.wall_ms.append((time.perf_counter() - wall) * 1000)
        wall = time.perf_counter()
        reader.read(frame, view)
        tally.extra.setdefault("tracked_ms", []).append((time.perf_counter() - wall) * 1000)
        tally.extra.setdefault("px_per_mm", []).append(
            view.px_per_mm((layout.width_mm / 2, layout.height_mm / 2))
        )
        score_frame(tally, list(readings), truth[scene], (frame.shape[1], frame.shape[0]))
    return tally.figures()


def _frame(scenedir: Path, scene: str) -> np.ndarray:
    frame = cv2.imread(str(scenedir / scene), cv2.IMREAD_COLOR)
    if frame is None:
        raise BenchInputError(f"{scenedir / scene}: not a readable image")
    return frame


def make_set(
    directory: Path,
    cards: int,
    scenes: int,
    empty: int,
    seed: int,
    renderer: str = "tuning",
    game: str = "",
    frame: tuple[int, int] = (1280, 720),
) -> str:
    refs, scenedir = directory / "refs", directory / "scenes"
    if renderer == "table":
        write_benchmark_set(refs, scenedir, cards=cards, scenes=scenes, empty=empty, seed=seed)
    elif renderer == "tuning":
        import tomllib

        from vision.scenes import write_mat_set
        from vision.zones import layout_path

        data = tomllib.loads(layout_path(game).read_text())
        write_mat_set(
            refs,
            scenedir,
            game_data=data,
            players=4,
            cards=cards,
            scenes=scenes,
            empty=empty,
            seed=seed,
            resolution=frame,
        )
    else:
        from vision.heldout import write_held_out_set

        write_held_out_set(refs, scenedir, cards=cards, scenes=scenes, empty=empty, seed=seed, size=frame)
    return (
        f"wrote {cards} card faces to {refs} and {scenes} {renderer} scenes ({empty} without cards) "
        f"to {scenedir}; "
        f"measure with: companion bench vision --refs {refs} --scenes {scenedir} --json"
    )


def parse_frame(text: str) -> tuple[int, int]:
    """``--frame WIDTHxHEIGHT`` → (width, height): a landscape frame from 320×180 to 4608×2592 (the
    Pi Camera Module 3's full resolution)."""
    width, _, height = text.lower().partition("x")
    if not (width.isdigit() and height.isdigit()):
        raise BenchInputError(f"--frame must be WIDTHxHEIGHT in pixels, such as 1920x1080, not {text!r}")
    size = (int(width), int(height))
    if not (320 <= size[0] <= 4608 and 180 <= size[1] <= 2592 and size[0] >= size[1]):
        raise BenchInputError(f"--frame must be a landscape frame from 320x180 to 4608x2592, not {text!r}")
    return size


def mat_game(chosen: str | None) -> str:
    """The game whose mat the mat benches render: the one asked for, else the first with a mat."""
    from vision.zones import mat_games

    games = mat_games()
    if chosen is None:
        if not games:
            raise BenchInputError("no installed game declares a camera mat")
        return games[0]
    if chosen not in games:
        raise BenchInputError(f"--game {chosen!r} has no camera mat (mats: {', '.join(games) or 'none'})")
    return chosen


def run(args: argparse.Namespace) -> int:
    """The CLI's body: make a set, measure one, or run the conditions, tracking or phone benches.
    Bad input: one line on stderr, exit 2."""
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
            if args.renderer not in RENDERERS:
                raise BenchInputError(
                    f"--renderer must be one of {', '.join(RENDERERS)}, not {args.renderer!r}"
                )
            frame = parse_frame(args.frame)
            print(
                make_set(
                    Path(args.make_set),
                    numbers["--cards"],
                    numbers["--scenes"],
                    numbers["--empty"],
                    args.seed,
                    args.renderer,
                    mat_game(args.game) if args.renderer == "tuning" else "",
                    frame,
                )
            )
            return 0
        if args.conditions or args.tracking or args.phone:
            figures: dict[str, Any] = {}
            if args.conditions:
                from vision.bench_conditions import conditions

                figures["conditions"] = conditions(mat_game(args.game), args.seed, args.condition_scenes)
            if args.tracking:
                from vision.bench_tracking import tracking

                figures["tracking"] = tracking(
                    mat_game(args.game), seed=args.seed, runs=args.runs, resolution=parse_frame(args.frame)
                )
            if args.phone:
                from vision.photo_bench import phone_bench

                if args.photos < 1:
                    raise BenchInputError("--photos must be at least 1")
                figures["phone"] = phone_bench(
                    seed=args.seed, photos=args.photos, empty=max(1, args.photos // 6)
                )
        else:
            if args.refs is None or args.scenes is None:
                raise BenchInputError("give --refs REFDIR --scenes DIR (or --make-set DIR to write a set)")
            references = ReferenceSet.from_dir(Path(args.refs))
            figures = evaluate(references, Path(args.scenes))
    except ValueError as error:
        print(f"companion bench vision: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key}: {json.dumps(value) if isinstance(value, dict) else value}")
    return 0
