"""Pictures of the board library (rallyforge.engine.editing.library) for the editor's dialogs
and the README: what a library file brings to a course, turned as chosen."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QImage

from rallyforge.drawing.pictures import render_image
from rallyforge.engine.editing import library


def piece(path: Path, quarter_turns: int = 0):
    """The library file's board (and a bay's docks), turned clockwise."""
    return library.turned(library.part(library.load(path), library.is_bay(path)), quarter_turns)


def thumbnail(path: Path, quarter_turns: int = 0, square_px: int = 8) -> QImage:
    return render_image(piece(path, quarter_turns), square_px)
