"""Which races a balance run plays: seeds and dock assignments, fixed before
anything runs, so that every backend and worker count plays the same races.

Race i gets seed ``derive_seed(S, "race", i)``: the first 8 bytes of
SHA-256 over the text ``"S:race:i"``, shifted to 63 bits (never Python's
``hash()``, which changes between processes). Two runs with the same S play
the same seeds whatever the course, which is what makes ``compare`` paired.

Seats (docs/rules.md, "The course card"): by default as the game seats its
players (``GAME``): k robots race on docks 1..k, robots in dock order, so
seat i is dock i. A run may judge several player counts (``players``, such
as 4 to 8): race i then has ``players[i % m]`` robots (m counts), so every
count gets the same races, give or take one. The rotation (``ROTATE``) is a
what-if, "any dock, any company": with D docks, the j-th race of a count k
(j = i // m) uses the k docks ``j, j+1, ..., j+k-1`` (mod D); every block of
D such races uses each dock exactly k times.

Time trials: one robot alone on each dock, trial t with seed
``derive_seed(S, "trial", t)`` for every dock, a job per dock (so that a
Cancel waits for one solo race at most). The trials are spread evenly among
the races so that a run stopped early still has some.

The jobs are made one by one as the runner asks for them (``Jobs``): a
plan's memory does not grow with its races.
"""
from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import overload

RACE, TRIAL = "race", "trial"
GAME, ROTATE = "game", "rotate"
SEATINGS = (GAME, ROTATE)
# The most races and time trials per dock a run may plan: a billion races of
# the quickest course take days on a big machine (the command line says so).
MAX_RACES = 1_000_000_000
MAX_TRIALS = 1_000_000


def derive_seed(seed: int, stream: str, index: int) -> int:
    digest = hashlib.sha256(f"{seed}:{stream}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass(frozen=True)
class Job:
    index: int                  # place in the plan
    kind: str                   # RACE or TRIAL
    number: int                 # race number or trial number
    seed: int
    docks: tuple[int, ...]      # 1-based docks in robot order (a TRIAL has one)


@dataclass(frozen=True)
class Plan:
    races: int
    robots: int                 # the most robots a race of the plan has
    dock_count: int
    trials: int
    seed: int
    jobs: Jobs
    players: tuple[int, ...] = ()   # the robot counts its races take in turn
    seating: str = GAME


def _trial_after(t: int, races: int, trials: int) -> int:
    """The race number that trial t goes right after: floor((t + 1) * races /
    trials) - 1, at least 0 (spread evenly, so that a run stopped early has
    some)."""
    return max(0, (t + 1) * races // trials - 1)


class Jobs(Sequence[Job]):
    """The plan's jobs in order, each made when asked for: a plan of a
    hundred million races takes no more memory than one of ten, and its
    first race starts at once. Trial t's jobs (one per dock) come right
    after race ``_trial_after(t)`` (all first when there are no races)."""

    def __init__(self, races: int, players: tuple[int, ...], dock_count: int, seed: int,
                 trials: int, seating: str = GAME):
        self.races, self.players, self.dock_count = races, players, dock_count
        self.seed, self.trials, self.seating = seed, trials, seating

    def __len__(self) -> int:
        return self.races + self.trials * self.dock_count

    def _trial_start(self, t: int) -> int:
        """The place of trial t's first job: the races up to the one it
        follows and the trials before it come first."""
        before = _trial_after(t, self.races, self.trials) + 1 if self.races else 0
        return before + t * self.dock_count

    def _job(self, index: int) -> Job:
        # the trials starting at or before `index`, by bisection on their places
        lo, hi = 0, self.trials
        while lo < hi:
            mid = (lo + hi) // 2
            if self._trial_start(mid) <= index:
                lo = mid + 1
            else:
                hi = mid
        if lo:
            t = lo - 1
            offset = index - self._trial_start(t)
            if offset < self.dock_count:
                return Job(index, TRIAL, t, derive_seed(self.seed, TRIAL, t), (offset + 1,))
        race = index - lo * self.dock_count
        return Job(index, RACE, race, derive_seed(self.seed, RACE, race),
                   seats(race, self.players, self.dock_count, self.seating))

    @overload
    def __getitem__(self, index: int) -> Job: ...

    @overload
    def __getitem__(self, index: slice) -> list[Job]: ...

    def __getitem__(self, index: int | slice) -> Job | list[Job]:
        if isinstance(index, slice):
            return [self._job(i) for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("job index out of range")
        return self._job(index)


def rotation(race: int, robots: int, dock_count: int) -> tuple[int, ...]:
    """The 1-based docks of race `race` (0-based) of a rotation."""
    return tuple(sorted((race + j) % dock_count + 1 for j in range(robots)))


def seats(race: int, players: tuple[int, ...], dock_count: int,
          seating: str = GAME) -> tuple[int, ...]:
    """The 1-based docks of race `race` (0-based) of a run whose races take
    the robot counts `players` in turn (see the module's notes)."""
    robots = players[race % len(players)]
    if seating == ROTATE:
        return rotation(race // len(players), robots, dock_count)
    return tuple(range(1, robots + 1))


def default_trials(races: int, dock_count: int) -> int:
    """Time trials per dock: about one solo race per eight races played, at
    least 1, at most 50."""
    return max(1, min(50, races // 8))


def make_plan(races: int, robots: int | tuple[int, ...], dock_count: int, seed: int = 0,
              trials: int | None = None, seating: str = GAME) -> Plan:
    """The plan of a run of `robots` robots a race, or of several counts in
    turn (a tuple such as (4, 5, 6)), seated by `seating` (ValueError for
    what cannot be planned)."""
    players = (robots,) if isinstance(robots, int) else tuple(robots)
    if dock_count < 1:
        raise ValueError("the course has no docks")
    if seating not in SEATINGS:
        raise ValueError(f"seating must be {' or '.join(SEATINGS)}, not {seating!r}")
    if not players:
        raise ValueError("no robot count to race")
    for count in players:
        if not 1 <= count <= dock_count:
            raise ValueError(f"robots must be 1 to {dock_count} (the course's docks), not {count}")
    if not 0 <= races <= MAX_RACES:
        raise ValueError(f"races must be 0 to {MAX_RACES:,}, not {races:,}")
    if trials is not None and not 0 <= trials <= MAX_TRIALS:
        raise ValueError(f"trials must be 0 to {MAX_TRIALS:,}, not {trials:,}")
    if trials is None:
        trials = default_trials(races, dock_count) if races else 0
    return Plan(races, max(players), dock_count, trials, seed,
                Jobs(races, players, dock_count, seed, trials, seating), players, seating)
