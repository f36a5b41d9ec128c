"""Path distance (rule 7.4): single steps between orthogonal neighbours that
cross no wall and enter no pit or drain; robots do not block."""
from __future__ import annotations

from functools import lru_cache

from .course import Course

UNREACHABLE = -1


@lru_cache(maxsize=256)
def distances_to(course: Course, goal: int) -> tuple[int, ...]:
    """Per square, the path distance to square `goal` (UNREACHABLE when there is none)."""
    target, death = course.target, course.death
    dist = [UNREACHABLE] * course.size
    dist[goal] = 0
    frontier = [goal]
    level = 0
    while frontier:
        level += 1
        grown = []
        for square in frontier:
            if death[square] is not None:       # a path may not enter it, so none leads on from it
                continue
            for d in range(4):
                # walls stand on both sides of an edge, so the step back from
                # the neighbour is open exactly when this one is
                neighbour = target[square * 4 + d]
                if neighbour >= 0 and dist[neighbour] == UNREACHABLE:
                    dist[neighbour] = level
                    grown.append(neighbour)
        frontier = grown
    return tuple(dist)
