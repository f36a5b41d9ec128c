"""The course editor's main window: the board in the middle, the tools on a
toolbar, the panels in docks around it, and the menus.

Layout for anyone adding to it: `add_panel(widget, title, area)` docks a
panel (and lists it under View > Panels); `menus` maps "file", "edit",
"view", "tools", "help" to the menus; overlays go on `view.scene()` at the z-orders
listed in editor/board_view.py.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import (
    QDialog, QDockWidget, QLabel, QMainWindow, QMenu, QStyle, QTabBar, QToolBar, QVBoxLayout,
    QWidget,
)

from rallyforge.drawing import pictures
from rallyforge.editor import commands, dialogs, help
from rallyforge.editor.board_view import BoardView
from rallyforge.editor.card_panel import CardPanel
from rallyforge.editor.document import Document
from rallyforge.editor.edit_state import EditState
from rallyforge.editor.files import Files
from rallyforge.editor.history_panel import history_view
from rallyforge.editor.icons import tool_icon
from rallyforge.editor.insert_board_dialog import InsertBoardDialog
from rallyforge.editor.new_from_boards_dialog import NewFromBoardsDialog
from rallyforge.editor.new_from_published_dialog import NewFromPublishedDialog
from rallyforge.editor.inspector import Inspector
from rallyforge.editor.issues_panel import IssuesPanel
from rallyforge.editor.markers_panel import MarkersPanel
from rallyforge.editor.palette import Palette
from rallyforge.editor.preview import install_preview
from rallyforge.editor.scenario_panel import ScenarioPanel
from rallyforge.editor.selection import SelectionActions
from rallyforge.editor.tools import PAINT_TOOLS, TOOLS
from rallyforge.engine.editing import edit
from rallyforge.engine.format.tiled.convert import import_map
from rallyforge.engine.format.tiled.mapfile import MapError
from rallyforge.engine.model.element_kinds import FLAG, REGISTERS, TILES
from rallyforge.engine.model.scenario import MAX_LEVEL, Board

APP_NAME = "Rally Forge"
OTHER_WINDOWS: set = set()      # windows opened by another (kept from the garbage collector)


class MainWindow(QMainWindow):
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
        self.menus: dict[str, QMenu] = {}
        self.panels_menu = QMenu("&Panels", self)

        self.element_palette = Palette(self.state)
        self.inspector = Inspector(self.doc, self.state)
        self.scenario_panel = ScenarioPanel(self.doc)
        self.markers_panel = MarkersPanel(self.doc, self.state, self.view)
        self.issues = IssuesPanel(self.doc)
        self.history = history_view(self.doc)
        self.card_panel = CardPanel(self.doc)

        self.setup_actions()
        self.setup_menus()
        self.setup_toolbars()
        self.setup_panels()
        self.setup_status_bar()

        self.doc.modifiedChanged.connect(lambda modified: self.update_title())
        self.doc.modifiedChanged.connect(lambda modified: self.update_load_banner())
        self.doc.pathChanged.connect(self.update_title)
        self.doc.changed.connect(lambda area: self.update_title())
        self.issues.validator.finished.connect(self.show_issue_outlines)
        self.issues.problemActivated.connect(self.go_to_problem)
        self.element_palette.toolChosen.connect(self.request_tool)
        self.state.toolRequested.connect(self.request_tool)
        self.files.recentChanged.connect(self.update_recent_menu)

        self.resize(1400, 900)
        self.set_tool("brush")
        self.files.recoveredElsewhere.connect(self.open_recovered)
        self.files.mapChosen.connect(lambda path: self.import_map_file(path, ask=False))
        if path is not None:
            self.files.load(path)
        if recovered is not None:
            self.files.adopt_untitled(*recovered)
        else:
            self.files.offer_untitled_work()
        self.update_title()
        self.update_recent_menu()
        self.preview = install_preview(self)
        self.preview.balanceMeasured.connect(self.card_panel.show_measured)
        self.setup_help_menu()
        self.view.fit()
        self._fitted_on_show = False

    # ------------------------------------------------------------ actions

    def action(self, text: str, slot, shortcut=None, tip: str = "",
               checkable: bool = False) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if tip:
            action.setStatusTip(tip)
            action.setToolTip(tip)
        action.setCheckable(checkable)
        action.triggered.connect(slot)
        return action

    def setup_actions(self) -> None:
        f, k = self.files, QKeySequence
        self.menu_actions = {
            "new": self.action("&New…", self.new, k.StandardKey.New),
            "new_from_boards": self.action("New from &Boards…", self.new_from_boards,
                                           tip="A course from library boards and a docking bay"),
            "new_from_published": self.action(
                "New from &Published Course…", self.new_from_published,
                tip="A course of the game's course manual, with its printed ratings"),
            "import_map": self.action("&Import Tiled Map…", self.import_map,
                                      tip="Read a Tiled map (TMX or JSON) of this game"),
            "open": self.action("&Open…", lambda: f.open(), k.StandardKey.Open),
            "save": self.action("&Save", f.save, k.StandardKey.Save),
            "save_as": self.action("Save &As…", f.save_as, k.StandardKey.SaveAs),
            "revert": self.action("&Revert", f.revert, tip="Reload the file, dropping the changes"),
            "insert_board": self.action("&Insert Board…", self.insert_board,
                                        tip="Stamp another course's board into this one"),
            "export_png": self.action("PNG Image…", lambda: self.export("png")),
            "export_svg": self.action("SVG Drawing…", lambda: self.export("svg")),
            "export_pdf": self.action("PDF Document…", lambda: self.export("pdf")),
            "quit": self.action("&Quit", self.close, "Ctrl+Q"),
            "cut": self.action("Cu&t", self.selection.cut, k.StandardKey.Cut),
            "copy": self.action("&Copy", self.selection.copy, k.StandardKey.Copy),
            "paste": self.action("&Paste", self.paste, k.StandardKey.Paste),
            "delete": self.action("&Delete", lambda: self.selection.delete(), k.StandardKey.Delete),
            "select_all": self.action("Select &All", self.select_all, k.StandardKey.SelectAll),
            "select_none": self.action("Select &None", lambda: self.state.set_selection(None),
                                       "Ctrl+Shift+A"),
            "rotate_right": self.action("Rotate &Right", lambda: self.turn(1), "Z",
                                        "Turn the selection, or the brush direction, clockwise"),
            "rotate_left": self.action("Rotate &Left", lambda: self.turn(-1), "Shift+Z",
                                       "Turn the selection, or the brush direction, anticlockwise"),
            "raise": self.action("Raise &Level", lambda: self.shift_levels(1), "PgUp",
                                 "Raise the selected squares one level"),
            "lower": self.action("Lower L&evel", lambda: self.shift_levels(-1), "PgDown",
                                 "Lower the selected squares one level"),
            "mirror_h": self.action("Mirror &Horizontally", lambda: self.mirror("horizontal"), "X"),
            "mirror_v": self.action("Mirror &Vertically", lambda: self.mirror("vertical"), "Y"),
            "zoom_in": self.action("Zoom &In", self.view.zoom_in, k.StandardKey.ZoomIn),
            "zoom_out": self.action("Zoom &Out", self.view.zoom_out, k.StandardKey.ZoomOut),
            "zoom_fit": self.action("&Fit Board", self.view.fit, "Ctrl+0"),
            "zoom_100": self.action("&Actual Size", lambda: self.view.set_zoom(1.0), "Ctrl+1"),
            "grid": self.action("Show &Grid", self.view.board_item.set_grid, "Ctrl+G",
                                checkable=True),
            "level_marks": self.action("Show &Level Numbers", lambda: self.show_level_marks(),
                                       tip="Number every raised square and outline the ledges "
                                           "(always shown with the Level tool, and in exports)",
                                       checkable=True),
            "shortcuts": self.action("&Keyboard Shortcuts", self.show_shortcuts,
                                     k.StandardKey.HelpContents),
            "format_page": self.action("The File &Format", lambda: self.show_page("format")),
            "rules_page": self.action("The &Rules", lambda: self.show_page("rules")),
            "about": self.action("&About Rally Forge", self.show_about),
        }
        self.help_windows: dict[str, help.TextWindow] = {}
        self.menu_actions["zoom_in"].setShortcuts([k(k.StandardKey.ZoomIn), k("Ctrl+=")])
        style = self.style()
        for name, icon in (("new", QStyle.StandardPixmap.SP_FileIcon),
                           ("open", QStyle.StandardPixmap.SP_DialogOpenButton),
                           ("save", QStyle.StandardPixmap.SP_DialogSaveButton)):
            self.menu_actions[name].setIcon(style.standardIcon(icon))
        self.menu_actions["grid"].setChecked(True)
        undo = self.doc.undo_stack.createUndoAction(self, "&Undo")
        undo.setShortcut(k.StandardKey.Undo)
        redo = self.doc.undo_stack.createRedoAction(self, "&Redo")
        # Both habits on every platform (QKeySequence.Redo is one or the other).
        redo.setShortcuts([k("Ctrl+Y"), k("Ctrl+Shift+Z")])
        self.menu_actions["undo"], self.menu_actions["redo"] = undo, redo

        self.tool_group = QActionGroup(self)
        self.tool_group.setExclusive(True)
        self.tool_actions = {}
        for tool_id, tool in self.tools.items():
            action = self.action(tool.name, lambda _=False, t=tool_id: self.set_tool(t), tool.key,
                                 f"{tool.name} ({tool.key}): {tool.tip}", checkable=True)
            action.setIcon(tool_icon(tool_id))
            self.tool_group.addAction(action)
            self.tool_actions[tool_id] = action

    def setup_menus(self) -> None:
        a = self.menu_actions
        bar = self.menuBar()
        file = self.menus["file"] = bar.addMenu("&File")
        file.addActions([a["new"], a["new_from_boards"], a["new_from_published"], a["open"],
                         a["import_map"]])
        self.recent_menu = file.addMenu("Open &Recent")
        file.addSeparator()
        file.addActions([a["save"], a["save_as"], a["revert"]])
        file.addSeparator()
        file.addAction(a["insert_board"])
        exports = file.addMenu("&Export")
        exports.addActions([a["export_png"], a["export_svg"], a["export_pdf"]])
        file.addSeparator()
        file.addAction(a["quit"])

        edit_menu = self.menus["edit"] = bar.addMenu("&Edit")
        edit_menu.addActions([a["undo"], a["redo"]])
        edit_menu.addSeparator()
        edit_menu.addActions([a["cut"], a["copy"], a["paste"], a["delete"]])
        edit_menu.addSeparator()
        edit_menu.addActions([a["select_all"], a["select_none"]])
        edit_menu.addSeparator()
        edit_menu.addActions([a["rotate_right"], a["rotate_left"], a["mirror_h"], a["mirror_v"]])
        edit_menu.addActions([a["raise"], a["lower"]])

        view = self.menus["view"] = bar.addMenu("&View")
        view.addActions([a["zoom_in"], a["zoom_out"], a["zoom_fit"], a["zoom_100"]])
        view.addSeparator()
        view.addActions([a["grid"], a["level_marks"]])
        view.addMenu(self.panels_menu)

        tools = self.menus["tools"] = bar.addMenu("&Tools")
        tools.addActions(list(self.tool_actions.values()))

    def setup_help_menu(self) -> None:
        """Last in the menu bar (after the Race menu of the preview)."""
        a = self.menu_actions
        menu = self.menus["help"] = self.menuBar().addMenu("&Help")
        menu.addActions([a["shortcuts"], a["format_page"], a["rules_page"]])
        menu.addSeparator()
        menu.addAction(a["about"])

    def setup_toolbars(self) -> None:
        a = self.menu_actions
        main = self.addToolBar("File")
        main.setObjectName("file_toolbar")
        main.setMovable(False)
        main.addActions([a["new"], a["open"], a["save"]])
        main.addSeparator()
        main.addActions([a["undo"], a["redo"]])
        main.addSeparator()
        main.addActions([a["zoom_in"], a["zoom_out"], a["zoom_fit"]])
        main.setIconSize(QSize(18, 18))
        main.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)

        tools = QToolBar("Tools")
        tools.setObjectName("tools_toolbar")
        tools.setIconSize(QSize(28, 28))
        tools.setMovable(False)
        tools.addActions(list(self.tool_actions.values()))
        self.addToolBar(Qt.ToolBarArea.LeftToolBarArea, tools)

    def add_panel(self, widget, title: str, area=Qt.DockWidgetArea.RightDockWidgetArea,
                  tabify_with: QDockWidget | None = None) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(title.lower().replace(" ", "_").replace("&", "and"))
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        if tabify_with is not None:
            self.tabifyDockWidget(tabify_with, dock)
        self.panels_menu.addAction(dock.toggleViewAction())
        return dock

    def setup_panels(self) -> None:
        self.setDockOptions(QMainWindow.DockOption.AnimatedDocks
                            | QMainWindow.DockOption.AllowTabbedDocks)
        left, right = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea
        palette = self.add_panel(self.element_palette, "Palette", left)
        inspector = self.add_panel(self.inspector, "Inspector", left)
        scenario = self.add_panel(self.scenario_panel, "Scenario", right)
        self.add_panel(self.markers_panel, "Flags and Docks", right, scenario)
        issues = self.add_panel(self.issues, "Issues", right)
        self.add_panel(self.history, "History", right, issues)
        card = self.add_panel(self.card_panel, "Course Card", right, issues)
        card.visibilityChanged.connect(self.card_panel.set_on_screen)
        self.card_panel.issuesRequested.connect(self.show_issues)
        scenario.raise_()
        issues.raise_()
        self.resizeDocks([palette], [300], Qt.Orientation.Horizontal)
        self.resizeDocks([palette, inspector], [330, 500], Qt.Orientation.Vertical)
        self.resizeDocks([scenario], [360], Qt.Orientation.Horizontal)

    def setup_status_bar(self) -> None:
        self.square_label = QLabel()
        self.zoom_label = QLabel()
        self.issue_label = QLabel()
        bar = self.statusBar()
        bar.addPermanentWidget(self.issue_label)
        bar.addPermanentWidget(self.square_label)
        bar.addPermanentWidget(self.zoom_label)
        self.view.squareHovered.connect(self.show_square)
        # An edit (or undo) can change the square under a still cursor.
        self.doc.changed.connect(lambda area: self.show_square(self.view.hovered))
        self.view.zoomChanged.connect(lambda z: self.zoom_label.setText(f"Zoom {z * 100:.0f}%"))
        for label in (self.issue_label, self.square_label, self.zoom_label):
            label.setContentsMargins(10, 0, 10, 0)
        self.issues.validator.finished.connect(lambda problems: self.issue_label.setText(
            self.issues.summary.text()))

    # ------------------------------------------------------------ tools

    @property
    def tool_id(self) -> str:
        return next(t for t, tool in self.tools.items() if tool is self.view.tool)

    def set_tool(self, tool_id: str) -> None:
        self.tool_actions[tool_id].setChecked(True)
        self.view.set_tool(self.tools[tool_id])
        self.element_palette.show_tool(tool_id)
        self.show_level_marks()

    def show_level_marks(self) -> None:
        """Level numbers on the board: asked for in the View menu, or the Level tool in hand."""
        self.view.board_item.set_level_marks(self.menu_actions["level_marks"].isChecked()
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
        self.menu_actions["revert"].setEnabled(self.doc.path is not None and self.doc.modified)

    def update_load_banner(self) -> None:
        dropped = self.doc.dropped
        self.load_banner.setVisible(bool(dropped))
        self.load_banner.setText(
            f"<b>{dropped} of this file could not be read</b> and are not on the board (the "
            "Issues panel lists them). Saving writes the course without them; you will be "
            "asked first." if dropped else "")

    def show_square(self, square) -> None:
        if square is None:
            self.square_label.setText("")
            return
        x, y = square
        s = self.doc.scenario
        tile = s.board.tile_at(x, y)
        what = "floor"
        if tile is not None:
            what = tile.type
            for key in TILES[tile.type].keys:
                value = getattr(tile, key.name)
                if key.kind == FLAG:
                    what += f" {key.name}" if value else ""
                elif key.kind != REGISTERS:
                    what += f" {value}"
        level = s.board.level_at(x, y)
        if level:
            what += f", level {level}"
        for kind in ("flags", "docks"):
            index = edit.marker_at(s, kind, x, y)
            if index is not None:
                what += f", {kind[:-1]} {index + 1}"
        self.square_label.setText(f"Square {x}, {y}: {what}")

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

    def update_recent_menu(self) -> None:
        self.recent_menu.clear()
        recent = self.files.recent()
        for path in recent:
            action = self.recent_menu.addAction(Path(path).name)
            action.setToolTip(path)
            action.setStatusTip(path)
            action.triggered.connect(lambda _=False, p=path: self.files.open(p))
        self.recent_menu.setEnabled(bool(recent))

    # ------------------------------------------------------------ commands with dialogs

    # New and New from Boards ask about unsaved changes before their dialog.

    def new(self) -> None:
        if not self.files.maybe_save():
            return
        scenario = dialogs.get_new_course(self)
        if scenario is not None:
            self.files.new(scenario, ask=False)      # the view fits the new board

    def new_from_boards(self) -> None:
        """The assembled course opens over an empty board of its size, and the
        assembly is one undo step on it."""
        if not self.files.maybe_save():
            return
        dialog = NewFromBoardsDialog(self)
        course = dialog.scenario() if dialog.exec() == QDialog.DialogCode.Accepted else None
        if course is None:
            return
        blank = replace(course, board=Board(course.board.width, course.board.height), docks=(),
                        boards=())
        self.files.new(blank, ask=False)
        commands.change(self.doc, course, "Assemble boards")

    def new_from_published(self) -> None:
        """A published course opens as a new, unsaved document."""
        dialog = NewFromPublishedDialog(self)
        course = dialog.scenario() if dialog.exec() == QDialog.DialogCode.Accepted else None
        if course is not None:
            self.files.new(course)

    def import_map(self) -> None:
        path = dialogs.get_open_path(self, "Import Tiled Map", filter=dialogs.TILED_FILTER)
        if path is not None:
            self.import_map_file(path)

    def import_map_file(self, path: str, ask: bool = True) -> None:
        """The map as a new course, unsaved (it exists nowhere as a course yet);
        `ask=False` when the question about the current course was asked already."""
        try:
            imported = import_map(path)
        except MapError as exc:
            dialogs.show_error(self, "Import Tiled Map", f"{Path(path).name} cannot be imported.",
                               str(exc))
            return
        if self.files.new(imported.scenario, unsaved=True, ask=ask) and imported.warnings:
            name = Path(path).name
            details = "\n".join(w.line(name) for w in imported.warnings)
            lost = sum(not w.choice for w in imported.warnings)
            chosen = len(imported.warnings) - lost
            both_ends = (f"{chosen} laser{'s are' if chosen != 1 else ' is'} drawn with an "
                         "emitter at both ends: the course keeps one firing end of "
                         f"{'each' if chosen != 1 else 'it'}")
            if lost:
                text = f"{lost} things of {name} could not be placed as drawn"
                dialogs.show_warning(self, "Import Tiled Map",
                                     text + (f"; {both_ends}" if chosen else "")
                                     + " (see the details).", details)
            else:
                dialogs.show_info(self, "Import Tiled Map",
                                  f"{name}: {both_ends} (see the details).", details)

    def open_recovered(self, scenario, backup) -> None:
        """Untitled work recovered at start, in a window of its own."""
        window = MainWindow(recovered=(scenario, backup))
        window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        OTHER_WINDOWS.add(window)
        window.destroyed.connect(lambda: OTHER_WINDOWS.discard(window))
        window.show()

    def insert_board(self) -> None:
        dialog = InsertBoardDialog(self.doc, self)
        dialog.exec()

    def export(self, fmt: str) -> None:
        stem = Path(self.doc.path).stem if self.doc.path else (self.doc.scenario.name or "course")
        start = f"{stem}.{fmt}"
        if self.doc.path:
            start = str(Path(self.doc.path).with_name(start))
        path = dialogs.get_save_path(self, f"Export {fmt.upper()}", start,
                                     f"{fmt.upper()} files (*.{fmt})")
        if path is None:
            return
        if not path.lower().endswith("." + fmt):
            path += "." + fmt
        options = {}
        if fmt == "pdf":
            chosen = dialogs.get_pdf_options(self)
            if chosen is None:
                return
            options["square_mm"], options["paper"] = chosen
        try:
            pictures.export(self.doc.scenario, path, **options)
        except (OSError, ValueError) as exc:
            dialogs.show_error(self, "Export failed",
                               f"{Path(path).name} could not be written: {exc}")
            return
        self.statusBar().showMessage(f"Exported {path}", 5000)

    # ------------------------------------------------------------ help

    def help_window(self, key: str, title: str) -> help.TextWindow:
        if key not in self.help_windows:
            self.help_windows[key] = help.TextWindow(title, self)
        return self.help_windows[key]

    def show_shortcuts(self) -> None:
        menus = [m for a in self.menuBar().actions() if isinstance(m := a.menu(), QMenu)]
        self.help_window("shortcuts", "Keyboard Shortcuts").show_text(help.shortcuts_html(menus))

    def show_page(self, page: str) -> None:
        title = help.PAGES[page][0]
        self.help_window(page, title).show_text(help.page_markdown(page), markdown=True)

    def show_about(self) -> None:
        self.help_window("about", f"About {APP_NAME}").show_text(help.about_html())

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self._fitted_on_show:     # the view has its real size only once shown
            self._fitted_on_show = True
            self.hide_stale_tab_bars()
            self.view.fit()

    def hide_stale_tab_bars(self) -> None:
        """Hide the dock tab bars no group of tabbed docks uses. Tabifying a
        third dock into a group leaves the group's earlier tab bar behind,
        never hidden: it showed with the window, as a stub ("Is…") between
        the Inspector and the board, until Qt got round to deleting it."""
        groups = [{d.windowTitle() for d in (dock, *self.tabifiedDockWidgets(dock))}
                  for dock in self.findChildren(QDockWidget) if self.tabifiedDockWidgets(dock)]
        for bar in self.findChildren(QTabBar, options=Qt.FindChildOption.FindDirectChildrenOnly):
            if {bar.tabText(i) for i in range(bar.count())} not in groups:
                bar.hide()

    def closeEvent(self, event) -> None:
        if self.files.close():
            self.issues.validator.wait()
            self.preview.shutdown()
            event.accept()
        else:
            event.ignore()
