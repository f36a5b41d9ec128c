"""Flags and Docks: the two numbered lists. Drag a row to renumber (the list
order is the numbering), Delete removes one (the later ones renumber down),
and selecting a row shows its square."""
from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView, QGroupBox, QHBoxLayout, QListWidget, QListWidgetItem, QPushButton,
    QVBoxLayout, QWidget,
)

from rallyforge.editor import commands
from rallyforge.engine.analysis.course_card.flags import flag_scores
from rallyforge.engine.editing import edit


class MarkerList(QListWidget):
    """A list whose rows can be dragged to another place. It does not move the
    row itself: it says which row goes where, and the document's change
    rebuilds the list."""
    moved = Signal(int, int)    # source row, target row

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setDragDropMode(QAbstractItemView.DragDropMode.InternalMove)
        self.setDefaultDropAction(Qt.DropAction.MoveAction)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)

    def supportedDropActions(self):
        # a drop reports "copy" so that Qt removes no row
        return Qt.DropAction.MoveAction | Qt.DropAction.CopyAction

    def dropEvent(self, event) -> None:
        source = self.currentRow()
        pos = event.position().toPoint()
        index = self.indexAt(pos)
        if index.isValid():
            place = index.row() + (pos.y() > self.visualRect(index).center().y())
        else:
            place = self.count()
        target = place - 1 if place > source else place
        event.setDropAction(Qt.DropAction.CopyAction)
        event.accept()
        if source >= 0 and target != source:
            # After the drag has ended: the change rebuilds this list.
            QTimer.singleShot(0, lambda: self.moved.emit(source, target))


class MarkersPanel(QWidget):
    def __init__(self, doc, state, view, parent=None):
        super().__init__(parent)
        self.doc = doc
        self.state = state
        self.view = view
        self.lists = {}
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        for kind, title in (("flags", "Flags (in the order to touch)"), ("docks", "Docks")):
            group = QGroupBox(title)
            box = QVBoxLayout(group)
            markers = MarkerList()
            markers.moved.connect(
                lambda source, target, kind=kind: self.renumber(kind, source, target))
            markers.currentRowChanged.connect(lambda row, kind=kind: self.show_marker(kind, row))
            buttons = QHBoxLayout()
            for text, step in (("Up", -1), ("Down", 1)):
                button = QPushButton(text)
                button.setToolTip(f"Move the selected {kind[:-1]} {text.lower()} the list "
                                  "(renumber)")
                button.clicked.connect(lambda _=False, kind=kind, step=step: self.shift(kind, step))
                buttons.addWidget(button)
            delete = QPushButton("Delete")
            delete.clicked.connect(lambda _=False, kind=kind: self.delete(kind))
            buttons.addWidget(delete)
            buttons.addStretch()
            box.addWidget(markers)
            box.addLayout(buttons)
            layout.addWidget(group)
            self.lists[kind] = markers
        self._shown = None
        doc.changed.connect(lambda area: self.refresh())
        doc.scenarioReplaced.connect(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        s = self.doc.scenario
        if self._shown is not None and self._shown[0] is s.board and self._shown[1:] == (
                s.flags, s.docks):
            return          # the flags' scores depend on the board too
        self._shown = (s.board, s.flags, s.docks)
        scores = flag_scores(s)
        for kind, markers in self.lists.items():
            row = markers.currentRow()
            markers.blockSignals(True)
            markers.clear()
            for i, m in enumerate(edit.markers(s, kind)):
                facing = f", facing {m.facing}" if kind == "docks" else ""
                note = f" — {m.note}" if m.note else ""
                item = QListWidgetItem(f"{kind[:-1].capitalize()} {i + 1}: square {m.x}, {m.y}"
                                       f"{facing}{note}")
                if kind == "flags" and i < len(scores):
                    item.setToolTip(f"Difficulty {scores[i].explain()}")
                markers.addItem(item)
            markers.setCurrentRow(min(row, markers.count() - 1))
            markers.blockSignals(False)
            current = markers.currentRow()
            self.state.marker_rows[kind] = current if current >= 0 else None

    def renumber(self, kind: str, source: int, target: int) -> None:
        """Renumber: the item at list row `source` becomes number target + 1."""
        commands.change(self.doc, edit.move_marker(self.doc.scenario, kind, source, target),
                        f"Renumber {kind}")
        self.lists[kind].setCurrentRow(target)

    def shift(self, kind: str, step: int) -> None:
        row = self.lists[kind].currentRow()
        if row >= 0 and 0 <= row + step < self.lists[kind].count():
            self.renumber(kind, row, row + step)

    def delete(self, kind: str) -> None:
        row = self.lists[kind].currentRow()
        if row >= 0:
            commands.change(self.doc, edit.remove_marker(self.doc.scenario, kind, row),
                            f"Remove {kind[:-1]} {row + 1}")

    def show_marker(self, kind: str, row: int) -> None:
        self.state.marker_rows[kind] = row if row >= 0 else None
        items = edit.markers(self.doc.scenario, kind)
        if 0 <= row < len(items):
            m = items[row]
            self.state.inspect((m.x, m.y))
            self.view.centre_on_square(m.x, m.y)
