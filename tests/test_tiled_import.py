"""Tiled import: small maps of our own in every encoding, flip bits, layers,
object layers, unmapped tiles and refusals (engine/format/tiled, `rallyforge import`)."""
from __future__ import annotations

import base64
import gzip
import json
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from rallyforge.engine.cli.main import main
from rallyforge.engine.format.loader import dumps
from rallyforge.engine.format.tiled.convert import import_map, orient
from rallyforge.engine.format.tiled.mapfile import FLIP_D, FLIP_H, FLIP_V, MapError, read_map
from rallyforge.engine.model.scenario import Accept, Dock, Flag, Laser, Pusher, Tile, Wall
from rallyforge.engine.validation.validator import validate_data

ROOT = Path(__file__).resolve().parents[1]

# Tile ids of the Blodige-roboter tileset as its maps write them (firstgid 1).
FLOOR, PIT, WALL_N, WALL_E, LASER_WALL_W, PUSH_N_24 = 5, 92, 31, 23, 38, 1
BELT_N, EXPRESS_E, GEAR_CW, REPAIR, UPGRADE = 49, 14, 54, 15, 7
FLAG1, FLAG2, DOCK1, DOCK2, BEAM_H = 55, 63, 121, 122, 39
ROT90 = FLIP_H | FLIP_D          # Tiled's "rotate 90° clockwise"


def grid(width: int, height: int, cells: dict[tuple[int, int], int], fill: int = 0) -> list[int]:
    return [cells.get((x, y), fill) for y in range(height) for x in range(width)]


def tmx(width: int, height: int, layers: dict[str, list[int]], encoding: str = "csv",
        orientation: str = "orthogonal", objects: str = "") -> str:
    parts = []
    for name, cells in layers.items():
        if encoding == "csv":
            data = '<data encoding="csv">' + ",".join(map(str, cells)) + "</data>"
        else:
            blob = struct.pack(f"<{len(cells)}I", *cells)
            compression = ""
            if encoding == "zlib":
                blob, compression = zlib.compress(blob), ' compression="zlib"'
            elif encoding == "gzip":
                blob, compression = gzip.compress(blob), ' compression="gzip"'
            data = (f'<data encoding="base64"{compression}>'
                    + base64.b64encode(blob).decode() + "</data>")
        parts.append(f'<layer name="{name}" width="{width}" height="{height}">{data}</layer>')
    return (f'<?xml version="1.0"?><map version="1.2" orientation="{orientation}" '
            f'width="{width}" height="{height}" tilewidth="32" tileheight="32" infinite="0">'
            '<tileset firstgid="1" source="../tiles_tileset.tsx"/>'
            + "".join(parts) + objects + "</map>")


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# A 4x4 map: floor everywhere, then the elements on a second layer.
ELEMENTS = {(0, 0): BELT_N, (1, 0): EXPRESS_E, (2, 0): GEAR_CW, (3, 0): PIT,
            (0, 1): WALL_N, (1, 1): LASER_WALL_W, (3, 1): BEAM_H, (2, 2): PUSH_N_24,
            (0, 2): REPAIR, (1, 2): UPGRADE, (3, 3): FLAG1, (0, 3): DOCK1, (1, 3): DOCK2}


def small_map(encoding: str = "csv") -> str:
    return tmx(4, 4, {"floor": grid(4, 4, {}, FLOOR), "elements": grid(4, 4, ELEMENTS)}, encoding)


def test_every_element_of_a_small_map_lands_on_its_square(tmp_path):
    s = import_map(write(tmp_path, "small.tmx", small_map())).scenario
    assert set(s.board.tiles) == {
        Tile(0, 0, "conveyor", dir="N"), Tile(1, 0, "conveyor", dir="E", express=True),
        Tile(2, 0, "gear", rotation="cw"), Tile(3, 0, "pit"),
        Tile(0, 2, "repair"), Tile(1, 2, "upgrade")}
    assert set(s.board.walls) == {Wall(0, 1, "N"), Wall(1, 1, "W")}
    assert s.board.lasers == (Laser(1, 1, "E", 1),)        # the beam tile adds nothing
    assert s.board.pushers == (Pusher(2, 2, "S", (2, 4)),)
    assert s.flags == (Flag(3, 3),)
    assert s.docks == (Dock(0, 3, "N"), Dock(1, 3, "N"))


