"""Balance runs: the plan, the verdicts on known courses, the same numbers
on every backend, the outputs, stopping early, and paired comparisons."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from rallyforge.engine.analysis.balance.aggregate import Tally
from rallyforge.engine.analysis.balance.plan import RACE, TRIAL, derive_seed, make_plan
from rallyforge.engine.analysis.balance.play import RaceTask, lineup, split_results
from rallyforge.engine.analysis.balance.runner import run
from rallyforge.engine.bots import new_race
from rallyforge.engine.cli.main import main
from rallyforge.engine.format.loader import load_file
from rallyforge.engine.model.element_kinds import DEATH_CAUSES

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "balance"
BIASED = FIXTURES / "biased.json"
SYMMETRIC = FIXTURES / "symmetric.json"
DUEL = FIXTURES / "duel.json"
STANDARD = ROOT / "scenarios" / "standard-course.json"

REQUIRED_KEYS = {"scenario", "races", "robots", "bot", "seed", "completion", "length", "docks",
                 "fairness", "time_trial", "legs", "heatmaps", "elapsed_s"}


def balance_json(tmp_path, *args) -> dict:
    out = tmp_path / "result.json"
    code = main(["balance", *map(str, args), "--quiet", "--json", str(out)])
    assert code == 0
    return json.loads(out.read_text())


def without_time(result: dict) -> dict:
    return {k: v for k, v in result.items() if k != "elapsed_s"}


def aggregate(scenario, races, trials, *, robots, bot, seed, engine, **more) -> dict:
    """The balance result of races and trials in hand."""
    tally = Tally(scenario, robots)
    tally.add_summaries(races, trials)
    return tally.result(bot=bot, seed=seed, engine=engine, **more)


# ---------------------------------------------------------------- the plan

def test_seeds_are_derived_stably():
    # fixed forever: changing the derivation would change every published result
    assert derive_seed(7, "race", 3) == 4581935948705797519     # sha256("7:race:3"), first 8 bytes >> 1
    assert derive_seed(0, "race", 0) == 841092215306464059      # sha256("0:race:0")
    # the run's seed, the stream and the number all count
    assert len({derive_seed(s, k, i) for s in (0, 1) for k in (RACE, TRIAL) for i in (0, 1)}) == 8
    # each job's seed is derived from its own number: the same in any process
    plan = make_plan(50, 3, 8, seed=42)
    races = [j for j in plan.jobs if j.kind == RACE]
    assert [j.number for j in races] == list(range(50))
    assert all(j.seed == derive_seed(42, j.kind, j.number) for j in plan.jobs)
    code = ("from rallyforge.engine.analysis.balance.plan import make_plan; "
            "print([j.seed for j in make_plan(50, 3, 8, seed=42).jobs])")
    other = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                           env=dict(os.environ, PYTHONHASHSEED="12345"), check=True)
    assert other.stdout.strip() == str([j.seed for j in plan.jobs])


def test_k_robots_race_on_docks_1_to_k_as_the_game_seats_them():
    plan = make_plan(40, 3, 8, seed=1)
    assert {j.docks for j in plan.jobs if j.kind == RACE} == {(1, 2, 3)}
    # several player counts take turns, each the same races and docks 1..k
    counts = make_plan(30, (4, 5, 6), 8, seed=1, trials=0)
    docks = [j.docks for j in counts.jobs]
    assert docks[:4] == [(1, 2, 3, 4), (1, 2, 3, 4, 5), (1, 2, 3, 4, 5, 6), (1, 2, 3, 4)]
    assert Counter(len(d) for d in docks) == {4: 10, 5: 10, 6: 10}
    # the seeds are the races', whatever the seating
    rotated = make_plan(30, (4, 5, 6), 8, seed=1, trials=0, seating="rotate")
    assert [j.seed for j in rotated.jobs] == [j.seed for j in counts.jobs]
    with pytest.raises(ValueError, match="seating"):
        make_plan(30, 4, 8, seating="anywhere")
    with pytest.raises(ValueError, match="robots must be 1 to 8"):
        make_plan(30, (4, 9), 8)


def test_a_balance_run_races_the_seats_it_shows(tmp_path):
    """The game's seating: docks 1..k race and are shown, the others not;
    the rotation shows every dock; a run of several counts judges each."""
    game = balance_json(tmp_path, STANDARD, "--races", 16, "--robots", 3, "--workers", 1,
                        "--trials", 0)
    assert game["seating"] == "game" and game["players"] == [3]
    assert [(d["dock"], d["races"]) for d in game["docks"]] == [(1, 16), (2, 16), (3, 16)]
    rotated = balance_json(tmp_path, STANDARD, "--races", 16, "--robots", 3, "--workers", 1,
                           "--trials", 0, "--docks", "rotate")
    assert [d["races"] for d in rotated["docks"]] == [6] * 8
    counts = balance_json(tmp_path, STANDARD, "--races", 16, "--players", "2-3", "--workers", 1,
                          "--trials", 0)
    assert counts["players"] == [2, 3] and counts["robots"] == 3
    assert [(c["robots"], c["races"], len(c["docks"])) for c in counts["by_players"]] == [
        (2, 8, 2), (3, 8, 3)]
    assert [d["races"] for d in counts["docks"]] == [16, 16, 8]
    # seat 3 races only with three robots: its fair share is a third, seat 1's
    # the mean of a half and a third (as far as the races are decided)
    assert counts["docks"][2]["fair_share"] == pytest.approx(1 / 3)
    assert 1 / 3 < counts["docks"][0]["fair_share"] < 1 / 2


def test_docks_rotate_evenly():
    plan = make_plan(80, 3, 8, seed=1, seating="rotate")
    races = [j for j in plan.jobs if j.kind == RACE]
    use = Counter(d for j in races for d in j.docks)
    assert set(use) == set(range(1, 9)) and len(set(use.values())) == 1    # 30 each
    assert all(len(set(j.docks)) == 3 for j in races)
    trials = [j for j in plan.jobs if j.kind == TRIAL]
    assert plan.trials == 10 and len(trials) == 10 * 8           # a job per trial and dock
    assert all(sorted(d for j in trials if j.number == t for d in j.docks) == list(range(1, 9))
               for t in range(10))


# ---------------------------------------------------------------- verdicts

def test_biased_course_is_unfair(tmp_path):
    result = balance_json(tmp_path, BIASED, "--races", 40, "--robots", 2, "--workers", 1,
                          "--trials", 2)
    assert result["fairness"]["verdict"] == "unfair"
    assert result["fairness"]["chi2_p"] < 0.05
    dock1 = result["docks"][0]
    assert dock1["win_rate"] > 0.8 and dock1["ci"][0] > 0.5
    trial = {t["dock"]: t["median_rounds"] for t in result["time_trial"]}
    assert trial[1] == 1                        # a move forward touches the flag


def test_symmetric_course_is_not_unfair(tmp_path):
    result = balance_json(tmp_path, SYMMETRIC, "--races", 40, "--robots", 2, "--workers", 1,
                          "--trials", 2)
    assert result["fairness"]["verdict"] in ("fair", "inconclusive")
    if result["fairness"]["verdict"] == "inconclusive":
        assert result["fairness"]["more_races_needed"] > 0


# ---------------------------------------------------------------- backends

def test_same_result_for_any_worker_count_and_dask():
    scenario = load_file(DUEL)
    plan = make_plan(24, 2, len(scenario.docks), seed=3, trials=2)
    task = RaceTask(scenario, "search")
    results = []
    for options in ({"workers": 1}, {"workers": 2, "chunk_size": 3},
                    {"workers": 2, "scheduler": "local", "local_processes": False,
                     "chunk_size": 5}):
        outcome = run(task, plan.jobs, **options)
        assert not outcome.cancelled
        races, trials = split_results(outcome.results)
        results.append(without_time(aggregate(scenario, races, trials, robots=2,
                                               bot="search", seed=3, engine="python")))
    assert results[0] == results[1] == results[2]


def test_cli_workers_give_identical_json(tmp_path):
    one = balance_json(tmp_path, DUEL, "--races", 16, "--robots", 2, "--workers", 1)
    two = balance_json(tmp_path, DUEL, "--races", 16, "--robots", 2, "--workers", 2)
    assert without_time(one) == without_time(two)


def test_cli_local_dask_cluster_of_processes_gives_identical_json(tmp_path):
    one = balance_json(tmp_path, DUEL, "--races", 8, "--robots", 2, "--workers", 1)
    dask = balance_json(tmp_path, DUEL, "--races", 8, "--robots", 2, "--workers", 2,
                        "--scheduler", "local")
    assert without_time(one) == without_time(dask)


# ---------------------------------------------------------------- outputs

def test_json_has_every_documented_key(tmp_path):
    result = balance_json(tmp_path, DUEL, "--races", 12, "--robots", 2, "--workers", 1,
                          "--bot", "greedy", "--seed", 5)
    assert REQUIRED_KEYS <= set(result)
    assert result["races"] == 12 and result["robots"] == 2 and result["bot"] == "greedy"
    assert result["seed"] == 5
    assert set(result["completion"]) >= {"rate", "ci"}
    assert set(result["length"]) >= {"median", "q1", "q3"}
    assert {"dock", "races", "wins", "win_rate", "ci"} <= set(result["docks"][0])
    assert sum(d["races"] for d in result["docks"]) == 24
    assert {"verdict", "chi2_p", "balance", "more_races_needed"} <= set(result["fairness"])
    assert {"dock", "median_rounds"} <= set(result["time_trial"][0])
    assert [leg["to_flag"] for leg in result["legs"]] == [1, 2, 3]
    assert {"median_rounds", "death_rate"} <= set(result["legs"][0])
    maps = result["heatmaps"]
    assert set(maps["deaths_by_cause"]) == set(DEATH_CAUSES)
    for grid in (maps["deaths"], maps["occupancy"], *maps["deaths_by_cause"].values()):
        assert len(grid) == 10 and all(len(row) == 10 for row in grid)
    # occupancy: each robot on the board at each register end counts on its
    # square, per 100 races; replay the plan's races to count them
    scenario = load_file(DUEL)
    ends: Counter = Counter()

    def count(race) -> None:
        ends.update((r.x, r.y) for r in race.snapshot() if r.alive)

    for job in make_plan(12, 2, 2, seed=5).jobs:
        if job.kind == RACE:
            new_race(lineup(scenario, job.docks, "greedy"), seed=job.seed, record_events=False,
                 on_register_end=count).run()
    assert sum(ends.values()) > 12 * 2 * 5                  # more than a round a race
    assert maps["occupancy"] == [[round(ends[x, y] * 100 / 12, 3) for x in range(10)]
                                 for y in range(10)]


def test_report_writes_markdown_and_charts(tmp_path):
    out = tmp_path / "report"
    code = main(["balance", str(BIASED), "--races", "24", "--robots", "2", "--workers", "1",
                 "--quiet", "--report", str(out)])        # enough won races to judge the docks
    assert code == 0
    text = (out / "report.md").read_text()
    assert "Dock 1 wins" in text and "of a fair course" in text
    pngs = sorted(p.name for p in out.glob("*.png"))
    assert {"win_rates.png", "race_length.png", "heatmap_deaths.png",
            "heatmap_occupancy.png"} <= set(pngs)
    for name in pngs:
        assert (out / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_command_line_errors(tmp_path, capsys):
    assert main(["balance", str(tmp_path / "missing.json"), "--races", "4"]) == 1
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["balance", str(bad), "--races", "4"]) == 1
    assert main(["balance", str(DUEL), "--races", "4", "--robots", "3", "--quiet"]) == 2
    assert main(["balance", str(DUEL), "--races", "4", "--bot", "nobody", "--quiet"]) == 2
    assert main(["balance", str(DUEL), "--races", "4", "--scheduler", "nowhere", "--quiet"]) == 2
    with pytest.raises(SystemExit) as exc:
        main(["balance", str(DUEL), "--races", "0"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert "no such bot" in err and "only 2 docks" in err


# ---------------------------------------------------------------- stopping

def test_cancel_returns_what_was_played():
    scenario = load_file(DUEL)
    plan = make_plan(40, 2, 2, seed=0, trials=0)
    seen = []
    outcome = run(RaceTask(scenario, "greedy"), plan.jobs, workers=1, chunk_size=4,
                  progress=lambda done, total, elapsed: seen.append(done),
                  should_stop=lambda: len(seen) >= 3)
    assert outcome.cancelled
    assert [job.index for job, _ in outcome.results] == list(range(12))
    assert seen == [4, 8, 12]
    races, trials = split_results(outcome.results)
    result = aggregate(scenario, races, trials, robots=2, bot="greedy", seed=0, engine="python",
                       planned=40, cancelled=True)
    assert result["races"] == 12 and result["planned"] == 40 and result["cancelled"]


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT")
def test_ctrl_c_stops_cleanly_and_still_reports(tmp_path):
    out = tmp_path / "partial.json"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(
        [sys.executable, "-m", "rallyforge.engine.cli", "balance", str(DUEL), "--races", "100000",
         "--robots", "2", "--workers", "2", "--json", str(out)],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = proc.stderr.readline()           # the first progress line: races are being played
        assert first.startswith("races:"), first
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr
    result = json.loads(out.read_text())
    assert result["cancelled"] and 0 < result["races"] < 100000
    assert "Balance report" in stdout


def test_a_stopped_pools_thread_that_fails_prints_nothing_and_others_still_do(monkeypatch):
    """When a run stops, its pool's workers are stopped under the pool's own
    thread, which can then fail (a broken pipe: rare, a matter of timing);
    that failure printed a traceback after the report. Other threads' failures
    still reach the hook that prints them."""
    import threading
    from concurrent.futures import ProcessPoolExecutor
    from rallyforge.engine.analysis.balance import runner
    printed: list = []
    monkeypatch.setattr(threading, "excepthook", printed.append)    # what prints them
    monkeypatch.setattr(runner, "_other_hook", threading.excepthook)

    def failing() -> None:
        raise BrokenPipeError("the workers are gone")

    with ProcessPoolExecutor(max_workers=1) as pool:
        assert pool.submit(int, "7").result() == 7      # the pool's thread runs now
        runner._stop_workers(pool)
        assert pool._executor_manager_thread in runner._STOPPED     # type: ignore[attr-defined]
    stopped, other = threading.Thread(target=failing), threading.Thread(target=failing)
    runner._quiet_when_failing(stopped)
    for thread in (stopped, other):
        thread.start()
        thread.join()
    assert [(args.thread, args.exc_type) for args in printed] == [(other, BrokenPipeError)]


def interrupt(argv: list[str], tmp_path, presses: int = 1, progress: str = "races:"):
    """Run the command line in a process group of its own, and press Ctrl+C
    (SIGINT to the whole group, as a terminal does) `presses` times once the
    races are under way. Returns (exit code, stdout, stderr)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "rallyforge.engine.cli", *argv], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        line = proc.stderr.readline()
        while line and not line.startswith(progress):   # (Dask may warn first)
            line = proc.stderr.readline()
        assert line, "the races never started"
        for _ in range(presses):
            os.killpg(proc.pid, signal.SIGINT)
            time.sleep(0.2)
        stdout, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    return proc.returncode, stdout, stderr


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT")
@pytest.mark.parametrize("presses", [1, 2])
def test_ctrl_c_on_a_local_dask_cluster_shows_no_worker_tracebacks(tmp_path, presses):
    out = tmp_path / "partial.json"
    code, _, stderr = interrupt(
        ["balance", str(DUEL), "--races", "100000", "--robots", "2", "--workers", "2",
         "--scheduler", "local", "--json", str(out)], tmp_path, presses)
    assert code in (130, -signal.SIGINT), stderr
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr, stderr
    if presses == 1:
        assert json.loads(out.read_text())["cancelled"]


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT")
def test_the_dask_logs_are_quiet_once_ctrl_c_is_pressed(caplog):
    """Ctrl+C landing before distributed's sync() has made its future makes
    its cancel callback fail in the event loop, logged as a traceback by
    tornado (and the client tells of the scheduler going away): races the
    run above loses only now and then. The runner silences the Dask client's
    and loop's logs from the press on, and only then."""
    import logging

    from rallyforge.engine.analysis.balance.runner import _dask_quiet_after_ctrl_c
    loop_log = logging.getLogger("tornado.application")
    client_log = logging.getLogger("distributed.client")
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    with caplog.at_level(logging.ERROR, logger="tornado.application"):
        with _dask_quiet_after_ctrl_c():
            loop_log.error("before the press")
            with pytest.raises(KeyboardInterrupt):
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(5)
            loop_log.error("after the press")
            client_log.error("the client after the press")
        loop_log.error("after the run")
    assert [r.getMessage() for r in caplog.records] == ["before the press", "after the run"]
    assert signal.signal(signal.SIGINT, before) is signal.default_int_handler


