"""Live validation: the Issues panel lists planted problems after the
debounce, clicking one selects and centres its square, and the board
outlines the squares with problems."""
from PySide6.QtCore import QPointF, Qt
from PySide6.QtTest import QTest

from rallyforge.editor import issues_panel
from rallyforge.engine.model.scenario import Board, Dock, Flag, Scenario, Tile
from tests.editor_support import (  # noqa: F401  (fixtures)
    answers, click, make_window, window,
)


def course_with_a_flag_on_a_pit():
    board = Board(24, 20, tiles=(Tile(18, 15, "pit"),))
    return Scenario("Planted", board, (Flag(2, 2), Flag(18, 15)), (Dock(0, 19, "N"), Dock(1, 19, "N")))


def codes(w):
    tree = w.issues.tree
    return [tree.topLevelItem(i).text(1) for i in range(tree.topLevelItemCount())]


def test_planted_error_is_listed_and_clicking_it_selects_its_square(make_window, qtbot):
    w = make_window(scenario=course_with_a_flag_on_a_pit())
    w.view.set_zoom(2.0)
    w.view.centre_on_square(0, 0)
    qtbot.waitUntil(lambda: "E301" in codes(w), timeout=3000)
    tree = w.issues.tree
    row = codes(w).index("E301")
    item = tree.topLevelItem(row)
    assert item.text(2) == "18, 15"
    QTest.mouseClick(tree.viewport(), Qt.LeftButton, Qt.NoModifier, tree.visualItemRect(item).center())
    assert w.state.selection == (18, 15, 18, 15)
    assert w.state.inspected == (18, 15)
    centre = w.view.mapToScene(w.view.viewport().rect().center())
    assert (centre - QPointF(18.5 * 64, 15.5 * 64)).manhattanLength() < 64
    assert w.view.issue_overlay.squares[(18, 15)] is True        # outlined as an error
    assert "error" in w.status.issue_label.text()


def test_validation_follows_the_edits(make_window, qtbot):
    w = make_window(scenario=course_with_a_flag_on_a_pit())
    w.issues.validator.timer.setInterval(10)                        # a shorter pause for the test
    qtbot.waitUntil(lambda: "E301" in codes(w), timeout=3000)
    w.set_tool("brush")
    w.state.set_brush(kind="floor")
    click(w.view, 18.5, 15.5)                                        # paint the pit over
    qtbot.waitUntil(lambda: "E301" not in codes(w), timeout=3000)
    w.doc.undo_stack.undo()
    qtbot.waitUntil(lambda: "E301" in codes(w), timeout=3000)


def test_stale_results_are_dropped(window):
    v = window.issues.validator
    v.schedule()
    old = v.run_number - 1
    v.on_done(old, ["stale"])
    assert v.problems != ["stale"]


def test_validation_runs_off_the_gui_thread(make_window, qtbot, monkeypatch):
    import threading
    threads = []
    real = issues_panel.validate_data

    def spy(data):
        threads.append(threading.current_thread())
        return real(data)
    monkeypatch.setattr(issues_panel, "validate_data", spy)
    w = make_window(scenario=course_with_a_flag_on_a_pit())
    qtbot.waitUntil(lambda: "E301" in codes(w), timeout=3000)
    assert threads and all(t is not threading.main_thread() for t in threads)


def belts_off_the_board(tmp_path):
    """Five belts run off the east edge (W405 each); two are accepted by the file."""
    import json
    from rallyforge.engine.format.loader import save_file
    tiles = tuple(Tile(11, y, "conveyor", dir="E") for y in range(5))
    path = tmp_path / "exits.json"
    save_file(Scenario("Exits", Board(12, 12, tiles=tiles), (Flag(5, 5), Flag(8, 8)),
                       (Dock(0, 11, "N"), Dock(1, 11, "N"))), path)
    data = json.loads(path.read_text())
    data["accept"] = [{"code": "W405", "x": 11, "y": 0}, {"code": "W405", "x": 11, "y": 1}]
    path.write_text(json.dumps(data))
    return path


