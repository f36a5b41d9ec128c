"""Planted courses: a fair example course made unfair by one edit, to see
whether ``suggest`` finds the edit that undoes it.

- dock-forward: the last dock moved to about 3 squares before flag 1;
- flag-by-dock: flag 1 moved to 2 squares in front of dock 1;
- wall-blocks-dock: a wall added on a side of a dock's square, the one that
  delays that dock most (in the lone-robot model's steps to flag 1).

``plant(scenario, how)`` makes one; ``python -m bench.planted COURSE HOW OUT``
writes it.
"""
from __future__ import annotations

from dataclasses import replace

PLANTS = ("dock-forward", "flag-by-dock", "wall-blocks-dock")


def plant(s, how: str):
    """The course `s` with the edit `how` (one of PLANTS), and that edit."""
    from engine.analysis.suggest.candidates import FLAG_SQUARES, is_acceptable
    from engine.analysis.suggest.edits import Edit, apply_all
    from engine.model.directions import DX, DY, INDEX, NAMES
    dock = s.docks[0]
    if how == "wall-blocks-dock":
        tries = sorted((Edit("add_wall", ((d.x, d.y), side)) for d in s.docks for side in NAMES
                        if not s.board.has_wall(d.x, d.y, side)),
                       key=lambda e: -_delay(s, e))
    elif how == "flag-by-dock":
        d = INDEX[dock.facing]
        here = (s.flags[0].x, s.flags[0].y)
        ahead = [(dock.x + DX[d] * 2 + DX[(d + 1) & 3] * side, dock.y + DY[d] * 2 + DY[(d + 1) & 3] * side)
                 for side in (0, 1, -1)]
        tries = [Edit("move_flag", (1, here, q)) for q in ahead
                 if s.board.in_bounds(*q) and s.board.type_at(*q) in FLAG_SQUARES]
    elif how == "dock-forward":
        last = s.docks[-1]
        flag = s.flags[0]
        mx = sum(d.x for d in s.docks) / len(s.docks)
        my = sum(d.y for d in s.docks) / len(s.docks)
        squares = [(x, y) for x in range(s.board.width) for y in range(s.board.height)
                   if s.board.type_at(x, y) == "floor"]
        squares.sort(key=lambda q: (abs(abs(q[0] - flag.x) + abs(q[1] - flag.y) - 3),
                                    abs(q[0] - mx) + abs(q[1] - my)))
        tries = [Edit("move_dock", (len(s.docks), (last.x, last.y), q)) for q in squares]
    else:
        raise ValueError(how)
    for edit in tries:
        if is_acceptable(s, (edit,)):
            planted = apply_all(s, (edit,))
            return replace(planted, name=f"{s.name} (planted: {edit.words})"), edit
    raise ValueError(f"no acceptable {how} edit on {s.name}")


def _delay(s, wall) -> float:
    """How many steps more the wall's dock needs to flag 1 than before,
    less the most it delays any other dock (engine/analysis/suggest/screen.py)."""
    from engine.analysis.suggest.edits import apply_all
    from engine.analysis.suggest.screen import sight
    before, after = sight(s).leads, sight(apply_all(s, (wall,))).leads
    changes = [b - a for a, b in zip(before, after)]
    mine = next(i for i, d in enumerate(s.docks) if (d.x, d.y) == wall.args[0])
    return changes[mine] - max((c for i, c in enumerate(changes) if i != mine), default=0)


def main(argv: list[str]) -> None:
    from engine.format.loader import load_file, save_file
    course, how, out = argv
    planted, edit = plant(load_file(course), how)
    save_file(planted, out)
    print(f"{out}: {edit.words}")


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])
