"""A balance result's verdict in words: the report's "In short" section
(report.py) and the editor's verdict box and summary, from one typed
``InShort`` made here, so that the two never read each other.

``kind`` names the verdict's colours (charts.py ``VERDICT_STYLE``): the
docks' verdict (fair, unfair, inconclusive), "few_wins" while too few races
are won to judge the docks, or on a team course the first seat's side
(``team_kind``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rallyforge.engine.analysis.balance.course_card import seat_verdict
from rallyforge.engine.analysis.balance.teams import team_lines
from rallyforge.engine.analysis.course_card.build import fairness_words

if TYPE_CHECKING:
    from rallyforge.engine.analysis.balance.teams import TeamVerdict
    from rallyforge.engine.analysis.balance.types import BalanceResult, Dock


@dataclass(frozen=True)
class InShort:
    kind: str                   # the verdict's colours: fair, unfair, inconclusive, few_wins
    lead: str                   # the verdict's sentence (Markdown)
    points: tuple[str, ...]     # one line each after it: each team's or dock's figures
    notes: tuple[str, ...]      # lines after those: why both, how many races have a winner
    listed: bool = False        # a team course: the lead is the first of the points' list


def pct(x: float | None) -> str:
    if x is None:
        return "n/a"
    if 0 < x < 0.01 or 0.99 < x < 1:        # 99.6% is not 100%
        return f"{100 * x:.1f}%"
    return f"{100 * x:.0f}%"


def rounds_text(x: float | None) -> str:
    return "n/a" if x is None else f"{x:g}"


def dock_apart_note() -> str:
    return ("with several docks, one of them often misses the fair share by chance; the "
            "verdict weighs all docks together (a chi-square test), so it is the one to go by.")


def fair_share(result: BalanceResult, dock: Dock) -> float:
    """A dock's fair share of decided races (1/k for k robots a race)."""
    k = result["robots"]
    return dock.get("fair_share", 1.0 / k if k else 0.0)


def undecided_races(result: BalanceResult) -> bool:
    """Whether a race of the run has no winner. The words and the chart give
    each dock's share of the decided races (races someone won), the figure
    its fair share is compared with; when every race is won, that share is
    its win rate, and is called so."""
    return result["completion"]["decided"] < result["races"]


def dock_stands_apart(result: BalanceResult, dock: Dock) -> str | None:
    """"above" or "below" for the seat the verdict names (the one furthest
    from its fair share, when the course is unfair and its interval leaves
    that out: aggregate.fairness), None for every other: the only case for a
    warning colour."""
    if not dock["races"] or result["fairness"].get("named") != dock["dock"]:
        return None
    return "above" if dock["share"] > fair_share(result, dock) else "below"


def few_wins(result: BalanceResult) -> str | None:
    """The verdict's lead when too few races are won to judge the docks
    (engine/analysis/balance/aggregate.py ``WINS_PER_DOCK``): how many were won, where
    robots died, and how many races would do. None otherwise."""
    n, won = result["races"], result["completion"]["decided"]
    needed = result["fairness"].get("wins_needed", 0)
    if not n or won >= needed:
        return None
    if 2 * won >= n:         # most are won: a short run, not a course nobody finishes
        head, why = f"**{won} of {n} races were won**", "too few to judge the docks yet"
    else:
        head = (f"**Only {won} of {n} races were won**" if won else
                f"**No robot reached the last flag in {n} races**")
        why = _where_robots_died(result)
    more = result["fairness"]["more_races_needed"]
    wait = f"about {more} more races should do" if more else "none is yet"
    return f"{head}: {why}. The docks' fairness is judged once {needed} races are won ({wait})."


def _where_robots_died(result: BalanceResult) -> str:
    """The leg with the most deaths and the deadliest square, in words."""
    legs = [leg for leg in result["legs"] if leg["deaths"]]
    if not legs:
        return "no robot died: the races ran out of rounds"
    leg = max(legs, key=lambda leg: leg["deaths"])
    card = result.get("card")
    square = card["deadliest_square"] if card else None
    where = f", the most at ({square['x']}, {square['y']}) ({square['cause']})" if square else ""
    return f"most died on the way to flag {leg['to_flag']}{where}"


def team_kind(v: TeamVerdict) -> str:
    """A team course's verdict colours: "unfair" when the first seat's side
    has an edge or is behind, "fair" when its share is within 5 points of an
    even share, "few_wins" when no team won, else "inconclusive"."""
    lo, hi = v["first_side"]["ci"]
    if v["leader"] is None:
        return "few_wins"
    if v["edge"] != "none":
        return "unfair"
    return "fair" if v["even"] - 0.05 <= lo and hi <= v["even"] + 0.05 else "inconclusive"


