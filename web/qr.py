"""The QR code on the TV that opens the control page on a phone, drawn server-side as SVG."""

from __future__ import annotations

import functools

import qrcode
import qrcode.image.svg


@functools.lru_cache(maxsize=8)
def qr_svg(data: str) -> str:
    """An SVG QR code of ``data``, black modules on a white quiet zone (phones read dark-on-light)."""
    image = qrcode.make(data, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    svg: str = image.to_string(encoding="unicode")
    # Size by the page, not by the millimetres qrcode writes; a white square behind the path.
    svg = svg.replace('width="', 'data-width="', 1).replace('height="', 'data-height="', 1)
    return svg.replace("<path", '<rect width="100%" height="100%" fill="#fff"/><path', 1)
