"""File > New: the board size, a name and an optional docking bay (a 12x4
strip along the south edge with 8 docks facing north)."""
from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox, QDialog, QDialogButtonBox, QFormLayout, QLineEdit, QSpinBox, QVBoxLayout,
)

from rallyforge.engine.model.scenario import Board, Dock, Rules, Scenario

BAY_WIDTH, BAY_HEIGHT = 12, 4
# Bay columns of docks 1 to 8: from the middle outwards, on the bay's third row.
BAY_DOCK_COLUMNS = (5, 6, 3, 8, 1, 10, 0, 11)
BAY_DOCK_ROW = 2


def new_scenario(width: int, height: int, name: str = "Untitled", bay: bool = False) -> Scenario:
    """An empty course; with a bay, BAY_HEIGHT more rows at the south holding 8 docks."""
    docks: tuple[Dock, ...] = ()
    if bay:
        left = max(0, (width - BAY_WIDTH) // 2)
        docks = tuple(Dock(left + x, height + BAY_DOCK_ROW, "N") for x in BAY_DOCK_COLUMNS
                      if left + x < width)
        height += BAY_HEIGHT
    # new courses play option cards (docs/format.md, `rules`)
    return Scenario(name=name, board=Board(width, height), flags=(), docks=docks,
                    rules=Rules(options="played"))


class NewDialog(QDialog):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWindowTitle("New Course")
        self.name = QLineEdit("Untitled")
        self.width_box = QSpinBox()
        self.width_box.setRange(1, 100)
        self.width_box.setValue(12)
        self.height_box = QSpinBox()
        self.height_box.setRange(1, 100)
        self.height_box.setValue(12)
        self.bay = QCheckBox(f"Add a {BAY_WIDTH}×{BAY_HEIGHT} docking bay with 8 docks "
                             "at the south")
        self.bay.setChecked(True)
        self.bay.toggled.connect(self.limit_height)
        form = QFormLayout()
        form.addRow("Name", self.name)
        form.addRow("Width", self.width_box)
        form.addRow("Height", self.height_box)
        form.addRow("", self.bay)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(buttons)
        self.limit_height()

    def limit_height(self) -> None:
        self.height_box.setMaximum(100 - BAY_HEIGHT if self.bay.isChecked() else 100)

    def scenario(self) -> Scenario:
        return new_scenario(self.width_box.value(), self.height_box.value(),
                            self.name.text().strip() or "Untitled", self.bay.isChecked())
