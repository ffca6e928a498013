"""``companion bench vision --tracking``: what a frame costs with 12, 36 and 72 cards on the mat.

The rendered table (``vision.camera_table``: the four-player Chaos Marauders mat at 1280 × 720 or
the ``--frame`` given, a webcam in a living room) holds that many cards; the camera service steps
through its frames exactly as at the table (``CameraService.step``: the mat found again every 50
frames, the slot reader, the watcher). Per card count, on one core, wall clock and the process's CPU time:

- ``cold_ms``: a frame read from nothing (every place read: the first frame, or a camera moved);
- ``still_ms``: frames of cards lying still (sensor noise only): what nearly every frame costs;
- ``changed_ms``: a frame in which a card was just laid or lifted (its place read again);
- ``mean_ms``: the mean over a run of frames where a card changes every 10th frame and the mat is
  found again every 50th: the rate a Pi sustains; ``pi4_fps`` is 1000 / (``mean_ms`` × 4.7), the
  Pi 4 taken as 4.7 times slower than a core here (the issue's measure).
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

import cv2

from companion.percentiles import percentile
from vision.camera_table import LIVING_ROOM, RenderedTable
from vision.capture import Frame
from vision.references import ReferenceSet
from vision.service import CameraService
from vision.slots import SlotReader
from vision.synth import card_faces, card_names
from vision.watcher import WatcherSettings
from vision.zones import load_layout

PI4_SLOWER = 4.7
COUNTS = (12, 36, 72)
FRAMES = 100


class _Frames:
    """A frame source over frames given in advance (the bench times the reading, not the rendering)."""

    spec = "bench:"
    finished = False

    def open(self) -> None: ...

    def read(self) -> Frame | None:
        return None

    def close(self) -> None: ...


def tracking(
    game: str,
    seed: int = 1,
    runs: int = 3,
    counts: tuple[int, ...] = COUNTS,
    frames: int = FRAMES,
    resolution: tuple[int, int] = (1280, 720),
) -> dict[str, Any]:
    cv2.setNumThreads(1)
    rng = random.Random(seed)
    layout = load_layout(game, 4)
    names = card_names(60, rng)
    faces = card_faces(names, rng)
    references = ReferenceSet.from_faces(faces)
    images = {face.card: face.image for face in faces}
    places = [
        (zone.name, slot) for zone in layout.zones if len(zone.slots) > 1 for slot in range(len(zone.slots))
    ]
    results: dict[str, Any] = {
        "pi4_slower": PI4_SLOWER,
        "frames_per_run": frames,
        "runs": runs,
        "frame": list(resolution),
    }
    for count in counts:
        table = RenderedTable(
            layout,
            images,
            random.Random(seed + count),
            resolution=resolution,
            hand_frames=0,
            chain=LIVING_ROOM,
        )
        chosen = rng.sample(places, count)
        for zone, slot in chosen[:-1]:
            table.place(zone, rng.choice(names), slot)
        still = [table.render() for _ in range(3)]  # three noisy copies of the same table
        last = chosen[-1]
        laid = table.place(last[0], rng.choice(names), last[1])
        changed = [table.render() for _ in range(3)]
        table.remove(laid.zone, laid.card)
        figures: dict[str, list[float]] = {}
        for _ in range(runs):
            reader = SlotReader(layout, references)
            service = CameraService(
                _Frames(), layout, reader, WatcherSettings(), on_observation=lambda o: None
            )
            service.step(Frame(still[0], 0.0, 0))  # the mat found, every place read
            again = Frame(still[1], 0.1, 1)
            _time(figures, "cold", lambda r=reader, s=service, f=again: (r.forget(), s.step(f)))
            at = 1.0
            for index in range(frames):
                # Cards lie still; every 10th frame a card is laid, every 10th after it is lifted again.
                phase = index % 20
                image = changed[index % 3] if 10 <= phase else still[index % 3]
                kind = "changed" if phase in (0, 10) and index else "still"
                at += 1 / 15
                frame = Frame(image, at, index + 2)
                _time(figures, kind, lambda s=service, f=frame: s.step(f), mean=True)
        entry: dict[str, Any] = {
            f"{name}_ms": {"wall": _summary(figures[f"{name}_wall"]), "cpu": _summary(figures[f"{name}_cpu"])}
            for name in ("cold", "still", "changed")
        }
        wall, cpu = figures["mean_wall"], figures["mean_cpu"]
        entry["mean_ms"] = {"wall": round(statistics.fmean(wall), 3), "cpu": round(statistics.fmean(cpu), 3)}
        entry["pi4_ms"] = round(statistics.fmean(cpu) * PI4_SLOWER, 2)
        entry["pi4_fps"] = round(1000 / max(statistics.fmean(cpu) * PI4_SLOWER, 1e-6), 1)
        entry["cards_lying"] = len(service.watcher.lying())
        results[f"{count}_cards"] = entry
    return results


def _time(figures: dict[str, list[float]], name: str, step: Any, mean: bool = False) -> None:
    wall, cpu = time.perf_counter(), time.process_time()
    step()
    cpu_ms, wall_ms = (time.process_time() - cpu) * 1000, (time.perf_counter() - wall) * 1000
    figures.setdefault(f"{name}_wall", []).append(wall_ms)
    figures.setdefault(f"{name}_cpu", []).append(cpu_ms)
    if mean:
        figures.setdefault("mean_wall", []).append(wall_ms)
        figures.setdefault("mean_cpu", []).append(cpu_ms)


def _summary(values: list[float]) -> dict[str, float | None]:
    def p(q: float) -> float | None:
        value = percentile(values, q)
        return None if value is None else round(value, 3)

    return (
        {"p50": p(50), "p99": p(99), "n": len(values)}
        if len(values) > 1
        else {"p50": p(50), "n": len(values)}
    )
