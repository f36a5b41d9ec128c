"""The aware bot: its look-ahead plays the race's rules against the others'
predicted programs; it sees their places, not their programs."""
from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from rallyforge.engine.analysis.balance import balance
from rallyforge.engine.bots import make_bot, new_race
from rallyforge.engine.bots.aware import AwareBot, TOP, WIDEN, _program, judged
from rallyforge.engine.bots.search import program_cards
from rallyforge.engine.format.loader import load_file
from rallyforge.engine.model.directions import E, N, S
from rallyforge.engine.model.program_cards import DECK
from rallyforge.engine.model.scenario import (Board, Card, Dock, Entry, Flag, Placement, ProgramRound,
                                   RobotSpec, Scenario, Tile)
from rallyforge.engine.rules.bot_view import BotView
from rallyforge.engine.rules.course import compile_course
from rallyforge.engine.rules.race import Race
from rallyforge.engine.rules.state import RobotState

ROOT = Path(__file__).resolve().parent.parent

# A pit south of A; B stands north of A, facing south.
COURSE = Scenario("push", Board(5, 7, tiles=(Tile(2, 4, "pit"),)), (Flag(0, 3),),
                  (Dock(0, 6, "N"), Dock(4, 6, "N")))


def views(b_registers=(None,) * 5):
    course = compile_course(COURSE.board)
    flags = tuple(course.square(f.x, f.y) for f in COURSE.flags)
    a = RobotState(0, "A", course.square(2, 3), E)
    b = RobotState(1, "B", course.square(2, 2), S)
    b.registers = list(b_registers)
    robots = [a, b]
    return BotView(COURSE.board, course, flags, COURSE.rules, a, robots), b


def test_the_look_ahead_sees_a_push_into_a_pit_that_alone_does_not_exist():
    view, b = views()
    bot = AwareBot()
    tables = bot.tables(view)
    stay = [Card("left", 90), Card("left", 70)]         # turns to face the flag, on (2, 3)
    aside = [Card("move1", 500), Card("right", 100)]     # steps east before B moves (500 > 490)
    pushing = {1: [Card("move1", 490), None, None, None, None]}
    stay, aside = (_program(view.robot, cards, [1, 2]) for cards in (stay, aside))
    alone_stay, _ = bot._ahead(view, tables, stay, [], {})
    alone_aside, _ = bot._ahead(view, tables, aside, [], {})
    assert alone_stay > alone_aside                     # the flag is west: staying is better alone
    with_b_stay, destroyed = bot._ahead(view, tables, stay, [b], pushing)
    assert destroyed
    with_b_aside, _ = bot._ahead(view, tables, aside, [b], pushing)
    assert with_b_stay < with_b_aside                   # B's move pushes A into the pit
    assert with_b_stay < alone_stay - 9                 # about a death's price (10 registers)


def test_one_predicted_push_into_a_pit_outweighs_many_small_gains():
    """Over 24 samples B pushes A into the pit once: staying on the pit's
    edge is better on the sum, but its worst sample, counted again, decides."""
    view, b = views()
    bot = AwareBot()
    tables = bot.tables(view)
    stay = [Card("left", 90), Card("left", 70)]
    aside = [Card("move1", 500), Card("right", 100)]
    samples = [{1: [Card("move1", 490), None, None, None, None]}] + \
        [{1: [Card("left", 80), None, None, None, None]}] * 23
    values = {name: [bot._ahead(view, tables, _program(view.robot, cards, [1, 2]), [b], s)[0]
                     for s in samples]
              for name, cards in (("stay", stay), ("aside", aside))}
    assert sum(values["stay"]) > sum(values["aside"])
    assert judged(values["stay"]) < judged(values["aside"])


def test_when_every_candidate_may_be_destroyed_it_looks_at_other_squares():
    """The programs added when each of the TOP may be destroyed: the best
    program alone to each square none of them ends on, best first."""
    scenario = replace(load_file(ROOT / "scenarios" / "standard-course.json"), robots=(),
                       checks=())
    course = compile_course(scenario.board)
    flags = tuple(course.square(f.x, f.y) for f in scenario.flags)
    view = BotView(scenario.board, course, flags, scenario.rules,
                   RobotState(0, "A", course.square(2, 14), N))
    bot = AwareBot()
    hand = random.Random(6).sample(DECK, 9)
    free = [1, 2, 3, 4, 5]
    chosen, score, groups, m = bot.scored(view, hand, free)
    layered = bot.tables(view).layered()
    order = np.argsort(-score, kind="stable")[:TOP]
    extra = bot._elsewhere(view, layered, score, groups, m, free, order)

    def square(i):
        cards = program_cards(int(chosen[i]), m, groups)
        robot = RobotSpec("A", at=Placement(2, 14, "N"),
                          program=(ProgramRound(tuple(Entry(c) for c in cards)),))
        race = new_race(replace(scenario, robots=(robot,)), seed=0)
        race.play_round()
        return race.robots[0].sq

    ends = [square(i) for i in extra]
    assert len(extra) == WIDEN and len(set(ends)) == WIDEN and min(ends) >= 0
    assert not set(ends) & {square(i) for i in order}
    assert list(score[extra]) == sorted(score[extra], reverse=True)
    for i, sq in zip(extra, ends):      # nothing scores better to the same square
        assert all(square(j) != sq for j in np.flatnonzero(score > score[i]))


