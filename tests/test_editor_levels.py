"""The Level tool (H) and level editing with real input events: drag,
rectangle and flood painting, Page Up / Page Down on the selection, the
palette's level, the inspector and the status bar; each edit one undo step.
And how levels look: lighter squares, a shadow on the low side of a ledge."""

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtTest import QTest

from rallyforge.drawing.board import paint_board
from rallyforge.drawing.walls import edge_margin
from rallyforge.engine.model.scenario import Board, Dock, Flag, Level, Scenario, Tile
from tests.editor_support import (  # noqa: F401  (fixtures)
    answers, click, drag_squares, make_window, window,
)


def levels(w) -> dict:
    return dict(w.doc.scenario.board.level_map)


def test_the_level_tool_paints_the_palette_level_as_one_undo_step(window):
    w = window
    w.menus.tool_actions["level"].trigger()
    assert w.tool_id == "level"
    w.element_palette.level_buttons.button(2).click()
    assert w.state.brush.level == 2
    drag_squares(w.view, [(1, 1), (3, 1)])
    assert levels(w) == {(1, 1): 2, (2, 1): 2, (3, 1): 2}
    assert w.doc.undo_stack.count() == 1
    drag_squares(w.view, [(2, 1)], Qt.RightButton)           # right button: the ground
    assert levels(w) == {(1, 1): 2, (3, 1): 2}
    w.doc.undo_stack.undo()
    assert levels(w) == {(1, 1): 2, (2, 1): 2, (3, 1): 2}


def test_shift_drag_fills_a_rectangle_and_ctrl_click_floods_one_level(window):
    w = window
    w.set_tool("level")
    w.state.set_brush(level=1)
    drag_squares(w.view, [(1, 1), (3, 2)], modifiers=Qt.ShiftModifier)
    assert set(levels(w)) == {(x, y) for x in (1, 2, 3) for y in (1, 2)}
    assert w.doc.undo_stack.count() == 1
    w.state.set_brush(level=3)
    click(w.view, 2.5, 1.5, modifiers=Qt.ControlModifier)    # the level-1 block only
    assert levels(w) == {(x, y): 3 for x in (1, 2, 3) for y in (1, 2)}


def test_page_up_and_down_raise_and_lower_the_selection(window):
    w = window
    w.state.set_selection((0, 0, 1, 0))
    w.view.setFocus()
    QTest.keyClick(w.view, Qt.Key_PageUp)
    QTest.keyClick(w.view, Qt.Key_PageUp)
    assert levels(w) == {(0, 0): 2, (1, 0): 2}
    QTest.keyClick(w.view, Qt.Key_PageDown)
    assert levels(w) == {(0, 0): 1, (1, 0): 1}
    for _ in range(4):
        QTest.keyClick(w.view, Qt.Key_PageDown)             # not below the ground
    assert levels(w) == {}
    assert w.doc.undo_stack.count() == 4          # the presses that change nothing leave no step


def test_the_status_bar_and_the_inspector_show_the_level(window):
    w = window
    w.set_tool("level")
    w.state.set_brush(level=2)
    drag_squares(w.view, [(4, 4)])
    w.status.show_square((4, 4))
    assert "level 2" in w.status.square_label.text()
    w.status.show_square((5, 4))
    assert "level" not in w.status.square_label.text()
    w.state.inspect((4, 4))
    spin = [s for s in w.inspector.widget().findChildren(type(w.element_palette.beams))
            if s.toolTip().startswith("The square's level")][0]
    assert spin.value() == 2
    spin.setValue(1)
    assert levels(w) == {(4, 4): 1}


def test_the_ramp_is_in_the_palette_and_paints_with_the_direction(window):
    w = window
    w.set_tool("brush")
    w.state.set_brush(kind="ramp", dir="S")
    drag_squares(w.view, [(2, 2)])
    assert w.doc.scenario.board.tile_at(2, 2) == Tile(2, 2, "ramp", dir="S")


def _paint(scenario: Scenario, s: int = 40) -> QImage:
    image = QImage(scenario.board.width * s, scenario.board.height * s,
                   QImage.Format_ARGB32_Premultiplied)
    image.fill(QColor("white"))
    p = QPainter(image)
    paint_board(p, scenario, square=s, grid=False)
    p.end()
    return image


