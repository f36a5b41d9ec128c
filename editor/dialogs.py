"""Every question and message box of the editor, as small functions, so that
tests can replace them (monkeypatch rallyforge.editor.dialogs.NAME) and never block."""
from __future__ import annotations

from PySide6.QtWidgets import QFileDialog, QMessageBox

FILTER = "Rally scenarios (*.json);;All files (*)"
TILED_FILTER = "Tiled maps (*.tmx *.json);;All files (*)"


def ask_save_changes(parent, name: str) -> str:
    """'save', 'discard' or 'cancel'."""
    answer = QMessageBox.question(
        parent, "Unsaved changes", f"Save the changes to {name}?",
        QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
        | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Save)
    return {QMessageBox.StandardButton.Save: "save",
            QMessageBox.StandardButton.Discard: "discard"}.get(answer, "cancel")


def ask_import_map(parent, name: str) -> bool:
    """A Tiled map was opened as a course: import it?"""
    box = QMessageBox(QMessageBox.Icon.Question, "Open", f"{name} is a Tiled map, not a course.",
                      QMessageBox.StandardButton.Cancel, parent)
    box.setInformativeText("Import it as a new course? (File > Import Tiled Map does the same.)")
    button = box.addButton("Import", QMessageBox.ButtonRole.AcceptRole)
    box.setDefaultButton(button)
    box.exec()
    return box.clickedButton() is button


def ask_restore_autosave(parent, name: str, when: str, note: str = "") -> bool:
    answer = QMessageBox.question(
        parent, "Recover unsaved work",
        f"There is an automatic backup of {name} from {when}, with changes that were never "
        f"saved.{' ' + note if note else ''}\n\nRestore it? (No deletes the backup.)",
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        QMessageBox.StandardButton.Yes)
    return answer == QMessageBox.StandardButton.Yes


def open_elsewhere_box(parent, name: str, owner: str) -> QMessageBox:
    box = QMessageBox(QMessageBox.Icon.Warning, "File open elsewhere",
                      f"{name} is open in {owner}.", QMessageBox.StandardButton.NoButton, parent)
    box.setInformativeText("Open it here too? Changes made here are not backed up "
                           "automatically, and the backup of the other editor stays its own. "
                           "Saving in one asks before writing over what the other saved.")
    box.addButton("Open Here Too", QMessageBox.ButtonRole.AcceptRole)
    box.setDefaultButton(box.addButton(QMessageBox.StandardButton.Cancel))
    return box


def ask_open_elsewhere(parent, name: str, owner: str) -> bool:
    """Before opening a file whose backup another window or editor owns."""
    box = open_elsewhere_box(parent, name, owner)
    box.exec()
    return box.buttonRole(box.clickedButton()) == QMessageBox.ButtonRole.AcceptRole


def changed_on_disk_box(parent, name: str) -> QMessageBox:
    box = QMessageBox(QMessageBox.Icon.Warning, "File changed on disk",
                      f"{name} has changed on disk since it was opened or last saved here "
                      "(another program or window wrote it).",
                      QMessageBox.StandardButton.NoButton, parent)
    box.setInformativeText("Overwrite it with this course, losing those changes, or save this "
                           "course under another name?")
    box.addButton("Overwrite", QMessageBox.ButtonRole.DestructiveRole)
    box.addButton("Save As…", QMessageBox.ButtonRole.AcceptRole)
    box.setDefaultButton(box.addButton(QMessageBox.StandardButton.Cancel))
    return box


def ask_overwrite_changed(parent, name: str) -> str:
    """'overwrite', 'save_as' or 'cancel', before saving over a file changed on disk."""
    box = changed_on_disk_box(parent, name)
    box.exec()
    return {QMessageBox.ButtonRole.DestructiveRole: "overwrite",
            QMessageBox.ButtonRole.AcceptRole: "save_as"}.get(
                box.buttonRole(box.clickedButton()), "cancel")


def ask_revert(parent, name: str) -> bool:
    answer = QMessageBox.question(parent, "Revert", f"Discard every change to {name} since it "
                                  "was saved?",
                                  QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                                  QMessageBox.StandardButton.No)
    return answer == QMessageBox.StandardButton.Yes


def ask_save_dropped(parent, name: str, dropped: str) -> bool:
    """Before the first save of a file that could not be read whole."""
    answer = QMessageBox.question(
        parent, "Save without what could not be read",
        f"{dropped} of {name} could not be read (see the Issues panel). Saving writes the course "
        "without them, for good.\n\nSave anyway?",
        QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Cancel,
        QMessageBox.StandardButton.Cancel)
    return answer == QMessageBox.StandardButton.Save


def show_error(parent, title: str, text: str, details: str = "") -> None:
    _show(QMessageBox.Icon.Critical, parent, title, text, details)


def show_warning(parent, title: str, text: str, details: str = "") -> None:
    _show(QMessageBox.Icon.Warning, parent, title, text, details)


def show_info(parent, title: str, text: str, details: str = "") -> None:
    _show(QMessageBox.Icon.Information, parent, title, text, details)


def _show(icon, parent, title: str, text: str, details: str) -> None:
    box = QMessageBox(icon, title, text, QMessageBox.StandardButton.Ok, parent)
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

    from rallyforge.drawing.pictures import PAPERS
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
    buttons = QDialogButtonBox(
        QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
    buttons.accepted.connect(dialog.accept)
    buttons.rejected.connect(dialog.reject)
    form = QFormLayout(dialog)
    form.addRow("Square size", size)
    form.addRow("Paper", papers)
    form.addRow(buttons)
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return None
    return size.value(), papers.currentText()


def get_new_course(parent):
    """The course of File > New, or None when cancelled."""
    from rallyforge.editor.new_dialog import NewDialog
    dialog = NewDialog(parent)
    return dialog.scenario() if dialog.exec() == NewDialog.DialogCode.Accepted else None
