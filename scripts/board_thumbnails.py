"""Render the thumbnails of the board library shown in the README
(docs/boards/NAME.png), with the editor's own picture export.

    QT_QPA_PLATFORM=offscreen python -m scripts.board_thumbnails
"""
from __future__ import annotations

import sys
from pathlib import Path

from rallyforge.editor.board_library import piece
from rallyforge.drawing.pictures import export_png
from rallyforge.engine.editing.library import board_files

TARGET = Path(__file__).resolve().parents[1] / "docs" / "boards"


def main() -> int:
    TARGET.mkdir(parents=True, exist_ok=True)
    for path in board_files():
        export_png(piece(path), TARGET / f"{path.stem}.png", square_px=10)
        print(TARGET / f"{path.stem}.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
