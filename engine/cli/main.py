"""The `rallyforge` command line: validate, run, test, balance and compare courses, print their cards
and suggest fixes; import Tiled maps, export courses as pictures or Tiled maps, and assemble courses
from library boards.

Exit codes: 0 success, 1 a problem with the input or a failed check, or an
output that could not be written (a full disk: one line says so), 2 bad usage
(the message on stderr; an output that is one of the inputs, two outputs to
one place), 130 stopped by Ctrl+C. For every output option ``-`` is standard
output.
"""
from __future__ import annotations

import argparse
import gc
import importlib
import os
import signal
import sys
from collections.abc import Collection, Sequence
from typing import NoReturn

from rallyforge.engine import ctrl_c
from rallyforge.engine.cli.streams import failed_write, guard
from rallyforge.engine.version import COMMANDS, version

MODULES = {"import": "tiled_import"}     # a command whose name is a Python keyword
# (the switch: engine/rules/compiled/__init__.py COMPILED_SWITCH)
EPILOG = ("Environment: RALLYFORGE_COMPILED=0 rules out the compiled part (the search bot's "
          "inner loop and the balance runs' compiled race): every command plays the Python "
          "engine, with the same results, more slowly. A balance result's \"engine\" says "
          "which one raced.")


class _Parser(argparse.ArgumentParser):
    # bad usage: exit 2 with a short message, never a traceback
    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


class _Version(argparse.Action):
    """--version, the installed version looked up only when asked for."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS,
                 help: str = "show program's version number and exit"):
        super().__init__(option_strings, dest, default=default, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> NoReturn:
        print(f"{parser.prog} {version()}")
        parser.exit()


def build_parser(commands: Collection[str] = tuple(COMMANDS)) -> argparse.ArgumentParser:
    """The command line. Only the `commands` given get their options (their
    modules are imported: a moment); the others are listed with their help."""
    parser = _Parser(prog="rallyforge", description=__doc__.splitlines()[0], epilog=EPILOG)
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name, help_line in COMMANDS.items():
        command = sub.add_parser(name, help=help_line, description=help_line)
        if name in commands:
            module = importlib.import_module(f"rallyforge.engine.cli.{MODULES.get(name, name)}")
            module.add_arguments(command)
            command.set_defaults(handler=module.run)
    return parser


def command_named(argv: list[str]) -> str | None:
    """The command a command line runs: its first word that is not an option
    (the top level's options take no value), or None."""
    words = [word for word in argv if word == "-" or not word.startswith("-")]
    return words[0] if words else None


def main(argv: list[str] | None = None) -> int:
    """Run the command line `argv` (default: this program's), return its exit code."""
    program = argv is None        # (else a caller that goes on: a test, a script)
    argv = sys.argv[1:] if argv is None else argv
    streams = None
    if program:
        # One thread for OpenBLAS, in this process and the workers it starts
        # (unless told otherwise): the engine calls no BLAS routine, and the
        # threads it starts as numpy and scipy are imported spun on the cores
        # the workers race on (0.2 s of CPU in a short balance run).
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
        streams = guard()       # a failed write: one line and exit 1 (engine/cli/streams.py)
    try:
        named = command_named(argv)
        args = build_parser([named] if named in COMMANDS else []).parse_args(argv)
        if program:
            # From now on a press stops the command, which reports what it
            # has. Until now it ended the program at once (engine/cli/
            # __init__.py): while the command's modules import, a native one
            # (jsonschema_rs) turned the KeyboardInterrupt into a panic.
            signal.signal(signal.SIGINT, ctrl_c.interrupt)
        status = args.handler(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        status = 130
    except SystemExit as exc:       # argparse's: --help, --version, bad usage
        if streams is None:
            raise
        status = exc.code if isinstance(exc.code, int) else int(exc.code is not None)
    finally:
        if program and hasattr(signal, "pthread_sigmask"):
            # The rest is exiting; a press now has nothing left to stop (late
            # in the exit Python gives Ctrl+C back its default: killed, -2).
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    if streams is None:
        try:
            sys.stdout.flush()      # now, not at exit: a reader gone must not change the status
        except BrokenPipeError:
            from rallyforge.engine.cli.common import silence_stdout
            silence_stdout()
        return status
    if failed_write(*streams) and status == 0:
        status = 1
    # The process ends next: its last garbage collections, over every
    # object the engine, numpy and scipy made, took 0.07 s at exit and
    # free nothing anyone needs (the outputs are written and closed).
    gc.freeze()
    return status
