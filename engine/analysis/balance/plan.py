"""Which races a balance run plays: seeds and dock assignments, fixed before
anything runs, so that every backend and worker count plays the same races.

Race i gets seed ``derive_seed(S, "race", i)``: the first 8 bytes of
SHA-256 over the text ``"S:race:i"``, shifted to 63 bits (never Python's
``hash()``, which changes between processes). Two runs with the same S play
the same seeds whatever the course, which is what makes ``compare`` paired.

Docks rotate: with D docks and k robots, race i uses the k docks
``i, i+1, ..., i+k-1`` (mod D), robots in dock order. Every block of D races
uses each dock exactly k times, and each dock meets the same mix of
neighbours, so a run of a multiple of D races uses every dock equally (any
other count is off by at most one race per dock).

Time trials: one robot alone on each dock, trial t with seed
``derive_seed(S, "trial", t)`` for every dock, a job per dock (so that a
Cancel waits for one solo race at most). The trials are spread evenly among
the races so that a run stopped early still has some.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass

RACE, TRIAL = "race", "trial"


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
    robots: int
    dock_count: int
    trials: int
    seed: int
    jobs: tuple[Job, ...]


def rotation(race: int, robots: int, dock_count: int) -> tuple[int, ...]:
    """The 1-based docks of race `race` (0-based)."""
    return tuple(sorted((race + j) % dock_count + 1 for j in range(robots)))


def default_trials(races: int, dock_count: int) -> int:
    """Time trials per dock: about one solo race per eight races played, at
    least 1, at most 50."""
    return max(1, min(50, races // 8))


def make_plan(races: int, robots: int, dock_count: int, seed: int = 0,
              trials: int | None = None) -> Plan:
    if dock_count < 1:
        raise ValueError("the course has no docks")
    if not 1 <= robots <= dock_count:
        raise ValueError(f"robots must be 1 to {dock_count} (the course's docks), not {robots}")
    if races < 0:
        raise ValueError("races must be at least 0")
    if trials is None:
        trials = default_trials(races, dock_count) if races else 0
    jobs: list[Job] = []

    def add_trial(t: int) -> None:
        trial_seed = derive_seed(seed, TRIAL, t)
        for dock in range(1, dock_count + 1):
            jobs.append(Job(len(jobs), TRIAL, t, trial_seed, (dock,)))

    # trial t goes right after race number floor((t + 1) * races / trials) - 1
    after: dict[int, list[int]] = {}
    for t in range(trials):
        after.setdefault(max(0, (t + 1) * races // trials - 1), []).append(t)
    for i in range(races):
        jobs.append(Job(len(jobs), RACE, i, derive_seed(seed, RACE, i), rotation(i, robots, dock_count)))
        for t in after.get(i, ()):
            add_trial(t)
    if races == 0:
        for t in range(trials):
            add_trial(t)
    return Plan(races, robots, dock_count, trials, seed, tuple(jobs))
