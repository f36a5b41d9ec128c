"""The first tier of validation: does the file have the structure of format v1?

The JSON Schema ``schema/scenario.schema.json`` states the structure of the
format described in ``docs/format.md``; this module checks a parsed document against it
and says what is wrong in sentences a designer understands, each prefixed
with a readable path::

    board.tiles[4]: "dir" must be one of N, E, S, W, not "north"
    board.width: must be at most 100, not 140
    (top level): missing required key "board"

``schema_problems(data)`` returns every such problem (never raises, whatever
``data`` is), up to MAX_LISTED of them: a file broken everywhere then ends
with one E109 saying which items hold the problems not listed. Each is an
error with a stable code, the JSON pointer of the offending value (of the
object, for a missing key) and, when the nearest enclosing object has
integer ``x`` and ``y`` (a tile, wall, flag...; not a check, whose x and y
are what it expects), that square:

    ====  ==========================================================
    code  meaning
    ====  ==========================================================
    E101  wrong type (text where a number belongs, a list for an object...)
    E102  not one of the allowed values (a direction, tile type, constant)
    E103  a required key is missing
    E104  an unknown key, or a key this kind of tile does not take
    E105  out of range: a number too small or too large, NaN or an infinity
          (anywhere: JSON cannot hold them), empty text
    E106  a list too short or too long, or with repeated items
    E107  not a program card (``move1``..``uturn``, optional ``:1``-``:999``), or a
          register entry that breaks the option grammar (docs/format.md,
          "Option cards in a script")
    E108  anything else the schema rejects
    E109  (last, after MAX_LISTED others) which broken items of the big lists
          have problems not listed
    ====  ==========================================================

Checks that need more than one value at a time (squares inside the board,
registers in increasing order, unique names, reachability) are the loader's
and the validator's, not the schema's.

Speed. jsonschema spends about 20 microseconds per sub-schema it descends
into, so a 100x100 board (10,000 tiles) takes seconds however the schema is
arranged. jsonschema-rs, compiled from the same schema, says first whether
the document is valid and where it is not (a few milliseconds for 10,000
tiles, each check stopping at the first problem); jsonschema then words
the problems of the rest of the document (the big lists emptied: tiles,
walls, lasers, pushers, robots, checks), then of each broken item of the big
lists alone, and stops once MAX_LISTED are worded: a 10 MB file broken
everywhere costs no more than its first thousand problems. A document
holding what JSON cannot (NaN, which jsonschema-rs would read as null) goes
to jsonschema whole.

Long lists. Every list the format allows has a ``maxItems`` in the schema
(a test insists). Before anything else, a list longer than its bound is
reported once (E106, with its length) and only its first allowed items are
checked further: a 10,000-entry ``phases`` list costs no more than a
5-entry one, and no check compares every pair of a long list.
tests/test_schema.py checks on randomly broken documents that this changes
no problem.

Ranges the printed rules leave open, chosen in the schema (docs/format.md lists them): rules.hand_size 1-20,
destroy_at_damage and lock_from_damage 1-20, respawn_damage 0-9,
teleport_backup_distance 1-10, max_rounds 1-10000; in checks, damage 0-20
(damage counts up to destroy_at_damage) and lives 0-10 (0: out). Coordinates
are only said to be >= 0 here; the board bounds them later.
"""
from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

import jsonschema_rs

from rallyforge.engine.model.json_types import JsonObject
from rallyforge.engine.model.option_cards import entry_problem
from rallyforge.engine.model.problems import ERROR, Problem, pointer, pointer_parts

if TYPE_CHECKING:       # (imported when first needed: _jsonschema_validator)
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

# A value's place in a document: its keys and list indices from the top.
_Path = list[str | int]
# A place in the schema's tree of objects: its property names from the top.
_Keys = tuple[str, ...]
# Places as a tree of keys, what a place holds under the key None (_trie).
_Trie = dict[str | None, Any]

__all__ = ["MAX_LISTED", "SCHEMA", "goal_problem", "schema_check", "schema_path", "schema_problems",
           "validator", "readable_path", "whole_numbers", "within_bounds"]

_RESOURCE = "scenario.schema.json"


def schema_path() -> Path:
    """Where the schema file lives (inside the ``schema`` package)."""
    return Path(str(files("rallyforge.schema").joinpath(_RESOURCE)))


