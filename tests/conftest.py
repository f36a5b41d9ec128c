"""Shared test set-up: every test runs headless, away from the real home
folder, and property tests never fail on timing."""
import atexit
import os
import shutil
import tempfile

from hypothesis import HealthCheck, settings

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# The editor keeps recent files (QSettings) and autosaves of untitled courses
# (the application data folder) under these: keep them out of the real home.
_QT_HOME = tempfile.mkdtemp(prefix="rallyforge-test-home-")
atexit.register(shutil.rmtree, _QT_HOME, True)
os.environ["XDG_CONFIG_HOME"] = os.path.join(_QT_HOME, "config")
os.environ["XDG_DATA_HOME"] = os.path.join(_QT_HOME, "data")

# A busy machine makes examples slow, not wrong. In CI the examples are
# derived from the test itself, so a run there is repeatable.
settings.register_profile("rallyforge", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow],
                          derandomize=bool(os.environ.get("CI")))
settings.load_profile("rallyforge")
