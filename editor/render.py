"""Drawing a course with QPainter: every element of the scenario format in one
flat, legible style. No widgets here; the board view, the palette and the
exporters all paint through this module.

Coordinates: the board's top-left corner is at (0, 0) and a square is
``square`` units wide, so square (x, y) covers
[x * square, (x + 1) * square) x [y * square, (y + 1) * square).
Walls and everything mounted on them stay inside the board rectangle.

Layers, bottom to top: floor and tiles, grid, walls, laser beams and
emitters, pushers, flags and docks.

Speed: every square is a "stamp" (a small drawing keyed by what it shows,
such as ``("conveyor", "E", True, 5)``). On raster devices (screens, QImage)
a stamp is drawn once per key and device size into a cached pixmap and then
blitted; on vector devices (SVG, PDF) or under a rotating transform it is
drawn as vectors each time. Paths are built once per key in unit
coordinates and cached per size.

Colour sampling: ``COLORS[kind]`` is the main fill of each tile type and
element ("express" for express belts; "gear_cw" and "gear_ccw" colour the
gears' arrows), and the point ``sample_point(kind)`` of a square (as
fractions of the square) shows exactly that colour, whatever the element's
direction or belt neighbours, at 16 px per square and more, unless a wall,
a laser beam or a marker covers it. For "wall" the point is the middle of
the square's N edge (a square with a wall on its N side); for "laser" it is
the centre of a square crossed by a single-beam laser; for "pusher" a point
on a pusher with dir "N"; for "flag" and "dock" a point beside the number.
"""
from __future__ import annotations

import math
import weakref
from collections import OrderedDict
from collections.abc import Callable
from functools import lru_cache

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import (
    QColor, QFont, QFontMetricsF, QImage, QPainter, QPainterPath, QPaintEngine, QPen, QPixmap,
    QPolygonF, QTransform,
)

from rallyforge.engine.model.directions import DX, DY, INDEX, NAMES, left, opposite, right
from rallyforge.engine.model.element_kinds import new_tile, tile_values
from rallyforge.engine.model.scenario import Board, Scenario
from rallyforge.engine.rules.beams import board_beams

SQUARE = 64

COLORS: dict[str, QColor] = {name: QColor(value) for name, value in {
    "floor": "#8e959d",
    "pit": "#121417",
    "conveyor": "#ecb821",
    "express": "#2c6fd6",
    "gear": "#5b636d",
    "gear_cw": "#2fb14a",
    "gear_ccw": "#e2443a",
    "repair": "#2f9a5a",
    "upgrade": "#cf6f22",
    "crusher": "#8e3025",
    "water": "#5aaedc",
    "current": "#3f93cc",
    "drain": "#0b2433",
    "teleporter": "#39d4e0",
    "randomizer": "#7d55c7",
    "ramp": "#9aa2ab",
    "void": "#3a3c40",          # the table, as around the board in the editor
    "wall": "#f3c316",
    "laser": "#ff2b2b",
    "pusher": "#dfe3e8",
    "flag": "#e3175b",
    "dock": "#42536b",
}.items()}

# Secondary colours of the style (not part of the sampled contract).
_INK = QColor("#1b1d21")
_FLOOR_LIGHT = QColor("#a2a9b1")
_FLOOR_DARK = QColor("#7b828a")
_RIVET = QColor("#737a82")
_BED = QColor("#363a40")
_BELT = {
    False: (COLORS["conveyor"], QColor("#6b4f07"), QColor("#9c7a12")),   # surface, chevron, rail
    True: (COLORS["express"], QColor("#f4f8ff"), QColor("#173f7c")),
}
_PIT_RIM = QColor("#b4bac2")
_PIT_WALL_LIT = QColor("#3a3f47")
_PIT_WALL_DARK = QColor("#24282d")
_WAVE = QColor(255, 255, 255, 90)
_GRID = QColor(20, 22, 26, 70)
_TELEPORT_BASE = QColor("#1f2630")
_BEAM_GLOW = QColor(255, 60, 60, 70)

_SAMPLES = {
    "randomizer": (0.1, 0.5),
    "repair": (0.14, 0.5),
    "upgrade": (0.14, 0.5),
    "crusher": (0.1, 0.5),
    "current": (0.5, 0.5),
    "flag": (0.27, 0.5),
    "dock": (0.2, 0.2),
    "wall": (0.5, 0.0),
    "pusher": (0.16, 0.84),
    "ramp": (0.06, 0.06),
}


def sample_point(kind: str) -> tuple[float, float]:
    """Where in a square (fractions of its size) the fill colour COLORS[kind]
    shows; see the module docstring for "wall", "laser" and "pusher"."""
    return _SAMPLES.get(kind, (0.5, 0.5))


# ---------------------------------------------------------------- unit paths

def _poly(points) -> QPainterPath:
    path = QPainterPath()
    path.addPolygon(QPolygonF([QPointF(x, y) for x, y in points]))
    path.closeSubpath()
    return path


def _arc_points(cx: float, cy: float, r: float, a0: float, a1: float, n: int = 20):
    """Points on a circle (screen coordinates, y down), angles in degrees."""
    return [(cx + r * math.cos(math.radians(a0 + (a1 - a0) * i / n)),
             cy + r * math.sin(math.radians(a0 + (a1 - a0) * i / n))) for i in range(n + 1)]


def _chevron(th: float, half: float = 0.26, rise: float = 0.17) -> QPainterPath:
    """A chevron pointing up (N), centred on the origin, in unit squares."""
    return _poly([(0, -0.09), (half, -0.09 + rise), (half, -0.09 + rise + th),
                  (0, -0.09 + th), (-half, -0.09 + rise + th), (-half, -0.09 + rise)])


# Centres of the chevrons along a belt's travel (as distance from the
# entry edge), and their thickness, for normal and express belts.
_STRAIGHT_AT = {False: ((0.71, 0.21), 0.09), True: ((0.78, 0.66, 0.28, 0.16), 0.07)}
_CURVE_AT = {False: ((67.5, 22.5), 0.09), True: ((77.0, 63.0, 27.0, 13.0), 0.07)}


@lru_cache(maxsize=None)
def _unit(name: str, *args) -> QPainterPath:
    """Every shape of the style, built once in a unit square."""
    return _BUILDERS[name](*args)


def _build_straight_chevrons(express: bool, part: str = "all") -> QPainterPath:
    """The chevrons of a straight belt going N; part "exit" keeps the ones in
    the north half only."""
    centres, th = _STRAIGHT_AT[express]
    path = QPainterPath()
    for c in centres:
        if part == "all" or c < 0.5:
            path.addPath(QTransform.fromTranslate(0.5, c).map(_chevron(th)))
    return path


_BEND_RADIUS = 0.5      # where a bent chevron keeps its length: the middle of the belt


