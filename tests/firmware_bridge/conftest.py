"""Make ``firmware_bridge`` the package, not this directory.

pytest puts ``tests/`` on sys.path (rootdir conftest, no __init__.py), where this directory looks like
a namespace package called ``firmware_bridge``; the editable install's finder runs after the path
finder, so without the repository root on sys.path the namespace would win. A regular package
anywhere on sys.path beats a namespace portion, hence the root is added here.
"""

import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parents[2])
if ROOT not in sys.path:
    sys.path.append(ROOT)
