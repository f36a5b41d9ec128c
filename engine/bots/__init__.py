"""Bots: who programs a robot that has no scripted cards (the interface
they answer is engine/rules/bot_view.py).

Register a bot class in ``BOTS``, under a name of
engine/model/scenario.py ``BOT_NAMES`` (the list files and the command line
are checked against without importing the bots); ``DEFAULT_BOT`` (named
there too) is the one used when none is named. ``new_race`` makes a race
with bots named or given. ``race_bot`` makes the search bot of the compiled
race (engine/rules/compiled/) that balance runs play where it applies.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rallyforge.engine.bots.aware import AwareBot
from rallyforge.engine.bots.greedy import GreedyBot
from rallyforge.engine.bots.option_policy import OptionPolicy
from rallyforge.engine.bots.random_bot import RandomBot
from rallyforge.engine.bots.search import SearchBot
from rallyforge.engine.bots.team import TeamBot
from rallyforge.engine.model.scenario import BOT_NAMES, DEFAULT_BOT as DEFAULT_BOT, Scenario
from rallyforge.engine.rules.bot_view import Bot
from rallyforge.engine.rules.race import Race

BOTS: dict[str, type] = dict(zip(BOT_NAMES, (RandomBot, GreedyBot, SearchBot, AwareBot, TeamBot),
                                  strict=True))


def make_bot(name: str) -> Bot:
    try:
        return BOTS[name]()
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; the bots are "
                         f"{', '.join(sorted(BOTS))}") from None


OPTION_POLICY = OptionPolicy()     # (it holds nothing: one for every race)

# Robots a race puts on docks when the scenario lists none and no count is given.
DEFAULT_ROBOTS = 8


def new_race(scenario: Scenario, seed: int = 0, robot_count: int | None = None,
             bot: str | None = None, bots: Sequence[str | Bot] | None = None,
             **options: Any) -> Race:
    """A race of the scenario's robots, each with the bot its file names;
    when it lists none, `robot_count` robots on docks 1..k (8 at most when
    unsaid), each with its bot from `bots` (names or bot objects), else all
    `bot`, else the default bot; their option choices are the bots' policy
    (bots/option_policy.py). `options` go to Race (record_events, hooks)."""
    if scenario.robots:
        return Race(scenario, seed, [make_bot(r.bot) if r.bot else None for r in scenario.robots],
                    option_choices=OPTION_POLICY, **options)
    count = robot_count if robot_count is not None else min(DEFAULT_ROBOTS, len(scenario.docks))
    if not 0 <= count <= len(scenario.docks):
        raise ValueError(f"{count} robots need {count} docks; the course has "
                         f"{len(scenario.docks)}")
    chosen = list(bots) if bots is not None else [bot or DEFAULT_BOT] * count
    return Race(scenario, seed, [make_bot(b) if isinstance(b, str) else b for b in chosen[:count]],
                option_choices=OPTION_POLICY, **options)
