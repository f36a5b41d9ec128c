"""Suggested fixes on a 12x16 course with the default budget (the issue's goal:
under 2 minutes on 2 cores). Prints the wall time, the races used and the
machine's load average over the last minute as the run ends (above 2, other
work shared the 2 cores and the time is longer than on a machine of its own).

    python -m bench.bench_suggest [COURSE] [--budget RACES] [--workers W]
"""
from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from bench import STANDARD

UNFAIR = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "unfair-standard.json"


def main(argv: list[str]) -> None:
    from engine.analysis.suggest import DEFAULT_BUDGET, suggest
    from engine.format.loader import load_file
    parser = argparse.ArgumentParser(prog="bench_suggest", description=__doc__.splitlines()[0])
    parser.add_argument("course", nargs="?", default=str(UNFAIR if UNFAIR.exists() else STANDARD))
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    scenario = load_file(args.course)
    wall = time.perf_counter()
    result = suggest(scenario, budget=args.budget, workers=args.workers)
    wall = time.perf_counter() - wall
    top = result["suggestions"][0]["edits"][0]["words"] if result["suggestions"] else "none"
    print(f"suggest on {Path(args.course).name} ({scenario.board.width}x{scenario.board.height}), "
          f"budget {args.budget}: {result['races']} races, {result['candidates']} candidates, "
          f"{args.workers} workers, {wall:.1f} s (goal: under 120 s on 2 cores), load average "
          f"{os.getloadavg()[0]:.1f}; top suggestion: {top}")


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])
