"""``companion doctor``: the whole chain checked, each problem with its fix; the running service consulted."""

from __future__ import annotations

import json
from pathlib import Path

import cv2

from companion.cli import main
from companion.cli.serve import serving
from companion.session import Session
from companion.settings import Settings


def doctor(capsys, *args: str) -> tuple[int, dict]:
    code = main(["doctor", "--json", "--timeout", "1", *args])
    return code, json.loads(capsys.readouterr().out)


def by_name(report: dict) -> dict[str, dict]:
    return {check["name"]: check for check in report["checks"]}


def test_every_missing_device_is_a_failure_with_its_fix(tmp_path: Path, capsys) -> None:
    config = tmp_path / "table.toml"
    config.write_text(
        f'port = 0\ndb = "{tmp_path / "t.sqlite3"}"\nserial_port = "{tmp_path / "ttyNONE"}"\n'
        '[hardware.gpio]\npin_factory = "mock"\nshout_buttons = [17]\n'
        '[hardware.mfrc522]\nreaders = [{ reader = 10, spi = "7.0" }]\n'
        f'[[hardware.hid_readers]]\nreader = 20\ndevice = "{tmp_path / "event-kbd"}"\n'
    )
    code, report = doctor(capsys, "--config", str(config))
    assert code == 1 and not report["ok"]
    checks = by_name(report)
    assert checks["settings"]["status"] == "ok"
    assert checks["bridge board"]["status"] == "fail" and "Pico" in checks["bridge board"]["fix"]
    assert (
        checks["SPI /dev/spidev7.0"]["status"] == "fail"
        and "raspi-config" in checks["SPI /dev/spidev7.0"]["fix"]
    )
    assert checks["keyboard reader 20"]["status"] == "fail"
    assert checks["GPIO17"]["status"] == "ok"
    assert checks["web port"]["status"] == "ok"


def test_a_settings_mistake_is_the_one_thing_reported(tmp_path: Path, capsys) -> None:
    config = tmp_path / "table.toml"
    config.write_text("[[hardware.hid_readers]]\nreader = 1\n")
    code, report = doctor(capsys, "--config", str(config))
    assert code == 1
    assert [c["name"] for c in report["checks"]] == ["settings"]
    assert "device" in report["checks"][0]["detail"]


def test_the_camera_opens_and_the_mat_is_seen(tmp_path: Path, capsys) -> None:
    from vision.mat import render_mat
    from vision.zones import load_layout

    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "0001.png"), render_mat(load_layout("chaos-marauders", 4), dpi=40))
    blank = tmp_path / "blank"
    blank.mkdir()
    cv2.imwrite(str(blank / "0001.png"), render_mat(load_layout("chaos-marauders", 4), dpi=40)[:40, :40])
    for folder, mat in ((frames, "ok"), (blank, "warn")):
        config = tmp_path / "table.toml"
        config.write_text(
            f'port = 0\ndb = "{tmp_path / "t.sqlite3"}"\n[camera]\nsource = "folder:{folder}"\n'
        )
        code, report = doctor(capsys, "--config", str(config))
        checks = by_name(report)
        assert checks["camera"]["status"] == "ok"
        assert checks["mat"]["status"] == mat, checks["mat"]
        assert code == 0  # a mat out of view is a warning: the table can still play by hand


def test_the_doctor_says_when_the_camera_gives_the_mat_too_few_pixels(tmp_path: Path, capsys) -> None:
    from vision.mat import render_mat
    from vision.zones import load_layout

    for dpi, status, words in (
        (40, "ok", "1.57 px/mm"),
        (25, "warn", "may go unread"),
        (14, "warn", "too few"),
    ):
        frames = tmp_path / f"frames-{dpi}"
        frames.mkdir()
        cv2.imwrite(str(frames / "0001.png"), render_mat(load_layout("chaos-marauders", 4), dpi=dpi))
        config = tmp_path / "table.toml"
        config.write_text(
            f'port = 0\ndb = "{tmp_path / "t.sqlite3"}"\n[camera]\nsource = "folder:{frames}"\n'
        )
        code, report = doctor(capsys, "--config", str(config))
        mat = by_name(report)["mat"]
        assert mat["status"] == status and words in mat["detail"], mat
        assert code == 0


def test_a_running_service_is_asked_instead_of_opening_its_devices(tmp_path: Path, capsys) -> None:
    db = tmp_path / "t.sqlite3"
    settings = Settings(host="127.0.0.1", port=0, pin="4711", db=db)
    with Session(db) as session, serving(settings, session) as server:
        session.report_device("rfid-spi", {"state": "error", "detail": "0 of 1 readers"})
        session.report_device("firmware", {"state": "connected"})
        assert session.responsive(2)
        config = tmp_path / "table.toml"
        config.write_text(f'port = {server.port}\ndb = "{db}"\nserial_port = "/dev/table-bridge"\n')
        code, report = doctor(capsys, "--config", str(config))
    checks = by_name(report)
    assert checks["service"]["status"] == "ok"
    assert checks["firmware"]["status"] == "ok"
    assert checks["rfid-spi"]["status"] == "fail" and "0 of 1 readers" in checks["rfid-spi"]["detail"]
    assert "bridge board" not in checks  # held by the service: not opened
    assert code == 1
