"""A balance run from the editor (the Balance dialog, the Course Card's
quick run): rallyforge.engine.analysis.balance.balance in a worker thread,
in worker processes when more than one worker is asked for, else in the
thread itself.

Progress and Cancel go through its ``progress`` and ``should_stop``; the
plan is cut into small chunks, and the wait for worker processes asks
``should_stop`` as it goes, so that Cancel is answered within a fraction of
a second.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rallyforge.engine.analysis.balance.runner import default_workers
from rallyforge.engine.model.scenario import Scenario

from .run_worker import Progress, RunWorker

if TYPE_CHECKING:
    from collections.abc import Callable

    from rallyforge.engine.analysis.balance.types import BalanceResult

# Cancel is asked between chunks, so chunks are small: one job in this
# process (a loop: no cost), a few in worker processes (each chunk is a round
# trip). A job is a race, or a time trial of one solo race per dock.
POOL_CHUNK = 4

# Worker processes take about a second to start: short runs go faster here.
SERIAL_RACES = 300


def auto_workers(races: int, asked: int = 0) -> int:
    """`asked` workers, or for 0 (Auto) one for a short run, else every core."""
    if asked > 0:
        return asked
    return 1 if races <= SERIAL_RACES else default_workers()


def chunk_size(workers: int) -> int:
    """Jobs per chunk for a quick Cancel."""
    return 1 if workers <= 1 else POOL_CHUNK


def run_balance(scenario: Scenario, races: int, robots: int, bot: str, seed: int = 0, *,
                workers: int = 1, chunk: int | None = None, trials: int | None = None,
                progress: Progress | None = None,
                should_stop: Callable[[], bool] | None = None) -> BalanceResult:
    """rallyforge.engine.analysis.balance.balance in small chunks (for a quick
    Cancel): the result is the same for any chunk size. `trials`: time trials
    per dock (None: balance's default)."""
    from rallyforge.engine.analysis.balance import balance
    return balance(scenario, races, robots, bot, seed, workers=workers,
                   chunk_size=chunk or chunk_size(workers), trials=trials, progress=progress,
                   should_stop=should_stop)


def balance_worker(scenario: Scenario, races: int, robots: int, bot: str, seed: int,
                   workers: int, trials: int | None = None) -> RunWorker:
    """A worker that runs `run_balance` on `scenario` (not started)."""
    return RunWorker(scenario, lambda progress, should_stop: run_balance(
        scenario, races, robots, bot, seed, workers=workers, trials=trials, progress=progress,
        should_stop=should_stop))