def test_the_imported_course_validates_and_the_import_is_deterministic(tmp_path):
    path = write(tmp_path, "small.tmx", small_map())
    text = dumps(import_map(path).scenario)
    assert not [p for p in validate_data(json.loads(text)) if p.is_error]
    assert dumps(import_map(path).scenario) == text


@pytest.mark.parametrize("encoding", ["base64", "zlib", "gzip"])
def test_every_layer_encoding_reads_as_csv_does(tmp_path, encoding):
    csv = import_map(write(tmp_path, "a.tmx", small_map())).scenario
    other = import_map(write(tmp_path, "b.tmx", small_map(encoding))).scenario
    assert other.board == csv.board and other.flags == csv.flags and other.docks == csv.docks


def json_map() -> dict:
    """small_map() as Tiled JSON."""
    return {"type": "map", "orientation": "orthogonal", "width": 4, "height": 4,
            "tilewidth": 32, "tileheight": 32, "infinite": False,
            "tilesets": [{"firstgid": 1, "source": "tiles_tileset.tsx"}],
            "layers": [{"type": "tilelayer", "name": "floor", "data": grid(4, 4, {}, FLOOR)},
                       {"type": "tilelayer", "name": "elements", "encoding": "base64",
                        "compression": "zlib",
                        "data": base64.b64encode(zlib.compress(struct.pack(
                            "<16I", *grid(4, 4, ELEMENTS)))).decode()}]}


def test_the_same_map_as_tiled_json_reads_the_same(tmp_path):
    as_json = import_map(write(tmp_path, "a.json", json.dumps(json_map()))).scenario
    as_tmx = import_map(write(tmp_path, "b.tmx", small_map())).scenario
    assert as_json.board == as_tmx.board and as_json.docks == as_tmx.docks


def test_flip_bits_turn_directions_and_a_mirror_reverses_a_gear(tmp_path):
    cells = {(0, 0): BELT_N | ROT90, (1, 0): BELT_N | FLIP_V, (2, 0): BELT_N | FLIP_H | FLIP_V,
             (0, 1): GEAR_CW | FLIP_H, (1, 1): GEAR_CW | ROT90, (2, 1): WALL_N | ROT90,
             (0, 2): DOCK1 | FLIP_V | FLIP_D, (2, 2): FLAG1}
    s = import_map(write(tmp_path, "f.tmx", tmx(3, 3, {"l": grid(3, 3, cells)}))).scenario
    tiles = {(t.x, t.y): t for t in s.board.tiles}
    assert [tiles[(x, 0)].dir for x in range(3)] == ["E", "S", "S"]
    assert tiles[(0, 1)].rotation == "ccw"       # mirrored
    assert tiles[(1, 1)].rotation == "cw"        # only turned
    assert s.board.walls == (Wall(2, 1, "E"),)
    assert s.docks == (Dock(0, 2, "W"),)         # turned 270° clockwise


def test_orient_follows_tileds_order_diagonal_then_horizontal_then_vertical():
    assert [orient("N", b) for b in (ROT90, FLIP_H | FLIP_V, FLIP_V | FLIP_D)] == ["E", "S", "W"]
    assert orient("E", FLIP_H) == "W" and orient("E", FLIP_V) == "E"


def test_an_unmapped_tile_is_a_warning_with_its_square_and_its_square_stays_empty(tmp_path):
    cells = {(1, 0): 136, (0, 0): FLAG1, (2, 0): DOCK1}      # 136: a tile the mapping lacks
    result = import_map(write(tmp_path, "u.tmx", tmx(3, 1, {"l": grid(3, 1, cells)})))
    assert [(w.x, w.y) for w in result.warnings] == [(1, 0)]
    assert "tile 135" in result.warnings[0].message
    assert result.scenario.board.tiles == ()


