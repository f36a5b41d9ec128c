"""The validator: every check has a fixture that triggers it and nothing else,
plus model-level cases for what the schema keeps out of files."""
from __future__ import annotations

import dataclasses
import json
import random
from collections import deque
from pathlib import Path

import pytest

from rallyforge.engine.format.loader import load_dict, load_file, read_dict
from rallyforge.engine.model.element_kinds import DEADLY_TYPES
from rallyforge.engine.model.problems import ERROR, ScenarioError, WARNING
from rallyforge.engine.model.scenario import (Board, Card, Entry, Laser, Level, Placement, ProgramRound,
                                   Pusher, RobotSpec, Tile, Wall)
from rallyforge.engine.rules import reach
from rallyforge.engine.validation.validator import (CHECKS, Places, __doc__ as VALIDATE_DOC, course_problems,
                                         flags_on_moving_squares, unreachable_flags, validate_data,
                                         validate_file)

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
SCENARIOS = sorted((ROOT / "scenarios").glob("*.json"))

# fixture -> (code, square (x, y) or JSON pointer, a fragment of the message)
INVALID = {
    "outside-board": ("E201", (8, 3), "outside the 8x8 board"),
    "robot-off-board": ("E201", (8, 2), "robot 'Beta' starts at (8, 2)"),
    "two-tiles-on-square": ("E202", (3, 3), "two tiles on square (3, 3)"),
    "two-flags-on-square": ("E203", (5, 1), "two flags on square (5, 1)"),
    "two-docks-on-square": ("E204", (1, 7), "two docks on square (1, 7)"),
    "two-pushers-on-square": ("E205", (3, 2), "two pushers on square (3, 2)"),
    "phases-out-of-order": ("E206", "/board/tiles/1/phases", "increasing order"),
    "flag-on-pit": ("E301", (2, 5), "flag 2 at (2, 5) stands on a pit; move it or change the square"),
    "flag-on-drain": ("E301", (2, 5), "flag 2 at (2, 5) stands on a drain; move it or change the "
                                      "square"),
    "dock-on-drain": ("E302", (1, 7), "dock 2 at (1, 7) stands on a drain"),
    "robot-on-pit": ("E303", (6, 6), "robot 'Beta' starts at (6, 6) on a pit"),
    "robot-on-robot": ("E304", (0, 7), "where robot 'Alpha' starts too"),
    "robot-on-unknown-dock": ("E305", "/robots/1/dock", "names dock 5, but the course has only 2 docks"),
    "too-many-robots": ("E306", "/robots", "3 robots start on docks, but the course has only 2 docks"),
    "duplicate-robot-names": ("E307", "/robots/1/name", "both named 'Alpha'"),
    "unknown-card": ("E107", "/robots/0/program/0/1", "\"jump\" is not a card"),
    "bad-priority": ("E107", "/robots/0/program/0/0", "\"move1:1000\" is not a card"),
    "robot-flags-beyond-course": ("E315", "/robots/0/flags",
                                  "robot 'Alpha' starts having touched 3 flags, but the course "
                                  "has 2 flags"),
    "two-starting-deals": ("E330", "/rules/start_option_choice",
                           "start_option_choice 3 (keep one of a draft) and start_options 1 both "
                           "deal the starting options; set one of them to 0"),
    "power-down-not-allowed": ("E331", "/robots/0/program/1/power_down",
                               "robot 'Alpha' announces a power down in round 2, but this "
                               "course's robots may not power down; remove it, or allow"),
    "start-damage-destroys": ("E332", "/rules/start_damage",
                              "robots start with 9 damage (start_damage), but 9 damage destroys "
                              "them (destroy_at_damage); make start_damage at most 8"),
    "check-unknown-robot": ("E310", "/checks/0/robot", "check 1 names robot 'Gamma'"),
    "check-bad-register": ("E105", "/checks/0/register", "must be at most 5, not 6"),
    "flag-unreachable-from-dock": ("E312", (5, 1),
                                   "flag 1 at (5, 1) cannot be reached from dock 1 at (0, 7): "
                                   "walls, ledges, pits or board elements close it off"),
    "flag-unreachable-from-flag": ("E312", (2, 5),
                                   "flag 2 at (2, 5) cannot be reached from flag 1 at (5, 1): "
                                   "walls, ledges, pits or board elements close it off"),
    "flag-unreachable-under-own-rules": ("E312", (2, 0),
                                         "flag 1 at (2, 0) cannot be reached from dock 1 at (0, 4)"),
}

