"""Moving with option cards in the compiled race (engine/rules/compiled/_race.c
play_with_options, the Gyroscopic Stabilizer in board elements, the bots'
lone-robot trial; engine/bots/_search_race.c plan_options) against the Python
engine: the search bot's plans against option_moves.py OptionMoves.plan in
random states, and the published courses raced by search bots holding only
the cards that change a move, with nothing else in the option deck and no
laser step that a held card changes (lasers off the board, or damage too
high to trade a card for), so that every difference is one of moving."""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from rallyforge.engine.analysis.balance import compiled, play
from rallyforge.engine.bots import race_bot, search
from rallyforge.engine.bots.option_moves import OptionMoves, PLANNED_OPTIONS
from rallyforge.engine.format.loader import load_file
from rallyforge.engine.model.option_cards import OPTION_IDS
from rallyforge.engine.model.program_cards import DECK
from rallyforge.engine.model.scenario import Scenario
from rallyforge.engine.rules import state
from rallyforge.engine.rules.compiled import race as compiled_rules
from rallyforge.engine.rules.option_play import MOVE_CARDS
from rallyforge.engine.rules.course import FLOOR
from rallyforge.engine.rules.state import RobotState
from tests import random_courses

ROOT = Path(__file__).resolve().parent.parent
COURSES = sorted((ROOT / "engine" / "editing" / "published").glob("*.json"))
# the cards that change a move and the Gyroscopic Stabilizer
MOVING = MOVE_CARDS | {"gyroscopic-stabilizer"}


@pytest.fixture
def moving_deck(monkeypatch):
    """Option decks of the moving cards only, in the order the race's deck has them."""
    shuffled = state.OptionDeck.__init__

    def only_moving(deck: state.OptionDeck, seed: int, listed: set[str]) -> None:
        shuffled(deck, seed, listed)
        deck.cards = [card for card in deck.cards if card in MOVING]

    monkeypatch.setattr(state.OptionDeck, "__init__", only_moving)


def _moving_race(scenario: Scenario, variant: str) -> Scenario:
    """`scenario` with two moving cards a robot, robot lasers off, and board
    lasers off the board ("no lasers"; "locked": every register locked in the
    first round, no program, so no plan), or kept with damage no robot trades
    a card for ("lasers")."""
    rules = replace(scenario.rules, options="played", start_options=2, robot_lasers=False,
                    repair_sites="repair", start_option_choice=0, flag_gives_option=False)
    if variant == "lasers":
        return replace(scenario, rules=replace(rules, destroy_at_damage=1000,
                                               lock_from_damage=1000))
    if variant == "locked":
        rules = replace(rules, start_damage=9, destroy_at_damage=10, lock_from_damage=5)
    return replace(scenario, board=replace(scenario.board, lasers=()), rules=rules)


@pytest.mark.usefixtures("compiled_part", "moving_deck")
@pytest.mark.parametrize("variant", ("no lasers", "lasers", "locked"))
def test_moving_option_cards_race_the_same_in_both_engines(variant):
    used: Counter[str] = Counter()
    raced = 0
    for path in COURSES:
        scenario = _moving_race(load_file(path), variant)
        docks = tuple(range(1, min(len(scenario.docks), 6) + 1))
        if compiled.python_reason(scenario, "search", len(docks)) is not None:
            continue                    # raced by Python for another reason (levels, a rule)
        for seed in range(3):
            in_c = compiled.race_summary(scenario, seed, docks)
            assert in_c == play.engine_summary(scenario, seed, docks, "search"), (path.stem, seed)
            used.update(dict(in_c.options_used))
        raced += 1
    assert raced >= 25
    assert set(used) == set(MOVING), "every moving card changed a move somewhere"


