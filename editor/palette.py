"""The element palette: every tile (express conveyors and both gears apart),
the edge elements and the markers, drawn in the current direction, with the
options of the chosen element below (direction, laser beams, registers: only
those it has)."""
from __future__ import annotations

from typing import NamedTuple

from PySide6.QtCore import QRectF, QSize, Qt, Signal
from PySide6.QtGui import QIcon, QPainter, QPixmap
from PySide6.QtWidgets import (
    QAbstractItemView, QButtonGroup, QCheckBox, QHBoxLayout, QLabel, QListWidget,
    QListWidgetItem, QPushButton, QSpinBox, QVBoxLayout, QWidget,
)

from rallyforge.drawing import icons
from rallyforge.engine.model.directions import NAMES
from rallyforge.engine.model.element_kinds import EDGES, EDGE_LIST, NEW_VALUES, TILES, TILE_LIST


class Entry(NamedTuple):
    label: str
    kind: str                               # a tile type, edge element or marker
    values: tuple[tuple[str, object], ...]  # key values a tile entry sets on the brush
    tool: str | None                        # the tool it chooses; None: paint the tile


ENTRIES = (
    *(Entry(label, t.name, values, None) for t in TILE_LIST for label, values in t.entries),
    *(Entry(e.label, e.name, (), e.name) for e in EDGE_LIST),
    Entry("Flag", "flag", (), "flag"),
    Entry("Dock", "dock", (), "dock"),
)
# Choosing a tile entry sets every key that some entry sets: its own values
# or else a new element's.
_ENTRY_KEYS = {name: NEW_VALUES[name] for e in ENTRIES for name, _ in e.values}
ICON = 40
HIGHLIGHT = "#1e6fd9"
LIST_STYLE = f"""
QListWidget::item {{ border: 3px solid transparent; border-radius: 5px; }}
QListWidget::item:selected {{ background: {HIGHLIGHT}; border: 3px solid {HIGHLIGHT}; }}
"""


def entry_options(entry: Entry) -> set[str]:
    """Which brush options apply to an entry: "dir", "beams", "phases"."""
    if entry.kind == "dock":
        return {"dir"}              # new docks face the brush direction
    element = TILES.get(entry.kind) or EDGES.get(entry.kind)
    names = {k.name for k in element.keys} if element is not None else set()
    if entry.kind in EDGES:
        names.discard("dir")        # an edge element points away from the edge clicked
    return names & {"dir", "beams", "phases"}


def element_pixmap(kind: str, direction: str = "N", size: int = ICON, **values) -> QPixmap:
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    icons.paint_element_icon(painter, QRectF(0, 0, size, size), kind, direction, **values)
    painter.end()
    return pixmap


def element_icon(kind: str, direction: str = "N", size: int = ICON, **values) -> QIcon:
    return QIcon(element_pixmap(kind, direction, size, **values))


