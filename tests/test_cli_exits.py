"""The command line's exit codes: the same for every command, whoever reads
the output. A usage mistake is 2 with its message on stderr; a reader that
goes away (``| head -1``) changes nothing; the README lists every code."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rallyforge.engine.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
TUTORIAL = ROOT / "scenarios" / "tutorial.json"       # 4 docks
DUEL = ROOT / "tests" / "fixtures" / "balance" / "duel.json"
RULE_CASE = ROOT / "tests" / "rules" / "3.1-card-moves.json"

# Every command, run small, and what it exits with.
COMMANDS = {
    "validate": (["validate", str(TUTORIAL)], 0),
    "run": (["run", str(TUTORIAL), "--robots", "2", "--rounds", "3"], 0),
    "test": (["test", str(RULE_CASE)], 0),
    "balance": (["balance", str(DUEL), "--races", "6", "--workers", "1", "--quiet"], 0),
    "compare": (["compare", str(DUEL), str(DUEL), "--races", "4", "--workers", "1", "--quiet"], 0),
    "card": (["card", str(DUEL), "--races", "6", "--workers", "1"], 0),
    "suggest": (["suggest", str(DUEL), "--budget", "100", "--workers", "1", "--quiet"], 0),
}


class ClosedPipe:
    """Standard output whose reader has gone: every write fails."""
    encoding = "utf-8"

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    def flush(self) -> None:
        raise BrokenPipeError(32, "Broken pipe")


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_reader_gone_never_changes_the_exit_code(name, monkeypatch, capsys):
    argv, code = COMMANDS[name]
    assert main(argv) == code
    assert capsys.readouterr().out          # (it prints something to lose)
    monkeypatch.setattr(sys, "stdout", ClosedPipe())
    assert main(argv) == code
    assert "Traceback" not in capsys.readouterr().err


def test_a_closed_pipe_is_no_error_for_a_real_process():
    """`balance ... | head -0`: the pipe closed before anything was printed."""
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run([sys.executable, "-m", "rallyforge.engine.cli", *COMMANDS["balance"][0]],
                              cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                              stdout=write, stderr=subprocess.PIPE, text=True, timeout=300)
    finally:
        os.close(write)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "Broken pipe" not in done.stderr


@pytest.mark.parametrize("name", ["run", "balance", "card", "compare", "suggest"])
def test_more_robots_than_docks_is_bad_usage_on_stderr(name, capsys):
    argv = {"run": ["run", str(TUTORIAL)],
            "balance": ["balance", str(TUTORIAL), "--races", "4"],
            "card": ["card", str(TUTORIAL)],
            "compare": ["compare", str(TUTORIAL), str(TUTORIAL), "--races", "4"],
            "suggest": ["suggest", str(TUTORIAL)]}[name]
    assert main([*argv, "--robots", "9"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "rallyforge: error: --robots 9: 'First Steps' has only 4 docks\n"


def test_the_readme_lists_every_exit_code():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    said = re.search(r"Every command exits(.*?)\n\n", readme, re.S)
    assert said, "the README's paragraph on exit codes"
    codes = set(re.findall(r"\b(0|1|2|130)\b", said.group(1)))
    assert codes == {"0", "1", "2", "130"}, said.group(1)
