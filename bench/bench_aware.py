"""The aware bot (engine/bots/aware.py) against the search bot, head to head.

Goals (issue 13): in 4-robot races, 2 aware robots against 2 search robots
(docks rotated as in a balance run, the bots' places alternating), the
aware bot wins at least 60% of the races a bot wins (ties split), deaths by
pushes (a robot destroyed in the register in which another robot pushed it)
drop by at least a third, and the aware bot's median decision stays under
20 ms.

    python -m bench.bench_aware [--races N] [--quick] [--workers W] [COURSE ...]

Default: 1,000 races on each example course (a few minutes on 2 cores);
--quick plays 100.
"""
from __future__ import annotations

import argparse
import multiprocessing
import statistics
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOTS = ("aware", "search")


class Timed:
    """A bot whose decisions are timed (in seconds of `clock`)."""

    def __init__(self, bot, times: list[float], clock=time.perf_counter):
        self.bot, self.times, self.clock = bot, times, clock

    def program(self, view, hand, free_registers, rng):
        start = self.clock()
        cards = self.bot.program(view, hand, free_registers, rng)
        self.times.append(self.clock() - start)
        return cards

    def power_down(self, view, rng):
        return self.bot.power_down(view, rng)


def play(job: tuple[str, int, int]) -> dict:
    """Races first..first+count-1 of a course: wins, deaths and push deaths per bot."""
    from rallyforge.engine.analysis.balance.plan import derive_seed, rotation
    from rallyforge.engine.bots import make_bot, new_race
    from rallyforge.engine.format.loader import load_file
    path, first, count = job
    scenario = replace(load_file(path), robots=(), checks=())
    docks_all = scenario.docks
    k = min(4, len(docks_all))
    out = empty()
    for i in range(first, first + count):
        docks = rotation(i, k, len(docks_all))
        kinds = [BOTS[(j + i) % 2] for j in range(k)]
        bots = [Timed(make_bot(b), out["times"]) if b == "aware" else make_bot(b) for b in kinds]
        race = new_race(replace(scenario, docks=tuple(docks_all[d - 1] for d in docks)),
                    seed=derive_seed(0, "race", i), robot_count=k, bots=bots)
        outcome = race.run()
        out["races"] += 1
        names = [r.name for r in race.robots]
        if outcome.winners:
            out["decided"] += 1
            for name in outcome.winners:
                out["wins"][kinds[names.index(name)]] += 1 / len(outcome.winners)
        pushed: dict[str, tuple] = {}
        for e in race.events or ():
            if e.kind == "move":
                pushed[e.robot] = (e.round, e.register) if e.cause == "push" else None
            elif e.kind == "destroyed":
                kind = kinds[names.index(e.robot)]
                out["deaths"][kind] += 1
                if pushed.get(e.robot) == (e.round, e.register):
                    out["push"][kind] += 1
    return out


def empty() -> dict:
    return {"races": 0, "decided": 0, "wins": dict.fromkeys(BOTS, 0.0),
            "deaths": dict.fromkeys(BOTS, 0), "push": dict.fromkeys(BOTS, 0), "times": []}


def add(total: dict, part: dict) -> None:
    for key in ("races", "decided", "times"):
        total[key] += part[key]
    for key in ("wins", "deaths", "push"):
        for b in BOTS:
            total[key][b] += part[key][b]


def head_to_head(path: str, races: int, workers: int) -> dict:
    step = max(1, races // (workers * 4))
    jobs = [(path, first, min(step, races - first)) for first in range(0, races, step)]
    total = empty()
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        for part in pool.imap(play, jobs):
            add(total, part)
    return total


def line(name: str, t: dict) -> str:
    from rallyforge.engine.analysis import stats
    won = t["wins"]["aware"] + t["wins"]["search"]
    share = t["wins"]["aware"] / won if won else 0.0
    lo, hi = stats.wilson(t["wins"]["aware"], won)
    push_a, push_s = t["push"]["aware"], t["push"]["search"]
    change = f"{100 * (push_a / push_s - 1):+.0f}%" if push_s else "n/a"
    med = statistics.median(t["times"]) * 1000 if t["times"] else 0.0
    return (f"{name:22s} {t['races']:5d} races: aware wins {100 * share:4.1f}% "
            f"({100 * lo:.0f}-{100 * hi:.0f}%) of {won:g} won; deaths aware {t['deaths']['aware']}"
            f" / search {t['deaths']['search']}, by pushes {push_a} / {push_s} "
            f"(aware {change}); decision median {med:.1f} ms")


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench_aware", description=__doc__.splitlines()[0])
    parser.add_argument("courses", nargs="*")
    parser.add_argument("--races", type=int, default=1000)
    parser.add_argument("--quick", action="store_true", help="100 races per course")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    races = 100 if args.quick else args.races
    courses = args.courses or sorted(str(p) for p in (ROOT / "scenarios").glob("*.json"))
    all_t = empty()
    start = time.perf_counter()
    print("aware vs search, 2 + 2 robots (goals: >= 60% of wins, push deaths -33%, "
          "decision median < 20 ms)", flush=True)
    for path in courses:
        t = head_to_head(path, races, args.workers)
        print(line(Path(path).stem, t), flush=True)
        add(all_t, t)
    print(line("all courses", all_t) + f"  [{time.perf_counter() - start:.0f} s]", flush=True)


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])
