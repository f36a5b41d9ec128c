"""What every bot heads for under flag control and capture
(engine/bots/team_goals.py, docs/rules.md 13.5 and 13.7)."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

from rallyforge.engine.bots import new_race
from rallyforge.engine.bots.team_goals import DEPTH, distance, goal
from rallyforge.engine.format.loader import load_file

COURSES = Path(__file__).parent / "fixtures" / "teams"


def race_of(name: str, bot: str = "search", seed: int = 1):
    return new_race(load_file(COURSES / f"{name}.json"), seed=seed, robot_count=4,
                    bots=[bot] * 4, record_events=False)


def views(race):
    return [c.view for c in race.controllers]


def test_flag_control_teammates_share_out_the_flags_their_team_does_not_hold():
    race = race_of("control")
    teams = race.floor.teams
    v = views(race)
    red = [i for i in range(4) if teams.team[i] == teams.team[0]]
    goals = [goal(v[i]) for i in red]
    assert set(goals) <= set(teams.flag_home) and goals[0] != goals[1]   # not both to one
    # a flag the team holds is nobody's goal while another is free
    held = goals[0]
    teams.owner[teams.flag_home.index(held)] = teams.team[0]
    assert held not in {goal(v[i]) for i in red}
    # one free flag for two: the one nearer takes it, the other guards the
    # held flag nearest to a robot of the other team
    free = [sq for sq in teams.flag_home if sq != held][0]
    teams.owner[:] = [teams.team[0] if sq != free else -1 for sq in teams.flag_home]
    taker = min(red, key=lambda i: (distance(v[i], v[i].robot.sq, free), i))
    guard = next(i for i in red if i != taker)
    assert goal(v[taker]) == free
    foes = [r.sq for r in race.robots if teams.team[r.index] != teams.team[0]]
    guarded = goal(v[guard])
    assert guarded != free and guarded in teams.flag_home
    others = [sq for sq in teams.flag_home if sq not in (free, guarded)]
    nearest_foe = min(distance(v[guard], f, guarded) for f in foes)
    assert all(min(distance(v[guard], f, sq) for f in foes) >= nearest_foe for sq in others)


def test_capture_a_carrier_heads_deep_into_its_home_board_not_to_its_flag():
    race = race_of("capture")
    teams, course = race.floor.teams, race.course
    v = views(race)
    red = teams.team[0]
    own, theirs = teams.flag_of[red], 1 - teams.flag_of[red]
    assert goal(v[0]) == teams.flag_sq[theirs]                 # go and take it
    robot = race.robots[0]
    robot.sq = teams.flag_sq[theirs]                           # it picked it up there
    teams.carrier[theirs], teams.flag_sq[theirs] = 0, -1
    home = goal(v[0])
    assert home in teams.home[red]
    x = home % course.width
    assert x <= 5 - (DEPTH - 1)          # home is columns 0-5: DEPTH squares from column 6
    assert distance(v[0], robot.sq, home) < distance(v[0], robot.sq, teams.flag_home[own])


def test_capture_the_teammate_nearest_a_thief_chases_it_the_other_attacks():
    race = race_of("capture")
    teams = race.floor.teams
    v = views(race)
    red = teams.team[0]
    own, theirs = teams.flag_of[red], 1 - teams.flag_of[red]
    thief = next(r for r in race.robots if teams.team[r.index] != red)
    thief.sq = teams.flag_sq[own]
    teams.carrier[own], teams.flag_sq[own] = thief.index, -1
    mates = [i for i in range(4) if teams.team[i] == red]
    chaser = min(mates, key=lambda i: (distance(v[i], v[i].robot.sq, thief.sq), i))
    other = next(i for i in mates if i != chaser)
    assert goal(v[chaser]) == thief.sq
    assert goal(v[other]) == teams.flag_sq[theirs]
    # once a teammate carries their flag, the other defends: it chases the thief
    teams.carrier[theirs], teams.flag_sq[theirs] = other, -1
    assert goal(v[chaser]) == thief.sq


def test_elimination_hunts_the_nearest_robot_of_another_team():
    race = race_of("elim")
    teams = race.floor.teams
    v = views(race)[0]
    foes = [r.sq for r in race.robots if teams.team[r.index] != teams.team[0]]
    assert goal(v) == min(foes, key=lambda sq: (distance(v, v.robot.sq, sq), sq))


def test_plain_search_bots_decide_flag_control_capture_and_elimination_races():
    for name in ("control", "capture", "elim"):
        decided = Counter(bool(race_of(name, seed=s).run().teams) for s in range(8))
        assert decided[True] >= 6, (name, decided)


def test_same_seed_same_team_race():
    for name in ("control", "capture"):
        logs = []
        for _ in range(2):
            race = new_race(load_file(COURSES / f"{name}.json"), seed=3, robot_count=4,
                            bots=["team", "search", "team", "search"])
            race.run()
            logs.append(list(race.events))
        assert logs[0] == logs[1] and any(e.kind in ("team_flag", "pick_up") for e in logs[0])
