"""Drawing courses: colours at known points, every element, partial repaints,
palette icons, and the time a 100x100 course takes (printed, not asserted)."""
from __future__ import annotations


import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QImage, QPainter, QTransform

from rallyforge.drawing import icons, style
from rallyforge.drawing.board import paint_board
from rallyforge.engine.model.directions import DX, DY, INDEX
from rallyforge.engine.model.element_kinds import TILE_TYPES, new_tile
from rallyforge.engine.model.scenario import Board, Dock, Flag, Laser, Pusher, Scenario, Tile, Wall

S = style.SQUARE


def tile(x, y, kind, d="N", express=False, rotation="cw", phases=(1, 3, 5)) -> Tile:
    return new_tile(x, y, kind, dir=d, express=express, rotation=rotation, phases=tuple(phases))


def paint(scenario: Scenario, square: int = S, **kwargs) -> QImage:
    b = scenario.board
    image = QImage(b.width * square, b.height * square, QImage.Format_ARGB32_Premultiplied)
    image.fill(QColor("magenta"))
    painter = QPainter(image)
    paint_board(painter, scenario, square=square, **kwargs)
    painter.end()
    return image


def colour_at(image: QImage, x: int, y: int, kind: str, square: int = S) -> QColor:
    fx, fy = style.sample_point(kind)
    px = min(int((x + fx) * square), (x + 1) * square - 1)
    py = min(int((y + fy) * square), (y + 1) * square - 1)
    return image.pixelColor(px, py)


def same(a: QColor, b: QColor, tolerance: int = 6) -> bool:
    return all(abs(p - q) <= tolerance for p, q in zip(a.getRgb()[:3], b.getRgb()[:3]))


def sampled_wrong(image, cases, square=S):
    wrong = []
    for kind, (x, y) in cases:
        got = colour_at(image, x, y, kind, square)
        if not same(got, style.COLORS[kind]):
            wrong.append((kind, (x, y), got.name(), style.COLORS[kind].name()))
    return wrong


def every_variant() -> tuple[Scenario, list]:
    """Each tile type in every direction, rotation and belt shape, one per square."""
    tiles, cases = [], []
    y = 0
    for kind in TILE_TYPES:
        for i, d in enumerate("NESW"):
            tiles.append(tile(i, y, kind, d=d, rotation="ccw" if i % 2 else "cw",
                              phases=(1, 2, 3, 4, 5) if i == 3 else (2,) if i else (1, 3, 5)))
            cases.append((kind, (i, y)))
        y += 1
    # Express belts, and belts fed from every side: curves and merges.
    for i, d in enumerate("NESW"):
        tiles.append(tile(i, y, "conveyor", d=d, express=True))
        cases.append(("express", (i, y)))
    y += 2
    cx = 1
    for express in (False, True):
        for feed in ("W", "E", "S", "WE", "WS", "WES"):
            # a belt going N at (cx, y) fed by belts pointing into it
            tiles.append(tile(cx, y, "conveyor", d="N", express=express))
            cases.append(("express" if express else "conveyor", (cx, y)))
            for side in feed:
                dx, dy, into = {"W": (-1, 0, "E"), "E": (1, 0, "W"), "S": (0, 1, "N")}[side]
                tiles.append(tile(cx + dx, y + dy, "conveyor", d=into, express=express))
            cx += 4
    board = Board(48, y + 2, tiles=tuple(tiles))
    return Scenario("variants", board, (Flag(40, 0),), (Dock(41, 0, "N"),)), cases


def test_every_tile_variant_shows_its_colour_at_its_sample_point(qapp):
    scenario, cases = every_variant()
    image = paint(scenario)
    assert sampled_wrong(image, cases) == []


