"""No race on a broken course: balance, card, suggest and compare, from the
command line or a script, refuse a course with errors before any race and
list its errors as validate does; warnings never block. And every typed
setting of a robot is checked: bot names and option cards."""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from rallyforge import engine
from rallyforge.engine.analysis.balance import runner
from rallyforge.engine.analysis.suggest import search, suggest
from rallyforge.engine.cli.main import main
from rallyforge.engine.format.loader import load_file
from rallyforge.engine.model.problems import ScenarioError
from rallyforge.engine.model.scenario import RobotSpec
from rallyforge.engine.validation.validator import course_problems, validate_file

FIXTURES = Path(__file__).resolve().parent / "fixtures"
FLAG_ON_PIT = FIXTURES / "invalid" / "flag-on-pit.json"
DOCK_ON_GEAR = FIXTURES / "warnings" / "dock-on-gear.json"       # a warning, no error
ERROR_LINE = f"{FLAG_ON_PIT}:2,5: error E301: flag 2 at (2, 5) stands on a pit"


@pytest.fixture
def no_race(monkeypatch):
    """Any race played fails the test."""
    def race(*args, **kwargs):
        raise AssertionError("a race was played")
    monkeypatch.setattr(runner, "run", race)
    monkeypatch.setattr(search, "run", race)


@pytest.mark.parametrize("argv", [
    ["balance", str(FLAG_ON_PIT), "--races", "4"],
    ["card", str(FLAG_ON_PIT)],
    ["card", str(FLAG_ON_PIT), "--stored"],
    ["suggest", str(FLAG_ON_PIT)],
    ["compare", str(FLAG_ON_PIT), str(DOCK_ON_GEAR), "--races", "4"],
    ["compare", str(DOCK_ON_GEAR), str(FLAG_ON_PIT), "--races", "4"],
])
def test_the_commands_refuse_a_course_with_errors(argv, capsys, no_race):
    assert main([*argv, "--quiet"] if argv[0] in ("balance", "suggest", "compare")
                else argv) == 1
    out, err = capsys.readouterr()
    assert ERROR_LINE in err
    assert main(["validate", str(FLAG_ON_PIT)]) == 1
    assert ERROR_LINE in capsys.readouterr().out      # the line validate gives
    assert "Traceback" not in err and out == ""


def test_warnings_never_block(tmp_path, capsys):
    out = tmp_path / "result.json"
    assert main(["balance", str(DOCK_ON_GEAR), "--races", "4", "--workers", "1", "--quiet",
                 "--json", str(out)]) == 0
    assert json.loads(out.read_text())["races"] == 4


def test_scripts_get_the_errors_not_numbers(no_race):
    broken = load_file(DOCK_ON_GEAR)
    broken = replace(broken, flags=(broken.flags[0], replace(broken.flags[1], x=3, y=3)),
                     board=replace(broken.board, tiles=tuple(
                         replace(t, type="pit") if (t.x, t.y) == (3, 3) else t
                         for t in broken.board.tiles)))
    for run in (lambda: engine.balance(broken, 4), lambda: suggest(broken, budget=100)):
        with pytest.raises(ScenarioError) as caught:
            run()
        assert [(p.code, p.x, p.y) for p in caught.value.problems] == [("E301", 3, 3)]


def test_a_what_if_on_options_drops_the_checks_it_would_break():
    """--options counted on a course with an option_cards check races (the
    check is the file's test of its played options, not part of a race)."""
    from rallyforge.engine.analysis.balance.play import with_options
    course = load_file(FIXTURES.parent / "rules" / "o2-superior-archive-copy.json")
    assert any("option_cards" in c.expected for c in course.checks)
    assert not engine.balance(with_options(course, "counted"), 1, 2, "random")["cancelled"]


# ---------------------------------------------------------------- typed settings

def robots_file(tmp_path, robots: list[dict]) -> Path:
    data = json.loads(DOCK_ON_GEAR.read_text())
    data["robots"] = robots
    path = tmp_path / "robots.json"
    path.write_text(json.dumps(data))
    return path


def test_an_unknown_bot_is_an_error_at_its_pointer(tmp_path, capsys):
    path = robots_file(tmp_path, [{"name": "A", "bot": "smart"}, {"name": "B", "bot": "aware"}])
    assert [(p.code, p.pointer) for p in validate_file(path) if p.is_error] == [
        ("E317", "/robots/0/bot")]
    assert main(["validate", str(path)]) == 1
    assert "/robots/0/bot: error E317: robot 'A' has bot 'smart'" in capsys.readouterr().out


@pytest.mark.parametrize("card", ["Mini Howizter", "Mini Howitzer", "mini-howizter"])
def test_an_unknown_option_card_is_an_error_at_its_pointer(tmp_path, capsys, card):
    path = robots_file(tmp_path, [{"name": "A", "options": ["brakes", card]}])
    assert [p.pointer for p in validate_file(path) if p.is_error] == ["/robots/0/options/1"]
    assert main(["validate", str(path)]) == 1


def test_a_course_built_in_memory_has_its_bots_and_cards_checked():
    course = replace(load_file(DOCK_ON_GEAR), robots=(
        RobotSpec("A", bot="smart"), RobotSpec("B", options=("brakes", "Mini Howizter"))))
    assert [(p.code, p.pointer) for p in course_problems(course) if p.is_error] == [
        ("E317", "/robots/0/bot"), ("E318", "/robots/1/options/1")]
