"""Ctrl+C always ends a run, and ends it cleanly: exit code 130, no
traceback, no output half written, whatever the run was doing when it was
pressed (importing, starting its workers, racing, writing). Each run is a
process of its own, in a session of its own, pressed as a terminal does
(SIGINT to its whole process group)."""
from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGINT")

ROOT = Path(__file__).resolve().parent.parent
DUEL = ROOT / "tests" / "fixtures" / "balance" / "duel.json"
REPORT_FILES = {"report.md", "win_rates.png", "race_length.png", "heatmap_deaths.png",
                "heatmap_deaths_by_cause.png", "heatmap_occupancy.png"}
# A run still going this long after its press has hung (they end in well under a second).
HUNG_S = 30


class Run:
    """The command line run in a process of its own, in a session of its
    own (pressed as a terminal does: SIGINT to the whole process group),
    Python telling of each import as it ends (-X importtime), its stderr
    read as it comes."""

    def __init__(self, *argv: str, first: str = "rallyforge.engine.cli"):
        self.first = first
        self.proc = subprocess.Popen(
            [sys.executable, "-X", "importtime", "-m", "rallyforge.engine.cli", *argv], cwd=ROOT,
            env=dict(os.environ, PYTHONPATH=str(ROOT)), stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE, text=True, start_new_session=True)
        self.lines: list[str] = []
        self.imported = threading.Event()
        self.reader = threading.Thread(target=self._read)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            if line.startswith("import time:"):
                if line.split("|")[-1].strip() == self.first:
                    self.imported.set()     # (by default the program's first module)
            else:
                self.lines.append(line)
        self.imported.set()

    def press(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGINT)
        except ProcessLookupError:      # (it had ended)
            pass

    def ended(self) -> tuple[int | None, str]:
        """The exit code (None when it hung: then it is killed) and stderr
        (but the imports' times)."""
        try:
            self.proc.wait(timeout=HUNG_S)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
            return None, "(hung)"
        finally:
            self.reader.join()
        return self.proc.returncode, "".join(self.lines)


