"""`rallyforge assemble` checks what it reads and what it would write, with
the messages of `rallyforge validate`; boards too many or too big, and names
too long, are clean errors (engine/cli/assemble.py, engine/editing/library.py)."""
from __future__ import annotations

from pathlib import Path

import pytest

from rallyforge.engine.cli.main import main


def validate_lines(path: str, capsys) -> list[str]:
    main(["validate", path])
    return [line for line in capsys.readouterr().out.splitlines() if " error " in line]


def test_a_file_that_is_no_course_is_refused_with_the_errors_validate_lists(tmp_path, monkeypatch,
                                                                            capsys):
    """{"a": 1} was assembled into an empty 12 x 12 course, exit 0."""
    monkeypatch.chdir(tmp_path)
    Path("x.json").write_text('{"a": 1}', encoding="utf-8")
    errors = validate_lines("x.json", capsys)
    assert len(errors) == 7
    assert main(["assemble", "x.json", "-o", "out.json"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "rallyforge: x.json: the course has errors; nothing assembled:"
    assert err[1:] == errors
    assert not Path("out.json").exists()


def test_a_course_it_would_write_with_errors_is_not_written(tmp_path, monkeypatch, capsys):
    """A flag on a pit (6, 4 of the chess board): the lines validate would
    give for the file, and nothing written."""
    monkeypatch.chdir(tmp_path)
    assert main(["assemble", "chess", "--bay", "docking-bay-1", "--flag", "6,4",
                 "-o", "out.json"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err == ["out.json:6,4: error E301: flag 1 at (6, 4) stands on a pit; move it or change "
                   "the square",
                   "rallyforge: error: the assembled course has errors; out.json not written"]
    assert not Path("out.json").exists()


def test_a_course_without_flags_yet_is_written_with_what_validate_says(tmp_path, monkeypatch,
                                                                       capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["assemble", "chess", "--bay", "docking-bay-1", "-o", "out.json"]) == 0
    err = capsys.readouterr().err
    assert validate_lines("out.json", capsys) == [
        "out.json:/flags: error E106: flags: needs at least 1 flag"]
    assert "out.json:/flags: error E106: flags: needs at least 1 flag" in err
    assert "no flags yet" in err


def test_nine_boards_side_by_side_are_a_clean_error(tmp_path, capsys):
    out = tmp_path / "out.json"
    assert main(["assemble", *["chess"] * 9, "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert err == ("rallyforge: error: the boards do not fit on one course: a board is 1 to 100 "
                   "squares each way, not 108x12\n")
    assert not out.exists()


@pytest.mark.parametrize("name", ["a" * 300, "a" * 300 + ".json", "nul\0name"])
def test_a_board_name_no_file_can_have_is_a_clean_error(tmp_path, capsys, name):
    out = tmp_path / "out.json"
    assert main(["assemble", name, "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("rallyforge: error: no board ") and err.count("\n") == 1, err
    assert len(err) < 300 and not out.exists()
