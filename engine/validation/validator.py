"""Validating a scenario in two tiers: the file's structure, then the course.

``validate_file`` and ``validate_data`` run everything: the JSON Schema
(engine/format/schema.py), the loader's structural checks (engine/format/loader.py), then
the course checks of this module on whatever the loader could read.
``course_problems`` runs the course checks alone on a model, for the editor.

Every problem has a severity, a stable code, a message that names the square
and says what to do, a JSON pointer and, where there is one, the square.

    E001-E004  the file cannot be read (engine/format/loader.py)
    E101-E108  the file breaks the JSON Schema (engine/format/schema.py)
    E201       something lies outside the board        (loader; here too, for models
    E202-E205  two tiles, flags, docks or pushers        built in memory)
               on one square
    E206       registers not listed in increasing order (loader)
    E207       two levels on one square (loader; here too)

    E301  a flag on a pit or drain
    E302  a dock on a pit or drain
    E303  a robot starts (``at``) on a pit or drain
    E304  a robot starts on the square where another robot starts
    E305  a robot takes a dock that does not exist (named, or by its place in the list)
    E306  more robots start on docks than there are docks
    E307  two robots with one name
    E308  an unknown card in a robot's program
    E309  a card priority outside 1-999
    E310  a check names a robot the course does not have
    E311  a check names a register outside 1-5 (or a round below 1)
    E312  a flag cannot be reached: from a dock (flag 1), or from the flag before it
          (under ``superbot`` only dock 1 counts; under ``board_turns_on_flag`` in some
          way the boards under the flags before it can have turned)
    E313  an option card held by two robots
    E314  an ``option_cards`` check while options are only counted (docs/format.md, `checks`)
    E315  a robot starts having touched more flags than the course has
    E316  a ramp whose neighbours do not match: the square behind it (against its
          dir) must be one level lower, the square ahead at its level, both on the board
    E317  a robot's bot is not one of the bots (engine/bots)
    E318  a robot starts with an option card the game does not have (files: E102)
    E330  both ``start_option_choice`` and ``start_options`` deal starting options
    E331  a robot powers down (scripted, or at the start) where ``power_down`` is false
    E332  ``start_damage`` destroys robots as the race starts
    E335  a factory board of ``boards`` reaches outside the board
    E336  two factory boards of ``boards`` overlap
    E337  ``board_turns_on_flag`` on a course without ``boards``
    E338  ``board_turns_on_flag``: a flag's factory board is not square (a quarter turn
          would not fit it)

    W401  a wall listed twice (from both sides of its edge, or twice the same)
    W402  a laser whose beam is walled in on its own square
    W403  two lasers on one square firing the same way
    W404  a pusher facing a wall
    W405  a conveyor or current that points off the board, into a wall or up a ledge
    W406  a flag on a conveyor (unless flags move with belts), gear or crusher
    W407  a dock on a conveyor, gear or crusher
    W408  a dock in a laser beam
    W409  fewer than 2 docks
    W410  a scripted option use the robot's cards cannot make (it is ignored in the race)
    W411  respawn_damage at or above destroy_at_damage: robots re-enter destroyed
    W412  a square listed at level 0 (the default)
    W413  a dock on an upper level facing a ledge down (its robot's first step is a fall)
    W414  a laser whose beam a level change cuts to its own square
    W415  a laser or pusher mounted on a ramp's low side
    W416  the course card kept in the file was measured on another version of the course
    W420  goals for more robots than the course has docks
    W430  ``board_turns_on_flag``: a flag on no factory board, so touching it turns nothing
    W431  ``superbot``: a dock other than dock 1 from which flag 1 cannot be reached

    E340-E345, W440  a team course that cannot be played as written
                     (engine/validation/team_checks.py)

Errors make a course unusable; warnings are probably mistakes but legal.
Each check is one small function taking the scenario (and where its elements
stand in the file) and returning its problems; ``CHECKS`` lists them in the
order they run.
"""
from __future__ import annotations

import itertools
from dataclasses import replace
from collections.abc import Callable, Iterator, Mapping, Set as AbstractSet
from typing import Any

from rallyforge.engine.format.loader import board_indexes, read_dict, read_json
from rallyforge.engine.format.schema import within_bounds
from rallyforge.engine.model.directions import DX, DY, INDEX, NAMES, opposite
from rallyforge.engine.model.element_kinds import BELT_TYPES, DEADLY_TYPES, EDGE_LIST, TILE_LIST, off_table
from rallyforge.engine.model.json_types import FilePath, JsonObject
from rallyforge.engine.model.option_cards import BY_ID, card_name
from rallyforge.engine.model.problems import ERROR, Problem, ScenarioError, WARNING, pointer
from rallyforge.engine.model.scenario import (BOT_NAMES, Board, CARD_KINDS, Card, Dock, Flag, Laser,
                                   MAX_LEVEL, Pusher, RobotSpec, Scenario, edge_key)
from rallyforge.engine.model.turning import turn_part
from rallyforge.engine.rules import reach
from rallyforge.engine.rules.beams import board_beams
from rallyforge.engine.rules.course import compile_course
from rallyforge.engine.rules.moving_flags import flag_path
from rallyforge.engine.validation.team_checks import team_problems

COMPASS = {"N": "north", "E": "east", "S": "south", "W": "west"}
# Squares a flag or dock should not stand on, and why.
FLAG_WARN_TYPES = {t.name: t.flag_warning for t in TILE_LIST if t.flag_warning}
DOCK_WARN_TYPES = {t.name: t.dock_warning for t in TILE_LIST if t.dock_warning}


# ---------------------------------------------------------------- entry points

def validate_file(path: FilePath) -> list[Problem]:
    """Every problem of a scenario file, the unreadable ones included."""
    return read_valid_file(path)[1]


def read_valid_file(path: FilePath) -> tuple[Scenario | None, list[Problem]]:
    """Every problem of a scenario file (as validate_file), and its scenario
    when none of them is an error (the one load_file gives), from one read."""
    data, problems = read_json(path)
    if problems:
        return None, problems
    scenario, problems = _validate(data)
    return (None if any(p.is_error for p in problems) else scenario), problems


def validate_data(data: object) -> list[Problem]:
    """Every problem of a parsed document: schema, structure, then the course
    checks on whatever could be read."""
    return _validate(data)[1]


def _validate(data: object) -> tuple[Scenario | None, list[Problem]]:
    """The model read from a parsed document (None when none could be), and
    every problem of the document (validate_data)."""
    try:
        scenario, problems = read_dict(data)
    except RecursionError:
        return None, [Problem(ERROR, "E003", "the document is nested too deeply to read")]
    if scenario is None:
        return None, problems
    seen = {(p.code, p.pointer, p.x, p.y) for p in problems}
    places = _file_places(within_bounds(data), scenario, problems)   # as read_dict read it
    for problem in course_problems(scenario, places):
        if (problem.code, problem.pointer, problem.x, problem.y) not in seen:
            problems.append(problem)
    return scenario, mark_accepted(scenario, problems)


