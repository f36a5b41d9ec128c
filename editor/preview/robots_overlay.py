"""Robots on the board: the race preview's scene items.

Every robot is a coloured disc with a white nose for its facing and its
number, and a name tag under it that does not turn; a red badge counts its
damage, a dashed ring marks a powered-down robot. Each robot's archive
marker is a small numbered diamond in a corner of its square. The frame on
screen adds what happened in it: the paths of moves (dashed for pushes),
laser beams that run along their path and flash, rings on the robots they
hit, and wrecks where robots died this round.

Z order (editor/board_view.py): everything here sits in Z_EXTRA (15) and
just above it, under the selection (20) and the tool preview (30).
"""
from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen, QPolygonF,
)
from PySide6.QtWidgets import QGraphicsItem

from rallyforge.editor.board_view import Z_EXTRA
from rallyforge.drawing.style import SQUARE

from rallyforge.engine.analysis.replay import Death, Motion, Pose, Timeline
from rallyforge.engine.analysis.team_flags import FlagState, flag_owners, flag_states
from rallyforge.engine.model.scenario import Scenario

from .animation import beam_segment, poses, robot_colors, team_colors
from .team_flags_overlay import TeamFlags

Z_TRAILS = Z_EXTRA + 0.2
Z_ARCHIVE = Z_EXTRA + 0.3
Z_WRECKS = Z_EXTRA + 0.4
Z_BEAMS = Z_EXTRA + 0.6
Z_ROBOTS = Z_EXTRA + 0.8
Z_EXPECTED = Z_EXTRA + 0.9

S = float(SQUARE)
RADIUS = S * 0.33
_INK = QColor(20, 22, 26)
_WHITE = QColor(255, 255, 255)
_GOLD = QColor(245, 196, 40)
_BEAM = QColor(255, 40, 40)
_BEAM_CORE = QColor(255, 235, 235)


def _font(px: float, bold: bool = True) -> QFont:
    f = QFont()
    f.setPixelSize(max(1, round(px)))
    f.setBold(bold)
    return f


def _centre(x: float, y: float) -> QPointF:
    return QPointF((x + 0.5) * S, (y + 0.5) * S)


class RobotBody(QGraphicsItem):
    """The disc and nose; turns with the robot. Cached, so moving and
    turning it costs a blit."""

    def __init__(self, color: QColor, number: int, parent=None):
        super().__init__(parent)
        self.color = color
        self.number = number
        self.powered_down = False
        self.setCacheMode(QGraphicsItem.CacheMode.ItemCoordinateCache)

    def boundingRect(self) -> QRectF:
        r = RADIUS + 8
        return QRectF(-r, -r - 8, 2 * r, 2 * r + 8)

    def set_powered_down(self, on: bool) -> None:
        if on != self.powered_down:
            self.powered_down = on
            self.update()

    def paint(self, p: QPainter, option, widget=None) -> None:
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        r = RADIUS
        color = QColor(self.color)
        if self.powered_down:
            color = color.darker(160)
        # shadow
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(0, 0, 0, 90))
        p.drawEllipse(QPointF(2.5, 3.5), r, r)
        # nose: a wedge that shows the facing
        nose = QPolygonF([QPointF(0, -r - 11), QPointF(r * 0.72, -r * 0.45),
                          QPointF(-r * 0.72, -r * 0.45)])
        p.setPen(QPen(_INK, 2.5, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap,
                      Qt.PenJoinStyle.RoundJoin))
        p.setBrush(_WHITE)
        p.drawPolygon(nose)
        # body
        p.setBrush(color)
        p.setPen(QPen(_INK, 2.5))
        p.drawEllipse(QPointF(0, 0), r, r)
        p.setPen(QPen(color.lighter(150), 2))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawEllipse(QPointF(0, 0), r - 3.5, r - 3.5)
        # eye slit towards the front
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(255, 255, 255, 230))
        p.drawRoundedRect(QRectF(-r * 0.5, -r * 0.62, r, r * 0.22), 3, 3)
        if self.powered_down:
            pen = QPen(_WHITE, 2, Qt.PenStyle.DashLine)
            p.setPen(pen)
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawEllipse(QPointF(0, 0), r + 4, r + 4)


