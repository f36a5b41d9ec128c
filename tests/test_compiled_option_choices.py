"""The search bot of the compiled race (engine/bots/_search_race.c) chooses
Recompile and the Flywheel's card as SearchBot.recompile and take_flywheel
do (engine/bots/search.py): on robots, registers and hands drawn at random
on example courses, the same choices from the same random numbers (the
rng left in the same state: random.sample reproduced draw for draw), through
the bot module's test entry option_choice."""
from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from rallyforge.engine.bots import race_bot
from rallyforge.engine.bots.search import SearchBot
from rallyforge.engine.format.loader import load_file
from rallyforge.engine.model.program_cards import DECK
from rallyforge.engine.rules.bot_view import BotView
from rallyforge.engine.rules.cleanup import lock_count
from rallyforge.engine.rules.compiled import race as compiled_rules
from rallyforge.engine.rules.state import RobotState

ROOT = Path(__file__).resolve().parent.parent
needs_built = pytest.mark.usefixtures("compiled_part")      # (conftest.py: fails or skips)
TRIALS = 100


def course_of(name: str, superbot: bool):
    scenario = load_file(ROOT / "scenarios" / name)
    course = compiled_rules.compile_course(scenario.board)
    flags = tuple(course.square(f.x, f.y) for f in scenario.flags)
    return scenario.board, course, flags, replace(scenario.rules, superbot=superbot)


def robot_at(rng: random.Random, course, flags, rules) -> RobotState:
    """A robot anywhere on the course, with any damage it can live with, its
    locked registers holding cards (or one empty)."""
    robot = RobotState(0, "a", rng.randrange(course.size), rng.randrange(4),
                       damage=rng.randrange(rules.destroy_at_damage), lives=rng.randint(1, 3),
                       flags=rng.randrange(len(flags)))
    robot.archive = rng.randrange(course.size)
    cards = rng.sample(range(len(DECK)), 5)
    for r in range(5 - lock_count(robot.damage, rules), 5):
        robot.registers[r] = DECK[cards[r]] if rng.random() < 0.9 else None
    return robot


def as_seen(robot: RobotState, rules, quarry: RobotState | None) -> tuple:
    """The robot as _race_bot.h's BotRobot (option_choice's tuple)."""
    reg = tuple(-1 if c is None else DECK.index(c) for c in robot.registers)
    hunted = (quarry.sq, quarry.facing, quarry.flags, quarry.archive) if quarry else (0,) * 4
    return (robot.sq, robot.facing, robot.damage, robot.lives, robot.flags, robot.archive,
            lock_count(robot.damage, rules), rules.destroy_at_damage - robot.damage, reg,
            int(quarry is not None), hunted)


def trials(name: str, superbot: bool, seed: int):
    """(view, robot as seen, hand, a card of neither hand nor registers, free
    registers) drawn at random; under superbot another robot holds the title."""
    board, course, flags, rules = course_of(name, superbot)
    bot = race_bot.search_bot(course, flags, rules)
    draw = random.Random(seed)
    for _ in range(TRIALS):
        robot = robot_at(draw, course, flags, rules)
        quarry = None
        if superbot:
            quarry = robot_at(draw, course, flags, rules)
            quarry.superbot = True
        view = BotView(board, course, flags, rules, robot,
                       [robot, quarry] if quarry else None)
        held = {DECK.index(c) for c in robot.registers if c is not None}
        left = [i for i in range(len(DECK)) if i not in held]
        # (up to one more: Extra Memory; fewer: a deck run short)
        size = draw.randint(0, max(0, rules.hand_size - robot.damage) + 1)
        cards = draw.sample(left, size + 1)
        free = 5 - lock_count(robot.damage, rules)
        yield bot, view, as_seen(robot, rules, quarry), cards[:size], cards[size], free


CASES = [("standard-course.json", False, 1), ("highlands.json", False, 2),
         ("gauntlet.json", True, 3), ("waterworks.json", False, 4)]


