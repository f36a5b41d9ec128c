"""How a replayed race looks while it plays: the robots' colours, every
robot's pose part way through a frame, a laser beam's line.

A pose is a square (its column and row; a robot's centre is x + 0.5),
an angle in degrees clockwise from north, an opacity and a scale. The frames
and their motions come from the engine's replay (engine/analysis/replay.py).

    poses(timeline, 12, 0.5)            # half way through frame 12
"""
from __future__ import annotations

import math

from PySide6.QtGui import QColor

from rallyforge.drawing.style import ROBOT_COLORS
from rallyforge.engine.analysis.replay import ANGLE, Beam, Motion, Pose, Timeline
from rallyforge.engine.model.directions import DX, DY, INDEX
from rallyforge.engine.model.element_kinds import FALL_CAUSES
from rallyforge.engine.rules.outcome import RobotResult
from rallyforge.engine.analysis.team_colors import team_color



def team_colors(timeline: Timeline, more: tuple[str | None, ...] = ()) -> dict[str, QColor]:
    """Each team's colour (engine/analysis/team_colors.py) by name: the teams racing
    in robot order, then the `more` named (a team of the course with no
    robot in the race)."""
    teams = list(dict.fromkeys([team for team, _ in timeline.sides.values()]
                               + [t for t in more if t is not None]))
    return {team: QColor(team_color(team, k)) for k, team in enumerate(teams)}


def robot_colors(timeline: Timeline) -> dict[str, str]:
    """Each robot's colour by name, in robot order; on a team course its
    team's (engine/analysis/team_colors.py), a blocker's a shade darker."""
    if timeline.sides:
        teams = team_colors(timeline)
        colors = {}
        for name in timeline.names:
            team, role = timeline.sides[name]
            color = teams[team]
            colors[name] = (color.darker(140) if role == "blocker" else color).name()
        return colors
    return {name: ROBOT_COLORS[i % len(ROBOT_COLORS)] for i, name in enumerate(timeline.names)}


def rest_pose(robot: RobotResult) -> Pose | None:
    if not robot.alive:
        return None
    assert robot.x is not None and robot.y is not None and robot.facing is not None   # on board
    return Pose(robot.x, robot.y, ANGLE[robot.facing])


def poses(timeline: Timeline, i: int, u: float = 1.0) -> dict[str, Pose | None]:
    """Every robot's pose at fraction u (0..1) of the timeline's frame i;
    None for a robot not on the board."""
    frame = timeline.frames[i]
    if u >= 1.0 or not frame.slots or i == 0:
        return {r.name: rest_pose(r) for r in frame.robots}
    before = timeline.frames[i - 1].robots
    motions: dict[str, list[Motion]] = {}
    for m in frame.motions:
        motions.setdefault(m.robot, []).append(m)
    at = max(0.0, u) * frame.slots
    slot = min(int(at), frame.slots - 1)
    t = at - slot
    out: dict[str, Pose | None] = {}
    for r in before:
        pose = rest_pose(r)
        for m in motions.get(r.name, ()):
            if m.slot < slot:
                pose = _final(m)
            elif m.slot == slot:
                pose = interpolate(m, t)
                break
            else:
                break
        out[r.name] = pose
    return out


def _final(m: Motion) -> Pose | None:
    if m.cause == "slide":
        return m.src                    # back where it started
    return None if m.dies else m.dst


def _ease(t: float) -> float:
    return t * t * (3 - 2 * t)


def interpolate(m: Motion, t: float) -> Pose | None:
    """The pose of a robot `t` (0..1) of the way through its motion."""
    if m.appears:
        k = _ease(min(1.0, t * 1.5))
        return Pose(m.dst.x, m.dst.y, m.dst.angle, k, 1.5 - 0.5 * k)
    if m.dies:
        # move in the first 60%, then shrink and fade (a fall), or fade (a wreck)
        k = _ease(min(1.0, t / 0.6)) if m.moved else 1.0
        fade = 0.0 if t < 0.6 else (t - 0.6) / 0.4
        if t >= 1.0:
            return None
        base = _lerp(m.src, m.dst, k)
        return Pose(base.x, base.y, base.angle, 1.0 - fade,
                    1.0 - 0.7 * fade if m.cause in FALL_CAUSES else 1.0)
    if m.cause == "slide":      # halfway up the ramp and back down
        k = 0.5 * math.sin(math.pi * t)
        return _lerp(m.src, m.dst, k)
    if m.cause == "fall":       # over the edge, smaller as it drops, then back to size
        base = _lerp(m.src, m.dst, _ease(t))
        return Pose(base.x, base.y, base.angle, 1.0, 1.0 - 0.35 * math.sin(math.pi * t))
    if m.jump:          # a teleport: fade out, fade in
        if t < 0.5:
            return Pose(m.src.x, m.src.y, m.src.angle, 1.0 - 2 * t, 1.0)
        return Pose(m.dst.x, m.dst.y, m.dst.angle, 2 * t - 1.0, 1.0)
    return _lerp(m.src, m.dst, _ease(t))


def _lerp(a: Pose, b: Pose, k: float) -> Pose:
    return Pose(a.x + (b.x - a.x) * k, a.y + (b.y - a.y) * k,
                a.angle + (b.angle - a.angle) * k)


def beam_segment(beam: Beam) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """The beam's line in squares (x, y of its ends): a board laser from the
    wall it hangs on, a robot's from the front of the robot; to the target's
    centre or through the last square of its path."""
    d = INDEX[beam.facing]
    dx, dy = DX[d], DY[d]
    sx, sy = beam.src
    if beam.shooter is None:
        start = (sx + 0.5 - dx * 0.5, sy + 0.5 - dy * 0.5)
    else:
        start = (sx + 0.5 + dx * 0.35, sy + 0.5 + dy * 0.35)
    if not beam.path:
        return None if beam.shooter is not None else (start, (sx + 0.5, sy + 0.5))
    lx, ly = beam.path[-1]
    if beam.target is not None:
        end = (lx + 0.5 - dx * 0.25, ly + 0.5 - dy * 0.25)
    else:
        end = (lx + 0.5 + dx * 0.5, ly + 0.5 + dy * 0.5)
    return start, end
