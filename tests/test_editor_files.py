"""Files: save and reopen, Save As (atomic), unreadable files, files with
errors, unsaved-changes questions, revert, recent files, autosave, New,
Insert Board and Export."""
import os
from pathlib import Path

from rallyforge.editor.new_dialog import new_scenario
from rallyforge.engine.format.loader import load_file, save_file
from rallyforge.engine.model.scenario import Board, Dock, Flag, Laser, Pusher, Scenario, Tile, Wall
from tests.editor_support import (  # noqa: F401  (fixtures)
    answers, click, crash, drag_squares, make_window, window,
)

FIXTURES = Path(__file__).parent / "fixtures"


def sample():
    board = Board(8, 6, tiles=(Tile(1, 1, "conveyor", dir="E", express=True), Tile(3, 3, "pit")),
                  walls=(Wall(2, 2, "N"),), lasers=(Laser(0, 4, "E", 2),),
                  pushers=(Pusher(5, 0, "S", (1, 3, 5)),))
    return Scenario("Sample", board, (Flag(6, 1), Flag(1, 4)), (Dock(0, 5, "N"), Dock(1, 5, "N")),
                    author="Test")


def test_save_then_reopen_gives_an_equal_scenario(make_window, answers, tmp_path):
    w = make_window(scenario=sample())
    w.set_tool("belt")
    drag_squares(w.view, [(2, 4), (4, 4), (4, 2)])
    answers.save_path = str(tmp_path / "course")          # .json is added
    assert w.files.save()                                  # untitled: Save As
    path = tmp_path / "course.json"
    assert path.exists() and not w.doc.modified
    assert w.windowTitle().startswith("course.json —")
    edited = w.doc.scenario
    assert load_file(path) == edited
    w.close()
    other = make_window(path)
    assert other.doc.scenario == edited and other.doc.path == str(path)


def test_title_shows_the_unsaved_mark(make_window, answers, tmp_path):
    path = tmp_path / "marked.json"
    save_file(sample(), path)
    w = make_window(path)
    assert w.windowTitle() == "marked.json — Rally Forge"
    click(w.view, 7.5, 5.5)                                # brush
    assert w.windowTitle() == "marked.json* — Rally Forge"
    w.doc.undo_stack.undo()
    assert w.windowTitle() == "marked.json — Rally Forge"


def test_save_as_is_atomic(make_window, answers, tmp_path, monkeypatch):
    path = tmp_path / "atomic.json"
    path.write_text("original", encoding="utf-8")
    w = make_window(scenario=sample())
    answers.save_path = str(path)
    replaced = []
    real_replace = os.replace

    def spy(src, dst):
        replaced.append((Path(src).parent, Path(dst)))
        assert Path(dst).read_text(encoding="utf-8") == "original"   # untouched until the rename
        real_replace(src, dst)
    monkeypatch.setattr(os, "replace", spy)
    assert w.files.save_as()
    assert replaced == [(tmp_path, path)]
    assert load_file(path) == sample()
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        ".atomic.json.autosave.lock", "atomic.json"]                  # no temporary left


def test_failed_save_keeps_the_changes_and_says_why(make_window, answers, tmp_path):
    w = make_window(scenario=sample())
    click(w.view, 7.5, 5.5)
    answers.save_path = str(tmp_path / "missing-folder" / "x.json")
    assert not w.files.save()
    assert w.doc.modified and answers.errors and answers.errors[0][0] == "Cannot save"


def test_unreadable_file_shows_a_dialog_and_keeps_the_course(make_window, answers):
    w = make_window(scenario=sample())
    for name in ("not-json.json", "not-utf8.json"):
        assert not w.files.open(str(FIXTURES / "unreadable" / name))
    assert len(answers.errors) == 2
    assert all(title == "Cannot open file" for title, _ in answers.errors)
    assert "JSON" in answers.errors[0][1]
    assert w.doc.scenario == sample()
    w2 = make_window(FIXTURES / "unreadable" / "missing.json")     # at start-up too
    assert "no such file" in answers.errors[-1][1]
    assert w2.doc.path is None


def test_file_with_errors_opens_what_can_be_read(make_window, qtbot):
    w = make_window(FIXTURES / "invalid" / "two-tiles-on-square.json")
    assert w.doc.path.endswith("two-tiles-on-square.json")
    assert any(p.code == "E202" for p in w.doc.load_problems)
    qtbot.waitUntil(lambda: w.issues.tree.topLevelItemCount() > 0, timeout=3000)
    codes = [w.issues.tree.topLevelItem(i).text(1) for i in range(w.issues.tree.topLevelItemCount())]
    assert "E202" in codes


def test_closing_with_unsaved_changes_asks(make_window, answers, tmp_path):
    w = make_window(scenario=sample())
    click(w.view, 7.5, 5.5)
    answers.save_changes = "cancel"
    assert not w.close()
    assert answers.asked == ["save_changes"] and w.isVisible()
    answers.save_changes = "save"
    answers.save_path = str(tmp_path / "closing.json")
    assert w.close()
    assert load_file(tmp_path / "closing.json") == w.doc.scenario


