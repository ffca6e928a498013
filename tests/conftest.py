"""Suite-wide test settings."""

from hypothesis import HealthCheck, settings

# The suite shares two cores with browsers and subprocesses: judge correctness, not speed.
settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("default")
