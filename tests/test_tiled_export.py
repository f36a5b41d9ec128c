"""Tiled export (engine/format/tiled_write.py, `rallyforge export ... .tmx|.json`):
the round trip through `rallyforge import` gives the same course on every
example course, library board and published course, for both clients'
tilesets and both formats; every map loads in an independent Tiled reader
(pytiled-parser) with its tileset resolved; what a tileset cannot draw is
a warning with its square."""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
import pytiled_parser

from rallyforge.engine.cli.main import main
from rallyforge.engine.format.loader import dumps, load_file
from rallyforge.engine.format.tiled.convert import import_map
from rallyforge.engine.format.tiled.mapfile import read_map
from rallyforge.engine.format.tiled.tilesets import clients
from rallyforge.engine.format.tiled_read import import_course
from rallyforge.engine.format.tiled_write import OBJECT_LAYER, tileset_path, write_map
from rallyforge.engine.model.scenario import Board, Dock, Flag, Laser, Level, Scenario, Tile, Wall

ROOT = Path(__file__).resolve().parents[1]
COURSES = sorted([*ROOT.glob("scenarios/*.json"), *ROOT.glob("engine/editing/boards/*.json"),
                  *ROOT.glob("engine/editing/published/*.json")])
CLIENTS = sorted(clients())


def export(tmp_path: Path, scenario: Scenario, client: str, suffix: str) -> Path:
    written = write_map(scenario, clients()[client], suffix, "map" + suffix)
    path = tmp_path / ("map" + suffix)
    path.write_text(written.map_text, encoding="utf-8")
    tileset_path(path, written).write_text(written.tileset_text, encoding="utf-8")
    return path


def test_the_library_is_all_there():
    assert len([c for c in COURSES if "scenarios" in c.parts]) >= 7
    assert len([c for c in COURSES if "boards" in c.parts]) >= 10
    assert len([c for c in COURSES if "published" in c.parts]) >= 30