def _bent(outline: QPainterPath, a: float, steps: int = 8) -> QPainterPath:
    """A shape drawn for a straight belt going N (x across, y along, centred
    on the origin) bent onto the left curve around the NW corner at angle `a`
    (degrees): x becomes the distance from the curve's centre line (the
    outside to the right), y the angle travelled, so that every part of it
    follows the curve, its arms widening towards the outer rail as the belt does."""
    centre = math.radians(a)
    points = []
    polygon = outline.toFillPolygon()
    for i in range(polygon.size() - 1):
        p0, p1 = polygon.at(i), polygon.at(i + 1)
        for k in range(steps):
            u = k / steps
            x, y = p0.x() + (p1.x() - p0.x()) * u, p0.y() + (p1.y() - p0.y()) * u
            r, angle = 0.5 + x, centre + y / _BEND_RADIUS
            points.append((r * math.cos(angle), r * math.sin(angle)))
    return _poly(points)


def _build_curve_chevrons(express: bool, part: str = "all") -> QPainterPath:
    """Chevrons along the left curve (entry W, exit N, centred on the NW
    corner): narrower than on straight belts, each bent along the curve; part
    "entry" keeps the ones in the first half of the turn only."""
    angles, th = _CURVE_AT[express]
    path = QPainterPath()
    for a in angles:
        if part == "entry" and a < 45:
            continue
        path.addPath(_bent(_chevron(th, half=0.2, rise=0.14), a))
    return path


def _build_side_arrow() -> QPainterPath:
    """The small arrow where a side belt merges in from the W."""
    return _poly([(0.015, 0.33), (0.015, 0.67), (0.125, 0.5)])


def _build_curve_band() -> QPainterPath:
    return _poly(_arc_points(0, 0, 0.86, 0, 90) + _arc_points(0, 0, 0.14, 90, 0))


def _build_curve_rails() -> QPainterPath:
    path = QPainterPath()
    for r in (0.86, 0.14):
        pts = _arc_points(0, 0, r, 0, 90)
        path.moveTo(*pts[0])
        for p in pts[1:]:
            path.lineTo(*p)
    return path


def _build_gear_body() -> QPainterPath:
    body = QPainterPath()
    body.addEllipse(QPointF(0.5, 0.5), 0.36, 0.36)
    for i in range(8):
        t = QTransform()
        t.translate(0.5, 0.5)
        t.rotate(i * 45)
        tooth = _poly([(-0.075, -0.45), (0.075, -0.45), (0.09, -0.3), (-0.09, -0.3)])
        body = body.united(t.map(tooth))
    return body.simplified()


def _build_gear_arrow(rotation: str) -> QPainterPath:
    """A 270-degree arrow around the centre, turning as the gear does."""
    r, w = 0.245, 0.1
    outer = _arc_points(0.5, 0.5, r + w / 2, -90, 180, 30)
    inner = _arc_points(0.5, 0.5, r - w / 2, 180, -90, 30)
    arrow = _poly(outer + inner)
    head = _poly([(0.5 - r - 0.12, 0.52), (0.5 - r + 0.12, 0.52), (0.5 - r, 0.33)])
    path = arrow.united(head).simplified()
    if rotation == "ccw":
        path = QTransform(-1, 0, 0, 1, 1, 0).map(path)
    return path


def _build_wrench() -> QPainterPath:
    """An open-ended wrench from the NW corner to the SE corner."""
    handle = QPainterPath()
    handle.addRoundedRect(QRectF(-0.05, -0.05, 0.38, 0.1), 0.05, 0.05)
    head = QPainterPath()
    head.addEllipse(QPointF(-0.06, 0), 0.13, 0.13)
    jaw = _poly([(-0.3, -0.055), (-0.08, -0.055), (-0.08, 0.055), (-0.3, 0.055)])
    ring = QPainterPath()
    ring.addEllipse(QPointF(0.3, 0), 0.08, 0.08)
    hole = QPainterPath()
    hole.addEllipse(QPointF(0.3, 0), 0.035, 0.035)
    shape = handle.united(head).subtracted(jaw).united(ring).subtracted(hole)
    t = QTransform()
    t.translate(0.5, 0.5)
    t.rotate(45)
    t.translate(-0.08, 0)
    return t.map(shape.simplified())


def _build_hammer() -> QPainterPath:
    """A hammer from the SW corner (handle) to the NE corner (head)."""
    handle = QPainterPath()
    handle.addRoundedRect(QRectF(-0.33, -0.045, 0.6, 0.09), 0.04, 0.04)
    head = QPainterPath()
    head.addRoundedRect(QRectF(0.2, -0.15, 0.13, 0.3), 0.03, 0.03)
    t = QTransform()
    t.translate(0.5, 0.5)
    t.rotate(-45)
    return t.map(handle.united(head).simplified())


def _build_crusher_teeth() -> QPainterPath:
    path = QPainterPath()
    path.addRect(QRectF(0, 0, 1, 0.06))
    path.addRect(QRectF(0, 0.94, 1, 0.06))
    for i in range(5):
        x = i * 0.2
        path.addPath(_poly([(x + 0.01, 0.05), (x + 0.19, 0.05), (x + 0.1, 0.2)]))
        path.addPath(_poly([(x + 0.01, 0.95), (x + 0.19, 0.95), (x + 0.1, 0.8)]))
    return path.simplified()


def _build_waves() -> QPainterPath:
    path = QPainterPath()
    for base in (0.27, 0.75):
        path.moveTo(0, base)
        for i in range(1, 33):
            x = i / 32
            path.lineTo(x, base + 0.045 * math.sin(x * 4 * math.pi))
    return path


def _build_swirl() -> QPainterPath:
    path = QPainterPath()
    for k in range(3):
        pts = [(0.5 + (0.12 + 0.13 * i / 16) * math.cos(math.radians(k * 120 + i * 7)),
                0.5 + (0.12 + 0.13 * i / 16) * math.sin(math.radians(k * 120 + i * 7)))
               for i in range(17)]
        path.moveTo(*pts[0])
        for p in pts[1:]:
            path.lineTo(*p)
    return path


def _build_pennant() -> QPainterPath:
    path = _poly([(0.66, 0.04), (0.9, 0.11), (0.66, 0.19)])
    pole = QPainterPath()
    pole.addRect(QRectF(0.63, 0.04, 0.035, 0.26))
    return path.united(pole).simplified()


def _build_dock_arrow() -> QPainterPath:
    return _poly([(0.5, 0.12), (0.35, 0.27), (0.65, 0.27)])


def _build_die() -> QPainterPath:
    path = QPainterPath()
    path.addRoundedRect(QRectF(0.22, 0.22, 0.56, 0.56), 0.1, 0.1)
    return path


def _build_eraser() -> QPainterPath:
    t = QTransform()
    t.translate(0.5, 0.5)
    t.rotate(-35)
    path = QPainterPath()
    path.addRoundedRect(QRectF(-0.32, -0.15, 0.64, 0.3), 0.06, 0.06)
    return t.map(path)


_BUILDERS: dict[str, Callable[..., QPainterPath]] = {
    "chevrons": _build_straight_chevrons,
    "curve_chevrons": _build_curve_chevrons,
    "curve_band": _build_curve_band,
    "side_arrow": _build_side_arrow,
    "curve_rails": _build_curve_rails,
    "gear_body": _build_gear_body,
    "gear_arrow": _build_gear_arrow,
    "wrench": _build_wrench,
    "hammer": _build_hammer,
    "crusher_teeth": _build_crusher_teeth,
    "waves": _build_waves,
    "swirl": _build_swirl,
    "pennant": _build_pennant,
    "dock_arrow": _build_dock_arrow,
    "die": _build_die,
    "eraser": _build_eraser,
}


