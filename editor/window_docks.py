"""The editor window's panels in docks: `add_panel` docks one (tabbed with
another if asked) and lists it under View > Panels; the first layout of the
editing panels; and the stale tab bars Qt leaves behind, hidden.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow, QMenu, QTabBar

if TYPE_CHECKING:
    from rallyforge.editor.window_base import EditorWindow


class WindowDocks:
    def __init__(self, window: EditorWindow):
        self.window = window
        self.panels_menu = QMenu("&Panels", window)

    def add_panel(self, widget, title: str, area=Qt.DockWidgetArea.RightDockWidgetArea,
                  tabify_with: QDockWidget | None = None) -> QDockWidget:
        w = self.window
        dock = QDockWidget(title, w)
        dock.setObjectName(title.lower().replace(" ", "_").replace("&", "and"))
        dock.setWidget(widget)
        w.addDockWidget(area, dock)
        if tabify_with is not None:
            w.tabifyDockWidget(tabify_with, dock)
        self.panels_menu.addAction(dock.toggleViewAction())
        return dock

    def lay_out_panels(self) -> None:
        """The editing panels: palette and inspector on the left, the course's
        panels on the right (tabbed)."""
        w = self.window
        w.setDockOptions(QMainWindow.DockOption.AnimatedDocks
                         | QMainWindow.DockOption.AllowTabbedDocks)
        left, right = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea
        palette = self.add_panel(w.element_palette, "Palette", left)
        inspector = self.add_panel(w.inspector, "Inspector", left)
        scenario = self.add_panel(w.scenario_panel, "Scenario", right)
        self.add_panel(w.markers_panel, "Flags and Docks", right, scenario)
        issues = self.add_panel(w.issues, "Issues", right)
        self.add_panel(w.history, "History", right, issues)
        card = self.add_panel(w.card_panel, "Course Card", right, issues)
        card.visibilityChanged.connect(w.card_panel.set_on_screen)
        scenario.raise_()
        issues.raise_()
        w.resizeDocks([palette], [300], Qt.Orientation.Horizontal)
        w.resizeDocks([palette, inspector], [330, 500], Qt.Orientation.Vertical)
        w.resizeDocks([scenario], [360], Qt.Orientation.Horizontal)

    def hide_stale_tab_bars(self) -> None:
        """Hide the dock tab bars no group of tabbed docks uses. Tabifying a
        third dock into a group leaves the group's earlier tab bar behind,
        never hidden: it showed with the window, as a stub ("Is…") between
        the Inspector and the board, until Qt got round to deleting it."""
        w = self.window
        groups = [{d.windowTitle() for d in (dock, *w.tabifiedDockWidgets(dock))}
                  for dock in w.findChildren(QDockWidget) if w.tabifiedDockWidgets(dock)]
        for bar in w.findChildren(QTabBar, options=Qt.FindChildOption.FindDirectChildrenOnly):
            if {bar.tabText(i) for i in range(bar.count())} not in groups:
                bar.hide()
