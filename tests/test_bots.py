"""The greedy and search bots: legal programs, seeded determinism, what they
see, and who beats whom."""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from rallyforge.engine.bots import BOTS, DEFAULT_BOT, make_bot, new_race
from rallyforge.engine.bots.search import candidates
from rallyforge.engine.bots.tables import tables_for
from rallyforge.engine.format.loader import load_file
from rallyforge.engine.model.program_cards import DECK
from rallyforge.engine.model.scenario import Card, RobotSpec
from rallyforge.engine.rules.bot_view import BotView
from rallyforge.engine.rules.course import compile_course
from rallyforge.engine.rules.state import RobotState

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "balance"
STANDARD = ROOT / "scenarios" / "standard-course.json"


@pytest.fixture(scope="module")
def duel():
    return load_file(FIXTURES / "duel.json")


def view_at(scenario, x, y, facing, flags=0, damage=0):
    course = compile_course(scenario.board)
    flag_squares = tuple(course.square(f.x, f.y) for f in scenario.flags)
    robot = RobotState(0, "me", course.square(x, y), facing, damage=damage, flags=flags)
    return BotView(scenario.board, course, flag_squares, scenario.rules, robot)


def test_registry_has_the_three_bots_and_search_is_default():
    assert {"random", "greedy", "search"} <= set(BOTS)
    assert DEFAULT_BOT == "search"


@pytest.mark.parametrize("name", ["random", "greedy", "search"])
def test_programs_are_legal(duel, name):
    rng = random.Random(3)
    bot = make_bot(name)
    course = compile_course(duel.board)
    for trial in range(60):
        while True:
            sq = rng.randrange(course.size)
            if course.death[sq] is None:
                break
        damage = rng.choice([0, 0, 2, 4, 5, 6, 8])
        view = view_at(duel, sq % course.width, sq // course.width, rng.randrange(4),
                       flags=rng.randrange(len(duel.flags) + 2), damage=damage)
        locked = max(0, damage - 4)
        free = list(range(1, 6 - locked))
        for i in range(5 - locked, 5):                 # locked registers hold cards
            view.robot.registers[i] = DECK[rng.randrange(len(DECK))]
        hand = rng.sample(DECK, max(0, 9 - damage))
        program = bot.program(view, list(hand), free, rng)
        assert len(program) == min(len(free), len(hand))
        assert all(any(card is h for h in hand) for card in program)   # cards from the hand
        assert len({id(c) for c in program}) == len(program)          # each at most once
        assert isinstance(bot.power_down(view, rng), bool)


def test_candidates_are_the_distinct_orderings():
    from itertools import permutations
    hand = ["move1", "move1", "left", "right", "uturn", "move2", "back", "move1", "left"]
    kinds = ["move1", "move2", "move3", "back", "left", "right", "uturn"]
    code = {k: i for i, k in enumerate(kinds)}
    counts = [hand.count(k) for k in kinds]
    expected = {tuple(code[c] for c in p) for p in permutations(hand, 5)}
    from rallyforge.engine.bots.search import _sequences
    got = {tuple(col) for col in _sequences(5)[0][:, candidates(counts, 5)].T.tolist()}
    assert got == expected
    assert len(got) < 9 * 8 * 7 * 6 * 5             # duplicates of a kind dropped


def play_out(tables, view, program):
    """The lone-model states after each register of a program."""
    from rallyforge.engine.model.program_cards import KIND_CODE
    s = view.robot.sq * 4 + view.robot.facing
    states = []
    for r, card in enumerate(program):
        if s != tables.DEAD:
            s = int(tables.end[r, KIND_CODE[card.kind], s])
        states.append(s)
    return states