class EndlessTask:
    """A task whose chunks do not end before their worker is stopped; each
    notes its worker's process id in `folder`."""

    def __init__(self, folder: Path):
        self.folder = str(folder)

    def play(self, jobs):
        Path(self.folder, str(os.getpid())).touch()
        time.sleep(120)
        return [None] * len(jobs)


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().split(")")[-1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError):   # gone between the open and the read
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_stopped_run_stops_the_workers_of_its_dropped_chunks(tmp_path):
    """Stopped (Ctrl+C, Cancel), the worker processes still playing chunks are
    stopped: nothing waits for them, at exit either (a chunk of a big course
    can take minutes)."""
    plan = make_plan(8, 2, 2, seed=0, trials=0)
    outcome = run(EndlessTask(tmp_path), plan.jobs, workers=2, chunk_size=1,
                  should_stop=lambda: any(tmp_path.iterdir()))
    assert outcome.cancelled and outcome.results == []
    pids = [int(p.name) for p in tmp_path.iterdir()]
    deadline = time.monotonic() + 60
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    still = [pid for pid in pids if alive(pid)]
    for pid in still:
        os.kill(pid, signal.SIGKILL)
    assert not still


def test_unwritable_outputs_are_found_before_any_race(tmp_path, capsys, monkeypatch):
    from rallyforge.engine.analysis.balance import runner

    def no_races(*args, **kwargs):
        raise AssertionError("races were played")

    monkeypatch.setattr(runner, "run", no_races)
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    for argv in (["balance", str(DUEL), "--json", str(blocker / "out.json")],
                 ["balance", str(DUEL), "--report", str(blocker / "report")],
                 ["balance", str(DUEL), "--report", str(blocker)],
                 ["balance", str(DUEL), "--json", str(tmp_path)],
                 ["compare", str(DUEL), str(DUEL), "--json", str(blocker / "out.json")]):
        assert main([*argv, "--races", "4", "--robots", "2", "--quiet"]) == 1, argv
        err = capsys.readouterr().err
        assert "rallyforge: error: --" in err and "Traceback" not in err, argv


