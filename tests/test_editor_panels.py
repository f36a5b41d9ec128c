"""The panels: palette, inspector, scenario (fields, rules, size, robots),
flags and docks, history; each edit one undo step that undo reverses."""
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QDropEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QCheckBox, QComboBox, QDialog, QGroupBox, QSpinBox

from rallyforge.editor import scenario_panel
from rallyforge.editor.palette import ENTRIES
from rallyforge.engine.model.scenario import Board, Dock, Flag, Laser, Pusher, Scenario, Tile
from tests.editor_support import (  # noqa: F401  (fixtures)
    answers, click, drag_squares, make_window, point, window,
)


def course():
    board = Board(8, 8, tiles=(Tile(2, 2, "conveyor", dir="E"), Tile(4, 4, "crusher", phases=(2, 4))),
                  lasers=(Laser(2, 2, "S", 1),), pushers=(Pusher(2, 2, "N", (1, 3, 5)),))
    return Scenario("Panels", board, (Flag(2, 2), Flag(6, 6), Flag(7, 7)), (Dock(0, 7, "N"),))


def group(inspector, title):
    return next(g for g in inspector.widget().findChildren(QGroupBox) if g.title() == title)


def test_palette_chooses_the_element_and_the_tool(window):
    w = window
    w.set_tool("select")
    row = next(i for i, e in enumerate(ENTRIES) if e.label == "Express conveyor")
    w.element_palette.on_clicked(w.element_palette.list.item(row))
    assert (w.state.brush.kind, w.state.brush.express, w.tool_id) == ("conveyor", True, "brush")
    w.set_tool("rect_fill")
    w.element_palette.on_clicked(w.element_palette.list.item(0))          # floor: stays a painting tool
    assert w.tool_id == "rect_fill"
    w.element_palette.on_clicked(w.element_palette.list.item(next(i for i, e in enumerate(ENTRIES) if e.label == "Wall")))
    assert w.tool_id == "wall" and w.menus.tool_actions["wall"].isChecked()
    w.element_palette.dir_buttons.button(2).click()
    assert w.state.brush.dir == "S"


def test_tool_keys_switch_tools(window):
    w = window
    for tool_id, tool in w.tools.items():
        assert w.menus.tool_actions[tool_id].shortcut().toString() == tool.key
    keys = {t.key for t in w.tools.values()}
    assert len(keys) == len(w.tools)
    w.view.setFocus()
    QTest.keyClick(w, Qt.Key_E)
    assert w.tool_id == "eraser"
    QTest.keyClick(w, Qt.Key_R)
    assert w.tool_id == "select"


def test_inspector_edits_the_square(make_window):
    w = make_window(scenario=course())
    w.state.inspect((2, 2))
    tile = group(w.inspector, "Tile")
    tile.findChildren(QComboBox)[1].setCurrentIndex(2)        # direction S
    assert w.doc.scenario.board.tile_at(2, 2).dir == "S"
    group(w.inspector, "Tile").findChildren(QCheckBox)[0].setChecked(True)
    assert w.doc.scenario.board.tile_at(2, 2).express
    group(w.inspector, "Laser firing S").findChild(QSpinBox).setValue(3)
    assert w.doc.scenario.board.lasers == (Laser(2, 2, "S", 3),)
    registers = group(w.inspector, "Pusher").findChildren(QCheckBox)
    registers[1].setChecked(True)
    assert w.doc.scenario.board.pushers[0].phases == (1, 2, 3, 5)
    group(w.inspector, "Walls").findChildren(QCheckBox)[3].setChecked(True)   # W
    assert w.doc.scenario.board.has_wall(2, 2, "W")
    assert group(w.inspector, "Flag 1")
    assert w.doc.undo_stack.count() == 5
    while w.doc.undo_stack.canUndo():
        w.doc.undo_stack.undo()
    assert w.doc.scenario == course()


def test_inspector_changes_a_tile_type_and_crusher_registers(make_window):
    w = make_window(scenario=course())
    w.state.inspect((4, 4))
    group(w.inspector, "Tile").findChildren(QCheckBox)[0].setChecked(True)    # register 1
    assert w.doc.scenario.board.tile_at(4, 4).phases == (1, 2, 4)
    group(w.inspector, "Tile").findChildren(QComboBox)[0].setCurrentText("gear")
    assert w.doc.scenario.board.tile_at(4, 4) == Tile(4, 4, "gear", rotation="cw")
    group(w.inspector, "Tile").findChildren(QComboBox)[0].setCurrentText("floor")
    assert w.doc.scenario.board.tile_at(4, 4) is None


def test_typing_a_name_is_one_undo_step(window):
    w = window
    panel = w.scenario_panel
    panel.name.selectAll()
    QTest.keyClicks(panel.name, "Pusher Alley")
    assert w.doc.scenario.name == "Pusher Alley"
    assert w.doc.undo_stack.count() == 1
    assert w.windowTitle().startswith("Pusher Alley*")      # an unsaved course goes by its name
    w.doc.undo_stack.undo()
    assert panel.name.text() == "Untitled"
    QTest.keyClicks(panel.author, "Jane")
    panel.description.setPlainText("Two flags.")
    assert (w.doc.scenario.author, w.doc.scenario.description) == ("Jane", "Two flags.")


