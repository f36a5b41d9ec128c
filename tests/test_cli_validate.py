"""`rallyforge validate`: output formats, exit codes, directories, unreadable files."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rallyforge.engine.cli.main import main
from rallyforge.engine.format.loader import MAX_FILE_BYTES

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
KEYS = {"file", "severity", "code", "message", "pointer", "x", "y", "accepted"}


@pytest.fixture
def in_tests(monkeypatch):
    """Run from tests/, so that file names can be given relative, as a user would."""
    monkeypatch.chdir(FIXTURES.parent)


def run(capsys, *argv):
    code = main(["validate", *argv])
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def test_clean_file(tmp_path, capsys):
    data = json.loads((FIXTURES / "warnings" / "one-dock.json").read_text(encoding="utf-8"))
    data["docks"].append({"x": 1, "y": 7, "facing": "N"})
    path = tmp_path / "clean.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, lines, err = run(capsys, str(path))
    assert code == 0
    assert lines == ["1 file: 0 with errors (0 errors, 0 warnings)"]
    assert err == ""


def test_warnings_alone_exit_zero(capsys, in_tests):
    code, lines, _ = run(capsys, "fixtures/warnings/conveyor-off-board.json")
    assert code == 0
    assert lines[0].startswith("fixtures/warnings/conveyor-off-board.json:7,3: warning W405: "
                               "the conveyor at (7, 3) points east off the board")
    assert lines[-1] == "1 file: 0 with errors (0 errors, 1 warning)"


def test_error_line_with_a_square(capsys, in_tests):
    code, lines, _ = run(capsys, "fixtures/invalid/flag-on-pit.json")
    assert code == 1
    assert lines == [
        "fixtures/invalid/flag-on-pit.json:2,5: error E301: flag 2 at (2, 5) stands on a pit; "
        "move it or change the square",
        "1 file: 1 with errors (1 error, 0 warnings)",
    ]


def test_error_line_with_a_pointer(capsys, in_tests):
    code, lines, _ = run(capsys, "fixtures/invalid/too-many-robots.json")
    assert code == 1
    assert lines[0].startswith("fixtures/invalid/too-many-robots.json:/robots: error E306: ")


def test_a_flag_unreachable_under_the_course_rules_fails(capsys, in_tests):
    code, lines, _ = run(capsys, "fixtures/invalid/flag-unreachable-under-own-rules.json")
    assert code == 1
    assert lines[0].startswith("fixtures/invalid/flag-unreachable-under-own-rules.json:2,0: "
                               "error E312: flag 1 at (2, 0) cannot be reached from dock 1")
    assert lines[-1] == "1 file: 1 with errors (2 errors, 0 warnings)"


def test_several_files_and_the_summary(capsys, in_tests):
    code, lines, _ = run(capsys, "fixtures/invalid/flag-unreachable-from-dock.json",
                         "fixtures/warnings/one-dock.json", "fixtures/warnings/dock-on-gear.json")
    assert code == 1
    assert lines[-1] == "3 files: 1 with errors (3 errors, 2 warnings)"
    assert len(lines) == 6


def test_json_format(capsys, in_tests):
    code, lines, _ = run(capsys, "--format", "json", "fixtures/invalid/robot-on-unknown-dock.json",
                         "fixtures/warnings/dock-in-laser-beam.json")
    assert code == 1
    problems = [p for p in json.loads("\n".join(lines)) if p["severity"] != "info"]
    assert [set(p) for p in problems] == [KEYS, KEYS]
    first, second = problems
    assert first == {"file": "fixtures/invalid/robot-on-unknown-dock.json", "severity": "error",
                     "code": "E305", "message": first["message"], "pointer": "/robots/1/dock",
                     "x": None, "y": None, "accepted": False}
    assert second["file"] == "fixtures/warnings/dock-in-laser-beam.json"
    assert (second["severity"], second["code"], second["x"], second["y"]) == ("warning", "W408", 0, 7)


def test_json_format_with_no_problems_holds_only_the_flag_infos(tmp_path, capsys):
    data = json.loads((FIXTURES / "warnings" / "one-dock.json").read_text(encoding="utf-8"))
    data["docks"].append({"x": 1, "y": 7, "facing": "N"})
    (tmp_path / "ok.json").write_text(json.dumps(data), encoding="utf-8")
    code, lines, _ = run(capsys, "--format=json", str(tmp_path / "ok.json"))
    entries = json.loads("\n".join(lines))
    assert code == 0
    assert [(p["severity"], p["code"]) for p in entries] == [("info", "I501")] * len(data["flags"])


def test_a_directory_means_its_json_files(capsys, in_tests):
    code, lines, _ = run(capsys, "--format", "json", "fixtures/warnings")
    assert code == 0
    files = sorted({p["file"] for p in json.loads("\n".join(lines))})
    expected = sorted(f"fixtures/warnings/{p.name}" for p in (FIXTURES / "warnings").glob("*.json"))
    assert files == expected
    code, lines, _ = run(capsys, "fixtures/warnings/")
    assert lines[0].startswith("fixtures/warnings/")
    assert lines[-1].startswith(f"{len(expected)} files: 0 with errors")


def test_a_directory_without_json_files(tmp_path, capsys):
    (tmp_path / "readme.txt").write_text("no courses here", encoding="utf-8")
    code, lines, err = run(capsys, str(tmp_path))
    assert code == 1
    assert lines[0] == f"{tmp_path}: error E001: the directory holds no *.json files (or cannot be read)"
    assert err == ""


@pytest.mark.parametrize("name, code, fragment", [
    ("not-utf8.json", "E002", "not UTF-8"),
    ("not-json.json", "E003", "not valid JSON"),
])
def test_unreadable_files(capsys, in_tests, name, code, fragment):
    exit_code, lines, err = run(capsys, f"fixtures/unreadable/{name}")
    assert exit_code == 1
    assert lines[0].startswith(f"fixtures/unreadable/{name}: error {code}: ")
    assert fragment in lines[0]
    assert "Traceback" not in err


def test_missing_file(capsys, tmp_path):
    code, lines, err = run(capsys, str(tmp_path / "nowhere.json"))
    assert code == 1
    assert lines[0] == f"{tmp_path / 'nowhere.json'}: error E001: no such file"
    assert err == ""


def test_the_10_mb_limit(capsys, tmp_path):
    big = tmp_path / "big.json"
    with open(big, "wb") as handle:     # sparse: no 10 MB written to disk
        handle.truncate(MAX_FILE_BYTES + 1)
    code, lines, _ = run(capsys, "--format", "json", str(big))
    assert code == 1
    [problem] = json.loads("\n".join(lines))
    assert problem["code"] == "E004" and "at most 10 MB" in problem["message"]


def test_one_bad_file_among_good_ones(capsys, in_tests):
    code, lines, _ = run(capsys, "fixtures/warnings/one-dock.json", "fixtures/unreadable/not-json.json")
    assert code == 1
    assert lines[-1] == "2 files: 1 with errors (1 error, 1 warning)"


@pytest.mark.parametrize("argv", [[], ["--format", "xml", "x.json"], ["--bogus", "x.json"]])
def test_bad_usage_exits_2(capsys, argv):
    with pytest.raises(SystemExit) as caught:
        main(["validate", *argv])
    assert caught.value.code == 2
    assert "usage:" in capsys.readouterr().err


def test_a_crash_in_the_validator_is_a_problem_not_a_traceback(capsys, in_tests, monkeypatch):
    from rallyforge.engine.cli import validate as command

    def broken(path):
        raise KeyError("oops")

    monkeypatch.setattr(command, "read_valid_file", broken)
    code, lines, err = run(capsys, "fixtures/warnings/one-dock.json")
    assert code == 1
    assert "error E000: the validator failed on this file (KeyError" in lines[0]
    assert err == ""


def test_subprocess_validates_the_examples(tmp_path):
    """The real command line, as CI would run it, on the example scenarios."""
    scenarios = ROOT / "scenarios"
    if not list(scenarios.glob("*.json")):
        pytest.skip("no example scenarios yet")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "rallyforge.engine.cli", "validate", "scenarios"], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=120)
    assert "Traceback" not in done.stderr
    lines = done.stdout.splitlines()
    count = len(list(scenarios.glob("*.json")))
    assert lines[-1].startswith(f"{count} file{'s' if count > 1 else ''}: ")
    assert all(line.startswith("scenarios/") for line in lines[:-1])
    assert done.returncode == (1 if " error " in done.stdout else 0)
    assert done.returncode == 0, done.stdout


def test_subprocess_exit_codes(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    shutil.copy(FIXTURES / "invalid" / "flag-on-pit.json", tmp_path / "pit.json")
    bad = subprocess.run([sys.executable, "-m", "rallyforge.engine.cli", "validate", str(tmp_path)],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    usage = subprocess.run([sys.executable, "-m", "rallyforge.engine.cli", "validate"],
                           cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert (bad.returncode, usage.returncode) == (1, 2)
    assert "error E301" in bad.stdout and "Traceback" not in bad.stderr + usage.stderr


@pytest.mark.parametrize("text, what", [("null", "null"), ("[]", "a list"), ("3", "3"),
                                         ('"course"', '"course"'), ("true", "true")])
def test_a_document_that_is_not_an_object(capsys, tmp_path, text, what):
    path = tmp_path / "odd.json"
    path.write_text(text + "\n", encoding="utf-8")
    code, lines, _ = run(capsys, str(path))
    assert code == 1
    assert lines[0] == (f"{path}: error E101: (top level): a scenario must be a JSON object "
                        f"{{...}}, not {what}")
    for command in ("run", "test"):
        assert main([command, str(path)]) == 1, command
        out, err = capsys.readouterr()
        assert "E101" in out and "(top level)" in out and "Traceback" not in err, command


def test_a_directory_reports_a_dangling_link_and_skips_autosaves(tmp_path, capsys):
    shutil.copy(ROOT / "scenarios" / "tutorial.json", tmp_path / "course.json")
    (tmp_path / "course.autosave.json").write_text("not even JSON", encoding="utf-8")
    (tmp_path / "gone.json").symlink_to(tmp_path / "deleted.json")
    code, lines, _ = run(capsys, str(tmp_path))
    assert code == 1
    assert lines == [f"{tmp_path / 'gone.json'}: error E001: the link points to "
                     f"{tmp_path / 'deleted.json'}, which does not exist",
                     "2 files: 1 with errors (1 error, 0 warnings)"]


def test_a_closed_output_pipe_keeps_the_exit_code(tmp_path):
    """`validate ... | head -1`: the reader leaves after one line of a long
    report; the run still fails."""
    data = json.loads((ROOT / "scenarios" / "tutorial.json").read_text(encoding="utf-8"))
    data["board"]["tiles"] = [{"x": 200 + i, "y": 0, "type": "pit"} for i in range(3000)]
    path = tmp_path / "many-errors.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "rallyforge.engine.cli", "validate", str(path)],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert b"error E201" in proc.stdout.readline()
        proc.stdout.close()             # far more than a pipe holds is still to come
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 1, err
    assert b"Traceback" not in err and b"BrokenPipe" not in err


def test_accepted_warnings_are_shown_only_with_all(capsys, tmp_path):
    course = json.loads((Path(__file__).parent / "fixtures" / "warnings" / "dock-in-laser-beam.json")
                        .read_text())
    course["accept"] = [{"code": "W408", "x": 0, "y": 7, "note": "on purpose"}]
    path = tmp_path / "accepting.json"
    path.write_text(json.dumps(course))
    code, lines, _ = run(capsys, str(path))
    assert code == 0 and not any("W408" in line for line in lines)
    assert "1 accepted warning not shown (--all shows them)" in lines[-1]
    code, lines, _ = run(capsys, "--all", str(path))
    assert any("W408" in line and line.endswith("(accepted)") for line in lines)
    code, lines, _ = run(capsys, "--all", "--format", "json", str(path))
    w408 = [p for p in json.loads("\n".join(lines)) if p["code"] == "W408"]
    assert [p["accepted"] for p in w408] == [True]