# ---------------------------------------------------------------- compare

def test_compare_identical_courses_gives_exactly_zero(tmp_path):
    out = tmp_path / "compare.json"
    code = main(["compare", str(DUEL), str(DUEL), "--races", "12", "--workers", "1", "--quiet",
                 "--json", str(out)])
    assert code == 0
    result = json.loads(out.read_text())
    assert result["races"] == 12
    for dock in result["docks"]:
        assert dock["change"] == 0 and dock["ci"] == [0, 0]
        assert dock["old_win_rate"] == dock["new_win_rate"]
    assert result["length"]["mean_change"] == 0 and result["length"]["ci"] == [0, 0]


def test_compare_pairs_races_by_seed(tmp_path):
    """An edit that matters (dock 1 pulled next to the flag) shows up with an
    interval that excludes zero after few races."""
    edited = json.loads(SYMMETRIC.read_text())
    edited["docks"][0] = {"x": 4, "y": 5, "facing": "N"}
    new = tmp_path / "edited.json"
    new.write_text(json.dumps(edited))
    out = tmp_path / "compare.json"
    assert main(["compare", str(SYMMETRIC), str(new), "--races", "32", "--robots", "2",
                 "--workers", "1", "--quiet", "--json", str(out)]) == 0
    result = json.loads(out.read_text())
    dock1 = result["docks"][0]
    assert dock1["change"] > 0 and dock1["ci"][0] > 0