SCHEMA: JsonObject = json.loads(
    files("rallyforge.schema").joinpath(_RESOURCE).read_text(encoding="utf-8"))

# Facts the messages need, read from the schema so that they cannot drift from it.
_DEFS = SCHEMA["$defs"]
CARD_PATTERN: str = _DEFS["card"]["pattern"]
REGISTER_PATTERN: str = _DEFS["register"]["pattern"]
_CARD_HELP = ("cards are move1, move2, move3, back, left, right, uturn, "
              "optionally with :PRIORITY 1-999")
_TILE_BASE_KEYS = tuple(_DEFS["tile"]["properties"])
# The most schema problems worded for one document; an E109 then says what is left.
MAX_LISTED = 1000


def _tile_branches() -> list[tuple[str, JsonObject]]:
    """(tile type, the definition its if/then applies) for each tile type."""
    return [(branch["if"]["properties"]["type"]["const"],
             _DEFS[branch["then"]["$ref"].rsplit("/", 1)[1]])
            for branch in _DEFS["tile"]["allOf"]]


# The keys each tile type takes, and which definition belongs to which type.
_TILE_KEYS: dict[str, tuple[str, ...]] = {
    kind: tuple(definition["propertyNames"]["enum"]) for kind, definition in _tile_branches()}
_TILE_SCHEMAS: dict[int, str] = {id(definition): kind for kind, definition in _tile_branches()}


@cache
def validator() -> Draft202012Validator:
    """The one Draft 2020-12 validator of the scenario schema, built on first use."""
    return _jsonschema_validator(SCHEMA)


def _jsonschema_validator(schema: JsonObject) -> Draft202012Validator:
    """jsonschema's validator of `schema`. jsonschema is imported only here
    (0.05 s): it words the problems of a document, which a valid one lacks."""
    from jsonschema import Draft202012Validator
    return Draft202012Validator(schema)


# ---------------------------------------------------------------- entry point

def schema_problems(data: object) -> list[Problem]:
    """Every way ``data`` (a parsed JSON document) breaks the schema, in file
    order: at most MAX_LISTED worded, then one E109 saying what is not."""
    return schema_check(data)[0]


def schema_check(data: object) -> tuple[list[Problem], set[str]]:
    """schema_problems(data), and the JSON pointer of each item of a big list
    (a tile, a check...) that is broken but whose problems are not all listed,
    for the loader to skip it as it skips the items the problems name."""
    if not isinstance(data, dict):
        return [Problem(ERROR, "E101", "(top level): a scenario must be a JSON object "
                        f"{{...}}, not {_describe(data)}", "")], set()
    found: dict[tuple[str, str, str], tuple[tuple[int, ...], Problem]] = {}
    typed: set[str] = set()
    unlisted: list[_Path] = []

    refused: set[str] = set()           # the non-finite numbers: one E105 each, nothing more

    def new(path: _Path, code: str, message: str) -> bool:
        at = pointer(*path)             # one wrong-type problem per value (if/else repeats it)
        return (code, at, message) not in found and not (code == "E101" and at in typed) \
            and at not in refused

    def add(path: _Path, code: str, message: str) -> None:
        if new(path, code, message):
            at = pointer(*path)
            if code == "E101":
                typed.add(at)
            found[(code, at, message)] = (_file_order(data, path),
                                          _problem(data, path, code, message))

    def word(errors: Iterable[ValidationError], start: _Path, limit: float) -> bool:
        """Add the problems of ``errors`` (paths under ``start``) while fewer
        than ``limit`` are listed; False when it stops before the last one."""
        for error in errors:
            for leaf in _leaves(error):
                path = start + list(leaf.absolute_path)
                try:
                    made = _convert(leaf, path, data)
                except Exception:       # a problem we fail to word must still be reported
                    made = [(path, "E108", f"{readable_path(path)}: {leaf.message}")]
                for where, code, message in made:
                    if len(found) >= limit and new(where, code, message):
                        return False
                    add(where, code, message)
        return True

    partly = False
    try:
        bounded, too_long = _cut_long_lists(data)
        for path, count, (limit, schema) in too_long:
            add(*_too_many(path, schema, count, int(limit)))
        non_finite = _non_finite(bounded)
        for path in non_finite:
            add(path, "E105", _not_finite(path, _at(bounded, path)))
        refused.update(pointer(*path) for path in non_finite)
        try:
            failures = _failures(bounded)
        except (ValueError, TypeError):     # JSON the screen cannot read: jsonschema judges it all
            word(validator().iter_errors(bounded), [], float("inf"))
        else:
            if not failures and not too_long and not non_finite:
                return [], set()
            # all but the big lists (no longer than the schema's bounds), then
            # their broken items one by one while fewer than MAX_LISTED problems are listed
            skeleton = _replaced(bounded, {path: [] for path in _LISTS})
            word(validator().iter_errors(skeleton), [], float("inf"))
            items = [place for place in failures if place]
            for k, place in enumerate(items):
                before = len(found)
                errors = _item_validator(tuple(place[:-1])).iter_errors(_at(bounded, place))
                if not word(errors, place, MAX_LISTED):
                    unlisted, partly = items[k:], len(found) > before
                    break
    except RecursionError:
        add([], "E108", "(top level): the document is nested too deeply to check")
    except Exception as exc:            # e.g. a number too long to print (not from json.load)
        add([], "E108", f"(top level): the document could not be checked: {exc}")
    problems = [problem for _, problem in sorted(found.values(), key=lambda item: item[0])]
    if unlisted:
        problems.append(_not_listed(unlisted, partly))
    return problems, {pointer(*place) for place in unlisted}