def test_rules_and_robots(window):
    w = window
    panel = w.scenario_panel
    panel.rule_widgets["lives"].setValue(5)
    panel.rule_widgets["robot_lasers"].setChecked(False)
    panel.rule_widgets["finish"].setCurrentText("all")
    r = w.doc.scenario.rules
    assert (r.lives, r.robot_lasers, r.finish) == (5, False, "all")
    panel.add_robot()
    panel.add_robot()
    assert [x.name for x in w.doc.scenario.robots] == ["Robot 1", "Robot 2"]
    panel.robots.item(1, 1).setText("2")
    panel.robots.item(1, 2).setText("search")
    assert w.doc.scenario.robots[1].dock == 2 and w.doc.scenario.robots[1].bot == "search"
    panel.robots.setCurrentCell(0, 0)
    panel.remove_robot()
    assert [x.name for x in w.doc.scenario.robots] == ["Robot 2"]
    w.doc.undo_stack.undo()
    assert panel.robots.rowCount() == 2


def test_resize_board_from_the_panel(window, monkeypatch):
    w = window

    def accept(dialog):
        dialog.spins["left"].setValue(2)
        dialog.spins["bottom"].setValue(-3)
        return QDialog.Accepted
    monkeypatch.setattr(scenario_panel.ResizeDialog, "exec", accept)
    w.scenario_panel.resize_board()
    b = w.doc.scenario.board
    assert (b.width, b.height) == (14, 9)
    assert w.scenario_panel.size_label.text() == "14 × 9 squares"
    assert w.view.sceneRect().width() == (14 + 1) * 64


def test_markers_panel_renumbers_and_deletes(make_window):
    w = make_window(scenario=course())
    flags = w.markers_panel.lists["flags"]
    flags.setCurrentRow(2)
    assert w.state.inspected == (7, 7)
    w.markers_panel.shift("flags", -1)
    assert [(f.x, f.y) for f in w.doc.scenario.flags] == [(2, 2), (7, 7), (6, 6)]
    assert flags.currentRow() == 1
    w.markers_panel.delete("flags")
    assert [(f.x, f.y) for f in w.doc.scenario.flags] == [(2, 2), (6, 6)]
    assert flags.item(1).text().startswith("Flag 2: square 6, 6")


def test_a_flags_row_tells_its_difficulty_and_follows_the_board(make_window):
    w = make_window(scenario=course())
    flags = w.markers_panel.lists["flags"]
    assert flags.item(1).toolTip() == "Difficulty 0: nothing around it"
    pit = next(i for i, e in enumerate(ENTRIES) if e.label == "Pit")
    w.element_palette.on_clicked(w.element_palette.list.item(pit))
    drag_squares(w.view, [(5, 5)])
    assert flags.item(1).toolTip() == "Difficulty 2: pit (5, 5) 2"
    assert flags.item(2).toolTip().startswith("Difficulty 6: ")     # (7, 7): a corner
    w.doc.undo_stack.undo()
    assert flags.item(1).toolTip() == "Difficulty 0: nothing around it"


def test_a_flag_on_the_board_tells_its_difficulty_on_hover(make_window, qtbot):
    from PySide6.QtCore import QEvent
    from PySide6.QtGui import QHelpEvent
    from PySide6.QtWidgets import QApplication, QToolTip
    w = make_window(scenario=course())
    pit = next(i for i, e in enumerate(ENTRIES) if e.label == "Pit")
    w.element_palette.on_clicked(w.element_palette.list.item(pit))
    drag_squares(w.view, [(5, 5)])
    assert w.view.tooltip_at((6, 6)) == "Flag 2, difficulty 2: pit (5, 5) 2"
    assert w.view.tooltip_at((7, 7)).startswith("Flag 3, difficulty 6: ")
    assert w.view.tooltip_at((5, 5)) is None and w.view.tooltip_at(None) is None
    at = point(w.view, 6.5, 6.5)
    QApplication.sendEvent(w.view.viewport(), QHelpEvent(
        QEvent.ToolTip, at, w.view.viewport().mapToGlobal(at)))
    qtbot.waitUntil(lambda: QToolTip.text() == "Flag 2, difficulty 2: pit (5, 5) 2")
    QToolTip.hideText()


def test_dragging_a_row_renumbers(make_window, qtbot):
    w = make_window(scenario=course())
    flags = w.markers_panel.lists["flags"]
    flags.setCurrentRow(0)
    last = flags.visualItemRect(flags.item(2))
    drop = QDropEvent(QPointF(last.center().x(), last.bottom() - 2), Qt.MoveAction | Qt.CopyAction,
                      flags.model().mimeData([flags.currentIndex()]), Qt.LeftButton, Qt.NoModifier)
    flags.dropEvent(drop)                                     # flag 1 dropped below flag 3
    assert drop.dropAction() == Qt.CopyAction                 # so Qt removes no row itself
    qtbot.waitUntil(lambda: w.doc.undo_stack.count() == 1)
    assert [(f.x, f.y) for f in w.doc.scenario.flags] == [(6, 6), (7, 7), (2, 2)]
    assert flags.currentRow() == 2 and flags.count() == 3
    assert w.doc.undo_stack.undoText() == "Renumber flags"


