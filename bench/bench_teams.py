"""The team bot (engine/bots/team.py) against the search bot on team courses.

In each 4-robot race one team is all `team` bots, the other all plain
`search` bots; the team bots take the first seat's team in even races and
the other in odd ones. Printed per course: the share of decided races the
team bots' side wins (a tie counts half), with its Wilson 95% interval.

    python -m bench.bench_teams [--races N] [COURSE ...]

Default: 400 races on each team course of the course manual
(engine/editing/published/: Interference and the five team courses). The
course's own robots list is set aside (as a balance run does), so that the
bots named here race.
"""
from __future__ import annotations

import argparse
import time
from dataclasses import replace
from pathlib import Path

from rallyforge.engine.analysis.stats import wilson
from rallyforge.engine.bots import new_race
from rallyforge.engine.editing.published_courses import FOLDER
from rallyforge.engine.format.loader import load_file

COURSES = ("interference", "tandem-carnage", "all-for-one-or-one-for-all", "capture-the-flag",
           "toggle-boggle", "war-zone")


def measure(path: Path, races: int) -> tuple[float, int, float]:
    """(team bots' wins, decided races, seconds) over `races` races."""
    scenario = replace(load_file(path), robots=(), checks=())
    seats = scenario.seats(4)
    wins, decided, start = 0.0, 0, time.perf_counter()
    for i in range(races):
        side = seats[i % 2].team
        bots = ["team" if seat.team == side else "search" for seat in seats]
        outcome = new_race(scenario, seed=i, robot_count=4, bots=bots,
                           record_events=False).run()
        if outcome.teams:
            decided += 1
            wins += (side in outcome.teams) / len(outcome.teams)
    return wins, decided, time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--races", type=int, default=400)
    parser.add_argument("courses", nargs="*", type=Path)
    args = parser.parse_args(argv)
    for path in args.courses or [FOLDER / f"{name}.json" for name in COURSES]:
        wins, decided, seconds = measure(path, args.races)
        lo, hi = wilson(wins, decided) if decided else (0.0, 1.0)
        share = wins / decided if decided else 0.0
        print(f"{path.stem}: team bots win {100 * share:.0f}% of {decided} decided races "
              f"(95% interval {100 * lo:.0f}% to {100 * hi:.0f}%), {args.races} races, "
              f"{seconds:.0f} s")


if __name__ == "__main__":
    main()
