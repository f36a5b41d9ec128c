"""Suggested fixes on planted courses (bench/planted.py: an example course
made unfair by one edit), with the default budget on 2 workers (the goal:
each search under 2 minutes): one plant of each kind on three example
courses, measured as ``python -m bench.planted measure`` measures every
plant (see there): the search's wall time and load average, its races, the
candidates screened and raced, the top suggestion, and the gap between the
best and worst docks' win rates before and after it on a fresh balance run
(the goal: cut at least in half).

    python -m bench.bench_suggest [COURSE PLANT ...] [--budget RACES] [--workers W]
"""
from __future__ import annotations

from bench.planted import PLANTS, arguments, measure_all

THREE = ("standard-course", "dock-forward", "gauntlet", "flag-by-dock", "tutorial",
         "wall-blocks-dock")     # (on the showcase, the wall makes no clear unfairness)


def main(argv: list[str]) -> None:
    args = arguments("bench_suggest", f"pairs of an example course's name and a plant "
                                      f"({', '.join(PLANTS)})").parse_args(argv)
    names = args.names or list(THREE)
    measure_all(list(zip(names[::2], names[1::2])), args.budget, args.workers)


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])