def mark_accepted(scenario: Scenario, problems: list[Problem]) -> list[Problem]:
    """The problems, with the warnings the file accepts marked `accepted`."""
    if not scenario.accept:
        return problems
    return [replace(p, accepted=True)
            if p.severity == WARNING and any(a.covers(p.code, p.x, p.y) for a in scenario.accept)
            else p for p in problems]


def course_problems(scenario: Scenario, places: "Places | None" = None) -> list[Problem]:
    """The course checks on a model. `places` says where each element stands
    in the file the model was read from; without it, pointers and flag and
    dock numbers follow the model's own lists."""
    places = places or Places()
    problems: list[Problem] = []
    for check in CHECKS:
        problems.extend(check(scenario, places))
    return problems


def race_errors(scenario: Scenario) -> list[Problem]:
    """The course's errors: a course with any is not raced (warnings never
    block). engine.balance() and engine.suggest() refuse on them, and the
    editor's runs go through those; the command line refuses a file on
    validate's errors, these among them."""
    return [p for p in course_problems(scenario) if p.is_error]


def refuse_errors(scenario: Scenario) -> None:
    """Raise ScenarioError with the course's errors, if it has any."""
    errors = race_errors(scenario)
    if errors:
        raise ScenarioError(errors)


# ---------------------------------------------------------------- places in the file

class Places:
    """Maps an element's index in the model to its index in the file, per
    list ("flags", "docks", "robots", "checks", "board/tiles", ...). The
    loader skips broken elements, so the two can differ; flag and dock
    numbers in messages are the file's."""

    def __init__(self, indexes: dict[str, list[int]] | None = None):
        self.indexes = indexes or {}

    def index(self, key: str, k: int) -> int:
        known = self.indexes.get(key)
        return known[k] if known is not None and k < len(known) else k

    def number(self, key: str, k: int) -> int:
        return self.index(key, k) + 1

    def pointer(self, key: str, k: int, *rest: object) -> str:
        return pointer(*key.split("/"), self.index(key, k), *rest)


def _file_places(data: object, scenario: Scenario, problems: list[Problem]) -> Places:
    """Find each model element's index in the file: the loader keeps the
    elements that neither the schema (E1xx at or below them) nor its own
    checks (E201-E205 on them) rejected, in file order."""
    if not isinstance(data, dict):      # a model is only read from an object
        data = {}
    board = data.get("board")
    if not isinstance(board, dict):
        board = {}
    lists = (
        ("board/tiles", board.get("tiles"), scenario.board.tiles),
        ("board/walls", board.get("walls"), scenario.board.walls),
        ("board/lasers", board.get("lasers"), scenario.board.lasers),
        ("board/pushers", board.get("pushers"), scenario.board.pushers),
        ("board/levels", board.get("levels"), scenario.board.levels),
        ("flags", data.get("flags"), scenario.flags),
        ("docks", data.get("docks"), scenario.docks),
        ("robots", data.get("robots"), scenario.robots),
        ("checks", data.get("checks"), scenario.checks),
        ("boards", data.get("boards"), scenario.boards),
    )
    skipped: dict[str, set[int]] = {}
    for p in problems:
        if p.code.startswith("E1") or p.code in ("E201", "E202", "E203", "E204", "E205", "E207"):
            for key, _, _ in lists:
                prefix = "/" + key + "/"
                if p.pointer.startswith(prefix):
                    index, _, rest = p.pointer[len(prefix):].partition("/")
                    if index.isdigit() and (p.code.startswith("E1") or not rest):
                        skipped.setdefault(key, set()).add(int(index))
    indexes: dict[str, list[int]] = {}
    for key, raw, items in lists:
        if not isinstance(raw, list):
            continue
        bad = skipped.get(key, ())
        candidates = [i for i, v in enumerate(raw) if isinstance(v, dict) and i not in bad]
        if len(candidates) == len(items):
            indexes[key] = candidates
            continue
        # The loader dropped something more (an element it could not build):
        # match in order by square (or name), trusting the order where that fails.
        found: list[int] = []
        j = 0
        for item in items:
            want = _model_key(key, item)
            start = j
            while j < len(candidates) and _raw_key(key, raw[candidates[j]]) != want:
                j += 1
            if j == len(candidates):
                j = start
            found.append(candidates[j] if j < len(candidates) else len(found))
            j += 1
        indexes[key] = found
    for key, raw, items in lists[:5]:       # the loader sorts the board's lists (Board.canonical)
        if key in indexes and isinstance(raw, list):
            indexes[key] = board_indexes(key.split("/")[1], raw, indexes[key])
    return Places(indexes)


def _raw_key(key: str, raw: JsonObject) -> object:
    if key == "robots":
        return raw.get("name")
    if key == "checks":
        return raw.get("round"), raw.get("robot")
    return raw.get("x"), raw.get("y")


def _model_key(key: str, item: Any) -> object:       # an element of the list `key`
    if key == "robots":
        return item.name
    if key == "checks":
        return item.round, item.robot
    return item.x, item.y


# ---------------------------------------------------------------- helpers

def _error(code: str, message: str, where: str, x: int | None = None, y: int | None = None) -> Problem:
    return Problem(ERROR, code, message, where, x, y)


def _warning(code: str, message: str, where: str, x: int | None = None, y: int | None = None) -> Problem:
    return Problem(WARNING, code, message, where, x, y)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _dock_names(scenario: Scenario) -> str:
    n = len(scenario.docks)
    return "no docks" if n == 0 else f"only {_plural(n, 'dock')}"


def _robot_starts(scenario: Scenario) -> list[tuple[int, int, int] | None]:
    """Per robot, its start square and its index in the model, or None when
    it has no start (its dock does not exist)."""
    starts = []
    for i in range(len(scenario.robots)):
        start = scenario.robot_start(i)
        starts.append(None if start is None else (start[0], start[1], i))
    return starts


CourseCheck = Callable[[Scenario, Places], list[Problem]]


# ---------------------------------------------------------------- structure (models built in memory)

