"""What the editor window's parts use of the window: the document, the edit
state, the view, the files, the tools and panels, and the edits of the Edit
menu. MainWindow (main_window.py) inherits it and makes the parts
(window_menus.py, window_docks.py, window_status.py, course_commands.py),
which are typed with this class: they never import the window that makes
them.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QMainWindow

if TYPE_CHECKING:
    from PySide6.QtWidgets import QUndoView

    from rallyforge.editor.board_view import BoardView
    from rallyforge.editor.course_card_panel import CourseCardPanel
    from rallyforge.editor.document import Document
    from rallyforge.editor.edit_state import EditState
    from rallyforge.editor.files import Files
    from rallyforge.editor.inspector import Inspector
    from rallyforge.editor.issues_panel import IssuesPanel
    from rallyforge.editor.markers_panel import MarkersPanel
    from rallyforge.editor.palette import Palette
    from rallyforge.editor.scenario_panel import ScenarioPanel
    from rallyforge.editor.selection import SelectionActions
    from rallyforge.editor.tools.base import Tool


class EditorWindow(QMainWindow):
    doc: Document
    state: EditState
    view: BoardView
    files: Files
    selection: SelectionActions
    tools: dict[str, Tool]             # by tool id (tools.TOOLS)
    # the panels in docks
    element_palette: Palette
    inspector: Inspector
    scenario_panel: ScenarioPanel
    markers_panel: MarkersPanel
    issues: IssuesPanel
    history: QUndoView
    card_panel: CourseCardPanel

    def set_tool(self, tool_id: str) -> None:
        """The tool `tool_id` in hand."""
        raise NotImplementedError

    def show_level_marks(self) -> None:
        """Level numbers on the board, or none, as the View menu and the tool in hand ask."""
        raise NotImplementedError

    def turn(self, quarter_turns: int) -> None:
        """The selection, or the brush, turned clockwise (negative: anticlockwise)."""
        raise NotImplementedError

    def mirror(self, axis: str) -> None:
        """The selection, or the brush, mirrored ("horizontal" or "vertical")."""
        raise NotImplementedError

    def shift_levels(self, delta: int) -> None:
        """The selected squares `delta` levels up (or down)."""
        raise NotImplementedError

    def select_all(self) -> None:
        raise NotImplementedError

    def paste(self) -> None:
        raise NotImplementedError
