"""The inspector: everything on the inspected square, editable. The tile (type,
direction, express, gear turn, crusher registers, note), its walls, the
lasers and the pusher hanging in it, and its flag and dock. Every edit is one
undo step; the form is rebuilt when what it shows changes."""
from __future__ import annotations

from dataclasses import replace

from PySide6.QtWidgets import (
    QCheckBox, QComboBox, QFormLayout, QGroupBox, QHBoxLayout, QLabel, QLineEdit, QPushButton,
    QScrollArea, QSpinBox, QVBoxLayout, QWidget,
)

from rallyforge.editor import commands
from rallyforge.engine.editing import edit
from rallyforge.engine.model.directions import NAMES
from rallyforge.engine.model.element_kinds import (DIRECTION, FLAG, REGISTERS, ROTATION, TILES, TILE_TYPES,
                                        retyped_tile)
from rallyforge.engine.model.scenario import MAX_LEVEL, Tile

DIRECTION_NAMES = {"N": "N (up)", "E": "E (right)", "S": "S (down)", "W": "W (left)"}


def direction_box(value: str, on_change) -> QComboBox:
    box = QComboBox()
    for name in NAMES:
        box.addItem(DIRECTION_NAMES[name], name)
    box.setCurrentIndex(NAMES.index(value))
    box.currentIndexChanged.connect(lambda i: on_change(NAMES[i]))
    return box


def registers_row(phases, on_change) -> QWidget:
    """Five checkboxes for registers 1-5; at least one stays checked."""
    row = QWidget()
    layout = QHBoxLayout(row)
    layout.setContentsMargins(0, 0, 0, 0)
    boxes: list[QCheckBox] = []

    def changed():
        chosen = tuple(r + 1 for r, b in enumerate(boxes) if b.isChecked())
        if chosen:
            on_change(chosen)
        else:
            sender_box = next(b for b in boxes if not b.isChecked())
            sender_box.blockSignals(True)
            sender_box.setChecked(True)
            sender_box.blockSignals(False)
    for r in range(1, 6):
        box = QCheckBox(str(r))
        box.setChecked(r in phases)
        box.toggled.connect(changed)
        boxes.append(box)
        layout.addWidget(box)
    layout.addStretch()
    return row


def note_edit(note: str | None, on_change) -> QLineEdit:
    line = QLineEdit(note or "")
    line.setPlaceholderText("note for designers")
    line.editingFinished.connect(lambda: on_change(line.text() or None))
    return line


