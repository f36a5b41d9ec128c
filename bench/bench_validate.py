"""How long validating a big course takes: a 100x100 board with a tile on
every square (every tile type), walls, lasers, pushers, 8 flags, 8 docks,
robots with programs and checks. The goal is under 0.5 s on one core.

And a file at the 10 MB limit (the same board, 10,000-round programs and
checks up to the limit), read from disk and validated: under 5 s. Once
valid, once with every tile, wall and card broken.
"""
from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path

TYPES = ("floor", "conveyor", "gear", "repair", "upgrade", "crusher", "water", "current",
         "teleporter", "randomizer")
DIRS = ("N", "E", "S", "W")


def build_course(size: int = 100, note: str | None = None) -> dict:
    """A valid (error-free) course of size x size squares full of elements.
    Flags and docks stand on plain floor. `note` goes on the board, to make
    a board unlike any validated before (and so out of every cache)."""
    last = size - 1
    flags = [{"x": x, "y": y} for x, y in
             ((last // 2, 1), (2, last // 3), (last - 2, last // 3), (last // 4, last // 2),
              (last - last // 4, last // 2), (2, last - 8), (last - 2, last - 8), (last // 2, 0))]
    docks = [{"x": last // 2 - 4 + i, "y": last - 1, "facing": "N"} for i in range(8)]
    plain = {(f["x"], f["y"]) for f in flags + docks}
    tiles, walls, lasers, pushers = [], [], [], []
    for y in range(size):
        for x in range(size):
            if (x, y) in plain:
                kind = "floor"
            elif x % 6 == 3 and y % 6 == 3:
                kind = "pit" if (x + y) % 4 == 2 else "drain"
            else:
                kind = TYPES[(x * 7 + y * 13) % len(TYPES)]
            tile = {"x": x, "y": y, "type": kind}
            if kind in ("conveyor", "current"):
                tile["dir"] = DIRS[(x + y) % 4]
            if kind == "conveyor" and x % 2:
                tile["express"] = True
            if kind == "gear":
                tile["rotation"] = "cw" if y % 2 else "ccw"
            if kind == "crusher":
                tile["phases"] = [1, 3, 5] if x % 2 else [2, 4]
            tiles.append(tile)
            if (x + 2 * y) % 5 == 0:
                walls.append({"x": x, "y": y, "side": "N"})
            if (3 * x + y) % 7 == 0:
                walls.append({"x": x, "y": y, "side": "E"})
            if x % 10 == 0 and y % 10 == 5:
                lasers.append({"x": x, "y": y, "dir": "E", "beams": 1 + y % 3})
            if x % 10 == 5 and y % 10 == 0:
                pushers.append({"x": x, "y": y, "dir": "S", "phases": [1, 3, 5]})
    cards = ["move1:500", "move2:700", "left:90", "right:100", "uturn:20", "back:440", "move3"]
    robots = [{"name": f"Robot {i + 1}", "dock": i + 1, "bot": "search",
               "program": [[cards[(i + r + c) % len(cards)] for c in range(5)] for r in range(5)]}
              for i in range(8)]
    checks = [{"round": r, "register": 1 + r % 5, "robot": f"Robot {1 + r % 8}", "damage": 0}
              for r in range(1, 21)]
    board = {"width": size, "height": size, "tiles": tiles, "walls": walls, "lasers": lasers,
             "pushers": pushers}
    if note is not None:
        board["note"] = note
    return {
        "format": "rally-scenario", "version": 1, "name": f"Benchmark {size}x{size}",
        "board": board,
        "flags": flags, "docks": docks, "robots": robots, "checks": checks,
    }


def _best_seconds(check, size: int, repeat: int) -> float:
    """The best of `repeat` runs of check(document) on a size x size course,
    in CPU seconds of this process, so that other work on a shared machine
    does not count. Each run gets a board of its own, as when a designer
    validates a changed course: nothing computed for an earlier board can be
    reused."""
    check(build_course(8))                  # imports and one-off set-up
    best = float("inf")
    for run in range(repeat):
        data = build_course(size, note=f"run {run}")
        start = time.process_time()
        check(data)
        best = min(best, time.process_time() - start)
    return best


def bench_validate(size: int = 100, repeat: int = 3) -> float:
    """Print and return the best time of validate_data (schema, loader and
    course checks) on a parsed document."""
    from rallyforge.engine.validation.validator import validate_data

    best = _best_seconds(validate_data, size, repeat)
    print(f"validate {size}x{size}: {best:.3f} s")
    return best


def bench_schema(size: int = 100, repeat: int = 5) -> float:
    """Print and return the best time of the schema tier alone (engine/format/schema.py)."""
    from rallyforge.engine.format.schema import schema_problems

    best = _best_seconds(schema_problems, size, repeat)
    print(f"schema tier {size}x{size}: {best * 1e3:.1f} ms")
    return best


def ten_mb_course(broken: bool) -> dict:
    """build_course(100) grown to just under the 10 MB limit with scripts and
    checks; `broken`: every tile, wall and card of it wrong."""
    from rallyforge.engine.format.loader import MAX_FILE_BYTES
    doc = build_course(100)
    cards: list = ["move1:500", "move2:700", "left:90", "right:100", "uturn:20"]
    if broken:
        cards = ["jump", 5, None, "move9", {"x": 1}]
        for tile in doc["board"]["tiles"]:
            tile["zz"] = 1
        for wall in doc["board"]["walls"]:
            wall["side"] = "up"
    for robot in doc["robots"]:
        robot["program"] = [cards] * 10_000
    check = {"round": 1, "register": 9 if broken else 1, "robot": "Robot 1", "damage": 0,
             "x": 5, "y": 5, "facing": "N"}
    room = int((MAX_FILE_BYTES - len(json.dumps(doc))) * 0.97)
    count = min(100_000, room // (len(json.dumps(check)) + 2))
    doc["checks"] = [dict(check, round=1 + i % 10_000) for i in range(count)]
    return doc


def bench_ten_mb() -> None:
    """Print the time of validate_file on a file at the size limit, valid and broken."""
    from rallyforge.engine.validation.validator import validate_file
    with tempfile.TemporaryDirectory() as folder:
        for broken in (False, True):
            path = Path(folder) / "big.json"
            path.write_text(json.dumps(ten_mb_course(broken)), encoding="utf-8")
            start = time.process_time()
            problems = validate_file(path)
            seconds = time.process_time() - start
            print(f"validate a {path.stat().st_size / 1e6:.1f} MB file "
                  f"({'every element broken' if broken else 'valid'}, {len(problems)} problems): "
                  f"{seconds:.2f} s  goal < 5 s")


def main(argv: list[str] | None = None) -> None:
    bench_validate()
    bench_schema()
    bench_ten_mb()


if __name__ == "__main__":
    main()
