"""Balance runs: many seeded races of one course, their statistics and report.

``plan`` fixes the races, ``play`` plays one (the only module that touches
the race engine), ``runner`` spreads them over processes or a Dask cluster,
``aggregate`` counts the summaries as they come and makes the result (its
shape: ``types``), ``in_short`` words its verdict, ``charts`` draws it, ``report`` writes
report.md and the charts (the editor's Balance dialog shows the same words
and charts).

``balance(...)`` does it all in one call, for the command line and the
editor's balance dialog (run it in a worker thread; pass ``should_stop``
for a Cancel button, ``progress`` for a bar, and a small ``chunk_size`` for
a Cancel answered sooner).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rallyforge.engine.analysis.balance.types import BalanceResult
    from rallyforge.engine.model.scenario import Scenario


def balance(scenario: Scenario, races: int, robots: int | tuple[int, ...] | None = None,
            bot: str | None = None, seed: int = 0, *, seating: str = "game", workers: int = 1, scheduler: str | None = None,
            trials: int | None = None, max_rounds: int | None = None,
            chunk_size: int | None = None,
            progress: Callable[[int, int, float], None] | None = None,
            should_stop: Callable[[], bool] | None = None) -> BalanceResult:
    """The balance result (see aggregate.py ``Tally.result``) of `races` races of
    `robots` robots (default: the course goals' robots, else 4, or every dock
    if fewer: engine/model/scenario.py ``robots_for``) driven by `bot`
    (default: the default bot). Stopped early, it is the result of the races
    played, with ``cancelled`` set. `chunk_size` is the jobs per chunk (default:
    the runner's choice); ``should_stop`` is asked between chunks, and while
    waiting for worker processes. The result is the same for any chunk size
    and worker count. A course with errors is not raced: ScenarioError
    lists them (engine/validation/validator.py ``refuse_errors``)."""
    from rallyforge.engine.analysis import stats
    from rallyforge.engine.analysis.balance.aggregate import Tally
    from rallyforge.engine.analysis.balance.plan import make_plan
    from rallyforge.engine.analysis.balance.play import RaceTask, default_bot, engine_name
    from rallyforge.engine.analysis.balance.runner import run
    from rallyforge.engine.model.scenario import robots_for
    from rallyforge.engine.validation.validator import refuse_errors
    refuse_errors(scenario)
    robots = robots if robots is not None else robots_for(scenario.goals, len(scenario.docks))
    bot = bot or default_bot()
    plan = make_plan(races, robots, len(scenario.docks), seed, trials, seating)
    task = RaceTask(scenario, bot, max_rounds=max_rounds)
    tally = Tally(scenario, plan.players, seating)
    outcome = run(task, plan.jobs, workers=workers,
                  scheduler=scheduler, chunk_size=chunk_size,
                  progress=progress, should_stop=should_stop, meanwhile=stats.prepare,
                  fold=tally.add)
    return tally.result(bot=bot, seed=seed,
                        engine=engine_name(task.scenario, bot, max(plan.players)),
                        planned=plan.races, elapsed_s=outcome.elapsed_s,
                        cancelled=outcome.cancelled)