def outside_board(s: Scenario, at: Places) -> list[Problem]:
    """E201: an element off the board (the loader drops these from files;
    robots starting off the board it keeps, and reports alike)."""
    b = s.board
    out = []
    located = [("tile", "board/tiles", b.tiles),
               *((e.name, f"board/{e.list}", getattr(b, e.list)) for e in EDGE_LIST),
               ("level", "board/levels", b.levels),
               ("flag", "flags", s.flags), ("dock", "docks", s.docks)]
    for what, key, items in located:
        for k, item in enumerate(items):
            if not b.in_bounds(item.x, item.y):
                out.append(_error("E201", f"the {what} at ({item.x}, {item.y}) lies outside the "
                                          f"{b.width}x{b.height} board; move it onto the board or "
                                          f"remove it", at.pointer(key, k), item.x, item.y))
    for k, robot in enumerate(s.robots):
        if robot.at is not None and not b.in_bounds(robot.at.x, robot.at.y):
            out.append(_error("E201", f"robot {robot.name!r} starts at ({robot.at.x}, {robot.at.y}), "
                                      f"outside the {b.width}x{b.height} board; give it a square "
                                      f"on the board", at.pointer("robots", k, "at"),
                              robot.at.x, robot.at.y))
    return out


def two_on_a_square(s: Scenario, at: Places) -> list[Problem]:
    """E202-E205: two tiles, flags, docks or pushers on one square."""
    out = []
    for code, what, key, items in (("E202", "tile", "board/tiles", s.board.tiles),
                                   ("E203", "flag", "flags", s.flags),
                                   ("E204", "dock", "docks", s.docks),
                                   *(("E205", e.name, f"board/{e.list}", getattr(s.board, e.list))
                                     for e in EDGE_LIST if e.one_per_square),
                                   ("E207", "level", "board/levels", s.board.levels)):
        first: dict[tuple[int, int], int] = {}
        for k, item in enumerate(items):
            square = (item.x, item.y)
            if square in first:
                out.append(_error(code, f"two {what}s on square ({item.x}, {item.y}); the first is at "
                                        f"{at.pointer(key, first[square])}; remove one",
                                  at.pointer(key, k), item.x, item.y))
            else:
                first[square] = k
    return out


# ---------------------------------------------------------------- errors

def _markers_on(s: Scenario, at: Places, key: str, kinds: AbstractSet[str] | Mapping[str, str]
                ) -> Iterator[tuple[int, Flag | Dock, str, str]]:
    """Each flag or dock (`key` "flags" or "docks") on a square of one of
    `kinds`: its index, the marker, the square's type, and words saying so."""
    for k, m in enumerate(getattr(s, key)):
        kind = s.board.type_at(m.x, m.y)
        if kind in kinds:
            yield k, m, kind, f"{key[:-1]} {at.number(key, k)} at ({m.x}, {m.y}) stands on a {kind}"


def flags_on_pits(s: Scenario, at: Places) -> list[Problem]:
    """E301: a flag on a pit or drain can never be touched."""
    return [_error("E301", f"{text}; move it or change the square", at.pointer("flags", k), f.x, f.y)
            for k, f, kind, text in _markers_on(s, at, "flags", DEADLY_TYPES)]


def docks_on_pits(s: Scenario, at: Places) -> list[Problem]:
    """E302: a robot would start its race in a pit or drain."""
    return [_error("E302", f"{text}; move it or change the square", at.pointer("docks", k), d.x, d.y)
            for k, d, kind, text in _markers_on(s, at, "docks", DEADLY_TYPES)]


def robots_on_pits(s: Scenario, at: Places) -> list[Problem]:
    """E303: a robot placed with `at` on a pit or drain (one on a dock in a
    pit is reported once, for the dock: E302)."""
    out = []
    for k, robot in enumerate(s.robots):
        if robot.at is None:
            continue
        kind = s.board.type_at(robot.at.x, robot.at.y)
        if kind in DEADLY_TYPES:
            out.append(_error("E303", f"robot {robot.name!r} starts at ({robot.at.x}, {robot.at.y}) "
                                      f"on a {kind}; give it another square or change the square",
                              at.pointer("robots", k, "at"), robot.at.x, robot.at.y))
    return out


def robots_on_robots(s: Scenario, at: Places) -> list[Problem]:
    """E304: two robots start on one square (two `at`s, one dock named
    twice, or an `at` on another robot's dock)."""
    out = []
    first: dict[tuple[int, int], int] = {}
    for start in _robot_starts(s):
        if start is None or not s.board.in_bounds(start[0], start[1]):
            continue
        x, y, k = start
        if (x, y) in first:
            robot, other = s.robots[k], s.robots[first[(x, y)]]
            out.append(_error("E304", f"robot {robot.name!r} starts at ({x}, {y}), where robot "
                                      f"{other.name!r} starts too; give one of them another dock "
                                      f"or square", at.pointer("robots", k), x, y))
        else:
            first[(x, y)] = k
    return out


def missing_docks(s: Scenario, at: Places) -> list[Problem]:
    """E305: a robot's dock does not exist: the one it names, or (without
    `dock` or `at`) the one its place in the list gives it, unless E306
    already says there are too few docks."""
    out = []
    count = len(s.docks)
    too_few = sum(1 for r in s.robots if r.at is None) > count
    for k, robot in enumerate(s.robots):
        if robot.at is not None:
            continue
        if robot.dock is not None:
            if not 1 <= robot.dock <= count:
                valid = f"a dock from 1 to {count}" if count else "an 'at' square"
                out.append(_error("E305", f"robot {robot.name!r} names dock {robot.dock}, but the "
                                          f"course has {_dock_names(s)}; give it {valid} or add docks",
                                  at.pointer("robots", k, "dock")))
        elif k + 1 > count and not too_few:
            out.append(_error("E305", f"robot {robot.name!r} takes dock {k + 1} (its place in the "
                                      f"list), but the course has {_dock_names(s)}; give it a free "
                                      f"dock or an 'at' square, or add docks",
                              at.pointer("robots", k)))
    return out


def too_many_robots(s: Scenario, at: Places) -> list[Problem]:
    """E306: more robots start on docks (no `at`) than there are docks."""
    docked = sum(1 for r in s.robots if r.at is None)
    if docked <= len(s.docks):
        return []
    return [_error("E306", f"{docked} robots start on docks, but the course has {_dock_names(s)}; "
                           f"add docks or give some robots an 'at' square", "/robots")]


def duplicate_robot_names(s: Scenario, at: Places) -> list[Problem]:
    """E307: checks and results name robots, so names must be unique."""
    out = []
    first: dict[str, int] = {}
    for k, robot in enumerate(s.robots):
        if robot.name in first:
            out.append(_error("E307", f"robots {at.number('robots', first[robot.name])} and "
                                      f"{at.number('robots', k)} are both named {robot.name!r}; "
                                      f"give each robot its own name",
                              at.pointer("robots", k, "name")))
        else:
            first[robot.name] = k
    return out


def _program_cards(s: Scenario) -> Iterator[tuple[RobotSpec, Card, tuple[int, int, int, bool]]]:
    """Each card of each scripted program, with its place for _card_place
    (worded only for the cards a check reports: programs can be long)."""
    for k, robot in enumerate(s.robots):
        for r, entry in enumerate(robot.program):
            for c, register in enumerate(entry.cards):
                for card in (register.card, register.pair):
                    if card is not None:
                        yield robot, card, (k, r, c, entry.as_object)