@lru_cache(maxsize=4096)
def _path(s: float, name: str, *args) -> QPainterPath:
    """A unit path scaled to squares of size s (cached per size)."""
    return QTransform.fromScale(s, s).map(_unit(name, *args))


_MIRROR_X = QTransform(-1, 0, 0, 1, 1, 0)


@lru_cache(maxsize=4096)
def _mirrored(s: float, name: str, *args) -> QPainterPath:
    return QTransform.fromScale(s, s).map(_MIRROR_X.map(_unit(name, *args)))


# ---------------------------------------------------------------- text

@lru_cache(maxsize=64)
def _font(pixels: int) -> QFont:
    font = QFont("DejaVu Sans")
    font.setStyleHint(QFont.StyleHint.SansSerif)
    font.setBold(True)
    font.setPixelSize(max(1, pixels))
    return font


def _text(p: QPainter, rect: QRectF, text: str, size: float, color: QColor) -> None:
    """Text centred in rect, in a bold font of `size` pixels, made smaller
    until every line fits the rect's width."""
    font = _font(round(size))
    while font.pixelSize() > 4:
        metrics = QFontMetricsF(font)
        if max(metrics.horizontalAdvance(line) for line in text.split("\n")) <= rect.width():
            break
        font = _font(font.pixelSize() - 1)
    p.setFont(font)
    p.setPen(color)
    p.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)


def _phases_text(phases, vertical: bool = False) -> str:
    """Register numbers: "1 3 5", closer together when there are many, or one
    per line."""
    if vertical:
        return "\n".join(str(n) for n in phases)
    return (" " if len(phases) <= 3 else "\u2009").join(str(n) for n in phases)


# ---------------------------------------------------------------- stamps

def _turn(p: QPainter, s: float, direction: str) -> None:
    """Rotate the painter about the square's centre so that "up" is `direction`."""
    quarter = INDEX.get(direction, 0)
    if quarter:
        p.translate(s / 2, s / 2)
        p.rotate(90 * quarter)
        p.translate(-s / 2, -s / 2)


def _draw_floor(p: QPainter, s: float) -> None:
    p.fillRect(QRectF(0, 0, s, s), COLORS["floor"])
    w = max(1.0, s * 0.025)
    a, b = s * 0.04, s * 0.96
    p.setPen(QPen(_FLOOR_LIGHT, w))
    p.drawPolyline(QPolygonF([QPointF(a, b), QPointF(a, a), QPointF(b, a)]))
    p.setPen(QPen(_FLOOR_DARK, w))
    p.drawPolyline(QPolygonF([QPointF(b, a), QPointF(b, b), QPointF(a, b)]))
    if s >= 20:
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(_RIVET)
        r = s * 0.025
        for cx in (0.12, 0.88):
            for cy in (0.12, 0.88):
                p.drawEllipse(QPointF(cx * s, cy * s), r, r)


def _draw_pit(p: QPainter, s: float, joined: int) -> None:
    """A dark hole; `joined` has bit d set where the neighbour is a pit too,
    so that a large pit reads as one hole."""
    p.fillRect(QRectF(0, 0, s, s), COLORS["pit"])
    depth, rim = 0.16 * s, max(1.0, 0.05 * s)
    p.setPen(Qt.PenStyle.NoPen)
    for d in range(4):
        if joined >> d & 1:
            continue
        p.save()
        _turn(p, s, NAMES[d])
        p.setBrush(_PIT_WALL_LIT if d in (0, 3) else _PIT_WALL_DARK)
        # mitred where the next side is a wall of this pit too, square where it opens
        a = 0.0 if joined >> left(d) & 1 else depth
        b = s if joined >> right(d) & 1 else s - depth
        p.drawPolygon(QPolygonF([QPointF(0, 0), QPointF(s, 0), QPointF(b, depth),
                                 QPointF(a, depth)]))
        p.fillRect(QRectF(0, 0, s, rim), _PIT_RIM)
        p.restore()


def _belt_rails(p: QPainter, s: float, rail: QColor, kind: str) -> None:
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.setPen(QPen(rail, 0.06 * s, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap))
    if kind == "straight":
        p.drawLine(QPointF(0.14 * s, 0), QPointF(0.14 * s, s))
        p.drawLine(QPointF(0.86 * s, 0), QPointF(0.86 * s, s))
    elif kind == "left":
        p.drawPath(_path(s, "curve_rails"))
    else:
        p.drawPath(_mirrored(s, "curve_rails"))


def _draw_conveyor(p: QPainter, s: float, direction: str, express: bool, feeders: int) -> None:
    """A belt towards `direction`; `feeders` has bit 1 for a belt feeding in
    from the left side, 2 from the right side, 4 from behind. One side feeder
    alone makes a curve; two side feeders and nothing behind, a T where both
    curves meet; side feeders with one behind, a straight belt with arrows
    where the sides merge in."""
    surface, chevron, rail = _BELT[express]
    p.fillRect(QRectF(0, 0, s, s), _BED)
    p.save()
    _turn(p, s, direction)
    sides = [k for k, bit in (("left", 1), ("right", 2)) if feeders & bit]
    straight = not sides or bool(feeders & 4)
    bands = (["straight"] if straight else []) + sides
    for band in bands:
        _belt_rails(p, s, rail, band)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(surface)
    for band in bands:
        if band == "straight":
            p.drawRect(QRectF(0.14 * s, 0, 0.72 * s, s))
        else:
            p.drawPath(_sided(band)(s, "curve_band"))
    p.setBrush(chevron)
    if straight:
        p.drawPath(_path(s, "chevrons", express))
        for side in sides:
            p.drawPath(_sided(side)(s, "side_arrow"))
    elif len(sides) == 1:
        p.drawPath(_sided(sides[0])(s, "curve_chevrons", express))
    else:
        p.drawPath(_path(s, "chevrons", express, "exit"))
        for side in sides:
            p.drawPath(_sided(side)(s, "curve_chevrons", express, "entry"))
    p.restore()


def _sided(side: str):
    """The path getter for a shape drawn for the left side, or its mirror image."""
    return _path if side == "left" else _mirrored


def _draw_gear(p: QPainter, s: float, rotation: str) -> None:
    _draw_floor(p, s)
    p.setPen(QPen(_INK, max(1.0, 0.03 * s)))
    p.setBrush(COLORS["gear"])
    p.drawPath(_path(s, "gear_body"))
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(COLORS["gear_ccw" if rotation == "ccw" else "gear_cw"])
    p.drawPath(_path(s, "gear_arrow", rotation if rotation == "ccw" else "cw"))


def _pad(p: QPainter, s: float, color: QColor) -> None:
    _draw_floor(p, s)
    p.setPen(QPen(color.darker(150), max(1.0, 0.03 * s)))
    p.setBrush(color)
    p.drawRoundedRect(QRectF(0.06 * s, 0.06 * s, 0.88 * s, 0.88 * s), 0.12 * s, 0.12 * s)


