"""`rallyforge run FILE --events --words` prints the race as the editor's
Race Log reads it: the same lines, in the same order, for the same race
(pytest-qt drives the editor; the command line runs in-process)."""
from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt

from rallyforge.editor.preview import install_preview
from rallyforge.engine.cli.main import main
from tests.editor_support import answers, make_window, window_on_copy  # noqa: F401

ROOT = Path(__file__).resolve().parent.parent
HIGHLANDS = ROOT / "scenarios" / "highlands.json"       # lists four scripted robots
TUTORIAL = ROOT / "scenarios" / "tutorial.json"         # lists none


def command_line_lines(capsys, *argv: str) -> list[str]:
    assert main(["run", *argv]) == 0
    return capsys.readouterr().out.splitlines()


def race_log_lines(qtbot, window, controller) -> list[str]:
    """Race with F5 and read every row of the Race Log as it shows it."""
    controller.playback.timeline = None
    qtbot.keyClick(window, Qt.Key_F5)
    qtbot.waitUntil(lambda: controller.playback.timeline is not None and not controller.worker.busy,
                    timeout=30000)
    model = controller.log.model
    return [model.data(model.index(row), Qt.DisplayRole) for row in range(model.rowCount())]


@pytest.fixture
def preview(window_on_copy):
    def open_copy(original: Path):
        window = window_on_copy(original)
        return window, install_preview(window), Path(window.doc.path)
    return open_copy


def tick(qtbot, box) -> None:
    qtbot.mouseClick(box, Qt.LeftButton, pos=QPoint(8, box.height() // 2))


def test_words_are_the_race_logs_lines_for_the_files_robots(qtbot, capsys, preview):
    window, controller, path = preview(HIGHLANDS)
    controller.panel.setup.seed.setValue(5)
    if not controller.panel.setup.use_scenario.isChecked():
        tick(qtbot, controller.panel.setup.use_scenario)
    shown = race_log_lines(qtbot, window, controller)
    printed = command_line_lines(capsys, str(path), "--seed", "5", "--events", "--words")
    assert len(shown) > 50 and shown[0] == " start  Climber starts on (3,8) facing N"
    assert "   1·1  Climber plays " in "\n".join(shown)  # the moment as the log shows it
    assert printed[:len(shown)] == shown
    summary = f"{window.doc.scenario.name} (seed 5): "
    assert printed[len(shown)].startswith(summary)         # then the summary, no event more


def test_words_are_the_race_logs_lines_for_the_panels_bots(qtbot, capsys, preview):
    window, controller, path = preview(TUTORIAL)
    panel = controller.panel.setup
    panel.seed.setValue(3)
    panel.robot_count.setValue(3)
    panel.all_bots.setCurrentText("greedy")                # as the designer picks it
    panel.all_bots.activated.emit(panel.all_bots.currentIndex())
    assert [c.currentText() for c in panel.bot_combos[:3]] == ["greedy"] * 3
    shown = race_log_lines(qtbot, window, controller)
    printed = command_line_lines(capsys, str(path), "--seed", "3", "--robots", "3",
                                 "--bot", "greedy", "--events", "--words")
    assert [line for line in shown if "starts on" in line] == [
        f" start  Robot {i} starts on ({d.x},{d.y}) facing {d.facing}"
        for i, d in enumerate(window.doc.scenario.docks[:3], 1)]
    assert printed[:len(shown)] == shown
    assert printed[len(shown)].startswith(f"{window.doc.scenario.name} (seed 3): ")


def test_events_without_words_keep_their_key_value_lines(capsys):
    lines = command_line_lines(capsys, str(HIGHLANDS), "--seed", "5", "--events", "--rounds", "1")
    assert lines[0].startswith("round 0 setup: place ")
    assert any(line.startswith("round 1 register 1 move: card ") and "card=" in line
               for line in lines)


@pytest.mark.parametrize("argv", [["--words"], ["--events", "--words", "--json"]])
def test_words_without_events_or_with_json_is_a_usage_error(capsys, argv):
    assert main(["run", str(HIGHLANDS), *argv]) == 2
    assert "--words goes with --events" in capsys.readouterr().err


def test_a_capture_flag_is_named_by_its_team_colour_or_else_by_its_team(capsys, tmp_path):
    """Teams named by colour carry "the blue flag"; the published Capture the
    Flag's teams A and B carry "team A's flag", not "the a flag"."""
    coloured = command_line_lines(capsys, str(ROOT / "tests" / "rules" /
                                             "13.7-capture-carry-and-drop.json"),
                                  "--events", "--words")
    assert any(line.endswith("A picks up the blue flag at (6,3)") for line in coloured)
    lettered = command_line_lines(capsys, str(ROOT / "engine" / "editing" / "published" /
                                              "capture-the-flag.json"),
                                  "--seed", "1", "--events", "--words")
    picked = [line for line in lettered if " picks up " in line]
    assert picked and all("team A's flag" in line or "team B's flag" in line for line in picked)
