"""One round with one robot on a 100x100 board covered in upgrade squares.

The bots' tables hold the distance to the nearest repair or upgrade square
(engine/bots/tables.py); they once made one search per such square, which
took a minute and 1.8 GB here. Goal: under 1 s and 200 MB, in a fresh
process (tables and the lone-robot model built from nothing).

    python -m bench.bench_upgrade_board
"""
from __future__ import annotations

import multiprocessing
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from bench import peak_mb


def upgrade_board(size: int = 100) -> dict:
    """A valid course: every square an upgrade but the docks' and flags'."""
    last = size - 1
    flags = [{"x": last, "y": 0}, {"x": 0, "y": last // 2}]
    docks = [{"x": i, "y": last, "facing": "N"} for i in range(2)]
    plain = {(p["x"], p["y"]) for p in flags + docks}
    tiles = [{"x": x, "y": y, "type": "upgrade"} for y in range(size) for x in range(size)
             if (x, y) not in plain]
    return {"format": "rally-scenario", "version": 1, "name": f"Upgrades {size}x{size}",
            "board": {"width": size, "height": size, "tiles": tiles, "walls": [], "lasers": [],
                      "pushers": []},
            "flags": flags, "docks": docks}


def one_round(size: int = 100) -> tuple[float, float]:
    """(wall seconds, peak MB of the process) of one round of one search robot."""
    from rallyforge.engine.bots import new_race
    from rallyforge.engine.format.loader import load_dict
    scenario = load_dict(upgrade_board(size))
    start = time.perf_counter()
    race = new_race(scenario, seed=1, robot_count=1, bot="search", record_events=False)
    race.play_round()
    wall = time.perf_counter() - start
    return wall, peak_mb()


def main(argv: list[str] | None = None) -> None:
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        wall, peak = pool.submit(one_round).result()
    print(f"one round, one search robot, 100x100 board of upgrade squares: {wall:.2f} s, "
          f"peak {peak:.0f} MB  goal < 1 s and < 200 MB")


if __name__ == "__main__":
    main(sys.argv[1:])
