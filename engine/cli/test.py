"""`rallyforge test PATH... [--seed N]`: run scenario files' checks.

Each file is validated, then played until its last checked moment, and
every check is compared. One line per file, named as given, then a summary:

    PASS tests/rules/3.3-push-chain.json (7 checks)
    FAIL course.json: check 3, robot Zoom after round 1 register 2: expected x=5 y=4, got x=4 y=4
    SKIP scenarios/tutorial.json: no checks
    1 passed, 1 failed, 1 without checks

A directory stands for every ``*.json`` directly in it; a course there
without checks is listed, not failed (a folder of courses holds courses that
are not tests). Exit code 0 when every check of every file passes; 1 when a
check fails, a file is invalid (its errors follow its line), a file named on
its own has no checks or nothing at all was tested; 2 for bad usage.
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
    passed = failed = unchecked = 0
    for name, empty_dir in expand_paths(args.paths):
        ok: bool | None
        if empty_dir:
            ok, lines = False, [f"FAIL {name}: the directory holds no *.json files"]
        else:
            ok, lines = check_file(name, args.seed)
        if ok is None and name in args.paths:       # named on its own: it was meant as a test
            ok, lines = False, [f"FAIL {name}: no checks"]
        for line in lines:
            write_line(line)
        if ok is None:
            unchecked += 1
        elif ok:
            passed += 1
        else:
            failed += 1
    counts = ((passed, "passed"), (failed, "failed"), (unchecked, "without checks"))
    write_line(", ".join(f"{n} {word}" for n, word in counts if n))
    return int(failed > 0 or passed == 0)


def check_file(name: str, seed: int = 0) -> tuple[bool | None, list[str]]:
    """Whether every check of a file passes (None: it has none), and the lines to print."""
    scenario, problems = read_valid_file(name)
    if scenario is None:                # it has errors
        return False, ([f"FAIL {name}: invalid scenario"]
                       + ["  " + problem_line(name, p) for p in problems if p.is_error])
    if not scenario.checks:
        return None, [f"SKIP {name}: no checks"]
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
