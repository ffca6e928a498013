"""deploy/install.sh into a scratch root: every file where a Pi needs it, and no change to this system."""

from __future__ import annotations

import os
import re
import stat
import subprocess
from pathlib import Path

import pytest

from .system_tools import tool_or_skip

ROOT = Path(__file__).resolve().parents[2]
INSTALL = ROOT / "deploy" / "install.sh"
SYSTEM_COMMANDS = (
    "apt-get",
    "useradd",
    "usermod",
    "chown",
    "systemctl",
    "udevadm",
    "raspi-config",
    "python3",
)


def install(root: Path, tmp_path: Path, *options: str) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    """Runs the script with every system-changing command replaced by a stub that records its call:
    under --root none of them may run (they are printed instead)."""
    stubs = tmp_path / "stubs"
    stubs.mkdir(exist_ok=True)
    calls = tmp_path / "calls"
    for name in SYSTEM_COMMANDS:
        stub = stubs / name
        stub.write_text(f'#!/bin/sh\necho "{name} $*" >> {calls}\n')
        stub.chmod(0o755)
    env = {**os.environ, "PATH": f"{stubs}:{os.environ['PATH']}"}
    result = subprocess.run(
        ["bash", str(INSTALL), "--root", str(root), *options],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    ran = calls.read_text().splitlines() if calls.exists() else []
    return result, ran


def test_the_install_lays_every_file_and_changes_nothing_outside_the_root(tmp_path: Path) -> None:
    root = tmp_path / "root"
    result, ran = install(root, tmp_path)
    assert result.returncode == 0, result.stderr
    assert ran == []  # nothing system-changing ran: it was all printed
    for path, mode in {
        "etc/systemd/system/table-companion.service": 0o644,
        "etc/systemd/system/table-companion-kiosk.service": 0o644,
        "etc/udev/rules.d/70-table-companion.rules": 0o644,
        "etc/table-companion/table.toml": 0o640,
        "etc/table-companion/kiosk.env": 0o644,
        "opt/table-companion/kiosk-browser": 0o755,
        "opt/table-companion/docs/pi.md": 0o644,
    }.items():
        assert (root / path).is_file(), path
        assert stat.S_IMODE((root / path).stat().st_mode) == mode, path
    assert stat.S_IMODE((root / "var/lib/table-companion").stat().st_mode) == 0o750
    printed = result.stdout.splitlines()
    assert any(
        line.startswith("+ useradd --system") and line.endswith(" table-companion") for line in printed
    )
    groups = {
        line.split()[3] for line in printed if line.startswith("+ usermod -aG") and "table-companion" in line
    }
    assert {"dialout", "gpio", "spi", "video", "input", "bluetooth"} <= groups
    assert "+ python3 -m venv --system-site-packages /opt/table-companion/venv" in printed
    assert "+ systemctl enable --now table-companion.service table-companion-kiosk.service" in printed


def test_the_settings_get_a_pin_of_their_own_and_survive_a_second_install(tmp_path: Path) -> None:
    root = tmp_path / "root"
    assert install(root, tmp_path)[0].returncode == 0
    settings = root / "etc/table-companion/table.toml"
    pin = re.search(r'^pin = "(\d{4})"', settings.read_text(), re.M)
    assert pin is not None
    settings.write_text(settings.read_text() + "\n# the owner's own line\n")
    again, _ = install(root, tmp_path)
    assert again.returncode == 0
    assert "kept /etc/table-companion/table.toml" in again.stdout
    assert settings.read_text().endswith("# the owner's own line\n")


def test_the_installed_settings_load(tmp_path: Path) -> None:
    from companion.settings import load_settings

    root = tmp_path / "root"
    assert install(root, tmp_path)[0].returncode == 0
    settings = load_settings(root / "etc/table-companion/table.toml")
    assert settings.db == Path("/var/lib/table-companion/table.sqlite3")
    assert settings.serial_port == "/dev/table-bridge"
    assert settings.pin is not None and len(settings.pin) == 4


def test_a_bridge_serial_pins_the_udev_rule_to_one_board(tmp_path: Path) -> None:
    root = tmp_path / "root"
    assert install(root, tmp_path, "--bridge-serial", "E66038B7133F5A2F")[0].returncode == 0
    rule = (root / "etc/udev/rules.d/70-table-companion.rules").read_text()
    assert 'ATTRS{idProduct}=="0005", ATTRS{serial}=="E66038B7133F5A2F", ' in rule


@pytest.mark.parametrize("serial", ['x", RUN+="/bin/sh', "a b", "$(reboot)"])
def test_a_serial_that_could_smuggle_a_udev_key_is_refused(tmp_path: Path, serial: str) -> None:
    result, ran = install(tmp_path / "root", tmp_path, "--bridge-serial", serial)
    assert result.returncode == 2
    assert "--bridge-serial" in result.stderr
    assert ran == [] and not (tmp_path / "root").exists()


def test_a_desktop_image_gets_the_autostart_kiosk(tmp_path: Path) -> None:
    root = tmp_path / "root"
    result, _ = install(root, tmp_path, "--kiosk", "desktop")
    assert result.returncode == 0
    assert (root / "etc/xdg/autostart/table-companion-kiosk.desktop").is_file()
    assert not (root / "etc/systemd/system/table-companion-kiosk.service").exists()
    assert "+ raspi-config nonint do_blanking 1" in result.stdout


def test_unknown_options_are_refused(tmp_path: Path) -> None:
    result, _ = install(tmp_path / "root", tmp_path, "--kiosk", "x11")
    assert result.returncode == 2


def test_the_scripts_pass_shellcheck() -> None:
    shellcheck = tool_or_skip("shellcheck")
    scripts = [INSTALL, ROOT / "deploy" / "kiosk" / "kiosk-browser"]
    result = subprocess.run([shellcheck, *map(str, scripts)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout
