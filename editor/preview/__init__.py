"""The engine preview: watch a race on the board, run the course tests, run
a balance check and see its heatmaps.

    from rallyforge.editor.preview import install_preview
    preview = install_preview(window)       # at the end of MainWindow.__init__

adds the Race and Race Log docks and the Race menu to a MainWindow and
returns the PreviewController that runs them (editor/preview/controller.py).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .controller import PreviewController


def install_preview(window) -> PreviewController:
    """Add the engine preview to an editor MainWindow; returns its controller
    (also kept as ``window.preview``). Installing it twice returns the first."""
    existing = getattr(window, "preview", None)
    if existing is not None:
        return existing
    from .controller import PreviewController
    controller = PreviewController(window)
    window.preview = controller
    return controller


__all__ = ["install_preview"]
