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

from rallyforge.engine.analysis.scenario_checks import check_file
from rallyforge.engine.cli.common import expand_paths, write_line


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