def _plans(scenario: Scenario, rng: random.Random, tries: int) -> Counter[str]:
    """Plans of random programs from random states on `scenario`, the compiled
    bot's against OptionMoves.plan (asserted equal); the options planned."""
    found: Counter[str] = Counter()
    course, flags, capsule = compiled_rules.compiled_course(scenario)
    homes = tuple(course.square(f.x, f.y) for f in scenario.flags)
    bot = race_bot.search_bot(course, flags, scenario.rules, homes)
    tables = race_bot._tables(course, flags, scenario.rules, homes)
    layered = tables.layered()
    alive = [s for s in range(course.size) if course.death[s] is None]
    # (half the tries from squares of elements: water and teleporters change pairs)
    elements = [s for s in alive if course.tile[s] != FLOOR] or alive
    moves = None
    held_from = [*PLANNED_OPTIONS, "ramming-gear", "ablative-coat"]
    for i in range(tries if alive else 0):
        sq = rng.choice(elements if i % 2 else alive)
        facing, touched = rng.randrange(4), rng.randrange(len(flags))
        damage, lives = rng.randrange(scenario.rules.destroy_at_damage), rng.randrange(1, 4)
        archive = rng.choice(alive)
        held = rng.sample(held_from, rng.randrange(1, 5))
        if set(held).isdisjoint(PLANNED_OPTIONS):
            held.append(rng.choice(PLANNED_OPTIONS))
        hand = rng.sample(DECK, rng.randrange(1, 10))
        free = rng.choice((5, 5, 4, 2))
        m = min(free, len(hand))
        registers = [*rng.sample(hand, m), *[None] * (5 - m)]
        for r in range(free, 5):        # locked registers: cards out of the hand, or none
            registers[r] = rng.choice([c for c in DECK if c not in hand] + [None])
        robot = RobotState(0, "planner", sq, facing, damage=damage, lives=lives, flags=touched)
        robot.archive, robot.cards = archive, list(held)
        dead = search._values(layered, touched, lives <= 1, archive, False)[0].tolist()
        moves = moves or OptionMoves(tables, layered, dead)
        moves.dead = dead
        uses, pairs, steady = moves.plan(robot, registers, list(range(m)), hand)
        number = {card: i for i, card in enumerate(DECK)}
        planned = compiled_rules.compiled.plan_options(capsule, bot, {
            "robot": (sq, facing, damage, lives, touched, archive),
            "options": [OPTION_IDS.index(c) for c in held],
            "registers": [-1 if c is None else number[c] for c in registers],
            "free": list(range(m)), "hand": [number[c] for c in hand]})
        assert planned == (
            [-1 if u is None else OPTION_IDS.index(u) for u in uses],
            [-1 if p is None else number[p[0]] for p in pairs],
            [-1 if p is None else OPTION_IDS.index(p[1]) for p in pairs], int(steady)), (
            scenario.name, sq, facing, touched, damage, held)
        found.update(u for u in uses if u is not None)
        found.update(p[1] for p in pairs if p is not None)
        found.update(("gyroscopic-stabilizer",) * steady)
    return found


@pytest.mark.usefixtures("compiled_part")
def test_the_bots_plans_of_moving_cards_are_option_moves_plans():
    """The compiled search bot plans the uses, pairs and Gyroscopic
    Stabilizer of random programs as OptionMoves.plan does (scored by the
    race's trial alone on the board: every tile kind, board lasers, crushers,
    teleporters, water), on the published courses and random ones."""
    rng = random.Random(1)
    planned: Counter[str] = Counter()
    tried = 0
    scenarios = [load_file(path) for path in COURSES]
    scenarios += [random_courses.random_course(seed) for seed in range(100)]
    for scenario in scenarios:
        scenario = replace(scenario, rules=replace(scenario.rules, options="played"))
        if compiled_rules.refusal(scenario) is None and scenario.flags:
            planned += _plans(scenario, rng, 40)
            tried += 1
    assert tried >= 80
    assert set(planned) == set(PLANNED_OPTIONS), "every planned card chosen somewhere"
