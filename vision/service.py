"""The camera at the table: frames → the mat → the cards in its places → settled observations.

One thread reads the frame source, finds the mat (on the first frame, then every ``refind_every``
frames, keeping the last view while a hand covers the markers), asks the mat's reader for the cards
in the mat's places (``vision.slots``: only the places that changed are read again), places each in
its zone and feeds the watcher. What settles goes to ``on_observation``
(``companion.table.Table.observe``, which only enqueues) on the camera's own path into the table;
``on_status`` gets the camera's state for the TV's device list.

The lens: a calibration saved by ``companion vision calibrate`` is used when there is one; else the
mat's finder measures it from the markers of the first view that shows a lens bending them.

The camera follows the game being played (``follow``): when another game starts, it reads that
game's mat (its bundle's ``mat``) and its enrolled faces; a game without them leaves the camera idle,
saying why, until a game it can read is played.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from companion.observations import CardGone, CardSighted
from companion.settings import CameraSettings
from vision.capture import Frame, FrameSource, SourceError, open_source
from vision.lens import Lens, LensError
from vision.mat import MatFinder, MatView, play_area
from vision.watcher import CardWatcher, Sighting, WatcherSettings
from vision.zones import LayoutError, MatLayout, load_layout

log = logging.getLogger(__name__)

REFIND_EVERY = 50
"""Frames between two searches for the mat (a camera bumped is found again within seconds)."""
STATUS_EVERY_S = 2.0
PROBLEMS = {
    "no mat": "cannot see the mat's markers (is the mat in view, and lit?)",
    "idle": "the game being played has no mat or enrolled faces",
    "reconnecting": "no frames: reconnecting",
    "ended": "the recording has ended",
}
"""States worth a notice on the TV, in words."""


class Detected(Protocol):
    card: str
    confidence: float

    @property
    def centre(self) -> tuple[float, float]: ...


class Recognizes(Protocol):
    """A recogniser of cards anywhere in a frame (``vision.recognize.Recognizer``)."""

    def recognize(self, frame: np.ndarray) -> Sequence[Detected]: ...


class Read(Protocol):
    card: str
    confidence: float

    @property
    def centre_mm(self) -> tuple[float, float]: ...


class ReadsMat(Protocol):
    """A reader of the cards lying on a mat (``vision.slots.SlotReader``)."""

    def read(self, frame: np.ndarray, view: MatView) -> Sequence[Read]: ...


class _Placed:
    def __init__(self, card: str, confidence: float, centre_mm: tuple[float, float]) -> None:
        self.card, self.confidence, self.centre_mm = card, confidence, centre_mm


class FreeReader:
    """A ``Recognizes`` over the mat's play area, its cards placed on the mat by their centres."""

    def __init__(self, recognizer: Recognizes, layout: MatLayout) -> None:
        self.recognizer = recognizer
        self.layout = layout

    def read(self, frame: np.ndarray, view: MatView) -> list[_Placed]:
        height, width = frame.shape[:2]
        x0, y0, x1, y1 = play_area(view, self.layout, (width, height))
        detections = self.recognizer.recognize(frame[y0:y1, x0:x1])
        if not detections:
            return []
        centres = np.float32([d.centre for d in detections]) + np.float32([x0, y0])
        return [
            _Placed(d.card, d.confidence, (float(x), float(y)))
            for d, (x, y) in zip(detections, view.mat_points(centres), strict=True)
        ]


def as_reader(reader: ReadsMat | Recognizes | None, layout: MatLayout | None) -> ReadsMat | None:
    if reader is None or layout is None or hasattr(reader, "read"):
        return reader  # type: ignore[return-value]
    return FreeReader(reader, layout)  # type: ignore[arg-type]


Observer = Callable[[CardSighted | CardGone], None]
MatOf = Callable[[str], tuple[MatLayout, "ReadsMat | Recognizes"]]
"""A game's mat and a reader of its enrolled faces (CameraSetupError when it has none)."""