def test_it_does_not_read_the_others_programs():
    """B's registers, filled before A programs (robot order), change nothing."""
    hand = random.Random(4).sample(DECK, 9)
    picks = []
    for registers in ((None,) * 5, tuple(random.Random(5).sample(DECK, 5))):
        view, _ = views(registers)
        picks.append(make_bot("aware").program(view, list(hand), [1, 2, 3, 4, 5],
                                               random.Random(7)))
    assert picks[0] == picks[1]


def test_alone_it_finishes_sooner_for_planning_two_rounds():
    """Alone on the gauntlet, 40 races from every dock in turn: the search
    bot's best program alone is often one that ends where the next hand
    goes wrong; counting the next round (engine/bots/next_round.py) takes
    the aware bot to the last flag in fewer rounds."""
    scenario = replace(load_file(ROOT / "scenarios" / "gauntlet.json"), robots=(), checks=())
    rounds = {}
    for bot in ("search", "aware"):
        rounds[bot] = sum(
            new_race(replace(scenario, docks=(scenario.docks[i % len(scenario.docks)],)), seed=i,
                 robot_count=1, bots=[make_bot(bot)]).run().rounds
            for i in range(40))
    assert rounds["aware"] < 0.95 * rounds["search"]


def test_it_powers_down_when_a_round_without_damage_is_worth_two_with_it():
    """Standard course, (5, 9) facing north: with 1 damage it plays on; with
    5 (four cards, one register locked) a round without damage is worth
    more than two with it, though the search bot's rule waits for two
    locked registers far from a repair."""
    scenario = load_file(ROOT / "scenarios" / "standard-course.json")
    course = compile_course(scenario.board)
    flags = tuple(course.square(f.x, f.y) for f in scenario.flags)
    decisions = {}
    for bot in ("aware", "search"):
        for damage in (1, 5):
            robot = RobotState(0, "A", course.square(5, 9), N, damage=damage)
            view = BotView(scenario.board, course, flags, scenario.rules, robot)
            decisions[bot, damage] = make_bot(bot).power_down(view, random.Random(1))
    assert decisions == {("aware", 1): False, ("aware", 5): True,
                         ("search", 1): False, ("search", 5): False}


# A on flag 1 with a pit south of it, B north of A; flag 2 north of B.
CORRIDOR = Scenario("corridor", Board(3, 6, tiles=(Tile(1, 3, "pit"),)),
                    (Flag(1, 2), Flag(1, 0)), (Dock(0, 5, "N"), Dock(2, 5, "N")))


@pytest.mark.parametrize("b_flags, b_facing, b_there, powers_down", [
    (0, S, True, False),    # B's likely Move 1 onto flag 1 pushes A into the pit
    (1, N, True, True),     # B bound for flag 2, away from A: no push to fear
    (0, S, False, True),    # alone
])
def test_it_does_not_power_down_where_standing_still_gets_it_pushed_into_a_pit(
        b_flags, b_facing, b_there, powers_down):
    course = compile_course(CORRIDOR.board)
    flags = tuple(course.square(f.x, f.y) for f in CORRIDOR.flags)
    a = RobotState(0, "A", course.square(1, 2), S, damage=8)    # four registers locked
    a.flags = 1
    b = RobotState(1, "B", course.square(1, 1), b_facing)
    b.flags = b_flags
    view = BotView(CORRIDOR.board, course, flags, CORRIDOR.rules, a, [a, b] if b_there else [a])
    assert make_bot("search").power_down(view, random.Random(1))
    assert make_bot("aware").power_down(view, random.Random(1)) is powers_down


@pytest.mark.parametrize("bot", ["aware", "search"])
def test_balance_runs_say_which_bot_played(bot):
    result = balance(COURSE, 4, 2, bot)
    assert result["bot"] == bot and result["card"]["bot"] == bot


