"""The laser step with option cards in the compiled race (_race.c
fire_with_options: engine/rules/option_weapons.py with the bots' weapon
policy of engine/bots/option_policy.py) against the Python engine. The
option deck deals the weapon cards first, then cards no bot plans or
decides with, so that every race turns on the laser step: on a pitted
board with board lasers where shells, Pressor and Tractor Beams send
robots into pits, on the boards of the rule cases and example courses, and
on random courses whose flags ride the belts (Fire Control's choice reads
the distance to a flag where it stands now); the same summaries, race for
race."""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from rallyforge.engine.analysis.balance import compiled, play
from rallyforge.engine.bots.option_moves import PLANNED_OPTIONS
from rallyforge.engine.format.loader import load_dict, load_file
from rallyforge.engine.model.option_cards import OPTION_IDS
from rallyforge.engine.model.scenario import Scenario
from rallyforge.engine.rules import state
from rallyforge.engine.rules.compiled import race as compiled_rules
from tests import random_courses

ROOT = Path(__file__).resolve().parent.parent
BOARDS = sorted((ROOT / "tests" / "rules").glob("*.json")) + sorted((ROOT / "scenarios").glob("*.json"))
# the cards of the laser step (and the two that prevent its damage), dealt first
WEAPONS = ("double-barreled-laser", "high-power-laser", "rear-firing-laser", "mini-howitzer",
           "pressor-beam", "tractor-beam", "fire-control", "ablative-coat", "power-down-shield")
# the cards whose use a bot plans or decides (Ramming Gear, Recompile, the Flywheel
# too), dealt last: no race here gets that far down the deck
DECIDED = frozenset((*PLANNED_OPTIONS, "ramming-gear", "recompile", "flywheel"))
SAFE_CARDS = 17         # the cards before DECIDED ones: at most this many are dealt


@pytest.fixture
def deal_first(monkeypatch):
    """deal_first(cards): both engines shuffle the option deck as
    state.OptionDeck does, then here `cards` go on top (in an order drawn
    from the seed), the cards a bot plans or decides with at the bottom."""
    shuffled = state.OptionDeck.__init__

    def order(first: tuple[str, ...]) -> None:
        def first_on_top(deck: state.OptionDeck, seed: int, listed: set[str]) -> None:
            shuffled(deck, seed, listed)
            top = [card for card in deck.cards if card in first]
            random.Random(f"first {seed}").shuffle(top)
            deck.cards = (top + [c for c in deck.cards if c not in first and c not in DECIDED]
                          + [c for c in deck.cards if c in DECIDED])

        monkeypatch.setattr(state.OptionDeck, "__init__", first_on_top)

    return order


def played(scenario: Scenario, start: int) -> Scenario:
    """`scenario` with played option cards: `start` each at the start and no
    other card given (so that the cards dealt are the deck's first)."""
    rules = replace(scenario.rules, options="played", start_options=start,
                    flag_gives_option=False, start_option_choice=0, repair_sites="repair")
    board = replace(scenario.board,
                    tiles=tuple(t for t in scenario.board.tiles if t.type != "upgrade"))
    return replace(scenario, board=board, rules=rules, robots=(), checks=())


def races_the_same(scenario: Scenario, seed: int, docks: tuple[int, ...]) -> Counter[str]:
    """Race both ways and compare; what the compiled race's robots died of
    and the cards they used."""
    assert compiled.python_reason(scenario, "search", len(docks)) is None
    in_c = compiled.race_summary(scenario, seed, docks)
    assert in_c == play.engine_summary(scenario, seed, docks, "search"), (scenario.name, seed)
    seen = Counter(death.agent for death in in_c.deaths)
    seen.update(dict(in_c.options_used))
    return seen


