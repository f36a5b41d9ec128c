"""The race engine's speed and memory (the issue's goals):

- play rate: 8 random bots on the standard 12x16 course, complete rounds over
  at least 200 races on one core: at least 5,000 rounds per second;
- lone-robot model build: under 100 ms for a 12x16 course, under 5 s for 100x100;
- one race's memory under 50 MB whatever its length.

Rates are per second of this process's CPU time (``time.process_time``), so
other work on the machine does not skew them; the wall time is shown too.

    python -m bench.bench_engine [COURSE] [--races N]
"""
from __future__ import annotations

import argparse
import dataclasses
import random
import time
import tracemalloc
from pathlib import Path

from bench import STANDARD
from rallyforge.engine.bots import new_race
from rallyforge.engine.format.loader import load_dict, load_file
from rallyforge.engine.model.scenario import Board, Flag, Scenario, Tile
from rallyforge.engine.rules.course import compile_course
from rallyforge.engine.rules.lone_robot_model import LoneModel, _build



def play_rate(scenario: Scenario, races: int = 200, robots: int = 8) -> tuple[int, int, float, float]:
    """(complete rounds, cards played, CPU seconds, wall seconds) of races with
    seeds 0 to `races` - 1."""
    rounds = cards = 0
    cpu, wall = time.process_time(), time.perf_counter()
    for seed in range(races):
        race = new_race(scenario, seed=seed, robot_count=robots, bot="random", record_events=False)
        race.run()
        # a race that ends in a register (a finish, the last robot out) leaves that round unfinished
        rounds += race.round if race.moment[1] is None else race.round - 1
        cards += race.cards_played
    return rounds, cards, time.process_time() - cpu, time.perf_counter() - wall


def lone_build_seconds(board: Board) -> float:
    """CPU seconds to build the lone-robot model of a board from scratch."""
    _build.cache_clear()
    compile_course.cache_clear()
    start = time.process_time()
    LoneModel.build(board)
    return time.process_time() - start


def race_memory(scenario: Scenario, rounds: int, record_events: bool) -> tuple[float, int]:
    """(peak MB allocated, rounds played) while playing one race of 8 random
    bots that cannot run out of lives nor finish (its flag is moved onto a
    pit, if the course has one), the compiled course excepted."""
    rules = dataclasses.replace(scenario.rules, max_rounds=rounds, lives=10 ** 6)
    pits = [t for t in scenario.board.tiles if t.type in ("pit", "drain")]
    flags = (Flag(pits[0].x, pits[0].y),) if pits else scenario.flags
    scenario = dataclasses.replace(scenario, rules=rules, flags=flags)
    compile_course(scenario.board)
    tracemalloc.start()
    race = new_race(scenario, seed=1, robot_count=min(8, len(scenario.docks)), bot="random",
                record_events=record_events)
    race.run()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 1e6, race.round


def busy_board(width: int, height: int, seed: int = 1) -> Board:
    """A board crowded with every kind of element (for the 100x100 build)."""
    rng = random.Random(seed)
    kinds = ["conveyor", "conveyor", "gear", "pit", "water", "current", "teleporter",
             "crusher", "repair", None, None, None, None, None]
    tiles = []
    for y in range(height):
        for x in range(width):
            kind = rng.choice(kinds)
            if kind in ("conveyor", "current"):
                tiles.append(Tile(x, y, kind, dir=rng.choice("NESW"),
                                  express=kind == "conveyor" and rng.random() < 0.3))
            elif kind == "gear":
                tiles.append(Tile(x, y, kind, rotation=rng.choice(("cw", "ccw"))))
            elif kind == "crusher":
                tiles.append(Tile(x, y, kind, phases=(2, 4)))
            elif kind:
                tiles.append(Tile(x, y, kind))
    return Board(width, height, tuple(tiles))


