"""System tools the appliance checks need (systemd-analyze, udevadm, shellcheck): skipped on a laptop
without them, a failure in CI (.ci/run installs them and sets COMPANION_REQUIRE_SYSTEM_TOOLS=1)."""

from __future__ import annotations

import os
import shutil

import pytest


def tool_or_skip(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        message = f"no {name} on this machine (Debian: apt-get install systemd udev shellcheck)"
        if os.environ.get("COMPANION_REQUIRE_SYSTEM_TOOLS") == "1":
            pytest.fail(f"{message}; COMPANION_REQUIRE_SYSTEM_TOOLS=1 makes this a failure")
        pytest.skip(message)
    return path


def requirement_or_skip(ok: bool, message: str) -> None:
    if ok:
        return
    if os.environ.get("COMPANION_REQUIRE_SYSTEM_TOOLS") == "1":
        pytest.fail(f"{message}; COMPANION_REQUIRE_SYSTEM_TOOLS=1 makes this a failure")
    pytest.skip(message)
