"""`rallyforge validate PATH... [--format text|json]`: check scenario files.

A directory stands for every ``*.json`` directly in it (a link to nothing
is reported unreadable; the editor's ``*.autosave.json`` backups are not
courses). Text output is one
line per problem, ``FILE:x,y: error E301: message`` (or ``FILE:/pointer: ...``
where the problem has no square, ``FILE: ...`` for the whole file), then a
summary line. JSON output is a list of objects with the keys ``file``,
``severity``, ``code``, ``message``, ``pointer``, ``x`` and ``y``; besides the
problems it holds an ``info`` entry per flag of a course without errors:

    I501  the flag's difficulty score (engine/analysis/course_card/flags.py) and what makes it up

Warnings a file accepts (its ``accept`` list) are left out unless ``--all``
is given; the summary says how many were.

Exit code 0 when no file has an error (warnings allowed), 1 when one has or
cannot be read, 2 for bad usage. Codes of its own (the others are listed in
engine/validation/validator.py):

    E001  also: a directory with no *.json files in it
    E000  the validator itself failed on a file (a bug: please report it)
"""
from __future__ import annotations

import argparse
import json

from rallyforge.engine.analysis.course_card.flags import flag_scores
from rallyforge.engine.cli.common import count, expand_paths, write_line
from rallyforge.engine.model.problems import ERROR, INFO, Problem, WARNING, problem_line
from rallyforge.engine.validation.validator import read_valid_file


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH",
                        help="a scenario file, or a directory: every *.json in it")
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help="text (default): one line per problem and a summary; "
                             "json: a list of problems")
    parser.add_argument("--all", action="store_true",
                        help="also the warnings the file accepts (its \"accept\" list)")


def run(args: argparse.Namespace) -> int:
    json_out = args.format == "json"
    results = [(name, _problems(name, empty_dir, json_out))
               for name, empty_dir in expand_paths(args.paths)]
    hidden = 0
    if not args.all:
        hidden = sum(p.accepted for _, problems in results for p in problems)
        results = [(name, [p for p in problems if not p.accepted]) for name, problems in results]
    if json_out:
        write_line(json.dumps([{"file": name, **p.as_dict()} for name, problems in results
                               for p in problems], indent=2, ensure_ascii=False))
    else:
        for name, problems in results:
            for p in problems:
                write_line(problem_line(name, p) + (" (accepted)" if p.accepted else ""))
        write_line(summary(results) + (f"; {count(hidden, 'accepted warning')} not shown "
                                        "(--all shows them)" if hidden else ""))
    return 1 if any(p.is_error for _, problems in results for p in problems) else 0


def _problems(name: str, empty_dir: bool, infos: bool = False) -> list[Problem]:
    if empty_dir:
        return [Problem(ERROR, "E001", "the directory holds no *.json files (or cannot be read)")]
    try:
        scenario, problems = read_valid_file(name)
        if infos and scenario is not None:
            problems += [Problem(INFO, "I501", f"flag {s.flag} difficulty {s.explain()}",
                                 f"/flags/{s.flag - 1}", s.x, s.y)
                         for s in flag_scores(scenario)]
        return problems
    except Exception as exc:     # never a traceback: report it as the file's problem
        return [Problem(ERROR, "E000", f"the validator failed on this file ({type(exc).__name__}: "
                                       f"{exc}); please report it")]


def summary(results: list[tuple[str, list[Problem]]]) -> str:
    """`3 files: 1 with errors (2 errors, 1 warning)`."""
    errors = sum(1 for _, ps in results for p in ps if p.is_error)
    warnings = sum(1 for _, ps in results for p in ps if p.severity == WARNING)
    bad = sum(1 for _, ps in results if any(p.is_error for p in ps))
    return (f"{count(len(results), 'file')}: {bad} with errors "
            f"({count(errors, 'error')}, {count(warnings, 'warning')})")

