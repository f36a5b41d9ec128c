"""Hypothesis strategies for random *valid* scenario documents (format v1).

``scenarios()`` draws plain dicts, exactly what ``json.load`` gives for a
scenario file, that are valid under the format (``docs/format.md``): the schema
accepts them and the course has no errors (it may have warnings, e.g. a
conveyor pointing off the board or a dock in a laser beam). Use it for
property tests::

    from hypothesis import given
    from tests.strategies import scenarios

    @given(scenarios())
    def test_loads(doc): ...

    @given(scenarios(robots=True, bot_names=("search",), max_side=8))
    def test_races(doc): ...

What every drawn document satisfies:

- board 1..12 squares wide and high (``min_side``/``max_side``); tiles on
  distinct squares inside the board, each with exactly the keys of its type;
  walls inside the board, no edge listed twice (not even from both sides);
  lasers and pushers inside the board, at most one of each per square;
  register lists (``phases``) sorted and distinct;
- 1..4 flags and 1..8 docks, each list on distinct squares of plain floor
  (a flag and a dock may share a square);
- ``levels`` (sometimes) on squares off the walkway, and up to two ramps off
  it with the levels around them made to match (E316 never fires);
- reachability by construction: a walkway of floor squares (one whole row,
  plus a column from it to each flag and dock) carries no tile but floor, no
  wall between two of its squares, and no laser or pusher; so every flag and
  dock is reachable from every other by single steps;
- ``rules`` (sometimes) with a random subset of options, mutually coherent
  (``respawn_damage`` and ``lock_from_damage`` below ``destroy_at_damage``);
- ``robots`` (sometimes) with unique names, on distinct docks (by number,
  or by their place in the list) or on distinct walkway squares (``at``), with
  starting values that fit the rules, and scripted programs of valid cards;
- ``checks`` (only with robots) naming those robots, with coherent
  expectations (off the board means x, y and facing null).

``bot`` keys are only written when ``bot_names`` is given, since which bots
exist is the engine's business, not the file format's.

Smaller pieces, for tests of their own: ``cards()``, ``phases()``,
``program_entries()``, and the strategies ``directions``, ``names`` (robot
names, from ``NAME_POOL``) and ``notes`` (any UTF-8 text).
"""
from __future__ import annotations

from functools import lru_cache

from hypothesis import strategies as st

from rallyforge.engine.model.element_kinds import (DEADLY_TYPES, DIRECTION, FLAG, REGISTERS, ROTATION, TILES,
                                        TILE_TYPES)

DIRECTIONS = ("N", "E", "S", "W")
CARD_KINDS = ("move1", "move2", "move3", "back", "left", "right", "uturn")
_STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}

directions = st.sampled_from(DIRECTIONS)
notes = st.text(st.characters(codec="utf-8"), max_size=20)
NAME_POOL = ("Twonky", "Zoom Bot", "Spin Bot", "Hammer Bot", "Hulk X90", "Squash Bot",
             "Trundle Bot", "Twitch", "R", "Ünïcode-bot", "bot 7", "Smash", "Gizmo", "Whirl",
             "Puck", "Rivet")
names = st.sampled_from(NAME_POOL)


_BOOLS = st.booleans()
_NOTE = st.one_of(st.just({}), notes.map(lambda n: {"note": n}))
_NO_NOTE = st.just({})


def _maybe_note(enabled: bool = True) -> st.SearchStrategy[dict]:
    """{} or {"note": ...} (always {} when not enabled)."""
    return _NOTE if enabled else _NO_NOTE


def cards() -> st.SearchStrategy[str]:
    """A program card: a kind, optionally with a priority 1..999 ("move2:700")."""
    return st.tuples(st.sampled_from(CARD_KINDS), st.none() | st.integers(1, 999)).map(
        lambda kp: kp[0] if kp[1] is None else f"{kp[0]}:{kp[1]}")


def phases() -> st.SearchStrategy[list[int]]:
    """A register list: 1 to 5 distinct registers in increasing order."""
    return st.sets(st.integers(1, 5), min_size=1, max_size=5).map(sorted)


def program_entries() -> st.SearchStrategy[list | dict]:
    """One scripted round: up to 5 cards, or {"cards": [...], "power_down": bool}."""
    card_list = st.lists(cards(), max_size=5)
    return card_list | st.builds(
        lambda c, p, n: {"cards": c, "power_down": p, **n}, card_list, _BOOLS, _NOTE)