WARNINGS = {
    "wall-listed-twice": ("W401", (4, 3), "the wall on the south side of (4, 3) is the one on the "
                                          "north side of (4, 4)"),
    "laser-walled-in": ("W402", (6, 2), "the laser at (6, 2) fires east into a wall"),
    "two-lasers-same-way": ("W403", (6, 2), "two lasers at (6, 2) both fire west"),
    "pusher-facing-wall": ("W404", (3, 2), "the pusher at (3, 2) pushes east into a wall"),
    "conveyor-off-board": ("W405", (7, 3), "the conveyor at (7, 3) points east off the board"),
    "current-into-wall": ("W405", (4, 4), "the current at (4, 4) points north into a wall"),
    "flag-on-gear": ("W406", (5, 1), "flag 1 at (5, 1) stands on a gear"),
    "dock-on-gear": ("W407", (1, 7), "dock 2 at (1, 7) stands on a gear"),
    "dock-in-laser-beam": ("W408", (0, 7), "dock 1 at (0, 7) lies in the beam of the laser at (0, 3)"),
    "one-dock": ("W409", "/docks", "only 1 dock"),
    "respawn-destroys": ("W411", "/rules/respawn_damage",
                         "robots re-enter with 4 damage (respawn_damage), but 4 damage destroys"),
}


def fixture(folder: str, name: str) -> Path:
    return FIXTURES / folder / f"{name}.json"


def doc(folder: str, name: str) -> dict:
    return json.loads(fixture(folder, name).read_text(encoding="utf-8"))


def located(problems, code, where):
    """The problems with `code` at `where`: a square or a pointer."""
    if isinstance(where, tuple):
        return [p for p in problems if p.code == code and (p.x, p.y) == where]
    return [p for p in problems if p.code == code and p.pointer == where and p.x is None]


def matches(code: str, pattern: str) -> bool:
    return len(code) == len(pattern) and all(c == q or q == "?" for c, q in zip(code, pattern))


# ---------------------------------------------------------------- every check, by fixture

def test_every_fixture_is_listed():
    assert {p.stem for p in (FIXTURES / "invalid").glob("*.json")} == set(INVALID)
    assert {p.stem for p in (FIXTURES / "warnings").glob("*.json")} == set(WARNINGS)


@pytest.mark.parametrize("name", sorted(INVALID))
def test_invalid_fixture_triggers_exactly_its_error(name):
    code, where, fragment = INVALID[name]
    problems = validate_file(fixture("invalid", name))
    errors = [p for p in problems if p.is_error]
    assert errors, f"{name} has no error"
    assert all(matches(p.code, code) for p in errors), [(p.code, p.message) for p in errors]
    found = [p for p in errors if (p.x, p.y) == where] if isinstance(where, tuple) \
        else [p for p in errors if p.pointer == where]
    assert found, [(p.code, p.pointer, p.x, p.y) for p in errors]
    assert any(fragment in p.message for p in found), [p.message for p in found]
    assert all(p.severity == ERROR for p in errors)
    assert not [p for p in problems if not p.is_error], "invalid fixtures carry no warnings"


@pytest.mark.parametrize("name", sorted(INVALID))
def test_file_errors_stop_loading_course_errors_do_not(name):
    """The loader rejects what breaks the format (E1xx, E2xx); a course that
    is merely wrong (E3xx) loads, so that the editor can open and fix it."""
    code = INVALID[name][0]
    if code.startswith(("E1", "E2")):
        with pytest.raises(ScenarioError) as caught:
            load_file(fixture("invalid", name))
        assert {p.code for p in caught.value.problems} == \
            {p.code for p in validate_file(fixture("invalid", name))}
    else:
        scenario = load_file(fixture("invalid", name))
        assert [p.code for p in course_problems(scenario) if p.is_error]


