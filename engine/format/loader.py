"""Reading scenario files into the model, and writing them back in canonical form.

Two ways in: ``load_*`` is strict and raises ScenarioError carrying every
problem found; ``read_*`` is lenient, builds whatever can be read (skipping
broken elements) and returns it with the problems, for the editor and the
validator.

Problem codes found here (the schema's own are listed in engine/format/schema.py):

    E001  the file cannot be read (missing, a folder, no permission)
    E002  the file is not UTF-8 text
    E003  the file is not JSON
    E004  the file is larger than MAX_FILE_BYTES
    E005  the file is a Tiled map (TMX or Tiled JSON), which `rallyforge import` converts
    E201  something lies outside the board
    E202  two tiles on one square
    E203  two flags on one square
    E204  two docks on one square
    E205  two pushers on one square
    E206  registers not listed in increasing order
    E207  two levels on one square
"""
from __future__ import annotations

import contextlib
import errno
import json
import os
import secrets
import shutil
import stat
from collections.abc import Callable, Iterator
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any, Protocol, TypeVar

from rallyforge.engine.format.schema import schema_check, whole_numbers, within_bounds
from rallyforge.engine.format.tiled.mapfile import is_tiled_json, is_tmx
from rallyforge.engine.model.element_kinds import COUNT, EDGES, EdgeType, FLAG, Key, REGISTERS, TILES
from rallyforge.engine.model.json_types import FilePath, JsonObject
from rallyforge.engine.model.problems import ERROR, Problem, ScenarioError
from rallyforge.engine.model.scenario import (Accept, Area, Board, CHECK_KEYS, Card, Check, Dock, Entry,
                                   FactoryBoard, Flag, Goals, Published, Level, Placement, ProgramRound,
                                   RULE_NAMES, RobotSpec, Rules, Scenario, StoredCourseCard, Team, Tile,
                                   board_order)

T = TypeVar("T")


class _Placed(Protocol):
    """An element on a square (a tile, a wall, a flag...)."""
    @property
    def x(self) -> int: ...
    @property
    def y(self) -> int: ...


P = TypeVar("P", bound=_Placed)

# The editor's backups (editor/files.py) end so: they are no courses to list or check.
AUTOSAVE_SUFFIX = ".autosave.json"
TILED_MAP = "E005"      # the problem code of a Tiled map read as a course
MAX_FILE_BYTES = 10 * 1024 * 1024


# ---------------------------------------------------------------- reading files

def read_json(path: FilePath) -> tuple[object, list[Problem]]:
    """The parsed JSON document of a file and no problem, or None with the
    problem saying why the file could not be read. A file holding JSON
    ``null`` reads as None with no problem: tell the two apart by the problems."""
    path = Path(path)

    def fail(code: str, message: str) -> tuple[None, list[Problem]]:
        return None, [Problem(ERROR, code, message)]

    try:
        size = path.stat().st_size
        if not path.is_file():
            return fail("E001", f"{path} is not a file")
        if size > MAX_FILE_BYTES:
            return fail("E004", f"the file is {size / 1e6:.1f} MB; scenario files may be at most "
                                f"{MAX_FILE_BYTES // (1024 * 1024)} MB")
        raw = path.read_bytes()
    except FileNotFoundError:
        if path.is_symlink():
            return fail("E001", f"the link points to {os.readlink(path)}, which does not exist")
        return fail("E001", "no such file")
    except OSError as exc:
        return fail("E001", f"cannot read the file: {exc.strerror or exc}")
    if is_tmx(raw):
        return fail(TILED_MAP, tiled_map_message(path))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return fail("E002", f"the file is not UTF-8 text (bad byte at offset {exc.start})")
    data, problems = parse_json(text)
    if is_tiled_json(data):
        return fail(TILED_MAP, tiled_map_message(path))
    return data, problems


def tiled_map_message(path: Path) -> str:
    return (f"this is a Tiled map, not a course: import it with "
            f"`rallyforge import {path.name} -o {path.stem}-course.json` "
            f"(in the editor: File > Import Tiled Map)")