# Ramps need matching levels around them (else the course has an error): _ramps draws them.
_KINDS = st.sampled_from([kind for kind in TILE_TYPES if kind != "ramp"])
# A value of each kind of key (elements_table.VALUE_KINDS) a tile type takes.
_VALUES = {DIRECTION: directions, FLAG: _BOOLS, ROTATION: st.sampled_from(("cw", "ccw")),
           REGISTERS: phases()}


def _edge(x: int, y: int, side: str) -> tuple[int, int, str]:
    """One name per edge: side N of (x, y) is side S of (x, y - 1)."""
    if side == "S":
        return (x, y + 1, "N")
    if side == "E":
        return (x + 1, y, "W")
    return (x, y, side)


def _walkway(width: int, height: int, row: int, points) -> set[tuple[int, int]]:
    """Row ``row`` plus, for each point, the column from it to that row."""
    walk = {(x, row) for x in range(width)}
    for px, py in points:
        for y in range(min(py, row), max(py, row) + 1):
            walk.add((px, y))
    return walk


def _tile(draw, x: int, y: int, kind: str, maybe_note) -> dict:
    tile: dict = {"x": x, "y": y, "type": kind}
    for key in TILES[kind].keys:
        if not key.optional or draw(_BOOLS):
            tile[key.name] = draw(_VALUES[key.kind])
    tile.update(draw(maybe_note))
    return tile


def _ramps(draw, width: int, height: int, walk: set, off_walk: list, tiles: list,
           levels: list) -> tuple[list, list]:
    """Up to two ramps off the walkway, the square ahead off it too, with the
    levels around them made to match (the ramp one above the square behind,
    the square ahead at the ramp's level); no square serves two ramps."""
    level = {(v["x"], v["y"]): v for v in levels}
    used: set[tuple[int, int]] = set()
    for x, y in draw(st.lists(st.sampled_from(off_walk), unique=True, max_size=2)):
        d = draw(directions)
        dx, dy = _STEP[d]
        behind, ahead = (x - dx, y - dy), (x + dx, y + dy)
        if not all(0 <= sx < width and 0 <= sy < height for sx, sy in (behind, ahead)) \
                or ahead in walk or {(x, y), behind, ahead} & used:
            continue
        top = (level[behind]["level"] if behind in level else 0) + 1
        if top > 3:
            continue
        used |= {(x, y), behind, ahead}
        for square in ((x, y), ahead):
            level[square] = {**level.get(square, {}), "x": square[0], "y": square[1], "level": top}
        tiles = [t for t in tiles if (t["x"], t["y"]) != (x, y)]
        tiles.append({"x": x, "y": y, "type": "ramp", "dir": d})
    return tiles, list(level.values())


@lru_cache(maxsize=None)
def _ints(low: int, high: int) -> st.SearchStrategy[int]:
    """st.integers, built once per range (fresh strategies are slow to draw from)."""
    return st.integers(low, high)


_RULE_KEYS = ("lives", "hand_size", "destroy_at_damage", "lock_from_damage", "respawn_damage",
              "robot_lasers", "flags_repair", "archive_on_any_flag", "teleport_backup_distance",
              "max_rounds", "finish", "fall_damage")
_RULE_SUBSETS = st.lists(_BOOLS, min_size=len(_RULE_KEYS), max_size=len(_RULE_KEYS)).map(
    lambda keep: {key for key, k in zip(_RULE_KEYS, keep) if k})
_FINISH = st.sampled_from(("first", "all"))


def _rules(draw) -> dict:
    destroy = draw(_ints(1, 20))
    values = {
        "lives": _ints(1, 10),
        "hand_size": _ints(1, 20),
        "destroy_at_damage": st.just(destroy),
        "lock_from_damage": _ints(1, destroy),
        "respawn_damage": _ints(0, min(9, destroy - 1)),
        "robot_lasers": _BOOLS,
        "flags_repair": _BOOLS,
        "archive_on_any_flag": _BOOLS,
        "teleport_backup_distance": _ints(1, 10),
        "max_rounds": _ints(1, 10000),
        "finish": _FINISH,
        "fall_damage": _ints(0, 9),
    }
    chosen = draw(_RULE_SUBSETS)
    return {key: draw(values[key]) for key in _RULE_KEYS if key in chosen}


