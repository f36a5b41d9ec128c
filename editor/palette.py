"""The element palette: every tile (express conveyors and both gears apart),
the edge elements and the markers, drawn in the current direction, with the
direction and the brush options (laser beams, registers) below."""
from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt, Signal
from PySide6.QtGui import QIcon, QPainter, QPixmap
from PySide6.QtWidgets import (
    QAbstractItemView, QButtonGroup, QCheckBox, QHBoxLayout, QLabel, QListWidget,
    QListWidgetItem, QPushButton, QSpinBox, QVBoxLayout, QWidget,
)

from editor import render
from engine.directions import NAMES

# (label, kind, express, rotation, tool id: None for tiles)
ENTRIES = (
    ("Floor", "floor", False, "cw", None),
    ("Pit", "pit", False, "cw", None),
    ("Conveyor", "conveyor", False, "cw", None),
    ("Express conveyor", "conveyor", True, "cw", None),
    ("Gear, clockwise", "gear", False, "cw", None),
    ("Gear, counter-clockwise", "gear", False, "ccw", None),
    ("Repair", "repair", False, "cw", None),
    ("Upgrade", "upgrade", False, "cw", None),
    ("Crusher", "crusher", False, "cw", None),
    ("Water", "water", False, "cw", None),
    ("Current", "current", False, "cw", None),
    ("Drain", "drain", False, "cw", None),
    ("Teleporter", "teleporter", False, "cw", None),
    ("Randomizer", "randomizer", False, "cw", None),
    ("Wall", "wall", False, "cw", "wall"),
    ("Laser", "laser", False, "cw", "laser"),
    ("Pusher", "pusher", False, "cw", "pusher"),
    ("Flag", "flag", False, "cw", "flag"),
    ("Dock", "dock", False, "cw", "dock"),
)
ICON = 40


def element_pixmap(kind: str, direction: str = "N", express: bool = False,
                   rotation: str = "cw", size: int = ICON) -> QPixmap:
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.Antialiasing)
    render.paint_element_icon(painter, QRectF(0, 0, size, size), kind, direction, express, rotation)
    painter.end()
    return pixmap


def element_icon(kind: str, direction: str = "N", express: bool = False, rotation: str = "cw",
                 size: int = ICON) -> QIcon:
    return QIcon(element_pixmap(kind, direction, express, rotation, size))


class Palette(QWidget):
    toolChosen = Signal(str)    # a tool id, or "paint" for a tile

    def __init__(self, state, parent=None):
        super().__init__(parent)
        self.state = state
        self.tool_id = "brush"
        self._icons_dir = None      # the direction the icons show
        self.list = QListWidget()
        self.list.setViewMode(QListWidget.IconMode)
        self.list.setIconSize(QSize(ICON, ICON))
        self.list.setGridSize(QSize(ICON + 12, ICON + 12))
        self.list.setMovement(QListWidget.Static)
        self.list.setResizeMode(QListWidget.Adjust)
        self.list.setSelectionMode(QAbstractItemView.SingleSelection)
        self.list.setUniformItemSizes(True)
        self.list.setFixedHeight(4 * (ICON + 12) + 8)
        for label, *_ in ENTRIES:
            item = QListWidgetItem()
            item.setToolTip(label)
            self.list.addItem(item)
        self.list.itemClicked.connect(self.on_clicked)

        self.dir_buttons = QButtonGroup(self)
        dirs = QHBoxLayout()
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

        options = QHBoxLayout()
        options.addWidget(QLabel("Beams"))
        self.beams = QSpinBox()
        self.beams.setRange(1, 3)
        self.beams.setToolTip("Beams of new lasers")
        self.beams.valueChanged.connect(lambda v: state.set_brush(beams=v))
        options.addWidget(self.beams)
        options.addSpacing(8)
        options.addWidget(QLabel("Registers"))
        self.phases = []
        for r in range(1, 6):
            box = QCheckBox(str(r))
            box.setToolTip("Registers of new pushers and crushers")
            box.toggled.connect(self.on_phases)
            self.phases.append(box)
            options.addWidget(box)
        options.addStretch()

        self.label = QLabel()
        self.label.setStyleSheet("font-weight: bold")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.list)
        layout.addWidget(self.label)
        layout.addLayout(dirs)
        layout.addLayout(options)
        layout.addStretch()
        state.brushChanged.connect(self.refresh)
        self.refresh()

    def entry_index(self) -> int:
        b = self.state.brush
        for i, (label, kind, express, rotation, tool) in enumerate(ENTRIES):
            if tool is not None:
                if tool == self.tool_id:
                    return i
            elif kind == b.kind and express == (b.express and b.kind == "conveyor") \
                    and (kind != "gear" or rotation == b.rotation):
                return i
        return -1

    def on_clicked(self, item: QListWidgetItem) -> None:
        label, kind, express, rotation, tool = ENTRIES[self.list.row(item)]
        if tool is None:
            self.state.set_brush(kind=kind, express=express, rotation=rotation)
        self.toolChosen.emit(tool or "paint")

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
            for i, (label, kind, express, rotation, tool) in enumerate(ENTRIES):
                self.list.item(i).setIcon(element_icon(kind, b.dir, express, rotation))
        index = self.entry_index()
        self.list.setCurrentRow(index)
        self.label.setText(ENTRIES[index][0] if index >= 0 else "")
        self.dir_buttons.button(NAMES.index(b.dir)).setChecked(True)
        self.beams.blockSignals(True)
        self.beams.setValue(b.beams)
        self.beams.blockSignals(False)
        for r, box in enumerate(self.phases):
            box.blockSignals(True)
            box.setChecked(r + 1 in b.phases)
            box.blockSignals(False)
