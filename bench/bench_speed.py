"""This engine against the one before issue 27 (commit 588c1f8), side by
side in the same run: each figure is measured in both source trees by turns
(old, new, old, new), in subprocesses, and shown as a ratio.

- events: a race of 8 random bots with its event log on, against off (goal:
  on / off at most 2x; the median over pairs run back to back, as this
  host's pace drifts by a third from minute to minute), and the log's cost
  against the old one's;
- aware: the aware bot's median decision, CPU ms, 2 aware and 2 search
  robots on the standard course (goal: at most 5 ms), with the same wins
  and deaths; measured after some untimed races (what the bots keep per
  course filled, as in a balance run of hundreds of races) and from a
  fresh process (empty, as in a short run);
- search: races of 4 search bots, CPU seconds, and in this tree without its
  compiled loop too (engine/bots/_play.c; numpy does the same);
- balance: `rallyforge balance --races N --workers 2` with search bots,
  wall seconds (goal: 5x faster), and its JSON the same but for its timing;
  this tree with RALLYFORGE_COMPILED=0 too (the Python engine, no compiled part);
  then a run of 1 race, the cost of a run whatever its races (start-up,
  workers, report), and the races beyond it: the ratio cannot pass the old
  run's time over the new run's fixed cost.

The old tree is `git archive BASE` of this repository, unpacked in a
temporary folder (skipped, with a line saying so, when git or the commit is
not there), its compiled part built in place where it has one. A tree that
imports `engine` (before the installed name rallyforge) is run from its
folder; one that imports `rallyforge.engine` from a folder of links
rallyforge/{engine,editor,schema} to it (see ``prepare``).

    python -m bench.bench_speed [--races N] [--aware-races N] [--aware-warm N]
                                [--event-races N] [--search-races N] [--base COMMIT]
                                [--parts events,aware,search,balance]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHILD = Path(__file__).resolve().with_name("side_by_side.py")
BASE = "588c1f8"
COURSE = "scenarios/standard-course.json"


def unpack(commit: str, into: Path) -> Path | None:
    """The source tree of `commit`, or None after a line saying why not."""
    archive = into / "base.tar"
    try:
        with archive.open("wb") as out:
            subprocess.run(["git", "-C", str(ROOT), "archive", commit], stdout=out,
                           stderr=subprocess.PIPE, check=True)
    except (OSError, subprocess.CalledProcessError) as exc:
        detail = exc.stderr.decode().strip() if isinstance(exc, subprocess.CalledProcessError) \
            else str(exc)
        print(f"bench_speed: no source of {commit} to compare with ({detail}); skipped")
        return None
    tree = into / commit
    with tarfile.open(archive) as tar:
        tar.extractall(tree, filter="data")
    return tree


def package(tree: Path) -> str:
    """The engine's package in `tree`: rallyforge.engine, or engine in a tree
    from before the installed name (8aeea05 and older)."""
    setup = tree / "setup.py"
    return "rallyforge.engine" if setup.exists() and "rallyforge.engine" in setup.read_text() \
        else "engine"


def prepare(tree: Path, into: Path) -> Path:
    """The PYTHONPATH folder that imports `tree`: a tree with the installed
    names is found there only as rallyforge/{engine,editor,schema} links to
    it (else the editable install maps rallyforge.* to this checkout); an
    older tree imports `engine` from itself. A tree with a compiled part
    gets it built in place, as its install would."""
    names = into / f"{tree.name}-path"
    (names / "rallyforge").mkdir(parents=True, exist_ok=True)
    for folder in ("engine", "editor", "schema"):
        link = names / "rallyforge" / folder
        if (tree / folder).is_dir() and not link.exists():
            link.symlink_to(tree / folder)
    if tree != ROOT and (tree / "setup.py").exists() and "ext_modules" in (tree / "setup.py").read_text():
        subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=tree,
                       capture_output=True, check=True)
    return names


PATHS: dict[Path, Path] = {}        # tree: its PYTHONPATH folder (prepare)


def _run(tree: Path, argv: list[str], **env: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=f"{PATHS[tree]}{os.pathsep}{tree}",
               RALLYFORGE_BENCH_PACKAGE=package(tree), **env)
    return subprocess.run([sys.executable, *argv], cwd=tree, env=env, capture_output=True,
                          text=True, check=True)


def measure(tree: Path, what: str, *args: int | str) -> dict:
    return json.loads(_run(tree, [str(CHILD), what, *map(str, args)]).stdout)


def balance(tree: Path, races: int, out: Path, **env: str) -> float:
    """Wall seconds of a search-bot balance run; its JSON goes to `out`."""
    start = time.perf_counter()
    _run(tree, ["-m", f"{package(tree)}.cli", "balance", COURSE, "--races", str(races),
                "--workers", "2", "--bot", "search", "--quiet", "--json", str(out)], **env)
    return time.perf_counter() - start


def same_races(a: Path, b: Path) -> bool:
    """Whether two balance JSON files count the same races: each dock's races
    and wins, the rounds' histogram and each leg's robots and deaths. (What the
    result says of them has grown since the tree before, by design: the card's
    fitted classes, the fairness verdict waiting for enough wins, why robots
    die; tests/test_race_digests.py pins the whole JSON from one commit to the
    next.)"""
    def counts(doc: dict) -> tuple:
        return ([(d["dock"], d["races"], d["wins"]) for d in doc["docks"]],
                doc["length"]["histogram"], [(leg["robots"], leg["deaths"]) for leg in doc["legs"]])
    return counts(json.loads(a.read_text())) == counts(json.loads(b.read_text()))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_speed", description=__doc__)
    parser.add_argument("--races", type=int, default=1000, help="balance races (default 1000)")
    parser.add_argument("--aware-races", type=int, default=30, help="timed races (default 30)")
    parser.add_argument("--aware-warm", type=int, default=20,
                        help="untimed races before them (default 20)")
    parser.add_argument("--event-races", type=int, default=150)
    parser.add_argument("--search-races", type=int, default=300)
    parser.add_argument("--base", default=BASE, help=f"the commit before (default {BASE})")
    parser.add_argument("--parts", default=",".join(PARTS),
                        help=f"what to measure, of {','.join(PARTS)} (default all)")
    args = parser.parse_args(argv)
    parts = set(args.parts.split(","))
    with tempfile.TemporaryDirectory(prefix="rallyforge-bench-") as tmp:
        old = unpack(args.base, Path(tmp))
        if old is None:
            return
        trees = (("old", old), ("new", ROOT))
        for _, tree in trees:
            PATHS[tree] = prepare(tree, Path(tmp))
        print(f"side by side with {args.base}, interleaved (old, new, old, new)", flush=True)
        if "events" in parts:
            events(args, trees)
        if "aware" in parts:
            aware(args, trees)
        if "search" in parts:
            search(args, old)
        if "balance" in parts:
            balance_runs(args, trees, Path(tmp))


PARTS = ("events", "aware", "search", "balance")


def events(args, trees) -> None:
    """Races of 8 random bots with and without their event log."""
    ev: dict[str, dict[str, list[float]]] = {name: {"off": [], "on": []} for name, _ in trees}
    for _ in range(2):
        for name, tree in trees:
            got = measure(tree, "events", args.event_races)
            ev[name]["off"] += got["off"]
            ev[name]["on"] += got["on"]
    # on / off of each pair run back to back: the host's pace drifts between pairs
    pace = {name: statistics.median(on / off for off, on in zip(e["off"], e["on"]))
            for name, e in ev.items()}
    least = {name: {k: min(v) for k, v in e.items()} for name, e in ev.items()}
    print(f"  events on / off: new {pace['new']:.2f}x, old {pace['old']:.2f}x (goal: new <= "
          f"2x; the median of 6 pairs run by turns); a race with events "
          f"{least['old']['on'] / least['new']['on']:.2f}x as fast as before, without "
          f"{least['old']['off'] / least['new']['off']:.2f}x ({args.event_races} races of 8 "
          f"random bots, least CPU of 6 runs each)", flush=True)


def aware(args, trees) -> None:
    """The aware bot's decisions, warm and from a fresh process."""
    for warm in (args.aware_warm, 0):
        aw = {name: measure(tree, "aware", args.aware_races, warm) for name, tree in trees}
        same = all(aw["old"][k] == aw["new"][k] for k in ("wins", "deaths", "decisions"))
        how = f"after {warm} untimed races" if warm else "from a fresh process"
        print(f"  aware decision median, {how}: new {aw['new']['median_ms']:.2f} ms, old "
              f"{aw['old']['median_ms']:.2f} ms CPU: "
              f"{aw['old']['median_ms'] / aw['new']['median_ms']:.2f}x (goal: <= 5 ms); "
              f"{args.aware_races} races, wins and deaths "
              f"{'the same' if same else 'DIFFERENT'}: {aw['new']['wins']} {aw['new']['deaths']}",
              flush=True)


