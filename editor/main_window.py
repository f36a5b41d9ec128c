"""The course editor's main window: the board in the middle, the tools on a
toolbar, the panels in docks around it, and the menus; what the title and
the banner over the board say; the tool in hand and the edits of the Edit
menu.

Its parts: window_menus.py (actions, menus, toolbars, help windows),
window_docks.py (the panels in docks), window_status.py (the status bar),
course_commands.py (New, Import, Insert Board, Export: courses made or
taken through a dialog), files.py (open, save, backups). The parts are typed
with window_base.py's EditorWindow, what they use of the window, which
MainWindow inherits.

Layout for anyone adding to it: `docks.add_panel(widget, title, area)` docks
a panel (and lists it under View > Panels); `menus.by_name` maps "file",
"edit", "view", "tools", "help" to the menus and `menus.action(...)` makes
an action; overlays go on `view.scene()` at the z-orders listed in
editor/board_view.py.
"""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QLabel, QVBoxLayout, QWidget

from rallyforge.editor import commands
from rallyforge.editor.board_view import BoardView
from rallyforge.editor.course_card_panel import CourseCardPanel
from rallyforge.editor.course_commands import CourseCommands
from rallyforge.editor.document import Document
from rallyforge.editor.edit_state import EditState
from rallyforge.editor.files import Files
from rallyforge.editor.help import APP_NAME
from rallyforge.editor.history_panel import history_view
from rallyforge.editor.inspector import Inspector
from rallyforge.editor.issues_panel import IssuesPanel
from rallyforge.editor.markers_panel import MarkersPanel
from rallyforge.editor.palette import Palette
from rallyforge.editor.preview import install_preview
from rallyforge.editor.scenario_panel import ScenarioPanel
from rallyforge.editor.selection import SelectionActions
from rallyforge.editor.tools import PAINT_TOOLS, TOOLS
from rallyforge.editor.window_base import EditorWindow
from rallyforge.editor.window_docks import WindowDocks
from rallyforge.editor.window_menus import WindowMenus
from rallyforge.editor.window_status import WindowStatus
from rallyforge.engine.editing import edit
from rallyforge.engine.model.scenario import MAX_LEVEL

OTHER_WINDOWS: set = set()      # windows opened by another (kept from the garbage collector)