class CameraService:
    def __init__(
        self,
        source: FrameSource,
        layout: MatLayout | None,
        recognizer: ReadsMat | Recognizes | None,
        settings: WatcherSettings | None = None,
        *,
        on_observation: Observer,
        on_status: Callable[[dict[str, Any]], None] | None = None,
        refind_every: int = REFIND_EVERY,
        by_slot: bool = False,
        follow: Callable[[], str | None] | None = None,
        mat_of: MatOf | None = None,
        idle: str | None = None,
        lens: Lens | None = None,
    ) -> None:
        self.source = source
        self.layout = layout
        self._reader = as_reader(recognizer, layout)
        self.lens = lens
        """The camera's lens: saved by ``companion vision calibrate``, or measured from the mat."""
        self._finder = MatFinder(layout, lens) if layout is not None else None
        self.watcher = CardWatcher(settings)
        self._follow = follow
        """The game being played (None: none), read every frame; with ``mat_of``, the camera follows it."""
        self._mat_of = mat_of
        self._game = layout.game if layout is not None else None
        self._idle = idle
        """Why the camera reads nothing for the game being played (it has no mat or no faces)."""
        if self._idle is None and (layout is None or self._reader is None):
            self._idle = "no game with a mat is being played"
        """Why the camera reads nothing for the game being played (it has no mat or no faces)."""
        self._on_observation = on_observation
        self._on_status = on_status
        self._refind_every = refind_every
        self._by_slot = by_slot
        """Name a line's slot as the zone (``p0-line1-slot3``), not the whole line."""
        self._view: MatView | None = None
        self._since_found = 0
        self._state = "starting"
        self._detail = ""
        self._frames = 0
        self._rate: list[float] = []
        self._last_status = 0.0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------------------------- one frame

    def step(self, frame: Frame) -> list[CardSighted | CardGone]:
        """Reads one frame; returns (and hands on) what settled in it."""
        self._frames += 1
        if not self._following(frame.at):
            return []
        view = self._mat(frame.image)
        if view is None:
            self._set_state("no mat")
            return []  # not a frame without cards: the camera cannot tell, so nothing is counted
        self._set_state("watching")
        layout, reader = self.layout, self._reader
        assert layout is not None and reader is not None, "a camera reading frames has a mat"
        sightings = []
        for read in reader.read(frame.image, view):
            x, y = read.centre_mm
            place = layout.place_at(float(x), float(y), self._by_slot)
            if place is not None:  # a card off the zones (in a hand, by the mat) is not in play
                sightings.append(Sighting(place, read.card, read.confidence, (float(x), float(y))))
        settled = self.watcher.update(sightings, frame.at)
        for observation in settled:
            self._on_observation(observation)
        return settled

    def _following(self, at: float) -> bool:
        """Follows the game being played: its mat and its faces. False while it has none (tried
        again now and then: faces may be enrolled while the table runs)."""
        if self._follow is None or self._mat_of is None:
            return self._idle is None
        game = self._follow()
        changed = game is not None and game != self._game
        retry = self._idle is not None and self._game is not None and self._frames % REFIND_EVERY == 0
        if changed:
            self._game = game
            for gone in self.watcher.forget(at):  # the last game's cards are not this game's
                self._on_observation(gone)
        if changed or retry:
            assert self._game is not None
            try:
                self.layout, reader = self._mat_of(self._game)
                self._reader = as_reader(reader, self.layout)
            except CameraSetupError as exc:
                if str(exc) != self._idle:
                    log.warning("camera idle: %s", exc)
                self._idle = str(exc)
            else:
                self._idle = None
                self._finder = MatFinder(self.layout, self.lens)
                self._view = None
                self._since_found = 0
                log.info("camera follows %s (%d players)", self._game, self.layout.players)
        if self._idle is not None:
            self._set_state("idle", self._idle)
            return False
        return True

    def _mat(self, image: np.ndarray) -> MatView | None:
        if self._finder is None:
            return None
        if self._view is None or self._since_found >= self._refind_every:
            found = self._finder.find(image)
            self.lens = self._finder.lens  # measured from the mat on the first view, when it bends
            self._since_found = 0
            if found is not None:
                self._view = found
            elif self._view is not None:
                log.debug("mat markers covered: keeping the last view of the mat")
        self._since_found += 1
        return self._view

    # ---------------------------------------------------------------------------------- running

    def start(self) -> None:
        if self._thread is not None:
            raise RuntimeError("the camera is already running")
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 6.0) -> None:
        """Ends the thread after its current frame, then closes the source (closing a VideoCapture
        while another thread reads it is not safe; a camera waiting to reconnect wakes within 5 s)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        self.source.close()

    def _run(self) -> None:
        try:
            self.source.open()
        except SourceError as exc:
            log.error("camera: %s", exc)
            self._set_state("error", str(exc))
            if not self.source.spec.startswith("camera:"):
                return  # a camera is retried by read(); a missing file or folder stays missing
        else:
            if self.layout is not None:
                layout = self.layout
                log.info(
                    "camera watching %s (%s mat, %d players)", self.source.spec, layout.game, layout.players
                )
        while not self._stop.is_set():
            frame = self.source.read()
            if frame is None:
                if self._stop.is_set():
                    return
                if self.source.finished:
                    self._set_state("ended")
                    return
                self._set_state("reconnecting")
                continue
            started = time.monotonic()
            try:
                self.step(frame)
            except Exception:  # a frame the recognizer chokes on must not end the camera
                log.exception("camera: frame %d could not be read, skipped", frame.index)
            self._rate.append(time.monotonic() - started)
            self._report()

    def _set_state(self, state: str, detail: str = "") -> None:
        if state != self._state or (detail and detail != self._detail):
            self._detail = detail
            if state in ("no mat", "reconnecting", "ended"):
                log.warning("camera %s: %s", self.source.spec, state)
            self._state = state
            self._report(force=True, detail=detail)

    def status(self, detail: str = "") -> dict[str, Any]:
        detail = detail or (self._detail if self._state in ("idle", "error") else "")
        recent = self._rate[-20:]
        status: dict[str, Any] = {
            "state": self._state,
            "source": self.source.spec,
            "frames": self._frames,
            "cards": len(self.watcher.lying()),
            "ms_per_frame": round(1000 * sum(recent) / len(recent), 1) if recent else None,
            "markers": self._view.markers if self._view is not None else 0,
        }
        if self.lens is not None:
            status["lens"] = self.lens.source
        if detail:
            status["detail"] = detail
        problem = detail or PROBLEMS.get(self._state)
        if problem:  # the TV lists device notices: players see why the camera reads nothing
            status["notices"] = [{"level": "warning", "text": f"Camera: {problem}"}]
        return status

    def _report(self, force: bool = False, detail: str = "") -> None:
        now = time.monotonic()
        if self._on_status is None or (not force and now - self._last_status < STATUS_EVERY_S):
            return
        self._last_status = now
        self._on_status(self.status(detail))


class CameraSetupError(ValueError):
    """The camera cannot start: a bad source spec, no mat for the game, no enrolled faces."""


def camera_service(
    camera: CameraSettings,
    game: str,
    references: Path,
    on_observation: Observer,
    on_status: Callable[[dict[str, Any]], None] | None = None,
    source: FrameSource | None = None,
    *,
    follow: Callable[[], str | None] | None = None,
    references_of: Callable[[str], Path] | None = None,
    move_s: float = 3.0,
    lens_path: Path | None = None,
) -> CameraService:
    """The camera a ``[camera]`` section describes (not started); CameraSetupError with a sentence.

    ``game`` is the game whose mat it reads first (``references``: its enrolled faces); with
    ``follow`` (the game being played) and ``references_of`` (a game's faces), it follows the game
    being played. ``[camera] layout`` is ``game``'s mat; other games' mats are their bundles'.
    ``lens_path``: the lens calibration to use when that file exists (else measured from the mat)."""

    def mat_of(name: str) -> tuple[MatLayout, ReadsMat | Recognizes]:
        faces = references if name == game else references_of(name) if references_of else None
        layout = _layout(name, camera.players, camera.layout if name == game else None)
        if faces is None:
            raise CameraSetupError(f"no enrolled card faces for {name}")
        return layout, _reader(faces, name, layout)

    layout: MatLayout | None = None
    reader: ReadsMat | None = None
    idle = None
    try:
        layout = _layout(game, camera.players, camera.layout)
    except CameraSetupError as exc:
        if follow is None:
            raise
        idle = str(exc)  # the camera waits, saying why, for a game it can read
    try:
        if source is None:
            source = open_source(camera.source, simulated=lambda: _empty_rendered_table(layout))
    except SourceError as exc:
        raise CameraSetupError(str(exc)) from None
    if layout is not None:
        try:
            reader = _reader(references, game, layout)
        except CameraSetupError as exc:
            if follow is None:
                raise
            idle = str(exc)  # ... or for faces enrolled while the table runs
    lens = None
    if lens_path is not None and lens_path.is_file():
        try:
            lens = Lens.load(lens_path)
        except LensError as exc:
            raise CameraSetupError(str(exc)) from None
    settings = WatcherSettings(camera.settle_frames, camera.gone_frames, move_s=move_s)
    return CameraService(
        source,
        layout,
        reader,
        settings,
        on_observation=on_observation,
        on_status=on_status,
        by_slot=camera.slots,
        follow=follow,
        mat_of=mat_of if follow is not None else None,
        idle=idle,
        lens=lens,
    )


def _layout(game: str, players: int, path: Path | None) -> MatLayout:
    try:
        return load_layout(game, players, path)
    except LayoutError as exc:
        raise CameraSetupError(str(exc)) from None


def _reader(references: Path, game: str, layout: MatLayout) -> ReadsMat:
    from vision.references import ReferenceSet
    from vision.slots import SlotReader

    if not references.is_file():
        raise CameraSetupError(
            f"no enrolled card faces at {references}: run `companion vision enrol --game {game} REFDIR`"
        )
    try:
        faces = ReferenceSet.load(references)
    except (OSError, ValueError, KeyError) as exc:
        raise CameraSetupError(f"{references} is not a set of enrolled faces ({exc})") from None
    return SlotReader(layout, faces)


def _empty_rendered_table(layout: MatLayout | None) -> FrameSource:
    """``sim:`` in a settings file: the rendered mat with no cards (to try the wiring and the TV's
    device status without a camera); ``companion demo --camera`` brings its own, with cards."""
    import random

    if layout is None:
        raise SourceError("sim: renders a game's mat, and the game named in the settings has none")

    from vision.camera_table import RenderedSource, RenderedTable

    return RenderedSource(RenderedTable(layout, {}, random.Random(0)))


def watch(camera: CameraService, frames: int, report: Observer | None = None) -> dict[str, Any]:
    """Runs ``camera`` over up to ``frames`` frames of its (opened) source in this thread, handing
    each settled observation to ``report``; returns the figures: frames read, milliseconds per frame
    (p50, p99), markers read, cards lying at the end."""
    from companion.percentiles import percentile

    timings: list[float] = []
    while len(timings) < frames:
        frame = camera.source.read()
        if frame is None:
            if camera.source.finished:
                break
            continue
        started = time.perf_counter()
        for observation in camera.step(frame):
            if report is not None:
                report(observation)
        timings.append((time.perf_counter() - started) * 1000)
    p50, p99 = percentile(timings, 50), percentile(timings, 99)
    return {
        "frames": len(timings),
        "ms_per_frame_p50": None if p50 is None else round(p50, 1),
        "ms_per_frame_p99": None if p99 is None else round(p99, 1),
        "markers": camera.status()["markers"],
        "state": camera.status()["state"],
        "lying": sorted([track.zone, track.card] for track in camera.watcher.lying()),
    }
