"""Tiled import against hostile maps: every input read with a bound
(docs/format.md "Tiled maps"), regular files only, numbers finite and in
range, and every malformed shape one clean `FILE: error: ...` line with exit
1 -- never a traceback, a hang, or memory without bound."""
from __future__ import annotations

import base64
import gzip
import json
import os
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from rallyforge.engine.cli.main import main
from rallyforge.engine.format.tiled.convert import import_map
from rallyforge.engine.format.tiled.mapfile import MapError

ROOT = Path(__file__).resolve().parents[1]
# What a name may show of itself in a message (docs/format.md "Tiled maps").
MAX_NAME = 60
LAYER = '<layer name="l"><data encoding="csv">0,0,0,0</data></layer>'


def tmx(body: str = LAYER, size: str = 'width="2" height="2"', tile: str = 'tilewidth="32"',
        tileset: str = '<tileset firstgid="1" name="t" tilecount="4"/>', head: str = "") -> str:
    return (f'{head}<map orientation="orthogonal" {size} {tile} tileheight="32">'
            f"{tileset}{body}</map>")


def tiled_json(**changes) -> str:
    data = {"type": "map", "orientation": "orthogonal", "width": 2, "height": 2,
            "tilewidth": 32, "tileheight": 32, "tilesets": [],
            "layers": [{"type": "tilelayer", "name": "l", "data": [0, 0, 0, 0]}]}
    return json.dumps({**data, **changes})


def objects(attributes: str) -> str:
    return LAYER + f'<objectgroup name="o"><object gid="1" {attributes}/></objectgroup>'