def _card_place(at: Places, place: tuple[int, int, int, bool]) -> tuple[str, str]:
    """The words ("round 2, register 3") and the pointer of a card's place."""
    k, r, c, as_object = place
    where = (at.pointer("robots", k, "program", r, "cards", c) if as_object
             else at.pointer("robots", k, "program", r, c))
    return f"round {r + 1}, register {c + 1}", where


def unknown_cards(s: Scenario, at: Places) -> list[Problem]:
    """E308: a card kind the deck does not have (the schema rejects these in
    files; this catches models built in memory)."""
    out = []
    for robot, card, place in _program_cards(s):
        if card.kind not in CARD_KINDS:
            when, where = _card_place(at, place)
            out.append(_error("E308", f"robot {robot.name!r} plays an unknown card "
                                      f"{card.kind!r} in {when}; use one of "
                                      f"{', '.join(CARD_KINDS)}", where))
    return out


def bad_priorities(s: Scenario, at: Places) -> list[Problem]:
    """E309: a priority outside 1-999."""
    out = []
    for robot, card, place in _program_cards(s):
        if card.priority is not None and not 1 <= card.priority <= 999:
            when, where = _card_place(at, place)
            out.append(_error("E309", f"robot {robot.name!r} plays {card.kind} with priority "
                                      f"{card.priority} in {when}; priorities go from 1 to 999",
                              where))
    return out


def unknown_bots(s: Scenario, at: Places) -> list[Problem]:
    """E317: a bot name no bot answers to (the race would stop on it)."""
    return [_error("E317", f"robot {robot.name!r} has bot {robot.bot!r}, which is not a bot; "
                           f"use one of {', '.join(sorted(BOT_NAMES))}", at.pointer("robots", k, "bot"))
            for k, robot in enumerate(s.robots) if robot.bot is not None and robot.bot not in BOT_NAMES]


def unknown_options(s: Scenario, at: Places) -> list[Problem]:
    """E318: a starting option card the game does not have (the schema
    rejects these in files; this catches models built in memory)."""
    out: list[Problem] = []
    for k, robot in enumerate(s.robots):
        if isinstance(robot.options, tuple):
            out.extend(_error("E318", f"robot {robot.name!r} starts with {card!r}, which is not an "
                                      f"option card; use an id such as mini-howitzer",
                              at.pointer("robots", k, "options", i))
                       for i, card in enumerate(robot.options) if card not in BY_ID)
    return out


def options_held_twice(s: Scenario, at: Places) -> list[Problem]:
    """E313: one option card listed for two robots (docs/format.md, `robots`; the
    schema rejects an id listed twice for one robot)."""
    holder: dict[str, str] = {}
    out = []
    for k, robot in enumerate(s.robots):
        if not isinstance(robot.options, tuple):
            continue
        for i, card in enumerate(robot.options):
            first = holder.setdefault(card, robot.name)
            if first != robot.name:
                out.append(_error("E313", f"robot {robot.name!r} holds {card_name(card)}, which "
                                          f"robot {first!r} already holds; each option card exists "
                                          f"once", at.pointer("robots", k, "options", i)))
    return out


def option_checks_when_counted(s: Scenario, at: Places) -> list[Problem]:
    """E314: an option_cards check on a course whose options are only counted."""
    if s.rules.options != "counted":
        return []
    return [_error("E314", f"check {at.number('checks', k)} compares option_cards, but this "
                           f"course's options are only counted; set rules.options to "
                           f'"played" or compare "options"',
                   at.pointer("checks", k, "option_cards"))
            for k, check in enumerate(s.checks) if "option_cards" in check.expected]


def _option_uses(s: Scenario, at: Places) -> Iterator[tuple[int, RobotSpec, str, str, str]]:
    """Each option a robot's script uses: (robot index, robot, option id, when, pointer)."""
    for k, robot in enumerate(s.robots):
        for r, entry in enumerate(robot.program):
            base = ("robots", k, "program", r)
            when = f"round {r + 1}"
            for c, register in enumerate(entry.cards):
                for used in (register.use, register.weapon):
                    if used is not None:
                        yield k, robot, used, *_card_place(at, (k, r, c, entry.as_object))
            for key, used, present in (
                    ("use", "gyroscopic-stabilizer", "gyroscopic-stabilizer" in entry.use),
                    ("abort_at", "abort-switch", entry.abort_at is not None),
                    ("recompile", "recompile", entry.recompile),
                    ("conditional", "conditional-program", entry.conditional is not None),
                    ("flywheel", "flywheel", entry.flywheel is not None),
                    ("take_flywheel", "flywheel", entry.take_flywheel)):
                if present:
                    yield k, robot, used, when, at.pointer(*base, key)


def option_uses_without_cards(s: Scenario, at: Places) -> list[Problem]:
    """W410: a scripted option use the robot cannot make: options are only
    counted, or it starts with a list of cards (or none) without that one.
    Dealt cards are engine-defined (docs/rules.md 10.2): a robot dealt cards by
    count is not warned about; a card gained during the race may also make
    the use possible, hence a warning, not an error."""
    out = []
    for k, robot, used, when, where in _option_uses(s, at):
        name = BY_ID[used].name
        if s.rules.options == "counted":
            out.append(_warning("W410", f"robot {robot.name!r} uses {name} in {when}, but "
                                        f"options are only counted on this course "
                                        f'(rules.options is "counted"); the use is ignored',
                                where))
            continue
        elif robot.option_count(s.rules) == 0:
            why = "it starts with no option cards"
        elif isinstance(robot.options, tuple) and used not in robot.options:
            why = f"its cards are {', '.join(card_name(c) for c in robot.options)}"
        else:
            continue
        out.append(_warning("W410", f"robot {robot.name!r} uses {name} in {when}, but {why}; "
                                    f"the use is ignored unless it gains the card", where))
    return out


def flags_beyond_the_course(s: Scenario, at: Places) -> list[Problem]:
    """E315: a robot's starting `flags` (flags touched) above the course's flags."""
    count = len(s.flags)
    return [_error("E315", f"robot {robot.name!r} starts having touched {robot.flags} flags, but the "
                           f"course has {_plural(count, 'flag')}; set its flags to at most {count}",
                   at.pointer("robots", k, "flags"))
            for k, robot in enumerate(s.robots) if robot.flags > count]


def two_starting_deals(s: Scenario, at: Places) -> list[Problem]:
    """E330: a draft of starting options (docs/rules.md 12.6) and a plain deal
    of them are two ways to start; the rules take one."""
    r = s.rules
    if not (r.start_option_choice and r.start_options):
        return []
    return [_error("E330", f"start_option_choice {r.start_option_choice} (keep one of a draft) "
                           f"and start_options {r.start_options} both deal the starting options; "
                           "set one of them to 0", "/rules/start_option_choice")]


