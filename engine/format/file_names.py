"""File names as text a course can hold."""
from __future__ import annotations

import os
from pathlib import Path

from rallyforge.engine.model.json_types import FilePath


def stem_text(path: FilePath) -> str:
    """A file's name without its extension, as text that can be written:
    bytes of the name that are not UTF-8 become U+FFFD (a course named
    after its file is written as UTF-8)."""
    return os.fsencode(Path(path).stem).decode("utf-8", "replace")
