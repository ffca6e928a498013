"""``companion bench link``: the serial link end to end (virtual table → pty → HostLink) under faults.

Every wait is bounded: a link that cannot keep up ends with ``drained`` false and its late and lost
events counted (exit status 1 when any is lost, duplicated or out of order).
"""

from __future__ import annotations

import argparse
import json
import logging


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("link", help="reliability and latency of the serial link over a pty")
    parser.add_argument("--events", type=int, default=5000, help="distinct device events to send")
    parser.add_argument(
        "--corrupt", type=float, default=0.01, help="probability a frame is corrupted, each way"
    )
    parser.add_argument(
        "--duplicate", type=float, default=0.005, help="probability a device frame is doubled"
    )
    parser.add_argument("--reorder", type=float, default=0.005, help="probability a device frame is delayed")
    parser.add_argument("--unplugs", type=int, default=10, help="unplug/replug cycles spread over the run")
    parser.add_argument("--unplug-ms", type=int, default=100, help="how long each unplug lasts")
    parser.add_argument("--rate", type=float, default=500.0, help="events per second the virtual table makes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--drain-timeout",
        type=float,
        default=30.0,
        help="seconds to wait for the backlog after the last event",
    )
    parser.add_argument("--tag-samples", type=int, default=400, help="tag on/off pairs on the clean link")
    parser.add_argument(
        "--outbox",
        type=int,
        default=4096,
        help="events the device holds unacknowledged before dropping the oldest (a smaller board's limit)",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from firmware_bridge.bench import BenchOptions
    from firmware_bridge.bench import run as run_bench

    # The unplugs are the bench's own doing: the link's warning for each would bury the figures.
    logging.getLogger("firmware_bridge.link").setLevel(logging.ERROR)

    figures = run_bench(
        BenchOptions(
            events=args.events,
            corrupt=args.corrupt,
            duplicate=args.duplicate,
            reorder=args.reorder,
            unplugs=args.unplugs,
            unplug_ms=args.unplug_ms,
            rate=args.rate,
            seed=args.seed,
            drain_timeout=args.drain_timeout,
            tag_samples=args.tag_samples,
            outbox_limit=args.outbox,
        )
    )
    if args.json:
        print(json.dumps(figures))
    else:
        for name, value in figures.items():
            print(f"{name:>24}: {value}")
    return 0 if figures["lost"] == 0 and figures["duplicated"] == 0 and figures["in_order"] else 1