# What the outside campaign found raising tracebacks, and its neighbours.
MALFORMED = {
    "width-inf.tmx": (tmx(size='width="inf" height="2"'), "width is 'inf'"),
    "width-huge.tmx": (tmx(size='width="1e400" height="2"'), "width is '1e400'"),
    "tilewidth-inf.tmx": (tmx(tile='tilewidth="inf"'), "tilewidth is 'inf'"),
    "tilewidth-nan.tmx": (tmx(tile='tilewidth="nan"'), "tilewidth is 'nan'"),
    "gid-inf.tmx": (tmx('<layer name="l"><data><tile gid="inf"/><tile/><tile/><tile/></data></layer>'),
                    "gid is 'inf'"),
    "gid-too-big.tmx": (tmx('<layer name="l"><data><tile gid="4294967296"/><tile/><tile/><tile/>'
                            '</data></layer>'), "gid is 4,294,967,296"),
    "firstgid-inf.tmx": (tmx(tileset='<tileset firstgid="inf" name="t"/>'), "firstgid is 'inf'"),
    "encoding.tmx": (tmx(head='<?xml version="1.0" encoding="x-bogus"?>'), "x-bogus"),
    "object-x.tmx": (tmx(objects('x="abc" y="0"')), "x is 'abc'"),
    "object-width-inf.tmx": (tmx(objects('x="0" y="0" width="inf"')), "width is 'inf'"),
    "object-y-nan.tmx": (tmx(objects('x="0" y="nan"')), "y is 'nan'"),
    "csv-fraction.tmx": (tmx('<layer name="l"><data encoding="csv">0,1.5,0,0</data></layer>'),
                         "1.5"),
    "csv-words.tmx": (tmx('<layer name="l"><data encoding="csv">0,x,0,0</data></layer>'), "'x'"),
    "compression.tmx": (tmx('<layer name="l"><data encoding="base64" compression="zstd">AAAA'
                            '</data></layer>'), "zstd"),
    "layers.json": (tiled_json(layers=[1, 2]), "an object was expected"),
    "tilesets.json": (tiled_json(tilesets=["x"]), "an object was expected"),
    "objects.json": (tiled_json(layers=[{"type": "objectgroup", "objects": [3]}]),
                     "an object was expected"),
    "layer-list.json": (tiled_json(layers={"a": 1}), "a list was expected"),
    "infinity.json": (tiled_json().replace('"width": 2', '"width": Infinity'), "Infinity"),
    "nan-x.json": (tiled_json(layers=[{"type": "objectgroup", "objects": [
        {"gid": 1, "x": 0, "y": 0}]}]).replace('"x": 0', '"x": NaN'), "NaN"),
    "width-text.json": (tiled_json(width="wide"), "width is 'wide'"),
    "width-huge.json": (tiled_json(width=10 ** 400), "width is"),
    "gid-fraction.json": (tiled_json(layers=[{"type": "tilelayer", "name": "l",
                                              "data": [0, 0.5, 0, 0]}]), "0.5"),
    "deep.json": ('{"type": "map", "layers": ' + "[" * 100_000 + "]" * 100_000 + "}", "deep"),
    "groups.json": (tiled_json(layers=[json.loads("{\"type\": \"group\", \"layers\": [" * 40
                                                  + "]}" * 40)]), "nested"),
    "no-width.json": (tiled_json().replace('"width": 2, ', ""), "'width'"),
    "many-layers.tmx": (tmx(LAYER * 40), "more than 32 tile layers"),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_a_malformed_map_is_one_clean_error_line_with_exit_1(tmp_path, capsys, name):
    text, words = MALFORMED[name]
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    out = tmp_path / "out.json"
    assert main(["import", str(path), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"{path}: error: "), err
    assert words in err
    assert not out.exists()


def import_alone(*argv: str, limit_mb: int | None = None) -> subprocess.CompletedProcess:
    """`rallyforge import ...` in a process of its own: bounded in time (a hang
    fails, rather than waits) and, with `limit_mb`, in memory."""
    code = "import sys\nfrom rallyforge.engine.cli.main import main\n"
    if limit_mb:
        code = (f"import resource\nresource.setrlimit(resource.RLIMIT_AS, "
                f"({limit_mb << 20}, {limit_mb << 20}))\n") + code
    code += f"sys.exit(main({list(argv)!r}))\n"
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=60)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs")
@pytest.mark.parametrize("fmt", ["tmx", "json"])
def test_a_fifo_or_a_device_is_refused_by_name_and_never_read(tmp_path, fmt):
    fifo = tmp_path / "tiles.tsx"
    os.mkfifo(fifo)       # (opened for reading, it waits for a writer for ever)
    for source, kind in ((fifo.name, "a pipe (FIFO)"), ("/dev/zero", "a device"), ("/", "a folder")):
        if fmt == "tmx":
            text = tmx(tileset=f'<tileset firstgid="1" source="{source}"/>')
        else:
            text = tiled_json(tilesets=[{"firstgid": 1, "source": source}])
        path = tmp_path / f"m.{fmt}"
        path.write_text(text, encoding="utf-8")
        done = import_alone("import", str(path))
        assert done.returncode == 1, done.stderr
        assert done.stderr == (f"{path}: error: the tileset file {source!r} is {kind}, "
                               "not a regular file\n"), done.stderr
        assert "Traceback" not in done.stderr
    for map_file, kind in ((fifo, "a pipe (FIFO)"), (Path("/dev/zero"), "a device")):
        done = import_alone("import", str(map_file))
        assert done.stderr == f"{map_file}: error: the map file is {kind}, not a regular file\n"
        assert done.returncode == 1


@pytest.mark.parametrize("compression", ["zlib", "gzip"])
def test_a_compressed_bomb_stops_at_the_layers_declared_size_in_bounded_memory(tmp_path,
                                                                               compression):
    """A layer of 2 x 2 cells (16 bytes) whose data inflates to 1.4 GB (88
    gzip members of 16 MB each: 1.4 MB; zlib, one stream of 16 MB) is
    refused once its 17th byte comes out: the process never above 400 MB of
    address space (Python, the engine and its libraries take about 250), its
    Python allocations peaking under 20 MB (tracemalloc)."""
    chunk = bytes(16 << 20)
    blob = gzip.compress(chunk, 9) * 88 if compression == "gzip" else zlib.compress(chunk, 9)
    path = tmp_path / "bomb.tmx"
    path.write_text(tmx(f'<layer name="l"><data encoding="base64" compression="{compression}">'
                        f"{base64.b64encode(blob).decode()}</data></layer>"), encoding="utf-8")
    done = import_alone("import", str(path), limit_mb=400)
    assert done.returncode == 1, done.stderr[-2000:]
    assert "reading stopped there" in done.stderr and "Traceback" not in done.stderr
    peak = subprocess.run(
        [sys.executable, "-c",
         "import sys, tracemalloc\n"
         "from rallyforge.engine.format.tiled.mapfile import MapError, read_map\n"
         "tracemalloc.start()\n"
         "try:\n    read_map(sys.argv[1])\nexcept MapError:\n    pass\n"
         "print(tracemalloc.get_traced_memory()[1])", str(path)],
        cwd=ROOT, capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)),
        timeout=60)
    assert int(peak.stdout) < 20 << 20, peak.stdout


