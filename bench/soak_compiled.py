"""`python -m bench.soak_compiled [--minutes M] [--first SEED]` (or `make soak`):
the compiled race against the Python engine on random courses
(tests/random_courses.py) for as long as it is given, from where the test
suite's bounded run (tests/test_compiled_differential.py) stops; prints each
course that differs and a count, and exits 1 if any did."""
from __future__ import annotations

import argparse
import sys
import time

from tests import random_courses
from tests.test_compiled_differential import COURSES


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.soak_compiled")
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--first", type=int, default=COURSES, help="the first course's seed")
    args = parser.parse_args(argv)
    from rallyforge.engine.analysis.balance import compiled
    if not compiled.built():
        print("the compiled part is not built: nothing to compare", file=sys.stderr)
        return 1
    end = time.monotonic() + 60 * args.minutes
    seed, bad = args.first, 0
    while time.monotonic() < end:
        problem = random_courses.compare(seed)
        if problem is not None:
            bad += 1
            print(problem, flush=True)
        seed += 1
    print(f"{seed - args.first} random courses (seeds {args.first}-{seed - 1}): "
          f"{bad} raced differently")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
