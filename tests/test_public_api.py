"""The engine's public API for scripts: what `engine` exports, and the
README's example, run as a script and type-checked as one."""
from __future__ import annotations

import importlib
import re
import shutil
import subprocess
import sys
from pathlib import Path

from rallyforge import engine
from rallyforge.engine.analysis.balance import balance as balance_function
from rallyforge.engine.bots import new_race
from rallyforge.engine.format.loader import load_file, save_file
from rallyforge.engine.model.problems import Problem, ScenarioError
from rallyforge.engine.model.scenario import Scenario
from rallyforge.engine.rules.outcome import Outcome
from rallyforge.engine.rules.race import Race
from rallyforge.engine.validation.validator import validate_file

ROOT = Path(__file__).resolve().parent.parent
COURSE = ROOT / "scenarios" / "standard-course.json"


def readme_example() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(r"^## Scripting the engine\n.*?^```python\n(.*?)^```", text, re.S | re.M)
    assert found, "README.md has no Python example under 'Scripting the engine'"
    return found.group(1)


def test_engine_exports_what_a_script_needs():
    assert sorted(engine.__all__) == sorted(["Outcome", "Problem", "Race", "Scenario",
                                             "ScenarioError", "balance", "load", "new_race",
                                             "save", "validate"])
    assert (engine.load, engine.save, engine.validate) == (load_file, save_file, validate_file)
    assert (engine.Race, engine.Scenario, engine.Outcome) == (Race, Scenario, Outcome)
    assert engine.new_race is new_race
    assert (engine.Problem, engine.ScenarioError) == (Problem, ScenarioError)
    for module in ("rallyforge.engine.analysis.balance.report", "rallyforge.engine.validation.validator"):
        importlib.import_module(module)                 # a module does not take the name
    from rallyforge.engine import balance, validate
    assert (balance, validate) == (balance_function, validate_file)


def test_the_model_layer_loads_no_validator_and_no_numpy():
    code = ("import sys, rallyforge.engine.model.scenario; print(sorted(m for m in sys.modules "
            "if m.split('.')[0] in ('jsonschema', 'jsonschema_rs', 'numpy') "
            "or m.startswith('rallyforge.engine.') and not m.startswith('rallyforge.engine.model')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout.strip()
    assert out == "[]"


def test_importing_the_engine_loads_the_rest_on_first_use():
    code = ("import sys; from rallyforge import engine; print('rallyforge.engine.rules.race' in sys.modules); "
            "engine.Race; print('rallyforge.engine.rules.race' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout.split()
    assert out == ["False", "True"]


def test_the_readme_example_runs_as_a_script(tmp_path):
    code = readme_example()
    assert len(code.strip().splitlines()) <= 11
    (tmp_path / "scenarios").mkdir()
    shutil.copy(COURSE, tmp_path / "scenarios")
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                          text=True, env={"PYTHONPATH": str(ROOT), "PATH": ""})
    assert done.returncode == 0, done.stderr
    first, second = done.stdout.splitlines()
    race = new_race(load_file(COURSE), seed=7, robot_count=4, bot="search").run()
    assert first == f"{race.winners} won after {race.rounds} rounds"
    verdict, rates = second.split(" ", 1)
    assert verdict in ("fair", "unfair", "inconclusive") and rates.startswith("[")
    assert load_file(tmp_path / "copy.json") == load_file(COURSE)


def test_the_readme_example_type_checks(tmp_path):
    script = tmp_path / "example.py"
    script.write_text(readme_example(), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", "--no-error-summary",
                           "--cache-dir", str(ROOT / ".mypy_cache" / "example"), str(script)],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
