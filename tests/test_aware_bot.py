"""The aware bot: its look-ahead plays the race's rules against the others'
predicted programs; it sees their places, not their programs."""
from __future__ import annotations

import random

import pytest

from engine.balance import balance
from engine.bots import BotView, make_bot
from engine.bots.aware import AwareBot, judged
from engine.bots.search import SearchBot
from engine.course import compile_course
from engine.deck import DECK
from engine.directions import E, S
from engine.model import Board, Card, Dock, Flag, Scenario, Tile
from engine.state import RobotState

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
    free = [1, 2]
    alone_stay = bot._ahead(view, tables, stay, free, [], {})
    alone_aside = bot._ahead(view, tables, aside, free, [], {})
    assert alone_stay > alone_aside                     # the flag is west: staying is better alone
    with_b_stay = bot._ahead(view, tables, stay, free, [b], pushing)
    with_b_aside = bot._ahead(view, tables, aside, free, [b], pushing)
    assert with_b_stay < with_b_aside                   # B's move pushes A into the pit
    assert with_b_stay < alone_stay - 9                 # about a death's price (10 registers)


def test_one_predicted_push_into_a_pit_outweighs_many_small_gains():
    """Over twelve samples B pushes A into the pit once: staying on the pit's
    edge is better on the sum, but its worst sample, counted again, decides."""
    view, b = views()
    bot = AwareBot()
    tables = bot.tables(view)
    stay = [Card("left", 90), Card("left", 70)]
    aside = [Card("move1", 500), Card("right", 100)]
    samples = [{1: [Card("move1", 490), None, None, None, None]}] + \
        [{1: [Card("left", 80), None, None, None, None]}] * 11
    values = {name: [bot._ahead(view, tables, cards, [1, 2], [b], s) for s in samples]
              for name, cards in (("stay", stay), ("aside", aside))}
    assert sum(values["stay"]) > sum(values["aside"])
    assert judged(values["stay"]) < judged(values["aside"])


def test_it_does_not_read_the_others_programs():
    """B's registers, filled before A programs (robot order), change nothing."""
    hand = random.Random(4).sample(DECK, 9)
    picks = []
    for registers in ((None,) * 5, tuple(random.Random(5).sample(DECK, 5))):
        view, _ = views(registers)
        picks.append(make_bot("aware").program(view, list(hand), [1, 2, 3, 4, 5],
                                               random.Random(7)))
    assert picks[0] == picks[1]


def test_alone_it_plays_as_the_search_bot():
    view, _ = views()
    view.robots = [view.robot]
    hand = random.Random(2).sample(DECK, 9)
    assert AwareBot().program(view, list(hand), [1, 2, 3, 4, 5], random.Random(3)) == \
        SearchBot().program(view, list(hand), [1, 2, 3, 4, 5], random.Random(3))


@pytest.mark.parametrize("bot", ["aware", "search"])
def test_balance_runs_say_which_bot_played(bot):
    result = balance(COURSE, 4, 2, bot)
    assert result["bot"] == bot and result["card"]["bot"] == bot