def test_compare_keeps_of_each_race_only_what_the_pairing_reads(tmp_path, monkeypatch):
    """Deaths, flags and squares are counted as the races come (aggregate.py
    Tally); the races kept for the pairing hold their seats and outcome."""
    from rallyforge.engine.cli import compare
    kept = []

    def pair(old_result, new_result, old_races, new_races, *rest):
        kept.extend([*old_races, *new_races])
        return real(old_result, new_result, old_races, new_races, *rest)

    real = compare.compare
    monkeypatch.setattr(compare, "compare", pair)
    assert main(["compare", str(DUEL), str(DUEL), "--races", "12", "--workers", "1",
                 "--quiet"]) == 0
    assert len(kept) == 24 and all(r.docks and r.rounds for r in kept)
    assert any(r.winners for r in kept)
    assert not any(r.deaths or r.occupancy or r.flag_rounds for r in kept)


def test_compare_small_runs_give_honest_intervals():
    """Few races: t intervals, and no zero-width interval unless every race
    came out the same on both courses."""
    from types import SimpleNamespace
    from rallyforge.engine.cli.compare import compare

    def run_of(winners, rounds):
        races = [SimpleNamespace(docks=(1, 2), winner_docks=(w,), rounds=r, decided=True, sides=())
                 for w, r in zip(winners, rounds)]
        docks = [{"dock": d, "win_rate": sum(w == d for w in winners) / len(winners),
                  "races": len(winners)} for d in (1, 2)]
        result = {"docks": docks, "robots": 2, "bot": "search", "seed": 0, "cancelled": False,
                  "scenario": "s", "completion": {"rate": 1.0}, "fairness": {"balance": 1.0},
                  "length": {"median": 5, "q1": 4, "q3": 6}, "elapsed_s": 0.0}
        return result, races

    # one race of four changes hands (dock 1 -> dock 2), and one lasts a round longer
    old, old_races = run_of([1, 1, 2, 2], [5, 5, 5, 5])
    new, new_races = run_of([2, 1, 2, 2], [6, 5, 5, 5])
    result = compare(old, new, old_races, new_races, max_rounds=100,
                     old_squares=[(0, 0), (1, 0)], new_squares=[(0, 0), (1, 0)])
    dock1, dock2 = result["docks"]
    assert dock1["change"] == -0.25
    # t(0.975, 3 df) = 3.182, sd 0.5: -0.25 +- 0.80, within the possible -1..1
    assert dock1["ci"] == [-1, pytest.approx(0.545612, abs=1e-5)]
    assert dock2["change"] == 0.25 and dock2["ci"][1] - dock2["ci"][0] > 0
    assert result["length"]["ci"] == [pytest.approx(-0.545612, abs=1e-5),
                                      pytest.approx(1.045612, abs=1e-5)]
    assert result["completion"]["ci"] == [0, 0]        # every race decided on both


