"""The QR code on the TV that opens the control page on a phone, drawn server-side as SVG, and the
address it carries: never one a request named (its Host header), always this machine's."""

from __future__ import annotations

import functools
import socket

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


def lan_address() -> str:
    """This machine's address on the LAN (no packet is sent: UDP connect only picks a route)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere real
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"
