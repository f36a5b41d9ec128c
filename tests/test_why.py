"""Why robots die: each death's cause chain from what the race did, and the
re-entry loop warning (engine/analysis/balance/why.py)."""
from __future__ import annotations

from pathlib import Path

import pytest

from rallyforge.engine.analysis.balance import balance
from rallyforge.engine.analysis.balance.play import death_record
from rallyforge.engine.analysis.balance.report import markdown
from rallyforge.engine.analysis.balance.summary import Death, RaceSummary
from rallyforge.engine.analysis.balance.why import LOOP_REENTRIES, Chains, Reentries, chain
from rallyforge.engine.analysis.course_card import build
from rallyforge.engine.format.loader import load_dict, load_file
from rallyforge.engine.rules.race import Race


def reentry_loops(races):
    loops = Reentries()
    loops.add(races)
    return loops.result()


def chains(races, width, height):
    counted = Chains(width, height)
    counted.add(races)
    return counted.result()


def course(tiles=(), robots=(), lasers=(), pushers=(), levels=(), walls=(), width=5, height=5,
           **rules):
    return load_dict({
        "format": "rally-scenario", "version": 1, "name": "why",
        "board": {"width": width, "height": height, "tiles": list(tiles), "walls": list(walls),
                  "lasers": list(lasers), "pushers": list(pushers), "levels": list(levels)},
        "flags": [{"x": 0, "y": 4}],
        "docks": [{"x": 0, "y": 0, "facing": "S"}, {"x": 1, "y": 0, "facing": "S"}],
        "rules": {"robot_lasers": False, "max_rounds": 1, **rules},
        "robots": list(robots)})


def why(scenario) -> list[tuple[str, str]]:
    """(robot, chain) for every destruction in one round of `scenario`."""
    deaths: list[tuple[str, Death]] = []
    width = scenario.board.width
    holder: list[Race] = []
    race = Race(scenario, seed=1, on_death=lambda robot, square, cause: deaths.append(
        (robot.name, death_record(robot, holder[0].round, square, cause, width))))
    holder.append(race)
    race.run()
    return [(name, chain(death)) for name, death in deaths]


def robot(name, x, y, facing="N", program=(), **more):
    return {"name": name, "at": {"x": x, "y": y, "facing": facing},
            "program": [list(program)] if program else [], **more}


def test_a_belt_carries_a_robot_off_the_board_from_its_square():
    s = course(tiles=[{"x": 4, "y": 2, "type": "conveyor", "dir": "E"}],
               robots=[robot("A", 4, 2)])
    assert why(s) == [("A", "carried off the board by the belt from (4, 2)")]


def test_an_express_belt_carries_into_a_pit():
    s = course(tiles=[{"x": 2, "y": 2, "type": "conveyor", "dir": "E", "express": True},
                      {"x": 3, "y": 2, "type": "pit"}],
               robots=[robot("A", 2, 2)])
    assert why(s) == [("A", "carried into the pit at (3, 2) by the belt from (2, 2)")]


def test_a_robot_pushed_into_a_pit_blames_another_robot_not_its_own_card():
    s = course(tiles=[{"x": 3, "y": 2, "type": "pit"}],
               robots=[robot("A", 1, 2, "E", ["move1:800"]), robot("B", 2, 2)])
    assert why(s) == [("B", "pushed into the pit at (3, 2) by another robot")]


def test_a_robot_that_drives_into_a_pit_blames_its_own_card():
    s = course(tiles=[{"x": 3, "y": 2, "type": "pit"}],
               robots=[robot("A", 2, 2, "E", ["move1:800"])])
    assert why(s) == [("A", "drove into the pit at (3, 2) by its own card from (2, 2)")]


def test_a_board_pusher_pushes_into_a_pit():
    s = course(tiles=[{"x": 3, "y": 2, "type": "pit"}],
               pushers=[{"x": 2, "y": 2, "dir": "E", "phases": [1, 2, 3, 4, 5]}],
               robots=[robot("A", 2, 2)])
    assert why(s) == [("A", "pushed into the pit at (3, 2) by the pusher at (2, 2)")]


def test_a_robot_shot_to_pieces_names_the_laser():
    s = course(lasers=[{"x": 0, "y": 2, "dir": "E", "beams": 1}],
               robots=[robot("A", 3, 2, damage=9)])
    assert why(s) == [("A", "shot by the laser at (0, 2)")]


def test_with_option_cards_held_the_laser_step_names_the_laser_too():
    s = course(lasers=[{"x": 0, "y": 2, "dir": "E", "beams": 1}], options="played",
               robots=[robot("A", 3, 2, damage=9, options=["brakes"])])
    assert why(s) == [("A", "shot by the laser at (0, 2)")]


def test_a_robot_shot_to_pieces_by_robots_blames_them():
    s = course(robots=[robot("A", 1, 2, "E"), robot("B", 3, 2, damage=9)], robot_lasers=True)
    assert why(s) == [("B", "shot by other robots' lasers or weapons")]


