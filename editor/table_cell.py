"""The cells of a QTableWidget that the editor filled itself."""
from __future__ import annotations

from PySide6.QtWidgets import QTableWidget, QTableWidgetItem


def cell(table: QTableWidget, row: int, column: int) -> QTableWidgetItem:
    """The item at (row, column), which the caller put there."""
    item = table.item(row, column)
    assert item is not None, (row, column)
    return item
