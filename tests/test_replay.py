"""The replay (engine/analysis/replay.py): frames built by
replaying a race's event log must agree with the engine at the end of every
register and round, whatever the course, bots and seed."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from rallyforge.editor.preview.animation import interpolate, poses, rest_pose
from rallyforge.engine.analysis.narration import describe, frame_label
from rallyforge.engine.analysis.replay import CLEANUP, END, Motion, Pose, build_timeline, play_race
from rallyforge.engine.bots import new_race
from rallyforge.engine.format.loader import load_dict, load_file

ROOT = Path(__file__).parent
FACTORY = ROOT / "fixtures" / "preview" / "factory.json"
RULES = sorted((ROOT / "rules").glob("*.json"))


def engine_states(scenario, seed, **kw):
    """{(round, register or None): snapshot} of a second race stepped register by register."""
    race = new_race(scenario, seed=seed, record_events=False, **kw)
    states = {}
    while not race.over:
        if race.moment[1] == 5:
            race.play_round()
        else:
            race.play_register()
        states[race.moment] = race.snapshot()
    return states, race.snapshot()


def cross_check(timeline, scenario, seed, **kw):
    states, final = engine_states(scenario, seed, **kw)
    assert states, "the race played nothing"
    for (round, register), snapshot in states.items():
        frame = timeline.frames[timeline.moment_frame(round, register)]
        assert frame.robots == snapshot, (round, register, frame_label(frame))
    assert timeline.frames[-1].robots == final
    # every register played has a frame that ends it
    ends = {(f.round, f.register) for f in timeline.frames if f.register_end}
    assert {m for m in states if m[1] is not None} <= ends


@pytest.mark.parametrize("bot", ["random", "greedy", "search"])
@pytest.mark.parametrize("seed", range(4))
def test_frames_match_the_engine_at_every_register(bot, seed):
    scenario = load_file(FACTORY)
    timeline = play_race(scenario, seed=seed, robot_count=8, bot=bot)
    cross_check(timeline, scenario, seed, robot_count=8, bot=bot)


@pytest.mark.parametrize("path", RULES, ids=[p.stem for p in RULES])
def test_frames_match_the_engine_on_every_rules_case(path):
    scenario = load_file(path)
    if not scenario.robots:
        pytest.skip("no scripted robots")
    # scripts run out after a few rounds: stop soon after the last checked one
    last = max((c.round for c in scenario.checks), default=1)
    scenario = replace(scenario, rules=replace(
        scenario.rules, max_rounds=min(scenario.rules.max_rounds, last + 2)))
    timeline = play_race(scenario, seed=0)
    cross_check(timeline, scenario, 0)


def test_frames_cover_the_event_log_in_order():
    scenario = load_file(FACTORY)
    t = play_race(scenario, seed=3, robot_count=6, bot="random")
    assert t.frames[0].step == "setup" and t.frames[-1].step == "end" and t.over
    stop = 0
    for f in t.frames:
        assert f.events[0] == stop              # no gaps, no overlaps
        stop = f.events[1]
        assert 0 <= f.round and (f.register is None or 1 <= f.register <= 5)
    assert stop == len(t.events)
    for i in range(len(t.events)):
        f = t.frames[t.frame_of_event(i)]
        assert f.events[0] <= i < f.events[1]
    moments = [f.moment for f in t.frames]
    assert moments == sorted(moments)
    # a card frame is one robot's card and nothing else
    for f in t.frames:
        if f.step == "move":
            kinds = [t.events[k] for k in range(*f.events)]
            assert kinds[0].kind == "card" and kinds[0].robot == f.actor
            assert sum(e.kind == "card" for e in kinds) == 1


def test_stepping_helpers():
    scenario = load_file(FACTORY)
    t = play_race(scenario, seed=1, robot_count=4, bot="search")
    i = t.next_register_end(0)
    assert (t.frames[i].round, t.frames[i].register) == (1, 1)
    i = t.next_register_end(i)
    assert (t.frames[i].round, t.frames[i].register) == (1, 2)
    j = t.next_round_end(i)
    assert t.frames[j].round == 1 and t.frames[j + 1].round == 2
    assert t.next_round_end(j) > j
    assert t.next_register_end(len(t) - 1) == len(t) - 1
    assert t.moment_frame(1, None) == j
    assert t.moment_frame(999, None) == len(t) - 1


def test_programs_and_locks():
    scenario = load_file(FACTORY)
    t = play_race(scenario, seed=2, robot_count=4, bot="random")
    for f in t.frames:
        if f.step == "move":
            cards, _ = t.program(f.index)
            assert cards[f.actor][f.register - 1] == f.card
    assert set(t.programs[1]) == set(t.names)
    assert all(v == 0 for v in t.locked[1].values())


def test_poses_interpolate_moves_and_turns():
    scenario = load_file(FACTORY)
    seen = set()
    for seed in range(3):
        check_poses(play_race(scenario, seed=seed, robot_count=8, bot="random"), seen)
    assert {"card", "push", "conveyor", "gear", "reenter"} <= seen


def check_poses(t, seen):
    for f in t.frames[1:]:
        start = poses(t, f.index, 0.0)
        end = poses(t, f.index, 1.0)
        before = {r.name: rest_pose(r) for r in t.frames[f.index - 1].robots}
        for name, pose in start.items():
            if before[name] is not None and pose is not None:
                assert (pose.x, pose.y) == (before[name].x, before[name].y)
        for r in f.robots:
            assert (end[r.name] is None) == (not r.alive)
        for m in f.motions:
            seen.add(m.cause)
            mid = poses(t, f.index, (m.slot + 0.5) / f.slots)[m.robot]
            if m.moved and not m.jump and not m.appears and mid is not None:
                lo_x, hi_x = sorted((m.src.x, m.dst.x))
                lo_y, hi_y = sorted((m.src.y, m.dst.y))
                assert lo_x <= mid.x <= hi_x and lo_y <= mid.y <= hi_y


def test_interpolation_of_one_motion():
    turn = Motion("A", 0, Pose(1, 1, 270.0), Pose(1, 1, 360.0), "card")
    assert interpolate(turn, 0.5).angle == pytest.approx(315.0)
    fall = Motion("A", 0, Pose(1, 1, 0.0), Pose(1, 0, 0.0), "pit", dies=True)
    assert interpolate(fall, 0.3).opacity == 1.0
    assert interpolate(fall, 0.9).scale < 1.0
    assert interpolate(fall, 1.0) is None
    back = Motion("A", 0, Pose(2, 2, 90.0), Pose(2, 2, 90.0), "reenter", appears=True)
    assert interpolate(back, 0.0).opacity == 0.0 and interpolate(back, 1.0).opacity == 1.0


def test_laser_frames_carry_beams_and_deaths():
    scenario = load_file(FACTORY)
    t = play_race(scenario, seed=4, robot_count=8, bot="random")
    lasers = [f for f in t.frames if f.step == "lasers"]
    assert lasers and all(f.beams for f in lasers)
    assert any(b.target for f in lasers for b in f.beams)
    assert any(d.cause == "damage" for f in t.frames for d in f.deaths)


def test_failing_check_moment():
    scenario = load_file(ROOT / "fixtures" / "preview" / "failing-check.json")
    timeline, results = play_race(scenario, seed=0, checks=scenario.checks)
    failed = [r for r in results if not r.passed]
    assert len(failed) == 1
    check = failed[0].check
    frame = timeline.frames[timeline.moment_frame(check.round, check.register)]
    assert (frame.round, frame.register) == (check.round, check.register)
    actual = frame.robot(check.robot)
    assert {k: getattr(actual, k) for k in failed[0].actual} == failed[0].actual


def test_a_log_without_end_and_the_descriptions():
    scenario = load_file(FACTORY)
    race = new_race(scenario, seed=5, robot_count=3, bot="random")
    initial = race.snapshot()
    race.play_register()
    race.play_register()
    t = build_timeline(race.events)
    assert t.frames[0].robots == initial       # the start, from the place events
    assert not t.over and t.frames[-1].register_end
    assert t.frames[-1].robots == race.snapshot()
    assert all(describe(e) for e in t.events)
    assert t.frames[0].moment == (0, CLEANUP) and END > CLEANUP


def test_empty_registers_still_have_frames():
    scenario = load_file(FACTORY)
    # one robot, no lasers firing (robot lasers off, away from board lasers), no cards
    scenario = replace(scenario, rules=replace(scenario.rules, robot_lasers=False, max_rounds=2),
                       board=replace(scenario.board, lasers=()))
    race = new_race(scenario, seed=0, robot_count=1, bots=[_Idle()])
    race.run()
    t = build_timeline(race.events)
    ends = [(f.round, f.register) for f in t.frames if f.register_end]
    assert ends == [(r, g) for r in (1, 2) for g in range(1, 6)]
    assert all(f.step == "idle" for f in t.frames if f.register is not None)


class _Idle:
    def program(self, view, hand, free, rng):
        return []

    def power_down(self, view, rng):
        return False


# ---------------------------------------------------------------- rule values come from the events

def falls_and_power_downs(respawn_damage: int = 3) -> dict:
    """Faller (2 options) drops into a pit in round 1, re-enters, announces a
    power down in round 2 and is powered down in round 3; Sleeper starts the
    race powered down with 4 damage (which it keeps) and falls out on its last
    life in round 2."""
    return {
        "format": "rally-scenario", "version": 1, "name": "Falls and power downs",
        "board": {"width": 6, "height": 4, "tiles": [{"x": 2, "y": 1, "type": "pit"},
                                                     {"x": 4, "y": 2, "type": "pit"}]},
        "flags": [{"x": 5, "y": 3}], "docks": [{"x": 0, "y": 3, "facing": "N"}],
        "rules": {"max_rounds": 4, "respawn_damage": respawn_damage},
        "robots": [
            {"name": "Faller", "at": {"x": 1, "y": 1, "facing": "E"}, "damage": 3, "options": 2,
             "program": [["move1"], {"cards": ["left"], "power_down": True}, [], ["uturn"]]},
            {"name": "Sleeper", "at": {"x": 3, "y": 2, "facing": "E"}, "damage": 4, "lives": 1,
             "powered_down": True, "program": [[], ["move1"]]},
        ]}


def _state(timeline, round, register, name):
    return timeline.frames[timeline.moment_frame(round, register)].robot(name)


@pytest.mark.parametrize("respawn_damage", [0, 3, 6])
def test_deaths_reentries_and_power_downs_match_the_engine(respawn_damage):
    scenario = load_dict(falls_and_power_downs(respawn_damage))
    timeline = play_race(scenario)
    cross_check(timeline, scenario, 0)
    assert {"destroyed", "reenter", "powered_down", "out"} <= {e.kind for e in timeline.events}
    # the rule's value shows after re-entry, though the timeline does not know the rule
    faller = _state(timeline, 1, None, "Faller")
    assert (faller.alive, faller.damage, faller.lives, faller.options) == \
        (True, respawn_damage, 2, 1)
    assert _state(timeline, 1, 1, "Sleeper").damage == 4           # powered down from the start
    assert (_state(timeline, 3, 1, "Faller").powered_down, _state(timeline, 3, 1, "Faller").damage) \
        == (True, 0)


def test_the_timeline_takes_rule_values_from_the_events_alone():
    """Events that say other values than the rules would give: the timeline
    shows what the events say (it applies no rule of its own)."""
    race = new_race(load_dict(falls_and_power_downs()), seed=0)
    race.run()
    forged = [e._replace(options=7) if e.kind == "destroyed" else
              e._replace(amount=5) if e.kind in ("powered_down", "reenter") else e
              for e in race.events]
    t = build_timeline(forged)
    faller = _state(t, 1, 1, "Faller")
    assert (faller.alive, faller.options) == (False, 7)
    assert _state(t, 1, None, "Faller").damage == 5                 # re-entered
    assert _state(t, 1, 1, "Sleeper").damage == 5                   # powered down in round 1
    assert _state(t, 3, 1, "Faller").damage == 5                    # powered down in round 3
    assert _state(t, 2, 1, "Sleeper").options == 7
