"""GPIO tests: make the real ``hardware`` package importable ahead of this test directory."""

from __future__ import annotations

import sys
from pathlib import Path

# pytest puts tests/ on sys.path (for tests/conftest.py), where this directory would shadow the real
# ``hardware`` package as a namespace package: the repository root must be searched first.
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
if getattr(sys.modules.get("hardware"), "__file__", "") is None:
    del sys.modules["hardware"]