def pitted(seed: int) -> Scenario:
    """A 9x9 board with pits, board lasers across it, flags between the
    pits, rules drawn from the seed; one in four a board of pits every other
    square where races go on to the last round, three cards a robot: long
    enough for a Mini Howitzer to be used up."""
    rng = random.Random(seed)
    dense = seed % 4 == 3
    step = 2 if dense else 3
    pits = [{"x": x, "y": y, "type": "pit"} for x in range(1, 9, step) for y in range(1, 9, step)]
    lasers = ([{"x": 0, "y": y, "dir": "E"} for y in (2, 6)]
              + [{"x": x, "y": 8, "dir": "N"} for x in (2, 6)]
              + [{"x": 8, "y": 3, "dir": "W"}, {"x": 3, "y": 0, "dir": "S"}])
    docks = [{"x": x, "y": y, "facing": f} for x, y, f in (
        (0, 0, "E"), (8, 0, "W"), (0, 8, "E"), (8, 8, "W"), (4, 0, "S"), (4, 8, "N"),
        (0, 4, "E"), (8, 4, "W"))]
    rules = ({"start_options": 3, "max_rounds": 30, "finish": "all", "lives": 9} if dense else
             {"start_options": 1 + seed % 2, "max_rounds": 10, "superbot": seed % 3 == 0,
              "robot_laser_damage": 1 + seed % 2, "start_damage": 2 * (seed % 4),
              "power_down": seed % 5 != 0})
    return load_dict({
        "format": "rally-scenario", "version": 1, "name": f"pitted {seed}",
        "board": {"width": 9, "height": 9, "tiles": pits, "walls": [],
                  "lasers": [] if dense else lasers, "pushers": []},
        "flags": [{"x": rng.randrange(0, 9, step), "y": 2 if dense else 3},
                  {"x": rng.randrange(0, 9, step), "y": 6 if dense else 5}],
        "docks": docks, "rules": {"options": "played", **rules}})


