"""The search: a first run of the course shows the trouble; every candidate
edit is screened by the lone-robot model (``screen``) and the RACED most
promising are raced with the course on the same seeds: the better half is
kept and raced more (successive halving), then the best compatible edits
(up to three) are combined and the combinations raced too; what is left of
the budget goes to the finalists.

Race i of every version has the seed and docks of race i of a balance run
with the same seed and seating (engine/analysis/balance/plan.py), so each
comparison with the course as it is is paired, as in ``compare``. Under the
game's seating (k robots on docks 1..k) a renumbering of docks is an edit
like any other: it decides who plays where in smaller games.

Only a clear improvement is offered as a fix: an edit whose paired effect on
the goals' shortfall has its 95% interval below zero. An edit that seemed
better on its races but whose interval includes no change is an idea the
races could not confirm, listed apart. With fair docks a goal, a course on
which the first run finds no clear unfairness (balance/aggregate.py
``fairness``) gets no fix for it. Races run through the balance
runner (local processes or Dask); results come back in plan order, so the
ranking is the same for any backend and worker count.
"""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace

from rallyforge.engine.analysis.balance.aggregate import Seats
from rallyforge.engine.analysis.balance.plan import GAME, Job, RACE, derive_seed, seats
from rallyforge.engine.analysis.balance.play import RaceTask, default_bot, play_race
from rallyforge.engine.analysis.balance.runner import default_workers, run
from rallyforge.engine.analysis.suggest.candidates import Diagnosis, candidates, is_acceptable, shortlist
from rallyforge.engine.analysis.suggest.edits import Edit, apply_all
from rallyforge.engine.analysis.suggest.score import Record, Target, measures, paired_change, side_effects
from rallyforge.engine.analysis.suggest.screen import Sight, odd_marks, screen, why
from rallyforge.engine.analysis.suggest.types import Effect, GoalsJson, Suggestion, SuggestResult
from rallyforge.engine.model.scenario import Goals, Scenario, robots_for
from rallyforge.engine.validation.validator import refuse_errors

DEFAULT_BUDGET = 6000
# The least budget a search keeps to: the first look at the course and one
# candidate edit, raced once per dock, take about 10 races per dock.
MIN_BUDGET = 100
DIAGNOSIS_SHARE = 0.1       # of the budget, for the first run that finds the trouble
DIAGNOSIS_MOST = 0.3        # and up to this share while its verdict on the seats is open
SURVIVORS = 4               # halving stops at this many
MAX_COMBINED = 3
RACED = 24                  # candidates raced, the model's best
PER_GROUP = 8               # of them at most this many of one group (candidates.shortlist)
# Of them, with fair docks a goal: the best edit of each group that touches
# the odd dock (screen.odd_dock), up to this many, whatever the model
# predicts. The first races say which dock is off even where the model sees
# nothing: a wall before a dock can read as more even steps to flag 1.
ODD_RACED = 6


@dataclass(frozen=True)
class VersionJob(Job):
    version: int = 0            # which course of the task plays it


class VersionsTask:
    """The runner's task: several versions of a course, one race a job."""

    def __init__(self, versions: list[Scenario], bot: str):
        self.tasks = [RaceTask(v, bot) for v in versions]
        self.bot = bot

    def play(self, jobs: list[Job]) -> list[Record]:
        return [record(self.tasks[getattr(j, "version", 0)].scenario, self.bot, j) for j in jobs]


def record(scenario: Scenario, bot: str, job: Job) -> Record:
    summary = play_race(scenario, job.seed, job.docks, bot)
    legs = len(scenario.flags)
    on_leg = [0] * legs
    for reached in summary.flag_rounds:
        for j in range(min(len(reached) + 1, legs)):
            on_leg[j] += 1
    return Record(summary.docks, summary.winner_docks, summary.rounds, tuple(on_leg),
                  tuple((d.x, d.y, d.leg) for d in summary.deaths))


class Stopped(Exception):
    """The run was cancelled."""