def power_downs_not_allowed(s: Scenario, at: Places) -> list[Problem]:
    """E331: a robot that powers down on a course whose rules.power_down is
    false (docs/rules.md 12.4): a scripted announcement, or a start powered down."""
    if s.rules.power_down:
        return []
    fix = "remove it, or allow powering down (rules.power_down)"
    out = []
    for k, robot in enumerate(s.robots):
        if robot.powered_down:
            out.append(_error("E331", f"robot {robot.name!r} starts powered down, but this course's "
                                      f"robots may not power down; {fix}",
                              at.pointer("robots", k, "powered_down")))
        for n, round_ in enumerate(robot.program):
            if round_.power_down:
                out.append(_error("E331", f"robot {robot.name!r} announces a power down in round "
                                          f"{n + 1}, but this course's robots may not power down; "
                                          f"{fix}",
                                  at.pointer("robots", k, "program", n, "power_down")))
    return out


def start_damage_destroys(s: Scenario, at: Places) -> list[Problem]:
    """E332: robots would start with the damage that destroys them (docs/rules.md 12.3)."""
    return _damage_destroys(s, "start_damage", "start", _error, "E332",
                            f"make start_damage at most {s.rules.destroy_at_damage - 1}")


def _damage_destroys(s: Scenario, key: str, when: str, problem: Callable[..., Problem],
                     code: str, fix: str) -> list[Problem]:
    """The problem of robots that would `when` with the rule `key`'s damage,
    enough to destroy them; none otherwise."""
    value, limit = getattr(s.rules, key), s.rules.destroy_at_damage
    if value < limit:
        return []
    return [problem(code, f"robots {when} with {value} damage ({key}), but {limit} damage "
                          f"destroys them (destroy_at_damage); {fix}", f"/rules/{key}")]


def checks_on_unknown_robots(s: Scenario, at: Places) -> list[Problem]:
    """E310: a check about a robot the course does not have."""
    names = [r.name for r in s.robots]
    out = []
    for k, check in enumerate(s.checks):
        if check.robot not in names:
            fix = (f"use one of {', '.join(repr(n) for n in names)}" if names
                   else "add the robot under 'robots'")
            out.append(_error("E310", f"check {at.number('checks', k)} names robot {check.robot!r}, "
                                      f"which the course does not have; {fix}",
                              at.pointer("checks", k, "robot")))
    return out


def checks_at_bad_moments(s: Scenario, at: Places) -> list[Problem]:
    """E311: a check's register outside 1-5, or its round below 1."""
    out = []
    for k, check in enumerate(s.checks):
        n = at.number("checks", k)
        if check.register is not None and not 1 <= check.register <= 5:
            out.append(_error("E311", f"check {n} names register {check.register}; registers go "
                                      f"from 1 to 5 (leave it out for the end of the round)",
                              at.pointer("checks", k, "register")))
        if check.round < 1:
            out.append(_error("E311", f"check {n} names round {check.round}; rounds start at 1",
                              at.pointer("checks", k, "round")))
    return out


def unreachable_flags(s: Scenario, at: Places | None = None) -> list[Problem]:
    """E312: flag 1 cannot be reached from some dock, or flag n+1 from flag n.
    W431: under ``superbot``, flag 1 cannot be reached from a dock other than
    dock 1.

    Reachability is ``reach.reachable_from`` under the course's own rules
    (the teleporter's Back Up distance); squares already reported (off
    the board, or a flag or dock on a pit) are left out so that each mistake
    is reported once. Two special rules widen what counts (docs/rules.md 12):
    under ``superbot`` only the SuperBot, from dock 1, must reach flag 1 (a
    robot on another dock touches flags only once it has taken the title,
    wherever it stands then); under ``board_turns_on_flag`` flag n+1 counts
    as reached when it is in some way the boards under flags 1 to n can
    have turned (those flags have been touched, each with its coin)."""
    at = at or Places()
    board = s.board

    def usable(x: int, y: int) -> bool:
        return board.in_bounds(x, y) and board.type_at(x, y) not in DEADLY_TYPES

    reached: dict[tuple[tuple[int, int], ...], AbstractSet[tuple[int, int]]] = {}
    # where a robot can touch each flag: where it stands, or with moving
    # flags every square it ends a register on (docs/rules.md 12.1)
    if s.rules.flags_move:
        course = compile_course(board)
        places = [tuple(course.xy[q] for q in flag_path(course, course.square(f.x, f.y)))
                  for f in s.flags]
    else:
        places = [((f.x, f.y),) for f in s.flags]

    def reach_on(b: Board, sources: tuple[tuple[int, int], ...]) -> AbstractSet[tuple[int, int]]:
        if b is not board:                  # a turned board: made once, asked once
            return reach.reachable_from(b, sources, s.rules)
        if sources not in reached:
            reached[sources] = reach.reachable_from(board, sources, s.rules)
        return reached[sources]

    out = []
    legs: list[tuple[str, Flag | Dock, int, tuple[tuple[int, int], ...]]] = [
        (f"dock {at.number('docks', k)}", d, 0, ((d.x, d.y),)) for k, d in enumerate(s.docks)]
    legs += [(f"flag {at.number('flags', k)}", f, k + 1, places[k])
             for k, f in enumerate(s.flags[:-1])]
    for leg, (source_name, source, k, sources) in enumerate(legs):
        if not s.flags:
            break
        target = s.flags[k]
        if not (usable(source.x, source.y) and usable(target.x, target.y)):
            continue
        if any(not reach_on(b, sources).isdisjoint(places[k]) for b in _turned_boards(s, k)):
            continue
        belt = _belt_carrying_off(board, target, reach_on(board, sources), s.rules.flags_move)
        why = (f"robots get next to it, but the {belt} it stands on carries them off before "
               f"flags count and no belt or pusher leaves one there (flags do not move with "
               f"belts); move the flag off the {belt}" if belt else
               "walls, ledges, pits or board elements close it off; open a way or move one "
               "of them")
        message = (f"flag {at.number('flags', k)} at ({target.x}, {target.y}) cannot be reached "
                   f"from {source_name} at ({source.x}, {source.y}): {why}")
        if s.rules.superbot and 0 < leg < len(s.docks):
            out.append(_warning("W431", message + "; under superbot only the SuperBot touches "
                                "flags, so this matters only once this dock's robot takes the "
                                "title", at.pointer("flags", k), target.x, target.y))
        else:
            out.append(_error("E312", message, at.pointer("flags", k), target.x, target.y))
    return out


