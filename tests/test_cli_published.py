"""`rallyforge published`: the list of the manual's courses and writing one;
a team course written so races by team."""
from __future__ import annotations

import re

import pytest

from rallyforge.engine.cli.main import main
from rallyforge.engine.editing.published_courses import find


def test_the_list_shows_every_course_with_players_printed_ratings_and_rules(capsys):
    assert main(["published"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1 + 34
    rows = {line.split()[0]: re.split(r"\s{2,}", line.strip()) for line in lines[1:]}
    assert rows["death-trap"] == ["death-trap", "Death Trap", "2-4", "short", "hard", "-"]
    assert rows["factory-rejects"][2:] == ["5-8", "short", "expert",
                                           "start with 2 damage; no power down"]
    assert rows["war-zone"][2:5] == ["4, 6 or 8", "medium", "(team)"]
    assert "team race" in rows["war-zone"][5]


def test_a_course_is_written_as_the_library_has_it(tmp_path, capsys):
    out = tmp_path / "mine.json"
    assert main(["published", "island-hop", "-o", str(out)]) == 0
    assert out.read_text("utf-8") == find("island-hop").path.read_text("utf-8")
    assert "Island Hop (course manual page 14)" in capsys.readouterr().err


@pytest.mark.parametrize("argv, code, said", [
    (["published", "no-such-course", "-o", "x.json"], 1, "no published course 'no-such-course'"),
    (["published", "island-hop"], 2, "give -o FILE"),
    (["published", "-o", "x.json"], 2, "-o needs a course id"),
])
def test_bad_input_gets_one_clear_line_and_its_exit_code(tmp_path, monkeypatch, capsys, argv,
                                                         code, said):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == code
    assert said in capsys.readouterr().err
    assert not (tmp_path / "x.json").exists()


def test_the_library_file_itself_is_never_written_over(capsys):
    path = find("checkmate").path
    before = path.read_text("utf-8")
    assert main(["published", "death-trap", "-o", str(path)]) == 1
    assert "a file of the library itself" in capsys.readouterr().err
    assert path.read_text("utf-8") == before


def test_an_output_that_cannot_be_written_is_an_error(tmp_path, capsys):
    assert main(["published", "checkmate", "-o", str(tmp_path / "no" / "such.json")]) == 1
    assert "cannot write the course" in capsys.readouterr().err


def test_a_published_team_course_races_by_team(tmp_path, capsys):
    out = tmp_path / "ctf.json"
    assert main(["published", "capture-the-flag", "-o", str(out)]) == 0
    capsys.readouterr()
    assert main(["card", str(out), "--races", "20", "--workers", "1"]) == 0
    assert "Teams:" in capsys.readouterr().out