class Inspector(QScrollArea):
    def __init__(self, doc, state, parent=None):
        super().__init__(parent)
        self.doc = doc
        self.state = state
        self.setWidgetResizable(True)
        self._shown = None
        doc.changed.connect(lambda area: self.refresh())
        doc.scenarioReplaced.connect(self.refresh)
        state.inspectedChanged.connect(self.refresh)
        self.refresh()

    # ------------------------------------------------------------ what is shown

    def content(self):
        """Everything the form shows; the form is rebuilt when this changes."""
        square = self.state.inspected
        s = self.doc.scenario
        if square is None or not s.board.in_bounds(*square):
            return None
        x, y = square
        b = s.board
        return (square, b.tile_at(x, y), b.level_at(x, y),
                tuple(edit.lasers_at(b, x, y)), b.pusher_map.get(square),
                tuple((bool(edit.listed_walls(b, x, y, side)), bool(edit.mounted_on(b, x, y, side)))
                      for side in NAMES),
                edit.marker_at(s, "flags", x, y), edit.marker_at(s, "docks", x, y),
                s.flags, s.docks)

    def refresh(self) -> None:
        content = self.content()
        if content == self._shown and self.widget() is not None:
            return
        self._shown = content
        page = QWidget()
        layout = QVBoxLayout(page)
        if content is None:
            hint = QLabel("Click a square with the Select tool (R) to inspect it.")
            hint.setWordWrap(True)
            layout.addWidget(hint)
        else:
            (x, y), tile, level, lasers, pusher, walls, flag, dock, *_ = content
            title = QLabel(f"<b>Square {x}, {y}</b>")
            layout.addWidget(title)
            layout.addWidget(self.tile_group(x, y, tile))
            layout.addWidget(self.level_group(x, y, level))
            layout.addWidget(self.walls_group(x, y, walls))
            for laser in lasers:
                layout.addWidget(self.laser_group(laser))
            if pusher is not None:
                layout.addWidget(self.pusher_group(pusher))
            if flag is not None:
                layout.addWidget(self.flag_group(flag))
            if dock is not None:
                layout.addWidget(self.dock_group(dock))
        layout.addStretch()
        old = self.takeWidget()     # its widgets may be emitting right now: delete later
        if old is not None:
            old.deleteLater()
        self.setWidget(page)

    # ------------------------------------------------------------ groups

    def change(self, new, text: str, merge_key=None) -> None:
        commands.change(self.doc, new, text, merge_key=merge_key)

    def set_tile(self, x: int, y: int, tile: Tile | None, text: str, merge_key=None) -> None:
        s = self.doc.scenario
        self.change(edit.with_board(s, edit.set_tiles(s.board, {(x, y): tile})), text, merge_key)

    def level_group(self, x: int, y: int, level: int) -> QGroupBox:
        group = QGroupBox("Level")
        form = QFormLayout(group)
        height = QSpinBox()
        height.setRange(0, MAX_LEVEL)
        height.setValue(level)
        height.setToolTip("The square's level (0: the ground); Page Up / Page Down change "
                          "the selected squares")

        def set_level(value: int) -> None:
            s = self.doc.scenario
            self.change(edit.with_board(s, edit.set_levels(s.board, {(x, y): value})),
                        f"Set level {value}")
        height.valueChanged.connect(set_level)
        form.addRow("Level", height)
        return group

    def tile_group(self, x: int, y: int, tile: Tile | None) -> QGroupBox:
        group = QGroupBox("Tile")
        form = QFormLayout(group)
        current = tile or Tile(x, y, "floor")
        kind = QComboBox()
        kind.addItems(TILE_TYPES)
        kind.setCurrentText(current.type)
        kind.currentTextChanged.connect(lambda t: self.set_tile(x, y, retyped(current, t),
                                                                "Change tile type"))
        form.addRow("Type", kind)
        for key in TILES[current.type].keys:
            form.addRow(*self.key_row(x, y, current, key))
        form.addRow("Note", note_edit(current.note, lambda n: self.set_tile(
            x, y, None if current.type == "floor" and n is None else replace(current, note=n),
            "Change note")))
        return group

    def key_row(self, x: int, y: int, tile: Tile, key) -> tuple[str, QWidget]:
        """The form row (label, control) for one key of the tile's type."""
        value = getattr(tile, key.name)
        undo = key.undo.format(type=tile.type)

        # Ticking one register after another is one step, as long as
        # nothing else is edited between the ticks.
        merge = ("registers", "tile", x, y) if key.kind == REGISTERS else None

        def set_value(v):
            self.set_tile(x, y, replace(tile, **{key.name: v}), undo, merge)
        if key.kind == DIRECTION:
            return key.label, direction_box(value, set_value)
        if key.kind == FLAG:
            box = QCheckBox(key.label)
            box.setChecked(value)
            box.toggled.connect(set_value)
            return "", box
        if key.kind == ROTATION:
            turn = QComboBox()
            turn.addItem("clockwise", "cw")
            turn.addItem("counter-clockwise", "ccw")
            turn.setCurrentIndex(0 if value == "cw" else 1)
            turn.currentIndexChanged.connect(lambda i: set_value(("cw", "ccw")[i]))
            return key.label, turn
        if key.kind == REGISTERS:
            return key.label, registers_row(value, set_value)
        raise ValueError(f"the inspector has no control for {key.kind} keys ({key.name})")

    def walls_group(self, x: int, y: int, walls) -> QGroupBox:
        group = QGroupBox("Walls")
        row = QHBoxLayout(group)
        for side, (listed, mounted) in zip(NAMES, walls):
            box = QCheckBox(side)
            box.setChecked(listed or mounted)
            if mounted and not listed:
                box.setEnabled(False)
                box.setToolTip("This wall carries a laser or pusher")

            def toggled(on, side=side):
                s = self.doc.scenario
                self.change(edit.with_board(s, edit.set_wall(s.board, x, y, side, on)),
                            "Add wall" if on else "Remove wall")
            box.toggled.connect(toggled)
            row.addWidget(box)
        row.addStretch()
        return group

    def laser_group(self, laser) -> QGroupBox:
        group = QGroupBox(f"Laser firing {laser.dir}")
        form = QFormLayout(group)

        def update(text, **changes):
            s = self.doc.scenario
            board = edit.set_laser(edit.remove_laser(s.board, laser.x, laser.y, laser.dir),
                                   replace(laser, **changes))
            self.change(edit.with_board(s, board), text)
        form.addRow("Fires", direction_box(laser.dir, lambda d: update("Turn laser", dir=d)))
        beams = QSpinBox()
        beams.setRange(1, 3)
        beams.setValue(laser.beams)
        beams.valueChanged.connect(lambda v: update("Change laser beams", beams=v))
        form.addRow("Beams", beams)
        form.addRow("Note", note_edit(laser.note, lambda n: update("Change note", note=n)))
        form.addRow("", self.remove_button(lambda s: edit.with_board(
            s, edit.remove_laser(s.board, laser.x, laser.y, laser.dir)), "Remove laser"))
        return group

    def pusher_group(self, pusher) -> QGroupBox:
        group = QGroupBox("Pusher")
        form = QFormLayout(group)

        def update(text, merge_key=None, **changes):
            s = self.doc.scenario
            board = edit.set_pusher(s.board, replace(pusher, **changes))
            self.change(edit.with_board(s, board), text, merge_key)
        form.addRow("Pushes", direction_box(pusher.dir, lambda d: update("Turn pusher", dir=d)))
        form.addRow("Registers", registers_row(pusher.phases, lambda p: update(
            "Change pusher registers", ("registers", "pusher", pusher.x, pusher.y), phases=p)))
        form.addRow("Note", note_edit(pusher.note, lambda n: update("Change note", note=n)))
        form.addRow("", self.remove_button(lambda s: edit.with_board(
            s, edit.remove_pusher(s.board, pusher.x, pusher.y)), "Remove pusher"))
        return group

    def flag_group(self, index: int) -> QGroupBox:
        flag = self.doc.scenario.flags[index]
        group = QGroupBox(f"Flag {index + 1}")
        form = QFormLayout(group)
        form.addRow("Note", note_edit(flag.note, lambda n: self.change(
            edit.replace_marker(self.doc.scenario, "flags", index, replace(flag, note=n)),
            "Change note")))
        form.addRow("", self.remove_button(lambda s: edit.remove_marker(s, "flags", index),
                                           f"Remove flag {index + 1}"))
        return group

    def dock_group(self, index: int) -> QGroupBox:
        dock = self.doc.scenario.docks[index]
        group = QGroupBox(f"Dock {index + 1}")
        form = QFormLayout(group)

        def update(text, **changes):
            self.change(edit.replace_marker(self.doc.scenario, "docks", index,
                                            replace(dock, **changes)), text)
        form.addRow("Facing", direction_box(dock.facing, lambda d: update("Turn dock", facing=d)))
        form.addRow("Note", note_edit(dock.note, lambda n: update("Change note", note=n)))
        form.addRow("", self.remove_button(lambda s: edit.remove_marker(s, "docks", index),
                                           f"Remove dock {index + 1}"))
        return group

    def remove_button(self, edit_of, text: str) -> QPushButton:
        button = QPushButton(text)
        button.clicked.connect(lambda: self.change(edit_of(self.doc.scenario), text))
        return button


def retyped(tile: Tile, kind: str) -> Tile | None:
    """The tile with another type, keeping what still applies."""
    if kind == "floor" and tile.note is None:
        return None
    return retyped_tile(tile, kind)
