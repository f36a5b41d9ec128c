"""The search bot's compiled inner loop (engine/bots/_play.c) against its
numpy version (engine/bots/search.py), on the board of every rule case and
example course: the same programs, end states, damage and scores, and the
same races; bad arguments raise, never crash."""
from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from rallyforge.engine.bots import new_race, search
from rallyforge.engine.bots.common import by_kind
from rallyforge.engine.bots.search import (Hands, Programs, best_of_hands, best_programs, candidates,
                                hand_programs, play_programs, score_programs)
from rallyforge.engine.bots.tables import NONE, tables_for
from rallyforge.engine.format.loader import load_file
from rallyforge.engine.model.program_cards import DECK, KIND_CODE
from rallyforge.engine.rules.bot_view import BotView
from rallyforge.engine.rules.course import compile_course
from rallyforge.engine.rules.state import RobotState

ROOT = Path(__file__).resolve().parent.parent
COURSES = sorted((ROOT / "tests" / "rules").glob("*.json")) + sorted((ROOT / "scenarios").glob("*.json"))


def test_the_loop_is_built_wherever_a_c_compiler_is(compiled_part):
    assert compiled_part is search.compiled is not None, "setup.py builds engine/bots/_play.c"


def numpy_too(monkeypatch, call):
    """`call()` with the compiled loop, then with numpy."""
    compiled = call()
    with monkeypatch.context() as patched:
        patched.setattr(search, "compiled", None)
        return compiled, call()


def same(a, b) -> bool:
    if isinstance(a, tuple):
        return all(same(x, y) for x, y in zip(a, b, strict=True))
    return a.dtype.kind == b.dtype.kind and a.shape == b.shape and bool((a == b).all())


def robots(path: Path, count: int, damages: list[int], all_flags: bool = False):
    """`count` views of a robot of the course at a random square, facing,
    damage (of `damages`), flags touched (up to all of them with
    `all_flags`), lives and archive; with the generator that placed them.
    Nothing for a course with no flag."""
    scenario = load_file(path)
    if not scenario.flags:
        return
    course = compile_course(scenario.board)
    flags = tuple(course.square(f.x, f.y) for f in scenario.flags)
    rng = random.Random(path.name)
    for _ in range(count):
        robot = RobotState(0, "me", rng.randrange(course.size), rng.randrange(4),
                           damage=rng.choice(damages),
                           flags=rng.randrange(len(flags) + all_flags), lives=rng.choice([1, 3]))
        robot.archive = rng.randrange(course.size)
        yield BotView(scenario.board, course, flags, scenario.rules, robot), rng


def situations(path: Path, count: int):
    """A course's layered tables with robots at random places, random hands,
    damage and locked cards: (layered, rules, robot, programs, slots)."""
    for view, rng in robots(path, count, [0, 0, 1, 3, 5, 6, 8, 9]):
        robot, damage = view.robot, view.robot.damage
        layered = tables_for(view).layered()
        hand = rng.sample(DECK, max(1, 9 - damage))
        locked = max(0, damage - 4)
        m = min(5 - locked, len(hand)) if locked < 5 else 1
        counts = [len(g) for g in by_kind(hand)]
        fixed = [~rng.choice([*range(7), NONE]) for _ in range(5 - m)]
        yield layered, view.rules, robot, hand_programs(counts, m), list(range(m)) + fixed