def _not_listed(unlisted: list[_Path], partly: bool) -> Problem:
    """The E109 that closes a list of problems cut at MAX_LISTED: which broken
    items of the big lists have problems not listed (the first one ``partly``
    listed already)."""
    counts: dict[str, int] = {}
    for place in unlisted[1:] if partly else unlisted:
        noun = _NOUNS.get(str(place[-2]), "item")
        counts[noun] = counts.get(noun, 0) + 1
    said = [f"{readable_path(unlisted[0])} has more"] if partly else []
    if counts:
        more = [f"{count:,} more {noun}{'' if count == 1 else 's'}"
                for noun, count in counts.items()]
        listed = more[0] if len(more) == 1 else ", ".join(more[:-1]) + " and " + more[-1]
        one = sum(counts.values()) == 1
        said.append(f"{listed} {'has' if one else 'have'} problems too")
    return Problem(ERROR, "E109", f"(top level): only the first {MAX_LISTED:,} problems with "
                   f"the file's structure are listed; {', and '.join(said)} "
                   f"(fix these, then validate again)", "")


def _problem(data: JsonObject, path: _Path, code: str, message: str) -> Problem:
    x, y = _square(data, path, itself=code == "E103")
    return Problem(ERROR, code, message, pointer(*path), x, y)


def _leaves(error: ValidationError) -> list[ValidationError]:
    """The error itself, or for a failed anyOf/oneOf the deepest useful one inside."""
    from jsonschema.exceptions import best_match
    while error.context:
        error = best_match(error.context)
    return [error]


# ---------------------------------------------------------------- wording

def readable_path(path: Sequence[str | int]) -> str:
    """``board.tiles[4].dir`` for ["board", "tiles", 4, "dir"]; "(top level)" for []."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif isinstance(part, str) and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", part):
            out += ("." if out else "") + part
        else:
            out += f"[{_describe(part)}]"
    return out or "(top level)"


def _where(path: _Path) -> tuple[str, str]:
    """Message prefix and subject for a value at ``path``.

    A key of an element of a list (a tile, a wall, a robot...) is named in the
    message after the element, which is what the designer looks for:
    ``board.tiles[4]: "dir" ...``; anything else is named by its full path:
    ``board.width: ...``.
    """
    if len(path) >= 2 and isinstance(path[-1], str) and isinstance(path[-2], int):
        return readable_path(path[:-1]), f"{_describe(path[-1])} "
    return readable_path(path), ""


_TYPE_WORDS = {
    "integer": "a whole number",
    "number": "a number",
    "string": "text in quotes",
    "boolean": "true or false",
    "object": "an object {...}",
    "array": "a list [...]",
    "null": "null",
}

_NOUNS = {"flags": "flag", "docks": "dock", "phases": "register", "cards": "card",
          "program": "round", "tiles": "tile", "walls": "wall", "lasers": "laser",
          "pushers": "pusher", "robots": "robot", "checks": "check",
          "accept": "accepted warning"}


def _describe(value: object, limit: int = 40) -> str:
    """A short rendering of a value for a message: "north", 140, true, null, a list."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, str):
        text = value if len(value) <= limit else value[:limit - 3] + "..."
        return json.dumps(text, ensure_ascii=False)
    if isinstance(value, int):
        text = str(value) if value.bit_length() < 128 else "a very large number"
        return text
    if isinstance(value, float):
        return json.dumps(value)        # 2.5, and NaN or Infinity as Python's json writes them
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    return f"a Python {type(value).__name__}"


