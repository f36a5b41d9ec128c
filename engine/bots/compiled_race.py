"""Whole races of search bots in compiled code (engine/bots/_race.c), for
balance runs: the same races as engine/rules/race.py with the search bot,
seed for seed, several times as fast.

It applies (``applies``) where the compiled part is built, every robot is a
search bot starting from a dock, and the course uses nothing but what the
table below (FIELDS, PLAYED_TILES, PLAYED_EDGES) says _race.c plays: no
levels, option cards counted rather than played, no rule it has no copy of.
A balance run plays every other race with the Python engine;
``python_reason`` says why. tests/test_compiled_race.py plays both engines
on random courses of every element and rule and compares what they return.

    if applies(scenario, "search", len(docks)):
        result = play(scenario, seed, docks)    # CompiledRace
"""
from __future__ import annotations

import random
from dataclasses import MISSING, fields
from types import SimpleNamespace
from typing import NamedTuple

from rallyforge.engine.bots.common import POWER_DOWN_FAR
from rallyforge.engine.bots import search
from rallyforge.engine.bots.search import DAMAGE, DEATH, FLAG, LAST_LIFE
from rallyforge.engine.bots.tables import UNREACHABLE, tables_for
from rallyforge.engine.model.directions import INDEX
from rallyforge.engine.model.element_kinds import EDGES, TILES
from rallyforge.engine.model.program_cards import DECK, KIND_CODE
from rallyforge.engine.model.scenario import Board, Dock, Flag, Rules, Scenario
from rallyforge.engine.rules.course import RANDOMIZER, TELEPORTER, WATER, CURRENT, Course, compile_course
from rallyforge.engine.rules.paths import distances_to

# _race.c's numbers for a death's cause (then each deadly square's own, in
# the order the course's squares first name them) and for what sent the
# robot there (engine/rules/state.py Blame; None for nothing known).
CAUSES = ("off board", "crusher", "damage")
AGENTS = (None, "card", "push", "pusher", "express", "conveyor", "current", "teleport", "laser",
          "robot laser", "crusher")
# the compiled part's limits (engine/bots/_limits.h, exported by the module;
# 0 where it is not built, and then nothing races in C)
MOST_ROBOTS: int = getattr(search.compiled, "MOST_ROBOTS", 0)
MOST_FLAGS: int = getattr(search.compiled, "MOST_FLAGS", 0)
MOST_SIDE: int = getattr(search.compiled, "MOST_SIDE", 0)
# what _race.c's "square" bits say of a square
_TELEPORTER, _SLOW, _RANDOMIZER = 1, 2, 4


# ---------------------------------------------------------------- what it plays
#
# _race.c is a copy of engine/rules. It plays a course only when it knows every
# thing on it: each tile kind and edge element of engine/model/element_kinds.py
# and each field of the model's classes below is listed here, as
#   PLAYED    _race.c plays it, whatever its value
#   IGNORED   no value of it changes a race of search bots with counted options
#             (the comment says why)
#   REFUSED   a course where it is not at its default is raced by Python
#   (values)  played for these values, refused for any other
# A NEW RULE, COURSE KEY OR ELEMENT goes here as REFUSED (or as its tile kind in
# REFUSED_TILES) until _race.c plays it; tests/test_compiled_race.py fails for
# anything listed nowhere, and ``applies`` refuses such a thing when it is used.
PLAYED, IGNORED, REFUSED = "played", "ignored", "refused"
FIELDS: dict[type, dict[str, str | tuple]] = {
    Scenario: {
        "name": IGNORED, "board": PLAYED, "flags": PLAYED, "docks": PLAYED, "rules": PLAYED,
        "robots": IGNORED,      # play() is given the docks; balance runs clear the list
        "checks": IGNORED, "author": IGNORED, "description": IGNORED, "note": IGNORED,
        "card": IGNORED, "accept": IGNORED, "goals": IGNORED,
        "boards": IGNORED,      # names the factory boards; only board_turns_on_flag reads them
        "published": IGNORED,   # the manual's page and printed ratings
        "teams": REFUSED,       # docs/rules.md 13: Python
    },
    Board: {
        "width": PLAYED, "height": PLAYED, "tiles": PLAYED, "walls": PLAYED, "lasers": PLAYED,
        "pushers": PLAYED, "note": IGNORED,
        "levels": REFUSED,      # docs/rules.md 11: no copy in C
    },
    Flag: {"x": PLAYED, "y": PLAYED, "note": IGNORED},
    Dock: {"x": PLAYED, "y": PLAYED, "facing": PLAYED, "note": IGNORED},
    Rules: {
        "lives": PLAYED, "hand_size": PLAYED, "destroy_at_damage": PLAYED,
        "lock_from_damage": PLAYED, "respawn_damage": PLAYED, "robot_lasers": PLAYED,
        "flags_repair": PLAYED, "archive_on_any_flag": PLAYED,
        "teleport_backup_distance": PLAYED, "max_rounds": PLAYED,
        "finish": ("first", "all"),
        "options": ("counted",),        # played option cards: Python
        # counted options are a number no race step and no summary reads
        "start_options": IGNORED, "flag_gives_option": IGNORED,
        "fall_damage": IGNORED,         # dealt by falls down levels only, and levels are refused
        # special course rules (docs/rules.md 12): no copy in C yet
        "flags_move": REFUSED, "robot_laser_damage": REFUSED, "start_damage": REFUSED,
        "power_down": REFUSED, "repair_sites": REFUSED, "start_option_choice": REFUSED,
        "programming_seconds": IGNORED,  # the clock is for people; bots are not timed
        "superbot": REFUSED, "board_turns_on_flag": REFUSED,
        "victory": REFUSED,             # team races (docs/rules.md 13): Python
        "note": IGNORED,
    },
}
# Tile kinds and edge elements (element_kinds.TILES, EDGES): the keys _race.c
# plays of each; a kind whose keys are not all played is refused whole.
PLAYED_TILES: dict[str, tuple[str, ...]] = {
    "floor": (), "pit": (), "conveyor": ("dir", "express"), "gear": ("rotation",),
    "repair": (), "upgrade": (), "crusher": ("phases",), "water": (), "current": ("dir",),
    "drain": (), "teleporter": (), "randomizer": (),
    "void": (),         # off the table: deadly like the board's edge (a death square)
}
REFUSED_TILES = frozenset({"ramp"})         # docs/rules.md 11
PLAYED_EDGES: dict[str, tuple[str, ...]] = {
    "wall": ("side",), "laser": ("dir", "beams"), "pusher": ("dir", "phases"),
}
REFUSED_EDGES: frozenset[str] = frozenset()
# the kinds it plays with every key they take (a key added to a kind since: refused)
_PLAYABLE = frozenset(
    name for table, played in ((TILES, PLAYED_TILES), (EDGES, PLAYED_EDGES))
    for name, keys in played.items()
    if name in table and set(keys) == {key.name for key in table[name].keys})


