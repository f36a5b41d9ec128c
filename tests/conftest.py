"""Shared test set-up: every test runs headless, away from the real home
folder, and property tests never fail on timing."""
import atexit
import os
import shutil
import sysconfig
import tempfile

import pytest
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


@pytest.fixture
def compiled_part():
    """The compiled part (engine/rules/compiled/_race.c, engine/bots/_play.c):
    a test that needs it fails where a C compiler is found and it is not
    built, and is skipped where none is (or where RALLYFORGE_COMPILED=0 rules it out)."""
    from rallyforge.engine.analysis.balance import compiled
    from rallyforge.engine.bots import search
    from rallyforge.engine.rules.compiled import COMPILED_SWITCH
    if compiled.built():
        return search.compiled
    if os.environ.get(COMPILED_SWITCH) == "0":
        pytest.skip(f"{COMPILED_SWITCH}=0 rules the compiled part out")
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler):
        pytest.fail(f"a C compiler ({compiler}) is here, but the compiled part is not built: "
                    "rm .venv/.installed; make .venv/.installed")
    pytest.skip("no C compiler here: the compiled part cannot be built")