def test_progress_bar_in_a_log_prints_every_tenth():
    import io
    from rallyforge.engine.analysis.balance.progress import ProgressBar
    stream = io.StringIO()
    bar = ProgressBar("races", stream=stream)
    for done in range(0, 101, 5):
        bar(done, 100, done / 50)
    bar.close()
    lines = stream.getvalue().splitlines()
    assert len(lines) == 11                    # 0%, 10%, ... 100%
    assert lines[-1].startswith("races: 100/100") and "races/s" in lines[-1]
    assert "left" in lines[0]


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT")
def test_compare_stopped_during_the_old_course_still_writes_what_it_has(tmp_path):
    out = tmp_path / "partial.json"
    code, stdout, stderr = interrupt(
        ["compare", str(DUEL), str(DUEL), "--races", "100000", "--robots", "2", "--workers", "2",
         "--json", str(out)], tmp_path, progress="old:")
    assert code == 130, stderr
    assert "Traceback" not in stderr
    result = json.loads(out.read_text())
    assert result["cancelled"] and result["races"] == 0 and result["new"] is None
    assert 0 < result["old_races"] < result["planned"] == 100000
    assert result["old"]["scenario"] == "Duel"
    assert "stopped before the new course was raced" in stderr


def test_races_default_to_the_cards_thousand(tmp_path):
    result = balance_json(tmp_path, DUEL, "--bot", "greedy", "--workers", 1)
    assert result["races"] == 1000


def _help(capsys, command: str) -> str:
    with pytest.raises(SystemExit) as stop:
        main([command, "--help"])
    assert stop.value.code == 0
    return " ".join(capsys.readouterr().out.split())


def test_each_command_says_its_own_robots_default(capsys):
    balance = _help(capsys, "balance")
    assert "compare" not in balance and "old course" not in balance
    assert "--races N races to play (default: 1000, as for the course card)" in balance
    assert "--robots K robots per race (default: the old course goals' robots" in \
        _help(capsys, "compare")