class RobotTag(QGraphicsItem):
    """The robot's number on its body and its name under it; never turns."""

    def __init__(self, name: str, number: int, color: QColor, parent=None):
        super().__init__(parent)
        self.name = name
        self.number = str(number)
        self.color = color
        self.damage = 0
        self.superbot = False
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self._name_font = _font(11.5)
        self._number_font = _font(15)
        fm = QFontMetricsF(self._name_font)
        self._name_w = fm.horizontalAdvance(name) + 10

    def boundingRect(self) -> QRectF:
        w = max(self._name_w, 2 * RADIUS + 16)
        return QRectF(-w / 2 - 4, -RADIUS - 14, w + 8, 2 * RADIUS + 36)

    def set_damage(self, damage: int) -> None:
        if damage != self.damage:
            self.damage = damage
            self.update()

    def set_superbot(self, on: bool) -> None:
        """Show the SuperBot badge (rule superbot, docs/rules.md 12.9)."""
        if on != self.superbot:
            self.superbot = on
            self.update()

    def paint(self, p: QPainter, option, widget=None) -> None:
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        # number in the middle of the body
        p.setFont(self._number_font)
        p.setPen(_INK)
        box = QRectF(-RADIUS, -RADIUS * 0.25, 2 * RADIUS, RADIUS * 1.05)
        p.drawText(box.translated(1, 1), Qt.AlignmentFlag.AlignCenter, self.number)
        p.setPen(_WHITE)
        p.drawText(box, Qt.AlignmentFlag.AlignCenter, self.number)
        # name tag under the body
        w = self._name_w
        tag = QRectF(-w / 2, RADIUS + 3, w, 16)
        p.setPen(QPen(self.color, 1.5))
        p.setBrush(QColor(20, 22, 26, 215))
        p.drawRoundedRect(tag, 5, 5)
        p.setFont(self._name_font)
        p.setPen(_WHITE)
        p.drawText(tag, Qt.AlignmentFlag.AlignCenter, self.name)
        if self.superbot:                   # a gold star with an S, top left
            c = QPointF(-RADIUS * 0.85, -RADIUS * 0.85)
            star = QPolygonF([c + QPointF(math.sin(k * math.pi / 5) * (11 if k % 2 == 0 else 5),
                                          -math.cos(k * math.pi / 5) * (11 if k % 2 == 0 else 5))
                              for k in range(10)])
            p.setPen(QPen(_INK, 1.5))
            p.setBrush(_GOLD)
            p.drawPolygon(star)
            p.setFont(_font(8.5))
            p.setPen(_INK)
            p.drawText(QRectF(c.x() - 9, c.y() - 8, 18, 17), Qt.AlignmentFlag.AlignCenter, "S")
        # damage badge
        if self.damage:
            c = QPointF(RADIUS * 0.8, -RADIUS * 0.8)
            p.setPen(QPen(_WHITE, 1.5))
            p.setBrush(QColor(200, 20, 30))
            p.drawEllipse(c, 9, 9)
            p.setFont(_font(11))
            p.drawText(QRectF(c.x() - 9, c.y() - 9, 18, 18), Qt.AlignmentFlag.AlignCenter,
                       str(self.damage))


class RobotMarker:
    """A robot's body and tag, placed by pose."""

    def __init__(self, scene, name: str, number: int, color: QColor):
        self.name = name
        self.body = RobotBody(color, number)
        self.tag = RobotTag(name, number, color)
        for item in (self.body, self.tag):
            item.setZValue(Z_ROBOTS)
            scene.addItem(item)
        self.tag.setZValue(Z_ROBOTS + 0.01)
        self.pose: Pose | None = None

    def items(self):
        return (self.body, self.tag)

    def set_pose(self, pose: Pose | None) -> None:
        self.pose = pose
        if pose is None or pose.opacity <= 0.0:
            self.body.setVisible(False)
            self.tag.setVisible(False)
            return
        pos = _centre(pose.x, pose.y)
        for item in (self.body, self.tag):
            item.setVisible(True)
            item.setPos(pos)
            item.setOpacity(pose.opacity)
            item.setScale(pose.scale)
        self.body.setRotation(pose.angle)


