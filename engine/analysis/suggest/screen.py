"""The cheap look at every candidate before any race: the lone-robot model
(engine/rules/lone_robot_model.py) counts the steps a robot alone on the board needs from
each dock to flag 1 and from each flag to the next, a step being a square
moved by a card or a turn, with the board elements acting after each card
as in a race (so riding a belt is free). A dock many steps nearer flag 1 than the others
wins more often; a course of many steps is long.

``screen`` predicts each candidate's shortfall from these steps and from
the first run's findings (the median race length, where robots died) and
ranks the candidates by it; ``why`` says in one line what the model saw.

How uneven the docks are (``Sight.spread``) is the spread of their steps to
flag 1, in steps, on a scale fixed by the course as it is (its mean lead),
so that a candidate looks fairer by bringing the docks' steps closer
together, not by lengthening every lead (as a share of the candidate's own
mean lead, moving flag 1 away from every dock looked fairer). A head start
does count for less in a longer race, whose rounds vary more: as the square
root of how much longer the race is, a middle way between what races show
(on the standard course with a dock moved 3 squares before flag 1, flag 1
moved to a far corner cuts the gap between docks from 40 to 10 points; on
the tutorial, raced in 2 rounds, flag 1 moved 3 squares further from every
dock changes nothing), and the longer race pays its side effect. Of
candidates the model sees alike, those that touch the odd dock (whose first
races' win rate is the farthest from the others') come first.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from rallyforge.engine.analysis.suggest.candidates import Diagnosis
from rallyforge.engine.analysis.suggest.edits import Edit, Touches, apply_all
from rallyforge.engine.analysis.suggest.score import Target, rounds_shortfall
from rallyforge.engine.model.directions import DX, DY, INDEX
from rallyforge.engine.model.scenario import Board, CARD_KINDS, Rules, Scenario
from rallyforge.engine.rules.lone_robot_model import DESTROYED, LoneModel, gather

Square = tuple[int, int]

# the cards a step is made of, by cost: a square or a turn costs 1; Move 2
# and Move 3 cost their squares (on ramps and water they are the only way on)
STEP_COSTS = tuple((cost, [CARD_KINDS.index(k) for k in kinds]) for cost, kinds in (
    (1, ("move1", "back", "left", "right", "uturn")), (2, ("move2",)), (3, ("move3",))))
FAR = math.inf              # steps to a square no card sequence reaches alive
SIDE_EFFECT = 0.1           # weight of a longer course when the length is no goal
FAIR_WEIGHT = 2.0           # weight of the leads' relative spread


class Pace:
    """Steps between squares on one board (see the module notes), counted
    backwards from a target square: one search gives every state's steps to
    it, so docks and flags moved on the same board cost no new search."""

    def __init__(self, board: Board, rules: Rules):
        end = LoneModel.build(board, rules).end
        states = end.shape[2]
        self.width = board.width
        # per step cost, the moves backwards: (sources, where each state's start)
        self.graphs = [(cost, _backwards(end[:, kinds, :].reshape(-1, states).T))
                       for cost, kinds in STEP_COSTS]
        self._to: dict[Square, np.ndarray] = {}

    def to(self, square: Square) -> np.ndarray:
        """Per state (square * 4 + facing), the fewest steps to end on
        `square` alive (FAR if never): a search by rising cost, each
        cost's states expanded once."""
        if square not in self._to:
            states = self.graphs[0][1][1].size - 1
            dist = np.full(states, np.iinfo(np.int32).max, dtype=np.int32)
            target = (square[1] * self.width + square[0]) * 4
            dist[target:target + 4] = 0
            pending = {0: np.arange(target, target + 4)}
            while pending:
                level = min(pending)
                frontier = np.unique(pending.pop(level))
                frontier = frontier[dist[frontier] == level]
                for cost, (sources, first) in self.graphs:
                    found = np.unique(sources[gather(first, frontier)])
                    found = found[dist[found] > level + cost]
                    if found.size:
                        dist[found] = level + cost
                        pending[level + cost] = np.concatenate(
                            [pending.get(level + cost, found[:0]), found])
            self._to[square] = np.where(dist == np.iinfo(np.int32).max, FAR,
                                        dist.astype(float))
        return self._to[square]

    def steps(self, start: Square, facing: int | None, target: Square) -> float:
        """From `start` facing `facing` (None: the best facing) to `target`."""
        first = (start[1] * self.width + start[0]) * 4
        to = self.to(target)
        return float(to[first:first + 4].min() if facing is None else to[first + facing])