@pytest.mark.usefixtures("compiled_part")      # (conftest.py: fails or skips)
@pytest.mark.parametrize("path", COURSES, ids=lambda p: p.name)
def test_compiled_and_numpy_agree_on_every_board(monkeypatch, path):
    for layered, rules, robot, programs, slots in situations(path, 6):
        counts = [len(g) for g in by_kind(random.Random(robot.sq).sample(DECK, 9))]
        got, want = numpy_too(monkeypatch, lambda: candidates(counts, programs.m))
        assert same(got, want)
        x0 = robot.flags * layered.S + robot.sq * 4 + robot.facing
        got, want = numpy_too(monkeypatch, lambda: play_programs(layered, x0, programs, slots))
        assert same(got, want)
        # a whole hand (played as a tree), and the same programs one by one
        for chosen in (programs, Programs(programs.seqs, programs.m)):
            for to_go in (False, True):
                def score():
                    return score_programs(layered, robot.sq * 4 + robot.facing, robot.flags,
                                          robot.damage, robot.lives, robot.archive, chosen,
                                          slots, rules.destroy_at_damage, to_go)
                got, want = numpy_too(monkeypatch, score)
                assert same(got, want), (path.name, to_go)
                got, want = numpy_too(monkeypatch, lambda: best_programs(want))
                assert same(got, want)          # the best, ties and all
        if slots[programs.m:] == [~NONE] * (5 - programs.m):     # as the next round's hands
            rng = random.Random(robot.sq)
            hands = Hands([programs] + [hand_programs([len(g) for g in by_kind(
                rng.sample(DECK, 9))], programs.m) for _ in range(3)])
            got, want = numpy_too(monkeypatch, lambda: best_of_hands(
                layered, robot.sq * 4 + robot.facing, robot.flags, robot.damage, robot.lives,
                robot.archive, hands, slots, rules.destroy_at_damage, True))
            assert got == want


@pytest.mark.usefixtures("compiled_part")      # (conftest.py: fails or skips)
@pytest.mark.parametrize("path", COURSES, ids=lambda p: p.name)
def test_a_decision_is_the_same_with_and_without_it(monkeypatch, path):
    """The search bot's program, the compiled loop deciding in one call or
    numpy scoring and Python picking: the same cards, and the race's
    generator drawn from alike (ties are broken with it)."""
    for view, rng in robots(path, 12, [0, 0, 2, 5, 6, 8], all_flags=True):
        damage = view.robot.damage
        cards = rng.sample(DECK, 14)
        locked = max(0, damage - 4)
        for i in range(5 - locked, 5):
            view.robot.registers[i] = cards.pop()
        hand, free = cards[:max(1, 9 - damage)], list(range(1, 6 - locked))
        seed = rng.random()

        def decide():
            draws = random.Random(seed)
            return search.SearchBot().program(view, hand, free, draws), draws.getstate()

        (got, got_state), (want, want_state) = numpy_too(monkeypatch, decide)
        assert [id(c) for c in got] == [id(c) for c in want]
        assert got_state == want_state
        # the best of several hands (Recompile's, the Flywheel's), on the packed tables too
        hands = [hand] + [rng.sample(DECK, len(hand)) for _ in range(3)]
        got, want = numpy_too(monkeypatch,
                              lambda: search.SearchBot().best_scores(view, hands, free))
        assert got == want


@pytest.mark.usefixtures("compiled_part")      # (conftest.py: fails or skips)
@pytest.mark.parametrize("name", ["standard-course", "gauntlet", "highlands"])
def test_races_are_the_same_with_and_without_it(monkeypatch, name):
    scenario = load_file(ROOT / "scenarios" / f"{name}.json")

    def races():
        out = []
        for seed in range(3):
            race = new_race(scenario, seed=seed, robot_count=4, bot="search", record_events=False)
            outcome = race.run()
            out.append((outcome.winners, outcome.rounds,
                        [(r.sq, r.facing, r.flags, r.damage, r.deaths) for r in race.robots]))
        return out

    with_it, without = numpy_too(monkeypatch, races)
    assert with_it == without


