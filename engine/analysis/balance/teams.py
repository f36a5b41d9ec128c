"""Verdicts by team (docs/rules.md 13): on a team course a balance run
compares teams and seats, not docks. Who wins and by how much, each share
of the decided races with its Wilson 95% interval, each seat's (its place round the docks in use)
win share, and whether the first seat's side has an edge over an even share.

A race won by two teams at once (a tie) counts half a win to each.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Literal, TypedDict

from rallyforge.engine.analysis import stats
from rallyforge.engine.analysis.balance.summary import RaceSummary
from rallyforge.engine.model.scenario import Scenario


class Share(TypedDict):
    """A team's or a seat's wins over the decided races it raced."""
    name: str
    races: int
    wins: float
    share: float
    ci: list[float]


class TeamVerdict(TypedDict):
    victory: str
    teams: list[Share]                  # most wins first
    seats: list[Share]                  # seat 1, 2, ...: the side of that seat won
    leader: str | None                  # the team that wins most, None when no race is won
    margin: float                       # its share minus the next team's
    margin_ci: list[float]              # 95%, normal approximation of the difference
    first_side: Share                   # the side of seat 1
    even: float                         # an even share: 1 / teams
    edge: Literal["edge", "behind", "none"]     # "none": the interval holds an even share


def _share(name: str, wins: float, races: int) -> Share:
    lo, hi = stats.wilson(wins, races) if races else (0.0, 1.0)
    return {"name": name, "races": races, "wins": round(wins, 3),
            "share": round(wins / races, 6) if races else 0.0,
            "ci": [round(lo, 6), round(hi, 6)]}


class TeamTally:
    """A team course's races counted race by race (``add``, in plan order);
    ``result``: the verdict by team, None on a course without teams."""

    def __init__(self, scenario: Scenario):
        self.scenario = scenario
        self.played = 0                     # races with sides and a winning team
        self.sided = False                  # a race with sides seen
        self.names: set[str] = set()        # every side seen
        self.team_races: dict[str, int] = defaultdict(int)
        self.team_wins: dict[str, float] = defaultdict(float)
        self.seat_wins: dict[int, float] = defaultdict(float)
        self.seat_races: dict[int, int] = defaultdict(int)

    def add(self, races: Iterable[RaceSummary]) -> None:
        if not self.scenario.team_race:
            return
        for r in races:
            self.sided = self.sided or bool(r.sides)
            self.names.update(s for s in r.sides if s)
            if not (r.sides and r.won_teams):
                continue
            self.played += 1
            ranks = Scenario.seat_ranks(r.docks)
            by_seat = {rank: r.sides[i] for i, rank in enumerate(ranks)}
            for team in set(s for s in r.sides if s is not None):
                self.team_races[team] += 1
            for team in r.won_teams:
                self.team_wins[team] += 1 / len(r.won_teams)
            for seat, side in by_seat.items():
                self.seat_races[seat] += 1
                if side in r.won_teams:
                    self.seat_wins[seat] += 1 / len(r.won_teams)

    def result(self) -> TeamVerdict | None:
        if not self.sided:
            return None
        teams = sorted((_share(t, self.team_wins[t], self.team_races[t]) for t in self.team_races),
                       key=lambda s: (-s["wins"], s["name"]))
        seats = [_share(f"seat {s + 1}", self.seat_wins[s], self.seat_races[s])
                 for s in sorted(self.seat_races)]
        n = self.played
        if not teams:
            teams = [_share(name, 0, 0) for name in sorted(self.names)]
            seats = [_share("seat 1", 0, 0)]
        top, nxt = teams[0], teams[1] if len(teams) > 1 else None
        margin = top["share"] - (nxt["share"] if nxt else 0.0)
        # the difference of two shares of the same races (one win excludes the other)
        p1, p2 = top["share"], nxt["share"] if nxt else 0.0
        sd = ((p1 + p2 - (p1 - p2) ** 2) / n) ** 0.5 if n else 1.0
        first = seats[0]
        even = 1 / len(teams)
        lo, hi = first["ci"]
        return {"victory": self.scenario.rules.victory, "teams": teams, "seats": seats,
                "leader": top["name"] if top["wins"] else None, "margin": round(margin, 6),
                "margin_ci": [round(margin - stats.Z95 * sd, 6), round(margin + stats.Z95 * sd, 6)],
                "first_side": {**first, "name": "the first seat's side"}, "even": round(even, 6),
                "edge": "edge" if lo > even else "behind" if hi < even else "none"}


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def team_lines(v: TeamVerdict) -> list[str]:
    """The verdict in words, one sentence a line."""
    if v["leader"] is None:
        return ["No team won a race: nothing to compare."]
    lo, hi = v["margin_ci"]
    clear = "clearly" if lo > 0 else "not clearly"
    lines = [f"Team {v['leader']} wins most, {clear}: {_pct(v['margin'])} more decided races "
             f"than the next team (95% interval {_pct(lo)} to {_pct(hi)})."]
    for t in v["teams"]:
        lines.append(f"Team {t['name']} wins {_pct(t['share'])} of decided races (95% interval "
                     f"{_pct(t['ci'][0])} to {_pct(t['ci'][1])}, {t['races']} races).")
    f = v["first_side"]
    word = {"edge": "has an edge", "behind": "is behind", "none": "has no clear edge"}[v["edge"]]
    lines.append(f"The first seat's side {word}: it wins {_pct(f['share'])} (95% interval "
                 f"{_pct(f['ci'][0])} to {_pct(f['ci'][1])}) where an even share is "
                 f"{_pct(v['even'])}.")
    return lines