def _turned_boards(s: Scenario, k: int) -> Iterator[Board]:
    """The course's board as it can be when robots head for flag k+1 (index
    k): as laid out, then, under ``board_turns_on_flag``, with the square
    factory boards under flags 1..k turned every other way they can be,
    fewest turns first (each such flag has been touched, and each touch
    flips a coin). Made one at a time: most flags are reached on the first."""
    yield s.board
    if not (s.rules.board_turns_on_flag and k):
        return
    parts = []
    for flag in s.flags[:k]:
        part = s.board_under(flag.x, flag.y)
        if part is not None and part.turns_in_place and part not in parts:
            parts.append(part)
    turns = sorted(itertools.product(range(4), repeat=len(parts)), key=sum)
    for quarters in turns[1:]:
        b = s.board
        for part, q in zip(parts, quarters):
            if q:
                b = turn_part(b, part, q)
        yield b


def _belt_carrying_off(board: Board, flag: Flag, reached: AbstractSet[tuple[int, int]],
                       flags_move: bool = False) -> str | None:
    """The type of the belt under an unreachable flag when the way to it is
    open (a reached square next to it, with no wall or ledge between) and the
    belt carries a robot on it away (no wall ahead): the belt, not a closed
    way, keeps robots from stopping there. None otherwise, and for a conveyor
    when flags move (the flag rides it, docs/rules.md 12.1)."""
    tile = board.tile_at(flag.x, flag.y)
    if tile is None or tile.type not in BELT_TYPES or tile.dir not in INDEX \
            or board.blocked(flag.x, flag.y, INDEX[tile.dir]) \
            or (flags_move and tile.type == "conveyor"):
        return None
    level = board.level_at(flag.x, flag.y)
    for d in range(4):
        x, y = flag.x + DX[d], flag.y + DY[d]
        if ((x, y) in reached and not board.blocked(flag.x, flag.y, d)
                and board.level_at(x, y) == level):
            return tile.type
    return None


def mismatched_ramps(s: Scenario, at: Places) -> list[Problem]:
    """E316: a ramp joins the square behind it, one level lower, to the square
    ahead, at its own level (docs/format.md, "Levels, ramps and ledges")."""
    b = s.board
    out = []
    for k, tile in enumerate(b.tiles):
        if tile.type != "ramp" or tile.dir not in INDEX or not b.in_bounds(tile.x, tile.y):
            continue
        d = INDEX[tile.dir]
        top = b.level_at(tile.x, tile.y)
        behind = (tile.x - DX[d], tile.y - DY[d])
        ahead = (tile.x + DX[d], tile.y + DY[d])
        wrong = []
        if not b.in_bounds(*behind) or not b.in_bounds(*ahead):
            wrong.append("both the square behind it and the one ahead must be on the board")
        else:
            if top == 0:        # no square lies a level below the ground
                wrong.append("it stands on the ground (level 0), with no lower level behind it")
            elif b.level_at(*behind) != top - 1:
                wrong.append(f"the square behind it {behind} is at level {b.level_at(*behind)}, "
                             f"not {top - 1}")
            if b.level_at(*ahead) != top:
                wrong.append(f"the square ahead {ahead} is at level {b.level_at(*ahead)}, "
                             f"not {top}")
        if wrong:
            to = f" to level {top}" if top else ""
            out.append(_error("E316", f"the ramp at ({tile.x}, {tile.y}) leads up "
                                      f"{COMPASS[tile.dir]}{to}, but "
                                      f"{'; '.join(wrong)}; a ramp stands on the upper of two "
                                      f"levels, one above the square behind it: "
                                      f"{_ramp_fix(b, tile.x, tile.y, d)}",
                              at.pointer("board/tiles", k), tile.x, tile.y))
    return out


def _ramp_fix(b: Board, x: int, y: int, d: int) -> str:
    """What to do about a mismatched ramp, in words: the fewest level changes
    that make it match (keeping the level of the ramp, of the square behind
    it or of the one ahead), and a direction it would match as it stands."""
    turns = [NAMES[e] for e in range(4) if e != d and _ramp_fits(b, x, y, e)]
    turn = (f"turn the ramp to lead up {COMPASS[turns[0]]}" if turns else "turn the ramp")
    behind, ahead = (x - DX[d], y - DY[d]), (x + DX[d], y + DY[d])
    if not b.in_bounds(*behind) or not b.in_bounds(*ahead):
        return f"{turn}, or move it away from the board's edge"
    top, low, high = b.level_at(x, y), b.level_at(*behind), b.level_at(*ahead)
    fixes = []
    for ramp_level in (top, low + 1, high):         # keep the ramp's, the lower's, the upper's
        if 1 <= ramp_level <= MAX_LEVEL:
            wanted = {(x, y): ramp_level, behind: ramp_level - 1, ahead: ramp_level}
            fixes.append({sq: v for sq, v in wanted.items() if b.level_at(*sq) != v})
    steps = [f"{'raise' if v > b.level_at(*sq) else 'lower'} ({sq[0]}, {sq[1]}) to {v}"
             for sq, v in min(fixes, key=len).items()]
    return f"{' and '.join(steps)}, or {turn}"


def _ramp_fits(b: Board, x: int, y: int, d: int) -> bool:
    """Whether a ramp on (x, y) leading up towards d matches the levels around it."""
    behind, ahead = (x - DX[d], y - DY[d]), (x + DX[d], y + DY[d])
    top = b.level_at(x, y)
    return (b.in_bounds(*behind) and b.in_bounds(*ahead) and b.level_at(*behind) == top - 1
            and b.level_at(*ahead) == top)


# ---------------------------------------------------------------- warnings

def zero_levels(s: Scenario, at: Places) -> list[Problem]:
    """W412: level 0 is the default and need not be listed."""
    return [_warning("W412", f"square ({v.x}, {v.y}) is listed at level 0, the default; "
                             f"remove the entry", at.pointer("board/levels", k), v.x, v.y)
            for k, v in enumerate(s.board.levels) if v.level == 0]


def _level_changes(b: Board, x: int, y: int, d: int) -> bool:
    """Whether the edge on side d of (x, y) leads to a square of another level."""
    nx, ny = x + DX[d], y + DY[d]
    return b.in_bounds(nx, ny) and b.level_at(nx, ny) != b.level_at(x, y)


def docks_facing_ledges(s: Scenario, at: Places) -> list[Problem]:
    """W413: a dock whose first step forward is a fall down a ledge."""
    b = s.board
    out = []
    for k, dock in enumerate(s.docks):
        if not b.in_bounds(dock.x, dock.y) or dock.facing not in INDEX:
            continue
        d = INDEX[dock.facing]
        nx, ny = dock.x + DX[d], dock.y + DY[d]
        if (_level_changes(b, dock.x, dock.y, d) and not b.blocked(dock.x, dock.y, d)
                and b.level_at(nx, ny) < b.level_at(dock.x, dock.y)
                and not _ramp_down(b, dock.x, dock.y, d)):
            out.append(_warning("W413", f"dock {at.number('docks', k)} at ({dock.x}, {dock.y}) "
                                        f"faces {COMPASS[dock.facing]} over a ledge, so a robot's "
                                        f"first move forward is a fall; turn the dock or move it",
                                at.pointer("docks", k), dock.x, dock.y))
    return out


