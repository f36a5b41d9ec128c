"""`rallyforge test PATH... [--seed N]`: run scenario files' checks.

Each file is validated, then played until its last checked moment, and
every check is compared. One line per file, named as given:

    PASS tests/rules/3.3-push-chain.json (7 checks)
    FAIL course.json: check 3, robot Zoom after round 1 register 2: expected x=5 y=4, got x=4 y=4

A directory stands for every ``*.json`` directly in it. Exit code 0 when
every check of every file passes; 1 when a check fails, a file has no
checks or is invalid (its errors follow its line); 2 for bad usage.
"""
from __future__ import annotations

import argparse

from rallyforge.engine.analysis.scenario_checks import CheckResult, run_checks
from rallyforge.engine.cli.common import expand_paths, problem_line, write_line
from rallyforge.engine.validation.validator import read_valid_file


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH",
                        help="a scenario file, or a directory: every *.json in it")
    parser.add_argument("--seed", type=int, default=0,
                        help="the race's seed, for bots and randomizers (default 0)")


def run(args: argparse.Namespace) -> int:
    status = 0
    for name, empty_dir in expand_paths(args.paths):
        ok, lines = check_file(name, args.seed) if not empty_dir else (
            False, [f"FAIL {name}: the directory holds no *.json files"])
        for line in lines:
            write_line(line)
        status |= not ok
    return int(status)


def check_file(name: str, seed: int = 0) -> tuple[bool, list[str]]:
    """Whether every check of a file passes, and the lines to print."""
    scenario, problems = read_valid_file(name)
    if scenario is None:                # it has errors
        return False, ([f"FAIL {name}: invalid scenario"]
                       + ["  " + problem_line(name, p) for p in problems if p.is_error])
    if not scenario.checks:
        return False, [f"FAIL {name}: no checks"]
    try:
        results = run_checks(scenario, seed)
    except Exception as exc:     # never a traceback: report it as the file's failure
        return False, [f"FAIL {name}: the engine failed ({type(exc).__name__}: {exc}); "
                       f"please report it"]
    return summary(name, results)


def summary(name: str, results: list[CheckResult]) -> tuple[bool, list[str]]:
    failed = [r for r in results if not r.passed]
    if not failed:
        return True, [f"PASS {name} ({len(results)} check{'s' * (len(results) != 1)})"]
    more = f" (and {len(failed) - 1} more failing)" if len(failed) > 1 else ""
    return False, [f"FAIL {name}: {failed[0].describe()}{more}"]