@pytest.mark.usefixtures("compiled_part")
def test_pushes_pulls_and_shots_on_a_pitted_board(deal_first):
    deal_first(WEAPONS)
    seen: Counter[str] = Counter()
    for seed in range(240):
        scenario = pitted(seed)
        rng = random.Random(seed)
        start = scenario.rules.start_options
        robots = min(2 + seed % 7, SAFE_CARDS // start)
        seen += races_the_same(played(scenario, start), seed,
                               tuple(rng.sample(range(1, 9), robots)))
    # the races held every weapon's use and each push and pull into a pit
    assert set(WEAPONS) - {"ablative-coat", "power-down-shield"} <= set(seen), seen
    assert {"mini howitzer", "pressor beam", "tractor beam", "robot laser", "laser"} <= set(seen)


@pytest.mark.usefixtures("compiled_part")
def test_the_rule_case_and_example_boards(deal_first):
    deal_first(WEAPONS)
    raced = 0
    for path in BOARDS:
        scenario = load_file(path)
        docks = len(scenario.docks)
        if not docks or not scenario.flags:
            continue
        start = 2 if 2 * docks <= len(WEAPONS) else 1
        scenario = played(replace(scenario, rules=replace(
            scenario.rules, max_rounds=min(scenario.rules.max_rounds, 12))), start)
        if compiled.python_reason(scenario, "search", docks) is not None:
            continue                    # (levels, teams: Python's)
        for seed in range(3):
            robots = min((2, 4, docks)[seed], docks, SAFE_CARDS // start)
            races_the_same(scenario, seed, tuple((seed + i) % docks + 1 for i in range(robots)))
        raced += 1
    assert raced > 100


def ring(seed: int) -> Scenario:
    """A 10x10 board whose flags ride a ring of belts, turning every register,
    round a row of pits."""
    rng = random.Random(seed)
    belts = ([(x, 2, "E") for x in range(2, 7)] + [(7, y, "S") for y in range(2, 7)]
             + [(x, 7, "W") for x in range(7, 2, -1)] + [(2, y, "N") for y in range(7, 2, -1)])
    docks = [{"x": x, "y": y, "facing": f} for x, y, f in (
        (0, 0, "E"), (9, 0, "W"), (0, 9, "E"), (9, 9, "W"), (4, 0, "S"), (5, 9, "N"),
        (0, 5, "E"), (9, 4, "W"))]
    return load_dict({
        "format": "rally-scenario", "version": 1, "name": f"ring {seed}",
        "board": {"width": 10, "height": 10, "walls": [], "lasers": [], "pushers": [],
                  "tiles": [{"x": x, "y": y, "type": "conveyor", "dir": d} for x, y, d in belts]
                  + [{"x": x, "y": 5, "type": "pit"} for x in range(3, 7)]},
        "flags": [{"x": rng.randrange(2, 7), "y": 2}, {"x": rng.randrange(3, 8), "y": 7}],
        "docks": docks,
        "rules": {"options": "played", "start_options": 1, "flags_move": True,
                  "max_rounds": 12, "finish": "all"}})


@pytest.mark.usefixtures("compiled_part")
def test_fire_control_locks_toward_flags_that_ride_belts(deal_first):
    """Fire Control against robots holding only cards a bot ranks low locks a
    register: the one whose card brings the robot nearest the flag where it
    stands now, which has ridden the belts since the bots last saw it."""
    deal_first(("fire-control", "high-power-laser", "ablative-coat", "power-down-shield",
                "conditional-program", "abort-switch", "circuit-breaker"))
    for seed in range(120):
        rng = random.Random(seed)
        races_the_same(played(ring(seed), 1), seed, tuple(rng.sample(range(1, 9), 2 + seed % 6)))


@pytest.mark.usefixtures("compiled_part")
def test_random_courses_with_moving_flags(deal_first):
    deal_first(WEAPONS)
    raced = 0
    for seed in range(240):
        scenario = random_courses.random_course(seed)
        start = 1 + seed % 2
        scenario = played(replace(scenario, rules=replace(scenario.rules, flags_move=True)), start)
        docks = tuple(range(1, min(len(scenario.docks), SAFE_CARDS // start) + 1))
        if compiled.python_reason(scenario, "search", len(docks)) is None:
            races_the_same(scenario, seed, docks)
            raced += 1
    assert raced > 200


@pytest.mark.usefixtures("compiled_part")
@pytest.mark.parametrize("laser_dir, dies", [("E", True), ("W", False)])
def test_power_down_shield_meets_a_board_laser_on_the_side_its_beam_enters(laser_dir, dies):
    """docs/rules.md 10, Power-Down Shield, in C: a powered-down robot holding it,
    one point from destruction, is shot by a board laser mounted on its square
    and by a robot west of it facing east with a High-Power Laser (through the
    laser's wall; dealt no cards, it stays). A beam going east enters from the
    west, the robot laser's side: the shield stops one point and the other
    destroys it. A beam going west enters from the east: each side's first
    point is stopped and it lives."""
    scenario = load_dict({
        "format": "rally-scenario", "version": 1, "name": "shield",
        "board": {"width": 5, "height": 1,
                  "lasers": [{"x": 2, "y": 0, "dir": laser_dir, "beams": 1}]},
        "flags": [{"x": 4, "y": 0}], "docks": [{"x": 2, "y": 0, "facing": "N"}],
        "rules": {"options": "played", "start_options": 1, "destroy_at_damage": 2,
                  "hand_size": 1, "lives": 1, "max_rounds": 1}})
    racer = compiled._racer(scenario)[0]
    assert racer is not None
    deck = [OPTION_IDS.index(card) for card in ("power-down-shield", "high-power-laser")]
    # (square, facing N E S W = 0 1 2 3, damage, lives, flags, powered down)
    robots = [(2, 0, 1, 1, 0, True), (0, 1, 1, 1, 0, False)]
    _, _, _, deaths, *_ = compiled_rules.compiled.race(racer.course.capsule, racer.bot,
                                                      random.Random(0), robots, None, None, deck)
    assert [(d[0], d[1]) for d in deaths] == ([(0, 1)] if dies else [])
