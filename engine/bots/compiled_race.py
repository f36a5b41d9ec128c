"""Whole races of search bots in compiled code (engine/bots/_race.c), for
balance runs: the same races as engine/rules/race.py with the search bot,
seed for seed, about ten times as fast.

It applies (``applies``) where the compiled part is built, every robot
is a search bot starting from a dock, option cards are counted rather than
played and the course has no levels; a balance run plays every other race
with the Python engine. tests/test_compiled_race.py plays both engines on
every example course and rule case board and compares what they return.

    if applies(scenario, "search", len(docks)):
        result = play(scenario, seed, docks)    # CompiledRace
"""
from __future__ import annotations

import random
from types import SimpleNamespace
from typing import NamedTuple

from rallyforge.engine.bots.common import POWER_DOWN_FAR
from rallyforge.engine.bots import search
from rallyforge.engine.bots.search import DAMAGE, DEATH, FLAG, LAST_LIFE
from rallyforge.engine.bots.tables import UNREACHABLE, tables_for
from rallyforge.engine.model.directions import INDEX
from rallyforge.engine.model.program_cards import DECK, KIND_CODE
from rallyforge.engine.model.scenario import Scenario
from rallyforge.engine.rules.course import RANDOMIZER, TELEPORTER, WATER, CURRENT, Course, compile_course
from rallyforge.engine.rules.paths import distances_to

# _race.c's numbers for a death's cause (then each deadly square's own, in
# the order the course's squares first name them) and for what sent the
# robot there (engine/rules/state.py Blame; None for nothing known).
CAUSES = ("off board", "crusher", "damage")
AGENTS = (None, "card", "push", "pusher", "express", "conveyor", "current", "teleport", "laser",
          "robot laser", "crusher")
MOST_ROBOTS = 64
MOST_FLAGS = 64
# what _race.c's "square" bits say of a square
_TELEPORTER, _SLOW, _RANDOMIZER = 1, 2, 4


class Death(NamedTuple):
    robot: int              # robot order
    round: int
    square: int
    cause: str
    leg: int                # the flag it was heading for, 1-based
    agent: str | None
    origin: int             # the square `agent` sent it from, -1 for none
    reenters: int           # its archive square, -1 when it is out of the race


class CompiledRace(NamedTuple):
    rounds: int
    finished: list[tuple[int, int] | None]      # per robot: (round, register) of its finish
    flag_rounds: list[list[int]]                # per robot: the round it touched each flag in
    deaths: list[Death]
    occupancy: bytes    # per square: robots there at a register's end, little-endian uint32s


class _Built(NamedTuple):
    course: Course
    capsule: object
    causes: tuple[str, ...]


_built: dict[tuple, _Built] = {}
# the last scenarios asked about, by identity (hashing a board is slow): (scenario, built or None)
_known: dict[int, tuple[Scenario, _Built | None]] = {}


def applies(scenario: Scenario, bot: str, robots: int) -> bool:
    """Whether ``play`` can race `scenario` with that many `bot` robots."""
    return (bot == "search" and robots <= MOST_ROBOTS and built()
            and not scenario.team_race      # teams: not in _race.c; Python plays them (rules.md 13)
            and _racer(scenario) is not None)


def built() -> bool:
    """Whether the compiled part has its races (a build of engine/bots/_play.c
    from before them has not, until the install builds it again)."""
    return hasattr(search.compiled, "race")


def play(scenario: Scenario, seed: int, docks: tuple[int, ...]) -> CompiledRace:
    """The race of search robots on `docks` (1-based, robot order) with
    `seed`, as Race(...).run() plays it."""
    built = _racer(scenario)
    compiled = search.compiled
    assert compiled is not None and built is not None and len(docks) <= MOST_ROBOTS
    rules = scenario.rules
    robots = []
    for number in docks:
        dock = scenario.docks[number - 1]
        robots.append((built.course.square(dock.x, dock.y), INDEX[dock.facing], 0, rules.lives, 0,
                       False))
    rounds, finished, flag_rounds, deaths, occupancy = compiled.race(
        built.capsule, random.Random(seed), robots)
    return CompiledRace(rounds, finished, flag_rounds,
                        [Death(robot, round_, square, built.causes[cause], leg, AGENTS[agent],
                               origin, reenters)
                         for robot, round_, square, cause, leg, agent, origin, reenters in deaths],
                        occupancy)