def _plain(value: object) -> str:
    """An allowed value as listed in a message: N, cw, first, null, 1."""
    return value if isinstance(value, str) else _describe(value)


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _noun(path: _Path, schema: JsonObject) -> str:
    """What the items of the list at ``path`` are called: card, register, flag..."""
    if schema is _DEFS["cards"]:
        return "card"
    if schema is _DEFS["phases"]:
        return "register"
    names = [part for part in path if isinstance(part, str)]
    return _NOUNS.get(names[-1], "item") if names else "item"


def _tile_type(data: JsonObject, path: _Path) -> str | None:
    """The type of the tile at ``path`` when it is one (with a valid type)."""
    if len(path) == 3 and path[:2] == ["board", "tiles"] and isinstance(path[2], int):
        tile = _at(data, path)
        if isinstance(tile, dict) and isinstance(tile.get("type"), str) \
                and tile["type"] in _TILE_KEYS:
            return tile["type"]
    return None


def _tile_takes(kind: str) -> str:
    extra = [k for k in _TILE_KEYS[kind] if k not in ("x", "y", "type")]
    if extra == ["note"]:
        return f'a "{kind}" tile takes only x, y, type, note'
    return f'a "{kind}" tile takes {", ".join(extra)}'


def _unknown_key(data: JsonObject, path: _Path, key: str,
                 allowed: Sequence[str]) -> tuple[_Path, str, str]:
    kind = _tile_type(data, path)
    prefix = readable_path(path)
    if kind is not None:
        if key in _TILE_BASE_KEYS:
            message = (f"{prefix}: {_describe(key)} does not belong on a {_describe(kind)} tile "
                       f"({_tile_takes(kind)})")
        else:
            message = f"{prefix}: unknown key {_describe(key)} ({_tile_takes(kind)})"
    else:
        message = f"{prefix}: unknown key {_describe(key)} (allowed keys are {', '.join(allowed)})"
    return (path + [key], "E104", message)


