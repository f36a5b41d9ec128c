"""Whether parsed JSON has the shape a type describes: a TypedDict (nested),
``list[X]``, ``dict[str, X]``, unions, ``Literal``, int, float, str, bool,
None and ``Any`` (any value), read from the annotations themselves
(``typing.get_type_hints``), so that the type that builds a result also
checks a copy of it read from a file. ``Annotated[list[X], Items(n)]`` asks for exactly n items.
"""
from __future__ import annotations

import types
from dataclasses import dataclass
from typing import (Annotated, Any, Literal, NotRequired, Required, Union, get_args, get_origin,
                    get_type_hints, is_typeddict)


@dataclass(frozen=True)
class Items:
    """In ``Annotated[list[X], Items(n)]``: a list of exactly `count` items."""
    count: int


_NAMES = {bool: "true or false", int: "an integer", float: "a number", str: "a string",
          types.NoneType: "null", list: "a list", dict: "an object"}


def mismatch(value: object, kind: Any, where: str = "") -> str | None:
    """None when `value` is a `kind`; else what is wrong and where, as a
    path of keys and indices (``length.rounds_ci[1]: a number or null wanted``)."""
    if kind is Any:                     # any JSON value (an edit's args)
        return None
    origin = get_origin(kind)
    if origin is Annotated:
        inner, *marks = get_args(kind)
        for mark in marks:
            if isinstance(mark, Items) and isinstance(value, list) and len(value) != mark.count:
                return f"{_place(where)}: {mark.count} items wanted, not {len(value)}"
        return mismatch(value, inner, where)
    if is_typeddict(kind):
        return _typed_dict(value, kind, where)
    if origin in (Union, types.UnionType):
        if any(mismatch(value, option, where) is None for option in get_args(kind)):
            return None
        others = [option for option in get_args(kind) if option is not types.NoneType]
        if value is not None and len(others) == 1:     # X or null, and not null: what is off X
            return mismatch(value, others[0], where)
        return f"{_place(where)}: {' or '.join(_name(option) for option in get_args(kind))} wanted"
    if origin is Literal:
        return None if value in get_args(kind) else \
            f"{_place(where)}: one of {', '.join(map(repr, get_args(kind)))} wanted"
    if origin is list:
        if not isinstance(value, list):
            return f"{_place(where)}: a list wanted"
        (item,) = get_args(kind)
        return next((found for i, v in enumerate(value)
                     if (found := mismatch(v, item, f"{where}[{i}]")) is not None), None)
    if origin is dict:
        if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
            return f"{_place(where)}: an object wanted"
        _, item = get_args(kind)
        return next((found for k, v in value.items()
                     if (found := mismatch(v, item, _key(where, k))) is not None), None)
    if kind in _NAMES:
        return None if _is(value, kind) else f"{_place(where)}: {_NAMES[kind]} wanted"
    raise TypeError(f"mismatch cannot check {kind!r}")


def _typed_dict(value: object, kind: Any, where: str) -> str | None:
    if not isinstance(value, dict):
        return f"{_place(where)}: an object wanted"
    for key, hint in get_type_hints(kind, include_extras=True).items():
        # read from the hint: under ``from __future__ import annotations``
        # Python 3.11 cannot see NotRequired when it makes __required_keys__
        required = kind.__total__
        if get_origin(hint) in (Required, NotRequired):
            required = get_origin(hint) is Required
            (hint,) = get_args(hint)
        if key not in value:
            if required:
                return f"{_key(where, key)}: missing"
            continue
        found = mismatch(value[key], hint, _key(where, key))
        if found is not None:
            return found
    return None


def _is(value: object, kind: type) -> bool:
    if kind is float:                   # an integer is a number (JSON has one kind)
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, kind)


def _name(kind: Any) -> str:
    if get_origin(kind) is Annotated:
        return _name(get_args(kind)[0])
    if is_typeddict(kind):
        return "an object"
    return _NAMES.get(get_origin(kind) or kind, str(kind))


def _key(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def _place(where: str) -> str:
    return where or "the whole"
