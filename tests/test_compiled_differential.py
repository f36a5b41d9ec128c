"""The compiled race against the Python engine on random courses drawn by
construction (tests/random_courses.py: every tile kind and edge element of
the element table, every rule drawn together from its schema range, boards
from 1x1 to 100x100, robots alone or crowded): the same summaries, race for
race. A bounded run here (COURSES courses); bench/soak_compiled.py runs as
many as it is given time for."""
from __future__ import annotations

from collections import Counter
from dataclasses import fields

import pytest

from rallyforge.engine.model.scenario import Rules
from rallyforge.engine.rules.compiled import race as compiled_rules
from tests import random_courses

COURSES = 800
CHUNK = 50


@pytest.mark.usefixtures("compiled_part")
@pytest.mark.parametrize("first", range(0, COURSES, CHUNK))
def test_random_courses_race_the_same(first):
    problems = [p for p in map(random_courses.compare, range(first, first + CHUNK)) if p is not None]
    assert not problems, "\n".join(problems)


def test_the_random_courses_hold_every_element_rule_and_size():
    """What the bounded run compares: every element the compiled race plays,
    every rule off its default (and each played value of a rule played for
    some values), 1-square and 100-square sides, a robot alone and 64; under
    board_turns_on_flag flags on square factory boards, on an oblong one,
    on none, and courses without boards; elimination courses without flags
    (docs/rules.md 13.6), a robot alone and several."""
    kinds: Counter[str] = Counter()
    rules: dict[str, set] = {f.name: set() for f in fields(Rules) if f.name != "note"}
    sides, crowds = set(), set()
    flags_on: Counter[str] = Counter()         # under board_turns_on_flag: what each flag is on
    eliminations: Counter[str] = Counter()      # elimination courses without flags, by robots
    for seed in range(COURSES):
        scenario = random_courses.random_course(seed)
        board = scenario.board
        if scenario.rules.board_turns_on_flag:
            parts = [scenario.board_under(f.x, f.y) for f in scenario.flags]
            flags_on.update("no boards" if not scenario.boards else "none" if part is None
                            else "square" if part.turns_in_place else "oblong" for part in parts)
        kinds.update(t.type for t in board.tiles)
        kinds.update(e.name for e in random_courses.EDGES if getattr(board, e.list))
        for name, seen in rules.items():
            seen.add(getattr(scenario.rules, name))
        sides.update((board.width, board.height))
        crowds.add(len(scenario.docks))
        if scenario.rules.victory == "elimination" and not scenario.flags:
            eliminations["alone" if len(scenario.docks) == 1 else "several"] += 1
    assert set(kinds) >= {k.name for k in random_courses.KINDS if k.name != "floor"}
    assert {e.name for e in random_courses.EDGES} <= set(kinds)
    default = Rules()
    for name, seen in rules.items():
        assert seen - {getattr(default, name)}, f"rule {name} never off its default"
        played = compiled_rules.FIELDS[Rules][name]
        if isinstance(played, tuple):
            assert set(played) <= seen, name
    assert {1, 100} <= sides and {1, 64} <= crowds
    assert min(flags_on[on] for on in ("square", "oblong", "none", "no boards")) >= 10, flags_on
    assert min(eliminations["alone"], eliminations["several"]) >= 30, eliminations


@pytest.mark.usefixtures("compiled_part")
def test_balance_runs_of_valid_random_courses_are_the_same_without_the_compiled_part(monkeypatch):
    """40 random courses without errors: a balance run gives the same result
    with the compiled part and without it (as RALLYFORGE_COMPILED=0 has it),
    but for the engine's name and the time."""
    from rallyforge.engine.analysis.balance import balance
    from rallyforge.engine.bots import search
    from rallyforge.engine.validation.validator import race_errors
    courses = [c for c in map(random_courses.random_course, range(300)) if not race_errors(c)][:40]
    assert len(courses) == 40
    runs = [dict(balance(c, races=6, robots=min(4, len(c.docks)), workers=1), elapsed_s=0)
            for c in courses]
    assert sum(run.pop("engine") == "compiled" for run in runs) >= 30, "most race in C"
    monkeypatch.setattr(search, "compiled", None)
    for course, run in zip(courses, runs):
        python = dict(balance(course, races=6, robots=min(4, len(course.docks)), workers=1),
                      elapsed_s=0)
        assert python.pop("engine") == "python"
        assert python == run, course.name
