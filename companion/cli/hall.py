"""``companion hall``: the hall page of many tables, fed by an MQTT broker (docs/hall.md).

``companion hall --broker mqtt://host:1883 --hall club`` serves the page; ``--embedded-broker`` starts
a local Mosquitto for a single machine's try (tables then point their ``[hall] broker`` at the URL it
prints). ``companion hall credentials --hall club --tables t1 t2 --out DIR`` writes the broker's
password and ACL files, a ``mosquitto.conf`` and each table's ``[hall]`` settings.
"""

from __future__ import annotations

import argparse
import secrets
import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path

from companion.cli.serve import (
    Server,
    ServerError,
    configure_logging,
    lan_address,
    log_level,
    port_number,
    stop_on_signal,
)
from companion.datadir import data_dir


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("hall", help="serve the hall page of many tables (MQTT)")
    parser.add_argument(
        "action",
        nargs="?",
        choices=["serve", "credentials"],
        default="serve",
        help="serve the hall page (default), or write the broker's credentials for a list of tables",
    )
    parser.add_argument("--hall", default="hall", help="the hall's id in the topic tree (default 'hall')")
    parser.add_argument("--title", help="the hall's name on its page (default: its id)")
    parser.add_argument("--broker", help="the broker: mqtt://host:1883 or mqtts://host:8883")
    parser.add_argument("--embedded-broker", action="store_true", help="start a local Mosquitto (a try)")
    parser.add_argument("--username", help="the hall's user on the broker (default: none)")
    parser.add_argument("--password", help="its password")
    parser.add_argument("--cafile", type=Path, help="CA certificate of the broker (mqtts)")
    parser.add_argument("--client-id", help="MQTT client id (default hall-<hall>; one per hall process)")
    parser.add_argument("--tables", nargs="+", help="the hall's table ids (others are refused)")
    parser.add_argument(
        "--data",
        type=Path,
        help=f"where the event is kept (default: {data_dir() / 'hall'}, whatever the folder)",
    )
    parser.add_argument("--host", default="0.0.0.0", help="interface to listen on (default 0.0.0.0)")
    parser.add_argument("--port", type=port_number, default=8080, help="port of the hall page (default 8080)")
    parser.add_argument("--pin", help="the organiser's PIN (default: a new one, printed)")
    parser.add_argument("--out", type=Path, help="credentials: the folder the files are written to")
    parser.add_argument("--broker-url", help="credentials: the URL tables use (default mqtt://HOST:1883)")
    parser.add_argument(
        "--log-level", type=log_level, default="INFO", help="DEBUG, INFO, WARNING or ERROR (default INFO)"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from companion.hall.topics import TopicError, check_id

    try:
        check_id(args.hall, "hall id")
        for table in args.tables or ():
            check_id(table)
    except TopicError as exc:
        print(f"companion hall: {exc}", file=sys.stderr)
        return 2
    if args.action == "credentials":
        return credentials(args)
    if bool(args.broker) == bool(args.embedded_broker):
        print("companion hall: give --broker URL or --embedded-broker", file=sys.stderr)
        return 2
    configure_logging(args.log_level)
    return serve(args)


def credentials(args: argparse.Namespace) -> int:
    from companion.hall.broker_files import (
        HALL_USER,
        acl_file,
        mosquitto_conf,
        new_password,
        password_file,
        table_settings,
    )

    if not args.tables or args.out is None:
        print("companion hall credentials: give --tables t1 t2 ... and --out DIR", file=sys.stderr)
        return 2
    out: Path = args.out
    (out / "tables").mkdir(parents=True, exist_ok=True)
    passwords = {HALL_USER: new_password(), **{table: new_password() for table in args.tables}}
    url = args.broker_url or f"mqtt://{lan_address()}:1883"
    files = {
        out / "passwd": password_file(passwords),
        out / "acl": acl_file(args.hall, args.tables),
        out / "mosquitto.conf": mosquitto_conf(
            port=1883,
            bind=None,
            persistence=Path("/var/lib/mosquitto"),
            password_path=Path("/etc/mosquitto/passwd"),
            acl_path=Path("/etc/mosquitto/acl"),
            log_dest="syslog",
        ),
        out / "hall.txt": f"user {HALL_USER}\npassword {passwords[HALL_USER]}\n",
    }
    for table in args.tables:
        files[out / "tables" / f"{table}.toml"] = table_settings(
            args.hall, table, table, url, passwords[table]
        )
    for path, text in files.items():
        path.write_text(text)
        path.chmod(0o600)  # passwords and their hashes: the owner's only
    print(f"wrote {len(files)} files to {out}:")
    print("  passwd, acl, mosquitto.conf   -> the broker (see docs/hall.md, Broker)")
    print(f"  hall.txt                      -> companion hall --username {HALL_USER} --password ...")
    print(f"  tables/<table>.toml           -> each table's settings ([hall], broker {url})")
    return 0


def serve(args: argparse.Namespace) -> int:
    from companion.hall.organiser import Organiser
    from companion.hall.state import HallState
    from mqtt_link.address import Broker, BrokerUrlError
    from mqtt_link.broker import BrokerError, EmbeddedBroker
    from mqtt_link.loop import MqttLoop
    from mqtt_link.subscriber import HallSubscriber
    from web.hall import HallContext, create_hall_app

    pin = args.pin or f"{secrets.randbelow(10**6):06d}"
    with ExitStack() as stack, stop_on_signal() as stop:
        if args.embedded_broker:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="companion-broker-")))
            try:
                # Tables on the LAN reach it where the page listens (loopback only when the page is).
                listen = "127.0.0.1" if args.host == "127.0.0.1" else "0.0.0.0"
                embedded = stack.enter_context(EmbeddedBroker(folder, host=listen))
            except BrokerError as exc:
                print(f"companion hall: {exc}", file=sys.stderr)
                return 1
            url = f"mqtt://127.0.0.1:{embedded.port}"
        else:
            url = args.broker
        try:
            broker = Broker.from_url(url, args.username, args.password, args.cafile)
        except BrokerUrlError as exc:
            print(f"companion hall: {exc}", file=sys.stderr)
            return 2
        # Confirmed results go from the hall's state into its event as they arrive.
        kept_in = args.data if args.data is not None else data_dir() / "hall"
        organiser = Organiser(kept_in / f"{args.hall}-event.json", on_change=lambda: state.touch())
        state = HallState(args.tables, on_result=organiser.confirmed)
        loop = MqttLoop().start()
        stack.callback(loop.stop)
        subscriber = HallSubscriber(state, broker, args.hall, loop, args.client_id).start()
        stack.callback(subscriber.stop)
        context = HallContext(
            args.hall, state, organiser, broker.url, lambda: subscriber.online, args.title or ""
        )
        app = create_hall_app({"HALL_PIN": pin}, context)
        try:
            server = Server(app, args.host, args.port).start()
        except ServerError as exc:
            print(f"companion hall: {exc}", file=sys.stderr)
            return 1
        stack.callback(server.stop)
        host = lan_address() if args.host in ("0.0.0.0", "", "::") else args.host
        print(f"Hall page:     http://{host}:{server.port}/", flush=True)
        print(f"Organiser PIN: {pin}", flush=True)
        if args.embedded_broker:
            print(f"Broker:        mqtt://{host}:{embedded.port} (embedded Mosquitto, anonymous: a try only)")
            print(f'Tables:        [hall] broker = "mqtt://{host}:{embedded.port}", hall = "{args.hall}"')
        while not stop.wait(timeout=1.0):
            pass
    return 0
