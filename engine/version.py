"""The installed version of Rally Forge and the names of its `rallyforge` commands,
for `--version` and the About box."""
from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version as _installed

COMMANDS = ("validate", "run", "test", "balance", "compare", "card", "suggest", "import", "assemble")


def version() -> str:
    try:
        return _installed("rallyforge")
    except PackageNotFoundError:    # run from a checkout that was never installed
        return "unknown"
