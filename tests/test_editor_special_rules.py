"""The editor shows the special course rules where they act (docs/rules.md
12): the SuperBot's badge on the robot that holds the title in the race
preview, and the outlines of the course's factory boards."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from rallyforge.editor.preview import install_preview
from tests.editor_support import answers, make_window, window_on_copy  # noqa: F401

RULES = Path(__file__).parent / "rules"


def test_the_superbot_badge_follows_the_title(qtbot, window_on_copy):
    window = window_on_copy(RULES / "12.9-superbot-title-to-the-destroyer.json")
    c = install_preview(window)
    qtbot.mouseClick(c.panel.setup.use_scenario, Qt.LeftButton)     # race the file's scripted robots
    assert c.panel.setup.use_scenario.isChecked()
    qtbot.keyClick(window, Qt.Key_F5)
    qtbot.waitUntil(lambda: c.playback.timeline is not None and not c.worker.busy, timeout=30000)
    badges = lambda: {name for name, m in c.overlay.markers.items() if m.tag.superbot}  # noqa: E731
    c.player.seek(0)
    assert badges() == {"S"}
    first = next(f for f in c.playback.timeline.frames if f.register == 1 and f.register_end)
    c.player.seek(first.index)
    assert badges() == {"A"}
    window.grab().save("/tmp/superbot-badge.png")


def test_the_factory_boards_are_outlined_with_their_names(qtbot, window_on_copy, tmp_path):
    """The course's `boards` are drawn as dashed outlines, named in their
    top-left corner; a course without them is drawn as before."""
    from dataclasses import replace

    from PySide6.QtGui import QImage, QPainter

    from rallyforge.drawing.board import paint_board
    from rallyforge.engine.format.loader import load_file

    course = load_file(RULES / "12.10-board-turns-on-flag.json")

    def drawn(scenario) -> QImage:
        image = QImage(8 * 40, 4 * 40, QImage.Format.Format_ARGB32)
        image.fill(0)
        painter = QPainter(image)
        paint_board(painter, scenario, square=40)
        painter.end()
        return image

    with_outlines, without = drawn(course), drawn(replace(course, boards=()))
    differ = {(x, y) for x in range(0, 320, 2) for y in range(0, 160, 2)
              if with_outlines.pixel(x, y) != without.pixel(x, y)}
    assert {x // 40 for x, _ in differ} == set(range(8))         # along both boards
    assert any(160 - 4 <= x <= 160 + 4 for x, _ in differ)      # the border between them
    window = window_on_copy(RULES / "12.10-board-turns-on-flag.json")
    window.grab().save("/tmp/board-outlines.png")


def test_the_race_preview_draws_a_turned_board_from_its_turn_on(qtbot, window_on_copy):
    from rallyforge.engine.model.turning import turn_part

    window = window_on_copy(RULES / "12.10-board-turns-on-flag.json")
    c = install_preview(window)
    qtbot.mouseClick(c.panel.setup.use_scenario, Qt.LeftButton)
    qtbot.keyClick(window, Qt.Key_F5)
    qtbot.waitUntil(lambda: c.playback.timeline is not None and not c.worker.busy, timeout=30000)
    item, course = window.view.board_item, window.doc.scenario
    c.player.seek(0)
    assert item._race_board is None
    turn = next(i for i, e in enumerate(c.playback.timeline.events) if e.kind == "board_turn")
    c.player.seek(c.playback.timeline.frame_of_event(turn))
    assert item._race_board == turn_part(course.board, course.boards[0])
    window.grab().save("/tmp/turned-board.png")
    c.player.seek(0)
    assert item._race_board is None