def _convert(error: ValidationError, path: _Path, data: JsonObject) -> list[tuple[_Path, str, str]]:
    """(path, code, message) for one jsonschema error."""
    # JSON values; set in every error a validator makes (unset only in a bare ValidationError)
    kind: Any = error.validator
    value: Any = error.validator_value
    instance: Any = error.instance
    schema = error.schema if isinstance(error.schema, dict) else {}
    prefix, subject = _where(path)
    head = f"{prefix}: {subject}"

    if "propertyNames" in error.relative_schema_path:
        allowed = schema.get("enum", [])
        return [_unknown_key(data, path, instance, allowed)]
    if kind == "additionalProperties":
        props = schema.get("properties", {})
        return [_unknown_key(data, path, key, list(props))
                for key in instance if key not in props]
    if kind == "required":
        tile = _TILE_SCHEMAS.get(id(error.schema))
        extra = f' for a "{tile}" tile' if tile else ""
        return [(path, "E103", f"{readable_path(path)}: missing required key "
                 f"{_describe(key)}{extra}") for key in value if key not in instance]
    if schema.get("pattern") == REGISTER_PATTERN and kind == "pattern" \
            and any(c in instance for c in "+/@"):
        return [(path, "E107", f"{readable_path(path)}: {_describe(instance)} is not a register "
                 f"({entry_problem(instance)})")]
    if schema.get("pattern") in (CARD_PATTERN, REGISTER_PATTERN) and kind in ("type", "pattern"):
        return [(path, "E107", f"{readable_path(path)}: {_describe(instance)} is not a card "
                 f"({_CARD_HELP})")]
    if kind == "type":
        types = [value] if isinstance(value, str) else list(value)
        wanted = " or ".join(_TYPE_WORDS.get(t, t) for t in types)
        return [(path, "E101", f"{head}must be {wanted}, not {_describe(instance)}")]
    if kind == "enum":
        listed = ", ".join(_plain(v) for v in value)
        return [(path, "E102", f"{head}must be one of {listed}, not {_describe(instance)}")]
    if kind == "const":
        return [(path, "E102", f"{head}must be {_describe(value)}, not {_describe(instance)}")]
    if kind in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        bound = {"minimum": "at least", "maximum": "at most", "exclusiveMinimum": "more than",
                 "exclusiveMaximum": "less than"}[kind]
        return [(path, "E105", f"{head}must be {bound} {_describe(value)}, "
                 f"not {_describe(instance)}")]
    if kind == "minLength":
        wanted = "must not be empty" if value == 1 else \
            f"must be at least {_plural(value, 'character')} long"
        return [(path, "E105", f"{head}{wanted}")]
    if kind == "maxLength":
        return [(path, "E105", f"{head}must be at most {_plural(value, 'character')} long")]
    if kind == "minItems":
        noun = _noun(path, schema)
        return [(path, "E106", f"{head}needs at least {_plural(value, noun)}")]
    if kind == "maxItems":
        return [_too_many(path, schema, len(instance), value)]
    if kind == "uniqueItems":
        repeated = _repeated(instance)
        what = _describe(repeated) if repeated is not _NOTHING else "an item"
        return [(path, "E106", f"{head}lists {what} more than once")]
    if kind == "pattern":
        return [(path, "E108", f"{head}{_describe(instance)} does not match the pattern "
                 f"{value}")]
    return [(path, "E108", f"{head}{error.message}")]


def _too_many(path: _Path, schema: JsonObject, count: int, limit: int) -> tuple[_Path, str, str]:
    prefix, subject = _where(path)
    return (path, "E106", f"{prefix}: {subject}has {_plural(count, _noun(path, schema))}, "
            f"at most {limit} allowed")


_NOTHING = object()


def _equal(one: object, two: object) -> bool:
    """Equality as JSON Schema means it (true is not 1), as jsonschema implements it."""
    if one is two:
        return True
    if isinstance(one, str) or isinstance(two, str):
        return one == two
    if isinstance(one, Sequence) and isinstance(two, Sequence):
        return len(one) == len(two) and all(_equal(a, b) for a, b in zip(one, two))
    if isinstance(one, Mapping) and isinstance(two, Mapping):
        return one.keys() == two.keys() and all(_equal(one[k], two[k]) for k in one)
    if isinstance(one, bool) or isinstance(two, bool):
        return isinstance(one, bool) and isinstance(two, bool) and one == two
    return one == two


def _repeated(items: list[Any]) -> object:
    """The first item equal (as _equal says) to one before it, or _NOTHING;
    one pass, whatever the length."""
    seen = set()
    for item in items:
        key = _identity(item)
        if key in seen:
            return item
        seen.add(key)
    return _NOTHING


def _identity(value: object) -> object:
    """A hashable stand-in equal for values _equal calls equal (1 and 1.0 are,
    true and 1 are not)."""
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, str):
        return ("text", value)
    if isinstance(value, Mapping):
        return ("object", frozenset((k, _identity(v)) for k, v in value.items()))
    if isinstance(value, Sequence):
        return ("list", tuple(_identity(v) for v in value))
    try:
        hash(value)
    except TypeError:
        return ("other", id(value))
    return ("value", value)


def _not_finite(path: _Path, value: object) -> str:
    prefix, subject = _where(path)
    return f"{prefix}: {subject}must be a finite number, not {_describe(value)}"


@cache
def _goals_validator() -> Draft202012Validator:
    return _jsonschema_validator({**_DEFS["goals"], "$defs": _DEFS})


def goal_problem(key: str, value: object) -> str | None:
    """What a file giving ``value`` as its goals' ``key`` is told (E1xx), or
    None when it may: the command line's goals take the same values."""
    path: _Path = ["goals", key]
    if _non_finite(value):
        return _not_finite(path, value)
    for error in _goals_validator().iter_errors({key: value}):
        return _convert(_leaves(error)[0], [*path[:1], *error.absolute_path], {})[0][2]
    return None


