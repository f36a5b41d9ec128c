"""Team races (docs/rules.md 13): who races for whom, and the variants'
rules that the base game does not have.

A race on a course whose `victory` is not "robot" holds one ``TeamPlay``
(``Floor.teams``). The rules code asks it at a few points: whether a robot
touches flags (a blocker does not, 13.2), what a touch does (shared progress
13.3, flag control 13.5, picking up a flag 13.7), what a destruction does
(a player out 13.2, sitting out 13.5, dropping the flag and the home board
13.7), and whether a side has won (after each register and each round).
"""
from __future__ import annotations

from collections.abc import Sequence

from rallyforge.engine.model.scenario import TEAM_NAMES, Scenario, Seat
from rallyforge.engine.rules.course import Course
from rallyforge.engine.rules.state import Floor, RobotState, TeamSaved

# Variants whose flags are touched in order, one robot's progress deciding.
ORDERED = ("player", "team_progress", "team_any")


class TeamPlay:
    """The teams of one race and the variant's state. Teams are numbered by
    the first robot of each in robot order."""

    def __init__(self, scenario: Scenario, seats: Sequence[Seat], course: Course,
                 robots: Sequence[RobotState]):
        self.victory = scenario.rules.victory
        # the teams racing, then the course's others (a capture flag belongs
        # to its team even when none of its robots races, as in a time trial)
        self.names: list[str] = []
        for team in [seat.team for seat in seats] + [t.name for t in scenario.teams]:
            if team is not None and team not in self.names:
                self.names.append(team)
        self.team = [self.names.index(s.team) if s.team is not None else -1 for s in seats]
        self.blocker = [s.role == "blocker" for s in seats]
        self.course = course
        self.flag_home = tuple(course.square(f.x, f.y) for f in scenario.flags)
        self.won: tuple[int, ...] = ()          # teams that won (decided by the team)
        self.owner = [-1] * len(scenario.flags)     # flag_control: each flag's team
        self.sat_out: dict[int, int] = {}       # flag_control: robot -> round destroyed
        # capture: each team's home squares and flag, and where each flag is
        self.home: list[frozenset[int]] = []
        self.flag_of: list[int] = []            # team -> its flag's index
        if self.victory == "capture":
            by_name = {t.name: t for t in scenario.teams}
            for name in self.names:
                area = by_name[name].home
                assert area is not None, "capture needs home boards (E342)"
                self.home.append(frozenset(
                    course.square(x, y) for x in range(area.x, area.x + area.width)
                    for y in range(area.y, area.y + area.height)
                    if x < course.width and y < course.height))
                self.flag_of.append(next(k for k, sq in enumerate(self.flag_home)
                                         if sq in self.home[-1]))
        self.flag_sq = list(self.flag_home)     # capture: a flag's square, -1 when carried
        self.carrier = [-1] * len(scenario.flags)   # capture: the robot carrying each flag
        self.start = [robot.sq for robot in robots]

    # ------------------------------------------------------------ names

    def flag_name(self, flag: int) -> str:
        """"the blue flag" (capture): a flag by its team's colour, or
        "team A's flag" for a team named otherwise."""
        name = self.names[self.flag_of.index(flag)]
        return f"the {name.lower()} flag" if name in TEAM_NAMES else f"team {name}'s flag"

    def carries(self, robot: RobotState) -> int:
        """The number of the flag `robot` carries, 0 for none."""
        return next((k + 1 for k, r in enumerate(self.carrier) if r == robot.index), 0)

    def winners(self, finishers: tuple[int, ...]) -> tuple[int, ...]:
        """The robots (indices) of the winning side: the teams that won, or
        under an ordered variant the teams of the first finishers (`finishers`)."""
        teams = set(self.won) if self.victory not in ORDERED else {
            self.team[i] for i in finishers}
        return tuple(i for i, team in enumerate(self.team) if team in teams)

    # ------------------------------------------------------------ saving

    def saved(self) -> TeamSaved:
        return (self.won, list(self.owner), dict(self.sat_out), list(self.flag_sq),
                list(self.carrier))

    def restore(self, saved: TeamSaved) -> None:
        won, owner, sat_out, flag_sq, carrier = saved
        self.won, self.owner, self.sat_out = won, list(owner), dict(sat_out)
        self.flag_sq, self.carrier = list(flag_sq), list(carrier)

    # ------------------------------------------------------------ touching

    @property
    def unordered(self) -> bool:
        """Flags are not touched in order (flag control, capture)."""
        return self.victory in ("flag_control", "capture")

    def touched(self, floor: Floor, robot: RobotState) -> None:
        """13.3: a flag touched counts for every teammate."""
        if self.victory == "team_progress":
            for other in floor.robots:
                if other is not robot and self.team[other.index] == self.team[robot.index]:
                    other.flags = robot.flags
                    floor.emit("flag", other, src=floor.course.xy[robot.sq],
                               amount=other.flags, cause="team")

    def touch(self, floor: Floor, robot: RobotState, sq: int) -> None:
        """Step E for a robot of an unordered variant standing on `sq`."""
        if self.victory == "flag_control":
            flag = floor.flag_at[sq] - 1
            if flag >= 0 and self.owner[flag] != self.team[robot.index]:
                self.owner[flag] = self.team[robot.index]
                floor.emit("team_flag", robot, amount=flag + 1,
                           target=self.names[self.team[robot.index]])
            return
        for flag, at in enumerate(self.flag_sq):            # capture: pick up (13.7)
            if at == sq and self.flag_of[self.team[robot.index]] != flag:
                self.flag_sq[flag], self.carrier[flag] = -1, robot.index
                floor.emit("pick_up", robot, src=floor.course.xy[sq],
                           target=self.flag_name(flag))

    # ------------------------------------------------------------ destruction

    def spares(self, robot: RobotState, square: int) -> bool:
        """13.7: a robot destroyed on `square` of the other team's home board
        loses no life."""
        own = self.team[robot.index]
        return any(square in home for t, home in enumerate(self.home) if t != own)

    def destroyed(self, floor: Floor, robot: RobotState, square: int, spared: bool) -> None:
        """What a destruction on `square` does besides the base rules (after
        them): sitting out (13.5), dropping a flag and going home (13.7)."""
        if self.victory == "flag_control":
            self.sat_out[robot.index] = floor.round
            floor.emit("sits_out", robot)
            return
        for flag, who in enumerate(self.carrier):
            if who == robot.index:
                self.carrier[flag] = -1
                deadly = square < 0 or floor.course.death[square] is not None
                self.flag_sq[flag] = self.flag_home[flag] if deadly else square
                floor.emit("drop", robot, src=floor.course.xy[self.flag_sq[flag]],
                           target=self.flag_name(flag), cause="home" if deadly else None)
        if spared:
            robot.archive = self.start[robot.index]
            floor.emit("spared", robot, dst=floor.course.xy[robot.archive],
                       target=self.names[self.team[robot.index]])

    def went_out(self, floor: Floor, robot: RobotState) -> None:
        """13.2: a player whose racer is out is out (its blocker leaves)."""
        if self.victory != "player" or self.blocker[robot.index]:
            return
        for other in floor.robots:
            if other.index != robot.index and self.team[other.index] == self.team[robot.index] \
                    and not other.out:
                if other.sq >= 0:
                    floor.emit("leave", other, src=floor.course.xy[other.sq])
                    floor.occ[other.sq] = None
                    other.sq = -1
                other.out, other.destroyed = True, False
                other.powered_down = other.announced = False
                floor.outs += 1
                floor.emit("out", other)

    def may_reenter(self, robot: RobotState, round: int) -> bool:
        """13.5: a robot destroyed in this round sits out the next one whole."""
        return self.sat_out.get(robot.index) != round

    # ------------------------------------------------------------ winning

    def decide_register(self, floor: Floor) -> bool:
        """After a register: whether the race is decided (elimination)."""
        if self.victory != "elimination":
            return False
        alive = {self.team[r.index] for r in floor.robots if not r.out}
        if len(alive) > 1:
            return False
        self._win(floor, tuple(alive))
        return True

    def decide_round(self, floor: Floor) -> bool:
        """At the end of a round: a team holding every flag (13.5) or with
        the other team's flag on its home board (13.7) wins."""
        if self.victory == "flag_control":
            owners = set(self.owner)
            if len(owners) == 1 and -1 not in owners:
                self._win(floor, tuple(owners))
                return True
        elif self.victory == "capture":
            winners = tuple(t for t, home in enumerate(self.home)
                            if any(self._flag_square(floor, f) in home
                                   for f in range(len(self.flag_sq)) if f != self.flag_of[t]))
            if winners:
                self._win(floor, winners)
                return True
        return self.decide_register(floor)

    def _flag_square(self, floor: Floor, flag: int) -> int:
        who = self.carrier[flag]
        return floor.robots[who].sq if who >= 0 else self.flag_sq[flag]

    def _win(self, floor: Floor, teams: tuple[int, ...]) -> None:
        self.won = teams

    def team_names(self, robots: Sequence[int]) -> list[str]:
        """The names of the teams of `robots` (indices), in team order."""
        teams = {self.team[i] for i in robots}
        return [name for t, name in enumerate(self.names) if t in teams]