def test_a_later_layer_wins_a_square_and_the_clash_is_reported(tmp_path):
    layers = {"a": grid(2, 1, {(0, 0): PIT, (1, 0): GEAR_CW}),
              "b": grid(2, 1, {(0, 0): BELT_N, (1, 0): FLOOR})}     # a floor hides nothing
    result = import_map(write(tmp_path, "c.tmx", tmx(2, 1, layers)))
    assert result.scenario.board.tiles == (Tile(0, 0, "conveyor", dir="N"),
                                           Tile(1, 0, "gear", rotation="cw"))
    assert [(w.x, w.y) for w in result.warnings if "pit" in w.message] == [(0, 0)]


def test_tile_objects_of_an_object_layer_are_placed_on_their_square(tmp_path):
    objects = ('<objectgroup name="markers">'
               f'<object id="1" gid="{FLAG2}" x="64" y="32" width="32" height="32"/>'
               f'<object id="2" gid="{FLAG1}" x="0" y="96" width="32" height="32"/></objectgroup>')
    text = tmx(3, 3, {"l": grid(3, 3, {(1, 1): DOCK1})}, objects=objects)
    s = import_map(write(tmp_path, "o.tmx", text)).scenario
    assert s.flags == (Flag(0, 2), Flag(2, 0))


def test_two_emitters_firing_at_each_other_along_one_beam_make_one_laser(tmp_path):
    cells = {(0, 0): LASER_WALL_W, (3, 0): 46, (0, 1): FLAG1, (1, 1): DOCK1}   # 46: wall E, fires W
    result = import_map(write(tmp_path, "l.tmx", tmx(4, 2, {"l": grid(4, 2, cells)})))
    assert result.scenario.board.lasers == (Laser(0, 0, "E", 1),)
    assert [(w.x, w.y) for w in result.warnings] == [(3, 0)]
    # a choice of firing end, said as such: nothing of the map is lost
    assert [w.line("l.tmx") for w in result.warnings] == [
        "l.tmx:3,0: note: a laser drawn with an emitter at both ends: the one at (0, 0) firing E "
        "is kept"]


def test_a_belt_drawn_off_the_edge_is_accepted_as_the_published_map_draws_it(tmp_path, capsys):
    path = write(tmp_path, "small.tmx", small_map())       # the belt at (0, 0) points north, off
    s = import_map(path).scenario
    assert s.accept == (Accept("W405", 0, 0, note="drawn so on the published map"),)
    w405 = [p for p in validate_data(json.loads(dumps(s))) if p.code == "W405"]
    assert [(p.x, p.y, p.accepted) for p in w405] == [(0, 0, True)]
    assert "it carries the robots on it off the board, which destroys them" in w405[0].message
    assert main(["import", str(path), "-o", str(tmp_path / "small.json")]) == 0
    assert "W405" not in capsys.readouterr().err


@pytest.mark.parametrize("text, words", [
    (tmx(2, 2, {"l": [0, 0, 0, 0]}, orientation="isometric"), "isometric, not orthogonal"),
    (tmx(2, 2, {"l": [0, 0, 0, 0]}, orientation="hexagonal"), "not orthogonal"),
    ("<tileset name='x'/>", "not a <map>"),
    ("<map", "XML cannot be read"),
    ('{"type": "tileset", "tiles": []}', "not a Tiled map"),
    ("[1, 2]", "not a Tiled map"),
    ("hello", "neither TMX"),
    (tmx(2, 2, {"l": [0, 0, 0]}), "3 cells"),
    (tmx(200, 2, {"l": [0] * 400}), "1 to 100"),
])
def test_what_is_not_an_orthogonal_map_is_refused_with_a_clear_message(tmp_path, text, words):
    with pytest.raises(MapError, match=words):
        read_map(write(tmp_path, "bad.tmx", text))


