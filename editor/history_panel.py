"""The History panel: the undo stack as a list; click a row to go back to it.
The row matching the saved file carries a disk icon."""
from __future__ import annotations

from PySide6.QtWidgets import QStyle, QUndoView


def history_view(doc) -> QUndoView:
    view = QUndoView(doc.undo_stack)
    view.setEmptyLabel("Opened")
    view.setCleanIcon(view.style().standardIcon(QStyle.StandardPixmap.SP_DialogSaveButton))
    view.setToolTip("The row with the disk icon is the state of the saved file")
    return view