def parse_json(text: str) -> tuple[object, list[Problem]]:
    """The parsed document and no problem, or None with the problem (as read_json)."""
    try:
        return json.loads(text), []
    except json.JSONDecodeError as exc:
        return None, [Problem(ERROR, "E003", f"not valid JSON: {exc.msg} at line {exc.lineno}, "
                                            f"column {exc.colno}")]
    except ValueError as exc:  # e.g. an integer longer than Python's digit limit
        return None, [Problem(ERROR, "E003", f"not valid JSON: {exc}")]
    except RecursionError:
        return None, [Problem(ERROR, "E003", "not valid JSON: nested too deeply")]


def read_file(path: FilePath) -> tuple[Scenario | None, list[Problem]]:
    """Lenient: whatever can be read of the file, with every problem found."""
    data, problems = read_json(path)
    if problems:
        return None, problems
    return read_dict(data)


def load_file(path: FilePath) -> Scenario:
    """Strict: the scenario of a file, or ScenarioError with every problem."""
    data, problems = read_json(path)
    if problems:
        raise ScenarioError(problems)
    return load_dict(data)


def load_dict(data: object) -> Scenario:
    scenario, problems = read_dict(data)
    errors = [p for p in problems if p.is_error]
    if errors or scenario is None:
        raise ScenarioError(errors or problems)
    return scenario


def read_dict(data: object) -> tuple[Scenario | None, list[Problem]]:
    problems, unlisted = schema_check(data)
    if not isinstance(data, dict):
        return None, problems
    data = within_bounds(data)          # a list too long (E106) is read up to its bound
    data = whole_numbers(data)          # 9.0 where a whole number belongs is 9
    builder = _Builder(data, {p.pointer for p in problems} | unlisted)
    scenario = builder.scenario()
    return scenario, problems + builder.problems


# ---------------------------------------------------------------- building the model

