"""A huge balance run: how soon it shows progress, and its memory.

Goal (issue 26): ``rallyforge balance COURSE --races 100000000`` shows its
first progress within seconds and stays under 300 MB (resident) for its first
minute. Runs the command line for SECONDS (default 60) with its progress
going to a file, samples the resident memory of the command and of its
worker processes every quarter second, then stops it with Ctrl+C.

    python -m bench.bench_huge_run [COURSE] [SECONDS] [WORKERS]
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMIT_MB = 300


def resident_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def descendants(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as children:
            found = [int(c) for c in children.read().split()]
    except OSError:
        return []
    return found + [d for c in found for d in descendants(c)]


def main(argv: list[str]) -> None:
    course = argv[0] if argv else str(ROOT / "scenarios" / "standard-course.json")
    seconds = float(argv[1]) if len(argv) > 1 else 60.0
    workers = argv[2] if len(argv) > 2 else "2"
    command = [sys.executable, "-m", "rallyforge.engine.cli", "balance", course, "--races", "100000000",
               "--workers", workers]
    with tempfile.TemporaryFile("w+") as progress:
        started = time.monotonic()
        proc = subprocess.Popen(command, cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                                stdout=subprocess.DEVNULL, stderr=progress)
        first = None
        own = total = 0.0
        while time.monotonic() - started < seconds and proc.poll() is None:
            if first is None and os.fstat(progress.fileno()).st_size:
                first = time.monotonic() - started
            here = resident_mb(proc.pid)
            own, total = max(own, here), max(total, here + sum(map(resident_mb,
                                                                   descendants(proc.pid))))
            time.sleep(0.25)
        proc.send_signal(signal.SIGINT)
        proc.wait(60)
        progress.seek(0)
        stopped = [line for line in progress.read().splitlines() if line.startswith("stopped")]
    print(" ".join(command[1:]))
    print(f"first progress after {first:.1f} s" if first is not None else "no progress shown")
    print(f"resident memory over {seconds:.0f} s: at most {own:.0f} MB for the command, "
          f"{total:.0f} MB with its workers (goal: under {LIMIT_MB} MB)")
    print(stopped[-1] if stopped else f"exit {proc.returncode}")


if __name__ == "__main__":
    main(sys.argv[1:])