def test_every_help_lists_the_choices_and_defaults_in_words(capsys):
    """Every option that takes a value says its default and names its choices
    (bots included), save the outputs, which are written only when asked."""
    from rallyforge.engine.bots import BOTS
    from rallyforge.engine.cli.main import COMMANDS, build_parser
    outputs = {"--json", "--out", "--apply", "--report"}
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    for name in COMMANDS:
        text = _help(capsys, name)
        for action in sub.choices[name]._actions:
            flag = action.option_strings[-1] if action.option_strings else None
            if flag is None or action.nargs == 0 or flag in outputs or action.required:
                continue
            assert "default" in action.help, (name, flag)
            for choice in action.choices or ():
                assert choice in action.help, (name, flag, choice)
            if action.dest == "bot":
                assert all(bot in action.help for bot in BOTS), (name, flag)
        assert "%" not in text


# ---------------------------------------------------------------- huge runs

class Numbers:
    """A task that plays nothing: each job's race or trial number."""

    def play(self, jobs):
        return [job.number for job in jobs]


def test_a_plan_makes_its_jobs_when_asked_for():
    """The plan's jobs are the documented ones (trial t right after race
    floor((t + 1) * races / trials) - 1, one job per dock), made one by one:
    a hundred million races plan in no more memory than ten."""
    import tracemalloc
    plan = make_plan(23, 3, 5, seed=9, trials=4, seating="rotate")
    after = {(t + 1) * 23 // 4 - 1: t for t in range(4)}
    wanted = []
    for i in range(23):
        wanted.append((RACE, i, tuple(sorted((i + j) % 5 + 1 for j in range(3)))))
        if i in after:
            wanted += [(TRIAL, after[i], (d,)) for d in range(1, 6)]
    assert [(j.kind, j.number, j.docks) for j in plan.jobs] == wanted
    assert [j.index for j in plan.jobs] == list(range(len(wanted)))
    assert plan.jobs[5:9] == list(plan.jobs)[5:9] and plan.jobs[-1] == list(plan.jobs)[-1]
    tracemalloc.start()
    huge = make_plan(100_000_000, 4, 8)
    first, last = huge.jobs[0], huge.jobs[len(huge.jobs) - 1]
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 100_000
    assert len(huge.jobs) == 100_000_000 + 50 * 8
    assert (first.kind, first.number, last.kind, last.docks) == (RACE, 0, TRIAL, (8,))


def test_a_huge_run_starts_at_once_and_stops_with_what_it_played():
    import tracemalloc
    plan = make_plan(100_000_000, 2, 2, trials=0)
    tracemalloc.start()
    seen = []
    outcome = run(Numbers(), plan.jobs, workers=1, chunk_size=10,
                  progress=lambda done, total, elapsed: seen.append((done, total)),
                  should_stop=lambda: len(seen) >= 3)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert seen == [(10, 100_000_000), (20, 100_000_000), (30, 100_000_000)]
    assert outcome.cancelled and outcome.planned == 100_000_000
    assert [result for _, result in outcome.results] == list(range(30))
    assert peak < 1_000_000


class FirstChunkSlow:
    """Each job's race number; the first chunk takes `seconds`, so that the
    chunks after it are done first."""

    def __init__(self, seconds: float):
        self.seconds = seconds

    def play(self, jobs):
        if jobs[0].index == 0:
            time.sleep(self.seconds)
        return [job.number for job in jobs]


def test_a_folded_run_hands_its_chunks_over_in_plan_order_and_keeps_none():
    plan = make_plan(12, 2, 2, trials=0)
    folded = []
    outcome = run(FirstChunkSlow(0.8), plan.jobs, workers=2, chunk_size=2,
                  fold=lambda pairs: folded.append([number for _, number in pairs]))
    assert not outcome.cancelled and outcome.results == []
    assert folded == [[0, 1], [2, 3], [4, 5], [6, 7], [8, 9], [10, 11]]


def test_a_folded_run_keeps_nothing_of_its_chunks():
    """Memory that does not grow with the races: the jobs held by the plan
    and the runner (traced where they were made) after a hundred thousand
    jobs are those after a thousand."""
    import tracemalloc
    made_by = [tracemalloc.Filter(True, "*/balance/plan.py"),
               tracemalloc.Filter(True, "*/balance/runner.py")]
    plan = make_plan(100_000_000, 2, 2, trials=0)
    held = []
    for chunks in (100, 10_000):
        def stop() -> bool:
            if done[0] < 10 * chunks:
                return False
            traces = tracemalloc.take_snapshot().filter_traces(made_by)
            held.append(sum(stat.size for stat in traces.statistics("filename")))
            return True

        done = [0]                  # the races done (one number: a list of them would grow)
        tracemalloc.start()
        run(Numbers(), plan.jobs, workers=1, chunk_size=10, fold=lambda pairs: None,
            progress=lambda races, total, elapsed: done.__setitem__(0, races), should_stop=stop)
        tracemalloc.stop()
    assert held[1] < held[0] + 10_000, held


def test_a_folded_run_stopped_hands_over_the_chunks_done_past_one_that_was_not():
    plan = make_plan(40, 2, 2, trials=0)
    folded, seen = [], []
    outcome = run(FirstChunkSlow(60), plan.jobs, workers=2, chunk_size=2,
                  progress=lambda done, total, elapsed: seen.append(done),
                  should_stop=lambda: len(seen) >= 3,
                  fold=lambda pairs: folded.append([number for _, number in pairs]))
    assert outcome.cancelled and outcome.results == []
    assert folded and folded == sorted(folded) and [0, 1] not in folded
    assert len(folded) == len(seen)             # every chunk done, once


def test_a_tally_keeps_no_race_summary():
    """A balance run counts its races as they come (aggregate.py Tally): its
    memory does not grow with them. Fed chunk by chunk, the tally makes the
    result the races in hand make."""
    import gc
    import weakref

    scenario = load_file(DUEL)
    plan = make_plan(12, 2, len(scenario.docks), seed=5, trials=1)
    jobs = list(plan.jobs)
    pairs = list(zip(jobs, RaceTask(scenario, "greedy").play(jobs)))
    races, trials = split_results(pairs)
    whole = aggregate(scenario, races, trials, robots=2, bot="greedy", seed=5, engine="python")
    tally = Tally(scenario, 2)
    for start in range(0, len(pairs), 5):
        tally.add(pairs[start:start + 5])
    kept = [weakref.ref(r) for r in races]
    del pairs, races, trials
    gc.collect()
    assert not any(ref() for ref in kept)
    assert tally.result(bot="greedy", seed=5, engine="python") == whole


def test_races_past_the_bound_are_bad_usage(capsys):
    from rallyforge.engine.analysis.balance.plan import MAX_RACES
    for command in (["balance", str(DUEL)], ["card", str(DUEL)],
                    ["compare", str(DUEL), str(DUEL)]):
        with pytest.raises(SystemExit) as exc:
            main([*command, "--races", str(MAX_RACES + 1)])
        assert exc.value.code == 2
        assert (f"argument --races: must be at most {MAX_RACES:,}, not {MAX_RACES + 1:,}"
                in capsys.readouterr().err)
    with pytest.raises(ValueError):
        make_plan(MAX_RACES + 1, 2, 2)


@pytest.mark.skipif("forkserver" not in __import__("multiprocessing").get_all_start_methods(),
                    reason="no fork server")
def test_workers_ignore_ctrl_c_from_their_first_instruction(monkeypatch):
    """A press while the pool starts, before a worker's initializer ran (or
    while the fork server imports the engine), printed its traceback: the
    fork server starts ignoring SIGINT, and the workers it forks with it.
    (The fork server is what a process with other threads uses.)"""
    from concurrent.futures import ProcessPoolExecutor
    from rallyforge.engine.analysis.balance import runner
    monkeypatch.setattr(runner, "_alone", lambda: False)
    here = signal.getsignal(signal.SIGINT)
    context = runner._context()
    assert context.get_start_method() == "forkserver"
    with ProcessPoolExecutor(1, mp_context=context) as pool:      # (no initializer)
        assert pool.submit(signal.getsignal, signal.SIGINT).result() == signal.SIG_IGN
    assert signal.getsignal(signal.SIGINT) is here != signal.SIG_IGN    # this process: not


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork")
def test_workers_forked_from_this_process_ignore_ctrl_c_from_their_first_instruction():
    """Workers forked from the calling process (where it has no other
    thread) ignore SIGINT before they run a line of their own; another
    child forked by this process, and this process itself, do not."""
    from rallyforge.engine.analysis.balance.runner import _forking_deaf_workers

    def child_ignores_ctrl_c() -> bool:
        pid = os.fork()
        if pid == 0:                        # (the child reports and quits at once)
            os._exit(0 if signal.getsignal(signal.SIGINT) == signal.SIG_IGN else 1)
        return os.waitpid(pid, 0)[1] == 0

    here = signal.getsignal(signal.SIGINT)
    with _forking_deaf_workers():
        assert child_ignores_ctrl_c()
    assert not child_ignores_ctrl_c()
    assert signal.getsignal(signal.SIGINT) is here != signal.SIG_IGN


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT")
def test_ctrl_c_while_the_workers_start_is_acted_on_once_they_have():
    """A press half way through starting the pool left a worker starting up
    with this process gone (its traceback printed): the press waits."""
    from rallyforge.engine.analysis.balance.runner import _ctrl_c_deferred
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    finished = []
    try:
        with pytest.raises(KeyboardInterrupt):
            with _ctrl_c_deferred():
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(0.05)            # (the handler runs between instructions)
                finished.append(True)
        assert finished == [True]
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, before)