def _non_finite(data: object) -> list[_Path]:
    """The path of every NaN or infinite number in a document (Python's JSON
    reads NaN, Infinity and 1e999): JSON cannot hold them, so no key of the
    format takes one, even where the schema's ``number`` would."""
    try:
        json.dumps(data, allow_nan=False)
        return []
    except (ValueError, TypeError):     # one there (or a value JSON cannot hold): look where
        pass
    found: list[_Path] = []
    todo: list[tuple[_Path, object]] = [([], data)]
    while todo:
        path, node = todo.pop()
        if isinstance(node, float) and not math.isfinite(node):
            found.append(path)
        elif isinstance(node, dict):
            todo.extend((path + [key], value) for key, value in node.items())
        elif isinstance(node, list):
            todo.extend((path + [i], value) for i, value in enumerate(node))
    return found


# ---------------------------------------------------------------- places

def _at(data: object, path: Sequence[str | int]) -> object:
    node: Any = data                    # JSON: indexed as far as it goes
    for part in path:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return None
    return node


def _square(data: JsonObject, path: _Path, itself: bool) -> tuple[int | None, int | None]:
    """x and y of the nearest object enclosing the value at ``path`` (or of that
    value itself, when ``itself``: a missing key is a problem of its object),
    if that object has both. A check's x and y are what it expects, not its
    place: nothing under "checks" has a square."""
    if path and path[0] == "checks":
        return None, None
    nodes: list[object] = [data]
    for part in path:
        nodes.append(_at(nodes[-1], [part]))
    if not itself:
        nodes.pop()
    for node in reversed(nodes):
        if isinstance(node, dict):
            x, y = node.get("x"), node.get("y")
            if _is_int(x) and _is_int(y):
                return x, y
            return None, None
    return None, None


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _file_order(data: JsonObject, path: _Path) -> tuple[int, ...]:
    """A sort key that lists problems in the order their places appear in the file."""
    key: list[int] = []
    node: object = data
    for part in path:
        if isinstance(node, dict):
            keys = list(node)
            key.append(keys.index(part) if part in node else len(keys))
        elif isinstance(node, list) and isinstance(part, int):
            key.append(part)
        else:
            key.append(0)
        node = _at(node, [part])
    return tuple(key)


# ---------------------------------------------------------------- the fast screen

@cache
def _screen() -> jsonschema_rs.Draft202012Validator:
    """jsonschema-rs's compiled validator of the same schema, built on first use."""
    return jsonschema_rs.Draft202012Validator(SCHEMA)


def _failures(data: JsonObject) -> list[_Path]:
    """Where jsonschema-rs finds the document broken: [] when it is valid;
    else the top ([]: anything outside the big lists may be broken) and the
    path of each broken item of the big lists (_LISTS), in order. Raises
    ValueError or TypeError when it cannot judge the document: a key that is
    not text, a Python object, or NaN or Infinity where null may stand (it
    reads them as null; elsewhere it rejects them as jsonschema does, so the
    lists that take no null are not searched). Each check stops at the first
    problem it finds: no error is built, however broken the document."""
    json.dumps(_replaced(data, {path: [] for path in _NULL_FREE}), allow_nan=False)
    if _screen().is_valid(data):
        return []
    failures: list[_Path] = [[]]
    for path in _LISTS:
        items = _at(data, path)
        if isinstance(items, list):
            judge = _item_screen(path)
            failures += [[*path, i] for i, item in enumerate(items) if not judge.is_valid(item)]
    return failures


def _item_schema(path: _Keys) -> JsonObject:
    """The schema of an item of the big list at ``path``, standing alone."""
    return {**_ITEMS[path], "$defs": _DEFS}


@cache
def _item_screen(path: _Keys) -> jsonschema_rs.Draft202012Validator:
    """jsonschema-rs's validator of an item of the big list at ``path``."""
    return jsonschema_rs.Draft202012Validator(_item_schema(path))


@cache
def _item_validator(path: _Keys) -> Draft202012Validator:
    """jsonschema's validator of an item of the big list at ``path``."""
    return _jsonschema_validator(_item_schema(path))