class ArchiveMarkers(QGraphicsItem):
    """Every robot's archive marker: a small numbered diamond, side by side
    along the bottom of the square when several share it."""

    def __init__(self, colors: list[QColor]):
        super().__init__()
        self.colors = colors
        self.setZValue(Z_ARCHIVE)
        self.archives: list[tuple[int, int] | None] = []
        self._bounds = QRectF()
        self._font = _font(10)

    def set_archives(self, archives: list[tuple[int, int] | None]) -> None:
        if archives == self.archives:
            return
        self.prepareGeometryChange()
        self.archives = archives
        bounds = QRectF()
        for a in archives:
            if a is not None:
                bounds = bounds.united(QRectF(a[0] * S, a[1] * S, S, S))
        self._bounds = bounds
        self.update()

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, p: QPainter, option, widget=None) -> None:
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setFont(self._font)
        shared: dict[tuple[int, int], int] = {}
        for i, a in enumerate(self.archives):
            if a is None:
                continue
            k = shared.get(a, 0)
            shared[a] = k + 1
            cx = a[0] * S + 9 + k * 13
            cy = a[1] * S + S - 9
            d = QPolygonF([QPointF(cx, cy - 8), QPointF(cx + 8, cy), QPointF(cx, cy + 8),
                           QPointF(cx - 8, cy)])
            p.setPen(QPen(_INK, 1.5))
            p.setBrush(self.colors[i])
            p.drawPolygon(d)
            p.setPen(_WHITE)
            p.drawText(QRectF(cx - 8, cy - 8, 16, 16), Qt.AlignmentFlag.AlignCenter, str(i + 1))


