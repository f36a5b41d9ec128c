"""Moving flags (rule `flags_move`, docs/rules.md 12.1) are drawn with the
belts they will ride: a dotted line and an arrow head at each belt step
(drawing/flag_paths.py), up to where the ride stops or the flag goes back."""
from __future__ import annotations

from PySide6.QtGui import QColor, QImage, QPainter

from rallyforge.drawing.board import paint_board
from rallyforge.drawing.board_info import board_info
from rallyforge.drawing.flag_paths import STEPS
from rallyforge.drawing.style import COLORS
from rallyforge.engine.model.scenario import Board, Dock, Flag, Rules, Scenario, Tile, Wall

S = 64


def course(flags_move: bool, walls=()) -> Scenario:
    """A belt going E over (1, 0)-(3, 0), then an express belt going S at (4, 0)
    that runs off the board's bottom edge at (4, 2); the flag stands on (1, 0)."""
    tiles = (Tile(1, 0, "conveyor", dir="E"), Tile(2, 0, "conveyor", dir="E"),
             Tile(3, 0, "conveyor", dir="E"), Tile(4, 0, "conveyor", dir="S", express=True),
             Tile(4, 1, "conveyor", dir="S", express=True))
    return Scenario(name="Ride", board=Board(6, 2, tiles=tiles, walls=walls), flags=(Flag(1, 0),),
                    docks=(Dock(0, 1, "N"),), rules=Rules(flags_move=flags_move))


def arrow_pixel(scenario: Scenario, x: int, y: int, dx: int, dy: int) -> QColor:
    """The colour just behind the tip of an arrow head arriving at (x, y)'s
    centre from the direction (dx, dy) points to."""
    image = QImage(6 * S, 2 * S, QImage.Format.Format_ARGB32_Premultiplied)
    painter = QPainter(image)
    paint_board(painter, scenario, square=S)
    painter.end()
    back = 0.07 * S
    return image.pixelColor(round((x + 0.5) * S - dx * back), round((y + 0.5) * S - dy * back))


def test_the_ride_follows_the_belts_until_the_flag_would_go_back():
    info = board_info(course(True).board)
    # (4, 1) to off the board: the flag goes back to its square, the ride ends there
    assert info.flag_ride(1, 0, STEPS) == [(2, 0), (3, 0), (4, 0), (4, 1)]
    assert info.flag_ride(1, 0, 2) == [(2, 0), (3, 0)]


def test_a_wall_ahead_ends_the_ride():
    info = board_info(course(True, walls=(Wall(3, 0, "E"),)).board)
    assert info.flag_ride(1, 0, STEPS) == [(2, 0), (3, 0)]


def test_arrows_show_each_step_only_when_flags_move(qapp):
    flag = COLORS["flag"].name()
    assert arrow_pixel(course(True), 2, 0, 1, 0).name() == flag
    assert arrow_pixel(course(True), 4, 1, 0, 1).name() == flag
    assert arrow_pixel(course(False), 2, 0, 1, 0).name() != flag
    assert arrow_pixel(course(True, walls=(Wall(3, 0, "E"),)), 4, 1, 0, 1).name() != flag
