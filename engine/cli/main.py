"""The `rallyforge` command line: validate, run, test, balance and compare courses, print their cards
and suggest fixes; import Tiled maps and assemble courses from library boards.

Exit codes: 0 success, 1 a problem with the input or a failed check, 2 bad usage
(the message on stderr), 130 stopped by Ctrl+C.
"""
from __future__ import annotations

import argparse
import importlib
import sys

from engine.cli.common import silence_stdout
from engine.version import COMMANDS, version

MODULES = {"import": "tiled_import"}     # a command whose name is a Python keyword


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # bad usage: exit 2 with a short message, never a traceback
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="rallyforge", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name in COMMANDS:
        module = importlib.import_module(f"engine.cli.{MODULES.get(name, name)}")
        command = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(command)
        command.set_defaults(handler=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)      # (imports the commands: a moment)
        status = args.handler(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    try:
        sys.stdout.flush()      # now, not at exit: a reader gone must not change the status
    except BrokenPipeError:
        silence_stdout()
    return status

