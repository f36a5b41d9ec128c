"""Benchmarks: `python -m bench` runs the main() of every bench/bench_*.py."""
from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

STANDARD = Path(__file__).resolve().parent.parent / "scenarios" / "standard-course.json"


def peak_mb() -> float:
    """This process's peak memory, MB: its own high-water mark where Linux
    tells it (/proc/self/status VmHWM), else getrusage's ru_maxrss, which a
    process started by another (spawned: forked, then exec'd) inherits
    from it when the other was bigger: `python -m bench` ran the upgrade
    board in a fresh process and reported the 315 MB of every bench before."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def course_and_runs(prog: str, description: str, races: int, argv: list[str],
                    more: Callable[[argparse.ArgumentParser], object] | None = None):
    """Parse `[COURSE] [--races N] [--workers W]` (and the options `more`
    adds to the parser) and load the course: the arguments and the scenario,
    or None (with a line saying so) when the course file is missing."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("course", nargs="?", default=str(STANDARD))
    parser.add_argument("--races", type=int, default=races)
    parser.add_argument("--workers", type=int, default=2)
    if more is not None:
        more(parser)
    args = parser.parse_args(argv)
    from rallyforge.engine.format.loader import load_file
    path = Path(args.course)
    if not path.exists():
        print(f"{prog}: {path} not found; skipped")
        return args, None
    return args, load_file(path)
