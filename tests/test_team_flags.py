"""Who holds and carries the flags of a team race, read from the event log
(engine/analysis/team_flags.py), as the race preview draws them."""
from __future__ import annotations

from pathlib import Path

from rallyforge.engine.analysis.replay import play_race
from rallyforge.engine.analysis.team_flags import flag_owners, flag_states
from rallyforge.engine.format.loader import load_file

COURSES = Path(__file__).parent / "fixtures" / "teams"


def test_a_flag_is_carried_from_its_pick_up_to_its_drop_and_lies_where_it_fell():
    scenario = load_file(COURSES / "capture.json")
    assert flag_owners(scenario) == ["Red", "Blue"]         # by the home board it stands on
    timeline = play_race(scenario, seed=5, robot_count=4, bots=["team"] * 4)
    states = flag_states(scenario, timeline)
    drop = next(e for e in timeline.events if e.kind == "drop")
    pick = [e for e in timeline.events if e.kind == "pick_up" and e.robot == drop.robot
            and timeline.events.index(e) < timeline.events.index(drop)][-1]
    flag = next(k for k, f in enumerate(scenario.flags) if (f.x, f.y) == pick.src)
    picked = timeline.frame_of_event(timeline.events.index(pick))
    dropped = timeline.frame_of_event(timeline.events.index(drop))
    assert states[picked - 1][flag].carrier is None
    for i in range(picked, dropped):
        assert states[i][flag].carrier == drop.robot and states[i][flag].square is None
    assert states[dropped][flag].carrier is None
    assert states[dropped][flag].square == drop.src
    assert states[0][flag].square == pick.src and states[0][flag].team != \
        timeline.sides[drop.robot][0]


def test_flag_control_holders_follow_the_team_flag_events():
    scenario = load_file(COURSES / "control.json")
    timeline = play_race(scenario, seed=0, robot_count=4, bots=["team"] * 4)
    states = flag_states(scenario, timeline)
    assert all(f.holder is None for f in states[0])
    held: dict[int, str] = {}
    for i, frame in enumerate(timeline.frames):
        for e in timeline.events[frame.events[0]:frame.events[1]]:
            if e.kind == "team_flag":
                held[e.amount] = e.target
        assert {f.number: f.holder for f in states[i] if f.holder} == held
