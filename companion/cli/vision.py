"""``companion vision``: the camera's calibration mat and its enrolled card faces.

    companion vision mat --game chaos-marauders --players 4 --out mat.pdf    # or mat.png
    companion vision zones --game chaos-marauders --players 4                 # [[table.readers]] for it
    companion vision enrol --game chaos-marauders REFDIR                      # REFDIR/<card-id>.png
    companion vision enrol --game chaos-marauders --camera camera:0           # card by card on the mat
    companion vision enrol --game chaos-marauders --photos PHOTODIR           # PHOTODIR/<card-id>.jpg
    companion vision enrol --game chaos-marauders --sheet scan.jpg --cards ID,ID,...  # reading order
    companion vision watch --config table.toml                                # what the camera reads
    companion vision watch --game chaos-marauders --source sim: --sim-cards 40 --frames 100 --json

Enrolled faces are saved where the table's ``[camera]`` settings read them: beside the event log
(``--config`` / ``--db`` say where that is) unless ``--out`` names a file.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, TextIO

from companion.games import UnknownGameError, find_bundle
from companion.settings import Settings, SettingsError, load_settings

EXIT_INVALID = 2
BAR_WIDTH = 30


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("vision", help="the camera's calibration mat and enrolled card faces")
    sub = parser.add_subparsers(dest="vision_command", required=True, metavar="ACTION")

    mat = sub.add_parser("mat", help="write the printable calibration mat (PDF or PNG)")
    _add_mat_arguments(mat)
    mat.add_argument("--out", type=Path, required=True, help="mat.pdf or mat.png")
    mat.add_argument("--dpi", type=float, default=150.0, help="print resolution (default 150)")
    mat.set_defaults(func=run_mat)

    zones = sub.add_parser("zones", help="print the [[table.readers]] settings for the mat's zones")
    _add_mat_arguments(zones)
    zones.add_argument("--slots", action="store_true", help="every slot of a line as a zone ([camera] slots)")
    zones.set_defaults(func=run_zones)

    enrol = sub.add_parser("enrol", help="enrol card faces from image files or from the camera")
    enrol.add_argument("refdir", nargs="?", type=Path, help="folder of <card-id>.png clean faces")
    enrol.add_argument("--game", required=True, help="the game the cards belong to")
    enrol.add_argument("--camera", metavar="SPEC", help="capture each card on the mat (camera:0, ...)")
    enrol.add_argument("--photos", type=Path, help="a folder of phone photos, <card-id>.jpg, one card each")
    enrol.add_argument("--sheet", type=Path, help="a scan or photo of several cards laid apart")
    enrol.add_argument("--cards", help="with --sheet: the cards' ids in reading order, comma-separated")
    enrol.add_argument("--players", type=int, help="with --camera: the mat's players (default: [camera])")
    enrol.add_argument("--zone", default="pad", help="with --camera: the mat zone to lay cards in")
    enrol.add_argument("--config", type=Path, help="settings file: where the table keeps its data")
    enrol.add_argument("--db", type=Path, help="the table's event log (its folder holds the faces)")
    enrol.add_argument("--out", type=Path, help="save the faces here instead")
    enrol.set_defaults(func=run_enrol)

    watch = sub.add_parser("watch", help="run the camera on its own: print what settles, and the figures")
    watch.add_argument("--config", type=Path, help="settings file: its [camera] section and game")
    watch.add_argument("--db", type=Path, help="the table's event log (its folder holds the faces)")
    watch.add_argument("--game", help="the game (default: the configured one)")
    watch.add_argument("--source", help="frame source spec (default: [camera] source)")
    watch.add_argument("--players", type=int, help="the mat's players (default: [camera] players)")
    watch.add_argument("--frames", type=int, default=100, help="frames to read (default 100)")
    watch.add_argument(
        "--sim-cards", type=int, default=0, help="with --source sim:, lay this many rendered cards at random"
    )
    watch.add_argument("--seed", type=int, default=1, help="with --sim-cards: the random table")
    watch.add_argument("--json", action="store_true", help="print the figures as JSON")
    watch.set_defaults(func=run_watch)


def _add_mat_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", required=True, help="the game whose mat (its registry name)")
    parser.add_argument("--players", type=int, default=4, help="players the mat seats (default 4)")
    parser.add_argument("--layout", type=Path, help="a mat layout file of your own (TOML)")


def fail(message: str) -> int:
    print(f"companion vision: {message}", file=sys.stderr)
    return EXIT_INVALID


# ------------------------------------------------------------------------------------------- mat


def run_mat(args: argparse.Namespace) -> int:
    from vision.mat import render_mat, write_pdf, write_png
    from vision.zones import LayoutError, load_layout

    suffix = args.out.suffix.lower()
    if suffix not in (".pdf", ".png"):
        return fail(f"--out must end in .pdf or .png, not {args.out.name!r}")
    if not 50 <= args.dpi <= 300:  # 300 dpi is a 0.2 GB image for a four-player mat already
        return fail(f"--dpi must be from 50 to 300, got {args.dpi:g}")
    try:
        layout = load_layout(args.game, args.players, args.layout)
    except LayoutError as exc:
        return fail(str(exc))
    image = render_mat(layout, args.dpi)
    try:
        if suffix == ".png":
            write_png(image, args.out, args.dpi)
            paper = f"{args.dpi:g} dpi"
        else:
            paper = write_pdf(image, layout, args.out)
    except OSError as exc:
        return fail(f"cannot write {args.out}: {exc.strerror or exc}")
    print(
        f"{args.out}: {layout.game} mat for {layout.players} players, "
        f"{layout.width_mm:.0f} × {layout.height_mm:.0f} mm ({paper}); print at 100 %"
    )
    return 0


def run_zones(args: argparse.Namespace) -> int:
    from vision.zones import LayoutError, load_layout

    try:
        layout = load_layout(args.game, args.players, args.layout)
    except LayoutError as exc:
        return fail(str(exc))
    print(f"# The camera zones of the {layout.game} mat for {layout.players} players (companion vision mat)")
    for entry in layout.reader_entries(by_slot=args.slots):
        print("\n[[table.readers]]")
        for key, value in entry.items():
            print(f'{key} = "{value}"' if isinstance(value, str) else f"{key} = {value}")
    return 0


# ----------------------------------------------------------------------------------------- enrol


def run_enrol(args: argparse.Namespace) -> int:
    from companion.settings import references_path

    sources = [args.refdir, args.camera, args.photos, args.sheet]
    if sum(source is not None for source in sources) != 1:
        return fail(
            "enrol from one of: a folder of faces (REFDIR), --camera SPEC, --photos DIR, --sheet FILE"
        )
    if (args.sheet is None) != (args.cards is None):
        return fail("--sheet needs --cards (the ids in reading order), and --cards needs --sheet")
    try:
        settings = load_settings(args.config).with_overrides(db=args.db)
        bundle = find_bundle(args.game)
    except (SettingsError, UnknownGameError) as exc:
        return fail(str(exc))
    cards = bundle.cards()
    if not cards:
        return fail(f"{bundle.title} has no card catalog to enrol")
    titles = {str(card["id"]): str(card["title"]) for card in cards}
    camera = settings.camera
    out = args.out or (camera.references_for(settings.db, bundle.name) if camera else None)
    out = out or references_path(settings.db, bundle.name)
    if args.refdir is not None:
        faces = _faces_from_dir(args.refdir, bundle.title, bundle.name, titles)
    elif args.camera is not None:
        faces = _faces_from_camera(args, settings, bundle.name, titles)
    else:
        faces = _faces_from_pictures(args, bundle.title, bundle.name, titles, out)
    if isinstance(faces, int):
        return faces
    try:
        faces.save(out)
    except OSError as exc:
        return fail(f"cannot save the faces to {out}: {exc.strerror or exc}")
    missing = [card for card in titles if card not in faces.cards]
    print(f"enrolled {len(faces)} of {len(titles)} {bundle.title} cards into {out}")
    if missing:
        print(f"without a face (the camera will not name them): {', '.join(missing)}")
    _say_too_alike(faces, titles)
    return 0


def _say_too_alike(faces: Any, titles: dict[str, str]) -> None:
    from vision.enrol_photos import too_alike

    pairs = too_alike(faces)
    if not pairs:
        print("no two faces look too alike: the camera and the phone can tell every card apart")
        return
    print(f"{len(pairs)} pairs look too alike to tell apart (the camera leaves such a card unnamed):")
    for first, second, score in pairs:
        print(f"  {titles.get(first, first)} ~ {titles.get(second, second)} ({score:.2f})")


def _faces_from_pictures(
    args: argparse.Namespace, title: str, game: str, titles: dict[str, str], out: Path
) -> Any:
    """Faces cut out of phone photos or a sheet, added to the faces already enrolled at ``out`` (a
    card photographed again replaces its old face); an exit code after saying what is wrong."""
    from vision.enrol_photos import faces_from_photos, faces_from_sheet
    from vision.photo import PhotoError
    from vision.references import IMAGE_SUFFIXES, ReferenceFace, ReferenceSet

    if args.photos is not None:
        if not args.photos.is_dir():
            return fail(f"{args.photos} is not a folder of photos")
        photos = {p.stem: p for p in sorted(args.photos.iterdir()) if p.suffix.lower() in IMAGE_SUFFIXES}
        ids = list(photos)
    else:
        ids = [card.strip() for card in args.cards.split(",") if card.strip()]
    unknown = [card for card in ids if card not in titles]
    if unknown or not ids:
        return fail(
            f"cards {title} does not have: {', '.join(unknown)} (`companion cards {game}` lists the ids)"
            if unknown
            else "no photos to enrol (name each <card-id>.jpg)"
        )
    if args.photos is not None:
        new, problems = faces_from_photos(photos)
        for problem in problems:
            print(f"skipped {problem}", file=sys.stderr)
        if not new:
            return fail("no card was found in any photo: nothing saved")
    else:
        try:
            new = faces_from_sheet(args.sheet.read_bytes(), ids)
        except OSError as exc:
            return fail(f"cannot read {args.sheet}: {exc.strerror or exc}")
        except PhotoError as exc:
            return fail(f"{args.sheet}: {exc}")
    kept: dict[str, Any] = {}
    if out.exists():
        try:
            old = ReferenceSet.load(out)
        except ValueError as exc:
            return fail(f"the faces enrolled before cannot be read: {exc}")
        kept = dict(zip(old.cards, old.thumbnails, strict=True))
    kept.update({face.card: face.image for face in new})
    print(f"found {len(new)} cards in the {'photos' if args.photos is not None else 'sheet'}")
    return ReferenceSet.from_faces(
        (ReferenceFace(card, image) for card, image in kept.items()), progress=ProgressBar("enrolling")
    )


def _faces_from_dir(refdir: Path, title: str, game: str, titles: dict[str, str]) -> Any:
    """The ReferenceSet of REFDIR, or an exit code after saying what is wrong (nothing is written)."""
    from vision.references import IMAGE_SUFFIXES, ReferenceSet

    if not refdir.is_dir():
        return fail(f"{refdir} is not a folder of card faces")
    ids = sorted(p.stem for p in refdir.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    unknown = [card for card in ids if card not in titles]
    if unknown:
        return fail(
            f"{refdir} holds faces of cards {title} does not have: {', '.join(unknown)} "
            f"(name each <card-id>.png as `companion cards {game}` lists the ids)"
        )
    try:
        return ReferenceSet.from_dir(refdir, progress=ProgressBar("enrolling"))
    except ValueError as exc:
        return fail(str(exc))


def _faces_from_camera(
    args: argparse.Namespace, settings: Settings, game: str, titles: dict[str, str]
) -> Any:
    from vision.capture import SourceError, open_source
    from vision.zones import LayoutError, load_layout

    players = args.players or (settings.camera.players if settings.camera else 4)
    try:
        layout = load_layout(game, players, settings.camera.layout if settings.camera else None)
        zone = layout.zone(args.zone)
        source = open_source(args.camera)
        source.open()
    except (LayoutError, SourceError) as exc:
        return fail(str(exc))
    except KeyError:
        return fail(f"the mat has no zone {args.zone!r} (zones: {', '.join(z.name for z in layout.zones)})")
    try:
        return enrol_from_camera(source, layout, zone.name, titles, sys.stdin, sys.stderr)
    finally:
        source.close()


def enrol_from_camera(
    source: Any, layout: Any, zone: str, titles: dict[str, str], answers: TextIO, out: TextIO
) -> Any:
    """Asks for each card in turn to be laid in ``zone``, cuts its face out of a fresh frame, and
    builds the ReferenceSet; an exit code when nothing was captured."""
    from vision.mat import MatFinder, face_in_slot
    from vision.references import ReferenceFace, ReferenceSet

    finder = MatFinder(layout)
    slot = layout.zone(zone).slots[0]
    faces: list[ReferenceFace] = []
    cards = list(titles)
    index = 0
    while index < len(cards):
        card = cards[index]
        out.write(f"[{index + 1}/{len(cards)}] lay {titles[card]} in {zone}, then Enter (s skip, q done): ")
        out.flush()
        answer = answers.readline()
        if answer == "" or answer.strip().lower() == "q":
            break
        if answer.strip().lower() == "s":
            index += 1
            continue
        frame = _fresh_frame(source)
        view = finder.find(frame) if frame is not None else None
        face = face_in_slot(frame, view, slot) if view is not None and frame is not None else None
        if face is None:
            problem = (
                "no frame" if frame is None else "the mat's markers are not in view" if view is None else ""
            )
            out.write(f"  no card found in {zone} {f'({problem})' if problem else ''}: try again\n")
            continue
        faces.append(ReferenceFace(card, face))
        index += 1
    out.write("\n")
    if not faces:
        return fail("no card was captured: nothing saved")
    return ReferenceSet.from_faces(faces, progress=ProgressBar("enrolling", out))


def _fresh_frame(source: Any, skip: int = 3) -> Any:
    """A frame taken after the card was laid (the first few may have waited in the camera's buffer)."""
    frame = None
    for _ in range(skip):
        read = source.read()
        frame = read.image if read is not None else frame
    return frame


class ProgressBar:
    """``progress(done, total)`` drawn as one line on stderr: ``enrolling [#####     ] 12/40``."""

    def __init__(self, label: str, stream: TextIO | None = None) -> None:
        self._label = label
        self._stream = stream

    def __call__(self, done: int, total: int) -> None:
        stream = self._stream or sys.stderr
        filled = BAR_WIDTH * done // max(1, total)
        stream.write(f"\r{self._label} [{'#' * filled}{' ' * (BAR_WIDTH - filled)}] {done}/{total}")
        if done >= total:
            stream.write("\n")
        stream.flush()


# ----------------------------------------------------------------------------------------- watch


def run_watch(args: argparse.Namespace) -> int:
    import dataclasses
    import json
    import tempfile

    from companion.settings import CameraSettings
    from vision.service import CameraSetupError, camera_service, watch

    try:
        settings = load_settings(args.config).with_overrides(db=args.db, game=args.game).checked_game()
    except SettingsError as exc:
        return fail(str(exc))
    camera = settings.camera or CameraSettings()
    camera = dataclasses.replace(
        camera, source=args.source or camera.source, players=args.players or camera.players
    )
    if args.frames < 1:
        return fail("--frames must be at least 1")
    if args.sim_cards and camera.source != "sim:":
        return fail("--sim-cards lays rendered cards: it needs --source sim:")

    def report(observation: Any) -> None:
        if not args.json:
            print(observation)

    with tempfile.TemporaryDirectory(prefix="companion-watch-") as tmp:
        try:
            simulated = _simulated_table(settings.game, camera, args, Path(tmp)) if args.sim_cards else None
            references = simulated[1] if simulated else camera.references_for(settings.db, settings.game)
            service = camera_service(
                camera, settings.game, references, report, None, simulated[0] if simulated else None
            )
            service.source.open()
        except (CameraSetupError, ValueError) as exc:  # LayoutError, SourceError: one sentence each
            return fail(str(exc))
        try:
            figures = watch(service, args.frames)
        finally:
            service.source.close()
    if simulated:
        from collections import Counter

        laid = Counter(simulated[2])
        seen = Counter((zone, card) for zone, card in figures["lying"])
        figures["cards_laid"] = sum(laid.values())
        figures["cards_reported"] = sum(seen.values())
        figures["wrong"] = sum((seen - laid).values())
        figures["missed"] = sum((laid - seen).values())
    figures["source"] = camera.source
    print(
        json.dumps(figures)
        if args.json
        else "\n".join(f"{k}: {v}" for k, v in figures.items() if k != "lying")
    )
    return 0


def _simulated_table(
    game: str, camera: Any, args: argparse.Namespace, folder: Path
) -> tuple[Any, Path, list[Any]]:
    """A rendered table with ``--sim-cards`` random cards, faces enrolled in ``folder``: (its frame
    source, the faces' file, the (zone, card) pairs a camera can see)."""
    import random

    from vision.camera_table import RenderedSource, RenderedTable, lay_random_cards, visible_cards
    from vision.references import ReferenceSet
    from vision.synth import card_faces
    from vision.zones import load_layout

    rng = random.Random(args.seed)
    ids = [str(card["id"]) for card in find_bundle(game).cards() or ()]
    faces = card_faces(ids, rng)
    references = folder / "references.npz"
    ReferenceSet.from_faces(faces).save(references)
    table = RenderedTable(
        load_layout(game, camera.players), {f.card: f.image for f in faces}, rng, hand_frames=0
    )
    lay_random_cards(table, args.sim_cards, rng)
    return RenderedSource(table, fps=0), references, visible_cards(table)