@pytest.mark.parametrize("client", CLIENTS)
@pytest.mark.parametrize("course", COURSES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_export_then_import_gives_the_same_course(tmp_path, course, client):
    scenario = load_file(course)
    for suffix in (".tmx", ".json"):
        path = export(tmp_path, scenario, client, suffix)
        assert dumps(import_course(path).scenario) == dumps(scenario), (course.name, suffix)
        # an independent reader: the map, its tile layers and its tileset resolved
        tiled = pytiled_parser.parse_map(path)
        assert (tiled.map_size.width, tiled.map_size.height) == (scenario.board.width,
                                                                 scenario.board.height)
        (tileset,) = tiled.tilesets.values()
        mapping = clients()[client]
        assert (tileset.name, tileset.tile_count) == (mapping.names[0], mapping.tilecount)
        assert "rallyforge-course" in tiled.properties
        # every cell a plain tile or a turned one (90, 180, 270 degrees): what the clients read
        assert {cell >> 28 for layer in read_map(path).layers for cell in layer.cells} <= \
            {0, 0b1010, 0b1100, 0b0110}


def test_the_tiles_alone_draw_what_the_tileset_can(tmp_path):
    """A client reads only the tiles: without the objects and the course
    property, the importer still finds the board's elements, flags and docks."""
    scenario = load_file(ROOT / "scenarios/tutorial.json")
    path = export(tmp_path, scenario, "blodige-roboter", ".tmx")
    text = path.read_text()
    start = text.index(" <properties>")
    bare = text[:start] + text[text.index(" </properties>") + len(" </properties>\n"):]
    bare = bare[:bare.index(f' <objectgroup')] + "</map>\n"
    path.write_text(bare)
    tiles_only = import_map(path).scenario
    b = scenario.board
    assert set(tiles_only.board.tiles) == {replace(t, note=None) for t in b.tiles}
    assert {(w.x, w.y, w.side) for w in tiles_only.board.walls} == {(w.x, w.y, w.side) for w in b.walls}
    assert [(f.x, f.y) for f in tiles_only.flags] == [(f.x, f.y) for f in scenario.flags]
    assert [(d.x, d.y, d.facing) for d in tiles_only.docks] == \
        [(d.x, d.y, d.facing) for d in scenario.docks]


def course_with(**parts) -> Scenario:
    board = Board(6, 6, tiles=parts.get("tiles", ()), walls=parts.get("walls", ()),
                  levels=parts.get("levels", ()))
    return Scenario(name="Small", board=board, flags=parts.get("flags", (Flag(1, 1),)),
                    docks=parts.get("docks", (Dock(0, 5, "N"),)))


def test_what_the_tileset_lacks_is_a_warning_with_its_square_and_comes_back(tmp_path):
    scenario = course_with(tiles=(Tile(2, 3, "ramp", dir="E"), Tile(4, 4, "conveyor", dir="N")),
                           levels=(Level(3, 3, 1),))
    written = write_map(scenario, clients()["blodige-roboter"], ".tmx", "small.tmx")
    lines = [n.line("small.tmx") for n in written.warnings]
    assert lines == [
        f"small.tmx:2,3: warning: the blodige-roboter tileset cannot draw the ramp towards E; "
        f"it travels in the object layer {OBJECT_LAYER!r}",
        f"small.tmx:3,3: warning: the blodige-roboter tileset cannot draw the level 1; "
        f"it travels in the object layer {OBJECT_LAYER!r}"]
    path = export(tmp_path, scenario, "blodige-roboter", ".tmx")
    assert dumps(import_course(path).scenario) == dumps(scenario)


def test_a_flag_past_the_tilesets_numbers_and_those_after_it_travel_as_objects():
    flags = tuple(Flag(x, 0) for x in range(6)) + (Flag(0, 2),)        # 7 flags; the tiles draw 4
    scenario = course_with(flags=flags)
    written = write_map(scenario, clients()["blodige-roboter"], ".tmx", "m.tmx")
    assert [(n.x, n.y) for n in written.warnings] == [(4, 0), (5, 0), (0, 2)]
    assert all("flag" in n.message for n in written.warnings)


def test_a_note_travels_though_its_element_is_drawn(tmp_path):
    scenario = course_with(walls=(Wall(2, 2, "N", note="the old wall"),),
                           flags=(Flag(1, 1, note="start here"),))
    written = write_map(scenario, clients()["blodige-roboter"], ".json", "m.json")
    assert written.warnings == ()         # both drawn by tiles
    back = import_course(export(tmp_path, scenario, "blodige-roboter", ".json")).scenario
    assert back.board.walls == (Wall(2, 2, "N", note="the old wall"),)
    assert back.flags == (Flag(1, 1, note="start here"),)


def test_the_command_writes_the_map_and_its_tileset_and_keeps_a_tileset_there(tmp_path, capsys):
    out = tmp_path / "tut.tmx"
    assert main(["export", str(ROOT / "scenarios/tutorial.json"), "-o", str(out)]) == 0
    tileset = tmp_path / "tiles_tileset.tsx"
    assert tileset.exists() and out.exists()
    assert "(tiles_tileset.tsx written beside it)" in capsys.readouterr().err
    tileset.write_text("the client's own")
    assert main(["export", str(ROOT / "scenarios/showcase.json"), "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert tileset.read_text() == "the client's own"
    assert "(tiles_tileset.tsx kept beside it)" in err
    assert "warning: the blodige-roboter tileset cannot draw" in err
    assert main(["import", str(out), "-o", str(tmp_path / "back.json")]) == 0
    assert (tmp_path / "back.json").read_text() == dumps(load_file(ROOT / "scenarios/showcase.json"))


def test_roboprojekt_gets_a_json_tileset(tmp_path, capsys):
    out = tmp_path / "map.json"
    assert main(["export", str(ROOT / "scenarios/tutorial.json"), "-o", str(out),
                 "--tileset", "roboprojekt"]) == 0
    assert (tmp_path / "development_tileset.json").exists()
    assert "roboprojekt tileset" in capsys.readouterr().err


def test_a_laser_is_drawn_on_its_wall_though_the_course_does_not_list_the_wall(tmp_path):
    """Blodige-roboter draws emitters only with their wall: the laser is a
    tile, the wall the course leaves implied is named in the objects and left
    out again on import."""
    scenario = replace(course_with(), board=Board(6, 6, lasers=(Laser(2, 0, "S", 2),)))
    written = write_map(scenario, clients()["blodige-roboter"], ".tmx", "m.tmx")
    assert written.warnings == ()
    assert 'name="lasers"' in written.map_text
    path = export(tmp_path, scenario, "blodige-roboter", ".tmx")
    assert import_map(path).scenario.board.walls == (Wall(2, 0, "N"),)    # what a client sees
    back = import_course(path).scenario
    assert back.board.walls == () and back.board.lasers == (Laser(2, 0, "S", 2),)


def test_roboprojekt_gets_no_object_layer_its_elements_travel_in_a_map_property(tmp_path):
    """roboprojekt reads every layer of a map as tiles: what its tileset cannot
    draw goes into the map's property rallyforge-elements instead."""
    scenario = course_with(tiles=(Tile(2, 3, "ramp", dir="E"),), levels=(Level(3, 3, 1),))
    written = write_map(scenario, clients()["roboprojekt"], ".json", "m.json")
    doc = json.loads(written.map_text)
    assert [layer["type"] for layer in doc["layers"]] == ["tilelayer"] * len(doc["layers"])
    (elements,) = [p["value"] for p in doc["properties"] if p["name"] == "rallyforge-elements"]
    assert [e["kind"] for e in json.loads(elements)] == ["tile", "level"]
    assert [(n.x, n.y) for n in written.warnings] == [(2, 3), (3, 3)]
    assert "the map's property rallyforge-elements" in written.warnings[0].message
    for suffix in (".json", ".tmx"):
        path = export(tmp_path, scenario, "roboprojekt", suffix)
        assert dumps(import_course(path).scenario) == dumps(scenario)


def test_a_broken_property_of_an_exported_map_is_one_line_and_exit_1(tmp_path, capsys):
    scenario = course_with(levels=(Level(3, 3, 1),))
    path = export(tmp_path, scenario, "roboprojekt", ".json")
    doc = json.loads(path.read_text())
    for prop, value, says in (("rallyforge-elements", "[1, 2", "is not a list of elements"),
                              ("rallyforge-elements", '[{"kind": "moat"}]',
                               "is not an element of a course"),
                              ("rallyforge-course", '{"board": 3}', "is not a course")):
        doc["properties"] = [p | ({"value": value} if p["name"] == prop else {})
                             for p in doc["properties"]]
        path.write_text(json.dumps(doc))
        assert main(["import", str(path), "-o", str(tmp_path / "back.json")]) == 1
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith(f"{path}: error: ") and says in err[0], err
        doc = json.loads(export(tmp_path, scenario, "roboprojekt", ".json").read_text())
