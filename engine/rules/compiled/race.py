"""The race rules in compiled code (engine/rules/compiled/_race.c), for
balance runs: the same races as engine/rules/race.py, seed for seed, several
times as fast, its robots programmed by a compiled bot (_race_bot.h; the
search bot's: engine/bots/race_bot.py).

It plays a course (``refusal`` is None) only when the course uses nothing
but what the table below (FIELDS, PLAYED_TILES, PLAYED_EDGES) says _race.c
plays: no levels, no rule it has no copy of (option cards counted or
played, docs/rules.md 10); engine/analysis/balance/compiled.py asks it, and plays every
other race with the Python engine. tests/test_compiled_race.py and
tests/test_compiled_differential.py play both engines on random courses of
every element and rule and compare what they return.

Boards that turn when a flag is touched (``board_turns_on_flag``,
docs/rules.md 12.10) turn in Python: ``Changes`` flips the coin as the Python
race does (board_turns.py flip) when _race.c calls it, and hands back the
turned board's compiled course and bot, which the compiled race plays on.
Flags that ride the belts (``flags_move``, 12.1) move in C, which asks
``Changes`` for the course and bot with the flags where they went as the
bots next see them. On an elimination course (13.6) each bot heads for the
nearest robot of another team: C asks ``aim`` for the bot made for the
course with its one flag there (engine/bots/team_goals.py aimed).

    course = compiled_course(scenario)              # a CompiledCourse
    raw = race(scenario, course, bot, seed, docks, bot_for)
"""
from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import MISSING, fields
from functools import lru_cache
from types import ModuleType
from typing import TYPE_CHECKING, NamedTuple, TypedDict

from rallyforge.engine.model.directions import INDEX
from rallyforge.engine.model.element_kinds import EDGES, TILE_LIST, TILES
from rallyforge.engine.model.program_cards import DECK, KIND_CODE
from rallyforge.engine.model.option_cards import OPTION_IDS
from rallyforge.engine.model.scenario import Board, Dock, Flag, Rules, Scenario, starting_options
from rallyforge.engine.rules.board_turns import flip, turning
from rallyforge.engine.rules.compiled import switched_off
from rallyforge.engine.rules.course import RANDOMIZER, TELEPORTER, WATER, CURRENT, Course, compile_course
from rallyforge.engine.rules.paths import distances_to
from rallyforge.engine.rules.state import OptionDeck
from rallyforge.engine.rules.teams import TeamPlay

compiled: ModuleType | None
if TYPE_CHECKING:
    from rallyforge.engine.rules.compiled import _race as compiled    # (its signatures: _race.pyi)
    from rallyforge.engine.rules.compiled._race import RawRace, Start
elif switched_off():
    compiled = None
else:
    try:
        from rallyforge.engine.rules.compiled import _race as compiled    # when it could be built
    except ImportError:
        compiled = None

# _race.c's numbers for a death's cause, then each deadly tile kind's own
# (element_kinds.TILE_LIST order: the same numbers on every course, and on
# its boards turned, 12.10), and for what sent the robot there
# (engine/rules/state.py Blame; None for nothing known).
_DEADLY = tuple(kind.death for kind in TILE_LIST if kind.deadly and kind.death is not None)
CAUSES = ("off board", "crusher", "damage", *_DEADLY)
_DEATH_CODE = {cause: len(CAUSES) - len(_DEADLY) + i for i, cause in enumerate(_DEADLY)}
AGENTS = (None, "card", "push", "pusher", "express", "conveyor", "current", "teleport", "laser",
          "robot laser", "crusher", "ramming gear", "recompile", "mini howitzer", "pressor beam",
          "tractor beam")
# the team races C plays (docs/rules.md 13): those raced to flags in order,
# and elimination (13.6, no flags), numbered as _race.c has them
VICTORIES = ("robot", "player", "team_progress", "team_any", "elimination")
# the compiled part's limits (_limits.h, exported by the module; 0 where it
# is not built, and then nothing races in C)
MOST_ROBOTS: int = getattr(compiled, "MOST_ROBOTS", 0)
MOST_FLAGS: int = getattr(compiled, "MOST_FLAGS", 0)
MOST_SIDE: int = getattr(compiled, "MOST_SIDE", 0)
# per card of the deck (DECK order, a card's number in C): its kind's code and its priority
CARD_KIND = [KIND_CODE[card.kind] for card in DECK]
CARD_PRIORITY = [card.priority or 0 for card in DECK]
# what _race.c's "square" bits say of a square
_TELEPORTER, _SLOW, _RANDOMIZER = 1, 2, 4