def test_search_takes_the_flag_next_door(duel):
    # robot just south of flag 1 at (4, 0), facing N, with a move1 in hand
    view = view_at(duel, 4, 1, 0)
    hand = [Card("left", 70), Card("right", 80), Card("move1", 500), Card("uturn", 10),
            Card("back", 430)]
    program = make_bot("search").program(view, hand, [1, 2, 3, 4, 5], random.Random(0))
    tables = tables_for(view)
    flag = view.flags[0]
    assert any(s // 4 == flag for s in play_out(tables, view, program))


def test_search_finishes_as_early_as_it_can(duel):
    # two flags touched, the last one (0, 6) straight ahead: finish in register 1
    view = view_at(duel, 0, 7, 0, flags=2)
    hand = [Card("left", 70), Card("right", 80), Card("uturn", 10), Card("back", 430),
            Card("move1", 500)]
    for seed in range(5):
        program = make_bot("search").program(view, hand, [1, 2, 3, 4, 5], random.Random(seed))
        assert program[0].kind == "move1"


def test_search_avoids_death_when_it_can(duel):
    # facing the pit at (4, 3) from (4, 4): a move1 forward kills, back up does not
    view = view_at(duel, 4, 4, 0)
    hand = [Card("move1", 500), Card("back", 430), Card("left", 70), Card("right", 80),
            Card("uturn", 10)]
    tables = tables_for(view)
    program = make_bot("search").program(view, hand, [1, 2, 3, 4, 5], random.Random(0))
    assert tables.DEAD not in play_out(tables, view, program)


def test_search_with_every_flag_touched_still_avoids_death(duel):
    # as above, having touched every flag already (a starting value): no
    # next flag to go for, and no table row past the last flag to read
    view = view_at(duel, 4, 4, 0, flags=len(duel.flags))
    hand = [Card("move1", 500), Card("move2", 600), Card("move3", 700), Card("left", 70),
            Card("uturn", 10)]
    tables = tables_for(view)
    for seed in range(5):
        program = make_bot("search").program(view, hand, [1, 2, 3, 4, 5], random.Random(seed))
        assert tables.DEAD not in play_out(tables, view, program), (seed, program)


def test_a_race_refuses_more_starting_flags_than_the_course_has(duel):
    robots = (RobotSpec("A", flags=len(duel.flags) + 1),)
    with pytest.raises(ValueError, match="flags"):
        new_race(replace(duel, robots=robots))


def race_summary(scenario, seed, bot):
    from rallyforge.engine.analysis.balance.play import play_race
    return play_race(scenario, seed, (1, 2), bot)


@pytest.mark.parametrize("name", ["random", "greedy", "search"])
def test_same_seed_same_race(duel, name):
    a = race_summary(duel, 11, name)
    b = race_summary(duel, 11, name)
    assert a == b
    others = {race_summary(duel, seed, name) for seed in range(12, 16)}
    assert len(others) > 1                          # seeds matter


def test_search_plays_as_if_alone(duel):
    """A bot's view holds the board, the rules, its own robot and the race's
    robots (for bots that watch the others); the search bot ignores them:
    robot 1's program is the same whether or not another robot races beside
    it (same hand, same generator state)."""
    views = []
    for robots in ((RobotSpec("A", dock=1, bot="search"),),
                   (RobotSpec("A", dock=1, bot="search"), RobotSpec("B", dock=2, bot="search"))):
        race = new_race(replace(duel, robots=robots), seed=5, record_events=False)
        views.append(race.controllers[0].view)
    assert set(BotView.__slots__) == {"board", "course", "flags", "rules", "robot", "robots",
                                       "homes", "teams"}
    assert [r.name for r in views[1].others()] == ["B"] and views[0].others() == []
    hand = random.Random(9).sample(DECK, 9)
    programs = [make_bot("search").program(v, list(hand), [1, 2, 3, 4, 5], random.Random(1))
                for v in views]
    assert programs[0] == programs[1]
    # and the program is made of the hand's cards only
    assert all(any(c is h for h in hand) for c in programs[0])


def head_to_head(scenario, a, b, races):
    """Races of bot a against bot b on docks 1 and 2, swapping docks every
    other race; returns the wins of each (a shared win counts for both)."""
    wins = Counter()
    for i in range(races):
        first, second = (a, b) if i % 2 == 0 else (b, a)
        s = replace(scenario, robots=(RobotSpec("P", dock=1, bot=first),
                                      RobotSpec("Q", dock=2, bot=second)),
                    rules=replace(scenario.rules, max_rounds=40))
        outcome = new_race(s, seed=1000 + i // 2, record_events=False).run()
        for name in outcome.winners:
            wins[first if name == "P" else second] += 1
    return wins


def test_search_beats_greedy_beats_random(duel):
    wins = head_to_head(duel, "search", "greedy", 60)
    assert wins["search"] > wins["greedy"]
    wins = head_to_head(duel, "greedy", "random", 20)
    assert wins["greedy"] > wins["random"]


def test_search_finishes_the_standard_course():
    """Completion above 90% within 30 rounds, 4 search robots."""
    from rallyforge.engine.analysis.balance.plan import make_plan
    from rallyforge.engine.analysis.balance.play import RaceTask, split_results
    scenario = load_file(STANDARD)
    task = RaceTask(scenario, "search", max_rounds=30)
    plan = make_plan(24, 4, len(scenario.docks), seed=1, trials=0)
    results = task.play(list(plan.jobs))
    decided = sum(1 for r in results if r.decided)
    assert decided / len(results) > 0.9


EXAMPLES = sorted((ROOT / "scenarios").glob("*.json"))


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_search_finishes_the_example_courses(path):
    from rallyforge.engine.analysis.balance.plan import make_plan
    from rallyforge.engine.analysis.balance.play import RaceTask, split_results
    scenario = load_file(path)
    robots = min(4, len(scenario.docks))
    task = RaceTask(scenario, "search", max_rounds=40)
    plan = make_plan(len(scenario.docks), robots, len(scenario.docks), seed=4)
    races, trials = split_results(list(zip(plan.jobs, task.play(list(plan.jobs)))))
    assert sum(1 for r in races if r.decided) >= len(races) - 1
    assert all(t.finish_round is not None for t in trials)          # alone from every dock


@pytest.mark.parametrize("name", ["greedy", "search"])
def test_bots_finish_the_test_courses(name):
    from rallyforge.engine.analysis.balance.plan import make_plan
    from rallyforge.engine.analysis.balance.play import RaceTask, split_results
    for course in ("duel.json", "symmetric.json", "biased.json"):
        scenario = load_file(FIXTURES / course)
        task = RaceTask(scenario, name, max_rounds=30)
        plan = make_plan(8, 2, len(scenario.docks), seed=2, trials=0)
        results = task.play(list(plan.jobs))
        assert sum(1 for r in results if r.decided) >= 7, course


def test_tables_search_once_for_every_repair_square_together(monkeypatch):
    """A board covered in upgrade squares: a map per flag and one for all
    the repair squares (not one per square: 100x100 such squares took a
    minute and gigabytes), giving the distance to the nearest, all found
    in one search."""
    from rallyforge.engine.model.scenario import Board, Flag, Scenario, Tile
    from rallyforge.engine.rules.lone_robot_model import LoneModel
    board = Board(12, 12, tuple(Tile(x, y, "upgrade") for y in range(12) for x in range(12)
                                if (x, y) not in ((0, 0), (11, 11), (5, 5))))
    scenario = Scenario(name="upgrades", board=board, flags=(Flag(11, 11), Flag(0, 0)), docks=())
    searches = []
    original = LoneModel.distances_to
    monkeypatch.setattr(LoneModel, "distances_to", lambda model, targets: searches.append(
        [set(squares) for squares in targets]) or original(model, targets))
    view = view_at(scenario, 5, 5, 0)
    tables = tables_for(view)
    assert len(searches) == 1
    searches = searches[0]
    assert len(searches) == len(scenario.flags) + 1
    course = view.course
    repairs = [sq for sq in range(course.size) if course.archive_point[sq]]
    assert len(repairs) == 12 * 12 - 3
    assert set(repairs) | set(view.flags) in searches        # flags repair too (flags_repair)
    assert tables.repair_dist[course.square(5, 5) * 4] == 1       # next door, facing N
    assert (tables.repair_dist[[sq * 4 + f for sq in repairs for f in range(4)]] == 0).all()


def test_the_tables_of_every_square_a_flagless_bot_stands_on_are_kept():
    """On a course without flags (elimination) a bot plays to its own square
    as if it were a flag: a table set per square. On a small board each is
    made once per process, not again each time more than 16 were asked for."""
    scenario = load_file(ROOT / "scenarios" / "standard-course.json")
    course = compile_course(scenario.board)
    squares = [s for s in range(course.size) if course.death[s] is None][:60]

    def view(square: int) -> BotView:
        robot = RobotState(0, "me", square, 0)
        return BotView(scenario.board, course, (square,), scenario.rules, robot)

    first = [tables_for(view(s)) for s in squares]
    assert all(a is b for a, b in zip(first, (tables_for(view(s)) for s in squares)))


def test_the_tables_least_recently_asked_for_are_dropped_first(monkeypatch):
    """Tables are kept per process up to a room (16 sets at the least); when
    it is full the set asked for least recently goes, so that one asked for
    again and again (the board a balance run's races start on) stays."""
    from rallyforge.engine.bots import tables as kept
    monkeypatch.setattr(kept, "_cache", {})
    monkeypatch.setattr(kept, "MOST_CACHED_SQUARES", 0)          # room for 16
    scenario = load_file(STANDARD)
    course = compile_course(scenario.board)
    squares = [s for s in range(course.size) if course.death[s] is None][:18]

    def view(square: int) -> BotView:
        return BotView(scenario.board, course, (square,), scenario.rules,
                       RobotState(0, "me", square, 0))

    first = [tables_for(view(s)) for s in squares[:16]]
    assert tables_for(view(squares[0])) is first[0]              # now the latest asked for
    tables_for(view(squares[16]))                                 # the second goes
    assert tables_for(view(squares[0])) is first[0]
    assert tables_for(view(squares[1])) is not first[1]
    assert tables_for(view(squares[1])).flags == first[1].flags


def test_tables_are_kept_for_the_rules_object_they_were_made_with():
    """Equal rules of another object (2 and 2.0 are equal) get tables of their own:
    tables never answer for rules they were not made with."""
    scenario = load_file(STANDARD)
    course = compile_course(scenario.board)
    robot = RobotState(0, "me", course.square(5, 5), 0)
    flags = tuple(course.square(f.x, f.y) for f in scenario.flags)
    rules = replace(scenario.rules, destroy_at_damage=float(scenario.rules.destroy_at_damage))
    assert rules == scenario.rules
    mine = tables_for(BotView(scenario.board, course, flags, rules, robot))
    assert mine.rules is rules
    assert tables_for(BotView(scenario.board, course, flags, scenario.rules, robot)).rules \
        is scenario.rules


@pytest.mark.parametrize("name", ["scenarios/standard-course.json",
                                  "engine/editing/published/moving-targets.json"])
def test_the_layered_tables_follow_the_lone_robot_tables(name):
    """Each entry of the search bot's layered tables (engine/bots/tables.py
    Layered, made for all layers and registers at once, a register like an
    earlier one copied from it) is what its definition says: the lone-robot
    move with the flag count folded in. On the standard course pushers make
    registers differ; on Moving Targets the flags ride the belts."""
    scenario = load_file(ROOT / name)
    course = compile_course(scenario.board)
    flags = tuple(course.square(f.x, f.y) for f in scenario.flags)
    robot = RobotState(0, "me", 0, 0)
    tables = tables_for(BotView(scenario.board, course, flags, scenario.rules, robot))
    layered = tables.layered()
    n, S, F, X, FIN = tables.states, layered.S, layered.F, layered.X, layered.FIN
    rng = random.Random(7)
    for _ in range(20_000):
        r, k, t, s = rng.randrange(5), rng.randrange(8), rng.randrange(F), rng.randrange(S)
        nxt = int(tables.end[r, k, s]) if s < n else tables.DEAD
        if nxt == tables.DEAD:
            want = t * S + n
        elif tables.on_flag[r][t][nxt]:
            want = (t + 1) * S + nxt if t + 1 < F else FIN + r
        else:
            want = t * S + nxt
        assert layered.end_all[r, k * X + t * S + s] == want
        assert layered.dmg_all[r, k * X + t * S + s] == (tables.dmg[r, k, s] if s < n else 0)
    finishes = layered.end_all.reshape(5, 8, X)[:, :, FIN:]
    assert (finishes == range(FIN, X)).all()
    assert len({layered.end_all[r].tobytes() for r in range(5)}) == 5     # a finish names its register
