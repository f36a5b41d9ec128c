"""The editor window's actions, menus and toolbars: File, Edit, View (with
the Panels of window_docks.py), Tools and Help (the Race menu of the preview
goes before Help), the File and Tools toolbars, Open Recent, and the help
windows. `actions` maps a name to each action, `by_name` "file", "edit",
"view", "tools", "help" (and "race") to the menus. The File menu's course
commands and the View menu's Panels come from the window's other parts
(course_commands.py, window_docks.py).
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMenu, QStyle, QToolBar

from rallyforge.editor import help
from rallyforge.editor.icons import tool_icon

if TYPE_CHECKING:
    from rallyforge.editor.course_commands import CourseCommands
    from rallyforge.editor.window_base import EditorWindow


class WindowMenus:
    def __init__(self, window: EditorWindow, commands: CourseCommands, panels_menu: QMenu):
        self.window, self.commands, self.panels_menu = window, commands, panels_menu
        self.by_name: dict[str, QMenu] = {}
        self.help_windows: dict[str, help.TextWindow] = {}
        self._make_actions()
        self._make_menus()
        self._make_toolbars()

    def action(self, text: str, slot, shortcut=None, tip: str = "",
               checkable: bool = False) -> QAction:
        action = QAction(text, self.window)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if tip:
            action.setStatusTip(tip)
            action.setToolTip(tip)
        action.setCheckable(checkable)
        action.triggered.connect(slot)
        return action

    def _make_actions(self) -> None:
        w, k = self.window, QKeySequence
        f, c, view = w.files, self.commands, w.view
        self.actions = {
            "new": self.action("&New…", c.new, k.StandardKey.New),
            "new_from_boards": self.action("New from &Boards…", c.new_from_boards,
                                           tip="A course from library boards and a docking bay"),
            "new_from_published": self.action(
                "New from &Published Course…", c.new_from_published,
                tip="A course of the game's course manual, with its printed ratings"),
            "import_map": self.action("&Import Tiled Map…", c.import_map,
                                      tip="Read a Tiled map (TMX or JSON) of this game"),
            "open": self.action("&Open…", lambda: f.open(), k.StandardKey.Open),
            "save": self.action("&Save", f.save, k.StandardKey.Save),
            "save_as": self.action("Save &As…", f.save_as, k.StandardKey.SaveAs),
            "revert": self.action("&Revert", f.revert, tip="Reload the file, dropping the changes"),
            "insert_board": self.action("&Insert Board…", c.insert_board,
                                        tip="Stamp another course's board into this one"),
            "export_png": self.action("PNG Image…", lambda: c.export("png")),
            "export_svg": self.action("SVG Drawing…", lambda: c.export("svg")),
            "export_pdf": self.action("PDF Document…", lambda: c.export("pdf")),
            "quit": self.action("&Quit", w.close, "Ctrl+Q"),
            "cut": self.action("Cu&t", w.selection.cut, k.StandardKey.Cut),
            "copy": self.action("&Copy", w.selection.copy, k.StandardKey.Copy),
            "paste": self.action("&Paste", w.paste, k.StandardKey.Paste),
            "delete": self.action("&Delete", lambda: w.selection.delete(), k.StandardKey.Delete),
            "select_all": self.action("Select &All", w.select_all, k.StandardKey.SelectAll),
            "select_none": self.action("Select &None", lambda: w.state.set_selection(None),
                                       "Ctrl+Shift+A"),
            "rotate_right": self.action("Rotate &Right", lambda: w.turn(1), "Z",
                                        "Turn the selection, or the brush direction, clockwise"),
            "rotate_left": self.action("Rotate &Left", lambda: w.turn(-1), "Shift+Z",
                                       "Turn the selection, or the brush direction, anticlockwise"),
            "raise": self.action("Raise &Level", lambda: w.shift_levels(1), "PgUp",
                                 "Raise the selected squares one level"),
            "lower": self.action("Lower L&evel", lambda: w.shift_levels(-1), "PgDown",
                                 "Lower the selected squares one level"),
            "mirror_h": self.action("Mirror &Horizontally", lambda: w.mirror("horizontal"), "X"),
            "mirror_v": self.action("Mirror &Vertically", lambda: w.mirror("vertical"), "Y"),
            "zoom_in": self.action("Zoom &In", view.zoom_in, k.StandardKey.ZoomIn),
            "zoom_out": self.action("Zoom &Out", view.zoom_out, k.StandardKey.ZoomOut),
            "zoom_fit": self.action("&Fit Board", view.fit, "Ctrl+0"),
            "zoom_100": self.action("&Actual Size", lambda: view.set_zoom(1.0), "Ctrl+1"),
            "grid": self.action("Show &Grid", view.board_item.set_grid, "Ctrl+G",
                                checkable=True),
            "level_marks": self.action("Show &Level Numbers", lambda: w.show_level_marks(),
                                       tip="Number every raised square and outline the ledges "
                                           "(always shown with the Level tool, and in exports)",
                                       checkable=True),
            "shortcuts": self.action("&Keyboard Shortcuts", self.show_shortcuts,
                                     k.StandardKey.HelpContents),
            "format_page": self.action("The File &Format", lambda: self.show_page("format")),
            "rules_page": self.action("The &Rules", lambda: self.show_page("rules")),
            "about": self.action("&About Rally Forge", self.show_about),
        }
        self.actions["zoom_in"].setShortcuts([k(k.StandardKey.ZoomIn), k("Ctrl+=")])
        style = w.style()
        for name, icon in (("new", QStyle.StandardPixmap.SP_FileIcon),
                           ("open", QStyle.StandardPixmap.SP_DialogOpenButton),
                           ("save", QStyle.StandardPixmap.SP_DialogSaveButton)):
            self.actions[name].setIcon(style.standardIcon(icon))
        self.actions["grid"].setChecked(True)
        undo = w.doc.undo_stack.createUndoAction(w, "&Undo")
        undo.setShortcut(k.StandardKey.Undo)
        redo = w.doc.undo_stack.createRedoAction(w, "&Redo")
        # Both habits on every platform (QKeySequence.Redo is one or the other).
        redo.setShortcuts([k("Ctrl+Y"), k("Ctrl+Shift+Z")])
        self.actions["undo"], self.actions["redo"] = undo, redo

        self.tool_group = QActionGroup(w)
        self.tool_group.setExclusive(True)
        self.tool_actions = {}
        for tool_id, tool in w.tools.items():
            action = self.action(tool.name, lambda _=False, t=tool_id: w.set_tool(t), tool.key,
                                 f"{tool.name} ({tool.key}): {tool.tip}", checkable=True)
            action.setIcon(tool_icon(tool_id))
            self.tool_group.addAction(action)
            self.tool_actions[tool_id] = action

    def _make_menus(self) -> None:
        a = self.actions
        bar = self.window.menuBar()
        file = self.by_name["file"] = bar.addMenu("&File")
        file.addActions([a["new"], a["new_from_boards"], a["new_from_published"], a["open"],
                         a["import_map"]])
        self.recent = file.addMenu("Open &Recent")
        file.addSeparator()
        file.addActions([a["save"], a["save_as"], a["revert"]])
        file.addSeparator()
        file.addAction(a["insert_board"])
        exports = file.addMenu("&Export")
        exports.addActions([a["export_png"], a["export_svg"], a["export_pdf"]])
        file.addSeparator()
        file.addAction(a["quit"])

        edit_menu = self.by_name["edit"] = bar.addMenu("&Edit")
        edit_menu.addActions([a["undo"], a["redo"]])
        edit_menu.addSeparator()
        edit_menu.addActions([a["cut"], a["copy"], a["paste"], a["delete"]])
        edit_menu.addSeparator()
        edit_menu.addActions([a["select_all"], a["select_none"]])
        edit_menu.addSeparator()
        edit_menu.addActions([a["rotate_right"], a["rotate_left"], a["mirror_h"], a["mirror_v"]])
        edit_menu.addActions([a["raise"], a["lower"]])

        view = self.by_name["view"] = bar.addMenu("&View")
        view.addActions([a["zoom_in"], a["zoom_out"], a["zoom_fit"], a["zoom_100"]])
        view.addSeparator()
        view.addActions([a["grid"], a["level_marks"]])
        view.addMenu(self.panels_menu)

        tools = self.by_name["tools"] = bar.addMenu("&Tools")
        tools.addActions(list(self.tool_actions.values()))

    def add_help_menu(self) -> None:
        """Last in the menu bar (after the Race menu of the preview)."""
        a = self.actions
        menu = self.by_name["help"] = self.window.menuBar().addMenu("&Help")
        menu.addActions([a["shortcuts"], a["format_page"], a["rules_page"]])
        menu.addSeparator()
        menu.addAction(a["about"])

    def _make_toolbars(self) -> None:
        a, w = self.actions, self.window
        main = w.addToolBar("File")
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
        w.addToolBar(Qt.ToolBarArea.LeftToolBarArea, tools)

    def update_recent(self) -> None:
        """Open Recent lists the files of files.recent()."""
        files = self.window.files
        self.recent.clear()
        recent = files.recent()
        for path in recent:
            action = self.recent.addAction(Path(path).name)
            action.setToolTip(path)
            action.setStatusTip(path)
            action.triggered.connect(lambda _=False, p=path: files.open(p))
        self.recent.setEnabled(bool(recent))

    # ------------------------------------------------------------ help

    def help_window(self, key: str, title: str) -> help.TextWindow:
        if key not in self.help_windows:
            self.help_windows[key] = help.TextWindow(title, self.window)
        return self.help_windows[key]

    def show_shortcuts(self) -> None:
        menus = [m for a in self.window.menuBar().actions() if isinstance(m := a.menu(), QMenu)]
        self.help_window("shortcuts", "Keyboard Shortcuts").show_text(help.shortcuts_html(menus))

    def show_page(self, page: str) -> None:
        title = help.PAGES[page][0]
        self.help_window(page, title).show_text(help.page_markdown(page), markdown=True)

    def show_about(self) -> None:
        self.help_window("about", f"About {help.APP_NAME}").show_text(help.about_html())
