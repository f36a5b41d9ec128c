"""What a command line run costs before and after its work: it imports its
own command only (the top level's help lists every command without them),
a race command's options name the bots without importing them, a valid
file is read without jsonschema, the program (not a caller of main() that
goes on) gives OpenBLAS one thread and skips its last garbage collections
at exit, and a balance run forks its workers from itself (no fork server
importing the engine a second time)."""
from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rallyforge.engine.cli.common import bot_help
from rallyforge.engine.cli.main import build_parser, command_named, main
from rallyforge.engine.version import COMMANDS

ROOT = Path(__file__).resolve().parent.parent
TUTORIAL = ROOT / "scenarios" / "tutorial.json"
DUEL = ROOT / "tests" / "fixtures" / "balance" / "duel.json"


def python(code: str, **env: str) -> str:
    """What `code` prints, run by a fresh interpreter on this checkout."""
    environ = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          env={**environ, "PYTHONPATH": str(ROOT), **env}, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.parametrize("argv, module", [(["validate", str(TUTORIAL)], "validate"),
                                          (["import", "--help"], "tiled_import"),
                                          (["--help"], None)])
def test_a_command_line_imports_its_own_command_only(argv, module):
    imported = python(
        "import sys\n"
        "from rallyforge.engine.cli.main import main\n"
        f"try:\n    main({argv!r})\nexcept SystemExit:\n    pass\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('rallyforge.engine.cli.'))))")
    commands = set(imported.splitlines()[-1].split()) - {
        "rallyforge.engine.cli.main", "rallyforge.engine.cli.common", "rallyforge.engine.cli.streams"}
    assert commands == ({f"rallyforge.engine.cli.{module}"} if module else set())


def test_the_help_is_the_same_whichever_commands_are_imported(capsys):
    """The top level's help, and each command's description, come from the
    one list of commands (engine/version.py), not from their modules."""
    everything, none = build_parser(), build_parser(())
    assert none.format_help() == everything.format_help()
    for parser in (everything, none):
        sub = next(a for a in parser._actions if a.dest == "command")
        assert list(sub.choices) == list(COMMANDS)
        assert {name: p.description for name, p in sub.choices.items()} == COMMANDS
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    shown = " ".join(capsys.readouterr().out.split())
    assert all(f"{name} {line}" in shown for name, line in COMMANDS.items())


@pytest.mark.parametrize("command", ["balance", "card", "compare"])
def test_a_race_commands_options_name_the_bots_without_importing_them(command):
    """The --bot help lists the bots by the model's names (importing the
    bots imports numpy and builds their tables: a tenth of a second)."""
    said = python("import sys\n"
                  "from rallyforge.engine.cli.main import build_parser\n"
                  f"parser = build_parser([{command!r}])\n"
                  "print('rallyforge.engine.bots' in sys.modules, 'numpy' in sys.modules)")
    assert said == "False False"


def test_the_bots_the_command_line_names_are_the_bots():
    from rallyforge.engine.bots import BOTS, DEFAULT_BOT
    from rallyforge.engine.model.scenario import BOT_NAMES, DEFAULT_BOT as NAMED_DEFAULT
    assert sorted(BOT_NAMES) == sorted(BOTS)
    assert NAMED_DEFAULT == DEFAULT_BOT in BOTS
    assert bot_help("the bot") == f"the bot: {', '.join(sorted(BOTS))} (default: {DEFAULT_BOT})"


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="counts threads in /proc")
def test_a_balance_run_forks_its_workers_from_itself(tmp_path):
    """With OpenBLAS at one thread the program has no other thread, so its
    workers are forked from it, with the engine it imported: neither a fork
    server (a second interpreter importing the engine) nor the resource
    tracker that comes with it starts. Its result is a run on 2 workers."""
    out = tmp_path / "duel.json"
    said = python("import sys\n"
                  "from multiprocessing import forkserver, resource_tracker\n"
                  "from rallyforge.engine.cli.main import main\n"
                  f"sys.argv = ['rallyforge', 'balance', {str(DUEL)!r}, '--races', '6',\n"
                  f"            '--workers', '2', '--quiet', '--json', {str(out)!r}]\n"
                  "code = main()\n"
                  "print(code, forkserver._forkserver._forkserver_pid,\n"
                  "      resource_tracker._resource_tracker._pid)")
    assert said.splitlines()[-1] == "0 None None"
    result = json.loads(out.read_text())
    assert result["races"] == 6 and not result["cancelled"]


def test_the_command_is_the_first_word_that_is_not_an_option():
    assert command_named(["balance", "validate", "--races", "3"]) == "balance"
    assert command_named(["--version"]) is None
    assert command_named(["-h", "card"]) == "card"
    assert command_named([]) is None
    assert command_named(["-"]) == "-"


def test_a_valid_file_is_read_without_jsonschema_and_a_broken_one_worded_with_it():
    said = python(
        "import sys\n"
        "from rallyforge.engine.validation.validator import read_valid_file, validate_data\n"
        f"scenario, problems = read_valid_file({str(TUTORIAL)!r})\n"
        "print(scenario is not None, problems == [], 'jsonschema' in sys.modules)\n"
        "problems = validate_data({'board': {'width': 'wide'}})\n"
        "print(any(p.code == 'E101' for p in problems), 'jsonschema' in sys.modules)")
    assert said.splitlines() == ["True True False", "True True"]


def test_only_the_program_skips_its_last_garbage_collections(capsys):
    """A caller of main() goes on after it: its garbage is still collected."""
    before = gc.get_freeze_count()
    assert main(["validate", str(TUTORIAL)]) == 0
    assert gc.get_freeze_count() == before
    frozen = python(
        "import gc, sys\n"
        "from rallyforge.engine.cli.main import main\n"
        f"sys.argv = ['rallyforge', 'validate', {str(TUTORIAL)!r}]\n"
        "code = main()\n"
        "print(code, gc.get_freeze_count() > 0)")
    assert frozen.splitlines()[-1] == "0 True"      # (after validate's own lines)


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="counts threads in /proc")
@pytest.mark.parametrize("given", [None, "2"])
def test_the_program_gives_openblas_one_thread_unless_told(given, monkeypatch):
    """Set before numpy is imported: no OpenBLAS thread besides the main one
    (a number given is kept: with 2, numpy starts one more where there are
    two cores); a caller of main() keeps its own settings."""
    said = python("import os, sys\n"
                  "from rallyforge.engine.cli.main import main\n"
                  f"sys.argv = ['rallyforge', 'validate', {str(TUTORIAL)!r}]\n"
                  "main()\n"
                  "print(len(os.listdir('/proc/self/task')), 'numpy' in sys.modules)",
                  **({"OPENBLAS_NUM_THREADS": given} if given else {}))
    threads = min(int(given or 1), len(os.sched_getaffinity(0)))
    assert said.splitlines()[-1] == f"{threads} True"
    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    assert main(["validate", str(TUTORIAL)]) == 0
    assert "OPENBLAS_NUM_THREADS" not in os.environ
