"""The issue's "done when": a designer builds the example course from an
empty board with the mouse alone (palette, direction buttons, register boxes
and board clicks), saves it, reopens it, undoes back to empty and exports it
to PDF."""
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QStyle, QStyleOptionSpinBox

from rallyforge.editor.new_dialog import new_scenario
from rallyforge.editor.palette import ENTRIES
from rallyforge.engine.format.loader import load_file
from rallyforge.engine.model.directions import INDEX, NAMES, opposite
from rallyforge.engine.model.scenario import Board, Dock, Flag, Laser, Pusher, Scenario, Tile, Wall, edge_key
from tests.editor_support import answers, click, make_window  # noqa: F401  (fixtures)

STANDARD = Path(__file__).resolve().parent.parent / "scenarios" / "standard-course.json"
NEAR = {"N": (0.5, 0.06), "S": (0.5, 0.94), "W": (0.06, 0.5), "E": (0.94, 0.5)}


def fallback_course() -> Scenario:
    tiles = [Tile(x, 3, "conveyor", dir="E") for x in range(1, 9)]
    tiles += [Tile(9, y, "conveyor", dir="S") for y in range(3, 9)]
    tiles += [Tile(x, 10, "conveyor", dir="W", express=True) for x in range(2, 9)]
    tiles += [Tile(5, 6, "pit"), Tile(2, 7, "gear", rotation="cw"), Tile(7, 1, "gear", rotation="ccw"),
              Tile(10, 1, "repair"), Tile(1, 1, "upgrade"), Tile(4, 8, "crusher", phases=(2, 4)),
              Tile(7, 8, "current", dir="N"), Tile(6, 8, "water")]
    board = Board(12, 16, tuple(sorted(tiles, key=lambda t: (t.y, t.x))),
                  walls=(Wall(3, 3, "N"), Wall(4, 4, "W"), Wall(11, 6, "E")),
                  lasers=(Laser(0, 5, "E", 2),), pushers=(Pusher(5, 0, "S", (1, 3, 5)),))
    return Scenario("Built by Mouse", board, (Flag(10, 2), Flag(2, 8)),
                    tuple(Dock(x, 14, "N") for x in (5, 6, 3, 8)))


def target() -> Scenario:
    return load_file(STANDARD) if STANDARD.exists() else fallback_course()


def bare(s: Scenario) -> Scenario:
    """What the mouse builds: the board, flags and docks, without notes."""
    b = s.board
    def plain(items):
        return tuple(replace(i, note=None) for i in items)
    board = Board(b.width, b.height, plain(b.tiles), (), plain(b.lasers), plain(b.pushers))
    return Scenario(s.name, board, plain(s.flags), plain(s.docks))


class Designer:
    """Drives the editor as a person would: clicks only."""

    def __init__(self, window):
        self.w = window

    def palette(self, label: str) -> None:
        lst = self.w.element_palette.list
        item = lst.item(next(i for i, e in enumerate(ENTRIES) if e.label == label))
        QTest.mouseClick(lst.viewport(), Qt.LeftButton, Qt.NoModifier, lst.visualItemRect(item).center())
        QApplication.processEvents()    # lay out the options the element shows

    def direction(self, d: str) -> None:
        QTest.mouseClick(self.w.element_palette.dir_buttons.button(NAMES.index(d)), Qt.LeftButton)

    def registers(self, phases) -> None:
        boxes = self.w.element_palette.phases
        for r in sorted(range(1, 6), key=lambda r: r not in phases):   # check before unchecking
            if boxes[r - 1].isChecked() != (r in phases):
                QTest.mouseClick(boxes[r - 1], Qt.LeftButton)

    def beams(self, n: int) -> None:
        spin = self.w.element_palette.beams
        option = QStyleOptionSpinBox()
        spin.initStyleOption(option)
        for control in (QStyle.SC_SpinBoxUp, QStyle.SC_SpinBoxDown):
            rect = spin.style().subControlRect(QStyle.CC_SpinBox, option, control, spin)
            while (spin.value() < n) if control == QStyle.SC_SpinBoxUp else (spin.value() > n):
                QTest.mouseClick(spin, Qt.LeftButton, Qt.NoModifier, rect.center())

    def at(self, x: int, y: int, fx: float = 0.5, fy: float = 0.5, button=Qt.LeftButton) -> None:
        click(self.w.view, x + fx, y + fy, button)

    def tile_entry(self, t: Tile) -> str:
        return next(e.label for e in ENTRIES if e.kind == t.type and e.tool is None
                    and all(getattr(t, k) == v for k, v in e.values))

    def build(self, s: Scenario) -> None:
        b = s.board
        for t in sorted(b.tiles, key=lambda t: (t.type, t.express, t.dir or "", t.rotation or "",
                                                  t.phases)):
            if t.type == "floor":
                continue
            self.palette(self.tile_entry(t))
            if t.dir:
                self.direction(t.dir)
            if t.type == "crusher":
                self.registers(t.phases)
            self.at(t.x, t.y)
        self.palette("Wall")
        done = set()
        for wall in b.walls:
            edge = edge_key(wall.x, wall.y, wall.side)
            if edge in done:
                continue
            done.add(edge)
            self.at(wall.x, wall.y, *NEAR[wall.side])
        self.palette("Laser")
        for laser in b.lasers:
            self.beams(laser.beams)
            self.at(laser.x, laser.y, *NEAR[NAMES[opposite(INDEX[laser.dir])]])
        self.palette("Pusher")
        for pusher in b.pushers:
            self.registers(pusher.phases)
            self.at(pusher.x, pusher.y, *NEAR[NAMES[opposite(INDEX[pusher.dir])]])
        self.palette("Flag")
        for flag in s.flags:
            self.at(flag.x, flag.y)
        self.palette("Dock")
        for dock in s.docks:
            self.direction(dock.facing)
            self.at(dock.x, dock.y)


def test_build_the_example_course_by_mouse_save_reopen_undo_and_export(make_window, answers, tmp_path):
    goal = target()
    b = goal.board
    start = new_scenario(b.width, b.height, goal.name)
    w = make_window(scenario=start)
    Designer(w).build(goal)
    built = w.doc.scenario
    assert bare(built) == bare(goal)
    assert built.board.wall_edges == goal.board.wall_edges

    answers.save_path = str(tmp_path / "built.json")
    w.menus.actions["save"].trigger()
    assert load_file(tmp_path / "built.json") == built
    answers.open_elsewhere = True               # the first window still has it open
    reopened = make_window(tmp_path / "built.json")
    assert answers.asked.count("open_elsewhere") == 1
    assert reopened.doc.scenario == built

    while w.doc.undo_stack.canUndo():
        w.doc.undo_stack.undo()
    assert w.doc.scenario == start

    w.doc.undo_stack.setIndex(w.doc.undo_stack.count())
    answers.save_path = str(tmp_path / "built.pdf")
    w.menus.actions["export_pdf"].trigger()
    assert answers.errors == []
    assert (tmp_path / "built.pdf").read_bytes()[:5] == b"%PDF-"
