"""The lone-robot model agrees with a real race of one robot, and the
reachability built on it follows robot movement (belts, teleporters)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from rallyforge.engine.bots import new_race
from rallyforge.engine.format.loader import load_dict, load_file
from rallyforge.engine.model.directions import NAMES
from rallyforge.engine.model.program_cards import HIGHEST
from rallyforge.engine.model.scenario import Board, CARD_KINDS, Card, Laser, Tile
from rallyforge.engine.rules.course import RANDOMIZER, compile_course
from rallyforge.engine.rules.lone_robot_model import (CAUSES, DESTROYED, KINDS, LoneModel, LoneRobot, NO_CARD, UNREACHABLE,
                                                      card_part)
from rallyforge.engine.rules.movement import play_card
from rallyforge.engine.rules.reach import reachable_from

W, H = 7, 7

COURSE = {
    "format": "rally-scenario", "version": 1, "name": "Everything",
    "board": {
        "width": W, "height": H,
        "tiles": [
            {"x": 1, "y": 1, "type": "conveyor", "dir": "E", "express": True},
            {"x": 2, "y": 1, "type": "conveyor", "dir": "E", "express": True},
            {"x": 3, "y": 1, "type": "conveyor", "dir": "S"},
            {"x": 3, "y": 2, "type": "conveyor", "dir": "W"},
            {"x": 2, "y": 2, "type": "current", "dir": "N"},
            {"x": 5, "y": 1, "type": "gear", "rotation": "ccw"},
            {"x": 5, "y": 3, "type": "gear", "rotation": "cw"},
            {"x": 0, "y": 4, "type": "pit"},
            {"x": 4, "y": 4, "type": "drain"},
            {"x": 1, "y": 5, "type": "water"},
            {"x": 2, "y": 5, "type": "teleporter"},
            {"x": 5, "y": 5, "type": "crusher", "phases": [2, 5]},
            {"x": 6, "y": 6, "type": "repair"},
            {"x": 3, "y": 6, "type": "randomizer"},
            {"x": 6, "y": 2, "type": "conveyor", "dir": "N"},
        ],
        "walls": [{"x": 1, "y": 2, "side": "E"}, {"x": 4, "y": 0, "side": "S"},
                  {"x": 0, "y": 6, "side": "N"}],
        "lasers": [{"x": 0, "y": 3, "dir": "E", "beams": 2}, {"x": 4, "y": 6, "dir": "N"}],
        "pushers": [{"x": 4, "y": 2, "dir": "W", "phases": [1, 3]},
                    {"x": 1, "y": 3, "dir": "S", "phases": [2]}],
    },
    "flags": [{"x": 6, "y": 0}],
    "docks": [{"x": 0, "y": 0, "facing": "E"}],
    "robots": [{"name": "Lone", "at": {"x": 0, "y": 0, "facing": "E"}}],
}
SCENARIO = load_dict(COURSE)
MODEL = LoneModel.build(SCENARIO.board, SCENARIO.rules)


def race_result(square: int, facing: int, register: int, kind: int, scenario=SCENARIO):
    """One register of a real race with the robot put on `square`: its end
    square, facing, cause of destruction and damage. (White-box: the robot
    is placed by hand and the register played directly.)"""
    race = new_race(scenario)
    robot = race.robots[0]
    floor = race.floor
    floor.occ[robot.sq] = None
    robot.sq, robot.facing = square, facing
    floor.occ[square] = robot
    if kind != NO_CARD:
        robot.registers[register - 1] = Card(CARD_KINDS[kind], HIGHEST[CARD_KINDS[kind]])
    floor.round = race.round = 1
    race._play_register(register)
    if robot.sq < 0:
        cause = [e for e in race.events if e.kind == "destroyed"][-1].cause
        return None, None, cause, 0
    return race.course.xy[robot.sq], NAMES[robot.facing], None, robot.damage


@settings(max_examples=400, deadline=None)
@given(st.integers(0, W * H - 1), st.integers(0, 3), st.integers(1, 5),
       st.integers(0, NO_CARD))
def test_the_model_agrees_with_a_race(square, facing, register, kind):
    course = MODEL.course
    if course.death[square] is not None or course.tile[square] == RANDOMIZER:
        return      # nobody stands on a pit; a randomizer deals a random card
    expected = MODEL.result(square, facing, register, kind)
    got = race_result(square, facing, register, kind)
    assert (expected.square, expected.facing, expected.cause, expected.damage) == got


def test_results_in_detail():
    course = MODEL.course
    express = course.square(1, 1)
    # a turn on the express belt, then carried E twice (express, then all belts) onto
    # (3, 1), whose S belt turns it right: N, left to W, right to N
    r = MODEL.result(express, 0, 2, KINDS.index("left"))
    assert (r.square, r.facing, r.cause) == ((3, 1), "N", None)
    # move1 west from (1, 4) into the pit
    r = MODEL.result(course.square(1, 4), 3, 1, KINDS.index("move1"))
    assert (r.square, r.cause) == (None, "pit")
    # the crusher acts in registers 2 and 5 only
    crusher = course.square(5, 5)
    assert MODEL.result(crusher, 0, 1, NO_CARD).square == (5, 5)
    assert MODEL.result(crusher, 0, 2, NO_CARD).cause == "crusher"
    # the teleporter: move2 north jumps 4 onto the express belt at (2, 1), which carries
    # it onto (3, 1) (turning right), and the belts on to (3, 2) (right again)
    r = MODEL.result(course.square(2, 5), 0, 1, KINDS.index("move2"))
    assert (r.square, r.facing) == ((3, 2), "S")
    # laser damage where it ends: the 2-beam laser along row 3
    assert MODEL.result(course.square(3, 4), 0, 1, KINDS.index("move1")).damage == 2
    after = [MODEL.result(course.square(6, 6), 0, 1, k) for k in range(len(CARD_KINDS))]
    assert [r.kind for r in after] == list(CARD_KINDS) and after[4].facing == "W"
    assert MODEL.end.shape == (5, len(KINDS), W * H * 4)
    assert set(MODEL.cause.ravel().tolist()) <= set(range(len(CAUSES)))
    assert (MODEL.end[MODEL.cause > 0] == DESTROYED).all()


def test_distance_to_one_square():
    model = LoneModel.build(Board(6, 6))
    target = model.course.square(3, 0)
    dist = model.distance_to([target])
    start = model.course.square(0, 0)
    assert dist[start * 4 + 1] == 1         # facing E: move3
    assert dist[start * 4 + 0] == 2         # facing N: turn, then move3
    assert dist[target * 4 + 2] == 0
    assert (dist >= 0).all()
    walled = LoneModel.build(Board(3, 1, (Tile(1, 0, "pit"),)))
    assert walled.distance_to([walled.course.square(2, 0)])[0] == UNREACHABLE


def test_distance_to_several_squares_is_the_nearest_one():
    model = LoneModel.build(board(["..O...", "..>>v.", "......", "T.....", "....O."]))
    squares = [model.course.square(x, y) for x, y in ((5, 0), (0, 4), (3, 2))]
    each = np.array([model.distance_to([sq]) for sq in squares])
    nearest = np.where(each == UNREACHABLE, 10 ** 6, each).min(axis=0)
    nearest[nearest == 10 ** 6] = UNREACHABLE
    assert (model.distance_to(squares) == nearest).all()
    assert model.distance_to([]).tolist() == [UNREACHABLE] * model.end.shape[2]


def board(rows: list[str], express: bool = False) -> Board:
    """A board from text: '.' floor, 'O' pit, '^>v<' conveyors, 'T' teleporter."""
    dirs = {"^": "N", ">": "E", "v": "S", "<": "W"}
    tiles = []
    for y, row in enumerate(rows):
        for x, c in enumerate(row):
            if c == "O":
                tiles.append(Tile(x, y, "pit"))
            elif c in dirs:
                tiles.append(Tile(x, y, "conveyor", dir=dirs[c], express=express))
            elif c == "T":
                tiles.append(Tile(x, y, "teleporter"))
    return Board(len(rows[0]), len(rows), tuple(tiles))


def test_a_flag_reached_by_riding_conveyors_counts():
    # every square between start and flag is an express belt over pits: a robot
    # never stops on the way, the belts carry it
    b = board(["OOOOOOO",
               ".>>>>>.",
               "OOOOOOO"], express=True)
    assert (6, 1) in reachable_from(b, [(0, 1)])


def test_a_flag_behind_a_one_way_belt_may_not_count():
    # the way to (0, 1) crosses three belts that carry robots into pits: no card
    # gets a robot across (a move3 ends on the last belt); a walk would
    b = board(["OOOOO",
               ".vvv.",
               "OOOOO"])
    reached = reachable_from(b, [(4, 1)])
    assert (4, 1) in reached and (0, 1) not in reached
    assert (0, 1) in reachable_from(b, [(0, 1)])


def test_a_teleporter_jumps_a_pit_a_walk_cannot_cross():
    b = board(["T.OO...",
               "..OO..."])
    assert (4, 0) in reachable_from(b, [(0, 0)])
    assert (4, 1) in reachable_from(b, [(0, 1)])        # walk to the teleporter, then jump
    assert (0, 0) not in reachable_from(b, [(5, 0)])


# ---------------------------------------------------------------- the card part, state by state

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "scenarios").glob("*.json")) + sorted((ROOT / "tests" / "rules").glob("*.json"))


def play_card_table(lone: LoneRobot) -> list[list[int]]:
    """``card_part`` the slow way: ``play_card`` for every card of every state."""
    states = lone.floor.course.size * 4
    table = [list(range(states)) for _ in range(NO_CARD + 1)]
    for s in range(states):
        for kind in range(NO_CARD):
            play_card(lone.floor, lone.put(s >> 2, s & 3), kind)
            table[kind][s] = lone.lift()
    return table


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_the_card_part_is_play_card_on_every_state(path):
    """card_part composes turns and single pushes instead of playing every
    card: the same as play_card on every square, facing and card of every
    example course and rule course (with its own rules: Back Up distance)."""
    scenario = load_file(path)
    course = compile_course(scenario.board)
    got = card_part(LoneRobot(course, scenario.rules))[0].tolist()
    assert got == play_card_table(LoneRobot(course, scenario.rules))


def test_the_card_part_on_every_kind_of_square():
    assert card_part(LoneRobot(MODEL.course, SCENARIO.rules))[0].tolist() == \
        play_card_table(LoneRobot(MODEL.course, SCENARIO.rules))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_remembered_reachability_is_a_fresh_search(path):
    """reachable_states answers from what it remembers (strongly connected
    parts) exactly as a search of its own would."""
    scenario = load_file(path)
    model = LoneModel.build(scenario.board, scenario.rules)
    squares = [(d.x, d.y) for d in scenario.docks] + [(f.x, f.y) for f in scenario.flags]
    squares += [(x, y) for x in range(0, scenario.board.width, 3)
                for y in range(0, scenario.board.height, 4)]
    for x, y in squares:
        if not scenario.board.in_bounds(x, y):
            continue
        starts = np.arange(4) + model.course.square(x, y) * 4
        assert (model.reachable_states(starts) == model._forward(starts)).all()
    assert not model.reachable_states(np.array([], dtype=int)).any()


def test_lasers_stacked_by_the_thousand_do_not_overflow_the_damage_table():
    lasers = tuple(Laser(1, 1, "E", beams=3) for _ in range(11_000))     # 33,000 a register
    model = LoneModel.build(Board(4, 4, (), (), lasers))
    assert model.damage.max() > 0 and (model.damage >= 0).all()


def test_a_distance_map_asked_again_is_the_one_remembered():
    """A bot on a course without flags asks for the map to each square it
    stands on, again and again: the model answers the same squares from
    memory, with a map no caller can change, and other squares afresh."""
    model = LoneModel.build(load_file(ROOT / "scenarios" / "standard-course.json").board)
    first = model.distance_to({5})
    assert model.distance_to([5, 5]) is first and not first.flags.writeable
    other = model.distance_to({5, 40})
    assert other is not first and (other <= first).all() and (other < first).any()
    with pytest.raises(ValueError):
        first[0] = 0


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_distance_maps_found_together_are_those_found_alone(path):
    """distances_to searches for several sets of squares at once (a bot's
    tables ask for a map per flag and one to the repair sites): each map is
    the one a search of its own finds, whatever the others, and the maps it
    remembers answer later questions."""
    scenario = load_file(path)
    built = LoneModel.build(scenario.board, scenario.rules)
    course = built.course

    def fresh() -> LoneModel:           # nothing remembered
        return LoneModel(course, built.end, built.cause, built.damage)

    flags = [course.square(f.x, f.y) for f in scenario.flags]
    repairs = [sq for sq in range(course.size) if course.archive_point[sq]]
    targets = [[sq] for sq in flags] + [repairs, [], [0, course.size - 1], flags[:1]]
    model = fresh()
    together = model.distances_to(targets)
    assert len(together) == len(targets)
    for squares, got in zip(targets, together):
        assert (got == fresh().distance_to(squares)).all()
        assert model.distance_to(squares) is got
