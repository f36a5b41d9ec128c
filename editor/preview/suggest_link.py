"""The Suggest Fixes dialog in the editor window: the suggestion chosen is
drawn on the board as a ghost (suggest_ghost.py) and applied as one undo
step, only while the course still races as the one searched.
"""
from __future__ import annotations

from PySide6.QtCore import QObject

from rallyforge.editor import commands

from .race_worker import race_inputs
from .suggest_ghost import SuggestionGhost


class SuggestLink(QObject):
    def __init__(self, window, parent=None):
        super().__init__(parent)
        self.window, self.doc = window, window.doc
        self.ghost = SuggestionGhost()
        window.view.scene().addItem(self.ghost)
        self.dialog = None

    def open_dialog(self):
        from .suggest_dialog import SuggestDialog
        if self.dialog is None:
            self.dialog = SuggestDialog(lambda: self.doc.scenario, self.window)
            self.dialog.previewRequested.connect(self.preview)
            self.dialog.applyRequested.connect(self.apply)
            self.dialog.issuesRequested.connect(self.window.show_issues)
        self.dialog.bring_up()
        return self.dialog

    def open_for(self, robots: int) -> None:
        """The balance dialog's Suggest Fixes: the search dialog, for as many
        robots per race as the balance check, ready to start."""
        dialog = self.open_dialog()
        if dialog.worker is None:
            dialog.robots.setValue(robots)

    def _fitting(self, searched, suggestion):
        """The course with `suggestion` applied, if the course still races as
        the one searched (names and notes may have changed), else None."""
        if suggestion is None or searched is None or \
                race_inputs(searched) != race_inputs(self.doc.scenario):
            return None
        from rallyforge.engine.analysis.suggest import applied
        return applied(self.doc.scenario, suggestion)

    def preview(self, searched, suggestion) -> None:
        self.ghost.show_edit(self.doc.scenario, self._fitting(searched, suggestion))

    def apply(self, searched, suggestion) -> None:
        """Apply a suggestion as one undo step, if it still fits the course."""
        dialog = self.dialog
        assert dialog is not None               # the suggestion came from it
        after = self._fitting(searched, suggestion)
        if after is None:
            dialog.status.setText("The course has changed since the search: "
                                  "search again for suggestions that fit it.")
            return
        words = "; ".join(e["words"] for e in suggestion["edits"])
        commands.change(self.doc, after, f"Suggested fix: {words}")
        dialog.status.setText(f"Applied: {words}. Undo takes it back.")

    def course_changed(self, scenario) -> None:
        if self.dialog is not None:
            self.dialog.refresh_course()
        self.ghost.show_edit(scenario, None)

    def shutdown(self) -> None:
        """Stop the search (the window is closing)."""
        if self.dialog is not None and self.dialog.worker is not None:
            self.dialog.worker.cancel()
            self.dialog.worker.wait(10000)
