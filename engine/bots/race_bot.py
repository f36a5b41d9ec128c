"""The search bot of the compiled race (engine/rules/compiled/_race.c): its
tables and weights for one course (``BotSpec``) made into the capsule of
_race_bot.h by the search bot's compiled part (engine/bots/_search_race.c,
in the _play module with its loop). A balance run hands it to the race with
the course (engine/analysis/balance/compiled.py).

    bot = search_bot(course, flags, scenario.rules)     # None: not built
"""
from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import TypedDict
from weakref import WeakKeyDictionary

import numpy as np

from rallyforge.engine.bots import search
from rallyforge.engine.bots.common import POWER_DOWN_FAR
from rallyforge.engine.bots.hunt import Hunt, Quarry, hunt_scale
from rallyforge.engine.bots.search import DAMAGE, DEATH, FLAG, LAST_LIFE, RECOMPILE_DRAWS
from rallyforge.engine.bots.tables import UNREACHABLE, Tables, tables_for
from rallyforge.engine.model.scenario import Rules
from rallyforge.engine.rules.compiled.race import CARD_KIND, CARD_PRIORITY
from rallyforge.engine.rules.course import Course


class BotSpec(TypedDict):
    """What race_bot reads: the search bot's layered tables (tables.py
    Layered) of one course, and its weights (search.py)."""
    squares: int
    flag_count: int
    flags: tuple[int, ...]          # the flags' squares
    card_kind: list[int]            # per card of the deck
    card_priority: list[int]
    X: int
    S: int
    FIN: int
    value: np.ndarray               # X int64
    end: np.ndarray                 # (5, 8 * X) int32
    dmg: np.ndarray
    from_square: list[int]          # per flag and square
    repair_dist: list[int]          # per state
    dist: list[int]                 # per flag target and board state (Tables.dist, flags 0..F-1)
    laser_damage: list[int]         # per square: the board lasers' damage there (Course.laser_damage)
    flag_value: int
    death_penalty: int
    last_life_penalty: int
    damage_weight: int
    far: int
    unreachable: int
    recompile_draws: int            # new hands drawn to judge a Recompile
    hunt: Callable[[int, int, int, int, bool], Hunt] | None     # under superbot: _hunter


def built() -> bool:
    """Whether the search bot's compiled part has its race bot (a build of
    engine/bots/_play.c from before it has not, until the install builds it again)."""
    return hasattr(search.compiled, "race_bot")


# the capsules by the tables they are made of, as long as those are kept
# (tables.py's cache, bounded by squares: a course whose boards turn, 12.10,
# has a set of tables, and a bot, per arrangement of its boards)
_made: WeakKeyDictionary[Tables, object] = WeakKeyDictionary()


def search_bot(course: Course, flags: tuple[int, ...], rules: Rules,
               homes: tuple[int, ...] | None = None) -> object:
    """The search bot's capsule for races on `course` with its flags on
    `flags` (squares) under `rules` (built() is true); `homes`, the flags'
    squares in the file where flags ride the belts (docs/rules.md 12.1,
    where one carried off goes back), default `flags`."""
    homes = homes or flags
    tables = _tables(course, flags, rules, homes)
    found = _made.get(tables)
    if found is None:
        assert search.compiled is not None
        found = _made[tables] = search.compiled.race_bot(_spec(tables, homes))
    return found


def bot_spec(course: Course, flags: tuple[int, ...], rules: Rules) -> BotSpec:
    return _spec(_tables(course, flags, rules, flags), flags)


def _tables(course: Course, flags: tuple[int, ...], rules: Rules,
            homes: tuple[int, ...]) -> Tables:
    return tables_for(SimpleNamespace(course=course, flags=flags, homes=homes, rules=rules))


def _hunter(course: Course, flags: tuple[int, ...], rules: Rules, homes: tuple[int, ...]
            ) -> Callable[[int, int, int, int, bool], Hunt]:
    """The bot's hunt(square, facing, flags, archive, last_life) under
    ``superbot``: a hunter's tables against the SuperBot standing there
    (engine/bots/hunt.py). It finds the tables anew each call: the bot that
    keeps it must not keep them alive (race_bot's bots live as long as their
    tables)."""
    def hunt(square: int, facing: int, touched: int, archive: int, last_life: bool) -> Hunt:
        tables = _tables(course, flags, rules, homes)
        holder = Quarry(square, facing, touched, archive)
        return hunt_scale(tables, tables.layered(), holder, last_life)
    return hunt


def _spec(tables: Tables, homes: tuple[int, ...]) -> BotSpec:
    course, flags, rules = tables.course, tables.flags, tables.rules
    layered = tables.layered()
    return {
        "squares": course.size, "flag_count": len(flags), "flags": flags,
        "card_kind": CARD_KIND, "card_priority": CARD_PRIORITY,
        "X": layered.X, "S": layered.S, "FIN": layered.FIN, "value": layered.value,
        "end": layered.end_all, "dmg": layered.dmg_all,
        "from_square": [d for row in layered.from_square for d in row],
        "repair_dist": tables.repair_dist.tolist(),
        "dist": tables.dist[:len(flags), :tables.states].ravel().tolist(),
        "laser_damage": list(course.laser_damage),
        "flag_value": FLAG, "death_penalty": DEATH, "last_life_penalty": LAST_LIFE,
        "damage_weight": DAMAGE, "far": POWER_DOWN_FAR, "unreachable": UNREACHABLE,
        "recompile_draws": RECOMPILE_DRAWS,
        "hunt": _hunter(course, flags, rules, homes) if rules.superbot else None,
    }
