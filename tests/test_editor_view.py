"""The board view: zoom (wheel around the cursor, Ctrl +/-, fit), panning
(middle button, Space + drag), the grid, and the square under the cursor in
the status bar."""
import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from rallyforge.editor.document import empty_scenario
from tests.editor_support import answers, centre, drag, make_window, window  # noqa: F401


def wheel(view, pos: QPoint, steps: int, modifiers=Qt.NoModifier, pixels=QPoint()) -> None:
    """A wheel turned by `steps` notches (or a trackpad moved by `pixels`) at pos."""
    angle = QPoint(0, 120 * steps) if pixels.isNull() else pixels
    event = QWheelEvent(QPointF(pos), QPointF(view.viewport().mapToGlobal(pos)), pixels,
                        angle, Qt.NoButton, modifiers, Qt.NoScrollPhase, False)
    QApplication.sendEvent(view.viewport(), event)


def test_zoom_with_wheel_keys_and_fit(make_window):
    window = make_window(scenario=empty_scenario(30, 30))
    v = window.view
    z = v.zoom()
    window.menus.actions["zoom_in"].trigger()                               # Ctrl++
    window.menus.actions["zoom_in"].trigger()
    assert v.zoom() > z * 1.5
    pos = centre(v, (12, 12))
    under = v.mapToScene(pos)
    wheel(v, pos, 1, Qt.ControlModifier)
    assert v.zoom() > z * 1.9
    assert (v.mapToScene(pos) - under).manhattanLength() < 3         # zooms around the cursor
    wheel(v, pos, -1, Qt.ControlModifier)
    window.menus.actions["zoom_out"].trigger()
    window.menus.actions["zoom_out"].trigger()
    window.menus.actions["zoom_out"].trigger()
    assert v.zoom() < z
    window.menus.actions["zoom_fit"].trigger()
    assert abs(v.zoom() - z) < 1e-6
    assert window.status.zoom_label.text() == f"Zoom {v.zoom() * 100:.0f}%"


def test_the_wheel_scrolls_shift_wheel_sideways_and_ctrl_wheel_zooms(make_window):
    w = make_window(scenario=empty_scenario(40, 40))
    v = w.view
    v.set_zoom(1.0)
    h, vert = v.horizontalScrollBar(), v.verticalScrollBar()
    h.setValue(h.maximum() // 2)
    vert.setValue(vert.maximum() // 2)
    x0, y0, z = h.value(), vert.value(), v.zoom()
    pos = centre(v, (20, 20))
    wheel(v, pos, -2)                                                # two notches down
    assert (h.value(), v.zoom()) == (x0, z) and vert.value() > y0
    y1 = vert.value()
    wheel(v, pos, -1, Qt.ShiftModifier)                              # sideways
    assert vert.value() == y1 and h.value() > x0
    x1 = h.value()
    wheel(v, pos, 0, pixels=QPoint(-30, 25))                          # a trackpad, both ways
    assert h.value() == x1 + 30 and vert.value() == y1 - 25
    assert v.zoom() == z
    under = v.mapToScene(pos)
    wheel(v, pos, 2, Qt.ControlModifier)
    assert v.zoom() > z * 1.5
    assert (v.mapToScene(pos) - under).manhattanLength() < 3
    assert w.doc.undo_stack.count() == 0


def test_pan_with_middle_button_and_space_drag(make_window):
    w = make_window(scenario=empty_scenario(60, 60))
    v = w.view
    v.set_zoom(1.0)
    bar = v.horizontalScrollBar()
    start = bar.value()
    drag(v, [QPoint(400, 300), QPoint(300, 300)], Qt.MiddleButton)
    assert bar.value() == start + 100
    assert w.doc.undo_stack.count() == 0                             # panning paints nothing
    v.setFocus()
    QTest.keyPress(v, Qt.Key_Space)
    drag(v, [QPoint(300, 300), QPoint(300, 200)])
    QTest.keyRelease(v, Qt.Key_Space)
    assert v.verticalScrollBar().value() > 0
    assert w.doc.undo_stack.count() == 0


def test_status_bar_shows_the_square_under_the_cursor(window):
    window.set_tool("belt")
    drag(window.view, [centre(window.view, (4, 7)), centre(window.view, (5, 7))])
    QTest.mouseMove(window.view.viewport(), centre(window.view, (4, 7)))
    assert window.status.square_label.text() == "Square 4, 7: conveyor E"


def test_the_square_description_follows_an_edit_under_the_cursor(window):
    v = window.view
    QTest.mouseMove(v.viewport(), centre(v, (3, 3)))
    assert window.status.square_label.text() == "Square 3, 3: floor"
    window.set_tool("brush")
    QTest.mouseClick(v.viewport(), Qt.LeftButton, Qt.NoModifier, centre(v, (3, 3)))
    assert window.status.square_label.text() == "Square 3, 3: conveyor E"
    QTest.keyClick(window, Qt.Key_Z, Qt.ControlModifier)             # undo under the same cursor
    assert window.status.square_label.text() == "Square 3, 3: floor"


def test_grid_toggle(window):
    window.menus.actions["grid"].trigger()
    assert not window.view.board_item.grid
    window.menus.actions["grid"].trigger()
    assert window.view.board_item.grid


def test_open_and_open_recent_fit_the_board(make_window, answers, tmp_path):
    from rallyforge.engine.format.loader import save_file
    big, small = tmp_path / "marathon.json", tmp_path / "small.json"
    save_file(empty_scenario(60, 40), big)
    save_file(empty_scenario(6, 6), small)
    w = make_window(path=small)
    v = w.view
    v.set_zoom(3.0)
    answers.open_path = str(big)
    v.setFocus()
    QTest.keyClick(w, Qt.Key_O, Qt.ControlModifier)
    assert w.doc.scenario.board.width == 60
    opened_at = v.zoom()
    v.fit()
    assert v.zoom() == opened_at < 0.5                                # the whole board in view
    w.menus.update_recent()
    v.set_zoom(3.0)
    recent = next(a for a in w.menus.recent.actions() if a.text() == "small.json")
    recent.trigger()
    assert w.doc.scenario.board.width == 6
    opened_at = v.zoom()
    v.fit()
    assert v.zoom() == opened_at < 3.0


@pytest.mark.parametrize("size", [(1400, 900), (1280, 800), (1024, 700)])
def test_dock_tabs_show_only_where_docks_are_tabbed(qtbot, answers, size):
    """No stray tab stub ("Is…") between the Inspector and the board as the
    window first shows (the layout's left-over tab bar is deleted only later)."""
    from PySide6.QtCore import QRect
    from PySide6.QtWidgets import QDockWidget, QTabBar
    from rallyforge.editor.main_window import MainWindow
    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(*size)
    w.show()
    QApplication.processEvents()

    def on_window(widget) -> QRect:
        return QRect(widget.mapTo(w, widget.rect().topLeft()), widget.size())
    bars = [b for b in w.findChildren(QTabBar) if b.parent() is w and b.isVisible()]
    groups = [{d.windowTitle(), *(t.windowTitle() for t in w.tabifiedDockWidgets(d))}
              for d in w.findChildren(QDockWidget) if w.tabifiedDockWidgets(d)]
    assert groups, "the default layout tabs some panels together"  # else the loop proves nothing
    assert len(bars) == len({frozenset(g) for g in groups})       # one bar per group of tabs
    for bar in bars:
        assert {bar.tabText(i) for i in range(bar.count())} in groups
        assert not on_window(bar).intersects(on_window(w.view))
        assert not on_window(bar).intersects(on_window(w.inspector))
