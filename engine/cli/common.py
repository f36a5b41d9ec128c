"""What the commands share: the files a list of command-line paths stands
for, whole-number arguments, a course's errors listed, and printing a line
whatever the terminal's encoding (or after the reader of the output left)."""
from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable

from rallyforge.engine.analysis.balance.plan import MAX_RACES, MAX_TRIALS
from rallyforge.engine.format.loader import AUTOSAVE_SUFFIX, write_text_atomic
from rallyforge.engine.model.problems import problem_line
from rallyforge.engine.model.scenario import BOT_NAMES, DEFAULT_BOT, Scenario


def expand_paths(paths: list[str]) -> list[tuple[str, bool]]:
    """Each file to check as (name, False), named as given on the command
    line; a directory expands to its *.json files, sorted, or is (name, True)
    when it has none, so that it is reported. Every *.json entry that is not
    a directory counts, a link to nothing too (it is reported unreadable);
    the editor's *.autosave.json backups do not."""
    out: list[tuple[str, bool]] = []
    for path in paths:
        if os.path.isdir(path):
            try:
                names = sorted(n for n in os.listdir(path) if n.endswith(".json")
                               and not n.endswith(AUTOSAVE_SUFFIX)
                               and not os.path.isdir(os.path.join(path, n)))
            except OSError:
                names = None
            if names:
                out.extend((os.path.join(path, n), False) for n in names)
            else:
                out.append((path, True))
        else:
            out.append((path, False))
    return out


def count(n: int, word: str) -> str:
    """"1 flag", "2 flags"."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def whole_number(minimum: int, maximum: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number of `minimum` to `maximum` (bad usage otherwise)."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, not {value}")
        if maximum is not None and value > maximum:
            raise argparse.ArgumentTypeError(f"must be at most {maximum:,}, not {value:,}")
        return value
    return parse


positive = whole_number(1)
natural = whole_number(0)
race_count = whole_number(1, MAX_RACES)     # what a run may plan (analysis/balance/plan.py)
trial_count = whole_number(0, MAX_TRIALS)

RACES = 1000        # races of a course card, and of balance and compare unless told
ROBOTS_HELP = "robots per race (default: the course goals' robots, else 4, or every dock if fewer)"
SEATING_HELP = ("game: k robots on docks 1..k, as the game seats k players; rotate: a "
                "what-if, robots rotated over every dock, any dock, any company (default: game)")
OPTIONS_HELP = ("play option cards (played) or only count them (counted), whatever the "
                "course says (default: as the course says)")


def bot_help(what: str = "the bot every robot uses") -> str:
    """The --bot help: the bots by name and the default (named in the model,
    which the bots' registry follows: importing the bots takes a moment)."""
    return f"{what}: {', '.join(sorted(BOT_NAMES))} (default: {DEFAULT_BOT})"


def valid_course(path: str, refused: str) -> Scenario | None:
    """The scenario of a course file, or None after listing its errors as
    ``validate`` lists them (a course with errors is never used: `refused`
    says what is not done)."""
    from rallyforge.engine.validation.validator import read_valid_file
    scenario, problems = read_valid_file(path)
    if scenario is None:
        print(f"rallyforge: {path}: the course has errors; {refused}:", file=sys.stderr)
        for problem in problems:
            if problem.is_error:
                print(problem_line(path, problem), file=sys.stderr)
    return scenario


def write_line(text: str) -> None:
    """Print, escaping what the terminal's encoding cannot show (file names
    with undecodable bytes, names in other scripts). Once the reader has
    gone (``validate ... | head``) the rest is dropped and the command goes
    on to its real exit code."""
    stream = sys.stdout
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        try:
            print(text, file=stream)
        except UnicodeEncodeError:
            print(text.encode(encoding, "backslashreplace").decode(encoding, "replace"),
                  file=stream)
    except BrokenPipeError:
        silence_stdout()


def silence_stdout() -> None:
    """Send what is still to be printed nowhere: the reader of the output
    closed it. (Its file descriptor is pointed at the null device, so that
    the flush at exit does not fail again.)"""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):      # not a real file (a test's capture)
        pass


# An output path that means standard output, for every command's outputs
# (-o, --out, --json): a file named "-" is written as ./-
STDOUT = "-"


def write_output(path: str, text: str) -> None:
    """Write an output: to standard output for ``-``, else atomically to
    the file (OSError when it cannot be)."""
    if path == STDOUT:
        write_line(text.rstrip("\n"))
    else:
        write_text_atomic(path, text if text.endswith("\n") else text + "\n")


def write_course(path: str, text: str) -> bool:
    """Write a course's text (``-``: standard output); False, once the
    reason is printed, when it cannot be."""
    try:
        write_output(path, text)
    except OSError as exc:
        print(f"{path}: error: cannot write the course ({exc.strerror or exc})", file=sys.stderr)
        return False
    return True


def output_clash(outputs: dict[str, str | None], inputs: list[str]) -> str | None:
    """Why the outputs asked for (option: path) cannot be written as asked,
    found before anything is written (None when they can): one is an input
    of the command (it would be replaced: ``import m.tmx -o m.tmx``), or two
    go to one place (standard output, or the same file)."""
    given = [(option, path) for option, path in outputs.items() if path]
    for option, path in given:
        if path == STDOUT:
            continue
        for source in inputs:
            if _same_file(path, source):
                return f"{option} {path}: is an input of the command ({source}); it is never replaced"
    for i, (option, path) in enumerate(given):
        for other, other_path in given[i + 1:]:
            if path == other_path == STDOUT or (STDOUT not in (path, other_path)
                                                and _same_file(path, other_path)):
                where = "standard output" if path == STDOUT else path
                return f"{option} and {other} both write to {where}"
    return None


def _same_file(a: str, b: str) -> bool:
    """Whether two paths name one file (one that exists; else one path)."""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return os.path.realpath(a) == os.path.realpath(b)


def utf8_text(text: str) -> str:
    """An argparse type: text that can be written as UTF-8 (a name given
    with bytes that are not UTF-8 is bad usage, not a traceback)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        shown = text.encode("utf-8", "backslashreplace").decode("utf-8")
        raise argparse.ArgumentTypeError(f"'{shown}' is not UTF-8 text") from None
    return text


def add_worker_arguments(parser: argparse.ArgumentParser) -> None:
    """--workers and --scheduler: where the races are played."""
    parser.add_argument("--workers", type=positive, metavar="W",
                        help="worker processes, or Dask workers with --scheduler local "
                             "(default: every core)")
    parser.add_argument("--scheduler", metavar="ADDR",
                        help="run on a Dask cluster: tcp://HOST:PORT, or 'local' to start one "
                             "(needs pip install .[cluster]; default: none, local processes)")


def player_range(text: str) -> tuple[int, ...]:
    """An argparse type: "4-8" (every count from 4 to 8) or "6"."""
    low, sep, high = text.partition("-")
    try:
        counts = range(int(low), int(high if sep else low) + 1)
    except ValueError:
        counts = range(0)
    if not counts or counts[0] < 1:
        raise argparse.ArgumentTypeError(f"not a player range: {text!r} (such as 4-8, or 6)")
    return tuple(counts)


def add_seating_arguments(parser: argparse.ArgumentParser) -> None:
    """--players and --docks, for the commands that race a course's seats."""
    parser.add_argument("--players", type=player_range, metavar="A-B",
                        help="race each player count from A to B, the same races each: a "
                             "fairness verdict per count and one pooled (instead of --robots; "
                             "default: one count, --robots)")
    parser.add_argument("--docks", choices=("game", "rotate"), default="game",
                        help=SEATING_HELP)
