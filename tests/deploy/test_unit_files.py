"""The systemd units and the udev rule, checked by systemd's own tools (and by what they must not say)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from .system_tools import requirement_or_skip, tool_or_skip
from .test_install_script import install

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
SERVICE = DEPLOY / "systemd" / "table-companion.service"
RULE = DEPLOY / "udev" / "70-table-companion.rules"
SYSTEM_UNITS = Path("/usr/lib/systemd/system")


def unit_options(path: Path) -> dict[str, list[str]]:
    options: dict[str, list[str]] = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith(("#", ";", "[")) and "=" in line:
            key, _, value = line.partition("=")
            options.setdefault(key.strip(), []).append(value.strip())
    return options


def test_the_service_notifies_has_a_watchdog_and_restarts_on_failure() -> None:
    options = unit_options(SERVICE)
    assert options["Type"] == ["notify"]
    assert options["WatchdogSec"] == ["30"]
    assert options["Restart"] == ["on-failure"]
    assert options["User"] == ["table-companion"]
    assert options["StandardOutput"] == ["journal"]
    assert options["ExecStart"][0].startswith("/opt/table-companion/venv/bin/companion serve --config ")


def test_no_hardening_option_closes_the_devices_the_table_needs() -> None:
    """Each of these turns on the device filter (or hides /proc/device-tree from gpiozero)."""
    options = unit_options(SERVICE)
    for closing in (
        "PrivateDevices",
        "DevicePolicy",
        "DeviceAllow",
        "ProtectClock",
        "ProcSubset",
        "PrivateUsers",
    ):
        assert closing not in options, closing
    assert options["ProtectSystem"] == ["strict"]  # yet the rest is locked down
    assert options["NoNewPrivileges"] == ["yes"]
    assert "AF_UNIX" in options["RestrictAddressFamilies"][0]  # D-Bus to BlueZ for the Bluetooth dice


def test_systemd_analyze_verifies_both_units_in_the_installed_root(tmp_path: Path) -> None:
    analyze = tool_or_skip("systemd-analyze")
    requirement_or_skip(SYSTEM_UNITS.is_dir(), f"no {SYSTEM_UNITS} to verify the units' dependencies against")
    root = tmp_path / "root"
    assert install(root, tmp_path)[0].returncode == 0
    # The scratch root gets systemd's own units (for After=/Wants= to resolve) and, for the two programs
    # the units start, executables standing where pip and apt put the real ones on a Pi.
    shutil.copytree(SYSTEM_UNITS, root / "usr/lib/systemd/system", symlinks=True)
    for program in ("opt/table-companion/venv/bin/companion", "usr/bin/cage"):
        (root / program).parent.mkdir(parents=True, exist_ok=True)
        (root / program).write_text("#!/bin/sh\n")
        (root / program).chmod(0o755)
    for unit in ("table-companion.service", "table-companion-kiosk.service"):
        result = subprocess.run(
            [analyze, "verify", "--man=no", f"--root={root}", f"/etc/systemd/system/{unit}"],
            capture_output=True,
            text=True,
            timeout=120,
        )
        # A warning ("Unknown key", "Special user ... not safe") is a failure too: verify only prints those.
        assert result.returncode == 0 and result.stdout + result.stderr == "", result.stdout + result.stderr


def test_udev_reads_the_rule_without_a_complaint(tmp_path: Path) -> None:
    udevadm = tool_or_skip("udevadm")
    rules = tmp_path / "rules.d"
    rules.mkdir()
    shutil.copy(RULE, rules / RULE.name)
    verify = subprocess.run([udevadm, "verify", "--help"], capture_output=True, text=True, timeout=30)
    if verify.returncode == 0:  # systemd >= 254
        result = subprocess.run([udevadm, "verify", str(rules / RULE.name)], capture_output=True, text=True)
        assert result.returncode == 0, result.stdout + result.stderr
        return
    # Older udevadm has no verify: run a test event with only our rules in place of /etc/udev/rules.d,
    # in a mount namespace of its own (root only), and read what the rule parser said about our file.
    unshare = shutil.which("unshare")
    requirement_or_skip(
        unshare is not None and os.geteuid() == 0, "checking udev rules needs root and unshare"
    )
    device = next((d for d in ("/sys/class/tty/tty0", "/sys/class/tty/ptmx") if Path(d).exists()), None)
    requirement_or_skip(device is not None, "no tty device in /sys to run a udev test event on")
    script = f'mount --bind "{rules}" /etc/udev/rules.d && exec {udevadm} test --action=add {device}'
    result = subprocess.run(
        [str(unshare), "-m", "sh", "-c", script], capture_output=True, text=True, timeout=60
    )
    output = result.stdout + result.stderr
    ours = [line for line in output.splitlines() if RULE.name in line]
    requirement_or_skip(
        "Operation not permitted" not in output, "no mount namespace here (a restricted container)"
    )
    assert any(line.startswith("Reading rules file") for line in ours), output[-2000:]
    assert [line for line in ours if not line.startswith("Reading rules file")] == []


def test_the_udev_rule_names_the_pico_the_bridge_code_looks_for() -> None:
    from firmware_bridge.ports import RASPBERRY_PI_VID

    rule = [line for line in RULE.read_text().splitlines() if line and not line.startswith("#")]
    assert len(rule) == 1
    assert f'ATTRS{{idVendor}}=="{RASPBERRY_PI_VID:04x}"' in rule[0]
    assert 'ATTRS{idProduct}=="0005"' in rule[0]  # MicroPython's CDC on the RP2040
    assert 'SYMLINK+="table-bridge"' in rule[0]
    assert 'ENV{ID_MM_DEVICE_IGNORE}="1"' in rule[0]
