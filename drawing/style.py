"""The colours of the style, and where in a square each shows (the sampled contract)."""
from __future__ import annotations

from PySide6.QtGui import QColor


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
INK = QColor("#1b1d21")
GRID = QColor(20, 22, 26, 70)
BEAM_GLOW = QColor(255, 60, 60, 70)

# Robot colours, in robot order (the exports' robots, the editor's preview).
ROBOT_COLORS = ("#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#00a5a8",
                "#f032e6", "#9a6324")

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


SHADOW_STEPS = (120, 80, 48, 22)           # alpha of a shadow's bands, from the ledge out
