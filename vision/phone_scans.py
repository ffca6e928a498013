"""The phone scanner's server side: a photo's bytes and the game being played → the cards it shows.

The web app holds this as a plain callable (``web.scan``: the web layer imports no adapter); the
command line wires it in (``companion serve``). Each game's enrolled faces are loaded when first
asked for and again when their file changes (an enrolment made while the table runs is used at the
next photo). A photo that cannot be read raises ``PhotoError`` (a ValueError, one sentence); a game
without enrolled faces raises LookupError saying how to enrol them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2

from vision.photo import PhotoScanner, decode_photo
from vision.references import ReferenceSet

OFFERED = 4
"""Cards offered for one photo: the best, and the next most likely beside it."""


class PhotoScans:
    def __init__(self, faces_of: Callable[[str], Path]) -> None:
        self._faces_of = faces_of
        self._scanners: dict[str, tuple[tuple[Path, int], PhotoScanner]] = {}
        self._lock = threading.Lock()

    def __call__(self, data: bytes, game: str) -> dict[str, Any]:
        scanner = self._scanner(game)
        cv2.setNumThreads(1)  # one photo at a time, on one core: the table's camera keeps the other
        image = decode_photo(data)
        scan = scanner.scan(image, OFFERED)
        return {
            "sure": scan.sure,
            "cards": [{"card": c.card, "score": c.score} for c in scan.candidates],
            "outlines": scan.outlines,
            "found": "outline" if scan.corners is not None else "whole photo",
        }

    def _scanner(self, game: str) -> PhotoScanner:
        path = self._faces_of(game)
        try:
            key = (path, path.stat().st_mtime_ns)
        except OSError:
            raise LookupError(
                f"no card faces are enrolled for {game}: enrol them with `companion vision enrol --game "
                f"{game}` (from photos, a scanned sheet, image files or the camera)"
            ) from None
        with self._lock:
            known = self._scanners.get(game)
            if known is None or known[0] != key:
                try:
                    references = ReferenceSet.load(path)
                except (OSError, ValueError) as exc:
                    raise LookupError(f"the card faces of {game} at {path} cannot be read ({exc})") from None
                known = self._scanners[game] = (key, PhotoScanner(references))
            return known[1]
