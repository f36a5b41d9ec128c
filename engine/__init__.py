"""Rally Forge's engine, for scripts: read, check, save and race courses.

    from engine import Race, balance, load, save, validate

    problems = validate("course.json")      # [] for a clean file (Problem: code, message, place)
    course = load("course.json")            # a Scenario; raises ScenarioError with the problems
    outcome = Race(course, seed=7, robot_count=4, bot="search").run()     # an Outcome
    result = balance(course, 200, robots=4, bot="greedy")   # the `rallyforge balance --json` dict
    save(course, "copy.json")

Most names load on first use; everything else in engine.* is the engine's
own and may change. ``engine.validate`` and ``engine.balance`` are the
functions: their modules are reached with ``from engine.validate import ...``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

# Imported now, not on first use: these functions share their names with
# modules, and the first import of engine.balance or engine.validate would
# leave the module under the name instead.
from .balance import balance
from .validate import validate_file as validate

if TYPE_CHECKING:
    from .loader import load_file as load
    from .loader import save_file as save
    from .model import Scenario
    from .outcome import Outcome
    from .problems import Problem, ScenarioError
    from .race import Race

__all__ = ["Outcome", "Problem", "Race", "Scenario", "ScenarioError", "balance", "load", "save",
           "validate"]

_LAZY = {
    "load": ("loader", "load_file"),
    "save": ("loader", "save_file"),
    "Race": ("race", "Race"),
    "Scenario": ("model", "Scenario"),
    "Outcome": ("outcome", "Outcome"),
    "Problem": ("problems", "Problem"),
    "ScenarioError": ("problems", "ScenarioError"),
}


def __getattr__(name: str) -> object:
    if name not in _LAZY:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    from importlib import import_module
    module, attribute = _LAZY[name]
    value = getattr(import_module(f".{module}", __name__), attribute)
    globals()[name] = value
    return value