def _racer(scenario: Scenario) -> _Built | None:
    """The compiled course of `scenario`, None where the compiled race does not apply."""
    known = _known.get(id(scenario))
    if known is not None and known[0] is scenario:
        return known[1]
    rules = scenario.rules
    found = None
    if (built() and rules.options != "played"
            and rules.finish in ("first", "all")
            and 1 <= len(scenario.flags) <= MOST_FLAGS
            and not compile_course(scenario.board).levelled):
        found = _build(scenario)
    if len(_known) > 16:
        _known.clear()
    _known[id(scenario)] = (scenario, found)
    return found


def _build(scenario: Scenario) -> _Built:
    course = compile_course(scenario.board)
    flags = tuple(course.square(f.x, f.y) for f in scenario.flags)
    key = (id(course), flags, scenario.rules)
    found = _built.get(key)
    if found is None or found.course is not course:
        if len(_built) > 16:
            _built.clear()
        found = _built[key] = _spec(course, flags, scenario)
    return found


def _spec(course: Course, flags: tuple[int, ...], scenario: Scenario) -> _Built:
    """The course, rules and search-bot tables as _race.c's race_course reads them."""
    rules = scenario.rules
    tables = tables_for(SimpleNamespace(course=course, flags=flags, rules=rules))
    layered = tables.layered()
    n = course.size
    causes = list(CAUSES)
    death = []
    for cause in course.death:
        if cause is not None and cause not in causes[len(CAUSES):]:
            causes.append(cause)
        death.append(0 if cause is None else causes.index(cause, len(CAUSES)))
    square = [(_TELEPORTER if t == TELEPORTER else 0) | (_SLOW if t in (WATER, CURRENT) else 0)
              | (_RANDOMIZER if t == RANDOMIZER else 0) for t in course.tile]
    flag_at = [0] * n
    for number, sq in enumerate(flags, 1):
        flag_at[sq] = number
    pushers: list[int] = []
    pusher_start = []
    for register in range(6):
        pusher_start.append(len(pushers))
        for sq, d in course.pushers[register]:
            pushers += (sq, d)
    pusher_start.append(len(pushers))
    beam_start: list[int] = []
    beam_k: list[int] = []
    beam_place: list[int] = []
    for on in course.beams_on:
        beam_start.append(len(beam_k))
        for k, place in on:
            beam_k.append(k)
            beam_place.append(place)
    beam_start.append(len(beam_k))
    spec = {
        "width": course.width, "height": course.height, "flag_count": len(flags),
        "target": course.target, "death": death, "square": square, "belt": course.belt_dir,
        "gear": course.gear_turn, "hot": [bit for bits in course.hot for bit in bits],
        "archive_point": [int(a) for a in course.archive_point], "flag_at": flag_at,
        "flags": flags, "pushers": pushers, "pusher_start": pusher_start,
        "laser_square": [laser.square for laser in course.lasers],
        "laser_beams": [laser.beams for laser in course.lasers],
        "beam_start": beam_start, "beam_k": beam_k, "beam_place": beam_place,
        "dist": [d for goal in flags for d in distances_to(course, goal)],
        "card_kind": [KIND_CODE[card.kind] for card in DECK],
        "card_priority": [card.priority for card in DECK],
        "lives": rules.lives, "hand_size": rules.hand_size, "destroy_at": rules.destroy_at_damage,
        "lock_from": rules.lock_from_damage, "respawn": rules.respawn_damage,
        "robot_lasers": rules.robot_lasers, "flags_repair": rules.flags_repair,
        "any_flag": rules.archive_on_any_flag, "teleport_back": rules.teleport_backup_distance,
        "max_rounds": rules.max_rounds, "finish_first": rules.finish == "first",
        "X": layered.X, "S": layered.S, "FIN": layered.FIN, "value": layered.value,
        "end": layered.end_all, "dmg": layered.dmg_all,
        "from_square": [d for row in layered.from_square for d in row],
        "repair_dist": tables.repair_dist.tolist(),
        "flag_value": FLAG, "death_penalty": DEATH, "last_life_penalty": LAST_LIFE,
        "damage_weight": DAMAGE, "far": POWER_DOWN_FAR, "unreachable": UNREACHABLE,
    }
    assert search.compiled is not None
    return _Built(course, search.compiled.race_course(spec), tuple(causes))
