"""Bots and balance runs on the standard course (scenarios/standard-course.json).

Goals (the issue's): search bot median decision under 2 ms for a 9-card
hand; 1,000 races of 4 search robots under 30 s wall on 2 workers (ideally
under 15 s); greedy races at least 150 per second per core; memory per
worker under 300 MB.

    python -m bench.bench_bots [COURSE] [--races N] [--workers W]
"""
from __future__ import annotations

import random
import statistics
import sys
import time

from bench import course_and_runs, peak_mb
from rallyforge.engine.analysis.balance.plan import make_plan
from rallyforge.engine.analysis.balance.play import RaceTask
from rallyforge.engine.analysis.balance.runner import run



class MeasuredTask(RaceTask):
    """A RaceTask whose results carry the worker's peak memory (for the bench only)."""

    def play(self, jobs):
        results = super().play(jobs)
        peak = peak_mb()
        return [(r, peak) for r in results]


def decision_times(scenario, hands: int = 500, seed: int = 1,
                   cards: tuple[str, ...] = ()) -> tuple[float, float, float]:
    """(median, 90th percentile, median CPU) ms of search decisions: 9-card
    hands into 5 registers from random squares, facings and flags; the robot
    holds the option `cards`."""
    from rallyforge.engine.bots import make_bot
    from rallyforge.engine.model.program_cards import DECK
    from rallyforge.engine.rules.bot_view import BotView
    from rallyforge.engine.rules.course import compile_course
    from rallyforge.engine.rules.state import RobotState
    course = compile_course(scenario.board)
    flags = tuple(course.square(f.x, f.y) for f in scenario.flags)
    rng = random.Random(seed)
    bot = make_bot("search")
    walls, cpus = [], []
    warm = None
    for i in range(hands + 1):
        while True:
            sq = rng.randrange(course.size)
            if course.death[sq] is None:
                break
        robot = RobotState(0, "bench", sq, rng.randrange(4), flags=rng.randrange(len(flags)))
        robot.cards = list(cards)
        view = BotView(scenario.board, course, flags, scenario.rules, robot)
        if warm is None:                         # the first call builds the tables
            warm = bot.program(view, rng.sample(DECK, 9), [1, 2, 3, 4, 5], rng)
            continue
        hand = rng.sample(DECK, 9)
        c0, w0 = time.process_time(), time.perf_counter()
        bot.program(view, hand, [1, 2, 3, 4, 5], rng)
        walls.append(time.perf_counter() - w0)
        cpus.append(time.process_time() - c0)
    walls.sort()
    return (statistics.median(walls) * 1e3, walls[int(0.9 * len(walls))] * 1e3,
            statistics.median(cpus) * 1e3)


def races(scenario, bot: str, count: int, robots: int, workers: int, seed: int = 0):
    """(wall seconds, decided share, peak worker MB) of `count` races."""
    plan = make_plan(count, robots, len(scenario.docks), seed=seed, trials=0)
    task = MeasuredTask(scenario, bot)
    outcome = run(task, plan.jobs, workers=workers)
    summaries = [r for _, (r, _) in outcome.results]
    peak = max(mb for _, (_, mb) in outcome.results)
    decided = sum(1 for s in summaries if s.decided) / len(summaries)
    return outcome.elapsed_s, decided, peak


def main(argv: list[str] | None = None) -> None:
    args, scenario = course_and_runs("bench_bots", __doc__.splitlines()[0], 1000,
                                     argv if argv is not None else [])
    if scenario is None:
        return
    print(f"bots on {scenario.name} ({scenario.board.width}x{scenario.board.height}, "
          f"{len(scenario.flags)} flags, {len(scenario.docks)} docks)")

    median, p90, cpu = decision_times(scenario)
    print(f"  search decision, 9 cards into 5 registers: median {median:.2f} ms "
          f"(90th percentile {p90:.2f} ms, median CPU {cpu:.2f} ms)  goal < 2 ms")
    median, p90, cpu = decision_times(scenario, cards=("fourth-gear", "reverse-gears", "crab-legs"))
    print(f"  search decision holding Fourth Gear, Reverse Gears and Crab Legs: median "
          f"{median:.2f} ms (90th percentile {p90:.2f} ms, median CPU {cpu:.2f} ms)  goal < 2 ms")

    wall, decided, peak = races(scenario, "greedy", 300, 4, workers=1)
    print(f"  greedy, 4 robots, 1 worker: {300 / wall:.0f} races/s per core "
          f"({100 * decided:.0f}% decided)  goal >= 150")

    wall, decided, peak = races(scenario, "search", args.races, 4, workers=args.workers)
    print(f"  search, 4 robots: {args.races} races on {args.workers} workers in {wall:.1f} s wall "
          f"({args.races / wall:.0f} races/s, {100 * decided:.0f}% decided)  goal < 30 s, "
          f"ideally < 15 s")
    print(f"  peak memory per worker: {peak:.0f} MB  goal < 300 MB")


if __name__ == "__main__":
    main(sys.argv[1:])
