"""Suite-wide test settings, and the test-only game's fixture."""

import pytest
from hypothesis import HealthCheck, settings

# The suite shares two cores with browsers and subprocesses: judge correctness, not speed.
settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("default")


@pytest.fixture
def raid_installed():
    """The test-only game Raid (tests/bundles/raid), installed as a plugin's game is: listed, played
    and served like the packaged games, then taken out again."""
    from companion.games import add_bundle, remove_bundle
    from tests.bundles.raid.bundle import BUNDLE

    add_bundle(BUNDLE)
    try:
        yield BUNDLE
    finally:
        remove_bundle(BUNDLE.name)