def test_a_long_layer_name_is_cut_short_in_every_message(tmp_path):
    """A 100,000-character layer name on a 100 x 100 map (each cell's label
    copied it: 1 GB from a 120 KB file) shows as its first characters."""
    cells = ",".join(["7"] * 10_000)
    path = tmp_path / "long.tmx"
    path.write_text(tmx(f'<layer name="{"N" * 100_000}"><data encoding="csv">{cells}</data></layer>',
                        size='width="100" height="100"'), encoding="utf-8")
    imported = import_map(path)
    assert len(imported.warnings) == 10_002
    assert max(len(w.message) for w in imported.warnings) < 2 * MAX_NAME + 100


# ---------------------------------------------------------------- fuzz

NASTY_NUMBERS = st.sampled_from(["0", "1", "2", "-1", "inf", "-inf", "nan", "1e400", "1.5", "²",
                                 "abc", "", "4294967296", "99999999999999999999", "32", "0x10"])
NASTY_VALUES = st.one_of(st.integers(-2 ** 70, 2 ** 70), st.floats(allow_nan=True),
                         st.text(max_size=5), st.none(), st.booleans(), st.just([]), st.just({}))


@st.composite
def tmx_maps(draw) -> str:
    def attr(name: str) -> str:
        return f' {name}="{draw(NASTY_NUMBERS)}"' if draw(st.booleans()) else ""
    width, height = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    size = (f'width="{width}" height="{height}"' if draw(st.booleans())
            else f"{attr('width')}{attr('height')}")
    body = []
    for _ in range(draw(st.integers(0, 3))):
        kind = draw(st.sampled_from(["csv", "base64", "zlib", "gzip", "tiles", "bogus", "none"]))
        cells = draw(st.lists(st.integers(0, 2 ** 32 - 1), min_size=width * height - 1,
                              max_size=width * height + 1))
        raw = b"".join(c.to_bytes(4, "little") for c in cells)
        data = {
            "csv": lambda: '<data encoding="csv">' + ",".join(map(str, cells)) + "</data>",
            "base64": lambda: f'<data encoding="base64">{base64.b64encode(raw).decode()}</data>',
            "zlib": lambda: ('<data encoding="base64" compression="zlib">'
                             f"{base64.b64encode(zlib.compress(raw)).decode()}</data>"),
            "gzip": lambda: ('<data encoding="base64" compression="gzip">'
                             f"{base64.b64encode(raw[:draw(st.integers(0, 20))]).decode()}</data>"),
            "tiles": lambda: "<data>" + "".join(f"<tile{attr('gid')}/>" for _ in cells) + "</data>",
            "bogus": lambda: f'<data encoding="{draw(st.text(max_size=4))}">x</data>',
            "none": lambda: "",
        }[kind]()
        name = draw(st.sampled_from(["a", "", "x &amp; y", "N" * 500]))
        body.append(f'<layer name="{name}">{data}</layer>')
    for _ in range(draw(st.integers(0, 2))):
        body.append(f'<objectgroup><object{attr("gid")}{attr("x")}{attr("y")}{attr("width")}'
                    f'{attr("height")}/></objectgroup>')
    tileset = f'<tileset{attr("firstgid")}{attr("tilecount")} name="t"/>'
    return (f'<map orientation="{draw(st.sampled_from(["orthogonal", "isometric", ""]))}" {size}'
            f'{attr("tilewidth")}{attr("tileheight")}>{tileset}{"".join(body)}</map>')


