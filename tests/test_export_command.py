"""`rallyforge export COURSE -o OUT` (engine/cli/export.py): every format with no
display and without the editor, the picture options, bad usage and bad
input, and nothing half-written."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import pytiled_parser
from PySide6.QtGui import QColor, QImage

from rallyforge.drawing import style
from rallyforge.engine.cli.main import main
from rallyforge.engine.format.tiled.tilesets import clients

ROOT = Path(__file__).resolve().parents[1]
TUTORIAL = str(ROOT / "scenarios/tutorial.json")

# Run in a fresh process with no display and no platform chosen: export every
# format, then list the modules it loaded.
PROBE = """
import json, sys
from rallyforge.engine.cli.main import main
codes = [main(["export", sys.argv[1], "-o", out]) for out in sys.argv[2:]]
print(json.dumps({"codes": codes, "modules": sorted(sys.modules)}))
"""


def test_every_format_with_no_display_and_never_the_editor(tmp_path):
    env = {k: v for k, v in os.environ.items()
           if k not in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY")}
    outs = [str(tmp_path / f"tut{ext}") for ext in (".png", ".svg", ".pdf", ".tmx", ".json")]
    done = subprocess.run([sys.executable, "-c", PROBE, TUTORIAL, *outs], env=env,
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["codes"] == [0] * 5
    assert not [m for m in result["modules"] if m.startswith("rallyforge.editor")]
    assert "PySide6.QtWidgets" not in result["modules"]
    assert Path(outs[0]).read_bytes().startswith(b"\x89PNG")
    assert b"<svg" in Path(outs[1]).read_bytes()[:2000]
    assert Path(outs[2]).read_bytes().startswith(b"%PDF")
    assert Path(outs[3]).read_text().startswith("<?xml")
    assert json.loads(Path(outs[4]).read_text())["type"] == "map"


def test_a_tiled_export_beside_the_clients_tileset_never_loads_qt(tmp_path):
    (tmp_path / "tiles_tileset.tsx").write_text("the client's own")
    done = subprocess.run([sys.executable, "-c", PROBE, TUTORIAL, str(tmp_path / "m.tmx")],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["codes"] == [0]
    assert not [m for m in result["modules"] if m.startswith(("PySide6", "rallyforge.drawing"))]
    assert (tmp_path / "tiles_tileset.tsx").read_text() == "the client's own"
    assert not (tmp_path / "tiles_tileset.png").exists()


@pytest.mark.parametrize("client, out, tileset", [
    ("blodige-roboter", "m.tmx", "tiles_tileset.tsx"),
    ("roboprojekt", "m.json", "development_tileset.json")])
def test_a_stand_in_tileset_comes_with_its_picture(tmp_path, client, out, tileset):
    """Where the client's tileset is not at hand, the stand-in written beside
    the map has a picture of every tile, drawn in Rally Forge's style: an
    independent Tiled reader finds it, of the size the tileset says."""
    assert main(["export", TUTORIAL, "-o", str(tmp_path / out), "--tileset", client]) == 0
    tiled = pytiled_parser.parse_map(tmp_path / out)
    (found,) = tiled.tilesets.values()
    assert Path(found.image).resolve() == (tmp_path / tileset).with_suffix(".png").resolve()
    picture = QImage(str(found.image))
    assert (picture.width(), picture.height()) == (found.image_width, found.image_height)
    assert picture.width() == found.columns * found.tile_width
    # the floor tile is drawn, in the floor's colour; a tile meaning nothing is left empty
    tiles = clients()[client].tiles
    floor = next(local for local, meaning in tiles.items() if meaning == {"tile": "floor"})
    empty = next(local for local in range(found.tile_count) if local not in tiles)
    for local, colour in ((floor, style.COLORS["floor"].name()), (empty, "#000000")):
        x, y = local % found.columns * found.tile_width, local // found.columns * found.tile_height
        pixel = picture.pixelColor(x + found.tile_width // 2, y + found.tile_height // 2)
        assert (pixel.name(), pixel.alpha()) == (colour, 255 if local == floor else 0)


def test_the_drawing_needs_no_widgets():
    """Every module of rallyforge.drawing imports without Qt's widgets (the
    import contracts cannot name a part of PySide6)."""
    names = [f"rallyforge.drawing.{'.'.join(p.relative_to(ROOT / 'drawing').with_suffix('').parts)}"
             for p in (ROOT / "drawing").rglob("*.py") if p.name != "__init__.py"]
    probe = (f"import importlib, sys; [importlib.import_module(n) for n in {names!r}]; "
             "print('PySide6.QtWidgets' in sys.modules, 'PySide6.QtGui' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=120)
    assert done.stdout.split() == ["False", "True"], done.stderr


def test_scale_sets_the_pixels_of_a_square(tmp_path):
    out = tmp_path / "small.png"
    assert main(["export", TUTORIAL, "-o", str(out), "--scale", "10"]) == 0
    image = QImage(str(out))
    assert (image.width(), image.height()) == (12 * 10 + 2, 12 * 10 + 2)   # and the walls' margin


def robot_pixel(tmp_path: Path, *options: str) -> QColor:
    """The colour at the middle of robot 1's token (it starts on dock 1, facing N)."""
    course = json.loads(Path(TUTORIAL).read_text())
    course["robots"] = [{"name": "Ada", "bot": "greedy"}]
    src = tmp_path / "course.json"
    src.write_text(json.dumps(course))
    out = tmp_path / f"robots{len(options)}.png"
    assert main(["export", str(src), "-o", str(out), "--scale", "64", *options]) == 0
    dock = course["docks"][0]
    # the token's ring, left of its number
    return QImage(str(out)).pixelColor(dock["x"] * 64 + 4 + 20, dock["y"] * 64 + 4 + 35)


