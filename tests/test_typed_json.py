"""Parsed JSON checked against a type's annotations (engine/format/typed_json.py)."""
from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired, TypedDict

import pytest

from rallyforge.engine.format.typed_json import Items, mismatch

Pair = Annotated[list[float | None], Items(2)]


class Leaf(TypedDict):
    n: int
    ci: Pair


class Tree(TypedDict):
    name: str
    kind: Literal["a", "b"]
    leaves: list[Leaf]
    grids: dict[str, list[float]]
    best: Leaf | None
    why: NotRequired[str]


GOOD = {"name": "t", "kind": "a", "leaves": [{"n": 1, "ci": [0.5, None]}],
        "grids": {"pit": [1, 2.5]}, "best": None}


def test_a_value_of_the_type_passes_and_extra_keys_are_let_through():
    assert mismatch(GOOD, Tree) is None
    assert mismatch(dict(GOOD, why="x", note="free text"), Tree) is None
    assert mismatch(dict(GOOD, best={"n": 2, "ci": [None, None]}), Tree) is None


@pytest.mark.parametrize("value, said", [
    ({k: v for k, v in GOOD.items() if k != "name"}, "name: missing"),
    (dict(GOOD, leaves=[{"n": 1}]), "leaves[0].ci: missing"),
    (dict(GOOD, leaves=[{"n": True, "ci": [0, 1]}]), "leaves[0].n: an integer wanted"),
    (dict(GOOD, leaves=[{"n": 1.5, "ci": [0, 1]}]), "leaves[0].n: an integer wanted"),
    (dict(GOOD, leaves=[{"n": 1, "ci": [0, 1, 2]}]), "leaves[0].ci: 2 items wanted, not 3"),
    (dict(GOOD, leaves=[{"n": 1, "ci": [0, "1"]}]), "leaves[0].ci[1]: a number wanted"),
    (dict(GOOD, kind="c"), "kind: one of 'a', 'b' wanted"),
    (dict(GOOD, grids={"pit": [1, None]}), "grids.pit[1]: a number wanted"),
    (dict(GOOD, grids=[]), "grids: an object wanted"),
    (dict(GOOD, best=[]), "best: an object wanted"),
    (dict(GOOD, best={"n": 1}), "best.ci: missing"),
    (dict(GOOD, why=3), "why: a string wanted"),
    (dict(GOOD, name=None), "name: a string wanted"),      # a key that may be left out, when there
    ([], "the whole: an object wanted"),
])
def test_a_value_off_the_type_is_named_by_its_place(value, said):
    assert mismatch(value, Tree) == said


def test_a_type_it_cannot_check_is_a_programming_error():
    with pytest.raises(TypeError):
        mismatch(1, complex)


def test_any_takes_every_value_but_its_container_still_counts():
    assert mismatch([1, "a", [2, None], {"k": 1}], list[Any]) is None
    assert mismatch({"args": 3}, dict[str, list[Any]]) == "args: a list wanted"
