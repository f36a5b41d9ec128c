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
- "flag_control": the flag every bot's pairing gives it
  (engine/bots/team_goals.py), robots and flags paired by how far the robot
  is ahead of the other team on the way (measured, 400 races on Toggle
  Boggle against search bots: 65% of races won, against 56% paired by
  distance alone);
- "capture" and "elimination": the goal every bot plays (carry, chase,
  defend; hunt).

How it judges the others. The aware bot's look-ahead counts another robot's
destruction and lost progress as its gain; the team bot counts them so for
robots of other teams only, and as its loss for teammates, with the damage
it does them (so it neither pushes nor shoots a teammate when another
program does as well). A blocker counts each register an opposing racer
loses as BLOCKING of its own (pushing or shooting it is its task).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rallyforge.engine.bots.aware import PUSH_GAIN, AwareBot
from rallyforge.engine.bots.search import DAMAGE
from rallyforge.engine.bots.team_goals import aimed, control, distance
from rallyforge.engine.rules.bot_view import BotView
from rallyforge.engine.rules.state import RobotState

if TYPE_CHECKING:
    import random

    from rallyforge.engine.bots.tables import Layered
    from rallyforge.engine.model.scenario import Card
    from rallyforge.engine.rules.teams import TeamPlay

TEAMMATE_DEATH = 2 * PUSH_GAIN      # registers' worth lost when a teammate is destroyed
BLOCKING = 1.0     # a blocker's weight of an opposing racer's registers lost (aware: RIVALRY)


class TeamBot(AwareBot):
    def program(self, view: BotView, hand: list[Card], free_registers: list[int],
                rng: random.Random) -> list[Card]:
        return super().program(self.aimed(view), hand, free_registers, rng)

    def power_down(self, view: BotView, rng: random.Random) -> bool:
        return super().power_down(self.aimed(view), rng)

    def aimed(self, view: BotView) -> BotView:
        """The view the aware bot plays: one whose only flag is the square
        its role gives, or its own (under flag control and capture, the
        goal every bot plays, engine/bots/team_goals.py)."""
        teams = view.teams
        if teams is None or view.robot.sq < 0:
            return view
        target = self.target(view, teams)
        return view if target is None else aimed(view, target)

    def target(self, view: BotView, teams: TeamPlay) -> int | None:
        """The square a blocker (the leading opposing racer's next flag) or,
        under flag control, a taker heads for; None: as every bot."""
        robot = view.robot
        mine = teams.team[robot.index]
        foes = [r for r in view.robots if teams.team[r.index] != mine and not r.out]
        victory = teams.victory
        if victory == "player" and teams.blocker[robot.index]:
            racers = [r for r in foes if not teams.blocker[r.index] and r.flags < len(view.flags)]
            if not racers:
                return None
            lead = max(racers, key=lambda r: (r.flags, -distance(view, r.sq,
                                                                 view.flags[r.flags])))
            return view.flags[lead.flags]
        if victory == "flag_control":
            return control(view, teams, contest=True)
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

    def rivalry(self, view: BotView, other: RobotState) -> float:
        """A blocker's task is the opposing racers' lost progress: it weighs
        BLOCKING registers a register (the aware bot's RIVALRY otherwise)."""
        teams = view.teams
        if teams is not None and teams.victory == "player" and teams.blocker[view.robot.index] \
                and not teams.blocker[other.index]:
            return BLOCKING
        return super().rivalry(view, other)

