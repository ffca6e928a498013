"""``companion bench sensors``: observation latency of each sensor beside the bridge, through its fake,
into a real Table (``hardware.bench`` says what is and is not measured)."""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("sensors", help="reader -> table latency of each sensor through its fake")
    parser.add_argument("--events", type=int, default=200, help="events per sensor (default 200)")
    parser.add_argument("--readers", type=int, default=4, help="MFRC522 readers polled in turn (default 4)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from companion.session import Session
    from companion.table import Table, TableConfig, TagRegistry
    from hardware.bench import bench_dice, bench_keyboard, bench_mfrc522

    with tempfile.TemporaryDirectory() as folder, Session(Path(folder) / "t.sqlite3") as session:
        registry = TagRegistry.open(Path(folder) / "t.sqlite3")
        table = Table(session, TableConfig.from_mapping({}), registry)
        table.start()
        try:
            figures = [
                bench_mfrc522(args.events, args.readers, args.seed, table.observe),
                bench_keyboard(args.events, args.seed, table.observe),
                bench_dice("pixels", args.events, args.seed, table.observe),
                bench_dice("godice", args.events, args.seed, table.observe),
            ]
        finally:
            table.stop()
            registry.close()
    if args.json:
        print(json.dumps(figures))
    else:
        print("reader -> table (observation handed to Table.observe), through each sensor's fake:")
        for row in figures:
            print(f"  {row['sensor']:48} p50 {row['p50_ms']:7.2f} ms  p99 {row['p99_ms']:7.2f} ms  "
                  f"max {row['max_ms']:7.2f} ms  ({row['events']} events)")  # fmt: skip
    return 0
