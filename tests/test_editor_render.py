"""What the board view shows: a rendered image of a course has the expected
colours at known squares (render.COLORS at render.sample_point)."""
from PySide6.QtGui import QColor

from editor import render
from engine.elements_table import TILE_TYPES, new_tile
from engine.model import Board, Dock, Flag, Laser, Scenario, Tile, Wall
from tests.editor_support import answers, make_window  # noqa: F401  (fixtures)

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
               ("floor", (0, 3)), ("laser", (3, 0))]
    wrong = []
    for kind, (x, y) in checks:
        fx, fy = render.sample_point(kind)
        fy = max(fy, 1 / 64)        # the wall's point is on the edge: one pixel inside
        p = w.view.mapFromScene((x + fx) * 64, (y + fy) * 64)
        assert image.rect().contains(p), (kind, p)
        got = image.pixelColor(p)
        if not close(got, render.COLORS[kind]):
            wrong.append((kind, (x, y), got.name(), render.COLORS[kind].name()))
    assert wrong == []


def test_the_standard_course_shows_its_elements_colours(make_window):
    """Every tile of the example course that nothing else covers (no wall,
    beam, pusher, flag or dock on its square) shows its colour."""
    from pathlib import Path

    import pytest
    from engine.loader import load_file
    from engine.beams import board_beams

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
        fx, fy = render.sample_point(kind)
        got = image.pixelColor(w.view.mapFromScene((t.x + fx) * 64, (t.y + fy) * 64))
        checked += 1
        if not close(got, render.COLORS[kind]):
            wrong.append((kind, (t.x, t.y), got.name()))
    assert checked >= 5 and wrong == []
