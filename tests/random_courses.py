"""Random courses for comparing the compiled race with the Python engine
(tests/test_compiled_differential.py, bench/soak_compiled.py), drawn by
construction from what the project declares, not from a hand list:

- every tile kind and edge element of engine/model/element_kinds.py that the
  compiled race does not refuse, each key drawn by its value kind;
- every field of Rules, drawn together from the JSON Schema's range for it
  (a rule the compiled race plays for some values only: mostly those);
- boards from 1x1 to 100x100, sparse or packed with elements, robots
  crowded (up to 64, docks anywhere but on deadly squares) or alone;
- factory boards (``boards``, which turn under ``board_turns_on_flag``):
  square ones under flags, a flag on none, now and then an oblong one, or none.

A value kind, rule or element this module cannot draw raises: add it here.
"""
from __future__ import annotations

import random
from dataclasses import fields

from rallyforge.engine.analysis.balance import compiled, play
from rallyforge.engine.format.loader import load_dict
from rallyforge.engine.format.schema import SCHEMA
from rallyforge.engine.model.element_kinds import (COUNT, DIRECTION, EDGE_LIST, FLAG, REGISTERS, ROTATION,
                                                   TILE_LIST, Key)
from rallyforge.engine.model.directions import INDEX, step
from rallyforge.engine.model.scenario import Rules, Scenario
from rallyforge.engine.rules.compiled import race as compiled_rules

DIRECTIONS = "NESW"
KINDS = [t for t in TILE_LIST if t.name not in compiled_rules.REFUSED_TILES]
EDGES = [e for e in EDGE_LIST if e.name not in compiled_rules.REFUSED_EDGES]
SAFE_KINDS = frozenset(t.name for t in KINDS if not t.deadly)
RULE_SCHEMA = SCHEMA["$defs"]["rules"]["properties"]
# rules whose largest values only make races longer: capped so that a course races quickly
SHORT = {"max_rounds": 12}


def value(rng: random.Random, key: Key) -> object:
    """A value of `key`, by its kind (element_kinds.VALUE_KINDS)."""
    if key.kind == DIRECTION:
        return rng.choice(DIRECTIONS)
    if key.kind == FLAG:
        return rng.random() < 0.5
    if key.kind == ROTATION:
        return rng.choice(("cw", "ccw"))
    if key.kind == REGISTERS:
        return sorted(rng.sample(range(1, 6), rng.randint(1, 5)))
    if key.kind == COUNT:
        return rng.randint(1, 3)
    raise ValueError(f"tests/random_courses.py cannot draw a {key.kind!r} value: add it")


def rules(rng: random.Random, rounds: int) -> dict:
    """Every rule (but the note) drawn from its schema range, at most `rounds` rounds;
    of the rules the compiled race refuses, one in a course out of twenty (the
    others race in C)."""
    out: dict = {}
    refused = [name for name, how in compiled_rules.FIELDS[Rules].items()
               if how == compiled_rules.REFUSED]
    off_default = rng.choice(refused) if refused and rng.random() < 0.05 else None
    for f in fields(Rules):
        if f.name == "note":
            continue
        if f.name not in RULE_SCHEMA:
            raise ValueError(f"tests/random_courses.py: the schema has no rule {f.name!r}")
        schema = RULE_SCHEMA[f.name]
        played = compiled_rules.FIELDS[Rules].get(f.name)
        if isinstance(played, tuple) and rng.random() < 0.9:
            out[f.name] = rng.choice(played)
        elif played == compiled_rules.REFUSED and f.name != off_default:
            continue
        elif "enum" in schema:
            out[f.name] = rng.choice(schema["enum"])
        elif schema.get("type") == "boolean":
            out[f.name] = rng.random() < 0.5
        elif schema.get("type") == "integer":
            low = schema["minimum"]
            high = min(schema["maximum"], SHORT.get(f.name, schema["maximum"]))
            if f.name == "max_rounds":
                high = min(high, rounds)
            out[f.name] = rng.randint(low, high) if rng.random() < 0.8 else rng.choice((low, high))
        else:
            raise ValueError(f"tests/random_courses.py cannot draw the rule {f.name!r}: add it")
        if f.name == off_default and out[f.name] == f.default:    # the refused rule, truly off
            if "enum" in schema:
                values = schema["enum"]
            elif schema.get("type") == "integer":
                values = [schema["minimum"], schema["maximum"]]
            else:
                values = [True, False]
            out[f.name] = next(v for v in values if v != f.default)
    if out.get("start_options") and out.get("start_option_choice") and rng.random() < 0.8:
        out[rng.choice(("start_options", "start_option_choice"))] = 0   # (mostly valid: E330)
    return out


def side(rng: random.Random) -> int:
    roll = rng.random()
    if roll < 0.03 or roll > 0.97:
        return 1 if roll < 0.5 else 100
    if roll < 0.25:
        return rng.randint(1, 3)
    if roll < 0.9:
        return rng.randint(3, 12)
    return rng.randint(12, 100)