def test_accepted_warnings_are_greyed_last_and_accepting_is_one_undo_step(make_window, qtbot,
                                                                           answers, tmp_path):
    import json
    path = belts_off_the_board(tmp_path)
    w = make_window(path=path)
    tree = w.issues.tree
    qtbot.waitUntil(lambda: codes(w).count("W405") == 5, timeout=3000)

    def rows():
        items = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]
        return [(i.text(2), i.data(0, issues_panel.PROBLEM).accepted,
                 i.foreground(3).color().name()) for i in items if i.text(1) == "W405"]
    listed = rows()
    assert [r[:2] for r in listed[-2:]] == [("11, 0", True), ("11, 1", True)]        # last
    assert {r[2] for r in listed[-2:]} == {issues_panel.ACCEPTED_COLOR.name()}       # greyed
    assert all(not accepted for _, accepted, _ in listed[:-2])
    assert w.issues.summary.text() == "0 errors, 3 warnings, 2 accepted"
    assert set(w.view.issue_overlay.squares) == {(11, 2), (11, 3), (11, 4)}          # not outlined
    # choose the warning at (11, 3): the line below shows it whole; accept it
    item = next(tree.topLevelItem(i) for i in range(tree.topLevelItemCount())
                if tree.topLevelItem(i).text(2) == "11, 3")
    message = item.data(0, issues_panel.PROBLEM).message
    QTest.mouseClick(tree.viewport(), Qt.LeftButton, Qt.NoModifier, tree.visualItemRect(item).center())
    assert message in w.issues.detail.text()
    QTest.mouseClick(w.issues.accept_button, Qt.LeftButton)
    assert w.doc.undo_stack.count() == 1
    qtbot.waitUntil(lambda: w.issues.summary.text().endswith("3 accepted"), timeout=3000)
    # saved in the file, canonically
    QTest.keyClick(w, Qt.Key_S, Qt.ControlModifier)
    assert json.loads(path.read_text())["accept"] == [
        {"code": "W405", "x": 11, "y": 0}, {"code": "W405", "x": 11, "y": 1},
        {"code": "W405", "x": 11, "y": 3}]
    QTest.keyClick(w, Qt.Key_Z, Qt.ControlModifier)
    qtbot.waitUntil(lambda: w.issues.summary.text().endswith("2 accepted"), timeout=3000)


def test_ten_one_line_issues_fit_the_default_panel_whole_text_in_the_tooltip(make_window, qtbot,
                                                                             tmp_path):
    """In the window's default layout, ten problems show at once, one line
    each (cut short, not wrapped); hovering or choosing one shows it whole."""
    from rallyforge.engine.format.loader import save_file
    tiles = tuple(Tile(x, 0, "conveyor", dir="N") for x in range(12))     # W405 each
    path = tmp_path / "twelve-exits.json"
    save_file(Scenario("Exits", Board(12, 12, tiles=tiles), (Flag(5, 5), Flag(8, 8)),
                       (Dock(0, 11, "N"), Dock(1, 11, "N"))), path)
    w = make_window(path=path)
    tree = w.issues.tree
    qtbot.waitUntil(lambda: codes(w).count("W405") == 12, timeout=3000)
    QTest.qWait(10)
    items = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]
    rows = [tree.visualItemRect(item) for item in items]
    line = tree.fontMetrics().lineSpacing()
    assert all(r.height() < 2 * line for r in rows)                     # one line each
    shown = [r for r in rows if tree.viewport().rect().contains(r)]
    assert len(shown) >= 10
    first = items[0]
    message = first.data(0, issues_panel.PROBLEM).message
    assert tree.fontMetrics().horizontalAdvance(message) > tree.columnWidth(3)   # cut short
    assert all(message in first.toolTip(column) for column in range(4))
    QTest.mouseClick(tree.viewport(), Qt.LeftButton, Qt.NoModifier, rows[0].center())
    assert message in w.issues.detail.text()


def test_a_robots_problem_names_the_robot_and_its_card_in_words(make_window, qtbot, tmp_path):
    import json
    doc = {"format": "rally-scenario", "version": 1, "name": "Held twice",
           "board": {"width": 6, "height": 6}, "flags": [{"x": 0, "y": 0}],
           "docks": [{"x": 1, "y": 5, "facing": "N"}, {"x": 2, "y": 5, "facing": "N"}],
           "rules": {"options": "played"},
           "robots": [{"name": "Ada", "options": ["ablative-coat"]},
                      {"name": "Bo", "options": ["brakes", "ablative-coat"]}]}
    path = tmp_path / "held-twice.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    w = make_window(path)
    qtbot.waitUntil(lambda: "E313" in codes(w), timeout=3000)
    tree = w.issues.tree
    assert tree.headerItem().text(2) == "Where"
    item = tree.topLevelItem(codes(w).index("E313"))
    assert item.text(2) == "robot Bo, option card 2 (Ablative Coat)"
    assert "holds Ablative Coat, which robot 'Ada' already holds" in item.text(3)
    assert "ablative-coat" not in item.text(3)
    QTest.mouseClick(tree.viewport(), Qt.LeftButton, Qt.NoModifier,
                     tree.visualItemRect(item).center())
    assert "Ablative Coat" in w.issues.detail.text()


def test_pointers_read_as_words():
    from rallyforge.engine.model.problems import Problem
    from rallyforge.engine.model.scenario import RobotSpec
    s = Scenario("c", Board(4, 4), (Flag(0, 0),), (Dock(0, 3, "N"),),
                 robots=(RobotSpec("Ada", options=("crab-legs",)),))
    where = [issues_panel.location(Problem("error", "E", "m", pointer), s) for pointer in (
        "/robots/0/options/0", "/robots/0/program/2/cards/3", "/robots/0/program/1/0",
        "/checks/4/option_cards", "/rules/start_options", "")]
    assert where == ["robot Ada, option card 1 (Crab Legs)", "robot Ada, round 3, register 4",
                     "robot Ada, round 2, register 1", "check 5, option cards",
                     "rules, start options", "course"]
