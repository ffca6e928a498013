"""``companion bench <what>``: benchmarks that print their figures (as JSON with --json)."""

from __future__ import annotations

import argparse
import importlib

BENCH_MODULES = (
    "companion.cli.bench_latency",
    "companion.cli.bench_link",
    "companion.cli.bench_tag",
)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("bench", help="run a benchmark and print its figures")
    sub = parser.add_subparsers(dest="bench", required=True, metavar="WHAT")
    for name in BENCH_MODULES:
        importlib.import_module(name).register(sub)