def factory_boards(rng: random.Random, w: int, h: int, flags: list[dict]) -> list[dict]:
    """Factory boards inside the board and not overlapping (docs/format.md):
    most flags on a square one, a board anywhere, now and then an oblong
    one (under a flag: touching it turns nothing); none in one course of six."""
    if rng.random() < 1 / 6:
        return []
    spots = [(f["x"], f["y"]) for f in flags if rng.random() < 0.8]
    spots.append((rng.randrange(w), rng.randrange(h)))
    parts: list[dict] = []
    for x, y in spots:
        width = rng.randint(1, min(w, h, 12))
        height = width if rng.random() < 0.9 else rng.randint(1, min(h, 12))
        part = {"name": f"Board {len(parts) + 1}",
                "x": rng.randint(max(0, x - width + 1), min(x, w - width)),
                "y": rng.randint(max(0, y - height + 1), min(y, h - height)),
                "width": width, "height": height, "turn": rng.randrange(4)}
        if not any(part["x"] < o["x"] + o["width"] and o["x"] < part["x"] + width
                   and part["y"] < o["y"] + o["height"] and o["y"] < part["y"] + height
                   for o in parts):
            parts.append(part)
    return parts


def course_doc(rng: random.Random) -> dict:
    """A random course (a scenario document) that the schema accepts."""
    w, h = side(rng), side(rng)
    n = w * h
    density = rng.choice((0.0, 0.2, 0.5, 0.9))
    squares = [(x, y) for y in range(h) for x in range(w)]
    tiles, safe = [], []
    for x, y in squares:
        kind = rng.choice(KINDS) if rng.random() < density else KINDS[0]
        if kind.name != "floor":
            tiles.append({"x": x, "y": y, "type": kind.name,
                          **{k.name: value(rng, k) for k in kind.keys}})
        if kind.name in SAFE_KINDS:
            safe.append((x, y))
    if not safe:                                # one square to race on at least
        tiles.pop(rng.randrange(len(tiles)))
        safe = [sq for sq in squares if (sq[0], sq[1]) not in {(t["x"], t["y"]) for t in tiles}]
    board: dict = {"width": w, "height": h, "tiles": tiles}
    for edge in EDGES:
        count = min(n, int(rng.random() * density * n / 2) + rng.randint(0, 2))
        places = rng.sample(squares, count) if edge.one_per_square else [
            rng.choice(squares) for _ in range(count)]
        board[edge.list] = [{"x": x, "y": y, **{k.name: value(rng, k) for k in edge.keys}}
                            for x, y in places]
    crowd = rng.choice(("alone", "few", "crowded"))
    most = {"alone": 1, "few": 4, "crowded": 64}[crowd]
    places = rng.sample(safe, min(len(safe), most + 4))
    flag_count = rng.randint(1, min(4, len(places)))
    flags = [{"x": x, "y": y} for x, y in rng.sample(places, flag_count)]
    for flag in flags:          # now and then on a belt: with flags_move it rides (12.1)
        if rng.random() < 0.25:
            lay_belt(rng, board, flag["x"], flag["y"])
    dock_squares = [p for p in places if {"x": p[0], "y": p[1]} not in flags] or places
    docks = [{"x": x, "y": y, "facing": rng.choice(DIRECTIONS)} for x, y in dock_squares[:most]]
    big = n > 400 or len(docks) > 16
    boards = factory_boards(rng, w, h, flags)
    drawn = rules(rng, 3 if big else 12)
    if drawn.get("victory") == "elimination" and rng.random() < 0.9:
        flags = []      # 13.6: none (with flags, E343, the compiled race refuses the course)
    return {"format": "rally-scenario", "version": 1, "name": f"random {w}x{h}",
            "board": board, "flags": flags, "docks": docks, "boards": boards, "rules": drawn}


def lay_belt(rng: random.Random, board: dict, x: int, y: int) -> None:
    """A straight belt of 1 to 3 squares from (x, y) on, over what was there:
    a flag on it rides to its end, and then on, off the board or into a pit."""
    belt = next(kind for kind in KINDS if kind.name == "conveyor")
    keys = {k.name: value(rng, k) for k in belt.keys}
    for _ in range(rng.randint(1, 3)):
        if not (0 <= x < board["width"] and 0 <= y < board["height"]):
            return
        board["tiles"] = [t for t in board["tiles"] if (t["x"], t["y"]) != (x, y)]
        board["tiles"].append({"x": x, "y": y, "type": "conveyor", **keys})
        x, y = step(x, y, INDEX[keys["dir"]])


def random_course(seed: int) -> Scenario:
    return load_dict(course_doc(random.Random(seed)))


def compare(seed: int) -> str | None:
    """Race course `seed` both ways (every dock, then the first alone);
    None when they agree or the compiled race refused the course for what
    the table says it refuses, else what differs."""
    scenario = random_course(seed)
    docks = tuple(range(1, len(scenario.docks) + 1))
    why = compiled.python_reason(scenario, "search", len(docks))
    if why is not None:
        refused = compiled_rules.refusal(scenario)
        return None if why == refused else f"course {seed}: refused for {why}"
    in_c = compiled.race_summary(scenario, seed, docks)
    python = play.engine_summary(scenario, seed, docks, "search")
    if in_c != python:
        return f"course {seed} ({scenario.name}, {len(docks)} robots): {in_c} != {python}"
    if play.play_trial(scenario, seed, 1, "search") != play.engine_trial(scenario, seed, 1, "search"):
        return f"course {seed}: the trials differ"
    return None