def _draw_repair(p: QPainter, s: float) -> None:
    _pad(p, s, COLORS["repair"])
    p.setPen(QPen(_INK, max(1.0, 0.025 * s)))
    p.setBrush(QColor("#f4f6f8"))
    p.drawPath(_path(s, "wrench"))


def _draw_upgrade(p: QPainter, s: float) -> None:
    _pad(p, s, COLORS["upgrade"])
    p.setPen(QPen(_INK, max(1.0, 0.025 * s)))
    p.setBrush(QColor("#f4f6f8"))
    p.drawPath(_path(s, "hammer"))
    p.drawPath(_path(s, "wrench"))


def _draw_crusher(p: QPainter, s: float, phases: tuple[int, ...]) -> None:
    """The crusher without its registers: paint_board writes those above
    laser beams (_crusher_label)."""
    p.fillRect(QRectF(0, 0, s, s), COLORS["crusher"])
    p.setPen(QPen(QColor("#15161a"), max(1.0, 0.02 * s)))
    p.setBrush(QColor("#c9ced6"))
    p.drawPath(_path(s, "crusher_teeth"))


def _crusher_label(p: QPainter, s: float, phases: tuple[int, ...]) -> None:
    if s >= 12:
        _text(p, QRectF(0.16 * s, 0.25 * s, 0.68 * s, 0.5 * s), _phases_text(phases),
              0.25 * s, QColor("#ffffff"))


def _water(p: QPainter, s: float, color: QColor) -> None:
    p.fillRect(QRectF(0, 0, s, s), color)
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.setPen(QPen(_WAVE, max(1.0, 0.045 * s), Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap))
    p.drawPath(_path(s, "waves"))


def _draw_water(p: QPainter, s: float) -> None:
    _water(p, s, COLORS["water"])


def _draw_current(p: QPainter, s: float, direction: str) -> None:
    _water(p, s, COLORS["current"])
    p.save()
    _turn(p, s, direction)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor(255, 255, 255, 215))
    p.drawPath(_path(s, "chevrons", False))
    p.restore()


def _draw_drain(p: QPainter, s: float) -> None:
    _water(p, s, COLORS["water"])
    c = QPointF(0.5 * s, 0.5 * s)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor("#2b6f96"))
    p.drawEllipse(c, 0.4 * s, 0.4 * s)
    p.setBrush(COLORS["drain"])
    p.drawEllipse(c, 0.31 * s, 0.31 * s)
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.setPen(QPen(QColor("#7fc6ea"), max(1.0, 0.04 * s), Qt.PenStyle.SolidLine,
                  Qt.PenCapStyle.RoundCap))
    p.drawPath(_path(s, "swirl"))


def _draw_teleporter(p: QPainter, s: float) -> None:
    p.fillRect(QRectF(0, 0, s, s), _TELEPORT_BASE)
    c = QPointF(0.5 * s, 0.5 * s)
    color = COLORS["teleporter"]
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.setPen(QPen(color.darker(170), 0.05 * s))
    p.drawEllipse(c, 0.42 * s, 0.42 * s)
    p.setPen(QPen(color.darker(125), 0.05 * s))
    p.drawEllipse(c, 0.31 * s, 0.31 * s)
    p.setPen(QPen(QColor("#e9fdff"), max(1.0, 0.025 * s)))
    p.setBrush(color)
    p.drawEllipse(c, 0.19 * s, 0.19 * s)


def _draw_randomizer(p: QPainter, s: float) -> None:
    p.fillRect(QRectF(0, 0, s, s), COLORS["randomizer"])
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(COLORS["randomizer"].darker(125))
    for cx, cy in ((0.1, 0.1), (0.9, 0.1), (0.1, 0.9), (0.9, 0.9)):
        p.drawEllipse(QPointF(cx * s, cy * s), 0.05 * s, 0.05 * s)
    p.setPen(QPen(_INK, max(1.0, 0.03 * s)))
    p.setBrush(QColor("#f7f4fb"))
    p.drawPath(_path(s, "die"))
    if s >= 10:
        _text(p, QRectF(0.22 * s, 0.22 * s, 0.56 * s, 0.56 * s), "?", 0.44 * s,
              COLORS["randomizer"].darker(150))


def _draw_ramp(p: QPainter, s: float, direction: str) -> None:
    """A ramp rising towards `direction`: darker at its low side, and a wedge
    pointing up-slope (drawn for N, then turned)."""
    p.fillRect(QRectF(0, 0, s, s), COLORS["ramp"])
    p.save()
    _turn(p, s, direction)
    # darker towards the low side, in steps of plain alpha (see _paint_levels);
    # the corners keep the colour
    for k, alpha in enumerate(_SHADOW_STEPS):
        p.fillRect(QRectF(0.12 * s, (0.86 - 0.12 * k) * s, 0.76 * s, 0.12 * s),
                   QColor(0, 0, 0, alpha * 3 // 4))
    p.setPen(QPen(_INK, max(1.0, 0.03 * s)))
    p.setBrush(QColor(255, 255, 255, 110))
    p.drawPath(_poly([(0.5 * s, 0.16 * s), (0.82 * s, 0.86 * s), (0.18 * s, 0.86 * s)]))
    p.setPen(QPen(QColor(0, 0, 0, 90), max(1.0, 0.02 * s)))
    for at in (0.44, 0.58, 0.72):         # treads across the slope
        half = 0.32 * (at - 0.16) / 0.7 * s
        p.drawLine(QPointF(0.5 * s - half, at * s), QPointF(0.5 * s + half, at * s))
    p.restore()


def _draw_void(p: QPainter, s: float) -> None:
    """No floor: the table shows, as beyond the board's edge."""
    p.fillRect(QRectF(0, 0, s, s), COLORS["void"])


_TILE_DRAW: dict[str, Callable[..., None]] = {
    "floor": _draw_floor,
    "pit": _draw_pit,
    "conveyor": _draw_conveyor,
    "gear": _draw_gear,
    "repair": _draw_repair,
    "upgrade": _draw_upgrade,
    "crusher": _draw_crusher,
    "water": _draw_water,
    "current": _draw_current,
    "drain": _draw_drain,
    "teleporter": _draw_teleporter,
    "randomizer": _draw_randomizer,
    "ramp": _draw_ramp,
    "void": _draw_void,
}


# Overlays: drawn over tiles, keys ("pusher", dir, phases), ("flag", n),
# ("dock", n, facing); each stays inside its square.


def _draw_pusher(p: QPainter, s: float, direction: str, phases: tuple[int, ...]) -> None:
    """A pusher pointing `direction`, mounted on the opposite side, inside the
    square (0, 0)-(s, s). Its register numbers stay upright."""
    p.save()
    _turn(p, s, direction)
    p.setPen(QPen(_INK, max(1.0, 0.025 * s)))
    p.setBrush(QColor("#4a4f57"))
    p.drawRect(QRectF(0.3 * s, 0.9 * s, 0.4 * s, 0.1 * s))
    p.setBrush(COLORS["pusher"])
    p.drawRoundedRect(QRectF(0.1 * s, 0.6 * s, 0.8 * s, 0.3 * s), 0.04 * s, 0.04 * s)
    p.setBrush(_INK)
    p.drawRect(QRectF(0.1 * s, 0.6 * s, 0.8 * s, 0.05 * s))
    p.restore()
    if s < 16:
        return
    if direction in ("E", "W"):
        x = 0.225 * s if direction == "E" else 0.775 * s
        rect = QRectF(x - 0.11 * s, 0.12 * s, 0.22 * s, 0.76 * s)
        size = min(0.18 * s, 0.76 * s / max(1, len(phases)) / 1.25)
    else:
        y = 0.775 * s if direction == "N" else 0.225 * s
        rect = QRectF(0.2 * s, y - 0.13 * s, 0.6 * s, 0.26 * s)
        size = 0.18 * s
    _text(p, rect, _phases_text(phases, direction in ("E", "W")), size, _INK)


def _draw_flag(p: QPainter, s: float, number: int) -> None:
    c = QPointF(0.5 * s, 0.5 * s)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor(0, 0, 0, 80))
    p.drawEllipse(c + QPointF(0.03 * s, 0.04 * s), 0.33 * s, 0.33 * s)
    p.setBrush(QColor("#ffffff"))
    p.drawEllipse(c, 0.35 * s, 0.35 * s)
    p.setBrush(COLORS["flag"])
    p.drawPath(_path(s, "pennant"))
    p.drawEllipse(c, 0.3 * s, 0.3 * s)
    if s >= 10:
        size = 0.34 * s if number < 10 else 0.27 * s
        _text(p, QRectF(0.2 * s, 0.2 * s, 0.6 * s, 0.6 * s), str(number), size, QColor("#ffffff"))


def _draw_dock(p: QPainter, s: float, number: int, facing: str) -> None:
    p.setPen(QPen(QColor("#e8edf3"), max(1.0, 0.03 * s)))
    p.setBrush(COLORS["dock"])
    p.drawRoundedRect(QRectF(0.08 * s, 0.08 * s, 0.84 * s, 0.84 * s), 0.06 * s, 0.06 * s)
    p.save()
    _turn(p, s, facing)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor("#ffd34a"))
    p.drawPath(_path(s, "dock_arrow"))
    p.restore()
    if s >= 10:
        size = 0.36 * s if number < 10 else 0.28 * s
        _text(p, QRectF(0.25 * s, 0.25 * s, 0.5 * s, 0.5 * s), str(number), size, QColor("#ffffff"))


