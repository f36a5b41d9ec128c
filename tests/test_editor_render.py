"""What the board view shows: a rendered image of a course has the expected
colours at known squares (style.COLORS at style.sample_point)."""
from PySide6.QtGui import QColor

from rallyforge.drawing import board_info, shapes, style
from rallyforge.engine.model.element_kinds import TILE_TYPES, new_tile
from rallyforge.engine.model.scenario import Board, Dock, Flag, Laser, Scenario, Tile, Wall
from tests.editor_support import answers, make_window, window  # noqa: F401  (fixtures)

KINDS = tuple(t for t in TILE_TYPES if t != "floor")


def example():
    tiles = []
    for i, kind in enumerate(KINDS):
        x, y = i % 6, 1 + i // 6
        tiles.append(new_tile(x, y, kind, dir="E", rotation="cw", phases=(2, 4)))
    tiles.append(Tile(5, 3, "conveyor", dir="N", express=True))
    board = Board(6, 5, tiles=tuple(tiles), walls=(Wall(0, 4, "N"),), lasers=(Laser(1, 0, "E"),))
    return Scenario("Colours", board, (Flag(3, 4),), (Dock(5, 4, "N"),))


def close(a: QColor, b: QColor, tolerance: int = 10) -> bool:
    return all(abs(p - q) <= tolerance for p, q in zip(a.getRgb()[:3], b.getRgb()[:3]))


def test_view_shows_the_expected_colours_at_known_squares(make_window):
    w = make_window(scenario=example())
    w.view.set_zoom(1.0)
    w.view.centerOn(3 * 64, 2.5 * 64)
    w.view.issue_overlay.hide()
    image = w.view.viewport().grab().toImage()
    checks = [(t.type, (t.x, t.y)) for t in example().board.tiles if not t.express]
    checks += [("express", (5, 3)), ("wall", (0, 4)), ("flag", (3, 4)), ("dock", (5, 4)),
               ("floor", (2, 3)), ("laser", (3, 0))]
    wrong = []
    for kind, (x, y) in checks:
        fx, fy = style.sample_point(kind)
        fy = max(fy, 1 / 64)        # the wall's point is on the edge: one pixel inside
        p = w.view.mapFromScene((x + fx) * 64, (y + fy) * 64)
        assert image.rect().contains(p), (kind, p)
        got = image.pixelColor(p)
        if not close(got, style.COLORS[kind]):
            wrong.append((kind, (x, y), got.name(), style.COLORS[kind].name()))
    assert wrong == []


def test_the_standard_course_shows_its_elements_colours(make_window):
    """Every tile of the example course that nothing else covers (no wall,
    beam, pusher, flag or dock on its square) shows its colour."""
    from pathlib import Path

    import pytest
    from rallyforge.engine.format.loader import load_file
    from rallyforge.engine.rules.beams import board_beams

    path = Path(__file__).resolve().parent.parent / "scenarios" / "standard-course.json"
    if not path.exists():
        pytest.skip("no standard course yet")
    s = load_file(path)
    b = s.board
    covered = {(f.x, f.y) for f in (*s.flags, *s.docks)} | set(b.pusher_map)
    covered |= {(sq % b.width, sq // b.width) for beam in board_beams(b) for sq in beam.squares}
    covered |= {(l.x, l.y) for l in b.lasers}
    w = make_window(path)
    w.view.set_zoom(0.5)
    w.view.issue_overlay.hide()
    image = w.view.viewport().grab().toImage()
    checked, wrong = 0, []
    for t in b.tiles:
        kind = "express" if t.express else t.type
        if (t.x, t.y) in covered or kind in ("conveyor", "express") or \
                any(b.has_wall(t.x, t.y, side) for side in "NESW"):
            continue                # belts: curves and feeders move the sampled pixel
        fx, fy = style.sample_point(kind)
        got = image.pixelColor(w.view.mapFromScene((t.x + fx) * 64, (t.y + fy) * 64))
        checked += 1
        if not close(got, style.COLORS[kind]):
            wrong.append((kind, (t.x, t.y), got.name()))
    assert checked >= 5 and wrong == []


def test_chevrons_on_a_belt_curve_follow_the_curve(window):
    """A belt laid round a corner with the mouse is drawn as a curve whose
    chevrons bend with it: each sweeps the same angle on the inside of the
    turn as on the outside (a straight chevron turned to the curve sweeps
    more on the inside)."""
    import math
    from tests.editor_support import drag_squares
    from rallyforge.drawing import board_info, shapes, style
    w = window
    w.set_tool("belt")
    drag_squares(w.view, [(1, 5), (2, 5), (3, 5), (4, 5), (4, 4), (4, 3)])
    board = w.doc.scenario.board
    assert board.tile_at(4, 5).dir == "N" and board.tile_at(3, 5).dir == "E"
    key = board_info.board_info(board).key(4, 5)
    assert key[0] == "conveyor" and key[-1] == 1                # fed from its left: a curve
    for express in (False, True):
        path = shapes.unit("curve_chevrons", express)
        chevrons = []
        for i in range(path.elementCount()):
            e = path.elementAt(i)
            if e.isMoveTo():
                chevrons.append([])
            chevrons[-1].append((e.x, e.y))
        assert len(chevrons) == (4 if express else 2)
        for points in chevrons:
            polar = [(math.hypot(x, y), math.atan2(y, x)) for x, y in points]
            inner = [a for r, a in polar if r < 0.45]
            outer = [a for r, a in polar if r > 0.55]
            assert abs((max(inner) - min(inner)) - (max(outer) - min(outer))) < 0.05   # straight: 0.15


def test_a_crusher_s_registers_are_drawn_above_a_laser_beam(window):
    from tests.editor_support import click, point
    w = window
    w.state.set_brush(kind="crusher", phases=(2, 4))
    w.set_tool("brush")
    click(w.view, 3.5, 3.5)
    w.set_tool("laser")
    click(w.view, 1.05, 3.5)                                     # the W edge of (1, 3): fires E
    board = w.doc.scenario.board
    assert board.tile_at(3, 3).type == "crusher" and board.lasers[0].dir == "E"
    v = w.view
    image = v.viewport().grab().toImage()
    left, right = point(v, 3.2, 3.5), point(v, 3.8, 3.5)
    line = [image.pixelColor(x, left.y()) for x in range(left.x(), right.x())]
    white = [c for c in line if min(c.red(), c.green(), c.blue()) > 220]
    assert white, "the register numbers are hidden under the beam"
