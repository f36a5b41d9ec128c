"""The course card: how soon the editor's live estimate follows an edit.

Goal (issue 13): the card refreshed within 3 s of the last edit on the
standard course on 2 cores: the panel's quiet time after the edit, the
error check and ESTIMATE_RACES races on one worker thread.

    python -m bench.bench_card [COURSE]
"""
from __future__ import annotations

import statistics
import time

from bench import course_and_runs


def estimate_seconds(scenario, runs: int = 3) -> list[float]:
    from editor.card_panel import DELAY_MS, ESTIMATE_RACES
    from editor.preview.balance_dialog import run_balance
    from engine.validate import course_problems
    times = []
    for seed in range(runs):
        start = time.perf_counter()
        course_problems(scenario)
        run_balance(scenario, ESTIMATE_RACES, min(4, len(scenario.docks)), "search", seed,
                    workers=1)
        times.append(time.perf_counter() - start + DELAY_MS / 1000)
    return times


def main(argv: list[str]) -> None:
    args, scenario = course_and_runs("bench_card", __doc__.splitlines()[0], 0, argv)
    if scenario is None:
        return
    from editor.card_panel import ESTIMATE_RACES
    times = estimate_seconds(scenario)
    print(f"live card estimate ({ESTIMATE_RACES} races, 1 worker) after the last edit: median "
          f"{statistics.median(times):.2f} s, worst {max(times):.2f} s (goal: under 3 s)")


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])