@pytest.mark.parametrize("name", sorted(WARNINGS))
def test_warning_fixture_triggers_exactly_its_warning(name):
    code, where, fragment = WARNINGS[name]
    problems = validate_file(fixture("warnings", name))
    assert [p for p in problems if p.is_error] == []
    assert {p.code for p in problems} == {code}
    found = located(problems, code, where)
    assert found, [(p.code, p.pointer, p.x, p.y) for p in problems]
    assert fragment in found[0].message
    assert found[0].severity == WARNING
    load_file(fixture("warnings", name))     # warnings never stop a course from loading


def test_the_clean_base_of_the_fixtures_has_no_problems():
    data = doc("warnings", "one-dock")
    data["docks"].append({"x": 1, "y": 7, "facing": "N"})
    assert validate_data(data) == []


def test_every_code_is_in_the_table():
    codes = {code for code, _, _ in [*INVALID.values(), *WARNINGS.values()]}
    for code in sorted(codes):
        if code.startswith(("E3", "W4")):
            assert code in VALIDATE_DOC
    for check in CHECKS:
        assert check.__doc__, check.__name__


def test_problems_have_pointers_and_squares():
    for folder in ("invalid", "warnings"):
        for path in (FIXTURES / folder).glob("*.json"):
            for p in validate_file(path):
                assert p.pointer.startswith("/"), (path.name, p)
                assert (p.x is None) == (p.y is None)


# ---------------------------------------------------------------- checks on models built in memory

@pytest.fixture
def base():
    data = doc("warnings", "one-dock")
    data["docks"].append({"x": 1, "y": 7, "facing": "N"})
    data["robots"] = [{"name": "Alpha"}, {"name": "Beta"}]
    return load_dict(data)


def codes(problems):
    return sorted(p.code for p in problems)


def test_model_base_is_clean(base):
    assert course_problems(base) == []


@pytest.mark.parametrize("card, code, fragment", [
    (Card("jump"), "E308", "unknown card 'jump' in round 1, register 2"),
    (Card("move1", 0), "E309", "priority 0"),
    (Card("move1", 1000), "E309", "priorities go from 1 to 999"),
])
def test_cards_on_a_model(base, card, code, fragment):
    program = (ProgramRound((Entry(Card("move2")), Entry(card))),)
    robots = (dataclasses.replace(base.robots[0], program=program), base.robots[1])
    problems = course_problems(dataclasses.replace(base, robots=robots))
    assert codes(problems) == [code]
    assert fragment in problems[0].message
    assert problems[0].pointer == "/robots/0/program/0/1"


def test_card_pointer_in_an_object_round(base):
    program = (ProgramRound((Entry(Card("jump")),), power_down=True),)
    robots = (dataclasses.replace(base.robots[0], program=program), base.robots[1])
    problems = course_problems(dataclasses.replace(base, robots=robots))
    assert [p.pointer for p in problems] == ["/robots/0/program/0/cards/0"]


def test_good_priorities_pass(base):
    program = (ProgramRound((Entry(Card("move1", 1)), Entry(Card("back", 999)), Entry(Card("uturn")))),)
    robots = (dataclasses.replace(base.robots[0], program=program), base.robots[1])
    assert course_problems(dataclasses.replace(base, robots=robots)) == []


@pytest.mark.parametrize("register, round_, pointer", [
    (0, 1, "/checks/0/register"), (6, 1, "/checks/0/register"), (None, 0, "/checks/0/round"),
])
def test_check_moments_on_a_model(base, register, round_, pointer):
    from rallyforge.engine.model.scenario import Check
    scenario = dataclasses.replace(base, checks=(Check(round_, "Alpha", register),))
    problems = course_problems(scenario)
    assert codes(problems) == ["E311"]
    assert problems[0].pointer == pointer


def test_check_on_a_course_without_robots(base):
    from rallyforge.engine.model.scenario import Check
    scenario = dataclasses.replace(base, robots=(), checks=(Check(1, "Alpha"),))
    problems = course_problems(scenario)
    assert codes(problems) == ["E310"]
    assert "add the robot" in problems[0].message


