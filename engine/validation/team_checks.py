"""The validator's checks of a team course (docs/rules.md 13, docs/format.md
Teams): a course that cannot be played as written, each message with its fix.

    E340  a team of one robot on a team course, or a single team
    E341  a blocker on a course whose victory is not "player"
    E342  "capture" without two teams, each with a home board holding one flag
    E343  flags on an "elimination" course
    E344  a dock listed by two teams, a team dock that does not exist, or two
          teams with one name
    E345  under "player", a player without exactly one racer
    W440  teams or roles on a course whose victory is "robot"
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rallyforge.engine.model.problems import ERROR, Problem, WARNING
from rallyforge.engine.model.scenario import Scenario, Seat, robots_for


def team_problems(s: Scenario, at: object) -> list[Problem]:
    """Every team problem of the course (`at`, the validator's Places that
    every check is given, places nothing here)."""
    victory = s.rules.victory
    if not s.team_race:
        return []
    if victory == "robot":
        return _roles_without_teams(s) or [Problem(
            WARNING, "W440", "the course names teams, but victory is \"robot\", where every "
            "robot races for itself; set rules.victory or remove the teams", "/rules")]
    problems = _team_docks(s)
    count = len(s.robots) or robots_for(s.goals, len(s.docks))
    seats = s.seats(count)
    sizes = Counter(seat.team for seat in seats)
    if len(sizes) < 2:
        problems.append(Problem(ERROR, "E340", f"the {count} robots that race make one team; a "
                                "team race needs 2 or more teams: race more robots "
                                "(goals.robots) or make smaller teams (goals.team_size)",
                                "/teams"))
    for team, size in sizes.items():
        if team is None:
            problems.append(Problem(ERROR, "E340", f"victory is \"{victory}\" but a robot has no "
                                    "team; give every robot a team (robots[].team or teams)",
                                    "/teams"))
        elif size < 2:
            problems.append(Problem(ERROR, "E340", f"team {team} has 1 robot of the {count} that "
                                    f"race; a team race needs 2 or more per team: add a dock to "
                                    f"its docks or make fewer teams (goals.team_size)", "/teams"))
    if victory != "player":
        problems += _roles_without_teams(s, seats)
    else:
        for team in sizes:
            racers = sum(1 for seat in seats if seat.team == team and seat.role == "racer")
            if team is not None and racers != 1:
                problems.append(Problem(ERROR, "E345", f"player {team} has {racers} racers; under "
                                        "victory \"player\" each player has one racer and the "
                                        "rest blockers: set the roles", "/teams"))
    if victory == "elimination" and s.flags:
        problems.append(Problem(ERROR, "E343", f"an \"elimination\" course has no flags, but this "
                                f"one has {len(s.flags)}: remove them or choose another victory",
                                "/flags"))
    if victory == "capture":
        problems += _homes(s)
    return problems


def _roles_without_teams(s: Scenario, seats: Sequence[Seat] | None = None) -> list[Problem]:
    """E341: blockers only play under "player"."""
    seats = seats if seats is not None else s.seats(len(s.robots) or len(s.docks))
    blockers = sum(1 for seat in seats if seat.role == "blocker")
    if not blockers:
        return []
    return [Problem(ERROR, "E341", f"{blockers} robot(s) are blockers, but victory is "
                    f"\"{s.rules.victory}\"; blockers play only under victory \"player\": make "
                    "them racers or set rules.victory to \"player\"", "/rules")]


def _team_docks(s: Scenario) -> list[Problem]:
    """E344: each dock in one team, each team's docks on the course, names unique."""
    problems = []
    owner: dict[int, str] = {}
    names = Counter(t.name for t in s.teams)
    for k, team in enumerate(s.teams):
        if names[team.name] > 1:
            problems.append(Problem(ERROR, "E344", f"two teams are named {team.name}; rename one",
                                    f"/teams/{k}/name"))
        for dock in team.docks:
            if dock > len(s.docks):
                problems.append(Problem(ERROR, "E344", f"team {team.name} names dock {dock}, but "
                                        f"the course has {len(s.docks)} docks; remove it or add "
                                        "a dock", f"/teams/{k}/docks"))
            elif dock in owner:
                problems.append(Problem(ERROR, "E344", f"dock {dock} is in team {owner[dock]} and "
                                        f"in team {team.name}; keep it in one",
                                        f"/teams/{k}/docks"))
            owner.setdefault(dock, team.name)
    return problems


def _homes(s: Scenario) -> list[Problem]:
    """E342: capture needs two teams, each with a home board holding one flag."""
    if len(s.teams) != 2 or any(t.home is None for t in s.teams):
        return [Problem(ERROR, "E342", "victory \"capture\" needs two teams in teams, each with "
                        "its home board: add {\"name\", \"docks\", \"home\": {\"x\", \"y\", "
                        "\"width\", \"height\"}} for each", "/teams")]
    problems = []
    for k, team in enumerate(s.teams):
        home = team.home
        assert home is not None
        flags = [f for f in s.flags if home.contains(f.x, f.y)]
        if len(flags) != 1:
            problems.append(Problem(ERROR, "E342", f"team {team.name}'s home board holds "
                                    f"{len(flags)} flags; under \"capture\" each home board holds "
                                    "its team's one flag: move the flags or the home",
                                    f"/teams/{k}/home"))
    return problems