def test_history_lists_the_steps(window):
    w = window
    click(w.view, 1.5, 1.5)
    click(w.view, 2.5, 1.5)
    assert w.history.model().rowCount() == 3                  # the opened state and two strokes
    w.history.setCurrentIndex(w.history.model().index(0, 0))
    assert w.doc.scenario.board.tiles == ()


def test_option_rules_and_a_robots_starting_cards(window):
    w = window
    panel = w.scenario_panel
    panel.rule_widgets["options"].setCurrentText("played")
    panel.rule_widgets["start_options"].setValue(2)
    panel.rule_widgets["flag_gives_option"].setChecked(True)
    r = w.doc.scenario.rules
    assert (r.options, r.start_options, r.flag_gives_option) == ("played", 2, True)
    panel.add_robot()
    panel.robots.item(0, 3).setText("crab legs, Brakes")
    assert w.doc.scenario.robots[0].options == ("crab-legs", "brakes")
    assert panel.robots.item(0, 3).text() == "Crab Legs, Brakes"     # as the table names them
    assert "Crab Legs: A register may hold Move 1" in panel.robots.item(0, 3).toolTip()
    w.doc.undo_stack.undo()
    assert w.doc.scenario.robots[0].options is None
    assert panel.robots.item(0, 3).text() == ""


def test_undo_history_and_the_shortcut_list_say_rule_changes_in_words(window, qtbot):
    w = window
    panel = w.scenario_panel
    box = panel.rule_widgets["flag_gives_option"]
    box.setFocus()
    QTest.keyClick(box, Qt.Key_Space)
    assert w.doc.scenario.rules.flag_gives_option
    spin = panel.rule_widgets["start_options"]
    spin.setFocus()
    QTest.keyClick(spin, Qt.Key_Up)
    QTest.keyClick(spin, Qt.Key_Up)                 # two presses, one step: its text the last value
    assert w.doc.scenario.rules.start_options == 2
    model = w.history.model()
    rows = [model.data(model.index(r, 0)) for r in range(model.rowCount())]
    assert rows == ["Opened", "Turn on flag gives an option", "Set starting options to 2"]
    assert w.menus.actions["undo"].text().replace("&", "") == "Undo Set starting options to 2"
    w.view.setFocus()
    QTest.keyClick(w, Qt.Key_F1)
    text = w.menus.help_windows["shortcuts"].browser.toPlainText()
    assert "Undo Set starting options to 2" in text
    assert "_" not in text.split("Keyboard shortcuts", 1)[1]      # no rule ids anywhere


def test_the_special_rules_group_with_real_input_one_undo_step_each(window, qtbot):
    w = window
    panel = w.scenario_panel
    special = {"flags_move", "robot_laser_damage", "start_damage", "power_down", "repair_sites",
               "start_option_choice", "programming_seconds"}
    for name in special:
        group = panel.rule_widgets[name].parentWidget()
        assert isinstance(group, QGroupBox) and group.title() == "Special Rules", name
        assert "docs/rules.md 12." in panel.rule_widgets[name].toolTip()
    assert "Set to Kill: 2" in panel.rule_widgets["robot_laser_damage"].toolTip()
    assert panel.rule_widgets["lives"].parentWidget().title() == "Rules"

    box = panel.rule_widgets["flags_move"]
    box.setFocus()
    QTest.keyClick(box, Qt.Key_Space)
    spin = panel.rule_widgets["robot_laser_damage"]
    spin.setFocus()
    QTest.keyClick(spin, Qt.Key_Up)
    QTest.keyClick(spin, Qt.Key_Up)
    clock = panel.rule_widgets["programming_seconds"]
    assert clock.text() == "off"
    clock.setFocus()
    QTest.keyClick(clock, Qt.Key_Up)
    r = w.doc.scenario.rules
    assert (r.flags_move, r.robot_laser_damage, r.programming_seconds) == (True, 3, 10)
    model = w.history.model()
    rows = [model.data(model.index(k, 0)) for k in range(model.rowCount())]
    assert rows == ["Opened", "Turn on flags move", "Set robot laser damage to 3",
                    "Set programming clock to 10"]
    w.doc.undo_stack.undo()
    assert w.doc.scenario.rules.programming_seconds is None and clock.text() == "off"
    w.doc.undo_stack.undo()
    assert w.doc.scenario.rules.robot_laser_damage == 1 and w.doc.scenario.rules.flags_move
    w.doc.undo_stack.undo()
    assert not w.doc.scenario.rules.flags_move and not box.isChecked()
