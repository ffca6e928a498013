"""``companion devices`` lists the sensors beside the bridge: what the Pi has, and what the settings need."""

from __future__ import annotations

import json
from pathlib import Path

from companion.cli import main
from hardware import discover


def test_spi_keyboards_cameras_and_adapters_are_found_by_their_nodes(tmp_path: Path) -> None:
    dev = tmp_path / "dev"
    (dev / "input/by-id").mkdir(parents=True)
    for name in ("spidev0.0", "spidev0.1", "video0", "video10", "ttyAMA0"):
        (dev / name).touch()
    (dev / "input/by-id/usb-Sycreader_USB_Reader_08FF20140315-event-kbd").touch()
    (dev / "input/by-id/usb-Logitech_Mouse-event-mouse").touch()
    assert discover.spi_devices(dev) == [str(dev / "spidev0.0"), str(dev / "spidev0.1")]
    assert discover.keyboard_readers(dev / "input/by-id") == [
        {"device": str(dev / "input/by-id/usb-Sycreader_USB_Reader_08FF20140315-event-kbd"),
         "name": "Sycreader_USB_Reader_08FF20140315"},
    ]  # fmt: skip
    assert [c["source"] for c in discover.cameras(dev)] == ["camera:0", "camera:10"]
    (tmp_path / "bt" / "hci0").mkdir(parents=True)
    assert discover.bluetooth_adapters(tmp_path / "bt") == ["hci0"]
    assert discover.bluetooth_adapters(tmp_path / "none") == []


def test_devices_lists_each_configured_sensor_and_whether_it_is_there(tmp_path: Path, capsys) -> None:
    present = tmp_path / "event-kbd"
    present.touch()
    config = tmp_path / "table.toml"
    config.write_text(
        '[hardware.mfrc522]\nreaders = [{ reader = 10, spi = "7.0" }]\n'
        f'[[hardware.hid_readers]]\nreader = 20\ndevice = "{present}"\n'
        '[[hardware.ble_dice]]\ndie = 3\ntype = "godice"\nname = "GoDice_1A2B3C_R_v03"\nshell = "d6"\n'
    )
    assert main(["devices", "--json", "--sensors", "--config", str(config)]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert set(listed) >= {"boards", "spi", "keyboards", "cameras", "bluetooth", "configured"}
    rows = {row["sensor"]: row for row in listed["configured"]}
    assert rows["MFRC522 reader 10"] == {
        "sensor": "MFRC522 reader 10",
        "needs": "/dev/spidev7.0",
        "present": False,
    }
    assert rows["keyboard reader 20"]["present"] is True
    assert rows["godice die 3 (GoDice_1A2B3C_R_v03)"]["needs"] == "Bluetooth"
    assert main(["devices", "--config", str(config)]) == 0
    assert "MFRC522 reader 10: /dev/spidev7.0 [MISSING]" in capsys.readouterr().out