def test_elements_off_a_shrunk_board(base):
    board = dataclasses.replace(base.board, width=5, height=6)   # flag 1 (5, 1), docks at y = 7
    problems = course_problems(dataclasses.replace(base, board=board))
    assert {(p.code, p.pointer) for p in problems} == {
        ("E201", "/flags/0"), ("E201", "/docks/0"), ("E201", "/docks/1")}
    assert all("outside the 5x6 board" in p.message for p in problems)


def test_two_of_a_kind_on_a_model(base):
    flags = base.flags + (base.flags[0],)
    problems = course_problems(dataclasses.replace(base, flags=flags))
    assert [(p.code, p.pointer, p.x, p.y) for p in problems] == [("E203", "/flags/2", 5, 1)]


def test_robot_off_the_board_is_reported_once():
    problems = validate_file(fixture("invalid", "robot-off-board"))
    assert codes(problems) == ["E201"]


def test_two_robots_naming_one_dock(base):
    robots = (RobotSpec("Alpha", dock=2), RobotSpec("Beta", dock=2))
    problems = course_problems(dataclasses.replace(base, robots=robots))
    assert [(p.code, p.pointer, p.x, p.y) for p in problems] == [("E304", "/robots/1", 1, 7)]


def test_robot_taking_a_missing_dock_by_its_place(base):
    robots = (RobotSpec("Alpha", at=Placement(4, 4, "N")), RobotSpec("Beta", at=Placement(5, 5, "N")),
              RobotSpec("Gamma"))
    problems = course_problems(dataclasses.replace(base, robots=robots))
    assert codes(problems) == ["E305"]
    assert "takes dock 3 (its place in the list)" in problems[0].message
    assert problems[0].pointer == "/robots/2"


def test_too_many_robots_is_not_also_a_missing_dock(base):
    robots = tuple(RobotSpec(name) for name in ("A", "B", "C", "D"))
    problems = course_problems(dataclasses.replace(base, robots=robots))
    assert codes(problems) == ["E306"]


def test_robot_on_a_dock_in_a_pit_is_reported_for_the_dock(base):
    board = dataclasses.replace(base.board, tiles=base.board.tiles + (Tile(0, 7, "pit"),))
    problems = course_problems(dataclasses.replace(base, board=board))
    assert codes(problems) == ["E302"]


def test_robots_with_at_take_no_dock(base):
    robots = (RobotSpec("Alpha", at=Placement(4, 4, "N")), RobotSpec("Beta", dock=1),
              RobotSpec("Gamma", dock=2))
    assert course_problems(dataclasses.replace(base, robots=robots)) == []


def test_wall_listed_twice_the_same_way(base):
    board = dataclasses.replace(base.board, walls=base.board.walls + (Wall(4, 4, "N"),))
    problems = course_problems(dataclasses.replace(base, board=board))
    assert codes(problems) == ["W401"]
    assert "listed twice" in problems[0].message
    assert problems[0].pointer == "/board/walls/1"


def test_listed_wall_behind_a_laser_is_fine(base):
    board = dataclasses.replace(base.board, lasers=(Laser(6, 2, "W"),), walls=(Wall(6, 2, "E"),))
    assert course_problems(dataclasses.replace(base, board=board)) == []


@pytest.mark.parametrize("kind, extra", [
    ("conveyor", {"dir": "E"}), ("crusher", {"phases": (2, 4)}), ("gear", {"rotation": "cw"}),
])
def test_flag_on_other_moving_squares(base, kind, extra):
    board = dataclasses.replace(base.board, tiles=base.board.tiles + (Tile(2, 5, kind, **extra),))
    problems = flags_on_moving_squares(dataclasses.replace(base, board=board), Places())
    assert codes(problems) == ["W406"]
    assert f"flag 2 at (2, 5) stands on a {kind}" in problems[0].message


@pytest.mark.parametrize("kind, extra", [("conveyor", {"dir": "N"}), ("crusher", {"phases": (1,)})])
def test_dock_on_other_moving_squares(base, kind, extra):
    board = dataclasses.replace(base.board, tiles=base.board.tiles + (Tile(0, 7, kind, **extra),))
    problems = course_problems(dataclasses.replace(base, board=board))
    assert codes(problems) == ["W407"]


