"""Does hunting the SuperBot make a difference? Races of search bots on Day
of the SuperBot, with the others hunting the SuperBot (engine/bots/hunt.py)
and without (racing to flags they cannot touch), counting how often the
title changes hands, how often the SuperBot is destroyed and who wins.

    python -m bench.superbot_hunt [RACES] [ROBOTS] [COURSE.json]

Without a course file the course is Day of the SuperBot, built from the
board library: Maelstrom above docking bay 2, flags at (8, 0) and (0, 5)
(the course manual's page 25, as anicolao/roborally's course catalogue
records it, moved to our 0-based squares). A course file is raced with the
superbot rule turned on.
"""
from __future__ import annotations

import sys
import time
from dataclasses import replace

from rallyforge.engine.bots import new_race
from rallyforge.engine.bots.search import SearchBot
from rallyforge.engine.editing import library
from rallyforge.engine.format.loader import load_file
from rallyforge.engine.model.scenario import Flag, Rules, Scenario

MAX_ROUNDS = 40


def day_of_the_superbot() -> Scenario:
    board = library.load(library.find("maelstrom"))
    bay = library.load(library.find("docking-bay-2"))
    course = library.assemble([(board, 0)], (bay, 0), "side", "Day of the SuperBot")
    return replace(course, flags=(Flag(8, 0), Flag(0, 5)),
                   rules=Rules(superbot=True, max_rounds=MAX_ROUNDS))


def measure(scenario: Scenario, races: int, robots: int, hunts: bool) -> dict[str, float]:
    passes = deaths = hits = decided = rounds = best = 0
    for seed in range(races):
        race = new_race(scenario, seed=seed, bots=[SearchBot(hunts) for _ in range(robots)])
        race.run()
        holder = None
        per_round: dict[int, int] = {}
        for e in race.events or ():
            if e.kind == "superbot":
                passes += e.target is not None
                holder = e.robot
            elif e.kind == "destroyed" and e.robot == holder:
                deaths += 1
            elif e.kind == "laser" and e.robot and e.target == holder:
                hits += 1
                per_round[e.round] = per_round.get(e.round, 0) + 1
        best = max(best, *per_round.values(), 0)
        decided += race.outcome().decided
        rounds += race.round
    return {"title passes": passes, "per race": passes / races, "hits on the SuperBot": hits / races,
            "most hits in a round": best, "superbot deaths": deaths / races,
            "decided": decided / races, "rounds": rounds / races}


def main(argv: list[str]) -> None:
    races = int(argv[0]) if argv else 20
    robots = int(argv[1]) if len(argv) > 1 else 5
    scenario = day_of_the_superbot()
    if len(argv) > 2:
        scenario = load_file(argv[2])
        scenario = replace(scenario, rules=replace(scenario.rules, superbot=True,
                                                   max_rounds=MAX_ROUNDS))
    print(f"{scenario.name}, {races} races of {robots} search bots, at most "
          f"{MAX_ROUNDS} rounds (figures per race but the passes' total and the most "
          f"hits in a round):")
    for hunts in (False, True):
        start = time.perf_counter()
        found = measure(scenario, races, robots, hunts)
        figures = ", ".join(f"{k} {v:g}" if isinstance(v, int) else f"{k} {v:.2f}"
                            for k, v in found.items())
        print(f"  {'hunting' if hunts else 'racing '}: {figures} "
              f"({time.perf_counter() - start:.0f} s)", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