def test_colours_of_walls_lasers_pushers_flags_and_docks(qapp):
    board = Board(6, 4, walls=(Wall(1, 1, "N"), Wall(0, 0, "N")),
                  lasers=(Laser(0, 2, "E", 1),),
                  pushers=(Pusher(4, 0, "N", (1, 3, 5)), Pusher(5, 0, "N", (1, 2, 3, 4, 5))))
    scenario = Scenario("marks", board, (Flag(2, 0), Flag(3, 3)),
                        (Dock(0, 3, "E"), Dock(1, 3, "W")))
    image = paint(scenario)
    cases = [("wall", (1, 1)), ("wall", (0, 0)), ("laser", (3, 2)), ("laser", (5, 2)),
             ("pusher", (4, 0)), ("pusher", (5, 0)), ("flag", (2, 0)), ("flag", (3, 3)),
             ("dock", (0, 3)), ("dock", (1, 3)), ("floor", (3, 0))]
    assert sampled_wrong(image, cases) == []


def test_laser_beam_stops_at_a_wall(qapp):
    board = Board(6, 1, walls=(Wall(2, 0, "E"),), lasers=(Laser(0, 0, "E", 1),))
    image = paint(Scenario("beam", board, (Flag(5, 0),), (Dock(4, 0, "N"),)))
    assert same(colour_at(image, 1, 0, "laser"), style.COLORS["laser"])
    assert same(colour_at(image, 2, 0, "laser"), style.COLORS["laser"])
    assert same(colour_at(image, 3, 0, "floor"), style.COLORS["floor"])