def test_higher_squares_are_lighter_and_the_low_side_of_a_ledge_is_shadowed(qapp):
    board = Board(4, 2, levels=(Level(2, 0, 1), Level(3, 0, 2)))
    image = _paint(Scenario("levels", board, (Flag(0, 1),), (Dock(1, 1, "N"),)))
    s = 40

    def light(x: float) -> int:
        return image.pixelColor(int(x * s), s // 2).lightness()
    # the middle of each square: higher is lighter
    assert light(0.5) < light(2.5) < light(3.5)
    # next to the ledge between (1, 0) and (2, 0): the low side is darker than its middle
    assert light(1.95) < light(1.5) - 20
    # and the high side's edge is not shadowed
    assert light(2.1) >= light(2.5)


def _motions(path: str, cause: str):
    from rallyforge.engine.analysis.replay import play_race
    from rallyforge.engine.format.loader import load_file
    timeline = play_race(load_file(path))
    return timeline, [(i, m) for i, f in enumerate(timeline.frames) for m in f.motions
                      if m.cause == cause]


def test_the_preview_shows_a_slide_up_the_foot_and_back():
    from rallyforge.editor.preview.animation import interpolate, poses
    timeline, slides = _motions("tests/rules/L3-ramp-up-by-card.json", "slide")
    i, slide = next((i, m) for i, m in slides if m.robot == "One")
    assert (slide.src.x, slide.src.y, slide.dst.x, slide.dst.y) == (1, 0, 2, 0)
    assert 1.2 < interpolate(slide, 0.5).x < 2.0           # halfway up the ramp...
    assert interpolate(slide, 1.0).x == 1                  # ...and back down
    assert poses(timeline, i, 1.0)["One"].x == 1


def test_the_preview_shows_a_fall_as_a_drop_and_counts_its_damage():
    from rallyforge.editor.preview.animation import interpolate
    timeline, falls = _motions("tests/rules/L2-fall-by-card.json", "fall")
    i, fall = next((i, m) for i, m in falls if m.robot == "Two down")
    assert interpolate(fall, 0.5).scale < 0.8 and interpolate(fall, 1.0).scale == 1.0
    after = {r.name: r for r in timeline.frames[i].robots}
    assert after["Two down"].damage == 2


# ---------------------------------------------------------------- levels that read in grey

def _dark_share(image: QImage, rect) -> float:
    """The share of the pixels of rect (x0, y0, x1, y1) that are nearly black."""
    x0, y0, x1, y1 = (round(v) for v in rect)
    dark = sum(image.pixelColor(x, y).lightness() < 70
               for x in range(x0, x1) for y in range(y0, y1))
    return dark / ((x1 - x0) * (y1 - y0))


def _badge_share(view, square) -> float:
    """How much of the top-left corner of a square, on screen, is the dark level badge."""
    from tests.editor_support import point
    image = view.viewport().grab().toImage()
    a, b = point(view, square[0] + 0.08, square[1] + 0.08), point(view, square[0] + 0.28,
                                                                    square[1] + 0.28)
    return _dark_share(image, (a.x(), a.y(), b.x(), b.y()))


def test_the_level_tool_numbers_raised_squares_and_the_view_menu_keeps_them(window):
    w = window
    w.set_tool("level")
    w.state.set_brush(level=2)
    drag_squares(w.view, [(3, 3)])
    assert _badge_share(w.view, (3, 3)) > 0.4        # the number's badge, with the tool in hand
    assert _badge_share(w.view, (5, 5)) < 0.05       # the ground has none
    w.view.setFocus()
    QTest.keyClick(w.view, Qt.Key_B)                 # the brush: the board as it prints in colour
    assert w.tool_id == "brush"
    assert _badge_share(w.view, (3, 3)) < 0.05
    w.menus.actions["level_marks"].trigger()               # View > Show Level Numbers
    assert _badge_share(w.view, (3, 3)) > 0.4
    QTest.keyClick(w.view, Qt.Key_H)
    QTest.keyClick(w.view, Qt.Key_B)
    assert _badge_share(w.view, (3, 3)) > 0.4        # kept while the menu asks for them


def test_exports_number_levels_and_outline_ledges_in_grey(qapp, tmp_path):
    from rallyforge.drawing import pictures as export
    board = Board(3, 1, levels=(Level(1, 0, 1), Level(2, 0, 2)))
    scenario = Scenario("levels", board, (Flag(0, 0),), (Dock(0, 0, "N"),))
    s = 60
    image = export.render_image(scenario, s).convertToFormat(QImage.Format_Grayscale8)
    m = edge_margin(s)

    def share(x0, y0, x1, y1):
        return _dark_share(image, (m + x0 * s, m + y0 * s, m + x1 * s, m + y1 * s))
    assert share(0.08, 0.08, 0.28, 0.28) < 0.05      # the ground: no badge
    for x in (1, 2):
        assert share(x + 0.08, 0.08, x + 0.28, 0.28) > 0.4
    # a dark contour on the high side of each ledge (the colour shading alone
    # is two greys 8% apart)
    for x in (1, 2):
        assert share(x + 0.005, 0.4, x + 0.035, 0.6) > 0.9
    # the numbers differ: the badges of levels 1 and 2 are not the same picture
    one = image.copy(round(m + 1.05 * s), round(m + 0.05 * s), round(0.26 * s), round(0.26 * s))
    two = image.copy(round(m + 2.05 * s), round(m + 0.05 * s), round(0.26 * s), round(0.26 * s))
    assert one != two


def test_page_up_past_level_3_says_why_nothing_happened(window):
    w = window
    w.state.set_selection((2, 2, 2, 2))
    w.view.setFocus()
    for _ in range(3):
        QTest.keyClick(w.view, Qt.Key_PageUp)
    assert levels(w) == {(2, 2): 3}
    assert w.doc.undo_stack.count() == 3
    QTest.keyClick(w.view, Qt.Key_PageUp)
    assert levels(w) == {(2, 2): 3}
    assert w.doc.undo_stack.count() == 3
    assert "level 3 is the highest" in w.statusBar().currentMessage()
    for _ in range(4):
        QTest.keyClick(w.view, Qt.Key_PageDown)
    assert "the ground (level 0) is the lowest" in w.statusBar().currentMessage()
