"""The History panel: the undo stack as a list; click a row to go back to it."""
from __future__ import annotations

from PySide6.QtWidgets import QUndoView


def history_view(doc) -> QUndoView:
    view = QUndoView(doc.undo_stack)
    view.setEmptyLabel("Opened")
    return view
