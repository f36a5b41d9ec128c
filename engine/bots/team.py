"""The team bot: the aware bot playing for its side on a team course
(docs/rules.md 13); elsewhere it is the aware bot.

What it aims for. The aware bot heads for its next flag; the team bot
heads for a square its role and the variant give (``target``), by handing
the aware bot a view whose one flag is that square:

- a racer ("player", "team_progress", "team_any"): its next flag, as the
  aware bot;
- a blocker ("player"): the next flag of the leading opposing racer (the
  one with most flags touched, the nearest to its flag among equals), to
  stand in its path;
- "flag_control": the nearest flag its team does not hold (take), else the
  nearest flag (hold);
- "elimination": the nearest robot of another team (hunt);
- "capture": carrying, its own flag's square on its home board; else the
  other team's flag while no teammate carries it (carry, chase a carrier);
  else its own flag, or the robot carrying it (defend).

How it judges the others. The aware bot's look-ahead counts another robot's
destruction and lost progress as its gain; the team bot counts them so for
robots of other teams only, and as its loss for teammates, with the damage
it does them (so it neither pushes nor shoots a teammate when another
program does as well).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rallyforge.engine.bots.aware import PUSH_GAIN, AwareBot
from rallyforge.engine.bots.search import DAMAGE
from rallyforge.engine.rules.bot_view import BotView
from rallyforge.engine.rules.paths import UNREACHABLE, distances_to
from rallyforge.engine.rules.state import RobotState

if TYPE_CHECKING:
    import random

    from rallyforge.engine.bots.tables import Layered
    from rallyforge.engine.model.scenario import Card
    from rallyforge.engine.rules.teams import TeamPlay

TEAMMATE_DEATH = 2 * PUSH_GAIN      # registers' worth lost when a teammate is destroyed


class TeamBot(AwareBot):
    def program(self, view: BotView, hand: list[Card], free_registers: list[int],
                rng: random.Random) -> list[Card]:
        aimed = self.aimed(view)
        return super().program(aimed, hand, free_registers, rng)

    def power_down(self, view: BotView, rng: random.Random) -> bool:
        return super().power_down(self.aimed(view), rng)

    def aimed(self, view: BotView) -> BotView:
        """The view the aware bot plays: its own, or one whose only flag is
        the square to head for (its robot having touched no flag)."""
        teams = view.teams
        robot = view.robot
        if teams is None or robot.sq < 0:
            return view
        target = self.target(view, teams)
        if target is None:
            return view
        proxy = RobotState(robot.index, robot.name, robot.sq, robot.facing, damage=robot.damage,
                           lives=robot.lives, powered_down=robot.powered_down)
        proxy.archive, proxy.registers = robot.archive, list(robot.registers)
        robots = [proxy if r is robot else r for r in view.robots]
        return BotView(view.board, view.course, (target,), view.rules, proxy, robots, teams=teams)

    def target(self, view: BotView, teams: TeamPlay) -> int | None:
        """The square to head for (None: its next flag, as the aware bot)."""
        robot = view.robot
        mine = teams.team[robot.index]
        foes = [r for r in view.robots if teams.team[r.index] != mine and not r.out]
        victory = teams.victory
        if victory == "player" and teams.blocker[robot.index]:
            racers = [r for r in foes if not teams.blocker[r.index] and r.flags < len(view.flags)]
            if not racers:
                return None
            lead = max(racers, key=lambda r: (r.flags, -_distance(view, r.sq,
                                                                  view.flags[r.flags])))
            return view.flags[lead.flags]
        if victory == "flag_control":
            free = [sq for k, sq in enumerate(view.flags) if teams.owner[k] != mine]
            return _nearest(view, robot.sq, free or list(view.flags))
        if victory == "elimination":
            return _nearest(view, robot.sq, [r.sq for r in foes if r.sq >= 0])
        if victory == "capture":
            own, theirs = teams.flag_of[mine], 1 - teams.flag_of[mine]
            if teams.carrier[theirs] == robot.index:
                return teams.flag_home[own]
            if teams.carrier[theirs] < 0 or teams.team[teams.carrier[theirs]] != mine:
                return _flag_square(view, teams, theirs)
            return _flag_square(view, teams, own)
        return None

    def others_worth(self, view: BotView, layered: Layered,
                     rivals: list[tuple[RobotState, RobotState]]) -> float:
        teams = view.teams
        if teams is None:
            return super().others_worth(view, layered, rivals)
        mine = teams.team[view.robot.index]
        foes = [(after, before) for after, before in rivals if teams.team[before.index] != mine]
        friends = [(after, before) for after, before in rivals
                   if teams.team[before.index] == mine]
        hurt = sum(TEAMMATE_DEATH if after.deaths else
                   DAMAGE * max(0, after.damage - before.damage) for after, before in friends)
        return super().others_worth(view, layered, foes) - hurt


def _flag_square(view: BotView, teams: TeamPlay, flag: int) -> int | None:
    """Where flag `flag` is: its square, or its carrier's."""
    carrier = teams.carrier[flag]
    if carrier < 0:
        return teams.flag_sq[flag]
    square = view.robots[carrier].sq
    return square if square >= 0 else None


def _distance(view: BotView, start: int, goal: int) -> int:
    d = distances_to(view.course, goal)[start] if start >= 0 else UNREACHABLE
    return d if d != UNREACHABLE else view.course.size


def _nearest(view: BotView, start: int, squares: list[int]) -> int | None:
    """The square of `squares` nearest to `start` by path (None: none)."""
    return min(squares, key=lambda sq: (_distance(view, start, sq), sq), default=None)