def test_the_callers_work_is_done_while_the_worker_processes_start():
    """``meanwhile`` (a balance run imports scipy.special with it) runs once,
    in this process, before any chunk comes back, when the jobs go to
    worker processes; played here, they leave no wait to fill: not called."""
    plan = make_plan(8, 2, 2, trials=0)
    for workers, wanted in ((2, [0]), (1, [])):
        seen: list = []
        calls: list = []
        outcome = run(Numbers(), plan.jobs, workers=workers, chunk_size=2,
                      progress=lambda *done: seen.append(done),
                      meanwhile=lambda: calls.append(len(seen)))
        assert calls == wanted, workers
        assert [result for _, result in outcome.results] == list(range(8))
        assert not outcome.cancelled and len(seen) == 4


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT")
def test_ctrl_c_during_the_callers_work_stops_the_run_with_nothing_played():
    """A press while ``meanwhile`` runs (the workers starting) is acted on
    as one while the pool starts: the run ends cancelled, not with an
    exception, and its workers are stopped."""
    import multiprocessing
    plan = make_plan(8, 2, 2, trials=0)

    def press():
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)                # (the handler runs between instructions)

    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        outcome = run(Numbers(), plan.jobs, workers=2, chunk_size=2, meanwhile=press)
    finally:
        signal.signal(signal.SIGINT, before)
    assert outcome.cancelled and outcome.results == []
    deadline = time.monotonic() + 10
    while multiprocessing.active_children() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not multiprocessing.active_children()