def _plain_arrays(root: JsonObject) -> list[tuple[_Keys, JsonObject]]:
    """Lists reached from the top through object properties only, whose schema
    says nothing about the list as a whole but its bound (only ``type: array``,
    ``items`` and ``maxItems``, which _cut_long_lists has met already):
    dropping valid items from such a list cannot change what the schema says
    about the rest of the document. Returns (path, items schema) pairs."""
    found: list[tuple[_Keys, JsonObject]] = []

    def walk(node: object, path: _Keys) -> None:
        while isinstance(node, dict) and set(node) - _ANNOTATIONS == {"$ref"}:
            node = _resolve(root, node["$ref"])
        if not isinstance(node, dict):
            return
        keywords = set(node) - _ANNOTATIONS
        if keywords <= {"type", "items", "maxItems"} and node.get("type") == "array" \
                and "items" in node:
            found.append((path, node["items"]))
        elif keywords <= {"type", "required", "properties", "additionalProperties"} \
                and node.get("type") == "object":
            for key, sub in node.get("properties", {}).items():
                walk(sub, path + (key,))
    walk(root, ())
    return found


def _resolve(root: JsonObject, ref: str) -> object:
    """The schema a local ``$ref`` ("#/$defs/board") points at."""
    node: Any = root                    # JSON: a missing part raises
    for part in pointer_parts(ref.removeprefix("#")):
        node = node[part]
    return node


def _takes_null(root: JsonObject, node: object, refs: set[str] | None = None) -> bool:
    """Whether null is allowed anywhere in the schema ``node`` ($refs followed)."""
    refs = set() if refs is None else refs
    if isinstance(node, list):
        return any(_takes_null(root, item, refs) for item in node)
    if not isinstance(node, dict):
        return False
    types = node.get("type")
    if types == "null" or (isinstance(types, list) and "null" in types) \
            or ("const" in node and node["const"] is None) or None in node.get("enum", ()):
        return True
    ref = node.get("$ref")
    if isinstance(ref, str) and ref not in refs:
        refs.add(ref)
        if _takes_null(root, _resolve(root, ref), refs):
            return True
    return any(_takes_null(root, value, refs) for key, value in node.items()
               if key not in ("enum", "const", "$ref") and isinstance(value, (dict, list)))


_ANNOTATIONS = frozenset({"title", "description", "default", "examples", "$comment", "$schema",
                          "$id", "$defs", "deprecated", "readOnly", "writeOnly"})
_ITEMS = dict(_plain_arrays(SCHEMA))
_LISTS = list(_ITEMS)
_NULL_FREE = [path for path, items in _ITEMS.items() if not _takes_null(SCHEMA, items)]


def _walk_schema(root: JsonObject, visit: Callable[[JsonObject, _Keys], None]) -> None:
    """Call ``visit(node, place)`` on every schema node of ``root``, $refs
    followed, with the place in a document it describes (keys, and "*" for
    any item of a list)."""
    def walk(node: object, path: _Keys, refs: frozenset[str]) -> None:
        if not isinstance(node, dict):
            return
        ref = node.get("$ref")
        if isinstance(ref, str) and ref not in refs:
            walk(_resolve(root, ref), path, refs | {ref})
        visit(node, path)
        for key in ("allOf", "anyOf", "oneOf"):
            for sub in node.get(key, ()):
                walk(sub, path, refs)
        for key in ("then", "else"):
            walk(node.get(key), path, refs)
        for key, sub in node.get("properties", {}).items():
            walk(sub, path + (key,), refs)
        walk(node.get("items"), path + ("*",), refs)
    walk(root, (), frozenset())


def _list_bounds(root: JsonObject) -> dict[_Keys, tuple[float, JsonObject]]:
    """Per place in a document, the most items a list there may have, with
    the schema node saying so: the loosest ``maxItems`` where branches
    differ, infinity where a list there has none."""
    bounds: dict[_Keys, tuple[float, JsonObject]] = {}

    def visit(node: JsonObject, path: _Keys) -> None:
        if node.get("type") == "array" or "items" in node or "maxItems" in node:
            limit = node.get("maxItems", float("inf"))
            if path not in bounds or limit > bounds[path][0]:
                bounds[path] = (limit, node)
    _walk_schema(root, visit)
    return bounds


