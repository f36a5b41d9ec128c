"""The course card in words, judged against the course's goals, and read
back from a file (the card is made from a balance result by
engine/analysis/balance/course_card.py).

Every line carries its uncertainty: intervals are 95%; a class whose
interval reaches into a neighbouring class says so (``could_be``). The
card is a JSON-ready dict, a ``types.CourseCard`` (docs/format.md, "card");
``lines`` renders it as text; ``readable`` checks a card kept in a file
against that type.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TypeGuard

from rallyforge.engine.analysis.course_card import timemodel
from rallyforge.engine.analysis.course_card.calibration import death_bands
from rallyforge.engine.analysis.course_card.types import (CourseCard, Difficulty, Fairness, GoalCheck,
                                                          GoalVerdicts, Interval, Length, Printed,
                                                          ReentryLoop, SeatVerdict, TeamCard)
from rallyforge.engine.format.stored_course_card import with_card
from rallyforge.engine.format.typed_json import mismatch
from rallyforge.engine.model.scenario import Goals, Published, Scenario

CALIBRATED_BOT = "search"
# What "of decided races" means, said once wherever a share is shown.
DECIDED = "of decided races (races someone won)"
EVEN_BY = 0.05                # a team course's first seat's side counts as even within 5 points


def _ci(interval: Sequence[float | None], fmt: Callable[[float], str]) -> str:
    lo, hi = interval
    if lo is None and hi is None:
        return ""
    return f" (95%: {fmt(lo) if lo is not None else '?'} to {fmt(hi) if hi is not None else 'never'})"


def _shown(interval: Interval, decimals: int) -> Callable[[float], str]:
    """A format for a value and its `interval`: `decimals` decimals, or up to
    two more when the interval's ends would read alike (15 to 15 min while
    the races disagree)."""
    lo, hi = interval
    if lo is not None and hi is not None and lo != hi:
        while decimals < 3 and f"{lo:.{decimals}f}" == f"{hi:.{decimals}f}":
            decimals += 1
    return lambda v: f"{v:.{decimals}f}"


def _maybe(could_be: list[str]) -> str:
    return f", could be {' or '.join(could_be)}" if could_be else ""


def lines(c: CourseCard) -> list[str]:
    """The card as text, one line per item."""
    length, diff, fair = c["length"], c["difficulty"], c["fairness"]
    kind = "estimate from a quick run" if c["estimate"] else "measured"
    out = [f"Course card: {c['course']} ({kind}: {c['races']} races of "
           f"{seating_words(c.get('players') or [c['robots']], c.get('seating', 'game'), c['bot'])}"
           f", seed {c['seed']})"]
    if c.get("printed"):
        out.append(f"Published: course manual page {c['printed']['page']}; the printed ratings "
                   f"are shown beside the card's classes")
    printed = c.get("printed")
    printed_length = f" (printed: {printed['length']})" if printed else ""
    printed_difficulty = (f" (printed: {printed['difficulty'] or 'none, a team course'})"
                          if printed else "")
    if length["minutes"] is None or length["rounds"] is None:
        out.append(f"Length: long{printed_length}: most races are not decided within the round "
                   f"limit")
    else:
        rounds, minutes = _shown(length["rounds_ci"], 1), _shown(length["minutes_ci"], 0)
        # the time model's set-up (timemodel.SETUP), as this card was measured with it
        set_up = length["minutes"] - length["rounds"] * length["minutes_per_round"]
        out.append(f"Length: {length['class']}{_maybe(length['could_be'])}{printed_length}: median "
                   f"{rounds(length['rounds'])} rounds{_ci(length['rounds_ci'], rounds)}; "
                   f"at least {minutes(length['minutes'])} min at a table"
                   f"{_ci(length['minutes_ci'], minutes)}: {set_up:.0f} min to set up + "
                   f"{rounds(length['rounds'])} rounds × {length['minutes_per_round']:g} min "
                   f"(a lower estimate: bots waste fewer rounds than people)"
                   f"{_path_words(length)}")
    out.append(f"Difficulty: {diff['class']}{_maybe(diff['could_be'])}{printed_difficulty}: "
               f"{_rate(diff['deaths_per_robot_leg'])} deaths per robot per leg"
               f"{_ci(diff['ci'], _rate)}{_special_words(diff)}")
    teams = c.get("teams")
    if teams is not None:           # a team course: teams and seats, not docks
        out.append(_teams_line(teams))
    else:
        out.append(f"Fairness: {fairness_words(fair)}")
        for count in fair.get("by_players", ()):
            out.append(f"Fairness of {count['robots']} players: "
                       f"{fairness_words(count, count['robots'])}")
    leg = c["deadliest_leg"]
    out.append("Deadliest leg: none (no deaths)" if leg is None else
               f"Deadliest leg: to flag {leg['to_flag']}, {_rate(leg['rate'])} deaths per robot"
               f"{_ci(leg['ci'], _rate)}")
    sq = c["deadliest_square"]
    out.append("Deadliest square: none" if sq is None else
               f"Deadliest square: ({sq['x']}, {sq['y']}), {sq['per_100_races']:.1f} deaths per 100 "
               f"races{_ci(sq['ci'], lambda v: f'{v:.1f}')}, mostly "
               f"{sq.get('why', sq['cause'])}")    # a card kept before chains has no why
    out.extend(loop_line(loop) for loop in c.get("reentry_loops", ()))
    scores = ", ".join(f"{f['flag']}: {f['score']}" for f in c["flags"])
    out.append(f"Flag score: {_score(c['flag_score'])} ({scores or 'no flags'}): the publisher's "
               f"count of the hazards around each flag, averaged over the flags; a higher score "
               f"makes the difficulty class a step sooner")
    clock = c.get("programming_seconds")
    if clock is not None:
        out.append(f"Programming clock: {clock} s for people at a table, not simulated: bots "
                   f"program untimed, so the length and difficulty above leave it out")
    goals = c.get("goals")
    if goals is not None:
        out.append(_goal_line(goals, c["robots"]))
    if c["bot"] != CALIBRATED_BOT:
        out.append(f"Note: the classes are fitted to `{CALIBRATED_BOT}` robots' races, not "
                   f"`{c['bot']}` robots'")
    return out


def seating_words(players: list[int], seating: str, bot: str) -> str:
    """"4 `search` robots on docks 1-4 (the game's seating)", or the
    rotation labelled as the what-if it is."""
    counts = (f"{players[0]}" if len(players) == 1 else
              f"{min(players)} to {max(players)}" if len(players) == max(players) - min(players) + 1
              else ", ".join(map(str, players)))
    robots = f"{counts} `{bot}` robots"
    if seating == "rotate":
        return f"{robots} rotated over every dock (a what-if: any dock, any company)"
    if len(players) == 1:
        return f"{robots} on docks 1-{players[0]}, as the game seats {players[0]} players"
    return f"{robots} on docks 1-k for k players, as the game seats them"


def fairness_words(v: Fairness | SeatVerdict, players: int | None = None) -> str:
    """A fairness verdict in words: the seat furthest from its fair share
    when its interval leaves that out, "the seats differ, none alone" when
    the test says unfair and no seat stands out, how many more races are
    needed while too few are won (races of `players` players, for the
    verdict of one count of several)."""
    won, needed = v.get("won"), v.get("wins_needed")
    more = v["more_races_needed"]
    races = f"races of {players} players" if players else "races"
    if v["verdict"] == "inconclusive" and won is not None and needed and won < needed:
        wait = f"; about {more} more {races} would give them" if more else ""
        return (f"inconclusive: {won} races won, the verdict waits for {needed} "
                f"(5 a seat){wait}")
    share, seat = v["share"], v.get("dock", v["favoured_dock"])
    seat_words = "" if share is None or seat is None else (
        f"seat {seat} wins {100 * share:.0f}% {DECIDED}"
        f"{_ci(v['share_ci'], lambda x: f'{100 * x:.0f}%')} against a fair "
        f"{100 * v['fair_share']:.0f}%")
    gap = (f"; the best and worst seats' win rates (of all races) are "
           f"{100 * (1 - v['balance']):.0f} points apart"
           if v["balance"] is not None and v["verdict"] == "unfair" else "")
    if v["verdict"] == "unfair":
        if v["favoured_dock"] is not None:
            return f"unfair, {seat_words}{gap}"
        return (f"unfair: the seats differ, none alone (the furthest, {seat_words}, has an "
                f"interval that reaches it){gap}")
    if v["verdict"] == "inconclusive":
        return "inconclusive" + (f", about {more} more {races} would settle it" if more else "")
    return v["verdict"]


def _pct(v: float) -> str:
    return f"{100 * v:.0f}%"


def _teams_line(t: TeamCard) -> str:
    """The card's verdict by team, in the place of the docks' fairness."""
    pct = _pct
    shares = ", ".join(f"{s['name']} {pct(s['share'])}{_ci(s['ci'], pct)}" for s in t["shares"])
    lead = ("no team won" if t["leader"] is None else
            f"{t['leader']} wins most, by {pct(t['margin'])}{_ci(t['margin_ci'], pct)}")
    edge = {"edge": "has an edge", "behind": "is behind", "none": "has no clear edge"}[t["edge"]]
    return (f"Teams: {lead} ({shares}); the first seat's side {edge}: "
            f"{pct(t['first_side'])}{_ci(t['first_side_ci'], pct)} against an even "
            f"{pct(t['even'])}")


def loop_line(loop: ReentryLoop) -> str:
    """A re-entry loop warning (balance/why.py ``Reentries``)."""
    return (f"Re-entry loop: robots re-entering at ({loop['x']}, {loop['y']}) die again within "
            f"a round after {100 * loop['share']:.0f}% of {loop['reentries']} re-entries "
            f"(95%: {100 * loop['ci'][0]:.0f}% to {100 * loop['ci'][1]:.0f}%), mostly "
            f"{loop['chain']}")


def damage(c: object) -> str | None:
    """What is missing or of the wrong type in `c`, a card kept in a file
    (only its hash is checked on reading), and where; None when it has all
    a card shows, each of its type (types.CourseCard)."""
    return mismatch(c, CourseCard)


def readable(c: object) -> TypeGuard[CourseCard]:
    """Whether `c` (a card kept in a file) can be shown and judged."""
    return damage(c) is None


def _verdict(surely: bool, perhaps: bool) -> str:
    """"met" when the whole interval meets the goal, "missed" when none of it
    does, "unsure" when it reaches both sides."""
    return "met" if surely else "unsure" if perhaps else "missed"


def _path_words(length: Length) -> str:
    path = length.get("flag_path")     # a card kept before the flag path has none
    return "" if path is None else f"; flag path {path:g} squares"


def _special_words(diff: Difficulty) -> str:
    """The deaths where this course turns medium, hard and expert: lower for
    each special rule and a higher flag score (calibration.py)."""
    special = diff.get("special_rules")
    if special is None:                 # a card kept before the special rules counted
        return ""
    rules = (f"{len(special)} special rule{'s' if len(special) != 1 else ''} "
             f"({', '.join(special)})" if special else "no special rules")
    medium, hard, expert = death_bands(len(special), diff["flag_score"])
    return (f"; on this course medium from {_rate(medium)}, hard from {_rate(hard)}, expert "
            f"from {_rate(expert)} ({rules}, flag score {_score(diff['flag_score'])})")


def against_goals(c: CourseCard, goals: Goals) -> list[GoalCheck]:
    """How card `c` measures up to the course's goals (the file's ``goals``,
    as ``suggest`` reads them): per goal asked, {goal, wanted, verdict}, the
    verdict "met", "missed" or "unsure" (the 95% interval reaches both)."""
    out: list[GoalCheck] = []
    lo, hi = (math.inf if r is None else r for r in c["length"]["rounds_ci"])
    lengths: list[tuple[str, str | int, tuple[float, float]]] = [] if goals.length is None else [
        ("length", goals.length,
         timemodel.class_rounds(goals.length, c["robots"], c["length"].get("flag_path", 0.0)))]
    if goals.rounds is not None:        # (both asked: each judged, neither dropped)
        lengths.append(("rounds", goals.rounds, timemodel.rounds_band(goals.rounds)))
    for goal, wanted, (low, high) in lengths:
        out.append({"goal": goal, "wanted": wanted,
                    "verdict": _verdict(low <= lo and hi <= high, lo <= high and hi >= low)})
    if goals.deaths_per_leg is not None:
        leg = c["deadliest_leg"]
        ci_lo, ci_hi = leg["ci"] if leg is not None else (0.0, 0.0)
        lo, hi = ci_lo or 0.0, math.inf if ci_hi is None else ci_hi
        out.append({"goal": "deaths_per_leg", "wanted": goals.deaths_per_leg,
                    "verdict": _verdict(hi <= goals.deaths_per_leg, lo <= goals.deaths_per_leg)})
    teams = c.get("teams")
    if goals.fair and teams is not None:    # fair seats: the first seat's side near even
        # (within EVEN_BY of an even share, as its interval says)
        lo, hi = teams["first_side_ci"]
        even = teams["even"]
        out.append({"goal": "fair", "wanted": True, "verdict": _verdict(
            even - EVEN_BY <= lo and hi <= even + EVEN_BY,
            lo <= even + EVEN_BY and hi >= even - EVEN_BY)})
    elif goals.fair:
        verdict = c["fairness"]["verdict"]
        out.append({"goal": "fair", "wanted": True,
                    "verdict": {"fair": "met", "unfair": "missed"}.get(verdict, "unsure")})
    return out


def judged(c: CourseCard, goals: Goals | None, published: Published | None = None) -> CourseCard:
    """Card `c` with its ``goals`` judged against `goals` (None for a course
    without goals): {robots (the goals' robots, None if unsaid), checks
    (``against_goals``)}, and, for a published course, its ``printed``
    ratings beside the card's classes. Neither is in the play hash: a kept
    card is judged again against what the file says now."""
    verdicts: GoalVerdicts | None = None if goals is None else {
        "robots": goals.robots, "checks": against_goals(c, goals)}
    out: CourseCard = {**c, "goals": verdicts}
    out.pop("printed", None)
    if published is not None:
        out["printed"] = Printed(id=published.id, page=published.page, length=published.length,
                                 difficulty=published.difficulty)
    return out


def kept_judged(scenario: Scenario) -> Scenario:
    """The course with the card it keeps judged against the goals it has now,
    for saving: the goals are not in the play hash, so a goals edit leaves
    the card current but its verdicts old. A card kept incomplete stays as
    it is."""
    kept = scenario.card.data if scenario.card is not None else None
    if not readable(kept):
        return scenario
    return with_card(scenario, judged(kept, scenario.goals, scenario.published))


def _goal_line(goals: GoalVerdicts, robots: int) -> str:
    """The card's last line: how it meets the course's goals."""
    what = {"length": lambda w: f"length {w}", "rounds": lambda w: f"{w} rounds",
            "deaths_per_leg": lambda w: f"at most {w:g} deaths per robot on any leg",
            "fair": lambda w: "fair docks"}
    said = {"met": "met", "missed": "missed", "unsure": "not settled"}
    checks = [f"{what[g['goal']](g['wanted'])}: {said[g['verdict']]}" for g in goals["checks"]]
    other = (f" (they are for {goals['robots']} robots, the card for {robots})"
             if goals["robots"] is not None and goals["robots"] != robots else "")
    return f"Goals{other}: {'; '.join(checks) or 'none asked'}"


def _rate(value: float) -> str:
    """Deaths per robot: two decimals, three under 0.1 (0.002, not 0.00)."""
    return f"{value:.2f}" if value >= 0.1 else f"{value:.3f}"


def _score(value: float | None) -> str:
    return "n/a" if value is None else f"{value:g}"