def test_robots_are_drawn_where_they_start_unless_asked_not_to(tmp_path):
    assert robot_pixel(tmp_path).name() == "#e6194b"            # robot 1's colour
    assert robot_pixel(tmp_path, "--no-robots").name() != "#e6194b"


def test_no_grid_draws_no_grid_line(tmp_path):
    course = {"format": "rally-scenario", "version": 1, "name": "Plain",
              "board": {"width": 2, "height": 1, "tiles": [{"x": 0, "y": 0, "type": "pit"},
                                                          {"x": 1, "y": 0, "type": "pit"}]},
              "flags": [{"x": 0, "y": 0}], "docks": [{"x": 1, "y": 0, "facing": "N"}]}
    src = tmp_path / "plain.json"
    src.write_text(json.dumps(course))
    colours = []
    for option in ("--grid", "--no-grid"):
        out = tmp_path / f"p{option}.png"
        assert main(["export", str(src), "-o", str(out), "--scale", "64", "--no-robots",
                     option]) == 0
        colours.append(QImage(str(out)).pixelColor(4 + 64, 4 + 32).name())    # the line between
    assert colours[0] != colours[1]


@pytest.mark.parametrize("argv, message", [
    (["-o", "x.gif"], "the name must end in .png, .svg, .pdf, .tmx or .json, not .gif"),
    (["-o", "x.png", "--tileset", "roboprojekt"], "--tileset goes with Tiled maps"),
    (["-o", "x.tmx", "--scale", "3"], "--scale go with pictures"),
    (["-o", "x.svg", "--paper", "A3"], "--paper goes with .pdf"),
    (["-o", "x.pdf", "--scale", "900"], "--scale 900: a .pdf takes 1 to 500"),
])
def test_bad_usage_exits_2_with_one_line(tmp_path, capsys, argv, message):
    argv = [a if not a.startswith("x.") else str(tmp_path / a) for a in argv]
    assert main(["export", TUTORIAL, *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]
    assert list(tmp_path.iterdir()) == []


def test_the_course_itself_is_never_the_output(tmp_path, capsys):
    src = tmp_path / "c.json"
    src.write_text(Path(TUTORIAL).read_text())
    assert main(["export", str(src), "-o", str(src)]) == 2
    assert src.read_text() == Path(TUTORIAL).read_text()


def test_a_broken_course_exits_1_naming_the_place(tmp_path, capsys):
    src = tmp_path / "broken.json"
    src.write_text('{"format": "rally-scenario", "version": 1, "board": {"width": 0}}')
    assert main(["export", str(src), "-o", str(tmp_path / "b.png")]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{src}:") and "Traceback" not in err
    assert not (tmp_path / "b.png").exists()


@pytest.mark.parametrize("ext, first", [(".png", "x.png"), (".tmx", "tiles_tileset.png")])
def test_an_unwritable_output_exits_1_naming_the_file_and_leaves_nothing(tmp_path, capsys, ext,
                                                                          first):
    out = tmp_path / "missing-folder" / f"x{ext}"
    assert main(["export", TUTORIAL, "-o", str(out)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"{out.with_name(first)}: error: cannot write it (No such file or directory)"]
    assert not out.parent.exists()