@pytest.mark.usefixtures("compiled_part")      # (conftest.py: fails or skips)
def test_bad_arguments_raise_and_never_read_outside_the_tables():
    layered, rules, robot, programs, slots = next(situations(ROOT / "scenarios" / "tutorial.json", 1))
    n = programs.seqs.size
    ends, damage = np.empty(n, np.int32), np.empty(n, np.int32)
    args = [layered.end_all, layered.dmg_all, programs.seqs, programs.m, slots, layered.X, 0,
            ends, damage]
    search.compiled.play(*args)                                 # as the bot calls it
    bad = {
        2: (programs.seqs.astype(np.int32), TypeError),         # programs of the wrong width
        3: (6, ValueError),                                     # more registers than five
        4: ([programs.m] * 5, IndexError),                      # a row the programs lack
        6: (layered.end_all.shape[1], IndexError),              # a state beyond the tables
        7: (np.empty(n + 1, np.int32), IndexError),             # an output of the wrong size
    }
    for at, (value, error) in bad.items():
        with pytest.raises(error):
            search.compiled.play(*args[:at], value, *args[at + 1:])
    with pytest.raises(IndexError):                             # a kind beyond the tables
        search.compiled.play(*args[:4], [~99] * 5, *args[5:])
    with pytest.raises(TypeError):
        search.compiled.play(*args[:-1])
    scoring = [np.zeros(layered.X, np.int64), np.zeros(9, np.int64), 10, layered.S, layered.FIN, 1]
    hand = [args[0], args[1], programs.counts, programs.m, slots, layered.X, 0, *scoring]
    search.compiled.score_hand(*hand, np.empty(n, np.int64))
    with pytest.raises(ValueError):                             # one score too many
        search.compiled.score_hand(*hand, np.empty(n + 1, np.int64))
    with pytest.raises(ValueError):                             # rows not filling the first registers
        search.compiled.score_hand(*hand[:4], slots[::-1], *hand[5:], np.empty(n, np.int64))
    bests = [hand[0], hand[1], [programs.counts], *hand[3:]]
    assert len(search.compiled.best_of_hands(*bests)) == 1     # one best per hand
    with pytest.raises(ValueError):                             # a hand too small for m cards
        search.compiled.best_of_hands(*bests[:2], [[0] * 7], *bests[3:])
    with pytest.raises(TypeError):                              # hands not a list of counts
        search.compiled.best_of_hands(*bests[:2], 7, *bests[3:])
    hand = [c for c in DECK if c.kind in ("move1", "left")][:programs.m]
    decide = [args[0], args[1], hand, programs.m, slots, layered.X, 0, *scoring, KIND_CODE,
              random.Random(0)]
    assert len(search.compiled.decide(*decide)) == programs.m
    with pytest.raises(TypeError):                              # no table of kind codes
        search.compiled.decide(*decide[:13], None, decide[14])
    with pytest.raises(ValueError):                             # a card of no program kind
        search.compiled.decide(*decide[:13], {}, decide[14])
    with pytest.raises(ValueError):                             # fewer cards than registers
        search.compiled.decide(*decide[:2], hand[:programs.m - 1], *decide[3:])
    # 70 hands walked together (64 at a time): each hand's best as when walked alone
    many = [[len(g) for g in by_kind(random.Random(i).sample(DECK, 9))] for i in range(70)]
    together = search.compiled.best_of_hands(*bests[:2], many, *bests[3:])
    assert together == [search.compiled.best_of_hands(*bests[:2], [counts], *bests[3:])[0]
                        for counts in many]
    with pytest.raises(ValueError):                             # one hand too small, among others
        search.compiled.best_of_hands(*bests[:2], many[:3] + [[0] * 7], *bests[3:])
    # the tables packed per state, read instead of end and dmg: the same answers
    steps = layered.steps_all
    assert search.compiled.best_of_hands(*bests, steps) == search.compiled.best_of_hands(*bests)
    assert search.compiled.best_of_hands(*bests, None) == search.compiled.best_of_hands(*bests)
    assert search.compiled.decide(*decide[:-1], random.Random(1), steps) == \
        search.compiled.decide(*decide[:-1], random.Random(1))
    with pytest.raises(ValueError):                             # packed tables of another size
        search.compiled.decide(*decide, steps[:, :-2])
    with pytest.raises(TypeError):                              # packed tables of int64
        search.compiled.best_of_hands(*bests, steps.astype(np.int64))
    with pytest.raises(IndexError):                             # a state beyond the tables
        search.compiled.best_of_hands(*bests[:6], layered.X, *bests[7:], steps)
    with pytest.raises(ValueError):
        search.compiled.programs([1] * 6, 5)                    # a kind's count missing
    with pytest.raises(ValueError):
        search.compiled.best(np.empty(0, np.int64), np.empty(0, np.int64))  # no program at all


def test_hands_alike_share_their_programs():
    assert hand_programs([2, 1, 1, 1, 1, 1, 2], 5) is hand_programs([2, 1, 1, 1, 1, 1, 2], 5)