class Beams(QGraphicsItem):
    """The laser beams of the frame on screen. `progress` 0..1 runs each beam
    out along its path; `glow` is how bright they are."""

    def __init__(self):
        super().__init__()
        self.setZValue(Z_BEAMS)
        self.lines: list[tuple[QPointF, QPointF, int, bool, bool]] = []
        self.progress = 1.0
        self.glow = 1.0
        self._bounds = QRectF()

    def set_beams(self, beams) -> None:
        lines = []
        bounds = QRectF()
        for b in beams:
            seg = beam_segment(b)
            if seg is None:
                continue
            (x0, y0), (x1, y1) = seg
            a, c = QPointF(x0 * S, y0 * S), QPointF(x1 * S, y1 * S)
            lines.append((a, c, max(1, b.amount), b.shooter is None, b.target is not None))
            bounds = bounds.united(QRectF(a, c).normalized())
        self.prepareGeometryChange()
        self.lines = lines
        self._bounds = bounds.adjusted(-16, -16, 16, 16)
        self.update()

    def set_progress(self, progress: float, glow: float) -> None:
        if (progress, glow) != (self.progress, self.glow):
            self.progress, self.glow = progress, glow
            self.update()

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, p: QPainter, option, widget=None) -> None:
        if not self.lines or self.glow <= 0:
            return
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        for a, c, beams, board, hit in self.lines:
            end = a + (c - a) * self.progress
            width = 3.0 + 2.0 * beams if board else 3.0
            strength = self.glow * (1.0 if hit else 0.45)     # misses are faint
            if not hit:
                width = max(2.0, width - 1.5)
            glow = QColor(_BEAM)
            glow.setAlphaF(0.28 * strength)
            p.setPen(QPen(glow, width + 9, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
            p.drawLine(a, end)
            core = QColor(_BEAM)
            core.setAlphaF(0.95 * strength)
            p.setPen(QPen(core, width, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
            p.drawLine(a, end)
            inner = QColor(_BEAM_CORE)
            inner.setAlphaF(0.9 * strength)
            p.setPen(QPen(inner, max(1.0, width / 3), Qt.PenStyle.SolidLine,
                          Qt.PenCapStyle.RoundCap))
            p.drawLine(a, end)
            if hit and self.progress >= 1.0:
                p.setPen(Qt.PenStyle.NoPen)
                spark = QColor(255, 220, 120)
                spark.setAlphaF(0.85 * self.glow)
                p.setBrush(spark)
                p.drawEllipse(c, 6 + beams, 6 + beams)


class Trails(QGraphicsItem):
    """Where robots went in the frame on screen: a line per move in the
    robot's colour with an arrow head; dashed for pushes."""

    def __init__(self, colors: dict[str, QColor]):
        super().__init__()
        self.colors = colors
        self.setZValue(Z_TRAILS)
        self.paths: list[tuple[QPainterPath, QColor, bool, QPointF, float, bool]] = []
        self._bounds = QRectF()

    def set_motions(self, motions, earlier=()) -> None:
        """`motions` of the frame on screen, drawn strong; `earlier` ones
        (of the same register) drawn faint."""
        paths = []
        bounds = QRectF()
        for group, strong in ((earlier, False), (motions, True)):
            for m in group:
                if not m.moved or m.appears or m.cause == "slide":
                    continue
                a, b = _centre(m.src.x, m.src.y), _centre(m.dst.x, m.dst.y)
                path = QPainterPath(a)
                if m.jump:
                    mid = (a + b) / 2
                    bulge = QPointF(-(b - a).y(), (b - a).x()) * 0.25
                    path.quadTo(mid + bulge, b)
                else:
                    path.lineTo(b)
                angle = math.atan2(b.y() - a.y(), b.x() - a.x())
                pushed = m.cause in ("push", "pusher")
                paths.append((path, self.colors.get(m.robot, _WHITE), pushed, b, angle, strong))
                bounds = bounds.united(path.boundingRect())
        self.prepareGeometryChange()
        self.paths = paths
        self._bounds = bounds.adjusted(-14, -14, 14, 14)
        self.update()

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, p: QPainter, option, widget=None) -> None:
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        for path, color, pushed, tip, angle, strong in self.paths:
            c = QColor(color)
            c.setAlpha(210 if strong else 110)
            p.setPen(QPen(QColor(0, 0, 0, 110 if strong else 45), 8, Qt.PenStyle.SolidLine,
                          Qt.PenCapStyle.RoundCap))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawPath(path)
            pen = QPen(c, 5, Qt.PenStyle.DashLine if pushed else Qt.PenStyle.SolidLine,
                       Qt.PenCapStyle.RoundCap)
            p.setPen(pen)
            p.drawPath(path)
            # arrow head short of the centre, under the robot's nose
            back = tip - QPointF(math.cos(angle), math.sin(angle)) * (RADIUS + 2)
            head = QPolygonF([
                back + QPointF(math.cos(angle), math.sin(angle)) * 10,
                back + QPointF(math.cos(angle + 2.5), math.sin(angle + 2.5)) * 10,
                back + QPointF(math.cos(angle - 2.5), math.sin(angle - 2.5)) * 10])
            p.setPen(QPen(QColor(0, 0, 0, 140 if strong else 60), 1.5))
            p.setBrush(c)
            p.drawPolygon(head)


class Wrecks(QGraphicsItem):
    """Where robots died this round: an X in the robot's colour with the
    cause; the deaths of the frame on screen larger and brighter."""

    def __init__(self, colors: dict[str, QColor]):
        super().__init__()
        self.colors = colors
        self.setZValue(Z_WRECKS)
        self.marks: list[tuple[Death, bool]] = []
        self._bounds = QRectF()
        self._font = _font(10)

    def set_deaths(self, marks: list[tuple[Death, bool]]) -> None:
        self.prepareGeometryChange()
        self.marks = marks
        bounds = QRectF()
        for d, _ in marks:
            bounds = bounds.united(QRectF(d.x * S, d.y * S, S, S))
        self._bounds = bounds.adjusted(-4, -4, 4, 4)
        self.update()

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, p: QPainter, option, widget=None) -> None:
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setFont(self._font)
        for d, fresh in self.marks:
            c = _centre(d.x, d.y)
            r = S * (0.3 if fresh else 0.2)
            color = QColor(self.colors.get(d.robot, _WHITE))
            color.setAlpha(255 if fresh else 150)
            for pen in (QPen(QColor(0, 0, 0, 170 if fresh else 90), 9 if fresh else 6,
                             Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap),
                        QPen(color, 5 if fresh else 3, Qt.PenStyle.SolidLine,
                             Qt.PenCapStyle.RoundCap)):
                p.setPen(pen)
                p.drawLine(c + QPointF(-r, -r), c + QPointF(r, r))
                p.drawLine(c + QPointF(-r, r), c + QPointF(r, -r))
            if fresh:
                text = "laser" if d.cause == "damage" else d.cause
                box = QRectF(d.x * S + 2, d.y * S + 2, S - 4, 14)
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(QColor(0, 0, 0, 170))
                fm = QFontMetricsF(self._font)
                w = fm.horizontalAdvance(text) + 8
                p.drawRoundedRect(QRectF(box.center().x() - w / 2, box.top(), w, 14), 4, 4)
                p.setPen(_WHITE)
                p.drawText(box, Qt.AlignmentFlag.AlignCenter, text)


class Expectation(QGraphicsItem):
    """A failed check's expected square and facing: a dashed ghost robot."""

    def __init__(self):
        super().__init__()
        self.setZValue(Z_EXPECTED)
        self.square: tuple[int, int] | None = None
        self.facing: str | None = None
        self.text = ""
        self.setVisible(False)

    def show_at(self, x: int, y: int, facing: str | None, text: str) -> None:
        self.prepareGeometryChange()
        self.square, self.facing, self.text = (x, y), facing, text
        self.setPos(_centre(x, y))
        self.setVisible(True)
        self.update()

    def boundingRect(self) -> QRectF:
        return QRectF(-S * 0.9, -S * 0.6, S * 1.8, S * 1.2)

    def paint(self, p: QPainter, option, widget=None) -> None:
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        pen = QPen(_WHITE, 3, Qt.PenStyle.DashLine)
        p.setPen(QPen(QColor(0, 0, 0, 160), 6))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawEllipse(QPointF(0, 0), RADIUS + 2, RADIUS + 2)
        p.setPen(pen)
        p.drawEllipse(QPointF(0, 0), RADIUS + 2, RADIUS + 2)
        if self.facing:
            p.save()
            p.rotate({"N": 0, "E": 90, "S": 180, "W": 270}[self.facing])
            p.setPen(QPen(_WHITE, 3))
            p.drawLine(QPointF(0, -4), QPointF(0, -RADIUS - 6))
            p.drawLine(QPointF(0, -RADIUS - 6), QPointF(-6, -RADIUS + 1))
            p.drawLine(QPointF(0, -RADIUS - 6), QPointF(6, -RADIUS + 1))
            p.restore()
        if self.text:
            p.setFont(_font(10.5))
            fm = QFontMetricsF(p.font())
            w = fm.horizontalAdvance(self.text) + 10
            box = QRectF(-w / 2, -S * 0.5 - 2, w, 16)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QColor(200, 30, 40, 230))
            p.drawRoundedRect(box, 5, 5)
            p.setPen(_WHITE)
            p.drawText(box, Qt.AlignmentFlag.AlignCenter, self.text)


class RaceOverlay:
    """All the race items of one scene. `show(i, u)` puts the board in the
    state of frame i of the timeline at fraction u of its animation."""

    def __init__(self, scene):
        self.scene = scene
        self.timeline: Timeline | None = None
        self.markers: dict[str, RobotMarker] = {}
        self.archives: ArchiveMarkers | None = None
        self.beams: Beams | None = None
        self.trails: Trails | None = None
        self.wrecks: Wrecks | None = None
        # a team race's flags (held, carried) after each frame, and their item
        self.flag_states: list[tuple[FlagState, ...]] = []
        self.team_flags: TeamFlags | None = None
        self.expectation = Expectation()
        scene.addItem(self.expectation)
        self.frame_index = -1

    def items(self) -> list[QGraphicsItem]:
        out = []
        for m in self.markers.values():
            out.extend(m.items())
        out.extend(i for i in (self.archives, self.beams, self.trails, self.wrecks,
                               self.team_flags) if i)
        return out

    def set_timeline(self, timeline: Timeline | None, scenario: Scenario | None = None) -> None:
        """Show `timeline`, a race of `scenario` (needed for a team race's
        flags, docs/rules.md 13.5 and 13.7)."""
        self.clear()
        self.timeline = timeline
        if timeline is None:
            return
        colors = {name: QColor(c) for name, c in robot_colors(timeline).items()}
        for number, name in enumerate(timeline.names, 1):
            self.markers[name] = RobotMarker(self.scene, name, number, colors[name])
        self.archives = ArchiveMarkers([colors[n] for n in timeline.names])
        self.beams = Beams()
        self.trails = Trails(colors)
        self.wrecks = Wrecks(colors)
        for item in (self.archives, self.beams, self.trails, self.wrecks):
            self.scene.addItem(item)
        if scenario is not None and scenario.rules.victory in ("flag_control", "capture"):
            self.flag_states = flag_states(scenario, timeline)
            self.team_flags = TeamFlags(team_colors(timeline, tuple(flag_owners(scenario))),
                                        [(f.x, f.y) for f in scenario.flags])
            self.scene.addItem(self.team_flags)

    def clear(self) -> None:
        for item in self.items():
            if item.scene() is self.scene:
                self.scene.removeItem(item)
        self.markers.clear()
        self.archives = self.beams = self.trails = self.wrecks = self.team_flags = None
        self.flag_states = []
        self.timeline = None
        self.frame_index = -1
        self.hide_expectation()

    def show(self, i: int, u: float = 1.0) -> None:
        t = self.timeline
        if t is None:
            return
        frame = t.frames[i]
        if i != self.frame_index:
            self.frame_index = i
            self._enter_frame(t, i)
        now = poses(t, i, u)
        for r in frame.robots:
            marker = self.markers[r.name]
            marker.set_pose(now.get(r.name))
        # damage and power down as they stand after the frame (before it while it animates)
        state = frame.robots if u >= 1.0 or i == 0 else t.frames[i - 1].robots
        for r in state:
            marker = self.markers[r.name]
            marker.tag.set_damage(r.damage if r.alive else 0)
            marker.tag.set_superbot(r.superbot)
            marker.body.set_powered_down(r.powered_down)
        if self.team_flags is not None:
            self.team_flags.set_state(self.flag_states[i if u >= 1.0 or i == 0 else i - 1], now)
        if frame.beams and self.beams is not None:
            self.beams.set_progress(min(1.0, u * 3.0), 1.0 if u >= 1.0 else
                                    0.55 + 0.45 * abs(math.sin(u * math.pi * 3)))

    def _enter_frame(self, t: Timeline, i: int) -> None:
        archives, beams, trails, wrecks = self.archives, self.beams, self.trails, self.wrecks
        # made with the timeline
        assert archives is not None and beams is not None and trails is not None \
            and wrecks is not None
        frame = t.frames[i]
        archives.set_archives([r.archive for r in frame.robots])
        beams.set_beams(frame.beams)
        beams.set_progress(1.0, 1.0)
        earlier: list[Motion] = []
        if frame.register is not None:
            k = i - 1
            while k > 0 and t.frames[k].round == frame.round and \
                    t.frames[k].register == frame.register:
                earlier.extend(t.frames[k].motions)
                k -= 1
        trails.set_motions(frame.motions, earlier)
        marks = []
        for f in t.frames[max(0, i - 200):i + 1]:
            if f.round == frame.round:
                for d in f.deaths:
                    marks.append((d, f.index == i))
        wrecks.set_deaths(marks)

    # ------------------------------------------------------------ checks

    def show_expectation(self, x: int, y: int, facing: str | None, text: str) -> None:
        self.expectation.show_at(x, y, facing, text)

    def hide_expectation(self) -> None:
        self.expectation.setVisible(False)
