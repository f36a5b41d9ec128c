"""File > New from Boards, Insert Board from the library and File > Import
Tiled Map, driven with real input (the modal dialogs are filled by keys and
clicks once they are up)."""
from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from rallyforge.drawing import style
from rallyforge.editor.insert_board_dialog import InsertBoardDialog
from rallyforge.drawing.style import SQUARE
from rallyforge.editor.new_from_boards_dialog import NewFromBoardsDialog
from rallyforge.engine.cli.main import main
from rallyforge.engine.editing import library
from rallyforge.engine.editing.transform import rotate_board
from rallyforge.engine.format.loader import save_file
from rallyforge.engine.model.scenario import FactoryBoard, Flag
from tests.editor_support import answers, make_window, window  # noqa: F401  (fixtures)
from tests.test_editor_painting import click


class Filled:
    """What went wrong while the dialog was filled (raised again after it closed)."""
    error: BaseException | None = None

    def check(self) -> None:
        if self.error is not None:
            raise self.error


def when_open(kind, act) -> Filled:
    """Run act(dialog) on the modal dialog of this kind once it is shown; a
    failure closes the dialog, so that the test fails instead of waiting."""
    filled = Filled()

    def check():
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, kind):
            QTimer.singleShot(20, check)
            return
        try:
            act(dialog)
        except BaseException as exc:     # noqa: BLE001  (raised again by Filled.check)
            filled.error = exc
            dialog.reject()
    QTimer.singleShot(0, check)
    return filled


def ok(dialog) -> None:
    QTest.mouseClick(dialog.buttons.button(QDialogButtonBox.Ok), Qt.LeftButton)


def choose(combo, text: str) -> None:
    """Pick an entry the way a keyboard user does: Home, then Down until it is there."""
    combo.setFocus()
    QTest.keyClick(combo, Qt.Key_Home)
    for _ in range(combo.count()):
        if combo.currentText() == text:
            return
        QTest.keyClick(combo, Qt.Key_Down)
    assert combo.currentText() == text


def pick(dialog: InsertBoardDialog, name: str) -> None:
    """Click a board of the library list by its name."""
    names = [dialog.library.item(i).text() for i in range(dialog.library.count())]
    rect = dialog.library.visualItemRect(dialog.library.item(names.index(name)))
    QTest.mouseClick(dialog.library.viewport(), Qt.LeftButton, Qt.NoModifier, rect.center())


def activate(dialog) -> None:
    """Key shortcuts reach the active window only."""
    dialog.windowHandle().requestActivate()
    for _ in range(200):
        if dialog.isActiveWindow():
            return
        QApplication.processEvents()
    raise AssertionError("the dialog never became the active window")


def test_new_from_boards_assembles_two_library_boards_and_a_bay_undo_redo_and_races(
        window, qtbot, tmp_path, capsys):
    w = window
    seen = {}

    def fill(dialog: NewFromBoardsDialog) -> None:
        choose(dialog.boards[0], "Chess")
        choose(dialog.boards[1], "Cross")
        dialog.turns[1].setFocus()
        QTest.keyClick(dialog.turns[1], Qt.Key_Down)          # Cross turned 90°
        choose(dialog.bay, "Docking Bay 1")
        seen["preview"] = dialog.preview.pixmap().size()
        dialog.grab().save(str(tmp_path / "new-from-boards.png"))
        ok(dialog)

    filled = when_open(NewFromBoardsDialog, fill)
    w.menus.actions["new_from_boards"].trigger()
    filled.check()
    s = w.doc.scenario
    assert (s.board.width, s.board.height) == (24, 16)
    assert seen["preview"].width() > 100                       # the live picture was drawn
    bay = library.load(library.find("docking-bay-1"))
    assert [(d.x, d.y) for d in s.docks] == [(d.x, d.y + 12) for d in bay.docks]
    cross = rotate_board(library.load(library.find("cross")).board, 1)
    assert ({(t.x - 12, t.y, t.type, t.dir) for t in s.board.tiles if t.x >= 12 and t.y < 12}
            == {(t.x, t.y, t.type, t.dir) for t in cross.tiles})
    assert s.boards == (FactoryBoard("Chess", 0, 0, 12, 12), FactoryBoard("Cross", 12, 0, 12, 12, 1),
                        FactoryBoard("Docking Bay 1", 0, 12, 12, 4))     # written with the course
    assert w.doc.undo_stack.count() == 1
    w.doc.undo_stack.undo()
    assert w.doc.scenario.board.tiles == () and w.doc.scenario.docks == ()
    assert w.doc.scenario.boards == ()
    w.doc.undo_stack.redo()
    assert w.doc.scenario == s
    w.set_tool("flag")
    for x, y in ((16, 3), (4, 5)):                             # plain floor squares
        click(w.view, x + 0.5, y + 0.5)
    assert w.doc.scenario.flags == (Flag(16, 3), Flag(4, 5))
    path = tmp_path / "assembled.json"
    save_file(w.doc.scenario, path)
    assert main(["card", str(path), "--races", "8", "--robots", "2"]) == 0
    assert "Length" in capsys.readouterr().out