def search(args, old: Path) -> None:
    """Races of search bots: with and without the compiled loop, and in C."""
    cpu: dict[str, list[float]] = {"old": [], "new": [], "numpy": [], "compiled": []}
    for _ in range(2):
        for name, tree, how in (("old", old, []), ("new", ROOT, []), ("numpy", ROOT, ["numpy"]),
                                ("compiled", ROOT, ["compiled"])):
            cpu[name].append(measure(tree, "search", args.search_races, *how)["cpu"])
    least = {name: min(times) for name, times in cpu.items()}
    print(f"  search-bot races ({args.search_races}, 4 robots): new {least['new']:.2f} s, "
          f"old {least['old']:.2f} s CPU: {least['old'] / least['new']:.2f}x; new without "
          f"its compiled loop {least['numpy']:.2f} s: {least['old'] / least['numpy']:.2f}x; "
          f"the same races in C, as balance runs play them, {least['compiled']:.3f} s: "
          f"{least['old'] / least['compiled']:.1f}x", flush=True)


def balance_runs(args, trees, tmp: Path) -> None:
    """Balance runs of search bots, and a 1-race run for the fixed cost."""
    walls: dict[str, list[float]] = {"old": [], "new": [], "python": []}
    fixed: dict[str, list[float]] = {"old": [], "new": []}
    for rep in range(2):
        for name, tree in trees:
            walls[name].append(balance(tree, args.races, tmp / f"{name}{rep}.json"))
            fixed[name].append(balance(tree, 1, tmp / "one.json"))
        # this tree with its compiled part ruled out (README): the Python engine
        walls["python"].append(balance(ROOT, args.races, tmp / f"python{rep}.json",
                                       RALLYFORGE_COMPILED="0"))
    same = all(same_races(tmp / "old0.json", tmp / f"{name}{rep}.json")
               for name in walls for rep in range(2))
    old_s, new_s = min(walls["old"]), min(walls["new"])
    old_f, new_f = min(fixed["old"]), min(fixed["new"])
    print(f"  search balance, {args.races} races on 2 workers: new {new_s:.2f} s, old "
          f"{old_s:.2f} s wall: {old_s / new_s:.2f}x (goal: 5x); "
          f"{'the same races' if same else 'DIFFERENT races'} (wins, rounds, deaths); "
          f"new with RALLYFORGE_COMPILED=0 {min(walls['python']):.2f} s: the compiled part "
          f"makes it {min(walls['python']) / new_s:.2f}x as fast", flush=True)
    # what a run costs whatever its races (start-up, workers, the report) bounds the ratio
    print(f"    of which a 1-race run (start-up, workers, report): new {new_f:.2f} s, old "
          f"{old_f:.2f} s: {old_f / new_f:.2f}x; the races beyond it: new "
          f"{new_s - new_f:.2f} s, old {old_s - old_f:.2f} s: "
          f"{(old_s - old_f) / max(new_s - new_f, 1e-3):.2f}x; were the races free, "
          f"at most {old_s / new_f:.1f}x", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
