"""Playing one race of a balance run: the only module that touches the race
engine. Everything it returns is a small summary (engine/analysis/balance/summary.py).

``RaceTask(scenario, bot)`` is what the runner ships to workers: picklable,
holding the course, the bot's name and the round limit. ``task.play(jobs)``
plays a chunk of plan jobs in the worker and returns their summaries.

Races run with ``record_events=False``; the statistics come from the race's
hooks: ``on_death(robot, square, cause)`` for deaths and
``on_register_end(race)`` for register-end occupancy and flag touches.
"""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from rallyforge.engine.analysis.balance import compiled
from rallyforge.engine.analysis.balance.plan import Job, RACE
from rallyforge.engine.analysis.balance.summary import (Death, RaceSummary, TrialSummary, pack_counts,
                                                        square_xy)
from rallyforge.engine.bots import new_race
from rallyforge.engine.model.scenario import RobotSpec, Scenario
from rallyforge.engine.rules.race import Race
from rallyforge.engine.rules.state import RobotState

if TYPE_CHECKING:       # (the runner's imports are not the workers' business)
    from rallyforge.engine.analysis.balance.runner import JobResult


def bot_names() -> list[str]:
    from rallyforge.engine.bots import BOTS
    return sorted(BOTS)


def default_bot() -> str:
    from rallyforge.engine.bots import DEFAULT_BOT
    return DEFAULT_BOT


class RaceTask:
    def __init__(self, scenario: Scenario, bot: str, max_rounds: int | None = None):
        if max_rounds is not None:
            scenario = replace(scenario, rules=replace(scenario.rules, max_rounds=max_rounds))
        # (rules.options comes with the scenario: the course's, or a what-if's, see with_options)
        # the plan decides who races where: the course's own robots list is ignored
        self.scenario = replace(scenario, robots=(), checks=())
        self.bot = bot

    def play(self, jobs: list[Job]) -> list[RaceSummary | TrialSummary]:
        return [play_job(self.scenario, self.bot, job) for job in jobs]


def play_job(scenario: Scenario, bot: str, job: Job) -> RaceSummary | TrialSummary:
    if job.kind == RACE:
        return play_race(scenario, job.seed, job.docks, bot)
    return play_trial(scenario, job.seed, job.docks[0], bot)


def with_options(scenario: Scenario, mode: str | None) -> Scenario:
    """The scenario with its option cards `mode` ("played" or "counted";
    None: the course's own) for a what-if run, without the file's scripted
    checks (races do not play them, and an option_cards check on counted
    options would be an error of the what-if, not of the course)."""
    if mode is None or mode == scenario.rules.options:
        return scenario
    return replace(scenario, rules=replace(scenario.rules, options=mode), checks=())


def lineup(scenario: Scenario, docks: tuple[int, ...], bot: str) -> Scenario:
    """The scenario with one `bot` robot on each of `docks` (1-based), in that order."""
    robots = tuple(RobotSpec(name=f"Dock {d}", dock=d, bot=bot) for d in docks)
    return replace(scenario, robots=robots)


def engine_name(scenario: Scenario, bot: str, robots: int) -> str:
    """Which engine plays races of `robots` `bot` robots on `scenario`:
    "compiled" or "python" (a balance result's ``engine``)."""
    return "compiled" if compiled.applies(scenario, bot, robots) else "python"


def play_race(scenario: Scenario, seed: int, docks: tuple[int, ...], bot: str) -> RaceSummary:
    """Play one race and summarise it (winners, rounds, flags, deaths, occupancy):
    in compiled code where it applies (engine/analysis/balance/compiled.py),
    the same race."""
    if compiled.applies(scenario, bot, len(docks)):
        try:
            return compiled.race_summary(scenario, seed, docks)
        except compiled.LeftToPython:
            pass                    # (a race C cannot finish alike: Python plays it)
    return engine_summary(scenario, seed, docks, bot)


