"""Compass directions as small integers, with their names in the file format."""
from __future__ import annotations

N, E, S, W = 0, 1, 2, 3
NAMES = ("N", "E", "S", "W")
INDEX = {name: i for i, name in enumerate(NAMES)}
DX = (0, 1, 0, -1)
DY = (-1, 0, 1, 0)


def right(d: int) -> int:
    return (d + 1) & 3


def left(d: int) -> int:
    return (d + 3) & 3


def opposite(d: int) -> int:
    return (d + 2) & 3


def step(x: int, y: int, d: int, n: int = 1) -> tuple[int, int]:
    return x + DX[d] * n, y + DY[d] * n