def refusal(scenario: Scenario) -> str | None:
    """Why the compiled race does not play `scenario` (the first thing on it
    the table above does not let it play), None when it does."""
    board = scenario.board
    things: tuple[Scenario | Board | Rules | Flag | Dock, ...] = (
        scenario, board, scenario.rules, *scenario.flags, *scenario.docks)
    for thing in things:
        why = _unplayed_field(thing)
        if why is not None:
            return why
    for tile in board.tiles:
        if tile.type not in _PLAYABLE:
            return f"a {tile.type} tile"
    for kind in EDGES.values():
        if kind.name not in _PLAYABLE and getattr(board, kind.list):
            return f"a {kind.name}"
    if not 1 <= len(scenario.flags) <= MOST_FLAGS:
        return f"{len(scenario.flags)} flags (1 to {MOST_FLAGS} race in C)"
    if max(board.width, board.height) > MOST_SIDE:
        return f"a {board.width}x{board.height} board (sides up to {MOST_SIDE} race in C)"
    return None


def _unplayed_field(thing: Scenario | Board | Rules | Flag | Dock) -> str | None:
    table = FIELDS.get(type(thing), {})
    for f in fields(thing):
        how = table.get(f.name, REFUSED)    # a field nobody listed yet: refused when used
        if how in (PLAYED, IGNORED):
            continue
        value = getattr(thing, f.name)
        if isinstance(how, tuple) and value in how:
            continue
        default = f.default_factory() if f.default_factory is not MISSING else f.default
        if value != default:
            return f"{type(thing).__name__}.{f.name} = {value!r}"
    return None


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
_known: dict[int, tuple[Scenario, _Built | None, str | None]] = {}


def applies(scenario: Scenario, bot: str, robots: int) -> bool:
    """Whether ``play`` can race `scenario` with that many `bot` robots."""
    return python_reason(scenario, bot, robots) is None


def python_reason(scenario: Scenario, bot: str, robots: int) -> str | None:
    """Why Python, not ``play``, races `scenario` with that many `bot`
    robots; None when ``play`` does."""
    if bot != "search":
        return f"the {bot} bot"
    if not built():
        return "the compiled part is not built"
    if robots > MOST_ROBOTS:
        return f"{robots} robots (1 to {MOST_ROBOTS} race in C)"
    return _racer(scenario)[1]


def built() -> bool:
    """Whether the compiled part has its races and limits (a build of
    engine/bots/_play.c from before them has not, until the install builds
    it again)."""
    return hasattr(search.compiled, "race") and hasattr(search.compiled, "MOST_ROBOTS")


def play(scenario: Scenario, seed: int, docks: tuple[int, ...]) -> CompiledRace:
    """The race of search robots on `docks` (1-based, robot order) with
    `seed`, as Race(...).run() plays it."""
    built = _racer(scenario)[0]
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


def _racer(scenario: Scenario) -> tuple[_Built | None, str | None]:
    """The compiled course of `scenario`, or None and why the compiled race does not apply."""
    known = _known.get(id(scenario))
    if known is not None and known[0] is scenario:
        return known[1], known[2]
    found, why = None, refusal(scenario)
    if why is None:
        try:
            found = _build(scenario)
        except (ValueError, TypeError, KeyError, IndexError, OverflowError) as error:
            # race_course refused the course: Python plays it (the differential
            # tests assert that no valid course comes here)
            why = f"race_course: {error}"
    if len(_known) > 16:
        _known.clear()
    _known[id(scenario)] = (scenario, found, why)
    return found, why


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
    tables = tables_for(SimpleNamespace(course=course, flags=flags, homes=flags, rules=rules))
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
