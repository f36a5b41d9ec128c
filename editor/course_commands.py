"""The editor's commands that make or take a course through a dialog: New,
New from Boards, New from Published Course, Import Tiled Map, Insert Board
and Export. New and New from Boards ask about unsaved changes before their
dialog.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QDialog

from rallyforge.drawing import pictures
from rallyforge.editor import commands, dialogs
from rallyforge.editor.insert_board_dialog import InsertBoardDialog
from rallyforge.editor.new_from_boards_dialog import NewFromBoardsDialog
from rallyforge.editor.new_from_published_dialog import NewFromPublishedDialog
from rallyforge.engine.format.tiled.convert import import_map
from rallyforge.engine.format.tiled.mapfile import MapError
from rallyforge.engine.model.scenario import Board

if TYPE_CHECKING:
    from rallyforge.editor.window_base import EditorWindow


class CourseCommands:
    def __init__(self, window: EditorWindow):
        self.window = window

    def new(self) -> None:
        if not self.window.files.maybe_save():
            return
        scenario = dialogs.get_new_course(self.window)
        if scenario is not None:
            self.window.files.new(scenario, ask=False)      # the view fits the new board

    def new_from_boards(self) -> None:
        """The assembled course opens over an empty board of its size, and the
        assembly is one undo step on it."""
        if not self.window.files.maybe_save():
            return
        dialog = NewFromBoardsDialog(self.window)
        course = dialog.scenario() if dialog.exec() == QDialog.DialogCode.Accepted else None
        if course is None:
            return
        blank = replace(course, board=Board(course.board.width, course.board.height), docks=(),
                        boards=())
        self.window.files.new(blank, ask=False)
        commands.change(self.window.doc, course, "Assemble boards")

    def new_from_published(self) -> None:
        """A published course opens as a new, unsaved document."""
        dialog = NewFromPublishedDialog(self.window)
        course = dialog.scenario() if dialog.exec() == QDialog.DialogCode.Accepted else None
        if course is not None:
            self.window.files.new(course)

    def import_map(self) -> None:
        path = dialogs.get_open_path(self.window, "Import Tiled Map", filter=dialogs.TILED_FILTER)
        if path is not None:
            self.import_map_file(path)

    def import_map_file(self, path: str, ask: bool = True) -> None:
        """The map as a new course, unsaved (it exists nowhere as a course yet);
        `ask=False` when the question about the current course was asked already."""
        try:
            imported = import_map(path)
        except MapError as exc:
            dialogs.show_error(self.window, "Import Tiled Map",
                               f"{Path(path).name} cannot be imported.", str(exc))
            return
        if self.window.files.new(imported.scenario, unsaved=True, ask=ask) and imported.warnings:
            name = Path(path).name
            details = "\n".join(w.line(name) for w in imported.warnings)
            lost = sum(not w.choice for w in imported.warnings)
            chosen = len(imported.warnings) - lost
            both_ends = (f"{chosen} laser{'s are' if chosen != 1 else ' is'} drawn with an "
                         "emitter at both ends: the course keeps one firing end of "
                         f"{'each' if chosen != 1 else 'it'}")
            if lost:
                text = f"{lost} things of {name} could not be placed as drawn"
                dialogs.show_warning(self.window, "Import Tiled Map",
                                     text + (f"; {both_ends}" if chosen else "")
                                     + " (see the details).", details)
            else:
                dialogs.show_info(self.window, "Import Tiled Map",
                                  f"{name}: {both_ends} (see the details).", details)

    def insert_board(self) -> None:
        dialog = InsertBoardDialog(self.window.doc, self.window)
        dialog.exec()

    def export(self, fmt: str) -> None:
        doc = self.window.doc
        stem = Path(doc.path).stem if doc.path else (doc.scenario.name or "course")
        start = f"{stem}.{fmt}"
        if doc.path:
            start = str(Path(doc.path).with_name(start))
        path = dialogs.get_save_path(self.window, f"Export {fmt.upper()}", start,
                                     f"{fmt.upper()} files (*.{fmt})")
        if path is None:
            return
        if not path.lower().endswith("." + fmt):
            path += "." + fmt
        options = {}
        if fmt == "pdf":
            chosen = dialogs.get_pdf_options(self.window)
            if chosen is None:
                return
            options["square_mm"], options["paper"] = chosen
        try:
            pictures.export(doc.scenario, path, **options)
        except (OSError, ValueError) as exc:
            dialogs.show_error(self.window, "Export failed",
                               f"{Path(path).name} could not be written: {exc}")
            return
        self.window.statusBar().showMessage(f"Exported {path}", 5000)