def test_insert_board_from_the_library_turns_its_preview_with_z_and_is_one_undo_step(
        window, qtbot, tmp_path):
    w = window
    before = w.doc.scenario
    seen = {}

    def fill(dialog: InsertBoardDialog) -> None:
        pick(dialog, "Maelstrom")
        seen["drawn"] = dialog.preview.pixmap().toImage()
        activate(dialog)
        QTest.keyClick(dialog, Qt.Key_Z)
        QTest.keyClick(dialog, Qt.Key_Z)
        QTest.keyClick(dialog, Qt.Key_Z, Qt.ShiftModifier)
        seen["turns"] = dialog.turns.currentData()
        seen["turned"] = dialog.preview.pixmap().toImage()
        dialog.corner.setCurrentIndex(dialog.corner.findData("en"))
        dialog.grab().save(str(tmp_path / "insert-board.png"))
        ok(dialog)

    filled = when_open(InsertBoardDialog, fill)
    w.menus.actions["insert_board"].trigger()
    filled.check()
    assert seen["turns"] == 1 and seen["turned"] != seen["drawn"]
    s = w.doc.scenario
    assert (s.board.width, s.board.height) == (before.board.width + 12, before.board.height)
    maelstrom = rotate_board(library.load(library.find("maelstrom")).board, 1)
    dx = before.board.width
    assert ({(t.x - dx, t.y, t.type, t.dir) for t in s.board.tiles if t.x >= dx}
            == {(t.x, t.y, t.type, t.dir) for t in maelstrom.tiles})
    assert s.flags == before.flags and s.docks == before.docks   # the library's own left out
    assert s.boards == before.boards + (FactoryBoard("Maelstrom", dx, 0, 12, 12, 1),)
    assert w.doc.undo_stack.count() == 1
    w.doc.undo_stack.undo()
    assert w.doc.scenario is before


def test_import_tiled_map_opens_the_course_and_refuses_a_non_map(window, answers, tmp_path):
    from tests.test_tiled_import import small_map, tmx
    good = tmp_path / "small.tmx"
    good.write_text(small_map(), encoding="utf-8")
    answers.open_path = str(good)
    window.menus.actions["import_map"].trigger()
    assert window.doc.scenario.name == "Small" and len(window.doc.scenario.docks) == 2
    bad = tmp_path / "iso.tmx"
    bad.write_text(tmx(2, 2, {"l": [0] * 4}, orientation="isometric"), encoding="utf-8")
    answers.open_path = str(bad)
    window.menus.actions["import_map"].trigger()
    assert answers.errors == [("Import Tiled Map", "iso.tmx cannot be imported.")]
    assert window.doc.scenario.name == "Small"


def test_import_tiled_map_shows_what_could_not_be_placed(window, answers, tmp_path, monkeypatch):
    from rallyforge.editor import dialogs
    from tests.test_tiled_import import FLAG1, DOCK1, grid, tmx
    shown = []
    monkeypatch.setattr(dialogs, "show_warning",
                        lambda parent, title, text, details="": shown.append(details))
    path = tmp_path / "odd.tmx"
    path.write_text(tmx(3, 1, {"l": grid(3, 1, {(0, 0): FLAG1, (1, 0): 136, (2, 0): DOCK1})}),
                    encoding="utf-8")
    answers.open_path = str(path)
    window.menus.actions["import_map"].trigger()
    assert len(shown) == 1 and "odd.tmx:1,0" in shown[0] and "tile 135" in shown[0]
    assert window.doc.scenario.name == "Odd"


def test_insert_board_goes_beside_the_board_by_default_never_under_the_bay(make_window, qtbot):
    """On a course with a docking bay at the south, a board inserted with the
    dialog's defaults lands beside the factory board, and the table beside
    the bay stays void (drawn as the table, no floor for robots)."""
    chess, bay = (library.load(library.find(n)) for n in ("chess", "docking-bay-1"))
    course = library.assemble([(chess, 0)], (bay, 0), "side", "Chess")
    w = make_window(scenario=course)

    def fill(dialog: InsertBoardDialog) -> None:
        pick(dialog, "Cross")
        ok(dialog)

    filled = when_open(InsertBoardDialog, fill)
    w.menus.actions["insert_board"].trigger()
    filled.check()
    s = w.doc.scenario
    assert (s.board.width, s.board.height) == (24, 16)
    cross = library.load(library.find("cross")).board
    assert ({(t.x - 12, t.y, t.type) for t in s.board.tiles if t.x >= 12 and t.type != "void"}
            == {(t.x, t.y, t.type) for t in cross.tiles})
    assert {(t.x, t.y) for t in s.board.tiles if t.type == "void"} == {
        (x, y) for x in range(12, 24) for y in range(12, 16)}
    assert s.docks == course.docks
    w.view.fit()
    shot = w.view.grab().toImage()
    at = w.view.mapFromScene(18.5 * SQUARE, 14.5 * SQUARE)   # beside the bay: the table
    assert shot.pixelColor(at) == style.COLORS["void"]