class Palette(QWidget):
    toolChosen = Signal(str)    # a tool id, or "paint" for a tile

    def __init__(self, state, parent=None):
        super().__init__(parent)
        self.state = state
        self.tool_id = "brush"
        self._icons_dir = None      # the direction the icons show
        self.list = QListWidget()
        self.list.setViewMode(QListWidget.ViewMode.IconMode)
        self.list.setIconSize(QSize(ICON, ICON))
        self.list.setGridSize(QSize(ICON + 12, ICON + 12))
        self.list.setMovement(QListWidget.Movement.Static)
        self.list.setResizeMode(QListWidget.ResizeMode.Adjust)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setUniformItemSizes(True)
        self.list.setFixedHeight(4 * (ICON + 12) + 8)
        self.list.setStyleSheet(LIST_STYLE)
        for entry in ENTRIES:
            item = QListWidgetItem()
            item.setToolTip(entry.label)
            self.list.addItem(item)
        self.list.itemClicked.connect(self.on_clicked)

        self.dir_buttons = QButtonGroup(self)
        self.dir_row = QWidget()
        dirs = QHBoxLayout(self.dir_row)
        dirs.setContentsMargins(0, 0, 0, 0)
        dirs.addWidget(QLabel("Direction"))
        for i, name in enumerate(NAMES):
            button = QPushButton(name)
            button.setCheckable(True)
            button.setFixedWidth(30)
            button.setToolTip("Z / Shift+Z turn the direction")
            self.dir_buttons.addButton(button, i)
            dirs.addWidget(button)
        dirs.addStretch()
        self.dir_buttons.idClicked.connect(lambda i: state.set_brush(dir=NAMES[i]))

        self.beams_row = QWidget()
        beams = QHBoxLayout(self.beams_row)
        beams.setContentsMargins(0, 0, 0, 0)
        beams.addWidget(QLabel("Beams"))
        self.beams = QSpinBox()
        self.beams.setRange(1, 3)
        self.beams.setToolTip("Beams of new lasers")
        self.beams.valueChanged.connect(lambda v: state.set_brush(beams=v))
        beams.addWidget(self.beams)
        beams.addStretch()
        self.phases_row = QWidget()
        options = QHBoxLayout(self.phases_row)
        options.setContentsMargins(0, 0, 0, 0)
        options.addWidget(QLabel("Registers"))
        self.phases = []
        for r in range(1, 6):
            box = QCheckBox(str(r))
            box.setToolTip("Registers of new pushers and crushers")
            box.toggled.connect(self.on_phases)
            self.phases.append(box)
            options.addWidget(box)
        options.addStretch()

        self.level_buttons = QButtonGroup(self)
        self.level_row = QWidget()
        levels = QHBoxLayout(self.level_row)
        levels.setContentsMargins(0, 0, 0, 0)
        levels.addWidget(QLabel("Level"))
        for level in range(4):
            button = QPushButton(str(level))
            button.setCheckable(True)
            button.setFixedWidth(30)
            button.setToolTip("The level the Level tool paints (0: the ground)")
            self.level_buttons.addButton(button, level)
            levels.addWidget(button)
        levels.addStretch()
        self.level_buttons.idClicked.connect(lambda level: state.set_brush(level=level))

        self.label = QLabel()
        self.label.setStyleSheet("font-weight: bold")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.list)
        layout.addWidget(self.label)
        layout.addWidget(self.dir_row)
        layout.addWidget(self.beams_row)
        layout.addWidget(self.phases_row)
        layout.addWidget(self.level_row)
        layout.addStretch()
        state.brushChanged.connect(self.refresh)
        self.refresh()

    def entry_index(self) -> int:
        """The entry of the tool in hand, else of the brush's tile."""
        b = self.state.brush
        for i, entry in enumerate(ENTRIES):
            if entry.tool is not None and entry.tool == self.tool_id:
                return i
        for i, entry in enumerate(ENTRIES):
            if entry.tool is None and entry.kind == b.kind \
                    and all(getattr(b, k) == v for k, v in entry.values):
                return i
        return -1

    def on_clicked(self, item: QListWidgetItem) -> None:
        entry = ENTRIES[self.list.row(item)]
        if entry.tool is None:
            self.state.set_brush(kind=entry.kind, **{**_ENTRY_KEYS, **dict(entry.values)})
        self.toolChosen.emit(entry.tool or "paint")

    def on_phases(self) -> None:
        phases = tuple(r + 1 for r, box in enumerate(self.phases) if box.isChecked())
        if phases:
            self.state.set_brush(phases=phases)
        else:   # at least one register
            self.refresh()

    def show_tool(self, tool_id: str) -> None:
        self.tool_id = tool_id
        self.refresh()

    def refresh(self) -> None:
        b = self.state.brush
        if b.dir != self._icons_dir:
            self._icons_dir = b.dir
            for i, entry in enumerate(ENTRIES):
                icon = element_icon(entry.kind, b.dir, ICON, **dict(entry.values))
                self.list.item(i).setIcon(icon)
        index = -1 if self.tool_id == "level" else self.entry_index()   # levels are no element
        self.list.setCurrentRow(index)
        self.label.setText(ENTRIES[index].label if index >= 0 else
                           "Level" if self.tool_id == "level" else "")
        applies = entry_options(ENTRIES[index]) if index >= 0 else set()
        self.dir_row.setVisible("dir" in applies)
        self.beams_row.setVisible("beams" in applies)
        self.phases_row.setVisible("phases" in applies)
        self.dir_buttons.button(NAMES.index(b.dir)).setChecked(True)
        self.level_row.setVisible(self.tool_id == "level")
        self.level_buttons.button(b.level).setChecked(True)
        self.beams.blockSignals(True)
        self.beams.setValue(b.beams)
        self.beams.blockSignals(False)
        for r, box in enumerate(self.phases):
            box.blockSignals(True)
            box.setChecked(r + 1 in b.phases)
            box.blockSignals(False)