def stand_in_course() -> dict:
    """A 12x16 course in the standard course's spirit, used until
    scenarios/standard-course.json exists."""
    tiles = [{"x": x, "y": 4, "type": "conveyor", "dir": "E", "express": True} for x in range(2, 9)]
    tiles += [{"x": 9, "y": y, "type": "conveyor", "dir": "S", "express": True} for y in range(4, 8)]
    tiles += [{"x": x, "y": 8, "type": "conveyor", "dir": "W", "express": True} for x in range(3, 10)]
    tiles += [{"x": 2, "y": y, "type": "conveyor", "dir": "N", "express": True} for y in range(5, 9)]
    tiles += [{"x": x, "y": 11, "type": "conveyor", "dir": "W"} for x in range(12)]
    tiles += [{"x": 11, "y": y, "type": "conveyor", "dir": "S"} for y in range(10)]
    tiles += [{"x": 5, "y": 6, "type": "gear", "rotation": "cw"},
              {"x": 6, "y": 6, "type": "gear", "rotation": "ccw"},
              {"x": 1, "y": 1, "type": "pit"}, {"x": 7, "y": 2, "type": "pit"},
              {"x": 4, "y": 10, "type": "pit"}, {"x": 8, "y": 13, "type": "pit"},
              {"x": 0, "y": 9, "type": "repair"}, {"x": 10, "y": 2, "type": "upgrade"},
              {"x": 5, "y": 2, "type": "crusher", "phases": [1, 3, 5]}]
    return {
        "format": "rally-scenario", "version": 1, "name": "stand-in course",
        "board": {"width": 12, "height": 16, "tiles": tiles,
                  "walls": [{"x": 3, "y": 2, "side": "N"}, {"x": 6, "y": 10, "side": "E"},
                            {"x": 1, "y": 6, "side": "W"}, {"x": 8, "y": 1, "side": "S"}],
                  "lasers": [{"x": 0, "y": 3, "dir": "E"}, {"x": 10, "y": 12, "dir": "W", "beams": 2},
                             {"x": 6, "y": 0, "dir": "S"}, {"x": 3, "y": 14, "dir": "N"}],
                  "pushers": [{"x": 0, "y": 5, "dir": "E", "phases": [2, 4]},
                              {"x": 10, "y": 7, "dir": "W", "phases": [1, 3, 5]}]},
        "flags": [{"x": 6, "y": 3}, {"x": 1, "y": 10}, {"x": 9, "y": 9}],
        "docks": [{"x": x, "y": 15, "facing": "N"} for x in (1, 2, 4, 5, 6, 7, 9, 10)],
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_engine", description=__doc__)
    parser.add_argument("course", nargs="?", default=str(STANDARD))
    parser.add_argument("--races", type=int, default=200)
    args = parser.parse_args(argv)
    if Path(args.course).exists():
        scenario = load_file(args.course)
        name = Path(args.course).stem
    else:
        scenario = load_dict(stand_in_course())
        name = "stand-in course (no scenarios/standard-course.json yet)"

    # the best of three runs of the same races, as timings go
    rounds, cards, cpu, wall = min((play_rate(scenario, args.races) for _ in range(3)),
                                   key=lambda run: run[2])
    print(f"engine: {rounds / cpu:,.0f} rounds/s, {cards / cpu:,.0f} register-moves/s "
          f"({args.races} races, 8 robots, random bots, {name}; {rounds:,} rounds in "
          f"{cpu:.2f} s CPU, {wall:.2f} s wall; goal: 5,000 rounds/s)")
    # option cards played, every robot dealt 2 at set-up (issue 10: stated, no goal)
    played = dataclasses.replace(scenario, rules=dataclasses.replace(
        scenario.rules, options="played", start_options=2))
    rounds, cards, cpu, wall = min((play_rate(played, args.races) for _ in range(3)),
                                   key=lambda run: run[2])
    print(f"engine with option cards: {rounds / cpu:,.0f} rounds/s (the same races, every "
          f"robot dealt 2 option cards at set-up)")
    small = lone_build_seconds(scenario.board)
    print(f"lone model {scenario.board.width}x{scenario.board.height}: {small * 1e3:.0f} ms "
          f"(goal: under 100 ms)")
    large = lone_build_seconds(busy_board(100, 100))
    print(f"lone model 100x100: {large:.1f} s (goal: under 5 s)")
    # 10,000 rounds is the longest race the format allows (max_rounds)
    for rounds, events in ((100, True), (1000, True), (10_000, True), (1000, False)):
        mb, played = race_memory(scenario, rounds, events)
        print(f"race memory ({played} rounds, events {'on' if events else 'off'}): {mb:.2f} MB "
              f"(goal: under 50 MB)")


if __name__ == "__main__":
    main()