class _Builder:
    """Builds the model from a parsed document, skipping every element that
    the schema found broken (or that breaks anyway), and checking what the
    model itself cannot hold: elements off the board and two on one square."""

    def __init__(self, data: JsonObject, bad_pointers: set[str]):
        self.data = data
        self.bad = bad_pointers
        # Every pointer at or above a bad one, so that broken() is one look-up
        # (testing each bad pointer per element is quadratic on a big broken file).
        self.bad_or_above = {p[:i] for p in bad_pointers for i in range(len(p) + 1)
                             if i == len(p) or p[i] == "/"}
        self.problems: list[Problem] = []

    def broken(self, where: str) -> bool:
        """Whether the schema found a problem at `where` or inside it."""
        return where in self.bad_or_above

    def error(self, code: str, message: str, where: str, x: int | None = None,
              y: int | None = None) -> None:
        self.problems.append(Problem(ERROR, code, message, where, x, y))

    def items(self, obj: object, key: str, where: str,
              build: Callable[[JsonObject], T]) -> list[tuple[str, T]]:
        """Build each element of list obj[key], skipping broken ones: (its
        JSON pointer, what `build` made of it)."""
        values = obj.get(key) if isinstance(obj, dict) else None
        out: list[tuple[str, T]] = []
        if not isinstance(values, list):
            return out
        for i, value in enumerate(values):
            at = f"{where}/{key}/{i}"
            if self.broken(at) or not isinstance(value, dict):
                continue
            try:
                out.append((at, build(value)))
            except (KeyError, TypeError, ValueError, AttributeError, OverflowError):
                continue
        return out

    def scenario(self) -> Scenario:
        d = self.data
        board = self.board(d.get("board"))
        flags = self.on_board_unique(board, self.items(d, "flags", "", _flag), "E203", "flag")
        docks = self.on_board_unique(board, self.items(d, "docks", "", _dock), "E204", "dock")
        located_robots = self.items(d, "robots", "", _robot)
        robots = [r for at, r in located_robots]
        for where, robot in located_robots:
            if robot.at and not board.in_bounds(robot.at.x, robot.at.y):
                self.error("E201", f"robot {robot.name!r} starts at ({robot.at.x}, {robot.at.y}), "
                                   f"outside the {board.width}x{board.height} board",
                           where + "/at", robot.at.x, robot.at.y)
        scenario = Scenario(
            name=_text(d.get("name")) or "Untitled",
            board=board,
            flags=tuple(flags),
            docks=tuple(docks),
            rules=self.rules(d.get("rules")),
            robots=tuple(robots),
            checks=tuple(c for at, c in self.items(d, "checks", "", _check)),
            accept=tuple(a for at, a in self.items(d, "accept", "", _accept)),
            author=_text(d.get("author")),
            description=_text(d.get("description")),
            note=_text(d.get("note")),
            card=_card(d.get("card")),
            goals=self.goals(d.get("goals")),
            boards=tuple(b for at, b in self.items(d, "boards", "", _factory_board)),
            published=self.published(d.get("published")),
            teams=tuple(t for at, t in self.items(d, "teams", "", _team)),
        )
        if (not scenario.flags and scenario.rules.victory != "elimination"
                and isinstance(d.get("flags"), list) and not d["flags"]):
            # the schema allows none for "elimination" only (docs/rules.md 13.6)
            self.error("E106", "flags: needs at least 1 flag", "/flags")
        if not self.given("/rules/options"):
            # the default keeps an older file's meaning (docs/format.md, `rules`)
            scenario = replace(scenario, rules=replace(scenario.rules,
                                                       options=scenario.implied_options()))
        return scenario

    def given(self, where: str) -> bool:
        """Whether the document has a sound value at pointer `where` (/a/b)."""
        value: object = self.data
        for key in where.split("/")[1:]:
            if not isinstance(value, dict) or key not in value:
                return False
            value = value[key]
        return not self.broken(where)

    def board(self, b: object) -> Board:
        if not isinstance(b, dict):
            b = {}
        width = _clamp(b.get("width"), 1, 100, 12)
        height = _clamp(b.get("height"), 1, 100, 12)
        size = Board(width, height)
        tiles = self.on_board_unique(size, self.items(b, "tiles", "/board", _tile), "E202", "tile")
        edges = {}
        for edge in EDGES.values():
            located = self.items(b, edge.list, "/board", partial(_edge, edge))
            edges[edge.list] = (self.on_board_unique(size, located, "E205", edge.name)
                                if edge.one_per_square else self.on_board(size, located, edge.name))
        for where, key, phases in _phase_lists(b):
            if not self.broken(where) and list(phases) != sorted(set(phases)):
                self.error("E206", f"the registers of a {key} must be listed in increasing "
                                   f"order without repeats, like [1, 3, 5]", where + "/phases")
        levels = self.on_board_unique(size, self.items(b, "levels", "/board", _level),
                                      "E207", "level")
        return Board(width, height, tuple(tiles), note=_text(b.get("note")), levels=tuple(levels),
                     **{name: tuple(items) for name, items in edges.items()}).canonical()

    def on_board(self, board: Board, located: list[tuple[str, P]], what: str) -> list[P]:
        kept = []
        for where, item in located:
            if board.in_bounds(item.x, item.y):
                kept.append(item)
            else:
                self.error("E201", f"the {what} at ({item.x}, {item.y}) lies outside the "
                                   f"{board.width}x{board.height} board", where, item.x, item.y)
        return kept

    def on_board_unique(self, board: Board, located: list[tuple[str, P]], code: str,
                        what: str) -> list[P]:
        seen: dict[tuple[int, int], str] = {}
        kept = []
        for where, item in located:
            if not board.in_bounds(item.x, item.y):
                self.on_board(board, [(where, item)], what)
                continue
            first = seen.get((item.x, item.y))
            if first is not None:
                self.error(code, f"two {what}s on square ({item.x}, {item.y}); the first is at "
                                 f"{first}", where, item.x, item.y)
                continue
            seen[(item.x, item.y)] = where
            kept.append(item)
        return kept

    def rules(self, r: object) -> Rules:
        if not isinstance(r, dict):
            return Rules()
        values = {}
        for name in RULE_NAMES:
            if name in r and not self.broken(f"/rules/{name}"):
                values[name] = r[name]
        return Rules(**values, note=_text(r.get("note")))

    def goals(self, g: object) -> Goals | None:
        if not isinstance(g, dict) or self.broken("/goals"):
            return None
        return Goals(fair=bool(g.get("fair", True)), length=_text(g.get("length")),
                     rounds=_int(g["rounds"]) if "rounds" in g else None,
                     deaths_per_leg=float(g["deaths_per_leg"]) if "deaths_per_leg" in g else None,
                     robots=_int(g["robots"]) if "robots" in g else None,
                     note=_text(g.get("note")),
                     team_size=_int(g["team_size"]) if "team_size" in g else None)

    def published(self, p: object) -> Published | None:
        if not isinstance(p, dict) or self.broken("/published"):
            return None
        return Published(id=str(p["id"]), page=_int(p["page"]),
                         players=tuple(_int(n) for n in p["players"]), length=str(p["length"]),
                         difficulty=_text(p.get("difficulty")),
                         number=_int(p["number"]) if "number" in p else None,
                         note=_text(p.get("note")))