def built() -> bool:
    """Whether the compiled race is here (built, and not switched off)."""
    return compiled is not None


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
FIELDS: dict[type, dict[str, str | tuple[str, ...]]] = {
    Scenario: {
        "name": IGNORED, "board": PLAYED, "flags": PLAYED, "docks": PLAYED, "rules": PLAYED,
        "robots": IGNORED,      # play() is given the docks; balance runs clear the list
        "checks": IGNORED, "author": IGNORED, "description": IGNORED, "note": IGNORED,
        "card": IGNORED, "accept": IGNORED, "goals": IGNORED,
        "boards": PLAYED,       # the factory boards that turn under board_turns_on_flag
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
        "options": PLAYED,              # docs/rules.md 10: _race.c plays the bots' cards
        "start_options": PLAYED, "flag_gives_option": PLAYED,
        "fall_damage": IGNORED,         # dealt by falls down levels only, and levels are refused
        # special course rules (docs/rules.md 12)
        "robot_laser_damage": PLAYED, "start_damage": PLAYED, "power_down": PLAYED,
        "flags_move": PLAYED,           # moved in C, on courses made in Python (Changes)
        "repair_sites": PLAYED, "start_option_choice": PLAYED,
        "programming_seconds": IGNORED,  # the clock is for people; bots are not timed
        "superbot": PLAYED,
        "board_turns_on_flag": PLAYED,  # turned in Python, raced in C (Changes)
        "victory": VICTORIES,           # the other team races (docs/rules.md 13): Python
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
    board, rules = scenario.board, scenario.rules
    things: tuple[Scenario | Board | Rules | Flag | Dock, ...] = (
        scenario, board, rules, *scenario.flags, *scenario.docks)
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
    if rules.victory == "elimination":
        if scenario.flags:
            return f"{len(scenario.flags)} flags on an elimination course (E343)"
    elif not 1 <= len(scenario.flags) <= MOST_FLAGS:
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


class CourseSpec(TypedDict):
    """What race_course reads: the compiled course (engine/rules/course.py)
    as flat tables of square numbers (y * width + x), and the rules."""
    width: int
    height: int
    flag_count: int
    target: list[int]           # per square and direction N E S W: the square beyond, -1 off, -2 wall
    death: list[int]            # per square: 0, or its cause's number (CAUSES)
    square: list[int]           # per square: _TELEPORTER | _SLOW | _RANDOMIZER bits
    belt: list[int]             # per square: the belt's direction, -1 none
    gear: list[int]             # per square: quarter turns clockwise (0 none)
    hot: list[int]              # per register 0-5 and square: Course.hot bits
    archive_point: list[int]
    flags: tuple[int, ...]
    pushers: list[int]          # (square, direction) pairs by register: pusher_start[r] .. [r + 1]
    pusher_start: list[int]
    laser_square: list[int]     # per board laser
    laser_beams: list[int]
    laser_dir: list[int]        # (where its beam goes: the side it hits a robot from is opposite)
    beam_start: list[int]       # per square: the beams crossing it, beam_start[s] .. [s + 1]
    beam_k: list[int]           # (the laser)
    beam_place: list[int]       # (how far down its beam)
    dist: list[int]             # per flag and square: the path distance to it, -1 none
    card_kind: list[int]        # per card of the deck
    card_priority: list[int]
    lives: int
    hand_size: int
    destroy_at: int
    lock_from: int
    respawn: int
    robot_lasers: bool
    flags_repair: bool
    any_flag: bool
    teleport_back: int
    max_rounds: int
    finish_first: bool
    robot_laser_damage: int
    power_down: bool
    superbot: bool
    victory: int                # its place in VICTORIES
    upgrade: list[int]          # per square: 1 on an upgrade square
    played_options: bool
    start_options: int          # cards each robot holds at the start (drafted or dealt)
    draft: int                  # start_option_choice
    flag_gives_option: bool
    options_sites: bool         # repair_sites "options"


class CompiledCourse(NamedTuple):
    course: Course
    flags: tuple[int, ...]          # the flags' squares, in order
    capsule: object                 # race_course's


def compiled_course(scenario: Scenario) -> CompiledCourse:
    """The course `scenario` races on in C (refusal(scenario) None);
    race_course raises ValueError, TypeError, KeyError, IndexError or
    OverflowError for a course it cannot play."""
    course = compile_course(scenario.board)
    return _compiled(course, tuple(course.square(f.x, f.y) for f in scenario.flags),
                     scenario.rules)


@lru_cache(maxsize=64)      # (as compile_course's: Frenetic Factory's arrangements of boards)
def _compiled(course: Course, flags: tuple[int, ...], rules: Rules) -> CompiledCourse:
    assert compiled is not None
    return CompiledCourse(course, flags, compiled.race_course(course_spec(course, flags, rules)))


def course_spec(course: Course, flags: tuple[int, ...], rules: Rules) -> CourseSpec:
    """The course and rules as race_course reads them."""
    death = [0 if cause is None else _DEATH_CODE[cause] for cause in course.death]
    square = [(_TELEPORTER if t == TELEPORTER else 0) | (_SLOW if t in (WATER, CURRENT) else 0)
              | (_RANDOMIZER if t == RANDOMIZER else 0) for t in course.tile]
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
    spec: CourseSpec = {
        "width": course.width, "height": course.height, "flag_count": len(flags),
        "target": course.target, "death": death, "square": square, "belt": course.belt_dir,
        "gear": course.gear_turn, "hot": [bit for bits in course.hot for bit in bits],
        "archive_point": [int(a) for a in course.archive_point],
        "flags": flags, "pushers": pushers, "pusher_start": pusher_start,
        "laser_square": [laser.square for laser in course.lasers],
        "laser_beams": [laser.beams for laser in course.lasers],
        "laser_dir": [laser.dir for laser in course.lasers],
        "beam_start": beam_start, "beam_k": beam_k, "beam_place": beam_place,
        "dist": [d for goal in flags for d in distances_to(course, goal)],
        "card_kind": CARD_KIND, "card_priority": CARD_PRIORITY,
        "lives": rules.lives, "hand_size": rules.hand_size, "destroy_at": rules.destroy_at_damage,
        "lock_from": rules.lock_from_damage, "respawn": rules.respawn_damage,
        "robot_lasers": rules.robot_lasers, "flags_repair": rules.flags_repair,
        "any_flag": rules.archive_on_any_flag, "teleport_back": rules.teleport_backup_distance,
        # (a team race ends as a side wins: race.py _finish)
        "max_rounds": rules.max_rounds,
        "finish_first": rules.finish == "first" or rules.victory != "robot",
        "robot_laser_damage": rules.robot_laser_damage, "power_down": rules.power_down,
        "superbot": rules.superbot, "victory": VICTORIES.index(rules.victory),
        "upgrade": [int(u) for u in course.upgrade],
        "played_options": rules.options == "played", "start_options": starting_options(rules),
        "draft": rules.start_option_choice, "flag_gives_option": rules.flag_gives_option,
        "options_sites": rules.repair_sites == "options",
    }
    return spec


BotFor = Callable[[CompiledCourse], object]
Aim = Callable[[int], object]


def race(scenario: Scenario, course: CompiledCourse, bot: object, seed: int,
         docks: tuple[int, ...], bot_for: BotFor, teams: TeamPlay | None = None,
         aim: Aim | None = None) -> RawRace:
    """The race of `bot` robots (a compiled bot made for `course`) on `docks`
    (1-based, robot order) with `seed`, as Race(...).run() plays it, as
    _race.c returns it (engine/analysis/balance/compiled.py reads it);
    `bot_for(course)` makes the bot for a board turned, or for flags moved,
    in the race; `teams` are the sides of a team race (docs/rules.md 13).
    Under elimination (13.6) `bot` is None and `aim(square)` makes the bot
    for `course` with its one flag on that square."""
    assert compiled is not None and len(docks) <= MOST_ROBOTS
    rules = scenario.rules
    damage = min(rules.start_damage, rules.destroy_at_damage)       # as race.py starts them
    # under superbot the robot on the lowest dock starts with the title (race.py _crown_dock_1)
    crowned = min(range(len(docks)), key=lambda i: (docks[i], i)) if rules.superbot else -1
    robots: list[Start] = []
    for i, number in enumerate(docks):
        dock = scenario.docks[number - 1]
        robots.append((course.course.square(dock.x, dock.y), INDEX[dock.facing], damage,
                       rules.lives, 0, False, i == crowned,
                       teams.team[i] if teams is not None else -1,
                       teams is not None and teams.blocker[i]))
    rng = random.Random(seed)
    changes = Changes(scenario, course, rng, bot_for)
    # the option deck as race.py shuffles it (its own generator: state.py OptionDeck)
    deck = ([OPTION_IDS.index(card) for card in OptionDeck(seed, set()).cards]
            if rules.options == "played" else None)
    return compiled.race(course.capsule, bot, rng, robots,
                         changes.turned if turning(scenario) else None,
                         changes.moved if rules.flags_move else None, deck,
                         aim if rules.victory == "elimination" else None)


class Changes:
    """What changes of one compiled race's course as it is played: boards
    that turn when a flag is touched (docs/rules.md 12.10) and flags that
    ride the belts (12.1). _race.c calls ``turned`` where the Python race
    calls floor.on_flag (checkpoints.py), and it flips the coin with the
    race's own generator (_race.c draws from it too, so the numbers come in
    the Python race's order) as BoardTurns does. It moves the flags itself
    and calls ``moved`` with the squares they stand on where race.py shows
    them to the bots (the round's start and the power down choice). Each
    gives the compiled course of the board as it now lies with the flags
    where the bots saw them last, and its bot, which the race plays on from
    then on."""

    def __init__(self, scenario: Scenario, course: CompiledCourse, rng: random.Random,
                 bot_for: BotFor):
        self.scenario, self.rng, self.bot_for = scenario, rng, bot_for
        self.board = scenario.board             # as it lies now
        self.flags = course.flags               # where the bots last saw them

    def turned(self, square: int) -> tuple[object, object] | None:
        width = self.board.width
        flipped = flip(self.scenario, self.board, square % width, square // width, self.rng)
        if flipped is None or flipped[1] is None:
            return None
        self.board = flipped[1]
        return self._played()

    def moved(self, squares: tuple[int, ...]) -> tuple[object, object]:
        self.flags = squares
        return self._played()

    def _played(self) -> tuple[object, object]:
        course = _compiled(compile_course(self.board), self.flags, self.scenario.rules)
        return course.capsule, self.bot_for(course)
