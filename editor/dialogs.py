"""Every question and message box of the editor, as small functions, so that
tests can replace them (monkeypatch editor.dialogs.NAME) and never block."""
from __future__ import annotations

from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox

FILTER = "Rally scenarios (*.json);;All files (*)"
TILED_FILTER = "Tiled maps (*.tmx *.json);;All files (*)"


def ask_save_changes(parent, name: str) -> str:
    """'save', 'discard' or 'cancel'."""
    answer = QMessageBox.question(
        parent, "Unsaved changes", f"Save the changes to {name}?",
        QMessageBox.Save | QMessageBox.Discard | QMessageBox.Cancel, QMessageBox.Save)
    return {QMessageBox.Save: "save", QMessageBox.Discard: "discard"}.get(answer, "cancel")


def ask_restore_autosave(parent, name: str, when: str, note: str = "") -> bool:
    answer = QMessageBox.question(
        parent, "Recover unsaved work",
        f"There is an automatic backup of {name} from {when}, with changes that were never "
        f"saved.{' ' + note if note else ''}\n\nRestore it? (No deletes the backup.)",
        QMessageBox.Yes | QMessageBox.No, QMessageBox.Yes)
    return answer == QMessageBox.Yes


def open_elsewhere_box(parent, name: str, owner: str) -> QMessageBox:
    box = QMessageBox(QMessageBox.Warning, "File open elsewhere",
                      f"{name} is open in {owner}.", QMessageBox.NoButton, parent)
    box.setInformativeText("Open it here too? Changes made here are not backed up "
                           "automatically, and the backup of the other editor stays its own. "
                           "Saving in one asks before writing over what the other saved.")
    box.addButton("Open Here Too", QMessageBox.AcceptRole)
    box.setDefaultButton(box.addButton(QMessageBox.Cancel))
    return box


def ask_open_elsewhere(parent, name: str, owner: str) -> bool:
    """Before opening a file whose backup another window or editor owns."""
    box = open_elsewhere_box(parent, name, owner)
    box.exec()
    return box.buttonRole(box.clickedButton()) == QMessageBox.AcceptRole


def changed_on_disk_box(parent, name: str) -> QMessageBox:
    box = QMessageBox(QMessageBox.Warning, "File changed on disk",
                      f"{name} has changed on disk since it was opened or last saved here "
                      "(another program or window wrote it).", QMessageBox.NoButton, parent)
    box.setInformativeText("Overwrite it with this course, losing those changes, or save this "
                           "course under another name?")
    box.addButton("Overwrite", QMessageBox.DestructiveRole)
    box.addButton("Save As…", QMessageBox.AcceptRole)
    box.setDefaultButton(box.addButton(QMessageBox.Cancel))
    return box


def ask_overwrite_changed(parent, name: str) -> str:
    """'overwrite', 'save_as' or 'cancel', before saving over a file changed on disk."""
    box = changed_on_disk_box(parent, name)
    box.exec()
    return {QMessageBox.DestructiveRole: "overwrite",
            QMessageBox.AcceptRole: "save_as"}.get(box.buttonRole(box.clickedButton()), "cancel")


def ask_revert(parent, name: str) -> bool:
    answer = QMessageBox.question(parent, "Revert", f"Discard every change to {name} since it "
                                  "was saved?", QMessageBox.Yes | QMessageBox.No, QMessageBox.No)
    return answer == QMessageBox.Yes


def ask_save_dropped(parent, name: str, dropped: str) -> bool:
    """Before the first save of a file that could not be read whole."""
    answer = QMessageBox.question(
        parent, "Save without what could not be read",
        f"{dropped} of {name} could not be read (see the Issues panel). Saving writes the course "
        "without them, for good.\n\nSave anyway?", QMessageBox.Save | QMessageBox.Cancel,
        QMessageBox.Cancel)
    return answer == QMessageBox.Save


def show_error(parent, title: str, text: str, details: str = "") -> None:
    box = QMessageBox(QMessageBox.Critical, title, text, QMessageBox.Ok, parent)
    if details:
        box.setDetailedText(details)
    box.exec()


def show_warning(parent, title: str, text: str, details: str = "") -> None:
    box = QMessageBox(QMessageBox.Warning, title, text, QMessageBox.Ok, parent)
    if details:
        box.setDetailedText(details)
    box.exec()


def get_open_path(parent, title: str = "Open Scenario", directory: str = "",
                  filter: str = FILTER) -> str | None:
    path, _ = QFileDialog.getOpenFileName(parent, title, directory, filter)
    return path or None


def get_save_path(parent, title: str = "Save Scenario As", directory: str = "",
                  filter: str = FILTER) -> str | None:
    path, _ = QFileDialog.getSaveFileName(parent, title, directory, filter)
    return path or None


def get_pdf_options(parent, square_mm: float = 25.0, paper: str = "A4"):
    """(square size in mm, paper name) for a PDF export, or None when cancelled."""
    from PySide6.QtWidgets import (
        QComboBox, QDialog, QDialogButtonBox, QDoubleSpinBox, QFormLayout,
    )

    from editor.export import PAPERS
    dialog = QDialog(parent)
    dialog.setWindowTitle("Export PDF")
    size = QDoubleSpinBox()
    size.setRange(5.0, 100.0)
    size.setDecimals(1)
    size.setSuffix(" mm")
    size.setValue(square_mm)
    papers = QComboBox()
    papers.addItems(list(PAPERS))
    papers.setCurrentText(paper)
    buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
    buttons.accepted.connect(dialog.accept)
    buttons.rejected.connect(dialog.reject)
    form = QFormLayout(dialog)
    form.addRow("Square size", size)
    form.addRow("Paper", papers)
    form.addRow(buttons)
    if dialog.exec() != QDialog.Accepted:
        return None
    return size.value(), papers.currentText()


def get_new_course(parent):
    """The course of File > New, or None when cancelled."""
    from editor.new_dialog import NewDialog
    dialog = NewDialog(parent)
    return dialog.scenario() if dialog.exec() == NewDialog.Accepted else None
