"""The palette, the wall tool and the inspector as map-editor users expect:
choosing an element takes up the brush and shows only its options, a wall
drag walls only the edges along it, and ticking registers is one step."""
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QCheckBox, QGroupBox

from rallyforge.editor.palette import ENTRIES
from rallyforge.engine.model.scenario import Board, Pusher, Scenario, Tile
from tests.editor_support import answers, click, drag, make_window, point, window  # noqa: F401


def choose(w, label):
    lst = w.element_palette.list
    item = lst.item(next(i for i, e in enumerate(ENTRIES) if e.label == label))
    QTest.mouseClick(lst.viewport(), Qt.LeftButton, Qt.NoModifier, lst.visualItemRect(item).center())
    QApplication.processEvents()


def test_choosing_an_element_takes_up_the_brush(window):
    w = window
    w.view.setFocus()
    QTest.keyClick(w, Qt.Key_C)                         # the belt tool
    assert w.tool_id == "belt"
    choose(w, "Repair")
    assert w.tool_id == "brush"
    click(w.view, 4.5, 4.5)
    assert w.doc.scenario.board.tile_at(4, 4).type == "repair"


def test_the_chosen_entry_is_highlighted_and_only_its_options_shown(window):
    w = window
    palette = w.element_palette
    lst = palette.list
    shown = {}
    for label in ("Repair", "Conveyor", "Crusher", "Laser", "Pusher", "Dock", "Wall"):
        choose(w, label)
        shown[label] = {name for name, row in (("dir", palette.dir_row), ("beams", palette.beams_row),
                                                ("phases", palette.phases_row)) if row.isVisible()}
    assert shown == {"Repair": set(), "Conveyor": {"dir"}, "Crusher": {"phases"},
                     "Laser": {"beams"}, "Pusher": {"phases"}, "Dock": {"dir"}, "Wall": set()}
    choose(w, "Water")
    image = lst.viewport().grab().toImage()
    rows = [i for i, e in enumerate(ENTRIES) if e.label in ("Water", "Pit")]
    corner = {ENTRIES[i].label: lst.visualItemRect(lst.item(i)).topLeft() for i in rows}
    edge = {label: QColor(image.pixel(p.x() + 4, p.y() + 1)) for label, p in corner.items()}
    highlight = QColor("#1e6fd9")                   # a strong blue, far from every icon's edge
    assert abs(edge["Water"].blue() - highlight.blue()) < 40 and abs(edge["Water"].red() - highlight.red()) < 40
    assert abs(edge["Pit"].blue() - highlight.blue()) >= 40 or abs(edge["Pit"].red() - highlight.red()) >= 40


def test_a_wall_drag_walls_only_the_edges_along_it(window):
    w = window
    w.set_tool("wall")
    # just inside row 3, along its top edge, crossing the grid corners at x = 2, 3, 4, 5
    xs = [1.5, 1.97, 2.04, 2.5, 2.96, 3.03, 3.5, 3.97, 4.04, 4.5, 4.97, 5.04, 5.5]
    drag(w.view, [point(w.view, x, 3.2) for x in xs])
    walls = {(wl.x, wl.y, wl.side) for wl in w.doc.scenario.board.walls}
    assert walls == {(x, 3, "N") for x in range(1, 6)}
    # and down a column, just inside its west edge
    ys = [6.5, 6.96, 7.03, 7.5, 7.97, 8.04, 8.5]
    drag(w.view, [point(w.view, 2.2, y) for y in ys])
    walls = {(wl.x, wl.y, wl.side) for wl in w.doc.scenario.board.walls}
    assert walls - {(x, 3, "N") for x in range(1, 6)} == {(2, y, "W") for y in range(6, 9)}


def register_box(w, group_title, register):
    page = w.inspector.widget()
    group = next(g for g in page.findChildren(QGroupBox) if g.title() == group_title)
    return next(b for b in group.findChildren(QCheckBox) if b.text() == str(register))


def test_ticking_registers_in_the_inspector_is_one_step(make_window):
    s = Scenario("Reg", Board(6, 6, tiles=(Tile(3, 3, "crusher", phases=(1,)),),
                               pushers=(Pusher(1, 1, "E", (1, 3, 5)),)), (), ())
    w = make_window(scenario=s)
    w.set_tool("select")
    click(w.view, 1.5, 1.5)
    for r in (2, 4, 1, 3):                          # 1, 3, 5 -> 2, 4, 5
        QTest.mouseClick(register_box(w, "Pusher", r), Qt.LeftButton)
    assert w.doc.scenario.board.pusher_map[(1, 1)].phases == (2, 4, 5)
    assert w.doc.undo_stack.count() == 1
    click(w.view, 3.5, 3.5)
    for r in (2, 3):
        QTest.mouseClick(register_box(w, "Tile", r), Qt.LeftButton)
    assert w.doc.scenario.board.tile_at(3, 3).phases == (1, 2, 3)
    assert w.doc.undo_stack.count() == 2            # another element: its own step
    w.view.setFocus()
    QTest.keyClick(w, Qt.Key_Z, Qt.ControlModifier)
    assert w.doc.scenario.board.tile_at(3, 3).phases == (1,)
    QTest.keyClick(w, Qt.Key_Z, Qt.ControlModifier)
    assert w.doc.scenario == s
