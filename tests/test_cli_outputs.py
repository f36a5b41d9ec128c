"""One way out for every command's output (engine/cli/streams.py,
engine/cli/common.py): a failed write is one clear line on the stream that
still works and exit 1; a reader gone from the progress output changes
nothing; ``-`` is standard output for every output option; an output is
never one of the command's inputs; names that are not UTF-8 are clean
messages. The program runs in a process of its own: its real streams are
what is tested."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rallyforge.engine.cli.main import main
from tests.test_tiled_import import small_map

ROOT = Path(__file__).resolve().parent.parent
TUTORIAL = ROOT / "scenarios" / "tutorial.json"
DUEL = ROOT / "tests" / "fixtures" / "balance" / "duel.json"
FULL = "/dev/full"
needs_full = pytest.mark.skipif(not os.path.exists(FULL), reason="no /dev/full")


def program(argv: list, cwd: Path = ROOT, **streams) -> subprocess.CompletedProcess:
    """`rallyforge ARGV` run as the program, with its streams as given
    (default: captured)."""
    streams = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, **streams}
    return subprocess.run([sys.executable, "-m", "rallyforge.engine.cli", *argv], cwd=cwd,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=300, **streams)


@needs_full
@pytest.mark.parametrize("argv", [
    ["validate", str(TUTORIAL)], ["run", str(TUTORIAL)], ["--version"], ["--help"],
    ["balance", str(DUEL), "--races", "20", "--workers", "1", "--quiet"],
    ["card", str(DUEL), "--races", "20", "--workers", "1"], ["import", "MAP"],
], ids=lambda argv: argv[0])
def test_a_full_disk_on_stdout_is_one_line_on_stderr_and_exit_1(tmp_path, argv):
    if argv == ["import", "MAP"]:
        (tmp_path / "m.tmx").write_text(small_map(), encoding="utf-8")
        argv = ["import", str(tmp_path / "m.tmx")]
    with open(FULL, "w") as full:
        done = program(argv, stdout=full)
    err = done.stderr.decode()
    assert done.returncode == 1, err
    assert err.splitlines()[-1] == ("rallyforge: error: cannot write to standard output: "
                                    "No space left on device"), err
    assert "Traceback" not in err


@needs_full
def test_a_full_disk_on_stderr_is_one_line_on_stdout_exit_1_and_the_files_still_written(tmp_path):
    out = tmp_path / "result.json"
    with open(FULL, "w") as full:
        done = program(["balance", str(DUEL), "--races", "40", "--workers", "2", "--json", str(out)],
                       stderr=full)
    assert done.returncode == 1
    assert done.stdout.decode().splitlines()[-1] == (
        "rallyforge: error: cannot write to standard error: No space left on device")
    assert json.loads(out.read_text())["races"] == 40


@pytest.mark.parametrize("command", ["balance", "suggest", "import"])
def test_a_closed_stderr_changes_neither_the_result_nor_the_exit_code(tmp_path, command):
    """`rallyforge balance C --json o.json 2>&1 >/dev/null | true`: the
    progress bar's reader is gone; the run goes on, o.json is written, the
    exit code is the run's (it was 1, with no o.json)."""
    out = tmp_path / "out.json"
    argv = {"balance": ["balance", str(DUEL), "--races", "40", "--workers", "2", "--json", str(out)],
            "suggest": ["suggest", str(DUEL), "--budget", "200", "--workers", "1", "--json", str(out)],
            "import": ["import", "MAP", "-o", str(out)]}[command]
    if command == "import":
        (tmp_path / "m.tmx").write_text(small_map(), encoding="utf-8")
        argv[1] = str(tmp_path / "m.tmx")
    read, write = os.pipe()
    os.close(read)                          # the reader is gone before the first write
    try:
        done = program(argv, stderr=write)
    finally:
        os.close(write)
    assert done.returncode == 0
    assert json.loads(out.read_text())


def test_a_closed_stdout_still_writes_the_files_asked_for(tmp_path):
    out = tmp_path / "result.json"
    read, write = os.pipe()
    os.close(read)
    try:
        done = program(["balance", str(DUEL), "--races", "40", "--workers", "1", "--quiet",
                        "--json", str(out)], stdout=write)
    finally:
        os.close(write)
    assert done.returncode == 0, done.stderr
    assert done.stderr == b""
    assert json.loads(out.read_text())["races"] == 40


# ---------------------------------------------------------------- - is standard output

def test_dash_is_standard_output_for_import_and_assemble(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    Path("m.tmx").write_text(small_map(), encoding="utf-8")
    assert main(["import", "m.tmx", "-o", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["board"]["width"] == 4
    assert main(["assemble", "chess", "-o", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["board"]["width"] == 12
    assert sorted(os.listdir(".")) == ["m.tmx"]           # no file named "-"


def test_two_outputs_to_standard_output_are_refused(capsys):
    assert main(["suggest", str(DUEL), "--json", "-", "--apply", "1", "--out", "-"]) == 2
    assert "--json and --out both write to standard output" in capsys.readouterr().err


# ---------------------------------------------------------------- never onto an input

@pytest.mark.parametrize("argv", [
    ["import", "m.tmx", "-o", "m.tmx"],
    ["import", "m.tmx", "-o", "./link.tmx"],
    ["assemble", "c.json", "-o", "c.json"],
    ["assemble", "chess", "--bay", "c.json", "-o", "./c.json"],
    ["balance", "c.json", "--json", "c.json"],
    ["compare", "c.json", "d.json", "--json", "d.json"],
    ["suggest", "c.json", "--apply", "1", "--out", "c.json"],
], ids=lambda argv: " ".join(argv))
def test_an_output_that_is_an_input_is_refused_before_anything_is_written(tmp_path, monkeypatch,
                                                                           capsys, argv):
    monkeypatch.chdir(tmp_path)
    Path("m.tmx").write_text(small_map(), encoding="utf-8")
    os.symlink("m.tmx", "link.tmx")
    Path("c.json").write_bytes(DUEL.read_bytes())
    Path("d.json").write_bytes(DUEL.read_bytes())
    before = {name: Path(name).read_bytes() for name in ("m.tmx", "c.json", "d.json")}
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "is an input of the command" in err and "it is never replaced" in err
    assert {name: Path(name).read_bytes() for name in before} == before
    assert sorted(os.listdir(".")) == ["c.json", "d.json", "link.tmx", "m.tmx"]


# ---------------------------------------------------------------- names that are not UTF-8

def test_a_map_whose_file_name_is_not_utf8_imports_cleanly(tmp_path):
    name = os.fsdecode(b"\xff-map.tmx")
    (tmp_path / name).write_text(small_map(), encoding="utf-8")
    done = program([b"import", b"\xff-map.tmx", b"-o", b"out.json"], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr
    assert json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))["name"] == "\ufffd Map"
    printed = program([b"import", b"\xff-map.tmx"], cwd=tmp_path)
    assert printed.returncode == 0 and b"Traceback" not in printed.stderr
    assert b"\\udcff-map.tmx: 4 x 4 squares" in printed.stderr      # (the byte, escaped)


def test_a_course_name_that_is_not_utf8_is_bad_usage(tmp_path):
    done = program([b"assemble", b"chess", b"--name", b"\xff", b"-o", b"out.json"], cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.decode().splitlines()[-1].endswith("is not UTF-8 text")
    assert not (tmp_path / "out.json").exists()
