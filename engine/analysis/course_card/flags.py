"""Static flag difficulty: the publisher's 2005 score of what surrounds a flag.

The exact counting rule (docs/rules.md, "Flag difficulty"):

- each of the flag's 8 neighbours (sharing a side or a corner) on the board
  counts its tile: pit or drain 2, teleporter 2; a conveyor or current by
  where it moves robots: towards the flag's square 0 (its direction brings
  a robot closer, in the sense of a positive dot product with the way to
  the flag), away from it 2, across 1;
- each side of the flag's own square counts: a wall 2 (listed, or the wall
  a laser or pusher hangs on), the board's edge 3 (both when a walled side
  is also the edge);
- each board laser whose beam reaches the flag's square or that hangs on
  the flag's square or a neighbour counts 1, once per laser;
- each pusher on the flag's square or a neighbour counts 1.

Everything else (floor, gears, crushers, repair, water, randomizers,
off-board neighbours beyond the edge sides) counts 0. The course's score is
the mean over its flags.
"""
from __future__ import annotations

from dataclasses import dataclass

from rallyforge.engine.analysis.course_card.types import FlagScore as FlagScoreData
from rallyforge.engine.model.directions import DX, DY, INDEX, NAMES
from rallyforge.engine.model.element_kinds import BELT_TYPES, DEADLY_TYPES
from rallyforge.engine.model.scenario import Scenario
from rallyforge.engine.rules.beams import board_beams

PIT = 2
TELEPORTER = 2
BELT_AWAY, BELT_ACROSS, BELT_TOWARD = 2, 1, 0
WALL = 2
EDGE = 3
LASER = 1
PUSHER = 1

NEIGHBOURS = tuple((dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy)


@dataclass(frozen=True)
class FlagScore:
    flag: int                           # 1-based
    x: int
    y: int
    score: int
    parts: tuple[tuple[str, int], ...]  # (what, points), in the order counted

    def as_dict(self) -> FlagScoreData:
        return {"flag": self.flag, "x": self.x, "y": self.y, "score": self.score,
                "parts": [{"what": what, "points": points} for what, points in self.parts]}

    def explain(self) -> str:
        """`5: wall N 2, pit (3, 4) 2, laser at (1, 2) 1`."""
        if not self.parts:
            return f"{self.score}: nothing around it"
        return f"{self.score}: " + ", ".join(f"{what} {points}" for what, points in self.parts)


def flag_scores(scenario: Scenario) -> list[FlagScore]:
    board = scenario.board
    beams = board_beams(board)
    out = []
    for number, flag in enumerate(scenario.flags, 1):
        fx, fy = flag.x, flag.y
        parts: list[tuple[str, int]] = []
        for dx, dy in NEIGHBOURS:
            x, y = fx + dx, fy + dy
            tile = board.tile_at(x, y) if board.in_bounds(x, y) else None
            if tile is None:
                continue
            if tile.type in DEADLY_TYPES:
                parts.append((f"{tile.type} ({x}, {y})", PIT))
            elif tile.type == "teleporter":
                parts.append((f"teleporter ({x}, {y})", TELEPORTER))
            elif tile.type in BELT_TYPES and tile.dir in INDEX:
                d = INDEX[tile.dir]
                dot = DX[d] * -dx + DY[d] * -dy
                points, how = ((BELT_TOWARD, "towards") if dot > 0 else
                               (BELT_AWAY, "away") if dot < 0 else (BELT_ACROSS, "across"))
                parts.append((f"{tile.type} {how} ({x}, {y})", points))
        for d, side in enumerate(NAMES):
            if board.in_bounds(fx, fy) and board.blocked(fx, fy, d):
                parts.append((f"wall {side}", WALL))
            if not board.in_bounds(fx + DX[d], fy + DY[d]):
                parts.append((f"board edge {side}", EDGE))
        flag_sq = board.index(fx, fy)
        for beam in beams:
            lx, ly = beam.laser.x, beam.laser.y
            if flag_sq in beam.squares or max(abs(lx - fx), abs(ly - fy)) <= 1:
                parts.append((f"laser at ({lx}, {ly})", LASER))
        for pusher in board.pushers:
            if max(abs(pusher.x - fx), abs(pusher.y - fy)) <= 1:
                parts.append((f"pusher at ({pusher.x}, {pusher.y})", PUSHER))
        out.append(FlagScore(number, fx, fy, sum(p for _, p in parts), tuple(parts)))
    return out


def course_score(scores: list[FlagScore]) -> float | None:
    """The mean flag score (None for a course without flags)."""
    return sum(s.score for s in scores) / len(scores) if scores else None


def flag_path(scenario: Scenario, robots: int) -> float:
    """How far the course sends a robot, in squares: from the middle of the
    first `robots` docks (where the game seats that many players) to flag 1
    and from each flag to the next, counted along the rows and columns
    (docs/rules.md, "The course card"). Walls, pits and belts are left to the
    races; flags that move count where they start. 0 for a course without
    flags or docks."""
    docks = scenario.docks[:robots]
    if not docks or not scenario.flags:
        return 0.0
    x = sum(d.x for d in docks) / len(docks)
    y = sum(d.y for d in docks) / len(docks)
    path = 0.0
    for flag in scenario.flags:
        path += abs(flag.x - x) + abs(flag.y - y)
        x, y = flag.x, flag.y
    return path