def engine_summary(scenario: Scenario, seed: int, docks: tuple[int, ...], bot: str) -> RaceSummary:
    """play_race's summary of the race played by the Python engine, its hooks recording."""
    course_size = scenario.board.width * scenario.board.height
    width = scenario.board.width
    occupancy = [0] * course_size
    deaths: list[Death] = []
    flag_rounds: list[list[int]] = [[] for _ in docks]
    holder: list[Race] = []

    def on_death(robot: RobotState, square: int, cause: str) -> None:
        deaths.append(death_record(robot, holder[0].round, square, cause, width))

    def on_register_end(race: Race) -> None:
        for robot in race.floor.robots:
            if robot.sq >= 0:
                occupancy[robot.sq] += 1
            reached = flag_rounds[robot.index]
            while len(reached) < robot.flags:
                reached.append(race.round)

    upgrades: list[tuple[int, int]] = []
    held = [False] * len(docks)
    used: dict[str, int] = {}

    def on_option(robot: RobotState, what: str, card: str, cause: str | None) -> None:
        if what == "gained":
            held[robot.index] = True
            if cause == "upgrade":
                upgrades.append((robot.sq % width, robot.sq // width))
        else:
            used[card] = used.get(card, 0) + 1

    lined_up = lineup(scenario, docks, bot)
    race = new_race(lined_up, seed=seed, record_events=False,
                    on_death=on_death, on_register_end=on_register_end, on_option=on_option)
    holder.append(race)
    outcome = race.run()
    robots = race.floor.robots
    winners = tuple(r.index for r in robots if r.name in outcome.winners)
    return RaceSummary(
        seed=seed,
        docks=tuple(docks),
        winners=winners,
        rounds=outcome.rounds,
        finish_round=tuple(r.finished[0] if r.finished else None for r in robots),
        flag_rounds=tuple(tuple(f) for f in flag_rounds),
        deaths=tuple(deaths),
        occupancy=pack_counts(occupancy),
        upgrades=tuple(upgrades),
        held_option=tuple(held),
        options_used=tuple(sorted(used.items())),
        sides=tuple(seat.team for seat in lined_up.seats()) if scenario.team_race else (),
        won_teams=outcome.teams,
    )


def death_record(robot: RobotState, round_: int, square: int, cause: str, width: int) -> Death:
    """The summary of a robot's destruction (the race's death hook's
    arguments, the round and the board's width): where, why, what sent it
    there (``robot.killed_by``) and where it re-enters."""
    agent, origin = robot.killed_by or (None, -1)
    return Death(robot.index, round_, square % width, square // width, cause, robot.flags + 1,
                 agent, square_xy(origin, width),
                 None if robot.out else square_xy(robot.archive, width))


def play_trial(scenario: Scenario, seed: int, dock: int, bot: str) -> TrialSummary:
    """One robot alone on `dock`: the round it finishes in (None if never)."""
    if compiled.applies(scenario, bot, 1):
        try:
            return compiled.trial_summary(scenario, seed, dock)
        except compiled.LeftToPython:
            pass
    return engine_trial(scenario, seed, dock, bot)


def engine_trial(scenario: Scenario, seed: int, dock: int, bot: str) -> TrialSummary:
    """play_trial's summary of the race played by the Python engine."""
    race = new_race(lineup(scenario, (dock,), bot), seed=seed, record_events=False)
    outcome = race.run()
    robot = race.floor.robots[0]
    return TrialSummary(seed, dock, robot.finished[0] if robot.finished else None,
                        outcome.rounds)


def split_results(results: list[tuple[Job, JobResult]]
                  ) -> tuple[list[RaceSummary], list[TrialSummary]]:
    """The runner's (job, result) pairs split into race and trial summaries,
    in plan order."""
    races: list[RaceSummary] = []
    trials: list[TrialSummary] = []
    for job, result in results:
        if job.kind == RACE:
            races.append(result)
        else:
            trials.append(result)
    return races, trials