def _ramp_down(b: Board, x: int, y: int, d: int) -> bool:
    """Whether stepping towards d from (x, y) goes down the ramp standing there."""
    tile = b.tile_at(x, y)
    return tile is not None and tile.type == "ramp" and tile.dir == NAMES[opposite(d)]


def lasers_cut_by_ledges(s: Scenario, at: Places) -> list[Problem]:
    """W414: a laser on the edge of a level change fires into the other level
    at once, so its beam stops on its own square (docs/rules.md 11.5)."""
    b = s.board
    out = []
    for k, laser in enumerate(b.lasers):
        if not b.in_bounds(laser.x, laser.y) or laser.dir not in INDEX or _faces_wall(b, laser):
            continue
        if _level_changes(b, laser.x, laser.y, INDEX[laser.dir]):
            out.append(_warning("W414", f"the laser at ({laser.x}, {laser.y}) fires "
                                        f"{COMPASS[laser.dir]} into a square of another level, "
                                        f"so its beam stops on its own square; turn or move it",
                                at.pointer("board/lasers", k), laser.x, laser.y))
    return out


def mounted_on_ramp_sides(s: Scenario, at: Places) -> list[Problem]:
    """W415: a laser or pusher hangs on a wall on a ramp's low side (docs/rules.md 11.3)."""
    b = s.board
    low_sides = set()
    for tile in b.tiles:
        if tile.type == "ramp" and tile.dir in INDEX:
            low_sides.add(edge_key(tile.x, tile.y, NAMES[opposite(INDEX[tile.dir])]))
    out = []
    for e in EDGE_LIST:
        for k, item in enumerate(getattr(b, e.list) if e.mounted else ()):
            if item.dir not in INDEX:
                continue
            mount = edge_key(item.x, item.y, NAMES[opposite(INDEX[item.dir])])
            if mount in low_sides:
                out.append(_warning("W415", f"the {e.name} at ({item.x}, {item.y}) hangs on a wall "
                                            f"across a ramp's low side, which closes the ramp; "
                                            f"move the {e.name}", at.pointer(f"board/{e.list}", k),
                                    item.x, item.y))
    return out


def walls_listed_twice(s: Scenario, at: Places) -> list[Problem]:
    """W401: one edge listed twice, from both sides or twice the same."""
    out = []
    first: dict[tuple[int, int, str], int] = {}
    walls = s.board.walls
    for k in sorted(range(len(walls)), key=lambda k: at.index("board/walls", k)):   # file order
        wall = walls[k]
        if wall.side not in INDEX:
            continue
        key = edge_key(wall.x, wall.y, wall.side)
        if key not in first:
            first[key] = k
            continue
        other = walls[first[key]]
        if (other.x, other.y, other.side) == (wall.x, wall.y, wall.side):
            text = f"the wall on the {COMPASS[wall.side]} side of ({wall.x}, {wall.y}) is listed twice"
        else:
            text = (f"the wall on the {COMPASS[wall.side]} side of ({wall.x}, {wall.y}) is the one "
                    f"on the {COMPASS[other.side]} side of ({other.x}, {other.y}), listed already")
        out.append(_warning("W401", text + "; list each wall once", at.pointer("board/walls", k),
                            wall.x, wall.y))
    return out


def _faces_wall(b: Board, item: Laser | Pusher) -> bool:
    """Whether an edge element on the board points into a wall on its own square."""
    return (b.in_bounds(item.x, item.y) and item.dir in INDEX
            and b.blocked(item.x, item.y, INDEX[item.dir]))


def facing_walls(s: Scenario, at: Places) -> list[Problem]:
    """W402, W404: a laser or pusher facing a wall on its own square, which
    stops the beam at once or every push (the element table's facing_wall)."""
    b = s.board
    out = []
    for e in EDGE_LIST:
        if e.facing_wall is None:
            continue
        code, what_it_does = e.facing_wall
        for k, item in enumerate(getattr(b, e.list)):
            if _faces_wall(b, item):
                out.append(_warning(code, f"the {e.name} at ({item.x}, {item.y}) "
                                          + what_it_does.format(dir=COMPASS[item.dir]),
                                    at.pointer(f"board/{e.list}", k), item.x, item.y))
    return out


def doubled_lasers(s: Scenario, at: Places) -> list[Problem]:
    """W403: two lasers on one square firing the same way."""
    out = []
    first: dict[tuple[int, int, str], int] = {}
    for k, laser in enumerate(s.board.lasers):
        key = (laser.x, laser.y, laser.dir)
        if key in first:
            out.append(_warning("W403", f"two lasers at ({laser.x}, {laser.y}) both fire "
                                        f"{COMPASS.get(laser.dir, laser.dir)}; make it one laser "
                                        f"with more beams", at.pointer("board/lasers", k),
                                laser.x, laser.y))
        else:
            first[key] = k
    return out


def belts_into_nothing(s: Scenario, at: Places) -> list[Problem]:
    """W405: a conveyor or current pointing off the board (or onto a void square), into a wall or up a
    ledge (or a ramp's low side), which stops it as a wall would."""
    b = s.board
    out = []
    for k, tile in enumerate(b.tiles):
        if tile.type not in BELT_TYPES or tile.dir not in INDEX:
            continue
        if not b.in_bounds(tile.x, tile.y):
            continue
        d = INDEX[tile.dir]
        if off_table(b, tile.x + DX[d], tile.y + DY[d]):
            text = (f"points {COMPASS[tile.dir]} off the board: it carries the robots on it "
                    f"off the board, which destroys them (accept the warning where the board "
                    f"is printed so; turn the belt where not)")
        elif b.blocked(tile.x, tile.y, d):
            text = (f"points {COMPASS[tile.dir]} into a wall, so it never moves a robot; turn it "
                    f"or remove the wall")
        elif (rise := b.level_at(tile.x + DX[d], tile.y + DY[d])) > b.level_at(tile.x, tile.y):
            # up a ledge, or up a ramp's low side: a wall for belts and currents
            # (docs/rules.md 11.1, 11.3)
            text = (f"points {COMPASS[tile.dir]} up to level {rise}, which stops robots as a wall "
                    f"would, so it never moves a robot; turn it or change the levels")
        else:
            continue
        out.append(_warning("W405", f"the {tile.type} at ({tile.x}, {tile.y}) {text}",
                            at.pointer("board/tiles", k), tile.x, tile.y))
    return out