def test_a_fall_onto_robots_is_a_fall_from_the_plateau():
    # from level 1 at (1, 2) east down onto a robot standing by a wall: nowhere to land
    s = course(levels=[{"x": 1, "y": 2, "level": 1}], walls=[{"x": 4, "y": 2, "side": "E"}],
               robots=[robot("Up", 1, 2, "E", ["move1:800"]), robot("Below", 4, 2),
                       robot("Mid", 2, 2), robot("Next", 3, 2)])
    assert why(s) == [("Up", "fell from the plateau at (1, 2) onto robots, with no free square "
                             "to land on")]


def test_a_robot_moved_by_another_robots_weapon_names_it():
    pulled = Death(0, 1, 3, 2, "pit", 1, "tractor beam", (4, 2), (0, 0))
    assert chain(pulled) == "pulled into the pit at (3, 2) by another robot's tractor beam"


def _summary(deaths: list[Death], rounds: int = 10) -> RaceSummary:
    return RaceSummary(seed=0, docks=(1,), winners=(), rounds=rounds, finish_round=(None,),
                       flag_rounds=((),), deaths=tuple(deaths), occupancy=b"")


def _death(round_: int, archive=(2, 2), robot=0) -> Death:
    return Death(robot, round_, 3, 2, "pit", 1, "express", (2, 2), archive)


def test_a_reentry_loop_when_robots_die_again_in_the_round_after_they_reenter():
    # each race: dies in round 1, re-enters at (2, 2), dies again in round 2, and in 3
    looping = [_summary([_death(1), _death(2), _death(3)]) for _ in range(LOOP_REENTRIES)]
    (loop,) = reentry_loops(looping)
    assert (loop["x"], loop["y"], loop["reentries"], loop["deaths"]) == (
        2, 2, 3 * LOOP_REENTRIES, 2 * LOOP_REENTRIES)
    assert loop["chain"] == "carried into the pit at (3, 2) by the belt from (2, 2)"
    # a round between re-entry and the next death is no loop; nor a death in
    # the race's last round (it never re-entered), nor one that put it out
    spaced = [_summary([_death(1), _death(3), _death(5), _death(7, archive=None)])
              for _ in range(LOOP_REENTRIES)]
    assert reentry_loops(spaced) == []
    last = [_summary([_death(1), _death(2)], rounds=1) for _ in range(LOOP_REENTRIES)]
    assert reentry_loops(last) == []


def test_no_loop_from_too_few_reentries_or_a_share_that_may_be_small():
    # three re-entries, each followed by a death in the next round: too few to tell
    assert reentry_loops([_summary([_death(1), _death(2), _death(3), _death(4)], rounds=4)]) == []
    # a third of 12 re-entries: the share's interval reaches well below a quarter
    assert reentry_loops([_summary([_death(1), _death(2), _death(5)]) for _ in range(4)]) == []


def test_chains_per_square_commonest_first():
    races = [_summary([_death(1), _death(3)]),
             _summary([Death(0, 1, 3, 2, "pit", 1, "push", (2, 2), (0, 0))])]
    (square,) = chains(races, 5, 5)
    assert (square["x"], square["y"]) == (3, 2)
    assert [w["chain"] for w in square["why"]] == [
        "carried into the pit at (3, 2) by the belt from (2, 2)",
        "pushed into the pit at (3, 2) by another robot"]
    assert [w["per_100_races"] for w in square["why"]] == [100.0, 50.0]


@pytest.fixture
def loop_course():
    """A re-entry square facing an express belt into a pit."""
    return load_file(Path(__file__).parent / "fixtures" / "reentry-loop.json")


def test_the_card_and_its_text_name_the_chain_and_the_loop(loop_course):
    result = balance(loop_course, 20, robots=2, bot="random", seed=3)
    c = result["card"]
    assert c["reentry_loops"] and (c["reentry_loops"][0]["x"], c["reentry_loops"][0]["y"]) == (1, 1)
    text = build.lines(c)
    assert any(line.startswith("Re-entry loop: robots re-entering at (1, 1) die again within a "
                               "round") for line in text)
    sq = c["deadliest_square"]
    assert (sq["x"], sq["y"]) == (3, 1)
    assert sq["why"].startswith("carried into the pit at (3, 1) by the belt from")
    assert any(line.startswith("Deadliest square: (3, 1)") and "mostly carried into the pit"
               in line for line in text)
    report = markdown(result, charts=False)
    (hot,) = [line for line in report.splitlines() if line.startswith("- (3, 1): ")]
    assert "deaths per 100 races: carried into the pit at (3, 1) by the belt from (2, 1) (" in hot
    assert "## Re-entry loops\n\n- Re-entry loop: robots re-entering at (1, 1)" in report
