"""The document: the scenario being edited, its file and its undo stack.

The scenario is an immutable value. The only way to change it is to push a
command (editor/commands.py) on `undo_stack`; the document then emits
`changed(area)` with the squares touched (x0, y0, x1, y1 inclusive), or None
when anything may have changed. `scenarioReplaced` says a different course
was loaded (New, Open, Revert): views drop their selections and caches.
"""
from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack

from rallyforge.engine.editing import edit
from rallyforge.engine.model.problems import Problem
from rallyforge.engine.model.scenario import Board, Scenario


# The pointer of a list item of the file: a tile, wall, flag, robot...
ELEMENT_POINTER = re.compile(r"^/(board/[a-z_]+|flags|docks|robots|checks)/\d+")


def empty_scenario(width: int = 12, height: int = 12, name: str = "Untitled") -> Scenario:
    return Scenario(name=name, board=Board(width, height), flags=(), docks=())


class Document(QObject):
    changed = Signal(object)        # area (x0, y0, x1, y1) or None
    scenarioReplaced = Signal()
    pathChanged = Signal()
    modifiedChanged = Signal(bool)
    cleanReached = Signal()         # equal to the file again: saved, or undone back to it

    def __init__(self, scenario: Scenario | None = None, path: str | None = None, parent=None):
        super().__init__(parent)
        self._scenario = edit.canonical(scenario or empty_scenario())
        self._path = path
        # Problems found when the file was read; they stand until it is saved.
        self.load_problems: list[Problem] = []
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._clean_changed)

    def _clean_changed(self, clean: bool) -> None:
        self.modifiedChanged.emit(not clean)
        if clean and self.undo_stack.count():   # (an emptied stack is another course coming)
            self.cleanReached.emit()

    @property
    def scenario(self) -> Scenario:
        return self._scenario

    @property
    def path(self) -> str | None:
        return self._path

    @property
    def display_name(self) -> str:
        """The file's name; a course not saved yet goes by its own name."""
        if self._path:
            return Path(self._path).name
        return self._scenario.name.strip() or "Untitled"

    @property
    def modified(self) -> bool:
        return not self.undo_stack.isClean()

    def push(self, command) -> None:
        self.undo_stack.push(command)

    def apply(self, scenario: Scenario, area=None) -> None:
        """Set the scenario; only commands call this (from redo and undo)."""
        self._scenario = scenario
        self.changed.emit(area)

    def reset(self, scenario: Scenario, path: str | None,
              problems: list[Problem] | None = None) -> None:
        """Start over with another course: an empty history, clean."""
        self._scenario = edit.canonical(scenario)
        self.load_problems = list(problems or [])
        self.undo_stack.clear()
        self.set_path(path)
        self.scenarioReplaced.emit()
        self.changed.emit(None)
        self.modifiedChanged.emit(False)

    @property
    def dropped(self) -> str:
        """What of the opened file the course does not hold ("2 elements and 1
        value"; "" when nothing was dropped): every error found on reading
        it left something out."""
        elements, values = set(), 0
        for p in self.load_problems:
            if not p.is_error:
                continue
            match = ELEMENT_POINTER.match(p.pointer)
            if match:
                elements.add(match.group(0))
            else:
                values += 1
        parts = [f"{n} {word}{'s' * (n != 1)}" for n, word in
                 ((len(elements), "element"), (values, "other value")) if n]
        return " and ".join(parts)

    def set_path(self, path: str | None) -> None:
        self._path = path
        self.pathChanged.emit()

    def mark_saved(self, path: str) -> None:
        self.load_problems = []
        self.set_path(path)
        self.undo_stack.setClean()
