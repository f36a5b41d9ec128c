"""Path distance (rule 7.4): single steps between orthogonal neighbours that
cross no wall and enter no pit or drain; robots do not block. On levelled
boards distances are one-way (docs/rules.md 11.7): down a ledge or a ramp is a
step, up a ramp from the square behind it two, up a ledge none."""
from __future__ import annotations

import heapq
from functools import lru_cache

from rallyforge.engine.rules.course import Course

UNREACHABLE = -1


@lru_cache(maxsize=256)
def distances_to(course: Course, goal: int) -> tuple[int, ...]:
    """Per square, the path distance to square `goal` (UNREACHABLE when there is none)."""
    if course.levelled:
        return _one_way_distances(course, goal)
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


def step_costs(course: Course, square: int) -> list[tuple[int, int]]:
    """(neighbour, cost) of every step a path may take from `square`."""
    out = []
    for d in range(4):
        k = square * 4 + d
        neighbour = course.target[k]
        if neighbour >= 0:
            out.append((neighbour, 1))
        elif k in course.climb:
            out.append((course.climb[k], 2))
    return out


def _one_way_distances(course: Course, goal: int) -> tuple[int, ...]:
    """distances_to on a levelled board: Dijkstra backwards over the steps."""
    death = course.death
    into: list[list[tuple[int, int]]] = [[] for _ in range(course.size)]
    for square in range(course.size):
        for neighbour, cost in step_costs(course, square):
            into[neighbour].append((square, cost))
    dist = [UNREACHABLE] * course.size
    dist[goal] = 0
    queue = [(0, goal)]
    while queue:
        d, square = heapq.heappop(queue)
        if d > dist[square] or death[square] is not None:
            continue
        for source, cost in into[square]:
            if dist[source] == UNREACHABLE or d + cost < dist[source]:
                dist[source] = d + cost
                heapq.heappush(queue, (d + cost, source))
    return tuple(dist)