_OVERLAY_DRAW: dict[str, Callable[..., None]] = {
    "pusher": _draw_pusher, "flag": _draw_flag, "dock": _draw_dock}
_DRAW = {**_TILE_DRAW, **_OVERLAY_DRAW}


# ---------------------------------------------------------------- per-board data

class _BoardInfo:
    """What the painter derives from a board: the stamp key of each square
    (computed on demand) and the traced laser beams."""

    def __init__(self, board: Board):
        self.board = board
        self.tiles = board.tile_map
        self._keys: dict[tuple[int, int], tuple] = {}
        self._beams: list | None = None
        self._ledges: list[tuple[int, int, int]] | None = None

    def key(self, x: int, y: int) -> tuple:
        k = self._keys.get((x, y))
        if k is None:
            k = self._keys[(x, y)] = self._make_key(x, y)
        return k

    def _make_key(self, x: int, y: int) -> tuple:
        """(type, the values of its keys, then what its painter needs of the
        neighbours): the painter's arguments."""
        tile = self.tiles.get((x, y))
        if tile is None:
            return ("floor",)
        key = (tile.type, *tile_values(tile).values())
        around = _NEIGHBOURS.get(tile.type)
        return key + (around(self, tile),) if around else key

    def _feeders(self, tile) -> int:
        """Bits 1 (left), 2 (right), 4 (behind): neighbouring belts pointing
        into this one with no wall between."""
        x, y, d = tile.x, tile.y, INDEX.get(tile.dir, 0)
        mask = 0
        for side, bit in ((left(d), 1), (right(d), 2), (opposite(d), 4)):
            n = self.tiles.get((x + DX[side], y + DY[side]))
            if (n is not None and n.type == "conveyor" and n.dir is not None
                    and INDEX.get(n.dir) == opposite(side)
                    and not self.board.has_wall(x, y, NAMES[side])):
                mask |= bit
        return mask

    def _pit_neighbours(self, tile) -> int:
        x, y = tile.x, tile.y
        mask = 0
        for d in range(4):
            n = self.tiles.get((x + DX[d], y + DY[d]))
            if n is not None and n.type == "pit":
                mask |= 1 << d
        return mask

    @property
    def ledges(self) -> list[tuple[int, int, int]]:
        """(x, y, d) of every ledge: (x, y) its low square, d the side towards
        the high one (a ramp's low side excluded)."""
        if self._ledges is None:
            b = self.board
            level = b.level_map
            out = []
            for (x, y), high in level.items():
                for d in range(4):
                    nx, ny = x - DX[d], y - DY[d]       # the neighbour d is the way back up from
                    if b.in_bounds(nx, ny) and level.get((nx, ny), 0) < high \
                            and not self._ramp_joint(x, y, d, high - level.get((nx, ny), 0)):
                        out.append((nx, ny, d))
            self._ledges = out
        return self._ledges

    def _ramp_joint(self, x: int, y: int, d: int, rise: int) -> bool:
        """Whether the step up towards d onto (x, y), `rise` levels, climbs the ramp there."""
        tile = self.tiles.get((x, y))
        return rise == 1 and tile is not None and tile.type == "ramp" and tile.dir == NAMES[d]

    @property
    def beams(self) -> list:
        """(laser, last x, last y, stopped by a wall) for every laser, as the
        engine traces its beam (engine/rules/beams.py)."""
        if self._beams is None:
            w = self.board.width
            self._beams = [(beam.laser, beam.squares[-1] % w, beam.squares[-1] // w, beam.walled)
                           for beam in board_beams(self.board)]
        return self._beams


# What a painter needs of a square's neighbours, by tile type: belts feeding
# a conveyor, and pits around a pit (so that a large pit reads as one hole).
_NEIGHBOURS = {"conveyor": _BoardInfo._feeders, "pit": _BoardInfo._pit_neighbours}


_INFOS: OrderedDict[int, tuple[weakref.ref, _BoardInfo]] = OrderedDict()


def _info(board: Board) -> _BoardInfo:
    entry = _INFOS.get(id(board))
    if entry is not None and entry[0]() is board:
        _INFOS.move_to_end(id(board))
        return entry[1]
    info = _BoardInfo(board)
    _INFOS[id(board)] = (weakref.ref(board), info)
    while len(_INFOS) > 6:
        _INFOS.popitem(last=False)
    return info


# ---------------------------------------------------------------- stamping

_VECTOR_ENGINES = {QPaintEngine.Type.SVG, QPaintEngine.Type.Pdf, QPaintEngine.Type.Picture}
_MAX_CACHED_PX = 320
_CACHE_BUDGET = 96 * 1024 * 1024     # bytes of cached pixmaps
_PIXMAPS: OrderedDict[tuple, QPixmap] = OrderedDict()
_cache_bytes = 0


def _pixmap(key: tuple, px: int, grid: bool = False) -> QPixmap:
    """The stamp `key` drawn into a transparent pixmap of px x px device
    pixels; with `grid`, the grid lines on its top and left edges too."""
    global _cache_bytes
    cache_key = (px, grid, key)
    pix = _PIXMAPS.get(cache_key)
    if pix is not None:
        _PIXMAPS.move_to_end(cache_key)
        return pix
    image = QImage(px, px, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(0)
    p = QPainter(image)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    _DRAW[key[0]](p, float(px), *key[1:])
    if grid:
        p.fillRect(QRectF(0, 0, px, 1), _GRID)
        p.fillRect(QRectF(0, 1, 1, px - 1), _GRID)
    p.end()
    pix = QPixmap.fromImage(image)
    _PIXMAPS[cache_key] = pix
    _cache_bytes += px * px * 4
    while _cache_bytes > _CACHE_BUDGET and len(_PIXMAPS) > 1:
        _, old = _PIXMAPS.popitem(last=False)
        _cache_bytes -= old.width() * old.height() * 4
    return pix


class _Stamper:
    """Puts stamps on squares: cached pixmaps on raster devices, vectors elsewhere."""

    def __init__(self, painter: QPainter, s: float):
        self.p = painter
        self.s = s
        t = painter.deviceTransform()
        engine = painter.paintEngine()
        px = s * math.hypot(t.m11(), t.m12())       # device pixels per square
        turned = (t.type().value > QTransform.TransformationType.TxScale.value
                  or abs(abs(t.m11()) - abs(t.m22())) > 1e-6)
        self.vector = (engine is None or engine.type() in _VECTOR_ENGINES or turned
                       or px > _MAX_CACHED_PX)
        self.px = max(1, round(px))

    def stamp(self, key: tuple, x: float, y: float) -> None:
        s, p = self.s, self.p
        if self.vector:
            p.save()
            p.translate(x * s, y * s)
            _DRAW[key[0]](p, s, *key[1:])
            p.restore()
        else:
            p.drawPixmap(QRectF(x * s, y * s, s, s), _pixmap(key, self.px),
                         QRectF(0, 0, self.px, self.px))


# ---------------------------------------------------------------- layers

def _area(board: Board, area) -> tuple[int, int, int, int]:
    if area is None:
        return 0, 0, board.width, board.height
    x0, y0, x1, y1 = area
    return max(0, x0), max(0, y0), min(board.width, x1), min(board.height, y1)


def _paint_tiles(st: _Stamper, info: _BoardInfo, grid: bool, x0, y0, x1, y1) -> None:
    """The tiles, and the grid: on raster devices each cached tile carries the
    grid lines of its top and left edges (far faster than lines over the
    whole board), so only the board's right and bottom edges are drawn here."""
    key = info.key
    if st.vector:
        for y in range(y0, y1):
            for x in range(x0, x1):
                st.stamp(key(x, y), x, y)
        if grid:
            _vector_grid(st.p, st.s, x0, y0, x1, y1)
        return
    s, px, draw = st.s, st.px, st.p.drawPixmap
    source = QRectF(0, 0, px, px)
    pixmaps: dict[tuple, QPixmap] = {}
    for y in range(y0, y1):
        top = y * s
        for x in range(x0, x1):
            k = key(x, y)
            pix = pixmaps.get(k)
            if pix is None:
                # the table beside the board has no grid: no squares lie there
                pix = pixmaps[k] = _pixmap(k, px, grid and k[0] != "void")
            draw(QRectF(x * s, top, s, s), pix, source)
    if grid:
        w = s / px
        board = info.board
        if x1 == board.width:
            st.p.fillRect(QRectF(x1 * s - w, y0 * s, w, (y1 - y0) * s), _GRID)
        if y1 == board.height:
            st.p.fillRect(QRectF(x0 * s, y1 * s - w, (x1 - x0) * s, w), _GRID)


_LIFT = QColor(255, 255, 255, 46)         # per level above the ground
_SHADOW_STEPS = (120, 80, 48, 22)           # alpha of the shadow's bands, from the ledge out
_LEDGE_LIP = QColor(255, 255, 255, 150)


def _band(x: int, y: int, d: int, ex: float, ey: float, near: float, far: float,
          s: float) -> QRectF:
    """The strip of square (x, y) between `near` and `far` from its edge
    towards d (at ex, ey); negative distances lie across the edge."""
    if DX[d]:
        a, b = ex - DX[d] * near, ex - DX[d] * far
        return QRectF(min(a, b), y * s, abs(a - b), s)
    a, b = ey - DY[d] * near, ey - DY[d] * far
    return QRectF(x * s, min(a, b), s, abs(a - b))


def _paint_levels(p: QPainter, info: _BoardInfo, s: float, x0, y0, x1, y1) -> None:
    """Each level lightens its squares; along every ledge a shadow falls on
    the low square and a light lip marks the high one, so which side is high
    shows at a glance. A ramp's low side is no ledge (see Course._levels)."""
    board = info.board
    p.save()
    p.setPen(Qt.PenStyle.NoPen)
    for v in board.levels:
        if v.level > 0 and _in(v.x, v.y, x0, y0, x1, y1, 0):
            lift = QColor(_LIFT)
            lift.setAlpha(min(255, _LIFT.alpha() * v.level))
            p.fillRect(QRectF(v.x * s, v.y * s, s, s), lift)
    depth = 0.24 * s
    for (x, y, d) in info.ledges:
        if not _in(x, y, x0, y0, x1, y1):
            continue
        # (x, y) is the low square, d the side the high one is on. The shadow
        # fades in steps of plain alpha: Qt's PDF output drops alpha inside
        # gradients, and the bands look the same everywhere.
        ex, ey = (x + 0.5 + DX[d] * 0.5) * s, (y + 0.5 + DY[d] * 0.5) * s
        for k, alpha in enumerate(_SHADOW_STEPS):
            near, far = depth * k / len(_SHADOW_STEPS), depth * (k + 1) / len(_SHADOW_STEPS)
            p.fillRect(_band(x, y, d, ex, ey, near, far, s), QColor(0, 0, 0, alpha))
        p.fillRect(_band(x, y, d, ex, ey, -0.05 * s, 0, s), _LEDGE_LIP)
    p.restore()


_CONTOUR = QColor("#1b1d21")


def _paint_level_marks(p: QPainter, info: _BoardInfo, s: float, x0, y0, x1, y1) -> None:
    """Marks that tell levels apart without colour (a grey-scale print, a
    dim screen): a dark contour line along every ledge, on its high side, and
    the level's number in a badge in the top-left corner of every raised square."""
    board = info.board
    p.save()
    p.setPen(Qt.PenStyle.NoPen)
    for (x, y, d) in info.ledges:
        if _in(x, y, x0, y0, x1, y1):
            ex, ey = (x + 0.5 + DX[d] * 0.5) * s, (y + 0.5 + DY[d] * 0.5) * s
            p.fillRect(_band(x, y, d, ex, ey, -0.045 * s, 0, s), _CONTOUR)
    badge = 0.26 * s
    for v in board.levels:
        if v.level > 0 and _in(v.x, v.y, x0, y0, x1, y1, 0):
            rect = QRectF(v.x * s + 0.05 * s, v.y * s + 0.05 * s, badge, badge)
            p.setPen(QPen(QColor("#ffffff"), max(0.5, 0.015 * s)))
            p.setBrush(_CONTOUR)
            p.drawRoundedRect(rect, 0.05 * s, 0.05 * s)
            _text(p, rect, str(v.level), 0.2 * s, QColor("#ffffff"))
    p.restore()


def _vector_grid(p: QPainter, s: float, x0, y0, x1, y1) -> None:
    p.save()
    p.setPen(QPen(_GRID, 0.012 * s))
    lines = [QLineF(x * s, y0 * s, x * s, y1 * s) for x in range(x0, x1 + 1)]
    lines += [QLineF(x0 * s, y * s, x1 * s, y * s) for y in range(y0, y1 + 1)]
    p.drawLines(lines)
    p.restore()


def edge_margin(square: float = SQUARE) -> float:
    """How far outer walls (their outline) reach beyond the board's edge: a
    picture of the board leaves this much room all round."""
    return 0.06 * square


def wall_thickness(square: float = SQUARE) -> float:
    """How thick walls are drawn, in the units of `square`."""
    return 0.12 * square


def _wall_rect(board: Board, ex: int, ey: int, side: str, s: float) -> QRectF:
    """The band of the edge named by edge_key (side N or W); centred on the
    edge inside the board, flush with the board's outer edge."""
    t = wall_thickness(s)
    if side == "N":
        return QRectF(ex * s - t / 2, _band_start(ey, board.height, s, t), s + t, t)
    return QRectF(_band_start(ex, board.width, s, t), ey * s - t / 2, t, s + t)


def _band_start(e: int, size: int, s: float, t: float) -> float:
    """Where a wall band across line e starts: flush inside the board's outer
    edges (0 and size), centred on the line elsewhere."""
    if e <= 0:
        return 0.0
    if e >= size:
        return size * s - t
    return e * s - t / 2


def _paint_walls(p: QPainter, board: Board, s: float, x0, y0, x1, y1) -> None:
    rects = [_wall_rect(board, ex, ey, side, s) for ex, ey, side in board.wall_edges
             if _in(ex, ey, x0, y0, x1, y1)]
    if not rects:
        return
    m = edge_margin(s)
    board_rect = QRectF(-m, -m, board.width * s + 2 * m, board.height * s + 2 * m)
    o = max(0.02 * s, 0.6)
    p.save()
    p.setClipRect(board_rect, Qt.ClipOperation.IntersectClip)
    for r in rects:
        p.fillRect(r.adjusted(-o, -o, o, o), _INK)
    for r in rects:
        p.fillRect(r, COLORS["wall"])
    p.restore()


def _beam_segment(board: Board, s: float, laser, lx: int, ly: int, walled: bool):
    """Both ends of a laser's beam, from its emitter to the far wall or the board edge."""
    d = INDEX.get(laser.dir, 0)
    t = wall_thickness(s)
    start_edge = 0.16 * s              # the emitter's front, from its wall
    cx0, cy0 = (laser.x + 0.5) * s, (laser.y + 0.5) * s
    cx1, cy1 = (lx + 0.5) * s, (ly + 0.5) * s
    outer = not board.in_bounds(lx + DX[d], ly + DY[d])
    end_gap = (t if outer else t / 2) if walled else 0.0
    a = QPointF(cx0 - DX[d] * (s / 2 - start_edge), cy0 - DY[d] * (s / 2 - start_edge))
    b = QPointF(cx1 + DX[d] * (s / 2 - end_gap), cy1 + DY[d] * (s / 2 - end_gap))
    return a, b


_BEAM_OFFSETS = {1: (0.0,), 2: (-0.12, 0.12), 3: (-0.18, 0.0, 0.18)}


def _paint_lasers(p: QPainter, info: _BoardInfo, s: float, x0, y0, x1, y1) -> None:
    board = info.board
    area = QRectF((x0 - 1) * s, (y0 - 1) * s, (x1 - x0 + 2) * s, (y1 - y0 + 2) * s)
    segments = []
    for laser, lx, ly, walled in info.beams:
        a, b = _beam_segment(board, s, laser, lx, ly, walled)
        if QRectF(a, b).normalized().adjusted(-s, -s, s, s).intersects(area):
            segments.append((laser, a, b))
    if not segments:
        return
    glow = QPen(_BEAM_GLOW, 0.13 * s, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap)
    core = QPen(COLORS["laser"], 0.05 * s, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap)
    for pen in (glow, core):
        p.setPen(pen)
        for laser, a, b in segments:
            d = INDEX.get(laser.dir, 0)
            nx, ny = -DY[d], DX[d]       # perpendicular to the beam
            for off in _BEAM_OFFSETS.get(laser.beams, (0.0,)):
                shift = QPointF(nx * off * s, ny * off * s)
                p.drawLine(a + shift, b + shift)
    for laser, a, b in segments:
        _paint_emitter(p, s, laser)


def _paint_emitter(p: QPainter, s: float, laser) -> None:
    """The emitter housing on the wall behind the laser's square, one lens per beam."""
    p.save()
    p.translate(laser.x * s, laser.y * s)
    _turn(p, s, laser.dir)
    p.setPen(QPen(_INK, max(1.0, 0.02 * s)))
    p.setBrush(QColor("#3b3f46"))
    p.drawRoundedRect(QRectF(0.26 * s, 0.84 * s, 0.48 * s, 0.16 * s), 0.03 * s, 0.03 * s)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(COLORS["laser"])
    for off in _BEAM_OFFSETS.get(laser.beams, (0.0,)):
        cx = (0.5 + off) * s         # the turned frame's x is the beam's perpendicular
        p.drawRect(QRectF(cx - 0.045 * s, 0.8 * s, 0.09 * s, 0.06 * s))
    p.restore()


def _in(x: int, y: int, x0, y0, x1, y1, margin: int = 1) -> bool:
    return x0 - margin <= x < x1 + margin and y0 - margin <= y < y1 + margin


def _paint_crusher_labels(p: QPainter, board: Board, s: float, x0, y0, x1, y1) -> None:
    """A crusher's registers, above any beam that crosses it (the numbers
    must stay readable)."""
    for tile in board.tiles:
        if tile.type == "crusher" and _in(tile.x, tile.y, x0, y0, x1, y1, 0):
            p.save()
            p.translate(tile.x * s, tile.y * s)
            _crusher_label(p, s, tile.phases)
            p.restore()


def _paint_overlays(st: _Stamper, scenario: Scenario, x0, y0, x1, y1) -> None:
    for pusher in scenario.board.pushers:
        if _in(pusher.x, pusher.y, x0, y0, x1, y1):
            st.stamp(("pusher", pusher.dir, tuple(pusher.phases)), pusher.x, pusher.y)
    for i, flag in enumerate(scenario.flags, 1):
        if _in(flag.x, flag.y, x0, y0, x1, y1, 0):
            st.stamp(("flag", i), flag.x, flag.y)
    for i, dock in enumerate(scenario.docks, 1):
        if _in(dock.x, dock.y, x0, y0, x1, y1, 0):
            st.stamp(("dock", i, dock.facing), dock.x, dock.y)


_OUTLINE = QColor(255, 214, 90, 200)


def _paint_factory_boards(p: QPainter, scenario: Scenario, s: float) -> None:
    """The outline of each factory board of the course's ``boards``, dashed,
    with its name (and its turn as placed) in its top-left corner."""
    pen = QPen(_OUTLINE, max(1.0, s * 0.05), Qt.PenStyle.DashLine)
    for part in scenario.boards:
        rect = QRectF(part.x * s, part.y * s, part.width * s, part.height * s)
        p.setPen(pen)
        p.setBrush(Qt.BrushStyle.NoBrush)
        inset = pen.widthF() / 2
        p.drawRect(rect.adjusted(inset, inset, -inset, -inset))
        name = part.name + (f" ↻{90 * part.turn}°" if part.turn else "")
        font = _font(round(s * 0.28))
        width = QFontMetricsF(font).horizontalAdvance(name) + s * 0.3
        label = QRectF(rect.x() + s * 0.1, rect.y() + s * 0.1, min(width, rect.width() - s * 0.2),
                       s * 0.42)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(20, 22, 26, 190))
        p.drawRoundedRect(label, s * 0.1, s * 0.1)
        _text(p, label, name, s * 0.28, _OUTLINE)


def paint_board(painter: QPainter, scenario: Scenario, *, square: float = SQUARE,
                area: tuple[int, int, int, int] | None = None, grid: bool = True,
                level_marks: bool = True) -> None:
    """Paint the course with its top-left corner at (0, 0), `square` units per
    square; outer walls reach edge_margin() beyond the board. `area` = (x0,
    y0, x1, y1), x1 and y1 exclusive, limits the work to those squares:
    everything overlapping them is drawn, clipped to them (and the margin).
    `level_marks`: each raised square's level number and contour lines along
    the ledges, readable in grey (the board view shows them with the Level tool).
    The factory boards the course records (``boards``) are outlined, named."""
    board = scenario.board
    x0, y0, x1, y1 = _area(board, area)
    if x0 >= x1 or y0 >= y1:
        return
    s = float(square)
    info = _info(board)
    painter.save()
    try:
        if area is not None:        # the area, and the margin where it meets the board's edge
            m = edge_margin(s)
            left, top = x0 * s - (m if x0 == 0 else 0), y0 * s - (m if y0 == 0 else 0)
            right = x1 * s + (m if x1 == board.width else 0)
            bottom = y1 * s + (m if y1 == board.height else 0)
            painter.setClipRect(QRectF(left, top, right - left, bottom - top),
                                Qt.ClipOperation.IntersectClip)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        st = _Stamper(painter, s)
        _paint_tiles(st, info, grid, x0, y0, x1, y1)
        if board.levels:
            _paint_levels(painter, info, s, x0, y0, x1, y1)
        _paint_walls(painter, board, s, x0, y0, x1, y1)
        _paint_lasers(painter, info, s, x0, y0, x1, y1)
        _paint_crusher_labels(painter, board, s, x0, y0, x1, y1)
        _paint_overlays(st, scenario, x0, y0, x1, y1)
        if level_marks and board.levels:
            _paint_level_marks(painter, info, s, x0, y0, x1, y1)
        _paint_factory_boards(painter, scenario, s)
    finally:
        painter.restore()


# ---------------------------------------------------------------- palette icons

ICON_KINDS = (*_TILE_DRAW, "wall", "laser", "pusher", "flag", "dock", "eraser")


def paint_element_icon(painter: QPainter, rect: QRectF, element_kind: str, direction: str = "N",
                       **values) -> None:
    """A palette icon: one square showing `element_kind` (a tile type,
    "wall", "laser", "pusher", "flag", "dock" or "eraser"), centred in rect.
    `values`: the tile's key values besides dir (express, rotation...); the
    others are a new tile's, and registers 2 and 4."""
    if element_kind not in ICON_KINDS:
        raise ValueError(f"no icon for {element_kind!r}; known: {', '.join(ICON_KINDS)}")
    rect = QRectF(rect)
    s = min(rect.width(), rect.height())
    if s <= 0:
        return
    direction = direction if direction in INDEX else "N"
    painter.save()
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        painter.translate(rect.center().x() - s / 2, rect.center().y() - s / 2)
        painter.setClipRect(QRectF(0, 0, s, s), Qt.ClipOperation.IntersectClip)
        _icon(painter, s, element_kind, direction, values)
    finally:
        painter.restore()


def _icon(p: QPainter, s: float, kind: str, direction: str, values: dict) -> None:
    if kind == "eraser":
        _draw_eraser(p, s)
        return
    if kind in _TILE_DRAW:
        # the tile alone on a board of one square
        tile = new_tile(0, 0, kind, **{"phases": (2, 4), **values, "dir": direction})
        key = _BoardInfo(Board(1, 1, (tile,))).key(0, 0)
        _TILE_DRAW[kind](p, s, *key[1:])
        if kind == "crusher":
            _crusher_label(p, s, tile.phases)
        return
    _draw_floor(p, s)
    if kind == "wall":
        board = Board(1, 1)
        p.save()
        p.setClipRect(QRectF(0, 0, s, s), Qt.ClipOperation.IntersectClip)
        r = _wall_rect(board, *_edge_of(direction), s)
        o = max(0.02 * s, 0.6)
        p.fillRect(r.adjusted(-o, -o, o, o), _INK)
        p.fillRect(r, COLORS["wall"])
        p.restore()
    elif kind == "laser":
        from rallyforge.engine.model.scenario import Laser
        board = Board(1, 1)
        laser = Laser(0, 0, direction, 1)
        a, b = _beam_segment(board, s, laser, 0, 0, False)
        p.setPen(QPen(_BEAM_GLOW, 0.13 * s, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap))
        p.drawLine(a, b)
        p.setPen(QPen(COLORS["laser"], 0.06 * s, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap))
        p.drawLine(a, b)
        _paint_emitter(p, s, laser)
    elif kind == "pusher":
        _draw_pusher(p, s, direction, (2, 4))
    elif kind == "flag":
        _draw_flag(p, s, 1)
    elif kind == "dock":
        _draw_dock(p, s, 1, direction)


def _edge_of(side: str) -> tuple[int, int, str]:
    """The edge_key of side `side` of square (0, 0)."""
    return {"N": (0, 0, "N"), "W": (0, 0, "W"), "S": (0, 1, "N"), "E": (1, 0, "W")}[side]


def _draw_eraser(p: QPainter, s: float) -> None:
    p.setPen(QPen(_INK, max(1.0, 0.035 * s)))
    p.setBrush(QColor("#f28bb0"))
    p.drawPath(_path(s, "eraser"))
    p.setBrush(QColor("#f5f5f5"))
    t = QTransform()
    t.translate(0.5 * s, 0.5 * s)
    t.rotate(-35)
    band = QPainterPath()
    band.addRect(QRectF(-0.32 * s, -0.15 * s, 0.2 * s, 0.3 * s))
    p.drawPath(t.map(band))
    p.setPen(QPen(_INK, max(1.0, 0.03 * s), Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
    p.drawLine(QPointF(0.15 * s, 0.86 * s), QPointF(0.85 * s, 0.86 * s))