def json_layers(depth: int = 2):
    cell = st.one_of(st.integers(0, 2 ** 33), NASTY_VALUES)
    leaf = st.fixed_dictionaries({"type": st.sampled_from(["tilelayer", "objectgroup", "image"])},
                                 optional={"name": NASTY_VALUES,
                                           "data": st.one_of(st.lists(cell, max_size=10),
                                                             st.text(max_size=8), NASTY_VALUES),
                                           "encoding": st.sampled_from(["base64", "csv", "x", 3]),
                                           "compression": st.sampled_from(["zlib", "gzip", "", "q"]),
                                           "objects": st.one_of(st.lists(st.one_of(
                                               st.dictionaries(st.sampled_from(
                                                   ["gid", "x", "y", "width", "height"]),
                                                   NASTY_VALUES), NASTY_VALUES), max_size=3),
                                               NASTY_VALUES)})
    if depth == 0:
        return st.one_of(leaf, NASTY_VALUES)
    group = st.fixed_dictionaries({"type": st.just("group"),
                                   "layers": st.lists(json_layers(depth - 1), max_size=3)})
    return st.one_of(leaf, group, NASTY_VALUES)


@st.composite
def json_maps(draw) -> str:
    # mostly a plausible map, so that most examples get as far as their layers
    plausible = draw(st.integers(0, 3)) > 0
    data = {"type": "map" if plausible else draw(st.sampled_from(["tileset", 1, None])),
            "orientation": "orthogonal" if plausible else draw(NASTY_VALUES)}
    for key in ("width", "height", "tilewidth", "tileheight"):
        if plausible:
            data[key] = draw(st.integers(1, 3))
        elif draw(st.booleans()):
            data[key] = draw(st.one_of(st.integers(-1, 4), NASTY_VALUES))
    data["layers"] = draw(st.one_of(st.lists(json_layers(), max_size=4), NASTY_VALUES))
    if draw(st.booleans()):
        data["tilesets"] = draw(st.one_of(st.lists(st.one_of(st.fixed_dictionaries(
            {}, optional={"firstgid": NASTY_VALUES, "name": NASTY_VALUES,
                          "tilecount": NASTY_VALUES, "source": st.sampled_from(["", "none.tsx"])}),
            NASTY_VALUES), max_size=3), NASTY_VALUES))
    return json.dumps(data, allow_nan=True)


def read_or_refuse(tmp_path: Path, name: str, text: str) -> None:
    """Read and convert the map: either it is a map, or MapError says why;
    any other exception fails the test."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    try:
        import_map(path)
    except MapError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 4 * MAX_NAME + 200


@settings(max_examples=300)
@given(text=tmx_maps())
def test_fuzz_tmx_maps_are_read_or_refused_cleanly(tmp_path_factory, text):
    read_or_refuse(tmp_path_factory.mktemp("tmx"), "m.tmx", text)


@settings(max_examples=300)
@given(text=json_maps())
def test_fuzz_tiled_json_maps_are_read_or_refused_cleanly(tmp_path_factory, text):
    read_or_refuse(tmp_path_factory.mktemp("json"), "m.json", text)