def _backwards(moves: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``moves[state, j]`` (every register's, DESTROYED when the robot is
    destroyed) as a compressed list of predecessors: (sources, where each
    state's start in them), staying put left out."""
    states = moves.shape[0]
    owner = np.repeat(np.arange(states), moves.shape[1]).reshape(moves.shape)
    keep = (moves != DESTROYED) & (moves != owner)
    owner, other = owner[keep], moves[keep]
    first = np.zeros(states + 1, dtype=np.int64)
    np.cumsum(np.bincount(other, minlength=states), out=first[1:])
    return owner[np.argsort(other, kind="stable")], first


@lru_cache(maxsize=16)
def pace(board: Board, rules: Rules) -> Pace:
    return Pace(board, rules)


@dataclass(frozen=True)
class Sight:
    """What the model sees of one version of a course: each dock's steps to
    flag 1 (dock 1 first), and each later leg's steps (flag 1 to 2, ...)."""
    leads: tuple[float, ...]
    legs: tuple[float, ...]

    @property
    def steps(self) -> float:
        """A race's steps: the mean lead and the later legs."""
        return self.mean_lead + sum(self.legs)

    @property
    def mean_lead(self) -> float:
        return sum(self.leads) / len(self.leads) if self.leads else 0.0

    def spread(self, base: Sight) -> float:
        """The leads' spread (root mean square around their mean, in steps)
        as a share of the mean lead of `base` (the course as it is, the same
        for every version), over the square root of how much longer than
        `base` a race is (see the module notes)."""
        if FAR in self.leads:
            return FAR
        mean = self.mean_lead
        steps = math.sqrt(sum((x - mean) ** 2 for x in self.leads) / len(self.leads))
        longer = math.sqrt(self.steps / base.steps) if 0 < base.steps < FAR else 1.0
        return steps / max(base.mean_lead, 1.0) / longer


def sight(s: Scenario, seats: int | None = None) -> Sight:
    """What the model sees of course `s`, of its first `seats` docks (those
    the game's seating races; None: every dock)."""
    if not s.flags:
        return Sight((), ())
    p = pace(s.board, s.rules)
    first = (s.flags[0].x, s.flags[0].y)
    leads = [p.steps((d.x, d.y), INDEX[d.facing], first) for d in s.docks[:seats]]
    legs = [p.steps((a.x, a.y), None, (b.x, b.y)) for a, b in zip(s.flags, s.flags[1:])]
    return Sight(tuple(leads), tuple(legs))


@dataclass(frozen=True)
class Screened:
    edit: Edit
    score: float            # the predicted shortfall (lower first)
    sight: Sight


def screen(s: Scenario, target: Target, diagnosis: Diagnosis,
           edits: Sequence[Edit]) -> tuple[Sight, list[Screened]]:
    """The course's sight and every edit with its predicted shortfall, best
    first (ties: the edits that touch the odd dock first, then in the order
    given). Edits after which a flag is out of reach from a dock or flag that
    reached it are left out."""
    base = sight(s, target.seats)
    odd = odd_marks(s, base, diagnosis) if target.goals.fair else frozenset()
    total_deaths = sum(n for _, n in diagnosis.deaths)
    out = []
    for e in edits:
        version = apply_all(s, (e,))
        seen = sight(version, target.seats)
        if _unreached(seen) > _unreached(base):
            continue
        spared = relieved(s, e, diagnosis) / total_deaths if total_deaths else 0.0
        out.append(Screened(e, predicted(base, seen, spared, target.on(version), diagnosis), seen))
    order = sorted(range(len(out)), key=lambda i: (out[i].score, not out[i].edit.touches & odd, i))
    return base, [out[i] for i in order]


def odd_marks(s: Scenario, base: Sight, diagnosis: Diagnosis) -> Touches:
    """What an edit touches when it touches the odd dock: the dock, its square."""
    if len(base.leads) < 2:
        return frozenset()
    i = odd_dock(base.leads, diagnosis.win_rates)
    return frozenset({("dock", i + 1), ("square", (s.docks[i].x, s.docks[i].y))})


def named_dock(leads: Sequence[float], rates: Sequence[float], edits: tuple[Edit, ...],
               squares: Sequence[Square]) -> int:
    """The dock (from 0) a why speaks of: when every edit touches a raced
    dock (its number or its square, `squares` the docks' in order), of
    those the one whose first races stand out most; else the odd dock."""
    def docks(e: Edit) -> set[int]:
        return {i for i, square in enumerate(squares[:len(leads)])
                if ("dock", i + 1) in e.touches or ("square", square) in e.touches}

    touched = sorted(set().union(*(docks(e) for e in edits)))
    odd = odd_dock(leads, rates)
    if not all(docks(e) for e in edits) or odd in touched:
        return odd
    measure = _measure(leads, rates)
    return max(touched, key=lambda i: (_off(measure, i), -i))


def odd_dock(leads: Sequence[float], rates: Sequence[float]) -> int:
    """The dock (from 0) whose first races' win rate is the farthest from the
    others' median (without them, whose steps to flag 1 are); the first of equals."""
    measure = _measure(leads, rates)
    return max(range(len(leads)), key=lambda i: (_off(measure, i), -i))


def _measure(leads: Sequence[float], rates: Sequence[float]) -> Sequence[float]:
    """The first races' win rates of the raced docks, else their steps."""
    return rates[:len(leads)] if len(rates) >= len(leads) else leads


def _off(measure: Sequence[float], i: int) -> float:
    """How far dock i stands from the others' median."""
    others = sorted(m for j, m in enumerate(measure) if j != i)
    return abs(measure[i] - others[len(others) // 2])


def _unreached(seen: Sight) -> int:
    return sum(x == FAR for x in seen.leads + seen.legs)


def predicted(base: Sight, seen: Sight, spared: float, target: Target,
              diagnosis: Diagnosis) -> float:
    """The shortfall the model expects of a version it sees as `seen`, where
    `spared` is the share of the first run's deaths its edit takes away."""
    goals = target.goals
    total = 0.0
    if goals.fair:
        total += FAIR_WEIGHT * seen.spread(base)
    ratio = seen.steps / base.steps if base.steps else 1.0
    band = target.rounds_range()
    if band is not None:
        total += rounds_shortfall(diagnosis.median_rounds * ratio, band)
    else:
        total += SIDE_EFFECT * min(1.0, max(0.0, ratio - 1))
    if goals.deaths_per_leg is not None and diagnosis.leg_deaths:
        worst = max(diagnosis.leg_deaths) * (1 - spared)
        total += max(0.0, worst - goals.deaths_per_leg) / max(goals.deaths_per_leg, 0.05)
    return total


def relieved(s: Scenario, e: Edit, diagnosis: Diagnosis) -> int:
    """How many of the first run's deaths happened where the edit takes a
    danger away (``relieved_squares``)."""
    spots = relieved_squares(s, e)
    return sum(n for sq, n in diagnosis.deaths if sq in spots)


def relieved_squares(s: Scenario, e: Edit) -> set[Square]:
    """Where the edit takes a danger away: a square made floor, the squares
    of a removed beam or beyond the end of a shortened one, where a turned
    belt or a walled side led, next to a pusher moved to other registers."""
    a = e.args
    if e.kind == "clear_square":
        return {a[0]}
    if e.kind in ("remove_laser", "shorten_laser"):
        beam = beam_squares(s.board, a[0], a[1])
        return set(beam[a[4]:] if e.kind == "shorten_laser" else beam)
    if e.kind in ("turn_belt", "add_wall"):
        d = INDEX[a[1]]
        return {(a[0][0] + DX[d], a[0][1] + DY[d])}
    if e.kind == "pusher_registers":
        return {(a[0][0] + DX[d], a[0][1] + DY[d]) for d in range(4)}
    return set()


def beam_squares(board: Board, square: Square, fires: str) -> list[Square]:
    from rallyforge.engine.rules.beams import board_beams
    for beam in board_beams(board):
        if (beam.laser.x, beam.laser.y, beam.laser.dir) == (*square, fires):
            return [(q % board.width, q // board.width) for q in beam.squares]
    return []


# ---------------------------------------------------------------- the why, in words

def numbers(ns: Sequence[int]) -> str:
    """1, 2, 3, 5 as "1-3, 5"."""
    runs: list[list[int]] = []
    for n in sorted(ns):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)


def _span(values: Sequence[float]) -> str:
    lo, hi = min(values), max(values)
    return f"{lo:.0f}" if lo == hi else f"{lo:.0f}-{hi:.0f}"


def why(s: Scenario, target: Target, diagnosis: Diagnosis, base: Sight,
        edits: tuple[Edit, ...]) -> str:
    """One line from what the search saw: the docks' steps to flag 1, the
    legs' steps, or where robots died, before and with the edits (`base`:
    the course's sight); or, when the model sees no change, what the first
    races showed."""
    goals = target.goals
    base = Sight(base.leads[:target.seats], base.legs)      # the docks the races use
    seen = sight(apply_all(s, edits), target.seats)
    these = "this edit" if len(edits) == 1 else "these edits"
    parts = []
    if goals.fair and len(base.leads) > 1 and seen.leads != base.leads:
        parts.append(_leads_line(base, seen, diagnosis, these,
                                 named_dock(base.leads, diagnosis.win_rates, edits,
                                            [(d.x, d.y) for d in s.docks])))
    if target.rounds_range() is not None and seen.steps != base.steps:
        parts.append(f"the median race is {diagnosis.median_rounds:g} rounds; a race is "
                     f"{base.steps:.0f} steps (legs {_legs(base)}), with {these} "
                     f"{seen.steps:.0f} (legs {_legs(seen)})")
    spots = set().union(*(relieved_squares(s, e) for e in edits))
    died = sorted(((n, sq) for sq, n in diagnosis.deaths if sq in spots), reverse=True)
    if goals.deaths_per_leg is not None and died:
        total = sum(n for _, n in diagnosis.deaths)
        parts.append(f"{sum(n for n, _ in died)} of the {total} deaths of the first races were "
                     f"where {these} take{'s' if len(edits) == 1 else ''} the danger away, "
                     f"{died[0][0]} at {_xy(died[0][1])}")
    if parts:
        return "; ".join(parts)
    if goals.deaths_per_leg is not None and diagnosis.leg_deaths and \
            any(e.kind == "move_flag" for e in edits):
        leg = max(range(len(diagnosis.leg_deaths)), key=lambda j: diagnosis.leg_deaths[j])
        return (f"the leg to flag {leg + 1} is the deadliest ({diagnosis.leg_deaths[leg]:.2f} "
                f"deaths per robot in the first races); {these} change the way there")
    if goals.fair and diagnosis.win_rates:
        rates = diagnosis.win_rates[:len(base.leads)]
        if len(rates) == len(base.leads) > 1 and \
                any(e.touches & odd_marks(s, base, diagnosis) for e in edits):
            odd = named_dock(base.leads, rates, edits, [(d.x, d.y) for d in s.docks])
            others = [100 * r for j, r in enumerate(rates) if j != odd]
            return (f"dock {odd + 1} wins {100 * rates[odd]:.0f}% of the first races, the others "
                    f"{_span(others)}%; {these} change{'s' if len(edits) == 1 else ''} what stands "
                    f"at dock {odd + 1}, where the lone-robot model sees no change in the steps "
                    f"to flag 1: the races judge it")
        return (f"docks win {_span([100 * r for r in rates])}% of the first races; "
                f"the lone-robot model sees no change in their steps to flag 1")
    return f"the lone-robot model sees no change from {these}; the races judge it"


def _xy(square: Square) -> str:
    return f"({square[0]},{square[1]})"


def _legs(seen: Sight) -> str:
    return ", ".join(f"{x:.0f}" for x in ((seen.mean_lead,) + seen.legs))


def _leads_line(base: Sight, seen: Sight, diagnosis: Diagnosis, these: str, odd: int) -> str:
    """"dock 8 is 3 steps from flag 1; docks 1-7 are 10-12 (...); with this
    edit docks 1-8 are 10-12", of dock `odd` (from 0: ``named_dock``)."""
    leads, rates = base.leads, diagnosis.win_rates[:len(base.leads)]
    docks = range(len(leads))
    rest = [j for j in docks if j != odd]
    won = ""
    if len(rates) == len(leads):
        won = (f" (first races: dock {odd + 1} wins {100 * rates[odd]:.0f}%, the others "
               f"{_span([100 * rates[j] for j in rest])}%)")
    return (f"dock {odd + 1} is {leads[odd]:.0f} steps from flag 1; docks "
            f"{numbers([j + 1 for j in rest])} are {_span([leads[j] for j in rest])}{won}; with "
            f"{these} docks {numbers([j + 1 for j in docks])} are {_span(seen.leads)}")
