"""``companion bench <what>``: benchmarks that print their figures (as JSON with --json)."""

from __future__ import annotations

import argparse
import importlib

BENCH_MODULES = (
    "companion.cli.bench_hall",
    "companion.cli.bench_latency",
    "companion.cli.bench_link",
    "companion.cli.bench_load",
    "companion.cli.bench_session",
    "companion.cli.bench_service",
    "companion.cli.bench_sensors",
    "companion.cli.bench_tag",
)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("bench", help="run a benchmark and print its figures")
    sub = parser.add_subparsers(dest="bench", required=True, metavar="WHAT")
    for name in BENCH_MODULES:
        importlib.import_module(name).register(sub)
    register_vision(sub)


def register_vision(sub: argparse._SubParsersAction) -> None:
    """``companion bench vision``: the work is in ``vision.bench``, imported only when it runs."""
    parser = sub.add_parser(
        "vision", help="camera card recognition: top-1 accuracy, false positives, ms/frame"
    )
    parser.add_argument("--refs", metavar="REFDIR", help="enrolled faces: REFDIR/<card-id>.png")
    parser.add_argument(
        "--scenes", metavar="DIR", help="JPEG scenes and truth.json (with --make-set: how many)"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.add_argument(
        "--make-set", metavar="DIR", help="write the hard synthetic set to DIR/refs, DIR/scenes"
    )
    parser.add_argument("--cards", default="60", help="with --make-set: distinct card faces (default 60)")
    parser.add_argument("--empty", default="20", help="with --make-set: scenes without cards (default 20)")
    parser.add_argument("--seed", type=int, default=1, help="random seed of the scenes made (default 1)")
    parser.add_argument(
        "--renderer",
        default="tuning",
        help="with --make-set: tuning (the mat, the faces the thresholds were set on), held-out (other "
        "faces, another renderer, another mat) or table (cards on a table, no mat)",
    )
    parser.add_argument(
        "--frame",
        default="1280x720",
        help="with --tracking, or --make-set --renderer tuning or held-out: the camera's frame, WIDTHxHEIGHT "
        "(default 1280x720; 1520x855 gives the held-out mat the pixels per millimetre a 1080p webcam "
        "gives a 4-player Chaos Marauders mat)",
    )
    parser.add_argument(
        "--conditions", action="store_true", help="accuracy under each camera condition, step by step"
    )
    parser.add_argument(
        "--condition-scenes", type=int, default=6, help="with --conditions: scenes per step (default 6)"
    )
    parser.add_argument(
        "--tracking", action="store_true", help="ms per frame at 12, 36 and 72 cards, cold and tracked"
    )
    parser.add_argument("--runs", type=int, default=3, help="with --tracking: runs of each (default 3)")
    parser.add_argument(
        "--phone",
        action="store_true",
        help="hand-held photos of a card, named as the phone scanner names them",
    )
    parser.add_argument("--photos", type=int, default=120, help="with --phone: photos per deck (default 120)")
    parser.add_argument(
        "--game", help="the mat of --make-set, --conditions, --tracking (default: the first game with a mat)"
    )
    parser.set_defaults(func=run_vision)


def run_vision(args: argparse.Namespace) -> int:
    from vision.bench import run

    return run(args)
