"""The team bot (engine/bots/team.py): what it heads for in each role and
variant, and how it counts the others' round on a team course."""
from __future__ import annotations

from pathlib import Path

from rallyforge.engine.bots import new_race
from rallyforge.engine.bots.aware import PUSH_GAIN, RIVALRY
from rallyforge.engine.bots.team import BLOCKING, TeamBot
from rallyforge.engine.bots.team_goals import distance, goal
from rallyforge.engine.format.loader import load_file
from rallyforge.engine.rules.state import RobotState

COURSES = Path(__file__).parent / "fixtures" / "teams"


def race_of(name: str, bots=("team",) * 4):
    return new_race(load_file(COURSES / f"{name}.json"), seed=1, robot_count=4, bots=list(bots),
                    record_events=False)


def view_of(race, index):
    return race.controllers[index].view


def test_a_blocker_heads_for_the_leading_opposing_racers_next_flag():
    race = race_of("player")
    teams = race.floor.teams
    blocker = next(i for i, b in enumerate(teams.blocker) if b)
    foes = [r for r in race.robots if teams.team[r.index] != teams.team[blocker]]
    racer = next(r for r in foes if not teams.blocker[r.index])
    racer.flags = 2                     # it leads: its next flag is flag 3
    view = view_of(race, blocker)
    assert TeamBot().target(view, teams) == view.flags[2]
    # a racer heads for its own next flag (the aware bot's view)
    assert TeamBot().aimed(view_of(race, racer.index)) is view_of(race, racer.index)


def test_capture_and_elimination_play_every_bots_goal():
    for name in ("capture", "elim"):                # engine/bots/team_goals.py
        race = race_of(name)
        view = view_of(race, 0)
        assert TeamBot().target(view, race.floor.teams) is None
        assert TeamBot().aimed(view) is view


def test_flag_control_takes_the_flag_it_gets_to_before_the_other_team():
    race = race_of("control")
    teams, course = race.floor.teams, race.course
    red, blue = race.robots[0], race.robots[1]
    race.robots[2].sq = race.robots[3].sq = -1      # one robot a side on the board
    red.sq, blue.sq = course.square(4, 5), course.square(2, 4)    # blue beside flag (2, 3)
    view = view_of(race, 0)
    plain = goal(view)
    assert plain == course.square(2, 3)             # every bot: the nearest flag
    taken = TeamBot().target(view, teams)
    lead = {sq: distance(view, blue.sq, sq) - distance(view, red.sq, sq)
            for sq in teams.flag_home}
    assert taken != plain and lead[taken] == max(lead.values())


def test_a_teammate_destroyed_or_shot_is_a_loss_a_foe_destroyed_a_gain():
    race = race_of("any")
    teams = race.floor.teams
    view = view_of(race, 0)
    mate = next(r for r in race.robots if r.index and teams.team[r.index] == teams.team[0])
    foe = next(r for r in race.robots if teams.team[r.index] != teams.team[0])

    def after(robot, deaths=0, damage=0):
        copy = RobotState(robot.index, robot.name, robot.sq, robot.facing, damage=damage)
        copy.deaths = deaths
        return copy

    layered = TeamBot().tables(view).layered()
    bot = TeamBot()
    base = bot.others_worth(view, layered, [(after(mate), mate), (after(foe), foe)])
    assert bot.others_worth(view, layered, [(after(mate, deaths=1), mate),
                                            (after(foe), foe)]) < base - PUSH_GAIN
    assert bot.others_worth(view, layered, [(after(mate, damage=2), mate),
                                            (after(foe), foe)]) < base
    foe_dead = bot.others_worth(view, layered, [(after(mate), mate), (after(foe, deaths=1), foe)])
    assert foe_dead > base + PUSH_GAIN / 2


def test_team_bots_play_every_variant_to_a_result_or_the_round_limit():
    for name in ("player", "progress", "any", "control", "elim", "capture"):
        outcome = race_of(name, ("team", "search", "team", "search")).run()
        assert outcome.rounds >= 1 and (not outcome.winners or outcome.teams)


def test_a_blocker_weighs_an_opposing_racers_lost_registers_as_its_own():
    race = race_of("player")
    teams = race.floor.teams
    blocker = next(i for i, b in enumerate(teams.blocker) if b)
    racer = next(i for i, b in enumerate(teams.blocker) if not b)
    foe_racer = next(r for r in race.robots if teams.team[r.index] != teams.team[blocker]
                     and not teams.blocker[r.index])
    foe_blocker = next(r for r in race.robots if teams.team[r.index] != teams.team[blocker]
                       and teams.blocker[r.index])
    bot = TeamBot()
    assert bot.rivalry(view_of(race, blocker), foe_racer) == BLOCKING > RIVALRY
    assert bot.rivalry(view_of(race, blocker), foe_blocker) == RIVALRY
    assert bot.rivalry(view_of(race, racer), foe_racer) == RIVALRY