# A thread of this process's own, waiting until the process ends (Python code
# run by the tests below; the fork server is for processes with threads).
A_THREAD = "import threading\nthreading.Thread(target=threading.Event().wait, daemon=True).start()\n"


@pytest.mark.skipif("forkserver" not in __import__("multiprocessing").get_all_start_methods(),
                    reason="no fork server")
@pytest.mark.parametrize("workers, scheduler, threads, started",
                         [(2, None, True, True), (1, None, True, False),
                          (2, "local", True, False), (2, None, False, False)])
def test_the_fork_server_starts_early_only_for_worker_processes(workers, scheduler, threads,
                                                                started):
    """``start_workers_soon`` (the command line calls it before reading the
    course) starts the fork server where ``run`` may use worker processes
    from it: not for one worker, nor on Dask, nor in a process with no
    other thread (which forks its workers itself)."""
    code = ((A_THREAD if threads else "") +
            "from multiprocessing import forkserver\n"
            "from rallyforge.engine.analysis.balance.runner import start_workers_soon\n"
            f"start_workers_soon({workers}, {scheduler!r})\n"
            "print(forkserver._forkserver._forkserver_pid is not None)")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=60)
    assert done.stdout.strip() == str(started), done.stderr


# In a process alone (workers forked from it): `meanwhile` waits for chunks to
# come back, which only the run's own loop takes in; then it fails or not.
MEANWHILE = """
import sys, time
from rallyforge.engine.analysis.balance.plan import make_plan
from rallyforge.engine.analysis.balance.runner import run
from tests.test_balance import Numbers
seen = []
def meanwhile():
    deadline = time.monotonic() + 20
    while len(seen) < 12 and time.monotonic() < deadline:
        time.sleep(0.01)
    print("fed", len(seen) >= 12, flush=True)
    if sys.argv[1] == "fail":
        raise LookupError("scipy is missing")
try:
    outcome = run(Numbers(), make_plan(40, 2, 2, trials=0).jobs, workers=2, chunk_size=2,
                  progress=lambda *done: seen.append(done), meanwhile=meanwhile)
    print("played", [r for _, r in outcome.results] == list(range(40)))
except LookupError as exc:
    print("raised", exc)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="fork")
@pytest.mark.parametrize("how", ["ok", "fail"])
def test_workers_forked_from_this_process_are_kept_fed_during_the_callers_work(how):
    """The caller's work (a balance run imports scipy.special, 0.15 s) runs
    on a thread of its own once the workers are forked, while the run keeps
    sending them chunks: they played their first chunks and waited for it
    before. What it raises is raised by ``run``."""
    done = subprocess.run([sys.executable, "-c", MEANWHILE, how], cwd=ROOT, capture_output=True,
                          text=True, timeout=60,
                          env=dict(os.environ, PYTHONPATH=str(ROOT), OPENBLAS_NUM_THREADS="1"))
    assert done.returncode == 0, done.stderr
    last = "played True" if how == "ok" else "raised scipy is missing"
    assert done.stdout.split("\n")[:2] == ["fed True", last], done.stdout + done.stderr


@pytest.mark.skipif("forkserver" not in __import__("multiprocessing").get_all_start_methods(),
                    reason="no fork server")
@pytest.mark.parametrize("threads", [False, True])
def test_a_process_alone_forks_its_workers_and_one_with_threads_uses_the_fork_server(threads):
    """The workers of a process with no other thread (the command line) are
    forked from it: no fork server starts, and they play what they were
    given; next to a thread of its own they come from the fork server.
    The results are the same either way. (OpenBLAS is given one thread, as
    the command line does: else numpy starts more as it is imported.)"""
    code = ((A_THREAD if threads else "") +
            "from multiprocessing import forkserver\n"
            "from rallyforge.engine.analysis.balance.plan import make_plan\n"
            "from rallyforge.engine.analysis.balance.runner import run\n"
            "from tests.test_balance import Numbers\n"
            "outcome = run(Numbers(), make_plan(8, 2, 2, trials=1).jobs, workers=2, chunk_size=2)\n"
            "print([result for _, result in outcome.results], outcome.cancelled)\n"
            "print(forkserver._forkserver._forkserver_pid is not None)")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=str(ROOT), OPENBLAS_NUM_THREADS="1"),
                          timeout=60)
    assert done.returncode == 0, done.stderr
    played, server = done.stdout.split("\n")[:2]
    assert played == f"{list(range(8)) + [0, 0]} False"
    assert server == str(threads)