def test_flag_on_water_or_a_current_is_no_w406(base):
    board = dataclasses.replace(base.board, tiles=base.board.tiles + (Tile(2, 5, "current", dir="E"),
                                                                      Tile(5, 1, "water")))
    scenario = dataclasses.replace(base, board=board)
    assert flags_on_moving_squares(scenario, Places()) == []


@pytest.mark.parametrize("laser, walls, hit", [
    (Laser(0, 7, "E"), (), True),                  # a laser on the dock's own square
    (Laser(7, 7, "W"), (), True),                  # the whole row
    (Laser(7, 7, "W"), (Wall(4, 7, "W"),), False),  # the wall shields both docks
    (Laser(7, 7, "W"), (Wall(0, 7, "W"),), True),   # a wall on the outer edge shields nothing
    (Laser(0, 0, "S"), (Wall(0, 5, "S"),), False),
    (Laser(0, 0, "N"), (), False),                 # fires away from the dock
    (Laser(5, 7, "E"), (), False),
])
def test_dock_in_a_laser_beam(base, laser, walls, hit):
    board = dataclasses.replace(base.board, lasers=(laser,), walls=base.board.walls + walls)
    problems = course_problems(dataclasses.replace(base, board=board))
    assert ("W408" in codes(problems)) == hit, problems


def test_the_first_laser_listed_is_named(base):
    # both beams cross dock 1 at (0, 7); the board lists the one at (7, 7) first
    board = dataclasses.replace(base.board, lasers=(Laser(7, 7, "W"), Laser(0, 0, "S")))
    problems = course_problems(dataclasses.replace(base, board=board))
    assert [p.message for p in problems if p.code == "W408"][0].startswith(
        "dock 1 at (0, 7) lies in the beam of the laser at (7, 7)")


def test_conveyor_into_the_board_is_fine(base):
    board = dataclasses.replace(base.board, tiles=(Tile(6, 3, "conveyor", dir="E", express=True),
                                                   Tile(0, 0, "current", dir="S")))
    assert course_problems(dataclasses.replace(base, board=board)) == []


def test_pusher_facing_the_edge_is_fine(base):
    board = dataclasses.replace(base.board, pushers=(Pusher(7, 3, "E", (1, 3, 5)),))
    assert course_problems(dataclasses.replace(base, board=board)) == []


def test_pusher_facing_the_mount_of_another(base):
    # the pusher at (3, 2) hangs on the edge between (2, 2) and (3, 2): the one at (2, 2) faces it
    board = dataclasses.replace(base.board, pushers=(Pusher(2, 2, "E", (1,)), Pusher(3, 2, "E", (2,))))
    problems = course_problems(dataclasses.replace(base, board=board))
    assert [(p.code, p.x, p.y) for p in problems] == [("W404", 2, 2)]


# ---------------------------------------------------------------- reachability

def test_unreachable_flags_asks_only_reachable_from(monkeypatch):
    scenario = load_dict(doc("invalid", "flag-unreachable-from-dock"))
    assert codes(unreachable_flags(scenario)) == ["E312", "E312", "E312"]
    monkeypatch.setattr(reach, "reachable_from",
                        lambda board, starts, rules: {(x, y) for x in range(board.width)
                                               for y in range(board.height)})
    assert unreachable_flags(scenario) == []
    assert unreachable_flags in CHECKS


def test_reachability_follows_the_course_rules():
    """Behind its row of pits, the flag is reached only by the teleporter's
    Back Up jump of 2 squares: the file's own rules say 1, so it is not."""
    data = doc("invalid", "flag-unreachable-under-own-rules")
    assert codes(validate_data(data)) == ["E312", "E312"]
    data["rules"]["teleport_backup_distance"] = 2
    assert validate_data(data) == []


def test_unreachable_from_each_dock_is_named(base):
    # dock 2 at (1, 7) is shut in by walls; dock 1 is fine
    walls = (Wall(1, 7, "N"), Wall(1, 7, "E"), Wall(1, 7, "W"))
    board = dataclasses.replace(base.board, walls=base.board.walls + walls)
    problems = course_problems(dataclasses.replace(base, board=board))
    assert [(p.code, p.pointer, p.x, p.y) for p in problems] == [("E312", "/flags/0", 5, 1)]
    assert "from dock 2 at (1, 7)" in problems[0].message


