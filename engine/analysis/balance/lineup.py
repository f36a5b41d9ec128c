"""Who races where in a balance run's race: one robot of the run's bot on
each dock of the plan's job, and the teams they race for on a team course."""
from __future__ import annotations

from dataclasses import replace

from rallyforge.engine.model.scenario import RobotSpec, Scenario


def lineup(scenario: Scenario, docks: tuple[int, ...], bot: str) -> Scenario:
    """The scenario with one `bot` robot on each of `docks` (1-based), in that order."""
    robots = tuple(RobotSpec(name=f"Dock {d}", dock=d, bot=bot) for d in docks)
    return replace(scenario, robots=robots)


def sides(lined_up: Scenario) -> tuple[str | None, ...]:
    """Each robot's team on a team course (docs/rules.md 13), () on another."""
    return tuple(seat.team for seat in lined_up.seats()) if lined_up.team_race else ()