def test_opening_over_unsaved_changes_asks(make_window, answers, tmp_path):
    path = tmp_path / "other.json"
    save_file(sample(), path)
    w = make_window()
    click(w.view, 0.5, 0.5)
    answers.save_changes = "cancel"
    answers.open_path = str(path)
    assert not w.files.open()
    answers.save_changes = "discard"
    assert w.files.open()
    assert w.doc.scenario == sample() and not w.doc.modified
    assert w.files.recent()[0] == str(path.resolve())
    w.menus.update_recent()
    assert w.menus.recent.actions()[0].text() == "other.json"


def test_revert_goes_back_to_the_file(make_window, answers, tmp_path):
    path = tmp_path / "revert.json"
    save_file(sample(), path)
    w = make_window(path)
    click(w.view, 7.5, 5.5)
    assert w.menus.actions["revert"].isEnabled()
    w.menus.actions["revert"].trigger()
    assert w.doc.scenario == sample() and not w.doc.modified


def test_autosave_is_written_and_offered_back(make_window, answers, tmp_path):
    path = tmp_path / "auto.json"
    save_file(sample(), path)
    os.utime(path, (1, 1))                                 # the file is old
    w = make_window(path)
    click(w.view, 7.5, 5.5)
    edited = w.doc.scenario
    written = w.files.autosave()
    assert written == tmp_path / "auto.json.autosave.json"
    assert load_file(written) == edited
    assert w.files.autosave() is None                      # nothing new since
    # A crash: the window goes without closing; the next start offers the backup.
    crash(w)
    answers.restore = True
    again = make_window(path)
    assert "restore" in answers.asked
    assert again.doc.scenario == edited and again.doc.modified
    again.doc.undo_stack.undo()                            # the restore is one undo step
    assert again.doc.scenario == sample()
    again.doc.undo_stack.redo()
    assert again.files.save()
    assert not written.exists()                            # saving deletes the backup


def test_untitled_autosave_and_declining_deletes_it(make_window, answers):
    w = make_window()
    click(w.view, 3.5, 3.5)
    written = w.files.autosave()
    assert written is not None and written.name == "untitled.autosave.json"
    crash(w)
    answers.restore = False
    make_window()
    assert "restore" in answers.asked and not written.exists()


def test_autosave_timer_fires(make_window, qtbot, tmp_path, answers):
    path = tmp_path / "timer.json"
    save_file(sample(), path)
    w = make_window(path)
    w.files.timer.setInterval(20)
    click(w.view, 7.5, 5.5)
    qtbot.waitUntil(lambda: (tmp_path / "timer.json.autosave.json").exists(), timeout=2000)
    w.files.timer.stop()
    answers.save_changes = "discard"
    assert w.close()
    assert not (tmp_path / "timer.json.autosave.json").exists()


def test_new_course_with_a_docking_bay(window, answers, monkeypatch):
    from rallyforge.editor import dialogs
    click(window.view, 1.5, 1.5)
    monkeypatch.setattr(dialogs, "get_new_course", lambda parent: new_scenario(12, 12, "Fresh", bay=True))
    window.menus.actions["new"].trigger()
    s = window.doc.scenario
    assert (s.name, s.board.width, s.board.height, len(s.docks)) == ("Fresh", 12, 16, 8)
    assert all(d.y == 14 and d.facing == "N" for d in s.docks)
    assert not window.doc.modified and window.doc.undo_stack.count() == 0
    assert window.windowTitle() == "Fresh — Rally Forge"       # named after the course


def test_insert_board_is_one_undo_step(window, tmp_path):
    from rallyforge.editor.insert_board_dialog import InsertBoardDialog
    bay = tmp_path / "bay.json"
    save_file(new_scenario(12, 0, "Bay", bay=True), bay)
    before = window.doc.scenario
    dialog = InsertBoardDialog(window.doc, window)
    dialog.path.setText(str(bay))
    dialog.read()
    dialog.corner.setCurrentIndex(dialog.corner.findData("sw"))     # a bay goes below
    dialog.accept()
    s = window.doc.scenario
    assert (s.board.width, s.board.height, len(s.docks)) == (12, 16, 8)
    assert window.doc.undo_stack.count() == 1
    window.doc.undo_stack.undo()
    assert window.doc.scenario is before


def test_export_asks_the_square_size_for_pdf(window, answers, tmp_path, monkeypatch):
    from rallyforge.drawing import pictures as export
    calls = []
    monkeypatch.setattr(export, "export", lambda scenario, path, **kw: calls.append((path, kw)))
    answers.save_path = str(tmp_path / "course")
    answers.square_mm = 30.0
    window.menus.actions["export_pdf"].trigger()
    window.menus.actions["export_png"].trigger()
    assert calls == [(str(tmp_path / "course.pdf"), {"square_mm": 30.0, "paper": "A4"}),
                     (str(tmp_path / "course.png"), {})]
