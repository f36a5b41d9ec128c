"""The element table (engine/model/element_kinds.py) and every place that must
know each tile type: a type listed in the table but missing from the JSON
Schema, the renderer, the palette, the heatmaps' death causes or the test
strategies fails here, naming the place. ``test_a_new_type_fails_*`` runs
each of those checks on a type no consumer has heard of, to show that each
check can fail."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, Phase, find, given, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QFormLayout, QGroupBox

from rallyforge.drawing import icons, painters, style
from rallyforge.drawing.board import paint_board
from rallyforge.editor.palette import ENTRIES
from rallyforge.editor.preview import heatmap_overlay
from rallyforge.engine.analysis.narration import STEP_NAMES
from rallyforge.engine.analysis.replay import play_race
from rallyforge.engine.format.loader import dumps, load_dict, to_dict
from rallyforge.engine.format.schema import SCHEMA, schema_problems
from rallyforge.engine.model.element_kinds import (CAUSES, DEATH_CAUSES, DIRECTION, EDGE_LIST, Key, TILE_LIST,
                                        TileType, VALUE_KINDS, new_tile)
from rallyforge.engine.model.scenario import Board, Dock, Flag, Scenario
from rallyforge.engine.rules import lone_robot_model
from tests import strategies
from tests.editor_support import answers, make_window  # noqa: F401  (fixtures)

# A type that no consumer knows (nor ever will): each check below must fail on it.
IMAGINED = TileType("imagined", "Imagined", (Key("dir", DIRECTION, new="E", label="Direction"),),
                    death="imagined fall")
IDS = [t.name for t in TILE_LIST]


def _scenario(*tiles, width: int = 3, height: int = 3) -> Scenario:
    return Scenario("one tile", Board(width, height, tiles=tuple(tiles)),
                    (Flag(0, 0),), (Dock(width - 1, height - 1, "N"),))


# ---------------------------------------------------------------- the consumers' checks

def schema_lists(t: TileType) -> None:
    """schema/scenario.schema.json: the type in the enum, with exactly its keys."""
    tile = SCHEMA["$defs"]["tile"]
    assert t.name in tile["properties"]["type"]["enum"], \
        f"the JSON Schema's tile types lack {t.name!r}"
    branches = [b["then"] for b in tile["allOf"]
                if b["if"]["properties"]["type"].get("const") == t.name]
    assert branches, f"the JSON Schema has no if/then branch for {t.name!r} tiles"
    branch = branches[0]
    if "$ref" in branch:
        branch = SCHEMA["$defs"][branch["$ref"].rpartition("/")[2]]
    assert branch["propertyNames"]["enum"] == ["x", "y", "type", *t.key_names, "note"]
    assert set(branch.get("required", ())) == {k.name for k in t.keys if not k.optional}
    for key in t.keys:
        assert key.name in tile["properties"], f"the JSON Schema does not describe {key.name!r}"


def painter_draws(t: TileType) -> None:
    """drawing/: a painter and a colour, shown at the sample point."""
    assert t.name in painters.TILE_PAINTERS, f"drawing/ has no painter for {t.name!r}"
    assert t.name in style.COLORS, f"drawing/ has no colour for {t.name!r}"
    s = 32
    image = QImage(3 * s, 3 * s, QImage.Format_ARGB32_Premultiplied)
    image.fill(QColor("magenta"))
    painter = QPainter(image)
    paint_board(painter, _scenario(new_tile(1, 1, t.name)), square=s)
    painter.end()
    fx, fy = style.sample_point(t.name)
    got = image.pixelColor(int((1 + fx) * s), int((1 + fy) * s))
    want = style.COLORS[t.name]
    assert all(abs(a - b) <= 6 for a, b in zip(got.getRgb()[:3], want.getRgb()[:3])), \
        f"a {t.name} shows {got.name()} at its sample point, not {want.name()}"


def palette_offers(t: TileType) -> None:
    """editor/palette.py: an entry that paints it, with an icon."""
    assert any(e.kind == t.name and e.tool is None for e in ENTRIES), \
        f"the palette offers no {t.name!r}"
    assert t.name in icons.ICON_KINDS, f"drawing/ draws no icon for {t.name!r}"


def causes_named(t: TileType) -> None:
    """Its death cause: a colour and a name in the heatmaps, a code in the lone model."""
    if t.death is None:
        return
    assert t.death in DEATH_CAUSES, f"{t.name!r} deals {t.death!r}, not in CAUSE_LIST"
    assert t.death in heatmap_overlay.CAUSE_COLORS and t.death in heatmap_overlay.CAUSE_NAMES
    assert f"deaths:{t.death}" in heatmap_overlay.MODES
    assert t.death in lone_robot_model.CAUSES, f"the lone model has no code for {t.death!r}"


# Whether a strategy draws a thing is all these finds ask: shrinking what they
# found (a whole scenario) took over a minute, and a saved example is no proof.
FOUND_UNSHRUNK = settings(phases=[Phase.generate], database=None)


def strategies_draw(t: TileType) -> None:
    """tests/strategies.py: draws the type, with keys the schema accepts."""
    if t.name == "ramp":
        # a ramp needs matching levels around it: scenarios() draws it apart (strategies._ramps)
        find(strategies.scenarios(),        # NoSuchExample when it never does
             lambda doc: any(t["type"] == "ramp" for t in doc["board"].get("tiles", [])),
             settings=FOUND_UNSHRUNK)
        return
    try:
        find(strategies._KINDS, lambda kind: kind == t.name, settings=FOUND_UNSHRUNK)
    except NoSuchExample:
        raise AssertionError(f"tests/strategies.py never draws a {t.name!r} tile") from None

    @st.composite
    def tiles(draw):
        return strategies._tile(draw, 0, 0, t.name, strategies._maybe_note())

    @settings(max_examples=10, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(tiles())
    def accepted(tile):
        doc = to_dict(_scenario())
        doc["board"]["tiles"] = [tile]
        assert schema_problems(doc) == []
        assert load_dict(doc).board.tiles[0].type == t.name
    accepted()


CONSUMER_CHECKS = (schema_lists, painter_draws, palette_offers, causes_named, strategies_draw)


@pytest.mark.parametrize("check", CONSUMER_CHECKS, ids=lambda c: c.__name__)
@pytest.mark.parametrize("tile_type", TILE_LIST, ids=IDS)
def test_every_consumer_knows_every_tile_type(qapp, tile_type, check):
    check(tile_type)


@pytest.mark.parametrize("check", CONSUMER_CHECKS, ids=lambda c: c.__name__)
def test_a_new_type_fails_every_check_until_its_consumer_has_it(qapp, check):
    with pytest.raises(AssertionError):
        check(IMAGINED)


# ---------------------------------------------------------------- the table itself

def test_the_table_is_coherent():
    for t in TILE_LIST:
        assert t.label and all(k.kind in VALUE_KINDS for k in t.keys), t.name
        assert not t.deadly or t.death is not None, t.name
        assert not t.belt or t.key("dir").kind == DIRECTION, t.name
        assert t.death is None or t.death in CAUSES, t.name
    assert len({e.list for e in EDGE_LIST}) == len(EDGE_LIST)
    for e in EDGE_LIST:
        assert e.keys[0].kind == DIRECTION, e.name       # the side it hangs on: the save order


@pytest.mark.parametrize("tile_type", TILE_LIST, ids=IDS)
def test_each_type_saves_exactly_its_keys_and_loads_back(tile_type):
    tile = new_tile(1, 1, tile_type.name, note="n")
    scenario = _scenario(tile)
    doc = to_dict(scenario)
    written = doc["board"]["tiles"][0]
    assert list(written) == ["x", "y", "type",
                             *(k.name for k in tile_type.keys if not k.omit_default), "note"]
    assert load_dict(doc) == scenario
    assert dumps(load_dict(doc)) == dumps(scenario)


@pytest.mark.parametrize("tile_type", TILE_LIST, ids=IDS)
def test_the_inspector_shows_each_key_of_each_type(make_window, tile_type):
    w = make_window(scenario=_scenario(new_tile(1, 1, tile_type.name), width=4, height=4))
    w.state.inspect((1, 1))
    group = next(g for g in w.inspector.widget().findChildren(QGroupBox) if g.title() == "Tile")
    form = group.layout()
    assert isinstance(form, QFormLayout)
    # type, one row per key, note
    assert form.rowCount() == 2 + len(tile_type.keys)


@pytest.mark.parametrize("tile_type", TILE_LIST, ids=IDS)
def test_a_race_over_each_type_shows_only_named_steps_and_causes(tile_type):
    """A robot drives onto the tile and stays two rounds: every frame of the
    preview has a label, every death a known cause (the tile's own, when it
    deals one as soon as a robot is on it)."""
    doc = to_dict(_scenario(new_tile(2, 2, tile_type.name), width=5, height=5))
    doc["rules"] = {"max_rounds": 2}
    doc["robots"] = [{"name": "R", "at": {"x": 2, "y": 3, "facing": "N"},
                      "program": [["move1"], []]}]
    timeline = play_race(load_dict(doc))
    assert {f.step for f in timeline.frames} <= set(STEP_NAMES)
    deaths = [d.cause for f in timeline.frames for d in f.deaths]
    assert set(deaths) <= set(DEATH_CAUSES)
    if tile_type.death is not None:
        assert deaths[:1] == [tile_type.death]