class MainWindow(EditorWindow):
    def __init__(self, path: str | None = None, parent=None, recovered=None):
        """`recovered`: untitled work (scenario, backup) recovered by another window."""
        super().__init__(parent)
        self.doc = Document(parent=self)
        self.state = EditState(self)
        self.view = BoardView(self.doc, self.state)
        self.load_banner = QLabel()     # what of the opened file could not be read
        self.load_banner.setWordWrap(True)
        self.load_banner.setStyleSheet("background: #fff3cd; color: #6b4e00; padding: 6px; "
                                       "border-bottom: 1px solid #e0c070")
        self.load_banner.hide()
        centre = QWidget()
        column = QVBoxLayout(centre)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(self.load_banner)
        column.addWidget(self.view)
        self.setCentralWidget(centre)
        self.files = Files(self, self.doc, self)
        self.selection = SelectionActions(self.doc, self.state, self.view,
                                          lambda text: self.statusBar().showMessage(text, 10000))
        self.tools = {tool_id: cls(self.doc, self.view, self.state)
                      for tool_id, cls in TOOLS.items()}
        self.commands = CourseCommands(self)
        self.docks = WindowDocks(self)

        self.element_palette = Palette(self.state)
        self.inspector = Inspector(self.doc, self.state)
        self.scenario_panel = ScenarioPanel(self.doc)
        self.markers_panel = MarkersPanel(self.doc, self.state, self.view)
        self.issues = IssuesPanel(self.doc)
        self.history = history_view(self.doc)
        self.card_panel = CourseCardPanel(self.doc)

        self.menus = WindowMenus(self, self.commands, self.docks.panels_menu)
        self.docks.lay_out_panels()
        self.status = WindowStatus(self)

        self.doc.modifiedChanged.connect(lambda modified: self.update_title())
        self.doc.modifiedChanged.connect(lambda modified: self.update_load_banner())
        self.doc.pathChanged.connect(self.update_title)
        self.doc.changed.connect(lambda area: self.update_title())
        self.issues.validator.finished.connect(self.show_issue_outlines)
        self.issues.problemActivated.connect(self.go_to_problem)
        self.element_palette.toolChosen.connect(self.request_tool)
        self.state.toolRequested.connect(self.request_tool)
        self.files.recentChanged.connect(self.menus.update_recent)
        self.card_panel.issuesRequested.connect(self.show_issues)

        self.resize(1400, 900)
        self.set_tool("brush")
        self.files.recoveredElsewhere.connect(self.open_recovered)
        self.files.mapChosen.connect(lambda path: self.commands.import_map_file(path, ask=False))
        if path is not None:
            self.files.load(path)
        if recovered is not None:
            self.files.adopt_untitled(*recovered)
        else:
            self.files.offer_untitled_work()
        self.update_title()
        self.menus.update_recent()
        self.preview = install_preview(self)
        self.preview.balance.measured.connect(self.card_panel.show_measured)
        self.menus.add_help_menu()
        self.view.fit()
        self._fitted_on_show = False

    def open_recovered(self, scenario, backup) -> None:
        """Untitled work recovered at start, in a window of its own."""
        window = type(self)(recovered=(scenario, backup))
        window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        OTHER_WINDOWS.add(window)
        window.destroyed.connect(lambda: OTHER_WINDOWS.discard(window))
        window.show()

    # ------------------------------------------------------------ tools

    @property
    def tool_id(self) -> str:
        return next(t for t, tool in self.tools.items() if tool is self.view.tool)

    def set_tool(self, tool_id: str) -> None:
        self.menus.tool_actions[tool_id].setChecked(True)
        self.view.set_tool(self.tools[tool_id])
        self.element_palette.show_tool(tool_id)
        self.show_level_marks()

    def show_level_marks(self) -> None:
        """Level numbers on the board: asked for in the View menu, or the Level tool in hand."""
        self.view.board_item.set_level_marks(self.menus.actions["level_marks"].isChecked()
                                             or self.tool_id == "level")

    def request_tool(self, tool_id: str) -> None:
        """A palette click or a tool asks for a tool; "paint" keeps any tool
        that paints the brush."""
        if tool_id == "paint":
            if self.tool_id not in PAINT_TOOLS:
                self.set_tool("brush")
            else:
                self.element_palette.show_tool(self.tool_id)
        else:
            self.set_tool(tool_id)

    def turn(self, quarter_turns: int) -> None:
        if self.state.selection is not None and self.tool_id == "select":
            self.selection.turn(quarter_turns)
        else:
            self.state.rotate_brush(quarter_turns)

    def shift_levels(self, delta: int) -> None:
        """Page Up / Page Down: the selected squares one level up or down."""
        rect = self.state.selection
        if rect is None:
            self.statusBar().showMessage("Select squares to raise or lower them", 5000)
            return
        x0, y0, x1, y1 = rect
        squares = [(x, y) for y in range(y0, y1 + 1) for x in range(x0, x1 + 1)]
        board = edit.shift_levels(self.doc.scenario.board, squares, delta)
        if board == self.doc.scenario.board:
            self.statusBar().showMessage(
                f"Not raised: level {MAX_LEVEL} is the highest" if delta > 0 else
                "Not lowered: the ground (level 0) is the lowest", 5000)
            return
        commands.change(self.doc, edit.with_board(self.doc.scenario, board),
                        "Raise level" if delta > 0 else "Lower level", rect)

    def mirror(self, axis: str) -> None:
        if self.state.selection is not None and self.tool_id == "select":
            self.selection.turn(mirror=axis)
        else:
            self.state.mirror_brush(axis)

    def select_all(self) -> None:
        b = self.doc.scenario.board
        self.set_tool("select")
        self.state.set_selection((0, 0, b.width - 1, b.height - 1))

    def paste(self) -> None:
        if self.selection.paste(self.view.hovered):
            self.set_tool("select")

    # ------------------------------------------------------------ feedback

    def update_title(self) -> None:
        mark = "*" if self.doc.modified else ""
        self.setWindowTitle(f"{self.doc.display_name}{mark} — {APP_NAME}")
        self.menus.actions["revert"].setEnabled(self.doc.path is not None and self.doc.modified)

    def update_load_banner(self) -> None:
        dropped = self.doc.dropped
        self.load_banner.setVisible(bool(dropped))
        self.load_banner.setText(
            f"<b>{dropped} of this file could not be read</b> and are not on the board (the "
            "Issues panel lists them). Saving writes the course without them; you will be "
            "asked first." if dropped else "")

    def show_issue_outlines(self, problems) -> None:
        self.view.issue_overlay.set_problems([p for p in self.issues.problems if not p.accepted])

    def show_issues(self) -> None:
        """The Issues panel in front, in this window brought to the front."""
        dock = self.findChild(QDockWidget, "issues")
        assert dock is not None     # made in __init__
        dock.show()
        dock.raise_()
        self.raise_()
        self.activateWindow()

    def go_to_problem(self, problem) -> None:
        if problem is None or problem.x is None or problem.y is None:
            return
        if not self.doc.scenario.board.in_bounds(problem.x, problem.y):
            return
        self.set_tool("select")
        self.state.set_selection((problem.x, problem.y, problem.x, problem.y))
        self.state.inspect((problem.x, problem.y))
        self.view.centre_on_square(problem.x, problem.y)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self._fitted_on_show:     # the view has its real size only once shown
            self._fitted_on_show = True
            self.docks.hide_stale_tab_bars()
            self.view.fit()

    def closeEvent(self, event) -> None:
        if self.files.close():
            self.issues.validator.wait()
            self.preview.shutdown()
            event.accept()
        else:
            event.ignore()
