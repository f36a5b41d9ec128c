"""Hunting the SuperBot (docs/rules.md 12.9): under ``superbot`` a robot
without the title touches no flag, so instead of racing to flags it goes
after the SuperBot, whose destroyer takes the title.

Where the SuperBot will be: a hunter cannot see its program, so it takes
the SuperBot's likeliest way, register by register the card that brings it
nearest its next flag on the lone-robot tables (it stays put once there, or
while off the board, at its archive).

The search bot scores a hunter's programs on the same tables as a racer's
(engine/bots/search.py), with other values: each register the hunter ends
with its laser on the SuperBot's square of that register (in line, facing
it, walls stopping the look) counts ``SHOT``, as board-laser damage counts
against a racer (the SuperBot sheds its damage every round, so only hits
piled up within one round destroy it); where it ends is worth minus the
registers to a square in line with the SuperBot's last square, plus ``AIM``
facing it; and each register it ends right behind the SuperBot facing a pit,
a drain or the board's edge beyond it counts ``PUSH`` (its next move pushes
the SuperBot in).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from rallyforge.engine.bots.tables import KINDS
from rallyforge.engine.rules.course import OFF_BOARD, WALL

if TYPE_CHECKING:
    from rallyforge.engine.bots.tables import Layered, Tables
    from rallyforge.engine.rules.bot_view import BotView
    from rallyforge.engine.rules.state import RobotState

SHOT = 10
AIM = 3
PUSH = 4
FAR = 50            # how far a state is from which no line is reachable
DEATH = 10
LAST_LIFE = 100000


class Quarry(NamedTuple):
    """Where the SuperBot stands, as a hunter sees it (a RobotState serves
    too; the compiled race's bots are given these, engine/bots/race_bot.py)."""
    sq: int                 # -1 off the board
    facing: int
    flags: int
    archive: int


class Hunt(NamedTuple):
    """What a hunter's programs are scored with, in place of a racer's: the
    value of every extended state (engine/bots/tables.py Layered), of being
    destroyed per flag count, and the per-register damage rows less
    ``SHOT`` for each register that ends aimed at the SuperBot."""
    value: np.ndarray
    dead: np.ndarray
    dmg_all: np.ndarray


def quarry(view: BotView) -> RobotState | None:
    """The SuperBot the robot should hunt, or None when it races (no
    superbot rule, it holds the title, or nobody in the race does)."""
    if not view.rules.superbot or view.robot.superbot:
        return None
    return next((r for r in view.others() if r.superbot and not r.out), None)


def hunt_scale(tables: Tables, layered: Layered, holder: RobotState | Quarry,
               last_life: bool) -> Hunt:
    """A hunter's scale against `holder`, remembered on the tables per
    place of the SuperBot."""
    cache = layered.__dict__.setdefault("_hunts", {})
    key = (holder.sq, holder.facing, holder.flags, holder.archive, last_life)
    found = cache.get(key)
    if found is None:
        if len(cache) > 64:
            cache.clear()
        path = likely_path(tables, holder)
        S, F, n = layered.S, layered.F, tables.states
        dead_value = -(LAST_LIFE if last_life else DEATH + FAR // 5)
        value = np.full(layered.X, dead_value, dtype=np.int64)
        base = _end_values(tables, path[-1])
        for t in range(F):
            value[t * S:t * S + n] = base
        value[layered.FIN:] = int(base.max())      # (a hunter's flags do not count)
        dmg_all = layered.dmg_all.copy()
        shot = np.zeros(layered.X, dtype=np.int32)
        for r, square in enumerate(path):
            aimed = _aimed(tables, square) * SHOT + _pushing(tables, square) * PUSH
            for t in range(F):
                shot[t * S:t * S + n] = aimed
            dmg_all[r] -= shot.take(layered.end_all[r])
        dead = np.full(F + 1, dead_value, dtype=np.int64)
        found = cache[key] = Hunt(value, dead, dmg_all)
    return found


def likely_path(tables: Tables, holder: RobotState | Quarry) -> list[int]:
    """The SuperBot's square at the end of each register, were it to play
    the card nearest its next flag each time (alone on the board)."""
    if holder.sq < 0:
        return [holder.archive] * 5
    dist = tables.dist[min(holder.flags, len(tables.flags))]
    state = holder.sq * 4 + holder.facing
    path: list[int] = []
    for r in range(5):
        if state < tables.states:
            ends = tables.end[r, :KINDS, state]
            alive = ends[ends < tables.states]
            if alive.size:
                state = int(alive[np.argmin(dist[alive])])
        path.append(state // 4 if state < tables.states else path[-1] if path else holder.sq)
    return path


def _lines(tables: Tables, target: int) -> dict[int, int]:
    """The squares from which a laser hits square `target` (walls stopping
    it), each with the facing that does."""
    lines: dict[int, int] = {}
    for d in range(4):
        for square in tables.course.ray(target, d):
            lines.setdefault(square, (d + 2) & 3)
    return lines


def _aimed(tables: Tables, target: int) -> np.ndarray:
    """1 for the board states (square * 4 + facing) aimed at `target`."""
    aimed = np.zeros(tables.states, dtype=np.int32)
    for square, facing in _lines(tables, target).items():
        aimed[square * 4 + facing] = 1
    return aimed


def _end_values(tables: Tables, target: int) -> np.ndarray:
    """The hunter's value of ending a program in each board state."""
    lines = _lines(tables, target)
    if not lines:
        return np.full(tables.states, -FAR, dtype=np.int64)
    dist = tables.model.distance_to(set(lines)).astype(np.int64)
    return (np.where(dist >= FAR, -FAR, -dist) + AIM * _aimed(tables, target)
            + PUSH * _pushing(tables, target))


def _pushing(tables: Tables, target: int) -> np.ndarray:
    """1 for the board states right behind square `target` facing it with a
    pit, a drain or the board's edge beyond it: a move pushes the robot
    there to its destruction."""
    course = tables.course
    out = np.zeros(tables.states, dtype=np.int32)
    for d in range(4):
        behind = course.target[target * 4 + ((d + 2) & 3)]
        beyond = course.target[target * 4 + d]
        if behind >= 0 and beyond != WALL and (beyond == OFF_BOARD or
                                               course.death[beyond] is not None):
            out[behind * 4 + d] = 1
    return out