def _fresh_round(view, lineup, programs):
    """The look-ahead's round as a race of its own, set up from a scenario
    holding the robots with their programs (each up to its first empty register)."""
    course = view.course
    rules = replace(view.rules, options="counted", start_options=0, flag_gives_option=False,
                    start_option_choice=0)
    specs = []
    for robot, program in zip(lineup, programs):
        cards = []
        for card in program:
            if card is None:
                break
            cards.append(Entry(card))
        x, y = course.xy[robot.sq]
        specs.append(RobotSpec(str(robot.index), at=Placement(x, y, "NESW"[robot.facing]),
                               damage=robot.damage, lives=robot.lives, flags=robot.flags,
                               program=(ProgramRound(tuple(cards)),)))
    flags = tuple(Flag(*course.xy[sq]) for sq in view.flags)
    race = Race(Scenario("fresh", view.board, flags, (), rules, robots=tuple(specs)), seed=0,
                record_events=False)
    for _ in range(5):
        race.play_register()
        if race.over:
            break
    return race.robots


def _state(robot):
    return (robot.sq, robot.facing, robot.damage, robot.lives, robot.flags, robot.deaths,
            robot.finished, robot.out, robot.registers)


def _after_a_round(course: str, seed: int) -> tuple[BotView, list[RobotState]]:
    """A race of 4 search robots on an example course after its first round:
    the view of the first robot on the board, and the robots on the board."""
    scenario = load_file(ROOT / "scenarios" / f"{course}.json")
    race = new_race(replace(scenario, robots=(), checks=()), seed=seed, robot_count=4,
                    bot="search", record_events=False)
    race.play_round()
    robots = [r for r in race.robots if r.sq >= 0]
    view = race.controllers[robots[0].index].view
    view.robot = robots[0]
    return view, robots


@pytest.mark.parametrize("course", ["standard-course", "waterworks", "gauntlet"])
def test_a_look_ahead_play_from_the_saved_round_is_a_race_of_its_own(course):
    """Every play of one round (restored from its start) ends as a race set
    up for those programs alone: damage locking registers, a register left
    empty before a card (the cards after it are not played), a randomizer's
    draw from the round's deck."""
    from rallyforge.engine.bots.aware import _Round
    view, robots = _after_a_round(course, seed=11)
    rng = random.Random(3)
    for robot in robots:
        robot.damage = rng.choice((0, 2, 5, 7))
        robot.registers = rng.sample(DECK, 5)
    ahead = _Round(view, robots[1:])
    for _ in range(25):
        programs = [[None if rng.random() < 0.15 else card for card in rng.sample(DECK, 5)]
                    for _ in robots]
        played = [_state(r) for r in ahead.play(programs)]
        assert played == [_state(r) for r in _fresh_round(view, robots, programs)]


@pytest.mark.parametrize("course", ["standard-course", "waterworks", "gauntlet"])
def test_programs_that_begin_alike_end_as_each_played_alone(course):
    """A decision's programs share the registers they begin with (played
    once, saved within the round and put back): each ends as a round set up
    for it alone, on a course with randomizers (waterworks) too."""
    from rallyforge.engine.bots.aware import _Plan, _Round
    view, robots = _after_a_round(course, seed=5)
    rng = random.Random(8)
    ahead = _Round(view, robots[1:])
    for _ in range(12):
        theirs = [rng.sample(DECK, 5) for _ in robots[1:]]
        base = rng.sample(DECK, 5)
        mine = [base[:k] + rng.sample([c for c in DECK if c not in base], 5 - k)
                for k in rng.choices(range(6), k=7)]
        mine.append(base[:2] + [None, base[3], base[4]])        # an empty register ends it
        ends = ahead.play_each(_Plan(mine), theirs, lambda ends: [_state(r) for r in ends])
        assert ends == [[_state(r) for r in _fresh_round(view, robots, [program] + theirs)]
                        for program in mine]


def test_a_restored_race_plays_on_as_it_did():
    scenario = load_file(ROOT / "scenarios" / "standard-course.json")
    race = new_race(replace(scenario, robots=(), checks=()), seed=4, robot_count=4, bot="random",
                    record_events=False)
    race.play_round()
    race.play_register()
    saved = race.save()
    first = race.run()
    race.restore(saved)
    assert race.run() == first


def test_a_robot_restored_is_the_robot_saved_in_every_field_but_who_it_is():
    robot = RobotState(0, "A", 5, N)
    saved = robot.saved()
    other = RobotState(0, "A", 9, S, damage=3, lives=1, flags=2, options=1, powered_down=True)
    for name in RobotState.__slots__:
        if name not in ("index", "name", "opt", "registers", "cards"):
            setattr(other, name, ("changed", name))
    other.registers, other.cards = [Card("move1", 490)] * 5, ["brakes"]
    other.restore(saved)
    assert all(getattr(other, n) == getattr(robot, n) for n in RobotState.__slots__)