def test_three_beams_are_three_lines(qapp):
    board = Board(3, 1, lasers=(Laser(0, 0, "E", 3),))
    image = paint(Scenario("beams", board, (Flag(2, 0),), (Dock(2, 0, "N"),)))
    column = [image.pixelColor(S + S // 2, y) for y in range(S)]
    red = [same(c, style.COLORS["laser"]) for c in column]
    runs = sum(1 for i in range(1, S) if red[i] and not red[i - 1])
    assert runs == 3


def test_large_pit_has_no_inner_rims(qapp):
    board = Board(4, 4, tiles=tuple(tile(x, y, "pit") for x in (1, 2) for y in (1, 2)))
    image = paint(Scenario("pit", board, (Flag(0, 0),), (Dock(3, 3, "N"),)))
    # where the four squares meet, it is all hole
    assert same(image.pixelColor(2 * S, 2 * S), style.COLORS["pit"])
    assert same(image.pixelColor(2 * S - 3, S + S // 2), style.COLORS["pit"])


def test_partial_repaint_matches_the_full_picture(qapp):
    scenario, _ = every_variant()
    full = paint(scenario)
    part = QImage(full.size(), QImage.Format_ARGB32_Premultiplied)
    part.fill(QColor("magenta"))
    painter = QPainter(part)
    paint_board(painter, scenario, area=(2, 1, 9, 5))
    painter.end()
    for y in range(1, 5):
        for x in range(2, 9):
            for fx, fy in ((0.5, 0.5), (0.2, 0.8), (0.9, 0.1)):
                px, py = int((x + fx) * S), int((y + fy) * S)
                assert part.pixelColor(px, py) == full.pixelColor(px, py), (x, y)
    # nothing outside the area is touched
    assert part.pixelColor(S + S // 2, S + S // 2) == QColor("magenta")
    assert part.pixelColor(9 * S + 2, 2 * S) == QColor("magenta")


def test_vector_and_rotated_painting_work(qapp):
    """Under a rotating transform the stamps are drawn as vectors; the colours
    stay where they belong."""
    scenario, cases = every_variant()
    b = scenario.board
    image = QImage(b.height * S, b.width * S, QImage.Format_ARGB32_Premultiplied)
    image.fill(QColor("magenta"))
    painter = QPainter(image)
    painter.setTransform(QTransform(0, 1, -1, 0, b.height * S, 0))      # a quarter turn clockwise
    paint_board(painter, scenario)
    painter.end()
    x, y = cases[0][1]
    got = image.pixelColor(int((b.height - y - 0.5) * S), int((x + 0.5) * S))
    assert same(got, style.COLORS["floor"])


def test_small_squares_and_no_grid(qapp):
    scenario, cases = every_variant()
    image = paint(scenario, square=24, grid=False)
    assert image.width() == scenario.board.width * 24
    assert same(colour_at(image, 0, 1, "pit", 24), style.COLORS["pit"])


@pytest.mark.parametrize("kind", icons.ICON_KINDS)
def test_palette_icons(qapp, kind):
    image = QImage(40, 48, QImage.Format_ARGB32_Premultiplied)
    image.fill(QColor("magenta"))
    painter = QPainter(image)
    for i, d in enumerate("NESW"):
        icons.paint_element_icon(painter, QRectF(0, 4, 40, 40), kind, d, express=bool(i % 2),
                                  rotation="ccw" if i % 2 else "cw")
    painter.end()
    assert image.pixelColor(20, 24) != QColor("magenta")
    assert image.pixelColor(20, 2) == QColor("magenta")         # stays inside its square


def test_unknown_icon_is_an_error(qapp):
    image = QImage(10, 10, QImage.Format_ARGB32_Premultiplied)
    painter = QPainter(image)
    try:
        with pytest.raises(ValueError, match="no icon"):
            icons.paint_element_icon(painter, QRectF(0, 0, 10, 10), "robot")
    finally:
        painter.end()


def big_course(n: int = 100) -> Scenario:
    """n x n squares with a tile on every square and every kind of element."""
    kinds = [("conveyor", False), ("conveyor", True), ("gear", False), ("pit", False),
             ("repair", False), ("upgrade", False), ("crusher", False), ("water", False),
             ("current", False), ("drain", False), ("teleporter", False),
             ("randomizer", False), ("floor", False)]
    tiles, walls, lasers, pushers = [], [], [], []
    for y in range(n):
        for x in range(n):
            kind, express = kinds[(x // 3 + y // 2) % len(kinds)]
            tiles.append(tile(x, y, kind, d="NESW"[(x + 2 * y) % 4], express=express,
                              rotation="cw" if x % 2 else "ccw"))
            if (x * 7 + y * 3) % 5 == 0:
                walls.append(Wall(x, y, "NESW"[(x + y) % 4]))
            if (x * 13 + y * 7) % 37 == 0:
                lasers.append(Laser(x, y, "NESW"[(x * y) % 4], 1 + x % 3))
            elif (x * 11 + y * 5) % 29 == 0:
                pushers.append(Pusher(x, y, "NESW"[(x + 3 * y) % 4], (1, 3, 5)))
    board = Board(n, n, tuple(tiles), tuple(walls), tuple(lasers), tuple(pushers))
    return Scenario("Big", board, tuple(Flag(x, x) for x in range(5, n, 10)),
                    tuple(Dock(x, n - 1, "N") for x in range(0, n, 3)))


def beam_squares(board: Board, laser: Laser) -> set:
    d = INDEX[laser.dir]
    x, y, out = laser.x, laser.y, set()
    while True:
        out.add((x, y))
        if board.blocked(x, y, d) or not board.in_bounds(x + DX[d], y + DY[d]):
            return out
        x, y = x + DX[d], y + DY[d]


def test_a_100x100_course_with_every_element_paints(qapp):
    """(How long it takes: bench/bench_editor.py.)"""
    scenario = big_course()
    image = QImage(100 * 16, 100 * 16, QImage.Format_ARGB32_Premultiplied)
    painter = QPainter(image)
    paint_board(painter, scenario, square=16)
    painter.end()
    b = scenario.board
    lit = set().union(*(beam_squares(b, l) for l in b.lasers))
    marked = {(m.x, m.y) for m in (*scenario.flags, *scenario.docks, *b.pushers)}
    quiet = [t for t in b.tiles if (t.x, t.y) not in lit | marked
             and not b.wall_mask[b.index(t.x, t.y)]]
    assert len(quiet) > 100
    for t in quiet[::37]:
        kind = "express" if t.express else t.type
        assert same(colour_at(image, t.x, t.y, kind, 16), style.COLORS[kind], 12), t
