"""Nothing is lost without a word: rotating a selection, resizing the board
and pasting near an edge either keep everything or say what goes."""
from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from rallyforge.engine.model.scenario import Board, Dock, Flag, Scenario, Tile, Wall
from tests.editor_support import answers, centre, drag_squares, make_window  # noqa: F401


def belts(x0, y0, x1, y1):
    return tuple(Tile(x, y, "conveyor", dir="E") for y in range(y0, y1 + 1) for x in range(x0, x1 + 1))


def course(flags):
    return Scenario("Turn", Board(8, 8, tiles=belts(1, 1, 3, 4), walls=(Wall(2, 2, "N"),)),
                    tuple(Flag(*f) for f in flags), (Dock(0, 7, "N"), Dock(1, 7, "N")))


def select(w, a, b):
    w.set_tool("select")
    drag_squares(w.view, [a, b])
    assert w.state.selection == (*a, *b)


def test_rotating_a_tall_selection_turns_it_about_its_centre(make_window):
    start = course([(4, 2), (6, 6), (2, 3)])       # flag 1 stands right beside the selection
    w = make_window(scenario=start)
    select(w, (1, 1), (3, 4))                       # 3 wide, 4 tall
    QTest.keyClick(w, Qt.Key_Z)
    s = w.doc.scenario
    assert w.state.selection == (0, 1, 3, 3)        # 4 wide, 3 tall, about the same centre
    assert s.flags[0] == Flag(4, 2) and s.flags[1] == Flag(6, 6)
    assert s.flags[2] == Flag(1, 2)                 # the flag on it turned with it, still flag 3
    assert len(s.board.tiles) == 12 and {t.dir for t in s.board.tiles} == {"S"}
    assert s.board.has_wall(2, 2, "E")              # its wall turned too
    QTest.keyClick(w, Qt.Key_Z, Qt.ShiftModifier)   # and back where it was
    assert w.doc.scenario == start and w.state.selection == (1, 1, 3, 4)


def test_a_rotation_that_would_cover_something_is_refused_with_a_message(make_window):
    start = course([(0, 2), (6, 6)])                # flag 1 where the turned selection would go
    w = make_window(scenario=start)
    select(w, (1, 1), (3, 4))
    QTest.keyClick(w, Qt.Key_Z)
    assert w.doc.scenario == start and w.doc.undo_stack.count() == 0
    assert w.state.selection == (1, 1, 3, 4)
    message = w.statusBar().currentMessage()
    assert "Not rotated" in message and "1 flag" in message
    select(w, (7, 0), (7, 3))                       # 1 x 4 on the edge: would leave the board
    QTest.keyClick(w, Qt.Key_Z)
    assert w.doc.scenario == start
    assert "leave the board" in w.statusBar().currentMessage()


def test_the_resize_dialog_lists_what_it_will_delete(make_window):
    s = Scenario("R", Board(10, 10, tiles=belts(0, 7, 4, 9)), (Flag(5, 5), Flag(3, 8)),
                 (Dock(0, 9, "N"), Dock(1, 9, "N"), Dock(2, 6, "N")))
    w = make_window(scenario=s)
    seen = {}

    def answer():
        dialog = QApplication.activeModalWidget()
        spin = dialog.spins["bottom"]
        for _ in range(3):                          # remove the 3 bottom rows
            QTest.keyClick(spin, Qt.Key_Down)
        seen["three rows"] = dialog.lost_label.text()
        QTest.keyClick(spin, Qt.Key_Up)
        QTest.keyClick(spin, Qt.Key_Up)
        seen["one row"] = dialog.lost_label.text()
        QTest.keyClick(spin, Qt.Key_Up)
        seen["none"] = dialog.lost_label.text()
        QTest.mouseClick(dialog.buttons.button(QDialogButtonBox.Cancel), Qt.LeftButton)
    QTimer.singleShot(0, answer)
    QTest.mouseClick(w.scenario_panel.resize_button, Qt.LeftButton)
    assert seen["three rows"] == "This deletes 1 flag, 2 docks and 15 tiles."
    assert seen["one row"] == "This deletes 2 docks and 5 tiles."
    assert seen["none"] == ""
    assert w.doc.scenario == s


def test_paste_near_the_edge_says_what_was_left_out(make_window):
    s = Scenario("P", Board(8, 8, tiles=belts(0, 0, 2, 2)), (Flag(2, 2), Flag(7, 0)), (Dock(0, 7, "N"),))
    w = make_window(scenario=s)
    select(w, (0, 0), (2, 2))
    QTest.keyClick(w, Qt.Key_C, Qt.ControlModifier)
    QTest.mouseMove(w.view.viewport(), centre(w.view, (6, 6)))
    QTest.keyClick(w, Qt.Key_V, Qt.ControlModifier)
    b = w.doc.scenario.board
    assert b.tile_at(6, 6).type == "conveyor" and b.tile_at(7, 7).type == "conveyor"
    message = w.statusBar().currentMessage()
    assert "Pasted 2 x 2 of the 3 x 3 squares" in message
    assert "1 flag and 5 tiles left out" in message
    assert len(w.doc.scenario.flags) == 2           # the copied flag fell off, as it said


def test_opening_a_file_with_errors_says_so_and_asks_before_saving(make_window, answers, tmp_path):
    import json
    path = tmp_path / "broken.json"
    doc = {"format": "rally-scenario", "version": 1, "name": "Broken",
           "board": {"width": 12, "height": 12,
                     "tiles": [{"x": 3, "y": 3, "type": "pit"}, {"x": 20, "y": 20, "type": "pit"}],
                     "lasers": [{"x": 0, "y": 5, "dir": "E", "beams": 4}]},
           "flags": [{"x": 5, "y": 5}], "docks": [{"x": 0, "y": 11, "facing": "N"}]}
    path.write_text(json.dumps(doc))
    original = path.read_bytes()
    w = make_window()
    answers.open_path = str(path)
    w.view.setFocus()
    QTest.keyClick(w, Qt.Key_O, Qt.ControlModifier)
    assert w.doc.path == str(path)
    assert w.windowTitle().startswith("broken.json*")            # not the file as it is
    assert w.load_banner.isVisible() and "2 elements" in w.load_banner.text()
    answers.save_dropped = False
    QTest.keyClick(w, Qt.Key_S, Qt.ControlModifier)
    assert answers.asked[-1] == "save_dropped"
    assert path.read_bytes() == original                          # nothing lost yet
    answers.save_dropped = True
    QTest.keyClick(w, Qt.Key_S, Qt.ControlModifier)
    assert path.read_bytes() != original and not w.doc.modified
    assert not w.load_banner.isVisible() and w.windowTitle().startswith("broken.json —")
    saved = json.loads(path.read_text())
    assert saved["board"]["tiles"] == [{"x": 3, "y": 3, "type": "pit"}]
    asked = answers.asked.count("save_dropped")
    QTest.keyClick(w, Qt.Key_S, Qt.ControlModifier)                 # asked once only
    assert answers.asked.count("save_dropped") == asked