def test_the_command_refuses_a_non_map_with_exit_1_and_writes_nothing(tmp_path, capsys):
    bad = write(tmp_path, "bad.tmx", tmx(2, 2, {"l": [0] * 4}, orientation="staggered"))
    out = tmp_path / "out.json"
    assert main(["import", str(bad), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert "not orthogonal" in err and "Traceback" not in err
    assert not out.exists()


def test_the_command_writes_a_course_that_validates(tmp_path, capsys):
    out = tmp_path / "out.json"
    assert main(["import", str(write(tmp_path, "m.tmx", small_map())), "-o", str(out)]) == 0
    assert "1 laser, 1 pusher, 1 flag, 2 docks; 0 notes, 0 warnings" in capsys.readouterr().err
    proc = subprocess.run([sys.executable, "-m", "rallyforge.engine.cli", "validate", str(out)],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout


# ---------------------------------------------------------------- real published maps

MIRROR = Path("/work/.mirror")
REAL = [("inf112-v19+Blodige-roboter/repo", "assets/maps/", ".tmx"),
        ("PyLadiesCZ+roboprojekt/repo/.git", "maps/", ".json")]


def _real_maps(tmp_path_factory) -> list[Path]:
    out = []
    for repo, folder, ext in REAL:
        git = MIRROR / repo
        if not git.exists():
            continue
        target = tmp_path_factory.mktemp(repo.split("+")[0])
        names = subprocess.run(["git", "--git-dir", str(git), "ls-tree", "-r", "--name-only",
                                "HEAD", folder], capture_output=True, text=True).stdout.split()
        for name in names:
            if name.endswith(ext) or name.endswith(".tsx"):
                data = subprocess.run(["git", "--git-dir", str(git), "show", f"HEAD:{name}"],
                                      capture_output=True).stdout
                path = target / name
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)
                if name.endswith(ext) and "tileset" not in name:
                    out.append(path)
    return out


def test_real_published_maps_import_with_no_unmapped_tile(tmp_path_factory):
    """Reads the projects' maps from a fetched snapshot when one is on this
    machine (nothing of theirs is kept in the project)."""
    maps = _real_maps(tmp_path_factory)
    if len(maps) < 20:
        pytest.skip("the snapshots of the two projects are not on this machine")
    valid = 0
    for path in maps:
        result = import_map(path)
        assert not [w for w in result.warnings if "left empty" in w.message], path
        valid += not [p for p in validate_data(json.loads(dumps(result.scenario))) if p.is_error]
    assert valid >= 20


def test_the_mapping_example_of_the_docs_is_a_mapping_that_reads(tmp_path, monkeypatch):
    from rallyforge.engine.format.tiled import tilesets
    text = (ROOT / "docs" / "tiled-import.md").read_text("utf-8")
    example = text.split("```json\n", 1)[1].split("```", 1)[0]
    (tmp_path / "mine.json").write_text(example, encoding="utf-8")
    monkeypatch.setattr(tilesets, "FOLDER", tmp_path)
    tilesets.mappings.cache_clear()
    try:
        cells = [1 + 4, 1 + 1, 1 + 6, 1 + 7]           # firstgid 1
        text = tmx(4, 1, {"l": cells}).replace("../tiles_tileset.tsx", "my_tiles.tsx")
        s = import_map(write(tmp_path, "m.tmx", text)).scenario
    finally:
        tilesets.mappings.cache_clear()
    assert s.board.lasers == (Laser(0, 0, "S", 2),) and s.board.walls == (Wall(0, 0, "N"),)
    assert s.board.tiles == (Tile(1, 0, "conveyor", dir="N", express=True),)
    assert s.flags == (Flag(2, 0),) and s.docks == (Dock(3, 0, "N"),)


@pytest.mark.parametrize("name, text", [("dizzy_dash.tmx", small_map()),
                                        ("dizzy_dash.json", json.dumps(json_map()))])
def test_validate_and_run_name_the_import_for_a_tiled_map(tmp_path, capsys, name, text):
    path = write(tmp_path, name, text)
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    assert "not valid JSON" not in out
    assert f"{name}: error E005: this is a Tiled map, not a course: import it with " \
           f"`rallyforge import {name} -o dizzy_dash-course.json`" in out
    assert main(["run", str(path)]) == 1
    assert "`rallyforge import " in capsys.readouterr().out
