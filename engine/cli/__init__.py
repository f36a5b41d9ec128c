"""Subcommands of the `rallyforge` command line, one module each.

Each module has ``add_arguments(parser)`` and ``run(args) -> int`` (the exit
code); its one-line help is in engine/version.py ``COMMANDS``, so that
`rallyforge --help` and a run of one command import no other command.

Imported as the program starts (its script, or ``python -m
rallyforge.engine.cli``), this package is the first of it to run: from here
until main() starts the command (its modules imported, its arguments read),
Ctrl+C ends the program at once with exit code 130 (a press while it
imported printed a KeyboardInterrupt traceback and exited 1 or -2). Once
main() is done, presses are held back (main.py).
"""
import os
import signal
import sys
from types import FrameType


def starting_as_program() -> bool:
    """Whether this process is the `rallyforge` program (its script, or
    ``python -m``), not a caller of main() that goes on (a test, a script)."""
    first = sys.argv[0] if sys.argv else ""
    return first == "-m" or os.path.basename(first).removesuffix(".exe") == "rallyforge"


def quit_on_ctrl_c(signum: int | None = None, frame: FrameType | None = None) -> None:
    """A SIGINT handler: there is nothing to report, end now with 130."""
    try:
        os.write(2, b"interrupted\n")
    except OSError:         # (standard error closed, or on a full disk)
        pass
    os._exit(130)


if starting_as_program() and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
    signal.signal(signal.SIGINT, quit_on_ctrl_c)
