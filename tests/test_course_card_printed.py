"""The course card of a published course shows the publisher's printed length
and difficulty beside its own classes (text and JSON); an own course's card
has no printed ratings."""
from __future__ import annotations

import json

from rallyforge.engine.cli.main import main
from rallyforge.engine.editing.published_courses import find


def _course(tmp_path, course_id: str, keep_published: bool = True):
    doc = json.loads(find(course_id).path.read_text("utf-8"))
    doc.pop("boards")       # (read by the engine once the course rules know it)
    if not keep_published:
        doc.pop("published")
    path = tmp_path / f"{course_id}.json"
    path.write_text(json.dumps(doc), "utf-8")
    return path


def _card(path, capsys, *extra) -> str:
    assert main(["card", str(path), "--races", "8", "--workers", "1", *extra]) == 0
    return capsys.readouterr().out


def test_the_card_prints_the_printed_ratings_beside_its_classes(tmp_path, capsys):
    out = _card(_course(tmp_path, "death-trap"), capsys)
    length = next(line for line in out.splitlines() if line.startswith("Length:"))
    difficulty = next(line for line in out.splitlines() if line.startswith("Difficulty:"))
    assert "(printed: short)" in length
    assert "(printed: hard)" in difficulty
    assert "course manual page 17" in out


def test_the_json_card_carries_the_printed_ratings(tmp_path, capsys):
    card = json.loads(_card(_course(tmp_path, "island-hop"), capsys, "--json"))
    assert card["printed"] == {"id": "island-hop", "page": 14, "length": "medium",
                               "difficulty": "mid"}
    assert card["difficulty"]["class"] in ("easy", "medium", "hard", "expert")


def test_a_stored_card_shows_them_again_from_the_file(tmp_path, capsys):
    path = _course(tmp_path, "checkmate")
    _card(path, capsys, "--store")
    stored = json.loads(path.read_text("utf-8"))["card"]
    assert stored["printed"]["length"] == "short"
    assert main(["validate", str(path)]) == 0
    capsys.readouterr()
    assert main(["card", str(path), "--stored"]) == 0
    assert "(printed: easy)" in capsys.readouterr().out


def test_an_own_course_has_no_printed_ratings(tmp_path, capsys):
    path = _course(tmp_path, "death-trap", keep_published=False)
    out = _card(path, capsys)
    assert "printed" not in out
    assert "printed" not in json.loads(_card(path, capsys, "--json"))