def test_laser_mounting_walls_close_a_way(base):
    # flag 1 at (5, 1) boxed in by three walls and the mount of a laser on its square
    walls = (Wall(5, 1, "N"), Wall(5, 1, "E"), Wall(5, 1, "S"))
    board = dataclasses.replace(base.board, walls=base.board.walls + walls,
                                lasers=(Laser(5, 1, "E"),))      # mounted on the W side
    problems = course_problems(dataclasses.replace(base, board=board))
    assert "E312" in codes(problems)


def with_board(scenario, tiles=(), walls=(), levels=()):
    board = dataclasses.replace(scenario.board, tiles=scenario.board.tiles + tuple(tiles),
                                walls=scenario.board.walls + tuple(walls),
                                levels=scenario.board.levels + tuple(levels))
    return dataclasses.replace(scenario, board=board)


def test_a_flag_on_a_belt_that_carries_robots_off_it(base):
    """Flag 1 at (5, 1) on a conveyor running east: robots drive onto it, and
    the belt carries them off before flags count. The message says so, not
    that the way is closed."""
    belt = Tile(5, 1, "conveyor", dir="E")
    problems = unreachable_flags(with_board(base, [belt]))
    assert [(p.code, p.x, p.y) for p in problems] == [("E312", 5, 1)] * 2     # from each dock
    assert ("robots get next to it, but the conveyor it stands on carries them off before flags "
            "count and no belt or pusher leaves one there (flags do not move with belts); move "
            "the flag off the conveyor") in problems[0].message
    # a wall ahead of the belt, or a belt that ends on the flag, leaves robots on it
    assert unreachable_flags(with_board(base, [belt], [Wall(5, 1, "E")])) == []
    assert unreachable_flags(with_board(base, [belt, Tile(4, 1, "conveyor", dir="E")])) == []


def test_a_flag_on_a_belt_with_no_way_onto_it_is_closed_off(base):
    """Where no robot can get onto the flag's square, the belt is not the
    reason: the message is the one of a closed way."""
    # the belt under flag 1 runs east into (6, 1), and the two squares are walled in together
    walls = [Wall(5, 1, "N"), Wall(5, 1, "W"), Wall(5, 1, "S"),
             Wall(6, 1, "N"), Wall(6, 1, "E"), Wall(6, 1, "S")]
    problems = unreachable_flags(with_board(base, [Tile(5, 1, "conveyor", dir="E")], walls))
    assert [(p.code, p.x, p.y) for p in problems[:2]] == [("E312", 5, 1)] * 2   # from each dock
    assert "walls, ledges, pits or board elements close it off" in problems[0].message
    # walled on three sides with the belt running into a wall, it would keep a robot; its one
    # open neighbour is a teleporter, which robots reach (from north or south) but leave only by
    # jumping over the flag, and the pit west of it stops a move across it
    past = with_board(base, [Tile(5, 1, "conveyor", dir="E"), Tile(4, 1, "teleporter"),
                             Tile(3, 1, "pit")],
                      [Wall(5, 1, "N"), Wall(5, 1, "E"), Wall(5, 1, "S")])
    problems = unreachable_flags(past)
    assert [(p.code, p.x, p.y) for p in problems[:2]] == [("E312", 5, 1)] * 2
    assert "close it off" in problems[0].message
    # on a square one level up, the belt carries robots down off it, but none climbs up to it
    raised = with_board(base, [Tile(5, 1, "conveyor", dir="E")], levels=[Level(5, 1, 1)])
    problems = unreachable_flags(raised)
    assert [(p.code, p.x, p.y) for p in problems[:2]] == [("E312", 5, 1)] * 2
    assert "close it off" in problems[0].message


def walk(board: Board, start) -> set:
    """The reference: a plain breadth-first walk."""
    seen = {start}
    todo = deque([start])
    deadly = {(t.x, t.y) for t in board.tiles if t.type in DEADLY_TYPES}
    while todo:
        x, y = todo.popleft()
        for d, (dx, dy) in enumerate(((0, -1), (1, 0), (0, 1), (-1, 0))):
            nx, ny = x + dx, y + dy
            if (board.in_bounds(nx, ny) and not board.blocked(x, y, d)
                    and (nx, ny) not in deadly and (nx, ny) not in seen):
                seen.add((nx, ny))
                todo.append((nx, ny))
    return seen


