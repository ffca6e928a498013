"""Port specs: paths, by-id links, VID:PID looked up through pyserial's list_ports, URLs."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from firmware_bridge import ports


def _comport(device: str, vid: int | None, pid: int | None) -> SimpleNamespace:
    return SimpleNamespace(
        device=device, vid=vid, pid=pid, serial_number="E66138", description="Board in FS mode"
    )


@pytest.fixture
def fake_ports(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    by_id = tmp_path / "by-id"
    by_id.mkdir()
    acm = tmp_path / "ttyACM3"
    acm.touch()
    (by_id / "usb-MicroPython_Board_in_FS_mode_E66138-if00").symlink_to(acm)
    listed = [
        _comport(str(acm), 0x2E8A, 0x0005),
        _comport("/dev/ttyUSB0", 0x1A86, 0x7523),
        _comport("/dev/ttyS0", None, None),
    ]
    monkeypatch.setattr(ports.list_ports, "comports", lambda: listed)
    monkeypatch.setattr(ports, "BY_ID", by_id)
    return by_id


def test_vid_pid_resolves_to_the_stable_by_id_link(fake_ports: Path) -> None:
    assert ports.resolve("2e8a:0005") == str(fake_ports / "usb-MicroPython_Board_in_FS_mode_E66138-if00")
    assert ports.resolve("usb:2E8A:0005") == ports.resolve("2E8A:0005")


def test_vid_pid_missing_is_not_found(fake_ports: Path) -> None:
    with pytest.raises(ports.PortNotFoundError):
        ports.resolve("2E8A:000A")


def test_candidates_are_picos_unless_asked_for_all(fake_ports: Path) -> None:
    assert [p.vid_pid for p in map(_as, ports.list_candidates())] == ["2E8A:0005"]
    assert len(ports.list_candidates(vid=None)) == 2  # the port without USB ids is never a candidate


def _as(info: ports.PortInfo) -> SimpleNamespace:
    return SimpleNamespace(**info.as_dict())


def test_paths_must_exist_and_urls_pass_through(tmp_path: Path) -> None:
    with pytest.raises(ports.PortNotFoundError):
        ports.resolve(str(tmp_path / "ttyACM9"))
    assert ports.resolve("loop://") == "loop://"
    assert ports.resolve("hwgrep://2E8A:0005") == "hwgrep://2E8A:0005"


def test_open_port_opens_a_pyserial_url() -> None:
    port = ports.open_port("loop://", timeout=0.01)
    try:
        port.write(b"\x01\x00")
        assert port.read(2) == b"\x01\x00"
    finally:
        port.close()