def flags_on_moving_squares(s: Scenario, at: Places) -> list[Problem]:
    """W406: a flag on a conveyor, gear or crusher (not a conveyor when flags
    ride them, docs/rules.md 12.1)."""
    kinds = {k: why for k, why in FLAG_WARN_TYPES.items()
             if not (s.rules.flags_move and k == "conveyor")}
    return [_warning("W406", f"{text}: {kinds[kind]}; move it or change the square",
                     at.pointer("flags", k), f.x, f.y)
            for k, f, kind, text in _markers_on(s, at, "flags", kinds)]


def docks_on_moving_squares(s: Scenario, at: Places) -> list[Problem]:
    """W407: a dock on a conveyor, gear or crusher."""
    return [_warning("W407", f"{text}: {DOCK_WARN_TYPES[kind]}; move it or change the square",
                     at.pointer("docks", k), d.x, d.y)
            for k, d, kind, text in _markers_on(s, at, "docks", DOCK_WARN_TYPES)]


def docks_in_laser_beams(s: Scenario, at: Places) -> list[Problem]:
    """W408: a dock in a board laser's beam (engine/rules/beams.py: from the laser's
    square up to a wall or the edge; robots do not matter here). The first
    laser in the board's list whose beam crosses the dock is named."""
    b = s.board
    first: dict[int, Laser] = {}
    for beam in board_beams(b):
        for square in beam.squares:
            first.setdefault(square, beam.laser)
    out = []
    for k, dock in enumerate(s.docks):
        hit = first.get(b.index(dock.x, dock.y)) if b.in_bounds(dock.x, dock.y) else None
        if hit is not None:
            out.append(_warning("W408", f"dock {at.number('docks', k)} at ({dock.x}, {dock.y}) lies in "
                                        f"the beam of the laser at ({hit.x}, {hit.y}), so robots are "
                                        f"shot where they start; move the dock or the laser",
                                at.pointer("docks", k), dock.x, dock.y))
    return out


def respawn_destroys(s: Scenario, at: Places) -> list[Problem]:
    """W411: robots would re-enter with the damage that destroys them."""
    return _damage_destroys(s, "respawn_damage", "re-enter", _warning, "W411",
                            "make respawn_damage smaller")


def stale_card(s: Scenario, at: Places) -> list[Problem]:
    """W416: the stored card's hash is not the course's: what affects play changed."""
    from rallyforge.engine.format.stored_course_card import stale
    if not stale(s):
        return []
    return [_warning("W416", "the course card kept in the file was measured before the board, "
                             "flags, docks or rules changed; measure it again (rallyforge card "
                             "--store) or remove it", "/card")]


def factory_boards(s: Scenario, at: Places) -> list[Problem]:
    """E335, E336: the factory boards of ``boards`` lie inside the board and
    do not overlap (a square belongs to one board at most)."""
    out = []
    b = s.board
    for k, fb in enumerate(s.boards):
        if fb.x + fb.width > b.width or fb.y + fb.height > b.height:
            out.append(_error("E335", f"factory board {fb.name!r} ({fb.width}x{fb.height} at "
                                      f"({fb.x}, {fb.y})) reaches outside the {b.width}x{b.height} "
                                      f"board; move or shrink it", at.pointer("boards", k),
                              fb.x, fb.y))
        for j, other in enumerate(s.boards[:k]):
            if (fb.x < other.x + other.width and other.x < fb.x + fb.width
                    and fb.y < other.y + other.height and other.y < fb.y + fb.height):
                out.append(_error("E336", f"factory boards {other.name!r} and {fb.name!r} overlap; "
                                          f"a square lies on one board at most",
                                  at.pointer("boards", k), fb.x, fb.y))
    return out


def turning_boards(s: Scenario, at: Places) -> list[Problem]:
    """E337, E338, W430: the rule board_turns_on_flag turns the factory board
    under a touched flag, so it needs ``boards``, square boards under the
    flags, and flags on boards."""
    if not s.rules.board_turns_on_flag:
        return []
    if not s.boards:
        return [_error("E337", "board_turns_on_flag turns the factory board under a touched flag, "
                               "but the course does not say which boards it is made of; list them "
                               "under boards (rallyforge assemble writes them) or turn the rule off",
                       "/rules/board_turns_on_flag")]
    out = []
    for k, flag in enumerate(s.flags):
        fb = s.board_under(flag.x, flag.y)
        n = at.number("flags", k)
        if fb is None:
            out.append(_warning("W430", f"flag {n} at ({flag.x}, {flag.y}) lies on no factory board "
                                        f"of boards, so touching it turns nothing; add its board "
                                        f"to boards", at.pointer("flags", k), flag.x, flag.y))
        elif not fb.turns_in_place:
            out.append(_error("E338", f"flag {n} at ({flag.x}, {flag.y}) lies on factory board "
                                      f"{fb.name!r}, which is {fb.width}x{fb.height}: a quarter "
                                      f"turn would not fit it in place; only square boards turn",
                              at.pointer("flags", k), flag.x, flag.y))
    return out


def few_docks(s: Scenario, at: Places) -> list[Problem]:
    """W409: fewer than 2 docks leaves room for at most one robot."""
    if len(s.docks) >= 2:
        return []
    can = "no robot" if not s.docks else "only one robot"
    return [_warning("W409", f"the course has {_dock_names(s)}, so {can} can race; add docks "
                             f"(8 is usual)", "/docks")]


def goals_beyond_the_docks(s: Scenario, at: Places) -> list[Problem]:
    """W420: goals for more robots than can race."""
    if s.goals is None or s.goals.robots is None or s.goals.robots <= len(s.docks):
        return []
    return [_warning("W420", f"the goals are for {s.goals.robots} robots but the course has "
                             f"{_dock_names(s)}; lower goals.robots or add docks",
                     "/goals/robots")]


CHECKS: list[CourseCheck] = [
    outside_board,
    two_on_a_square,
    flags_on_pits,
    docks_on_pits,
    robots_on_pits,
    robots_on_robots,
    missing_docks,
    too_many_robots,
    duplicate_robot_names,
    unknown_cards,
    bad_priorities,
    unknown_bots,
    unknown_options,
    options_held_twice,
    option_checks_when_counted,
    option_uses_without_cards,
    flags_beyond_the_course,
    two_starting_deals,
    power_downs_not_allowed,
    start_damage_destroys,
    checks_on_unknown_robots,
    checks_at_bad_moments,
    unreachable_flags,
    mismatched_ramps,
    walls_listed_twice,
    facing_walls,
    doubled_lasers,
    belts_into_nothing,
    flags_on_moving_squares,
    docks_on_moving_squares,
    docks_in_laser_beams,
    respawn_destroys,
    few_docks,
    zero_levels,
    docks_facing_ledges,
    lasers_cut_by_ledges,
    mounted_on_ramp_sides,
    stale_card,
    goals_beyond_the_docks,
    factory_boards,
    turning_boards,
    team_problems,
]
