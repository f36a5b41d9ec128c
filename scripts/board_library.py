"""Build the board library, engine/editing/boards/, from the published maps of the
open-source projects of this game, and cross-check every board.

    python -m scripts.board_library [--check]

Each board is cut from a Tiled map of inf112-v19/Blodige-roboter (MIT),
read with Rally Forge's own importer (engine/format/tiled), turned to the
orientation of the printed board, and compared element by element with the
board data of gbahns/robotmadness (no licence stated: read here only as a
check, never copied) and, where one of the project's calibration courses
(/work/shared/calibration) lays the board, with that course, whose
elements were already settled by a majority of four sources. Where the
sources disagree the majority is followed and the board's description says
what disagreed. The snapshots are read from /work/.mirror (see `fetch`);
nothing of theirs is kept in the project.

With --check nothing is written: the script only says whether the files
in engine/editing/boards/ are what it would write.
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

from rallyforge.engine.editing.edit import canonical
from rallyforge.engine.editing.transform import extract, rotate_board, rotate_markers
from rallyforge.engine.format.loader import dumps, read_file, write_text_atomic
from rallyforge.engine.format.tiled.convert import import_map
from rallyforge.engine.model.directions import INDEX, step
from rallyforge.engine.model.scenario import (Accept, Board, Dock, Flag, Laser, Pusher, Scenario, Tile, Wall,
                                   edge_key)
from rallyforge.engine.validation.validator import validate_data

MIRROR = Path("/work/.mirror")
BLODIGE = MIRROR / "inf112-v19+Blodige-roboter/repo"
GBAHNS = MIRROR / "gbahns+robotmadness/repo"
CALIBRATION = Path("/work/shared/calibration")
LIBRARY = Path(__file__).resolve().parents[1] / "engine" / "editing" / "boards"
GAME = ("Board of the RoboRally board game, 2005 edition (Richard Garfield; Wizards of the Coast / "
        "Avalon Hill). Board layout read by Rally Forge's Tiled importer from the map of "
        "inf112-v19/Blodige-roboter (MIT licence).")


@dataclass(frozen=True)
class Source:
    stem: str           # the library file's name
    name: str
    gbahns: str         # the file of gbahns/robotmadness with this board
    tmx: str            # a Blodige-roboter map that lays it
    x: int              # where the board's top-left square is on that map
    y: int
    width: int = 12
    height: int = 12
    calibration: tuple[str, int, int] | None = None    # a calibration course laying it, at x, y


BOARDS = (
    Source("chess", "Chess", "chess", "checkmate", 0, 0, calibration=("checkmate", 0, 0)),
    Source("chop-shop", "Chop Shop", "chop-shop", "chop_shop_challenge", 0, 0,
           calibration=("chop_shop_challenge", 0, 0)),
    Source("cross", "Cross", "cross", "lost_bearings", 0, 0),
    Source("exchange", "Exchange", "exchange", "risky_exchange", 0, 0,
           calibration=("risky_exchange", 0, 0)),
    Source("island", "Island", "island", "death_trap", 0, 0, calibration=("death_trap", 0, 0)),
    Source("maelstrom", "Maelstrom", "maelstrom", "whirlwind_tour", 0, 0,
           calibration=("whirlwind_tour", 0, 0)),
    Source("spin-zone", "Spin Zone", "spin-zone", "dizzy_dash", 0, 0,
           calibration=("around_the_world", 12, 0)),
    Source("vault", "Vault", "vault", "vault_assault", 0, 0,
           calibration=("marathon_madness", 12, 0)),
    Source("docking-bay-1", "Docking Bay 1", "docking-bay/docking-bay-1", "risky_exchange", 0, 12,
           height=4, calibration=("risky_exchange", 0, 12)),
    Source("docking-bay-2", "Docking Bay 2", "docking-bay/docking-bay-2", "checkmate", 0, 12,
           height=4, calibration=("checkmate", 0, 12)),
)

# ---------------------------------------------------------------- reading the sources

def git_show(git: Path, path: str) -> str:
    return subprocess.run(["git", "--git-dir", str(git), "show", f"HEAD:{path}"],
                          capture_output=True, text=True, check=True).stdout


_DIR = {"UP": "N", "DOWN": "S", "LEFT": "W", "RIGHT": "E"}
_POS = r"position:\s*\{\s*x:\s*(\d+),\s*y:\s*(\d+)\s*\}"


def gbahns_board(source: Source) -> Board:
    """The elements of a board as gbahns/robotmadness lists them (its own
    TypeScript data, read with patterns, never run)."""
    text = git_show(GBAHNS, f"lib/game/boards/{source.gbahns}.ts")
    text = re.sub(r"//[^\n]*", "", text)
    section = {k: (re.search(rf"{k}:\s*\[(.*?)\n\s*\]", text, re.S) or [None, ""])[1]
               for k in ("tiles", "lasers", "walls")}
    tiles, pushers = [], []
    for item in re.finditer(r"\{\s*" + _POS + r"(.*?)\}\s*,", section["tiles"], re.S):
        x, y, rest = int(item[1]), int(item[2]), item[3]
        kind = re.search(r"type:\s*TileType\.(\w+)", rest)[1]
        d = re.search(r"direction:\s*Direction\.(\w+)", rest)
        direction = _DIR[d[1]] if d else None
        if kind in ("CONVEYOR", "EXPRESS_CONVEYOR"):
            tiles.append(Tile(x, y, "conveyor", dir=direction, express=kind != "CONVEYOR"))
        elif kind == "PUSHER":
            registers = tuple(int(v) for v in re.search(r"registers:\s*\[([\d,\s]+)\]", rest)[1]
                              .split(","))
            pushers.append(Pusher(x, y, direction, registers))
        else:
            kinds = {"PIT": ("pit", None), "REPAIR": ("repair", None), "OPTION": ("upgrade", None),
                     "GEAR_CW": ("gear", "cw"), "GEAR_CCW": ("gear", "ccw")}
            tile_type, rotation = kinds[kind]
            tiles.append(Tile(x, y, tile_type, rotation=rotation))
    lasers = [Laser(int(m[1]), int(m[2]), _DIR[m[3]], int(m[4])) for m in re.finditer(
        _POS + r",\s*direction:\s*Direction\.(\w+),\s*damage:\s*(\d+)", section["lasers"])]
    walls = [Wall(int(m[1]), int(m[2]), _DIR[side.strip().split(".")[1]])
             for m in re.finditer(_POS + r",\s*sides:\s*\[([^\]]*)\]", section["walls"])
             for side in m[3].split(",") if side.strip()]
    return Board(source.width, source.height, tuple(tiles), tuple(walls), tuple(lasers),
                 tuple(pushers))


def gbahns_docks(source: Source) -> tuple[Dock, ...]:
    text = git_show(GBAHNS, f"lib/game/boards/{source.gbahns}.ts")
    found = re.findall(r"number:\s*(\d+),\s*" + _POS + r",\s*direction:\s*Direction\.(\w+)", text)
    return tuple(Dock(int(x), int(y), _DIR[d]) for _, x, y, d in
                 sorted(found, key=lambda m: int(m[0])))


def blodige_course(stem: str, folder: Path) -> Scenario:
    path = folder / f"{stem}.tmx"
    if not path.exists():
        path.write_text(git_show(BLODIGE, f"assets/maps/{stem}.tmx"), encoding="utf-8")
    return import_map(path).scenario


def region(course: Scenario, source: Source, x: int, y: int) -> Scenario:
    board = extract(course.board, x, y, x + source.width, y + source.height)
    inside = [d for d in course.docks if x <= d.x < x + source.width and y <= d.y < y + source.height]
    return replace(course, board=board, flags=(),
                   docks=tuple(replace(d, x=d.x - x, y=d.y - y) for d in inside))


def turned(s: Scenario, q: int) -> Scenario:
    flags, docks = rotate_markers(s.flags, s.docks, s.board.width, s.board.height, q)
    return replace(s, board=rotate_board(s.board, q), flags=flags, docks=docks)


# ---------------------------------------------------------------- comparing

def beam(board: Board, laser: Laser) -> tuple:
    """A laser as the squares its beam covers (either end may be drawn as the emitter)."""
    walls = {edge_key(w.x, w.y, w.side) for w in board.walls}
    squares, (x, y), d = [], (laser.x, laser.y), INDEX[laser.dir]
    while 0 <= x < board.width and 0 <= y < board.height:
        squares.append((x, y))
        if edge_key(x, y, laser.dir) in walls:
            break
        x, y = step(x, y, d)
    axis = "NS" if laser.dir in "NS" else "EW"
    return axis, laser.beams, frozenset(squares)


def elements(board: Board, walls_of: Board | None = None) -> dict[str, dict]:
    """Every element by where it is, so that two boards compare key by key."""
    mounts = {edge_key(*_mount(item)) for item in (*board.lasers, *board.pushers)}
    return {
        "tile": {(t.x, t.y): (t.type, t.dir, t.express, t.rotation) for t in board.tiles},
        "wall": {k: True for w in board.walls for k in [edge_key(w.x, w.y, w.side)]
                 if k not in mounts},
        "laser": {beam(walls_of or board, l): (l.x, l.y, l.dir) for l in board.lasers},
        "pusher": {(p.x, p.y): (p.dir, p.phases) for p in board.pushers},
    }


def _mount(item) -> tuple[int, int, str]:
    return item.x, item.y, {"N": "S", "S": "N", "E": "W", "W": "E"}[item.dir]


def best_turn(ours: Board, theirs: Board) -> int:
    def score(q: int) -> int:
        a = elements(rotate_board(ours, q))["tile"]
        b = elements(theirs)["tile"]
        return sum(a.get(k) == v for k, v in b.items())
    return max(range(4), key=score)


def describe(kind: str, key, value) -> str:
    if kind == "tile":
        t, d, e, r = value
        return f"{'express ' if e else ''}{t}{' ' + d if d else ''}{' ' + r if r else ''} at {key}"
    if kind == "wall":
        return f"wall on the {key[2]} side of ({key[0]}, {key[1]})"
    if kind == "laser":
        return f"{key[1]}-beam laser at ({value[0]}, {value[1]}) firing {value[2]}"
    return f"pusher at {key} pushing {value[0]} in registers {list(value[1])}"


# ---------------------------------------------------------------- building

def build(source: Source, folder: Path) -> tuple[Scenario, list[str]]:
    blodige = region(blodige_course(source.tmx, folder), source, source.x, source.y)
    theirs = gbahns_board(source)
    q = best_turn(blodige.board, theirs)
    ours = turned(blodige, q)
    votes = [elements(ours.board)]
    names = ["the Blodige-roboter map", "gbahns/robotmadness"]
    votes.append(elements(theirs, walls_of=ours.board))
    if source.calibration:
        stem, cx, cy = source.calibration
        cal, _ = read_file(CALIBRATION / f"{stem}.json")
        assert cal is not None
        cal_region = region(cal, source, cx, cy)
        cq = best_turn(cal_region.board, ours.board)
        cal_turned = turned(cal_region, cq)
        cal_docks = tuple(replace(d, note=None) for d in cal_turned.docks)
        votes.append(elements(cal_turned.board, walls_of=ours.board))
        names.append(f"the calibration course {stem} (itself settled by a majority of four sources)")
    board, notes = settle(ours.board, votes, names)
    docks = [ours.docks, gbahns_docks(source)] + ([cal_docks] if source.calibration else [])
    if source.height == 4 and any(d != docks[0] for d in docks):
        said = "; ".join(f"{n}: docks at {[(d.x, d.y) for d in ds]}" for n, ds in zip(names, docks))
        followed = max(docks, key=lambda ds: (docks.count(ds), ds == docks[0]))
        notes.append(f"{said} (followed: {[(d.x, d.y) for d in followed]})")
        ours = replace(ours, docks=followed)
    return replace(ours, board=board), notes


def settle(board: Board, votes: list[dict], names: list[str]) -> tuple[Board, list[str]]:
    """Follow the majority of the sources element by element (the Blodige map
    on a tie); return the settled board and a sentence per disagreement."""
    notes, settled = [], {kind: dict(v) for kind, v in votes[0].items()}
    for kind in settled:
        keys = sorted(set().union(*(v[kind] for v in votes)), key=repr)
        for key in keys:
            values = [v[kind].get(key) for v in votes]
            if all(v == values[0] for v in values):
                continue
            counts = {repr(v): values.count(v) for v in values}
            winner = max(values, key=lambda v: (counts[repr(v)], v == values[0]))  # a tie: the map
            if winner is None:
                settled[kind].pop(key, None)
            else:
                settled[kind][key] = winner
            said = "; ".join(f"{n}: {describe(kind, key, v) if v is not None else 'none'}"
                             for n, v in zip(names, values))
            chosen = describe(kind, key, winner) if winner is not None else "none"
            notes.append(f"{said} (followed: {chosen})")
    tiles = tuple(Tile(x, y, t, dir=d, express=e, rotation=r)
                  for (x, y), (t, d, e, r) in settled["tile"].items())
    lasers = tuple(Laser(x, y, d, key[1]) for key, (x, y, d) in settled["laser"].items())
    pushers = tuple(Pusher(x, y, d, ph) for (x, y), (d, ph) in settled["pusher"].items())
    mounts = {edge_key(*_mount(i)) for i in (*lasers, *pushers)}
    walls = tuple(_on_board(board, *k) for k in settled["wall"]) + tuple(
        w for w in board.walls if edge_key(w.x, w.y, w.side) in mounts)
    return replace(board, tiles=tiles, walls=walls, lasers=lasers, pushers=pushers), notes


def _on_board(board: Board, x: int, y: int, side: str) -> Wall:
    """An edge named by edge_key as a wall of a square of the board (the east and
    south edges of the board are named from inside)."""
    if x == board.width:
        return Wall(x - 1, y, "E")
    if y == board.height:
        return Wall(x, y - 1, "S")
    return Wall(x, y, side)


def placeholder_markers(board: Board) -> tuple[Flag, Dock]:
    """One dock and one flag on neighbouring plain squares, so that the board
    validates and races on its own; assembling leaves them behind."""
    busy = {(t.x, t.y) for t in board.tiles} | {(l.x, l.y) for l in board.lasers}
    walls = {edge_key(w.x, w.y, w.side) for w in board.walls}
    for y in range(board.height - 1, -1, -1):
        for x in range(board.width - 1):
            if ((x, y) not in busy and (x + 1, y) not in busy
                    and edge_key(x, y, "E") not in walls):
                note = "the library's, so that the board races on its own; assembling leaves it"
                return Flag(x + 1, y, note=note), Dock(x, y, "E", note=note)
    raise ValueError("no two neighbouring plain squares")


def library_file(source: Source, folder: Path) -> Scenario:
    course, notes = build(source, folder)
    bay = source.stem.startswith("docking-bay")
    if bay:
        flag, _ = placeholder_markers(course.board)
        flags, docks = (flag,), course.docks
    else:
        flag, dock = placeholder_markers(course.board)
        flags, docks = (flag,), (dock,)
    checked = "gbahns/robotmadness" + (" and the calibration course " + source.calibration[0]
                                       if source.calibration else "")
    text = (f"{source.name}: {'docking bay' if bay else 'factory board'} as printed, cut from the "
            f"map {source.tmx}.tmx at ({source.x}, {source.y}). Cross-checked against {checked}: ")
    text += ("every element agreed." if not notes else
             f"{len(notes)} disagreements, settled by the majority of the sources: "
             + " | ".join(notes))
    course = replace(course, name=source.name, author=GAME, description=text, flags=flags,
                     docks=docks)
    return canonical(replace(course, accept=accepted(course)))


ACCEPT = {"W405": "a belt leaving the board runs onto the next board of an assembled course",
          "W409": "a factory board has no docks: an assembled course takes the bay's",
          "W402": "as printed: a laser between two walls, its beam on its own square only"}


def accepted(course: Scenario) -> tuple[Accept, ...]:
    """The warnings that are right for a board on its own."""
    problems = validate_data(json.loads(dumps(course)))
    return tuple(Accept(p.code, p.x, p.y, note=ACCEPT[p.code]) for p in problems
                 if p.code in ACCEPT)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    if not (BLODIGE.exists() and GBAHNS.exists()):
        print("the snapshots of Blodige-roboter and robotmadness are not in /work/.mirror",
              file=sys.stderr)
        return 1
    stale = 0
    with tempfile.TemporaryDirectory() as tmp:
        for source in BOARDS:
            course = library_file(source, Path(tmp))
            target = LIBRARY / f"{source.stem}.json"
            text = dumps(course)
            disagreements = course.description.count(" | ") + 1 if "disagree" in (
                course.description or "") else 0
            print(f"{source.stem}: {len(course.board.tiles)} elements, {len(course.board.walls)} "
                  f"walls, {len(course.board.lasers)} lasers, {len(course.board.pushers)} pushers, "
                  f"{len(course.docks)} docks; {disagreements} disagreements")
            if args.check:
                stale += not target.exists() or target.read_text("utf-8") != text
            else:
                LIBRARY.mkdir(parents=True, exist_ok=True)
                write_text_atomic(target, text)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
