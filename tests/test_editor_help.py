"""Keys every editor user expects (redo both ways, quit), the History
panel's saved mark, and the Help menu: shortcuts listed from the actions
themselves, the format and rules pages, About and --version."""
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtTest import QTest

from rallyforge.editor import app
from rallyforge.engine.cli import main as cli
from rallyforge.engine.model.scenario import Board, Scenario
from rallyforge.engine.version import version
from tests.editor_support import answers, click, make_window, window  # noqa: F401


def painted_twice(w):
    w.set_tool("brush")
    click(w.view, 1.5, 1.5)
    click(w.view, 2.5, 1.5)
    assert w.doc.undo_stack.count() == 2


@pytest.mark.parametrize("key, modifiers", [
    (Qt.Key_Y, Qt.ControlModifier),
    (Qt.Key_Z, Qt.ControlModifier | Qt.ShiftModifier),
])
def test_redo_from_the_keyboard(window, key, modifiers):
    painted_twice(window)
    QTest.keyClick(window, Qt.Key_Z, Qt.ControlModifier)
    QTest.keyClick(window, Qt.Key_Z, Qt.ControlModifier)
    assert window.doc.scenario.board.tiles == ()
    QTest.keyClick(window, key, modifiers)
    assert window.doc.undo_stack.index() == 1
    assert window.doc.scenario.board.tile_at(1, 1).type == "conveyor"


def test_no_key_is_bound_twice(window):
    seen = {}
    for menu in (a.menu() for a in window.menuBar().actions() if a.menu()):
        for action in menu.actions():
            for key in action.shortcuts():
                assert key.toString() not in seen, (key.toString(), seen.get(key.toString()))
                seen[key.toString()] = action.text()
    assert "Ctrl+Y" in seen and "Ctrl+Shift+Z" in seen and "Ctrl+Q" in seen


def test_ctrl_q_quits(window):
    window.view.setFocus()
    QTest.keyClick(window, Qt.Key_Q, Qt.ControlModifier)
    assert not window.isVisible()


def test_history_marks_the_saved_state(window, answers, tmp_path):
    history = window.history
    painted_twice(window)
    answers.save_path = str(tmp_path / "c.json")
    QTest.keyClick(window, Qt.Key_S, Qt.ControlModifier)

    def marked():
        model = history.model()
        icons = [model.data(model.index(r, 0), Qt.DecorationRole) for r in range(model.rowCount())]
        return [r for r, icon in enumerate(icons) if icon is not None and not icon.isNull()]
    assert marked() == [2]                       # "Opened", two strokes: the last one is saved
    QTest.keyClick(window, Qt.Key_Z, Qt.ControlModifier)
    assert marked() == [2]                       # still the saved one, though no longer current


def test_shortcuts_window_lists_every_key_from_the_actions(window):
    window.view.setFocus()
    QTest.keyClick(window, Qt.Key_F1)
    text = window.menus.help_windows["shortcuts"].browser.toPlainText()
    assert "Redo" in text and "Ctrl+Y or Ctrl+Shift+Z" in text
    for action in [*window.menus.actions.values(), *window.menus.tool_actions.values(),
                   *window.preview.menu.actions.values()]:
        for key in action.shortcuts():
            assert key.toString(QKeySequence.NativeText) in text, action.text()
    assert "Ctrl+Wheel" in text


def test_help_pages_and_about(window):
    menu = window.menus.by_name["help"]
    assert window.menuBar().actions()[-1].menu() is menu          # Help comes last
    window.menus.actions["format_page"].trigger()
    assert "E104" in window.menus.help_windows["format"].browser.toPlainText()
    format_page = window.menus.help_windows["format"].browser
    link = format_page.document().find("rules.md")                 # the first link to the rules
    link.setPosition(link.selectionStart() + 2)
    QTest.mouseClick(format_page.viewport(), Qt.LeftButton,
                     pos=format_page.cursorRect(link).center())
    assert "Moving by cards" in format_page.toPlainText()
    window.menus.actions["rules_page"].trigger()
    rules = window.menus.help_windows["rules"].browser.toPlainText()
    assert "register" in rules.lower() and "not installed" not in rules
    window.menus.actions["about"].trigger()
    about = window.menus.help_windows["about"].browser.toPlainText()
    assert f"Rally Forge {version()}" in about
    assert version() != "unknown"
    assert all(command in about for command in cli.COMMANDS)       # card included


@pytest.mark.parametrize("main, prog", [(cli.main, "rallyforge"), (app.main, "rallyforge-editor")])
def test_version_on_the_command_line(capsys, main, prog):
    with pytest.raises(SystemExit) as exit_:
        code = main(["--version"])
        raise SystemExit(code)
    assert exit_.value.code == 0
    assert capsys.readouterr().out.strip() == f"{prog} {version()}"
