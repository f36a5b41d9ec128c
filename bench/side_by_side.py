"""One measurement of bench/bench_speed.py, run as a script in a subprocess
whose working directory and PYTHONPATH are the source tree measured (this
one or the one before), so it uses only what both trees' engines have.
Prints one line of JSON.

    python bench/side_by_side.py events RACES
    python bench/side_by_side.py aware RACES [WARM]
    python bench/side_by_side.py search RACES [numpy | compiled]
"""
from __future__ import annotations

import importlib
import json
import os
import statistics
import sys
import time
from dataclasses import replace

# this script's folder comes first on the path: the timing bot of this tree's bench
from bench_aware import Timed

COURSE = "scenarios/standard-course.json"
# the engine's package in the tree measured: "engine" in a tree from before the
# installed name rallyforge (bench_speed.py says which, as it sets the path)
PACKAGE = os.environ.get("RALLYFORGE_BENCH_PACKAGE", "rallyforge.engine")


def _engine():
    """What both trees' engines have, under today's names, in PACKAGE: the
    tree before the engine's layers (588c1f8) made races with Race and the
    bots' names."""
    def get(module: str, *names: str) -> list:
        found = importlib.import_module(f"{PACKAGE}.{module}")
        return [getattr(found, name) for name in names]
    try:
        derive_seed, rotation = get("analysis.balance.plan", "derive_seed", "rotation")
        make_bot, new_race = get("bots", "make_bot", "new_race")
        [load_file] = get("format.loader", "load_file")
    except ImportError:
        derive_seed, rotation = get("balance.plan", "derive_seed", "rotation")
        [make_bot] = get("bots", "make_bot")
        [load_file] = get("loader", "load_file")
        [new_race] = get("race", "Race")
    return derive_seed, rotation, make_bot, new_race, load_file


def _cpu(new_race, scenario, seeds, **race) -> float:
    """CPU seconds of the races of `seeds`, each made with `race`'s options."""
    start = time.process_time()
    for seed in seeds:
        new_race(scenario, seed=seed, **race).run()
    return time.process_time() - start


def events(races: int) -> dict:
    """CPU seconds of `races` races of 8 random bots, events off and on,
    by turns three times: the lists of each."""
    _, _, _, new_race, load_file = _engine()
    scenario = load_file(COURSE)

    def play(record: bool) -> float:
        return _cpu(new_race, scenario, range(races), robot_count=8, bot="random",
                    record_events=record)

    off, on = zip(*((play(False), play(True)) for _ in range(3)))
    return {"off": list(off), "on": list(on)}


def aware(races: int, warm: int = 0) -> dict:
    """Races of 2 aware and 2 search robots (as bench/bench_aware.py):
    the aware decisions' median CPU ms, and each bot's wins and deaths.
    With `warm`, that many other races are played first, untimed: what the
    bots keep per course (the programs of a hand, the two-round values of a
    state) is then as a long balance run has it, not empty as in a fresh
    process. The timed races are the same either way."""
    derive_seed, rotation, make_bot, new_race, load_file = _engine()
    scenario = replace(load_file(COURSE), robots=(), checks=())
    docks = scenario.docks
    times: list[float] = []
    wins = {"aware": 0.0, "search": 0.0}
    deaths = {"aware": 0, "search": 0}
    for i in [*range(races, races + warm), *range(races)]:
        timed = i < races
        kinds = [("aware", "search")[(j + i) % 2] for j in range(4)]
        bots = [Timed(make_bot(k), times if timed else [], time.thread_time)
                if k == "aware" else make_bot(k) for k in kinds]
        lineup = tuple(docks[d - 1] for d in rotation(i, 4, len(docks)))
        race = new_race(replace(scenario, docks=lineup), seed=derive_seed(0, "race", i),
                        robot_count=4, bots=bots, record_events=False)
        outcome = race.run()
        if not timed:
            continue
        for robot, kind in zip(race.robots, kinds):
            deaths[kind] += robot.deaths
            if robot.name in outcome.winners:
                wins[kind] += 1 / len(outcome.winners)
    return {"median_ms": statistics.median(times) * 1e3, "decisions": len(times),
            "wins": wins, "deaths": deaths}


def search(races: int, how: str = "") -> dict:
    """CPU seconds of `races` races of 4 search bots on the standard course
    (after 20 untimed ones), the least of 3 runs; `how`: "numpy" without the
    compiled loop of this tree's search bot, "compiled" the same races as
    balance runs play them, in C (engine/analysis/balance/compiled.py: the
    rules' compiled copy with the search bot's compiled race bot)."""
    _, _, _, new_race, load_file = _engine()
    if how == "numpy":
        importlib.import_module(f"{PACKAGE}.bots.search").compiled = None
    scenario = replace(load_file(COURSE), robots=(), checks=())

    def play(seeds: range) -> float:
        if how == "compiled":
            compiled = importlib.import_module(f"{PACKAGE}.analysis.balance.compiled")
            start = time.process_time()
            for seed in seeds:
                compiled.play(scenario, seed, (1, 2, 3, 4))
            return time.process_time() - start
        return _cpu(new_race, scenario, seeds, robot_count=4, bot="search", record_events=False)

    play(range(races, races + 20))
    return {"cpu": min(play(range(races)) for _ in range(3))}


if __name__ == "__main__":
    measure, args = sys.argv[1], sys.argv[2:]
    if measure == "search":
        print(json.dumps(search(int(args[0]), *args[1:])))
    else:
        print(json.dumps({"events": events, "aware": aware}[measure](*map(int, args))))