@st.composite
def scenarios(draw, *, min_side: int = 1, max_side: int = 12, max_flags: int = 4,
              max_docks: int = 8, robots: bool | None = None, checks: bool | None = None,
              rules: bool | None = None, with_notes: bool = True,
              bot_names: tuple[str, ...] = ()) -> dict:
    """A valid scenario document (a dict), see the module docstring.

    ``robots``, ``checks``, ``rules``: True always writes that section, False
    never, None sometimes (checks only ever come with robots). ``bot_names``:
    bots a robot may name in ``bot`` (none by default). ``with_notes``: put
    ``note`` keys on some objects.
    """
    width = draw(_ints(min_side, max_side), label="width")
    height = draw(_ints(min_side, max_side), label="height")
    squares = [(x, y) for y in range(height) for x in range(width)]
    square = st.sampled_from(squares)
    maybe_note = _maybe_note(with_notes)

    n_flags = draw(_ints(1, min(max_flags, len(squares))), label="flags")
    flag_squares = draw(st.lists(square, min_size=n_flags, max_size=n_flags, unique=True))
    n_docks = draw(_ints(1, min(max_docks, len(squares))), label="docks")
    dock_squares = draw(st.lists(square, min_size=n_docks, max_size=n_docks, unique=True))
    row = draw(_ints(0, height - 1), label="walkway row")
    walk = _walkway(width, height, row, flag_squares + dock_squares)
    off_walk = [s for s in squares if s not in walk]

    # Tiles: anything off the walkway, plain floor (with a note, say) on it.
    tiles = []
    if off_walk:
        count = draw(_ints(0, len(off_walk)), label="tiles")
        for x, y in draw(st.lists(st.sampled_from(off_walk), unique=True, min_size=count,
                                  max_size=count)):
            tiles.append(_tile(draw, x, y, draw(_KINDS), maybe_note))
    for x, y in draw(st.lists(st.sampled_from(sorted(walk)), unique=True, max_size=3)):
        tiles.append(_tile(draw, x, y, "floor", maybe_note))
    deadly = {(t["x"], t["y"]) for t in tiles if t["type"] in DEADLY_TYPES}
    assert not deadly & walk

    # Walls: any edge but one between two walkway squares; each edge once.
    walls, edges = [], set()
    count = draw(_ints(0, len(squares)), label="walls")
    for x, y, side in draw(st.lists(st.tuples(_ints(0, width - 1),
                                              _ints(0, height - 1), directions),
                                    min_size=count, max_size=count)):
        dx, dy = _STEP[side]
        edge = _edge(x, y, side)
        if edge in edges or ((x, y) in walk and (x + dx, y + dy) in walk):
            continue
        edges.add(edge)
        walls.append({"x": x, "y": y, "side": side, **draw(maybe_note)})

    # Lasers and pushers hang on a wall of their own square, so keep them off the walkway.
    lasers, pushers = [], []
    if off_walk:
        for x, y in draw(st.lists(st.sampled_from(off_walk), unique=True, max_size=4)):
            laser = {"x": x, "y": y, "dir": draw(directions)}
            if draw(_BOOLS):
                laser["beams"] = draw(_ints(1, 3))
            lasers.append({**laser, **draw(maybe_note)})
        for x, y in draw(st.lists(st.sampled_from(off_walk), unique=True, max_size=4)):
            pushers.append({"x": x, "y": y, "dir": draw(directions), "phases": draw(_VALUES[REGISTERS]),
                            **draw(maybe_note)})

    # Levels: off the walkway, which stays at level 0 so that its squares join up.
    levels = []
    if off_walk:
        for x, y in draw(st.lists(st.sampled_from(off_walk), unique=True, max_size=6)):
            levels.append({"x": x, "y": y, "level": draw(_ints(1, 3)), **draw(maybe_note)})
        tiles, levels = _ramps(draw, width, height, walk, off_walk, tiles, levels)

    board: dict = {"width": width, "height": height}
    for key, items in (("tiles", tiles), ("walls", walls), ("lasers", lasers),
                       ("pushers", pushers), ("levels", levels)):
        if items or draw(_BOOLS):
            board[key] = items
    board.update(draw(maybe_note))

    doc: dict = {"format": "rally-scenario", "version": 1, "name": draw(names)}
    if draw(_BOOLS):
        doc["author"] = draw(notes)
    if draw(_BOOLS):
        doc["description"] = draw(notes)
    doc["board"] = board
    doc["flags"] = [{"x": x, "y": y, **draw(maybe_note)} for x, y in flag_squares]
    doc["docks"] = [{"x": x, "y": y, "facing": draw(directions), **draw(maybe_note)}
                    for x, y in dock_squares]

    rule_values: dict = {}
    if rules if rules is not None else draw(_BOOLS, label="rules"):
        rule_values = _rules(draw)
        doc["rules"] = {**rule_values, **draw(maybe_note)}
    lives = rule_values.get("lives", 3)
    destroy = rule_values.get("destroy_at_damage", 10)

    racers: list[dict] = []
    if robots if robots is not None else draw(_BOOLS, label="robots"):
        racers = _robots(draw, doc, walk, lives, destroy, maybe_note, bot_names)
        doc["robots"] = racers
    if racers and (checks if checks is not None else draw(_BOOLS, label="checks")):
        safe = [s for s in squares if s not in deadly]
        doc["checks"] = _checks(draw, [r["name"] for r in racers], safe, len(flag_squares),
                                lives, destroy, maybe_note)
    doc.update(draw(maybe_note))
    return doc