def _integer_places(root: JsonObject) -> dict[_Keys, bool]:
    """The places in a document where the schema takes a whole number."""
    places: dict[_Keys, bool] = {}

    def visit(node: JsonObject, path: _Keys) -> None:
        types = node.get("type")
        if types == "integer" or (isinstance(types, list) and "integer" in types):
            places[path] = True
    _walk_schema(root, visit)
    return places


_BOUNDS = _list_bounds(SCHEMA)


def _trie(bounds: Mapping[_Keys, object]) -> _Trie:
    """The places as a tree of keys; what a place holds (its bound) under the key None."""
    root: _Trie = {}
    for path, bound in bounds.items():
        node = root
        for part in path:
            node = node.setdefault(part, {})
        node[None] = bound
    return root


_BOUND_TRIE = _trie({path: bound for path, bound in _BOUNDS.items() if bound[0] < float("inf")})
_INTEGER_TRIE = _trie(_integer_places(SCHEMA))


_Doc = TypeVar("_Doc")


def within_bounds(data: _Doc) -> _Doc:
    """``data`` with every list longer than the schema allows cut to its
    allowed items (a copy sharing all it can; ``data`` itself when nothing
    is cut): what the rest of validation and the loader read, so that no
    check grows with a list's length beyond its bound."""
    return cast(_Doc, _cut_long_lists(data)[0]) if isinstance(data, dict) else data



def whole_numbers(data: _Doc) -> _Doc:
    """``data`` with every whole number written with a decimal point (``9.0``,
    ``-0.0``, ``1e2``) where the format takes a whole number made an ``int``
    (a copy sharing all it can): JSON does not tell 9 from 9.0, the schema
    accepts both, and the model and the rules count with ints."""
    def visit(value: object, node: _Trie) -> object:
        if isinstance(value, float):
            return int(value) if None in node and value.is_integer() else value
        if isinstance(value, list):
            inner = node.get("*")
            if inner is None:
                return value
            items = [visit(item, inner) for item in value]
            return items if any(a is not b for a, b in zip(items, value)) else value
        if isinstance(value, dict):
            copy = None
            for key, inner in node.items():
                if key is None or key == "*" or key not in value:
                    continue
                new = visit(value[key], inner)
                if new is not value[key]:
                    copy = copy if copy is not None else dict(value)
                    copy[key] = new
            return value if copy is None else copy
        return value
    return cast(_Doc, visit(data, _INTEGER_TRIE))


def _cut_long_lists(data: JsonObject
                    ) -> tuple[JsonObject, list[tuple[_Path, int, tuple[float, JsonObject]]]]:
    """A copy of ``data`` (sharing all it can) whose lists longer than their
    bound keep only their first allowed items, and (path, length, bound) of
    each list cut."""
    cut: list[tuple[_Path, int, tuple[float, JsonObject]]] = []

    def visit(value: object, node: _Trie, path: _Path) -> object:
        if isinstance(value, list):
            bound = node.get(None)
            if bound is not None and len(value) > bound[0]:
                cut.append((list(path), len(value), bound))
                value = value[:int(bound[0])]
            inner = node.get("*")
            if inner is None:
                return value
            items = [visit(item, inner, path + [i]) for i, item in enumerate(value)]
            changed = any(a is not b for a, b in zip(items, value))
            return items if changed or len(items) < len(value) else value
        if isinstance(value, dict):
            copy = None
            for key, inner in node.items():
                if key is None or key == "*" or key not in value:
                    continue
                new = visit(value[key], inner, path + [key])
                if new is not value[key]:
                    copy = copy if copy is not None else dict(value)
                    copy[key] = new
            return value if copy is None else copy
        return value

    bounded = visit(data, _BOUND_TRIE, [])
    return bounded if isinstance(bounded, dict) else data, cut


def _replaced(data: JsonObject, lists: dict[_Keys, list[Any]]) -> JsonObject:
    """A copy of ``data`` (sharing all it can) with the list at each path of
    ``lists`` replaced; paths that do not lead to a list are left alone."""
    copy = dict(data)
    made = {id(copy)}
    for path, new in lists.items():
        if not isinstance(_at(data, path), list):    # (then every step to it is a dict key)
            continue
        node = copy
        for key in path[:-1]:
            child = node[key]
            if id(child) not in made:
                child = dict(child)
                made.add(id(child))
                node[key] = child
            node = child
        node[path[-1]] = new
    return copy