@pytest.mark.parametrize("seed", range(40))
def test_reachable_from_agrees_with_a_plain_walk(seed):
    """On a board of plain floor, walls, lasers, water, pits and drains, the
    squares a robot can get to are those a walk between neighbours reaches
    (whether reach.py walks or moves a robot by its cards)."""
    rng = random.Random(seed)
    width, height = rng.randint(1, 12), rng.randint(1, 12)
    squares = [(x, y) for x in range(width) for y in range(height)]
    tiles = tuple(Tile(x, y, rng.choice(("pit", "drain", "water"))) for x, y in squares
                  if rng.random() < 0.2)
    walls = tuple(Wall(x, y, rng.choice("NESW")) for x, y in squares if rng.random() < 0.4)
    lasers = tuple(Laser(x, y, rng.choice("NESW")) for x, y in squares if rng.random() < 0.05)
    board = Board(width, height, tiles, walls, lasers)
    start = rng.choice(squares)
    got = reach.reachable_from(board, [start])
    assert set(got) == walk(board, start)
    assert len(got) == len(walk(board, start))
    assert all((sq in got) == (sq in walk(board, start)) for sq in squares)


def test_reachable_from_edges_and_starts():
    board = Board(3, 2, walls=(Wall(0, 0, "E"), Wall(0, 0, "S")))
    assert set(reach.reachable_from(board, [(0, 0)])) == {(0, 0)}   # no wrap to the row below
    assert set(reach.reachable_from(board, [(2, 0)])) == {(1, 0), (2, 0), (0, 1), (1, 1), (2, 1)}
    assert set(reach.reachable_from(board, [(5, 5)])) == set()
    assert set(reach.reachable_from(board, [])) == set()
    both = reach.reachable_from(board, [(0, 0), (2, 1)])
    assert len(both) == 6 and (0, 0) in both and (9, 9) not in both and "x" not in both


# ---------------------------------------------------------------- file places, documents, examples

def test_numbers_and_pointers_follow_the_file_when_elements_are_skipped():
    data = doc("invalid", "flag-on-pit")
    data["flags"].insert(0, {"x": 6, "y": 6, "colour": "red"})      # broken: the schema rejects it
    problems = validate_data(data)
    pit = [p for p in problems if p.code == "E301"]
    assert len(pit) == 1
    assert pit[0].pointer == "/flags/2"
    assert pit[0].message.startswith("flag 3 at (2, 5)")


@pytest.mark.parametrize("data", [None, [], "text", 3, {}, {"board": 5}, {"flags": [1, None, {}]}])
def test_any_document_gives_problems_not_exceptions(data):
    problems = validate_data(data)
    assert problems and any(p.is_error for p in problems)


def test_deeply_nested_document():
    deep: object = 1
    for _ in range(5000):
        deep = [deep]
    data = doc("warnings", "one-dock")
    data["note"] = deep
    assert any(p.is_error for p in validate_data(data))


def test_big_course_from_the_bench_has_no_errors():
    from bench.bench_validate import build_course
    problems = validate_data(build_course(40))
    assert [p for p in problems if p.is_error] == []


@pytest.mark.skipif(not SCENARIOS, reason="no example scenarios yet")
@pytest.mark.parametrize("path", SCENARIOS, ids=[p.name for p in SCENARIOS])
def test_example_scenarios_have_no_errors(path):
    problems = validate_file(path)
    assert [(p.code, p.message) for p in problems if p.is_error] == []


@pytest.mark.skipif(not SCENARIOS, reason="no example scenarios yet")
@pytest.mark.parametrize("path", SCENARIOS, ids=[p.name for p in SCENARIOS])
def test_schema_and_loader_agree_on_examples(path):
    from rallyforge.engine.format.schema import schema_problems
    data = json.loads(path.read_text(encoding="utf-8"))
    scenario, problems = read_dict(data)
    assert schema_problems(data) == []
    assert scenario is not None and [p for p in problems if p.is_error] == []