_ROBOT_KEYS = ("damage", "lives", "flags", "options", "powered_down", "bot", "program")
_ROBOT_SUBSETS = st.lists(_BOOLS, min_size=len(_ROBOT_KEYS), max_size=len(_ROBOT_KEYS)).map(
    lambda keep: {key for key, k in zip(_ROBOT_KEYS, keep) if k})
_PROGRAMS = st.lists(program_entries(), max_size=4)


def _robots(draw, doc: dict, walk: set, lives: int, destroy: int, maybe_note,
            bot_names: tuple[str, ...]) -> list[dict]:
    docks = doc["docks"]
    n_on_docks = draw(_ints(0, min(len(docks), 6)))
    numbers = draw(st.permutations(range(1, len(docks) + 1)))[:n_on_docks]
    taken = {(docks[n - 1]["x"], docks[n - 1]["y"]) for n in numbers}
    free = sorted(walk - taken)
    starts = draw(st.lists(st.sampled_from(free), unique=True, min_size=0 if numbers else 1,
                           max_size=min(3, len(free)))) if free else []
    places = [("dock", n) for n in numbers] + [("at", s) for s in starts]
    places = draw(st.permutations(places))
    robot_names = draw(st.lists(names, min_size=len(places), max_size=len(places), unique=True))
    bots = st.sampled_from(bot_names) if bot_names else None
    out = []
    for index, ((how, where), name) in enumerate(zip(places, robot_names)):
        robot: dict = {"name": name}
        if how == "dock":
            if where != index + 1 or draw(_BOOLS):
                robot["dock"] = where
        else:
            robot["at"] = {"x": where[0], "y": where[1], "facing": draw(directions),
                           **draw(maybe_note)}
        optional = {
            "damage": _ints(0, min(9, destroy - 1)),
            "lives": _ints(1, lives),
            "flags": _ints(0, len(doc["flags"]) - 1),
            "options": _ints(0, 3),
            "powered_down": _BOOLS,
            "bot": bots,
            "program": _PROGRAMS,
        }
        chosen = draw(_ROBOT_SUBSETS)
        for key in _ROBOT_KEYS:
            if key in chosen and optional[key] is not None:
                robot[key] = draw(optional[key])
        robot.update(draw(maybe_note))
        out.append(robot)
    return out


_CHECK_KEYS = ("x", "y", "facing", "alive", "out", "damage", "lives", "flags", "options",
               "powered_down", "archive")
_CHECK_SUBSETS = st.lists(_BOOLS, min_size=len(_CHECK_KEYS), max_size=len(_CHECK_KEYS)).map(
    lambda keep: {key for key, k in zip(_CHECK_KEYS, keep) if k})


def _checks(draw, robot_names: list[str], safe: list, n_flags: int, lives: int, destroy: int,
            maybe_note) -> list[dict]:
    robots, squares = st.sampled_from(robot_names), st.sampled_from(safe)
    out = []
    for _ in range(draw(_ints(0, 5))):
        check: dict = {"round": draw(_ints(1, 20)), "robot": draw(robots)}
        if draw(_BOOLS):
            check["register"] = draw(_ints(1, 5))
        on_board = draw(_BOOLS)
        x, y = draw(squares) if on_board else (None, None)
        chosen = draw(_CHECK_SUBSETS)
        optional = {
            "x": lambda: x,
            "y": lambda: y,
            "facing": lambda: draw(directions) if on_board else None,
            "alive": lambda: on_board,
            "out": lambda: False if on_board else draw(_BOOLS),
            "damage": lambda: draw(_ints(0, destroy)),
            "lives": lambda: draw(_ints(0, lives)),
            "flags": lambda: draw(_ints(0, n_flags)),
            "options": lambda: draw(_ints(0, 3)),
            "powered_down": lambda: draw(_BOOLS),
            "archive": lambda: dict(zip("xy", draw(squares))),
        }
        for key in _CHECK_KEYS:
            if key in chosen:
                check[key] = optional[key]()
        check.update(draw(maybe_note))
        out.append(check)
    return out
