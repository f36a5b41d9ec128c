"""The board view: zoom (wheel around the cursor, Ctrl +/-, fit), panning
(middle button, Space + drag), the grid, and the square under the cursor in
the status bar."""
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from editor.document import empty_scenario
from tests.editor_support import answers, centre, drag, make_window, window  # noqa: F401


def wheel(view, pos: QPoint, steps: int) -> None:
    event = QWheelEvent(QPointF(pos), QPointF(view.viewport().mapToGlobal(pos)), QPoint(),
                        QPoint(0, 120 * steps), Qt.NoButton, Qt.NoModifier, Qt.NoScrollPhase, False)
    QApplication.sendEvent(view.viewport(), event)


def test_zoom_with_wheel_keys_and_fit(make_window):
    window = make_window(scenario=empty_scenario(30, 30))
    v = window.view
    z = v.zoom()
    window.actions["zoom_in"].trigger()                               # Ctrl++
    window.actions["zoom_in"].trigger()
    assert v.zoom() > z * 1.5
    pos = centre(v, (12, 12))
    under = v.mapToScene(pos)
    wheel(v, pos, 1)
    assert v.zoom() > z * 1.9
    assert (v.mapToScene(pos) - under).manhattanLength() < 3         # zooms around the cursor
    wheel(v, pos, -1)
    window.actions["zoom_out"].trigger()
    window.actions["zoom_out"].trigger()
    window.actions["zoom_out"].trigger()
    assert v.zoom() < z
    window.actions["zoom_fit"].trigger()
    assert abs(v.zoom() - z) < 1e-6
    assert window.zoom_label.text() == f"Zoom {v.zoom() * 100:.0f}%"


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
    assert window.square_label.text() == "Square 4, 7: conveyor E"


def test_grid_toggle(window):
    window.actions["grid"].trigger()
    assert not window.view.board_item.grid
    window.actions["grid"].trigger()
    assert window.view.board_item.grid