def board_indexes(key: str, raw: list[Any], indexes: list[int]) -> list[int]:
    """`indexes` of elements of the board's list `key` ("tiles", "walls",
    ...) in a document, in the order the loader reads them in
    (Board.canonical); an element that cannot be read comes last."""
    build = _tile if key == "tiles" else _level if key == "levels" else \
        partial(_edge, next(e for e in EDGES.values() if e.list == key))

    def order(i: int) -> tuple[object, ...]:
        try:
            return (0, board_order(build(raw[i])))
        except (IndexError, KeyError, TypeError, ValueError, AttributeError, OverflowError):
            return (1,)
    return sorted(indexes, key=order)


def _phase_lists(b: JsonObject) -> Iterator[tuple[str, str | None, list[Any]]]:
    """(where, element name, registers) of every register list on the board."""
    for key in ("tiles", *(e.list for e in EDGES.values())):
        values = b.get(key)
        if isinstance(values, list):
            for i, v in enumerate(values):
                if isinstance(v, dict) and isinstance(v.get("phases"), list):
                    label = v.get("type") if key == "tiles" else key[:-1]
                    yield f"/board/{key}/{i}", label, v["phases"]


def _card(value: object) -> StoredCourseCard | None:
    """A stored course card (its content is the card command's to judge);
    None for one holding NaN or an infinity (E105), which could not be written back."""
    if not isinstance(value, dict) or not isinstance(value.get("play_hash"), str):
        return None
    try:
        return StoredCourseCard(value["play_hash"], json.dumps(value, ensure_ascii=False,
                                                         allow_nan=False))
    except ValueError:
        return None


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _clamp(value: object, lo: int, hi: int, default: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        return default
    try:
        return max(lo, min(hi, int(value)))
    except OverflowError:       # an infinite float (JSON's 1e999 or Infinity)
        return default


def _int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or int(value) != value:
        raise TypeError("not an integer")
    return int(value)


def _phases(value: object) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise TypeError("not a list")
    return tuple(_int(v) for v in value)


# Reading a key's value by its kind (the schema has checked the others' values).
_READ: dict[str, Callable[[object], object]] = {FLAG: bool, REGISTERS: _phases, COUNT: _int}


def _values(keys: tuple[Key, ...], d: JsonObject) -> JsonObject:
    out = {}
    for key in keys:
        value = d.get(key.name, key.default) if key.optional else d[key.name]
        out[key.name] = _READ.get(key.kind, _same)(value)
    return out


def _same(value: object) -> object:
    return value


def _tile(t: JsonObject) -> Tile:
    return Tile(_int(t["x"]), _int(t["y"]), t["type"], **_values(TILES[t["type"]].keys, t),
                note=_text(t.get("note")))


def _edge(edge: EdgeType, d: JsonObject) -> Any:
    return edge.model(_int(d["x"]), _int(d["y"]), **_values(edge.keys, d), note=_text(d.get("note")))


def _level(v: JsonObject) -> Level:
    return Level(_int(v["x"]), _int(v["y"]), _int(v["level"]), _text(v.get("note")))


def _flag(f: JsonObject) -> Flag:
    return Flag(_int(f["x"]), _int(f["y"]), _text(f.get("note")))


def _factory_board(b: JsonObject) -> FactoryBoard:
    return FactoryBoard(b["name"], _int(b["x"]), _int(b["y"]), _int(b["width"]), _int(b["height"]),
                        _int(b.get("turn", 0)), _text(b.get("note")))


def _factory_board_doc(b: FactoryBoard) -> JsonObject:
    doc = {"name": b.name, "x": b.x, "y": b.y, "width": b.width, "height": b.height}
    if b.turn:
        doc["turn"] = b.turn
    return _noted(doc, b.note)


def _dock(d: JsonObject) -> Dock:
    return Dock(_int(d["x"]), _int(d["y"]), d["facing"], _text(d.get("note")))


def _round(entry: object) -> ProgramRound:
    if isinstance(entry, list):
        return ProgramRound(tuple(Entry.parse(c) for c in entry))
    if not isinstance(entry, dict):
        raise TypeError("not a round")
    conditional = entry.get("conditional")
    flywheel = entry.get("flywheel")
    return ProgramRound(
        tuple(Entry.parse(c) for c in entry.get("cards", [])),
        bool(entry.get("power_down", False)), _text(entry.get("note")),
        use=tuple(entry.get("use", ())),
        abort_at=_int(entry["abort_at"]) if "abort_at" in entry else None,
        recompile=bool(entry.get("recompile", False)),
        conditional=(Card.parse(conditional["card"]), _int(conditional["register"]))
        if conditional is not None else None,
        flywheel=Card.parse(flywheel) if flywheel is not None else None,
        take_flywheel=bool(entry.get("take_flywheel", False)))


def _options(value: object) -> int | tuple[str, ...] | None:
    if value is None:
        return None
    if isinstance(value, list):
        return tuple(str(v) for v in value)
    return _int(value)


def _robot(r: JsonObject) -> RobotSpec:
    at = r.get("at")
    return RobotSpec(
        name=r["name"],
        dock=_int(r["dock"]) if "dock" in r else None,
        at=Placement(_int(at["x"]), _int(at["y"]), at["facing"], _text(at.get("note")))
        if at is not None else None,
        damage=_int(r["damage"]) if "damage" in r else None,
        lives=_int(r["lives"]) if "lives" in r else None,
        flags=_int(r.get("flags", 0)),
        options=_options(r.get("options")),
        powered_down=bool(r.get("powered_down", False)),
        bot=_text(r.get("bot")),
        program=tuple(_round(e) for e in r.get("program", [])),
        shield_with_options=bool(r.get("shield_with_options", False)),
        note=_text(r.get("note")),
        team=_text(r.get("team")),
        role=_text(r.get("role")),
    )


def _team(t: JsonObject) -> Team:
    home = t.get("home")
    return Team(str(t["name"]), tuple(_int(d) for d in t["docks"]),
                tuple(str(r) for r in t.get("roles", ())),
                Area(_int(home["x"]), _int(home["y"]), _int(home["width"]), _int(home["height"]))
                if isinstance(home, dict) else None, _text(t.get("note")))


def _team_doc(t: Team) -> JsonObject:
    doc: JsonObject = {"name": t.name, "docks": list(t.docks)}
    if t.roles:
        doc["roles"] = list(t.roles)
    if t.home is not None:
        h = t.home
        doc["home"] = {"x": h.x, "y": h.y, "width": h.width, "height": h.height}
    return _noted(doc, t.note)


def _accept(a: JsonObject) -> Accept:
    x, y = a.get("x"), a.get("y")
    return Accept(a["code"], None if x is None else _int(x), None if y is None else _int(y),
                  _text(a.get("note")))


def _accept_doc(a: Accept) -> JsonObject:
    doc: JsonObject = {"code": a.code}
    _put(doc, "x", a.x)
    _put(doc, "y", a.y)
    return _noted(doc, a.note)


def _check(c: JsonObject) -> Check:
    expect = []
    for key in CHECK_KEYS:
        if key in c:
            value = c[key]
            if key == "archive":
                value = (_int(value["x"]), _int(value["y"]))
            elif key == "option_cards":
                value = tuple(sorted(str(v) for v in value))
            expect.append((key, value))
    archive = c.get("archive")
    return Check(
        round=_int(c["round"]), robot=c["robot"],
        register=_int(c["register"]) if "register" in c else None,
        expect=tuple(expect), note=_text(c.get("note")),
        archive_note=_text(archive.get("note")) if isinstance(archive, dict) else None,
    )


# ---------------------------------------------------------------- writing

def to_dict(s: Scenario) -> JsonObject:
    """The canonical document: keys in the format's order, board lists sorted
    by square, defaults left out."""
    b = s.board
    doc: JsonObject = {"format": "rally-scenario", "version": 1, "name": s.name}
    _put(doc, "author", s.author)
    _put(doc, "description", s.description)
    _put(doc, "note", s.note)
    board: JsonObject = {"width": b.width, "height": b.height}
    _put(board, "note", b.note)
    b = b.canonical()
    board["tiles"] = [_element_doc({"x": t.x, "y": t.y, "type": t.type}, TILES[t.type].keys, t)
                      for t in b.tiles]
    for edge in EDGES.values():
        board[edge.list] = [_element_doc({"x": e.x, "y": e.y}, edge.keys, e)
                            for e in getattr(b, edge.list)]
    if b.levels:
        board["levels"] = [_noted({"x": v.x, "y": v.y, "level": v.level}, v.note)
                           for v in b.levels]
    doc["board"] = board
    doc["flags"] = [_noted({"x": f.x, "y": f.y}, f.note) for f in s.flags]
    doc["docks"] = [_noted({"x": d.x, "y": d.y, "facing": d.facing}, d.note) for d in s.docks]
    if s.boards:
        doc["boards"] = [_factory_board_doc(b) for b in s.boards]
    rules = s.rules.changed()
    implied = s.implied_options()
    if s.rules.options != implied:
        rules["options"] = s.rules.options      # say it: the file's default would differ
    else:
        rules.pop("options", None)
    if rules:
        doc["rules"] = rules
    if s.goals is not None:
        doc["goals"] = _goals_doc(s.goals)
    if s.published is not None:
        doc["published"] = _published_doc(s.published)
    if s.robots:
        doc["robots"] = [_robot_doc(r) for r in s.robots]
    if s.checks:
        doc["checks"] = [_check_doc(c) for c in s.checks]
    if s.card is not None:
        doc["card"] = s.card.data   # judged against the goals by its writer (card.build.kept_judged)
    if s.accept:
        doc["accept"] = [_accept_doc(a) for a in s.accept]
    if s.teams:
        doc["teams"] = [_team_doc(t) for t in s.teams]
    return doc


def _put(doc: JsonObject, key: str, value: object) -> None:
    if value is not None:
        doc[key] = value


def _noted(doc: JsonObject, note: str | None) -> JsonObject:
    _put(doc, "note", note)
    return doc


def _element_doc(doc: JsonObject, keys: tuple[Key, ...], element: Any) -> JsonObject:
    for key in keys:
        value = getattr(element, key.name)
        if not (key.omit_default and value == key.default):
            doc[key.name] = list(value) if key.kind == REGISTERS else value
    return _noted(doc, element.note)


def _goals_doc(g: Goals) -> JsonObject:
    doc: JsonObject = {}
    _put(doc, "robots", g.robots)
    if not g.fair:
        doc["fair"] = False
    _put(doc, "length", g.length)
    _put(doc, "rounds", g.rounds)
    _put(doc, "deaths_per_leg", g.deaths_per_leg)
    _put(doc, "team_size", g.team_size)
    return _noted(doc, g.note)


def _published_doc(p: Published) -> JsonObject:
    doc: JsonObject = {"id": p.id, "number": p.number, "page": p.page, "players": list(p.players),
                 "length": p.length}
    if p.number is None:
        del doc["number"]
    _put(doc, "difficulty", p.difficulty)
    return _noted(doc, p.note)


def _robot_doc(r: RobotSpec) -> JsonObject:
    doc: JsonObject = {"name": r.name}
    _put(doc, "dock", r.dock)
    if r.at is not None:
        doc["at"] = _noted({"x": r.at.x, "y": r.at.y, "facing": r.at.facing}, r.at.note)
    for key, default in (("damage", None), ("lives", None), ("flags", 0), ("options", None),
                         ("powered_down", False), ("bot", None)):
        value = getattr(r, key)
        if value != default:
            doc[key] = list(value) if isinstance(value, tuple) else value
    if r.program:
        doc["program"] = [_round_doc(p) for p in r.program]
    if r.shield_with_options:
        doc["shield_with_options"] = True
    _put(doc, "team", r.team)
    _put(doc, "role", r.role)
    return _noted(doc, r.note)


def _round_doc(p: ProgramRound) -> list[str] | JsonObject:
    cards = [str(c) for c in p.cards]
    if not p.as_object:
        return cards
    doc: JsonObject = {"cards": cards, "power_down": p.power_down}
    if p.use:
        doc["use"] = list(p.use)
    _put(doc, "abort_at", p.abort_at)
    if p.recompile:
        doc["recompile"] = True
    if p.conditional is not None:
        doc["conditional"] = {"card": str(p.conditional[0]), "register": p.conditional[1]}
    if p.flywheel is not None:
        doc["flywheel"] = str(p.flywheel)
    if p.take_flywheel:
        doc["take_flywheel"] = True
    return _noted(doc, p.note)


def _check_doc(c: Check) -> JsonObject:
    doc: JsonObject = {"round": c.round}
    _put(doc, "register", c.register)
    doc["robot"] = c.robot
    for key, value in c.expect:
        if key == "archive" and isinstance(value, tuple):
            value = _noted({"x": value[0], "y": value[1]}, c.archive_note)
        elif key == "option_cards" and isinstance(value, tuple):
            value = list(value)
        doc[key] = value
    return _noted(doc, c.note)


def dumps(s: Scenario) -> str:
    """The canonical text: 2-space indent, one small object per line, so that
    a saved course diffs square by square."""
    return document_text(to_dict(s))


def document_text(doc: JsonObject) -> str:
    """A course document (as to_dict makes it) in the canonical text."""
    return _format(doc, 0) + "\n"


def _format(value: object, depth: int) -> str:
    flat = json.dumps(value, ensure_ascii=False, allow_nan=False)   # (ValueError: never NaN)
    if not isinstance(value, (dict, list)) or (_is_leaf(value) and len(flat) + 2 * depth <= 100):
        return flat
    pad, inner = "  " * depth, "  " * (depth + 1)
    if isinstance(value, list):
        if not value:
            return "[]"
        body = ",\n".join(inner + _format(v, depth + 1) for v in value)
        return "[\n" + body + "\n" + pad + "]"
    body = ",\n".join(f"{inner}{json.dumps(k, ensure_ascii=False)}: {_format(v, depth + 1)}"
                      for k, v in value.items())
    return "{\n" + body + "\n" + pad + "}"


def _is_leaf(value: JsonObject | list[Any]) -> bool:
    """A container whose members are scalars, or lists or dicts of scalars."""
    members = value.values() if isinstance(value, dict) else value
    for m in members:
        if isinstance(m, dict):
            if any(isinstance(v, (dict, list)) for v in m.values()):
                return False
        elif isinstance(m, list):
            if any(isinstance(v, (dict, list)) for v in m):
                return False
    return True


def save_file(s: Scenario, path: FilePath) -> None:
    """Write the canonical text atomically: a temporary file beside the
    target, flushed to disk, then renamed over it."""
    write_text_atomic(path, dumps(s))


def write_text_atomic(path: FilePath, text: str) -> None:
    write_bytes_atomic(path, text.encode("utf-8"))


def write_bytes_atomic(path: FilePath, data: bytes) -> None:
    """Write a file atomically: a temporary file beside it, flushed to disk,
    then renamed over it. Through a symbolic link, the link's target is
    written and the link kept. Only a regular file is ever replaced (a
    device or pipe is refused with OSError); a replaced file keeps its mode,
    a new one gets the mode the umask gives any new file."""
    path = Path(os.path.realpath(path))
    try:
        mode: int | None = path.stat().st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        raise OSError(errno.EINVAL, f"{path} is not a regular file (a folder, device or pipe); "
                                    "only a regular file is replaced")
    fd, tmp = _new_file_beside(path)
    UNFINISHED.add(Path(tmp))
    try:
        if mode is not None:
            os.fchmod(fd, stat.S_IMODE(mode))
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    finally:
        UNFINISHED.discard(Path(tmp))


# Files and folders being written beside their place, not yet moved into it
# (write_bytes_atomic's; a balance report's, engine/analysis/balance/report.py):
# what a process quitting at once removes (remove_unfinished), so that it
# leaves nothing half written behind.
UNFINISHED: set[Path] = set()


def remove_unfinished() -> None:
    for path in list(UNFINISHED):
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        else:
            with contextlib.suppress(OSError):
                path.unlink()


def _new_file_beside(path: Path) -> tuple[int, str]:
    """A new, empty temporary file in the folder of `path`, opened for
    writing, created with mode 0666 so that the process's umask applies as
    for any new file (reading the umask would mean changing it, for every
    thread)."""
    while True:
        tmp = str(path.parent / f".{path.name}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), tmp
        except FileExistsError:
            continue