def test_a_worker_stopped_half_way_through_sending_a_result_does_not_hang_the_exit(tmp_path):
    """The hang: a worker stopped part-way through writing its result to the
    pool's result pipe left the pool's thread reading the rest for ever, and
    the interpreter waited for that thread at exit. Here each worker writes
    half a result, then never ends; the run is stopped and the process must
    still end."""
    script = textwrap.dedent("""
        import os, struct, sys, time
        from pathlib import Path
        from rallyforge.engine.analysis.balance.plan import make_plan
        from rallyforge.engine.analysis.balance.runner import run

        class HalfResult:
            def __init__(self, folder):
                self.folder = folder

            def play(self, jobs):       # (in the worker: its pool's result pipe)
                frame = sys._getframe()
                while "result_queue" not in frame.f_locals:
                    frame = frame.f_back
                writer = frame.f_locals["result_queue"]._writer
                os.write(writer.fileno(), struct.pack("!i", 1000) + b"half")
                Path(self.folder, str(os.getpid())).touch()
                time.sleep(600)

        folder = sys.argv[1]
        outcome = run(HalfResult(folder), make_plan(40, 2, 2, seed=0, trials=0).jobs, workers=2,
                      chunk_size=4, should_stop=lambda: bool(os.listdir(folder)))
        print("cancelled" if outcome.cancelled else "finished")
    """)
    proc = subprocess.Popen([sys.executable, "-c", script, str(tmp_path)], cwd=ROOT,
                            env=dict(os.environ, PYTHONPATH=str(ROOT)), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        _, stderr = proc.communicate(timeout=HUNG_S)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail("the run stopped, but its process did not end")
    assert proc.returncode == 0, stderr
    assert "Traceback" not in stderr
    assert os.listdir(tmp_path), "no worker wrote half a result"


def test_fifty_presses_at_random_moments_all_end_with_130_and_no_partial_file(tmp_path):
    """Ctrl+C at a random moment of a real two-worker balance run, from the
    first instant the program runs (its first module imported, the rest
    importing) to the races under way, sometimes pressed twice: 50 of 50
    end with 130, none with a traceback, and the JSON asked for is either
    not there or whole (no half-written file, no temporary file left).
    (Before the program's first module, Python itself is starting: a press
    then ends it as Python does, killed by SIGINT.)"""
    moments = random.Random(36)
    outcomes = []
    for attempt in range(50):
        folder = tmp_path / str(attempt)
        folder.mkdir()
        out = folder / "result.json"
        run = Run("balance", str(DUEL), "--races", "20000", "--robots", "2", "--workers", "2",
                  "--json", str(out))
        run.imported.wait(HUNG_S)
        time.sleep(moments.uniform(0.0, 1.0))
        run.press()
        if moments.random() < 0.25:
            time.sleep(moments.uniform(0.0, 0.2))
            run.press()
        code, stderr = run.ended()
        whole = True
        if out.exists():
            try:
                whole = json.loads(out.read_text())["cancelled"] is True
            except ValueError:
                whole = False
        left = sorted(set(os.listdir(folder)) - {"result.json"})
        outcomes.append((code, "Traceback" in stderr, whole, left, stderr[-300:]))
    bad = [o for o in outcomes if o[:4] != (130, False, True, [])]
    assert not bad, f"{len(bad)} of 50: {bad[:3]}"


@pytest.mark.parametrize("first", ["rallyforge.engine.cli", "rallyforge.engine.analysis.balance.plan"])
def test_ctrl_c_while_the_command_line_is_importing_exits_130_without_a_traceback(first):
    """Pressed as soon as the program's first module is imported, while the
    rest of it is still importing (it printed a KeyboardInterrupt raised in
    argparse or enum, and exited 1 or -2), or as the command's modules
    import (jsonschema_rs, a native module, turned the KeyboardInterrupt
    into a panic: a traceback, exit 1): exit 130, no traceback."""
    for _ in range(5):
        run = Run("balance", str(DUEL), "--races", "20000", "--workers", "2", "--quiet",
                  first=first)
        run.imported.wait(HUNG_S)
        run.press()
        code, stderr = run.ended()
        assert code == 130, stderr
        assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr, stderr


def test_ctrl_c_while_a_native_module_imports_exits_130_without_a_traceback():
    """Pressed while jsonschema_rs (a native module, as the command's
    modules import) imports decimal: it turned the KeyboardInterrupt into a
    panic, a traceback and exit 1. The press is made exactly then, by the
    process itself, from a finder asked for decimal."""
    script = textwrap.dedent("""
        import os, runpy, signal, sys

        class PressOnDecimal:
            def find_spec(self, name, path=None, target=None):
                if name == "decimal":
                    os.kill(os.getpid(), signal.SIGINT)
                return None

        sys.meta_path.insert(0, PressOnDecimal())
        sys.argv = ["rallyforge", *sys.argv[1:]]        # (as its script runs it)
        runpy.run_module("rallyforge.engine.cli", run_name="__main__", alter_sys=True)
    """)
    done = subprocess.run([sys.executable, "-c", script, "balance", str(DUEL), "--races", "20000",
                           "--workers", "2", "--quiet"], cwd=ROOT, timeout=HUNG_S,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True, text=True)
    assert done.returncode == 130, done.stderr
    assert "Traceback" not in done.stderr and "KeyboardInterrupt" not in done.stderr, done.stderr


def test_ctrl_c_twice_while_the_report_is_written_leaves_no_report_folder_half_made(tmp_path):
    """Pressed twice as the report starts to be written (its folder, or the
    one it is written in first, appears): whatever the presses interrupt,
    there is afterwards no report folder, or a whole one; nothing else."""
    report = tmp_path / "report"
    run = Run("balance", str(DUEL), "--races", "40", "--robots", "2", "--workers", "1",
              "--quiet", "--report", str(report))
    deadline = time.monotonic() + HUNG_S
    while not os.listdir(tmp_path) and run.proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    run.press()
    time.sleep(0.05)
    run.press()
    code, stderr = run.ended()
    assert code == 130, stderr
    assert "Traceback" not in stderr
    assert os.listdir(tmp_path) in ([], ["report"])
    if report.exists():
        assert set(os.listdir(report)) == REPORT_FILES


def test_a_second_press_removes_what_was_half_written(tmp_path):
    """The second Ctrl+C quits at once: an output being written beside its
    place (write_bytes_atomic's temporary file; a report's folder) is
    removed, not left behind (the campaign found a .o.json.*.tmp)."""
    half = tmp_path / ".result.json.0123abcd.tmp"
    script = textwrap.dedent("""
        import os, signal, sys, time
        from pathlib import Path
        from rallyforge.engine.cli.balance import second_ctrl_c_quits
        from rallyforge.engine.format.loader import UNFINISHED
        half = Path(sys.argv[1])
        half.write_text("half")
        UNFINISHED.add(half)
        second_ctrl_c_quits()
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(60)
        except KeyboardInterrupt:        # the first press: the run stops, its outputs are written
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(60)
    """)
    done = subprocess.run([sys.executable, "-c", script, str(half)], cwd=ROOT, timeout=HUNG_S,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True, text=True)
    assert done.returncode == 130, done.stderr
    assert os.listdir(tmp_path) == []


def test_an_atomic_write_is_listed_unfinished_until_it_is_in_place(tmp_path, monkeypatch):
    from rallyforge.engine.format import loader
    seen = []
    real_fsync = os.fsync

    def fsync(fd):
        seen.append(set(loader.UNFINISHED))
        real_fsync(fd)

    monkeypatch.setattr(loader.os, "fsync", fsync)
    loader.write_bytes_atomic(tmp_path / "out.json", b"{}")
    [during] = seen
    assert [p.parent for p in during] == [tmp_path] and during.pop().name.startswith(".out.json.")
    assert not loader.UNFINISHED
    assert os.listdir(tmp_path) == ["out.json"]


def test_a_press_stops_the_run_even_when_its_keyboardinterrupt_is_lost():
    """The press also sets a flag the run reads between chunks: a
    KeyboardInterrupt dropped where it was raised (as Python drops one
    raised in a finalizer) still stops the run (presses went on racing)."""
    from rallyforge.engine.analysis.balance.plan import make_plan
    from rallyforge.engine.analysis.balance.runner import run

    class PressedOnce:
        def __init__(self):
            self.chunks = 0

        def play(self, jobs):
            self.chunks += 1
            if self.chunks == 2:
                try:
                    signal.raise_signal(signal.SIGINT)      # its KeyboardInterrupt, lost here
                    time.sleep(0.01)
                except KeyboardInterrupt:
                    pass
            return [None] * len(jobs)

    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        outcome = run(PressedOnce(), make_plan(40, 2, 2, seed=0, trials=0).jobs, workers=1,
                      chunk_size=4)
    finally:
        signal.signal(signal.SIGINT, before)
    assert outcome.cancelled
    assert len(outcome.results) == 8        # the chunk of the press, and none after