def choices(compiled_part, name: str, superbot: bool, seed: int, flywheel: bool) -> list:
    """The compiled bot's Recompile (or Flywheel) choice of every trial,
    asserted to be SearchBot's from the same rng, with the rng left alike:
    (choice, cards in the hand, free registers)."""
    chosen = []
    for bot, view, seen, hand, card, free in trials(name, superbot, seed):
        mine, theirs = random.Random(seed), random.Random(seed)
        cards, registers = [DECK[i] for i in hand], list(range(1, free + 1))
        if flywheel:
            want = SearchBot().take_flywheel(view, cards, DECK[card], registers, theirs)
        else:
            want = SearchBot().recompile(view, cards, registers, theirs)
        got = compiled_part.option_choice(bot, seen, hand, free, card if flywheel else -1, mine)
        assert (got, mine.getstate()) == (want, theirs.getstate()), (seen, hand, card, free)
        chosen.append((got, len(hand), free))
    return chosen


@needs_built
@pytest.mark.parametrize("name, superbot, seed", CASES)
def test_recompile_is_search_bots(compiled_part, name, superbot, seed):
    chosen = choices(compiled_part, name, superbot, seed, flywheel=False)
    # both answers, and both of random.sample's ways (a pool for more than 5
    # cards from 84, a set of indices for 5 or fewer)
    assert {got for got, _, _ in chosen} == {True, False}
    assert {size > 5 for _, size, _ in chosen if size} == {True, False}


@needs_built
@pytest.mark.parametrize("name, superbot, seed", CASES)
def test_the_flywheel_is_search_bots(compiled_part, name, superbot, seed):
    chosen = choices(compiled_part, name, superbot, seed, flywheel=True)
    # both answers, of hands as long as the registers to fill (one walk in
    # Python) and shorter (two)
    assert {got for got, _, _ in chosen} == {True, False}
    assert {size >= free for _, size, free in chosen if size} == {True, False}


@needs_built
def test_no_free_register_or_card_decides_without_a_walk(compiled_part):
    (bot, view, seen, hand, card, _), *_ = trials("standard-course.json", False, 5)
    assert compiled_part.option_choice(bot, seen, hand, 0, -1, random.Random(0)) is False
    assert compiled_part.option_choice(bot, seen, [], 3, -1, random.Random(0)) is False
    assert compiled_part.option_choice(bot, seen, hand, 0, card, random.Random(0)) is False
    assert compiled_part.option_choice(bot, seen, [], 3, card, random.Random(0)) is True


@needs_built
def test_a_bad_choice_is_refused(compiled_part):
    (bot, view, seen, hand, card, free), *_ = trials("standard-course.json", False, 6)
    for wrong in ([84], [-2]):
        with pytest.raises(ValueError):
            compiled_part.option_choice(bot, seen, wrong, free, card, random.Random(0))
    with pytest.raises(ValueError):
        compiled_part.option_choice(bot, seen, hand, 6, card, random.Random(0))
    with pytest.raises(ValueError):
        compiled_part.option_choice(object(), seen, hand, free, card, random.Random(0))


@needs_built
def test_its_sample_is_random_sample(compiled_part):
    """Card for card and number for number, whichever way random.sample
    takes: a pool (n <= 21 for 5 cards or fewer, every deck for more) or a set
    of indices drawn again until new."""
    draw = random.Random(7)
    for n in range(len(DECK) + 1):
        population = draw.sample(range(len(DECK)), n)
        for k in range(n + 1):
            for seed in range(5):       # (the ways differ only where picks collide)
                mine, theirs = random.Random(seed), random.Random(seed)
                assert (compiled_part.dice_sample(population, k, mine)
                        == theirs.sample(population, k)), (n, k, seed)
                assert mine.getstate() == theirs.getstate(), (n, k, seed)
    with pytest.raises(ValueError):
        compiled_part.dice_sample([1, 2], 3, draw)
    with pytest.raises(ValueError):
        compiled_part.dice_sample(range(len(DECK) + 1), 3, draw)
