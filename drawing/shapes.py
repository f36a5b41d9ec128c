"""Every shape of the style, built once in a unit square and scaled per
size; turning a painter about a square's centre."""
from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QPainter, QPainterPath, QPolygonF, QTransform

from rallyforge.engine.model.directions import INDEX


def poly(points) -> QPainterPath:
    path = QPainterPath()
    path.addPolygon(QPolygonF([QPointF(x, y) for x, y in points]))
    path.closeSubpath()
    return path


def arc_points(cx: float, cy: float, r: float, a0: float, a1: float, n: int = 20):
    """Points on a circle (screen coordinates, y down), angles in degrees."""
    return [(cx + r * math.cos(math.radians(a0 + (a1 - a0) * i / n)),
             cy + r * math.sin(math.radians(a0 + (a1 - a0) * i / n))) for i in range(n + 1)]


def _chevron(th: float, half: float = 0.26, rise: float = 0.17) -> QPainterPath:
    """A chevron pointing up (N), centred on the origin, in unit squares."""
    return poly([(0, -0.09), (half, -0.09 + rise), (half, -0.09 + rise + th),
                  (0, -0.09 + th), (-half, -0.09 + rise + th), (-half, -0.09 + rise)])


# Centres of the chevrons along a belt's travel (as distance from the
# entry edge), and their thickness, for normal and express belts.
_STRAIGHT_AT = {False: ((0.71, 0.21), 0.09), True: ((0.78, 0.66, 0.28, 0.16), 0.07)}
_CURVE_AT = {False: ((67.5, 22.5), 0.09), True: ((77.0, 63.0, 27.0, 13.0), 0.07)}


@lru_cache(maxsize=None)
def unit(name: str, *args) -> QPainterPath:
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
    return poly(points)


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
    return poly([(0.015, 0.33), (0.015, 0.67), (0.125, 0.5)])


def _build_curve_band() -> QPainterPath:
    return poly(arc_points(0, 0, 0.86, 0, 90) + arc_points(0, 0, 0.14, 90, 0))


def _build_curve_rails() -> QPainterPath:
    path = QPainterPath()
    for r in (0.86, 0.14):
        pts = arc_points(0, 0, r, 0, 90)
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
        tooth = poly([(-0.075, -0.45), (0.075, -0.45), (0.09, -0.3), (-0.09, -0.3)])
        body = body.united(t.map(tooth))
    return body.simplified()


def _build_gear_arrow(rotation: str) -> QPainterPath:
    """A 270-degree arrow around the centre, turning as the gear does."""
    r, w = 0.245, 0.1
    outer = arc_points(0.5, 0.5, r + w / 2, -90, 180, 30)
    inner = arc_points(0.5, 0.5, r - w / 2, 180, -90, 30)
    arrow = poly(outer + inner)
    head = poly([(0.5 - r - 0.12, 0.52), (0.5 - r + 0.12, 0.52), (0.5 - r, 0.33)])
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
    jaw = poly([(-0.3, -0.055), (-0.08, -0.055), (-0.08, 0.055), (-0.3, 0.055)])
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
        path.addPath(poly([(x + 0.01, 0.05), (x + 0.19, 0.05), (x + 0.1, 0.2)]))
        path.addPath(poly([(x + 0.01, 0.95), (x + 0.19, 0.95), (x + 0.1, 0.8)]))
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
    path = poly([(0.66, 0.04), (0.9, 0.11), (0.66, 0.19)])
    pole = QPainterPath()
    pole.addRect(QRectF(0.63, 0.04, 0.035, 0.26))
    return path.united(pole).simplified()


def _build_dock_arrow() -> QPainterPath:
    return poly([(0.5, 0.12), (0.35, 0.27), (0.65, 0.27)])


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
def scaled(s: float, name: str, *args) -> QPainterPath:
    """A unit path scaled to squares of size s (cached per size)."""
    return QTransform.fromScale(s, s).map(unit(name, *args))


_MIRROR_X = QTransform(-1, 0, 0, 1, 1, 0)


@lru_cache(maxsize=4096)
def scaled_mirror(s: float, name: str, *args) -> QPainterPath:
    return QTransform.fromScale(s, s).map(_MIRROR_X.map(unit(name, *args)))


def turn(p: QPainter, s: float, direction: str) -> None:
    """Rotate the painter about the square's centre so that "up" is `direction`."""
    quarter = INDEX.get(direction, 0)
    if quarter:
        p.translate(s / 2, s / 2)
        p.rotate(90 * quarter)
        p.translate(-s / 2, -s / 2)
