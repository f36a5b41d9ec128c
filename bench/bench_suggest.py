"""Suggested fixes on planted courses (bench/planted.py: an example course
made unfair by one edit), with the default budget on 2 workers (the goal:
each search under 2 minutes). For each course: the search's wall time, its
races, the candidates screened and raced, the top suggestion, and the gap
between the best and worst docks' win rates before and after it, measured
by a fresh balance run on new seeds (800 races of 4 robots; the top
suggestion should cut it at least in half). The machine's load average over
the last minute is printed as each search ends: above 2, other work shared
the 2 cores and the time is longer than on a machine of its own.

    python -m bench.bench_suggest [COURSE PLANT ...] [--budget RACES] [--workers W]
"""
from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from bench.planted import PLANTS, plant

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
THREE = ("standard-course", "dock-forward", "gauntlet", "flag-by-dock", "showcase",
         "wall-blocks-dock")
FRESH_SEED = 9001           # the measuring balance's seed; the search uses seed 0
FRESH_RACES = 800


def gap(scenario, workers: int) -> float:
    from engine.analysis.balance import balance
    result = balance(scenario, FRESH_RACES, robots=4, seed=FRESH_SEED, workers=workers, trials=1)
    rates = [d["win_rate"] for d in result["docks"] if d["races"]]
    return max(rates) - min(rates)


def main(argv: list[str]) -> None:
    from engine.analysis.suggest import DEFAULT_BUDGET, applied, suggest
    from engine.format.loader import load_file
    parser = argparse.ArgumentParser(prog="bench_suggest", description=__doc__.splitlines()[0])
    parser.add_argument("planted", nargs="*", default=list(THREE),
                        help=f"pairs of an example course's name and a plant ({', '.join(PLANTS)})")
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    pairs = list(zip(args.planted[::2], args.planted[1::2]))
    for course, how in pairs:
        scenario, edit = plant(load_file(SCENARIOS / f"{course}.json"), how)
        wall = time.perf_counter()
        result = suggest(scenario, budget=args.budget, workers=args.workers)
        wall = time.perf_counter() - wall
        load = os.getloadavg()[0]
        top = result["suggestions"][0] if result["suggestions"] else None
        before = gap(scenario, args.workers)
        after = gap(applied(scenario, top), args.workers) if top else before
        words = "; ".join(e["words"] for e in top["edits"]) if top else "none"
        print(f"suggest on {course} planted {how} ({edit.words}): {wall:.1f} s on {args.workers} "
              f"workers (goal: under 120 s), load average {load:.1f}; {result['races']} races, "
              f"{result['screened']} candidates screened, {result['candidates']} raced; top: "
              f"{words}; gap {100 * before:.0f} -> {100 * after:.0f} points on {FRESH_RACES} fresh "
              f"races (cut {100 * (1 - after / before) if before else 0:.0f}%, goal: 50%)",
              flush=True)


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])
