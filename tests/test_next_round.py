"""Two rounds ahead (engine/bots/next_round.py): what ending a round at a
state is worth is the search bot's best next round from there, over the
hands dealt once per course, in registers to go to the finish."""
from __future__ import annotations

from pathlib import Path

import pytest

from rallyforge.engine.bots.next_round import FINISH_SOONER, next_round
from rallyforge.engine.bots.search import SearchBot
from rallyforge.engine.format.loader import load_file
from rallyforge.engine.model.directions import N
from rallyforge.engine.rules.bot_view import BotView
from rallyforge.engine.rules.course import compile_course
from rallyforge.engine.rules.state import RobotState

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def standard():
    scenario = load_file(ROOT / "scenarios" / "standard-course.json")
    course = compile_course(scenario.board)
    flags = tuple(course.square(f.x, f.y) for f in scenario.flags)
    return scenario, course, flags


def view_at(standard, x: int, y: int, damage: int = 0, flags_touched: int = 0) -> BotView:
    scenario, course, flags = standard
    robot = RobotState(0, "A", course.square(x, y), N, damage=damage)
    robot.flags = flags_touched
    return BotView(scenario.board, course, flags, scenario.rules, robot)


def test_touching_a_flag_is_worth_the_registers_it_saves_not_a_thousand(standard):
    """On the registers-to-go scale a robot one register short of flag 2 is
    worth one register less than on it, flag touched, facing its best way."""
    view = view_at(standard, 0, 0)
    layered = SearchBot().tables(view).layered()
    flag = view.flags[1]
    S = layered.S
    before = [s for s in range(view.course.size * 4) if layered.dist[1, s] == 1]
    on_flag = max(layered.to_go[2 * S + flag * 4 + f] for f in range(4))
    assert before and {int(layered.to_go[S + s]) for s in before} == {on_flag - 1}
    # the search bot's own scale jumps by about a thousand there
    assert layered.value[2 * S + flag * 4] - layered.value[S + before[0]] > 900


@pytest.mark.parametrize("damage", [0, 3, 6])     # 9, 6 and 3 cards; two registers locked at 6
def test_a_state_is_worth_the_mean_best_next_round_over_the_dealt_hands(standard, damage):
    view = view_at(standard, 2, 14, damage, flags_touched=1)
    bot = SearchBot()
    layered = bot.tables(view).layered()
    robot = view.robot
    x = robot.flags * layered.S + robot.sq * 4 + robot.facing
    assert layered.dist[1, x - layered.S] > 5       # no flag within a round: one layer
    values = next_round(layered, view.rules)
    free = list(range(1, 6 - max(0, damage - view.rules.lock_from_damage + 1)))
    best = [bot.scored(view, hand[:view.rules.hand_size - damage], free)[1].max()
            for hand in values.hands]
    assert values.alive(x, damage, robot.lives, robot.archive) == pytest.approx(
        sum(best) / len(best) - layered.offset[1])
    assert len(set(best)) > 1             # the hands differ: a mean, not one hand's best


def test_worth_orders_a_finish_a_live_robot_and_a_destroyed_one(standard):
    view = view_at(standard, 5, 9)
    layered = SearchBot().tables(view).layered()
    values = next_round(layered, view.rules)
    robot = view.robot
    F = layered.F
    live = [values.worth(t * layered.S + sq * 4 + f, 0, 0, 0, robot.lives, robot.archive)
            for t in range(F) for sq in range(0, view.course.size, 7) for f in range(4)
            if layered.dist[t, sq * 4 + f] < 99]
    finished = values.worth(layered.FIN + 4, 0, 0, 0, robot.lives, robot.archive)
    assert finished == layered.to_go[layered.FIN + 4] + FINISH_SOONER > max(live)
    # destroyed before touching a flag: the next round from its archive, less a life
    dead = values.worth(layered.dead_states[0], 0, 0, 0, robot.lives, robot.archive)
    at_archive = values.worth(robot.sq * 4 + robot.facing, 0, 0, 0, robot.lives, robot.archive)
    assert dead < at_archive
    # on the last life a destruction costs more than any live end
    assert values.worth(layered.dead_states[0], 0, 0, 0, 1, robot.archive) < min(live)
