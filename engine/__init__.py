"""Rally Forge's engine, for scripts: read, check, save and race courses.

    from rallyforge.engine import balance, load, new_race, save, validate

    problems = validate("course.json")      # [] for a clean file (Problem: code, message, place)
    course = load("course.json")            # a Scenario; raises ScenarioError with the problems
    outcome = new_race(course, seed=7, robot_count=4, bot="search").run()     # an Outcome
    result = balance(course, 200, robots=4, bot="greedy")   # the `rallyforge balance --json` dict
    save(course, "copy.json")

Every name loads on first use; everything else in rallyforge.engine.* is the engine's
own and may change. The engine's packages are layers, each importing only
the ones below it: cli > analysis > bots, editing, validation > rules >
format > model (see their docstrings).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rallyforge.engine.analysis.balance import balance
    from rallyforge.engine.bots import new_race
    from rallyforge.engine.format.loader import load_file as load, save_file as save
    from rallyforge.engine.model.problems import Problem, ScenarioError
    from rallyforge.engine.model.scenario import Scenario
    from rallyforge.engine.rules.outcome import Outcome
    from rallyforge.engine.rules.race import Race
    from rallyforge.engine.validation.validator import validate_file as validate

__all__ = ["Outcome", "Problem", "Race", "Scenario", "ScenarioError", "balance", "load",
           "new_race", "save", "validate"]

_LAZY = {
    "balance": ("analysis.balance", "balance"),
    "validate": ("validation.validator", "validate_file"),
    "load": ("format.loader", "load_file"),
    "save": ("format.loader", "save_file"),
    "Race": ("rules.race", "Race"),
    "new_race": ("bots", "new_race"),
    "Scenario": ("model.scenario", "Scenario"),
    "Outcome": ("rules.outcome", "Outcome"),
    "Problem": ("model.problems", "Problem"),
    "ScenarioError": ("model.problems", "ScenarioError"),
}


def __getattr__(name: str) -> object:
    if name not in _LAZY:
        raise AttributeError(f"module 'rallyforge.engine' has no attribute {name!r}")
    from importlib import import_module
    module, attribute = _LAZY[name]
    value = getattr(import_module(f".{module}", __name__), attribute)
    globals()[name] = value
    return value
