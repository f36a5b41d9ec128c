"""One painter per element kind, each in its own module, and the table that
finds them by the kinds of the element table (engine/model/element_kinds.py).

A painter draws one square at the origin, ``s`` units wide:
``painter(p, s, *key)``, where ``key`` holds the values the board gives it
(drawing/board_info.py): a tile's key values, then what it needs of its
neighbours. A tile type with no painter stops the import here.
"""
from __future__ import annotations

from collections.abc import Callable

from rallyforge.drawing.painters.belt import draw_conveyor
from rallyforge.drawing.painters.crusher import draw_crusher
from rallyforge.drawing.painters.dock import draw_dock
from rallyforge.drawing.painters.flag import draw_flag
from rallyforge.drawing.painters.floor import draw_floor, draw_void
from rallyforge.drawing.painters.gear import draw_gear
from rallyforge.drawing.painters.pads import draw_repair, draw_upgrade
from rallyforge.drawing.painters.pit import draw_pit
from rallyforge.drawing.painters.pusher import draw_pusher
from rallyforge.drawing.painters.ramp import draw_ramp
from rallyforge.drawing.painters.randomizer import draw_randomizer
from rallyforge.drawing.painters.teleporter import draw_teleporter
from rallyforge.drawing.painters.water import draw_current, draw_drain, draw_water
from rallyforge.engine.model.element_kinds import TILE_LIST


_BY_NAME: dict[str, Callable[..., None]] = {
    "floor": draw_floor, "pit": draw_pit, "conveyor": draw_conveyor, "gear": draw_gear,
    "repair": draw_repair, "upgrade": draw_upgrade, "crusher": draw_crusher,
    "water": draw_water, "current": draw_current, "drain": draw_drain,
    "teleporter": draw_teleporter, "randomizer": draw_randomizer, "ramp": draw_ramp,
    "void": draw_void,
}


def _tile_painters() -> dict[str, Callable[..., None]]:
    missing = [t.name for t in TILE_LIST if t.name not in _BY_NAME]
    if missing:
        raise ImportError(f"drawing/painters has no painter for the tile types {missing}")
    return {t.name: _BY_NAME[t.name] for t in TILE_LIST}


# Tiles, in the element table's order; overlays: drawn over tiles, keys
# ("pusher", dir, phases), ("flag", n), ("dock", n, facing), each inside its square.
TILE_PAINTERS = _tile_painters()
OVERLAY_PAINTERS: dict[str, Callable[..., None]] = {
    "pusher": draw_pusher, "flag": draw_flag, "dock": draw_dock}
PAINTERS = {**TILE_PAINTERS, **OVERLAY_PAINTERS}
