"""The ``companion`` command. The one place that wires adapters and the web app together.

Each sub-command lives in its own module with ``register(subparsers)``; the module sets
``func`` on its parser. Adapters and web are imported inside those functions, never at the top.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

SUBCOMMAND_MODULES = (
    "companion.cli.score",
    "companion.cli.extras",
    "companion.cli.serve",
    "companion.cli.hall",
    "companion.cli.demo",
    "companion.cli.bench",
    "companion.cli.devices",
    "companion.cli.enrol",
    "companion.cli.vision",
    "companion.cli.doctor",
)


DESCRIPTION = """Table Companion: the rules, the scores and a TV scoreboard beside a real tabletop game.
Players keep their cards, dice and figures; phones answer what the table cannot read."""

EPILOG = """start here:
  companion demo              a simulated table plays a game by itself: open the TV and phone pages
  companion serve             the table's server (TV scoreboard, phone control page, JSON API)
  companion devices           the boards and sensors this machine sees
  companion COMMAND --help    what each command takes

docs: README.md and docs/ (docs/api.md: pages, phones, the API)"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in SUBCOMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")
"""numpy's linear algebra on one thread: the camera's matrix products are small, and on a Pi (or any
busy machine) threads woken for each of them cost far more than they save. Read when numpy loads,
so set before any adapter is imported; an operator's own setting wins."""


def main(argv: Sequence[str] | None = None) -> int:
    for name in BLAS_THREADS:
        os.environ.setdefault(name, "1")
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        result = args.func(args)
        sys.stdout.flush()
    except BrokenPipeError:
        # `companion cards ... | head` closed our output early: not an error worth a traceback.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        return 130
    return int(result or 0)


if __name__ == "__main__":
    sys.exit(main())