def in_short(result: BalanceResult) -> InShort:
    """The verdict and the figures behind it, in words."""
    by_team = result.get("teams")
    if not result["races"]:
        return InShort("inconclusive", "**No races were played.**", (), ())
    if by_team is not None:         # a team course: teams and seats, not docks (docs/rules.md 13)
        lead, *lines = team_lines(by_team)
        return InShort(team_kind(by_team), lead, tuple(lines), _notes(result, False),
                       listed=True)
    few = few_wins(result)
    points, lone = _dock_points(result, few is not None)
    notes = (("", f"Why both: {dock_apart_note()}") if lone else ()) + _notes(result, bool(few))
    if few:
        return InShort("few_wins", few, points, notes)
    return InShort(result["fairness"]["verdict"], _dock_lead(result), points, notes)


def _dock_lead(result: BalanceResult) -> str:
    fairness = result["fairness"]
    if fairness["verdict"] == "unfair":
        seats = fairness_words(seat_verdict(fairness, result["robots"])).removeprefix(
            "unfair").lstrip(",: ")
        return (f"**The course is unfair**: the seats' wins are too uneven to be luck "
                f"(chi-square p = {fairness['chi2_p']:.2g}); {seats}.")
    if fairness["verdict"] == "fair":
        return ("**The course looks fair**: every seat's share of decided races (races "
                "someone won) is within 5 points of a fair share, at 95% confidence.")
    more = fairness["more_races_needed"]
    hint = (f" About {more} more races should settle it." if more is not None
            else " More races may not settle it: the differences are near the 5-point line.")
    return (f"**Not settled yet**: no clear sign of bias, but the intervals are still "
            f"too wide to call the course fair.{hint}")


def _dock_points(result: BalanceResult, few: bool) -> tuple[tuple[str, ...], bool]:
    """A line per dock, and whether one stands apart on its own while the
    docks together show no bias."""
    lines: list[str] = []
    lone = False
    for d in result["docks"]:
        if not d["races"]:
            lines.append(f"Dock {d['dock']} was not used.")
            continue
        if few:             # no comparison with a fair share: too few races are won
            lines.append(f"Dock {d['dock']} wins {pct(d['win_rate'])} of races (95% interval "
                         f"{pct(d['ci'][0])} to {pct(d['ci'][1])}, {d['races']} races).")
            continue
        lo, hi = d["share_ci"]
        fair = fair_share(result, d)
        side = "above" if d["share"] > fair else "below"
        clear = lo > fair or hi < fair              # the interval leaves out a fair share
        big = abs(d["share"] - fair) > 0.05
        but = ""
        if clear and result["fairness"]["verdict"] != "unfair":
            lone = True
            how, but = side, ", though the course as a whole shows no clear bias"
        elif clear:
            how = f"well {side}" if big else f"a little {side}"
        elif big:
            how, but = side, ", though not clearly"
        else:
            how = "close to"
        share = pct(d["share"])
        wins, raced = ((f"{share} of its decided races", f"{d['decided']} decided races")
                       if undecided_races(result) else (f"{share} of races", f"{d['races']} races"))
        lines.append(f"Dock {d['dock']} wins {wins}, {how} the {pct(fair)} of a fair course "
                     f"(95% interval {pct(lo)} to {pct(hi)}, {raced}){but}.")
    return tuple(lines), lone


def _notes(result: BalanceResult, few: bool) -> tuple[str, ...]:
    """How many races have a winner and how long they take; the spread of
    the docks' win rates (unless too few races are won)."""
    comp, length = result["completion"], result["length"]
    line = (f"{pct(comp['rate'])} of races have a winner (95% interval "
            f"{pct(comp['ci'][0])} to {pct(comp['ci'][1])}).")
    if length["median"] is not None:
        spread = (f"half of them between rounds {rounds_text(length['q1'])} and "
                  f"{rounds_text(length['q3'])}" if length["q3"] is not None else
                  f"a quarter by round {rounds_text(length['q1'])}")
        line += f" A race is won in round {rounds_text(length['median'])} (median; {spread})."
    else:
        line += " Fewer than half of them are won, so there is no median length."
    if few:
        return ("", line)
    balance = result["fairness"]["balance"]
    return ("", line, f"Balance {balance:.2f}: the best and worst docks' win rates are "
                      f"{100 * (1 - balance):.0f} points apart.")
