"""The editor's engine preview on the standard course (the issue's goals):

- a 4-robot race ready to play (race with its event log + timeline frames)
  in under 1 s;
- playback at 60 frames per second: the cost of one animation frame (robot
  poses, the scene items, and repainting the board view) well under 16.7 ms;
- a 200-race balance check in under 15 s on 2 cores (the dialog's run:
  the same plan, runner and aggregate as `rallyforge balance`), serial and
  on 2 worker processes.

    python -m bench.bench_preview [COURSE] [--races N] [--workers W]
"""
from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

from bench import course_and_runs


def prepare_times(scenario, seeds=range(1, 8), robots: int = 4, bot: str = "search"):
    """Seconds to play a race with its event log and build its frames: the
    first one (the bot builds its tables) and the median of the rest."""
    from rallyforge.engine.analysis.replay import build_timeline, play_race
    from rallyforge.engine.bots import new_race
    times, race_times, frames = [], [], []
    for seed in seeds:
        t0 = time.perf_counter()
        timeline = play_race(scenario, seed=seed, robot_count=robots, bot=bot)
        times.append(time.perf_counter() - t0)
        frames.append(len(timeline))
        race = new_race(scenario, seed=seed, robot_count=robots, bot=bot)
        t1 = time.perf_counter()
        race.run()
        t2 = time.perf_counter()
        build_timeline(race.events, seed=seed)
        race_times.append((t2 - t1, time.perf_counter() - t2))
    rest = times[1:] or times
    return (times[0], statistics.median(rest), max(rest),
            statistics.median(r for r, _ in race_times[1:] or race_times),
            statistics.median(b for _, b in race_times[1:] or race_times),
            statistics.median(frames))


def pose_cost(timeline, samples: int = 4) -> float:
    """Microseconds to compute every robot's pose for one animation frame."""
    from rallyforge.editor.preview.animation import poses
    n = 0
    t0 = time.perf_counter()
    for f in timeline.frames:
        for k in range(1, samples + 1):
            poses(timeline, f.index, k / (samples + 1))
            n += 1
    return (time.perf_counter() - t0) / n * 1e6


def screen_cost(path: Path, robots: int = 4) -> tuple[float, float, float, int]:
    """(ms per animation frame for the scene items, ms per frame with the
    view's repaint of what changed, ms with a repaint of the whole view,
    frames) in an offscreen main window (1400x900, software rendering)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication
    app = QApplication.instance() or QApplication([])
    from rallyforge.editor.main_window import MainWindow
    from rallyforge.editor.preview import install_preview
    from rallyforge.engine.analysis.replay import play_race
    window = MainWindow(path=str(path))
    preview = install_preview(window)
    window.show()
    app.processEvents()
    window.view.fit()
    app.processEvents()
    timeline = play_race(window.doc.scenario, seed=1, robot_count=robots, bot="search")
    preview.playback.show(timeline)
    app.processEvents()
    frames = [f.index for f in timeline.frames if f.motions or f.beams][:150]
    steps = [(i, k / 10) for i in frames for k in range(1, 11)]
    t0 = time.perf_counter()
    for i, u in steps:
        preview.overlay.show(i, u)
    items = (time.perf_counter() - t0) / len(steps) * 1e3
    viewport = window.view.viewport()
    t0 = time.perf_counter()
    for i, u in steps[:300]:
        preview.overlay.show(i, u)
        app.processEvents()             # the view repaints what changed
    painted = (time.perf_counter() - t0) / len(steps[:300]) * 1e3
    t0 = time.perf_counter()
    for i, u in steps[:100]:
        preview.overlay.show(i, u)
        viewport.repaint()
    whole = (time.perf_counter() - t0) / len(steps[:100]) * 1e3
    preview.shutdown()
    window.close()
    window.deleteLater()
    app.processEvents()
    return items, painted, whole, len(steps)


def balance_time(scenario, races: int, workers: int, robots: int = 4, bot: str = "search"):
    """Wall seconds of the dialog's balance run, its result, and its chunk size."""
    from rallyforge.editor.preview.balance_run import chunk_size, run_balance
    chunk = chunk_size(workers)
    t0 = time.perf_counter()
    result = run_balance(scenario, races, robots, bot, 0, workers=workers, chunk=chunk)
    return time.perf_counter() - t0, result, chunk


def main(argv: list[str] | None = None) -> None:
    args, scenario = course_and_runs("bench_preview", __doc__.splitlines()[0], 200,
                                     argv if argv is not None else sys.argv[1:])
    if scenario is None:
        return
    print(f"preview on {scenario.name} ({scenario.board.width}x{scenario.board.height}, "
          f"{len(scenario.docks)} docks)")

    first, median, worst, race_s, build_s, frames = prepare_times(scenario)
    print(f"  4-robot race ready to play (race + frames): first {first * 1e3:.0f} ms, then "
          f"median {median * 1e3:.0f} ms, worst {worst * 1e3:.0f} ms  goal < 1000 ms")
    print(f"    of which the race {race_s * 1e3:.0f} ms, the frames {build_s * 1e3:.1f} ms "
          f"({frames:.0f} frames)")

    from rallyforge.engine.analysis.replay import play_race
    timeline = play_race(scenario, seed=1, robot_count=4, bot="search")
    print(f"  robot poses per animation frame: {pose_cost(timeline):.1f} µs")
    items, painted, whole, n = screen_cost(Path(args.course))
    print(f"  one animation frame on screen: {items:.2f} ms to place the robots, {painted:.2f} ms "
          f"with the view's repaint, {whole:.2f} ms repainting the whole view ({n} frames)  "
          f"goal < 16.7 ms (60 fps)")

    for workers in (1, args.workers):
        wall, result, chunk = balance_time(scenario, args.races, workers)
        print(f"  balance check, {args.races} races of 4 search robots on {workers} "
              f"worker{'s' * (workers != 1)}: {wall:.1f} s wall ({result['races'] / wall:.0f} "
              f"races/s, chunks of {chunk}, verdict {result['fairness']['verdict']})"
              + ("  goal < 15 s on 2 cores" if workers > 1 else ""))


if __name__ == "__main__":
    main()
