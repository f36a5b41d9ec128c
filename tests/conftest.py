"""Shared test set-up: every test runs headless."""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# The editor keeps recent files (QSettings) and autosaves of untitled courses
# (the application data folder) under these: keep them out of the real home.
import atexit  # noqa: E402
import shutil  # noqa: E402
import tempfile  # noqa: E402

_QT_HOME = tempfile.mkdtemp(prefix="rallyforge-test-home-")
atexit.register(shutil.rmtree, _QT_HOME, True)
os.environ["XDG_CONFIG_HOME"] = os.path.join(_QT_HOME, "config")
os.environ["XDG_DATA_HOME"] = os.path.join(_QT_HOME, "data")