class Search:
    def __init__(self, scenario: Scenario, goals: Goals, players: tuple[int, ...], budget: int,
                 seed: int, bot: str, workers: int, scheduler: str | None, local_processes: bool,
                 progress: Callable[[int, int, float], None] | None,
                 should_stop: Callable[[], bool] | None, seating: str = GAME):
        self.scenario = scenario
        self.target = Target(goals, max(players), len(scenario.docks), players, seating).on(scenario)
        self.fairness: str | None = None     # the first run's verdict on the seats
        self.budget, self.seed, self.bot = budget, seed, bot
        self.workers, self.scheduler, self.local_processes = workers, scheduler, local_processes
        self.progress, self.should_stop = progress, should_stop
        self.versions: list[tuple[Edit, ...]] = [()]       # version 0: the course as it is
        self.paths = [self.target.path]                     # each version's flag path
        self.races: list[list[Record]] = [[]]
        self.played = 0
        self.elapsed = 0.0
        self.effects: dict[int, Effect] = {}
        self.screened = 0
        self.seen: tuple[Diagnosis, Sight] | None = None     # the first run's, the model's

    # ---------------------------------------------------------------- racing

    def race(self, wanted: dict[int, int]) -> None:
        """Race each version `v` of `wanted` up to `wanted[v]` races."""
        jobs: list[Job] = []
        docks, t = len(self.scenario.docks), self.target
        for v in sorted(wanted):
            for i in range(len(self.races[v]), wanted[v]):
                jobs.append(VersionJob(len(jobs), RACE, i, derive_seed(self.seed, RACE, i),
                                       seats(i, t.counts, docks, t.seating), v))
        if not jobs:
            return
        scenarios = [apply_all(self.scenario, e) if e else self.scenario for e in self.versions]
        done = self.played

        def progress(n: int, total: int, elapsed: float) -> None:
            if self.progress is not None:
                self.progress(done + n, max(self.budget, done + total), self.elapsed + elapsed)

        outcome = run(VersionsTask(scenarios, self.bot), jobs, workers=self.workers,
                      scheduler=self.scheduler, local_processes=self.local_processes,
                      progress=progress, should_stop=self.should_stop)
        self.elapsed += outcome.elapsed_s
        self.played += len(outcome.results)
        if outcome.cancelled:
            raise Stopped
        for job, rec in outcome.results:
            assert isinstance(job, VersionJob)
            self.races[job.version].append(rec)

    def add(self, edits: tuple[Edit, ...]) -> int:
        self.versions.append(edits)
        self.paths.append(self.target.on(apply_all(self.scenario, edits)).path)
        self.races.append([])
        return len(self.versions) - 1

    def target_of(self, v: int) -> Target:
        """The target version v's races are judged by: its own flag path."""
        return replace(self.target, path=self.paths[v])

    def shortfall_change(self, v: int) -> float:
        """The change in shortfall from the course as it is, side effects
        counted (score.side_effects)."""
        n = len(self.races[v])
        old, new = measures(self.races[0][:n], self.target), measures(self.races[v], self.target_of(v))
        return new["shortfall"] - old["shortfall"] + side_effects(old, new, self.target)

    def shortlist(self, diagnosis: Diagnosis) -> list[Edit]:
        """Every candidate screened by the model, the best ones kept to race."""
        every = candidates(self.scenario, self.target.goals, diagnosis)
        base, ranked = screen(self.scenario, self.target, diagnosis, every)
        self.screened, self.seen = len(every), (diagnosis, base)
        edits = [r.edit for r in ranked]
        odd = odd_marks(self.scenario, base, diagnosis) if self.target.goals.fair else frozenset()
        kept = shortlist(self.scenario, (e for e in edits if e.touches & odd), ODD_RACED, 1)
        chosen = shortlist(self.scenario, edits, RACED, PER_GROUP, chosen=kept)
        return sorted(chosen, key=edits.index)

    def reason(self, v: int) -> str:
        """Why version v was tried, in one line (screen.why)."""
        if self.seen is None:
            return ""
        diagnosis, base = self.seen
        return why(self.scenario, self.target, diagnosis, base, self.versions[v])

    # ---------------------------------------------------------------- the steps

    def diagnose(self) -> Diagnosis:
        """The first run of the course as it is: where the trouble is. While
        its verdict on the seats is open it races on, as far as that verdict
        says would likely settle it, up to DIAGNOSIS_MOST of the budget. With
        fair docks a goal and no clear unfairness found, the goal is dropped
        (``fairness`` keeps the verdict)."""
        docks = len(self.scenario.docks)
        n = _multiple(max(4 * docks, int(self.budget * DIAGNOSIS_SHARE)), docks)
        most = _multiple(int(self.budget * DIAGNOSIS_MOST), docks, down=True)
        while True:
            self.race({0: n})
            counted = Seats()
            counted.add(self.races[0])
            seated, verdict = counted.judge(range(1, self.target.seats + 1))
            more = verdict["more_races_needed"]
            if verdict["verdict"] != "inconclusive" or not more or n >= most:
                break
            n = min(most, _multiple(n + more, docks))     # what would likely settle it
        base = self.races[0]
        n = len(base)
        deaths = Counter[tuple[int, int]]()
        for r in base:
            deaths.update((x, y) for x, y, _ in r.deaths)
        self.fairness = verdict["verdict"]
        if self.target.goals.fair and self.fairness != "unfair":
            self.target = replace(self.target, goals=replace(self.target.goals, fair=False))
        # each seat's win rate as if its fair share were 1/k (k the most robots)
        fair = 1.0 / self.target.robots
        by_seat = {d["dock"]: d["share"] - d["fair_share"] + fair for d in seated if d["decided"]}
        mean = sum(by_seat.values()) / len(by_seat) if by_seat else fair
        rates = tuple(by_seat.get(d, mean) for d in range(1, docks + 1))
        m = measures(base, self.target)
        legs = len(self.scenario.flags)
        on_leg = [sum(r.on_leg[j] for r in base) for j in range(legs)]
        leg_deaths = [sum(1 for r in base for *_, leg in r.deaths if leg == j + 1) for j in range(legs)]
        return Diagnosis(rates, tuple(sorted(deaths.items(), key=lambda kv: (-kv[1], kv[0]))),
                         tuple(d / n if n else 0.0 for d, n in zip(leg_deaths, on_leg)),
                         m["median_rounds"])

    def has_goal(self) -> bool:
        g = self.target.goals
        return g.fair or g.length is not None or g.rounds is not None or \
            g.deaths_per_leg is not None

    def cost(self, count: int, n0: int) -> int:
        """The races of halving `count` candidates from `n0` races each,
        counting the course's own races and up to four combinations."""
        halvings = _halvings(count)
        alive, n, total = count, n0, 0
        for stage in range(halvings + 1):
            total += alive * (n - (n // 2 if stage else 0))
            if stage < halvings:
                alive, n = max(SURVIVORS, math.ceil(alive / 2)), n * 2
        return total + max(0, n - len(self.races[0])) + 4 * n

    def schedule(self, count: int) -> tuple[int, int]:
        """Races per candidate in the first stage and the number of halvings:
        the most races (a multiple of the docks) that fit the budget."""
        docks = len(self.scenario.docks)
        left = self.budget - len(self.races[0])
        n0 = docks
        while self.cost(count, n0 + docks) <= left:
            n0 += docks
        return n0, _halvings(count)

    def affordable(self, edits: list[Edit]) -> list[Edit]:
        """The most promising edits (candidates come best first) that a small
        budget can race once per dock and halve; at least one."""
        docks, left = len(self.scenario.docks), self.budget - len(self.races[0])
        count = len(edits)
        while count > 1 and self.cost(count, docks) > left:
            count -= 1
        return edits[:count]

    def halve(self, edits: list[Edit]) -> list[int]:
        edits = self.affordable(edits)
        n0, halvings = self.schedule(len(edits))
        alive = [self.add((e,)) for e in edits]
        n = n0
        for stage in range(halvings + 1):
            self.race({0: max(n, len(self.races[0])), **{v: n for v in alive}})
            alive.sort(key=lambda v: (self.shortfall_change(v), v))
            if stage < halvings:
                alive = alive[:max(SURVIVORS, math.ceil(len(alive) / 2))]
                n *= 2
        return alive

    def effect(self, v: int) -> Effect:
        """Version v's paired change from the course as it is (score.paired_change)."""
        if v not in self.effects:
            n = len(self.races[v])
            self.effects[v] = paired_change(self.races[0][:n], self.races[v], self.target,
                                            derive_seed(self.seed, "bootstrap", v), self.target_of(v))
        return self.effects[v]

    def clearly_better(self, v: int) -> bool:
        return self.effect(v)["shortfall"]["ci"][1] < 0

    def combine(self, ranked: list[int]) -> list[int]:
        """Versions combining the best edits that are clearly better (their
        interval below zero) and touch nothing in common, each raced as much
        as the single edits of the last stage."""
        best: list[Edit] = []
        for v in ranked:
            if len(best) == MAX_COMBINED:
                break
            (e,) = self.versions[v]
            if self.clearly_better(v) and all(not (e.touches & other.touches) for other in best):
                best.append(e)
        combos: list[tuple[Edit, ...]] = []
        if len(best) >= 2:
            combos = [(best[0], best[1])]
            if len(best) == 3:
                combos += [(best[0], best[2]), (best[1], best[2]), tuple(best)]
        combos = [c for c in combos if is_acceptable(self.scenario, c)]
        n = max(len(self.races[v]) for v in ranked) if ranked else 0
        added = [self.add(c) for c in combos]
        if added:
            self.race({v: n for v in added})
        return added

    def so_far(self) -> list[int]:
        """After a Cancel: the versions raced furthest (the survivors of the
        last stage that finished, the races of a stage cut short being
        dropped), or none if no stage finished."""
        raced = [v for v in range(1, len(self.versions)) if self.races[v]]
        most = max((len(self.races[v]) for v in raced), default=0)
        return [v for v in raced if len(self.races[v]) == most]

    def confirm(self, ranked: list[int]) -> None:
        """Spend what is left of the budget on the finalists, equally (and on
        the course as far as they go), so that their intervals narrow."""
        if not ranked:
            return
        docks = len(self.scenario.docks)
        n = max(len(self.races[v]) for v in ranked)
        extra = _multiple(max(0, self.budget - self.played) // (len(ranked) + 1), docks,
                          down=True)
        if extra:
            self.race({0: max(n + extra, len(self.races[0])), **{v: n + extra for v in ranked}})
            self.effects.clear()


def _halvings(count: int) -> int:
    """How many times `count` candidates are halved down to SURVIVORS."""
    return max(0, math.ceil(math.log2(max(1, count) / SURVIVORS)))


def _multiple(n: int, of: int, down: bool = False) -> int:
    """`n` rounded to a multiple of `of` (up, or down), so that every dock
    races equally often."""
    return (n // of if down else -(-n // of)) * of


def suggest(scenario: Scenario, goals: Goals | None = None,
            robots: int | tuple[int, ...] | None = None,
            budget: int = DEFAULT_BUDGET, seed: int = 0, *, seating: str = GAME,
            bot: str | None = None,
            workers: int | None = None, scheduler: str | None = None,
            local_processes: bool = True,
            progress: Callable[[int, int, float], None] | None = None,
            should_stop: Callable[[], bool] | None = None) -> SuggestResult:
    """Search for edits that bring `scenario` closer to `goals` (default: the
    course's own, else fair docks) for `robots` robots (default: the goals',
    else 4 or every dock if fewer), or each count of a tuple in turn, seated
    as the game seats players (`seating` "game") or rotated ("rotate"),
    within about `budget` races. See ``report`` for the result. A course
    with errors is not raced: ScenarioError lists them."""
    refuse_errors(scenario)
    goals = goals or scenario.goals or Goals()
    robots = robots or robots_for(goals, len(scenario.docks))
    players = (robots,) if isinstance(robots, int) else tuple(robots)
    search = Search(scenario, goals, players, budget, seed, bot or default_bot(),
                    workers or default_workers(), scheduler, local_processes, progress,
                    should_stop, seating)
    asked = goals
    ranked: list[int] = []
    cancelled = False
    try:
        diagnosis = search.diagnose()
        if not search.has_goal():       # fairness alone asked, and no clear unfairness
            return report(search, [], False, asked)
        edits = search.shortlist(diagnosis)
        ranked = search.halve(edits) if edits else []
        ranked = ranked + search.combine(ranked)
        search.confirm(ranked)
    except Stopped:
        cancelled = True
        ranked = search.so_far()
    return report(search, ranked, cancelled, asked)


def report(search: Search, ranked: list[int], cancelled: bool, asked: Goals) -> SuggestResult:
    """The result (types.SuggestResult), JSON-ready: its suggestions best
    first, only the edits that bring the course clearly closer to its goals
    (the interval of the change in shortfall below zero); ``ideas``, apart,
    the edits that seemed to but whose interval includes no change. A
    cancelled search ranks the edits of the last stage it finished, on
    their races so far. ``fairness`` is the first run's verdict on the
    seats; ``goals`` the goals asked (fair docks among them even when no
    clear unfairness was found to fix)."""
    target = search.target
    out: SuggestResult = {
        "scenario": search.scenario.name, "goals": _goals_json(asked),
        "robots": target.robots, "players": list(target.counts), "seating": target.seating,
        "fairness": search.fairness, "bot": search.bot, "seed": search.seed,
        "budget": search.budget, "races": search.played, "cancelled": cancelled,
        "screened": search.screened, "candidates": len(search.versions) - 1,
        "before": {k: round(v, 6) for k, v in measures(search.races[0], target).items()}
        if search.races[0] else None,   # (stopped before the course's first races ended)
        "elapsed_s": round(search.elapsed, 3),
        "suggestions": [], "ideas": [],
    }
    scored = []
    for v in ranked:
        effect = search.effect(v)
        if effect["shortfall"]["change"] < 0:
            scored.append((search.shortfall_change(v), v, len(search.races[v]), effect))
    scored.sort(key=lambda t: (t[0], t[1]))
    for _, v, n, effect in scored:
        clear = search.clearly_better(v)
        listed = out["suggestions"] if clear else out["ideas"]
        listed.append({"rank": len(listed) + 1,
                       "edits": [e.as_json() for e in search.versions[v]],
                       "why": search.reason(v),
                       "races": n, "clear": clear, "effect": effect})
    return out


def _goals_json(g: Goals) -> GoalsJson:
    out: GoalsJson = {"fair": g.fair}
    if g.length is not None:
        out["length"] = g.length
    if g.rounds is not None:
        out["rounds"] = g.rounds
    if g.deaths_per_leg is not None:
        out["deaths_per_leg"] = g.deaths_per_leg
    return out


def applied(scenario: Scenario, suggestion: Suggestion) -> Scenario:
    """The course with a suggestion of a ``suggest`` result applied."""
    return apply_all(scenario, tuple(Edit.from_json(e) for e in suggestion["edits"]))

