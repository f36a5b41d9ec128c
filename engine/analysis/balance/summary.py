"""What one played race leaves behind for the statistics: small, picklable
records, so that worker processes send back a few hundred bytes per race.

Robots are numbered by their place in the race (robot order); ``docks[i]``
is the 1-based dock robot i started on. Rounds are 1-based.
"""
from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

# RaceSummary.occupancy: one unsigned 32-bit count per square, little-endian
# (a few hundred bytes a race, where a tuple of ints pickles to kilobytes)
COUNT = "<u4"


def pack_counts(counts: Sequence[int]) -> bytes:
    """Counts per square as RaceSummary.occupancy holds them."""
    return struct.pack(f"<{len(counts)}I", *counts)


def square_xy(square: int, width: int) -> tuple[int, int] | None:
    """(x, y) of a square number; None for none (-1)."""
    return None if square < 0 else (square % width, square // width)


@dataclass(frozen=True)
class Death:
    robot: int
    round: int
    x: int              # the square it died on (off board: the last square it stood on)
    y: int
    cause: str          # one of elements_table.DEATH_CAUSES
    leg: int            # the flag it was heading for (1-based)
    # what sent it there (state.Blame): the agent, and its square (the square
    # moved from, the laser's; None when it has none)
    agent: str | None = None
    origin: tuple[int, int] | None = None
    # the archive point it re-enters at; None when it is out of the race
    archive: tuple[int, int] | None = None


class Raced(Protocol):
    """What the fairness verdict reads of a race (aggregate.py ``Seats``)."""

    @property
    def docks(self) -> tuple[int, ...]: ...

    @property
    def winner_docks(self) -> tuple[int, ...]: ...

    @property
    def decided(self) -> bool: ...


@dataclass(frozen=True)
class RaceSummary:
    seed: int
    docks: tuple[int, ...]
    winners: tuple[int, ...]                    # robot indices; empty when undecided
    rounds: int                                 # rounds played (the race's last round)
    finish_round: tuple[int | None, ...]        # per robot
    flag_rounds: tuple[tuple[int, ...], ...]    # per robot, the round each flag was touched
    deaths: tuple[Death, ...]
    occupancy: bytes                            # per square (y * width + x): register ends (pack_counts)
    # played option cards: squares (x, y) where an upgrade gave a card, per
    # robot whether it ever held one, and each card's uses
    upgrades: tuple[tuple[int, int], ...] = ()
    held_option: tuple[bool, ...] = ()
    options_used: tuple[tuple[str, int], ...] = ()
    # a team course (docs/rules.md 13): each robot's team, and the winning teams
    sides: tuple[str | None, ...] = ()
    won_teams: tuple[str, ...] = ()

    @property
    def decided(self) -> bool:
        return bool(self.winners)

    @property
    def winner_docks(self) -> tuple[int, ...]:
        return tuple(self.docks[i] for i in self.winners)


@dataclass(frozen=True)
class TrialSummary:
    """One robot alone on a dock: its time trial."""
    seed: int
    dock: int
    finish_round: int | None
    rounds: int
