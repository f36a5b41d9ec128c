"""A course nobody finishes says so: the fairness verdict waits until
enough races are won, and the report's verdict leads with how few were."""
from __future__ import annotations

from rallyforge.engine.analysis.balance.aggregate import WINS_PER_DOCK, fairness
from rallyforge.engine.analysis.balance.charts import win_rate_top
from rallyforge.engine.analysis.balance.in_short import few_wins
from rallyforge.engine.analysis.balance.report import markdown


def docks(wins: list[int], races: int, decided: int) -> list[dict]:
    from rallyforge.engine.analysis.stats import wilson
    return [{"dock": i + 1, "races": races, "wins": w, "win_rate": w / races,
             "ci": list(wilson(w, races)), "decided": decided,
             "share": w / decided if decided else 0.0,
             "share_ci": list(wilson(w, decided)), "fair_share": 1 / len(wins)}
            for i, w in enumerate(wins)]


def lopsided(won: int, races: int) -> dict:
    """Every win of `races` four-robot races on four docks by dock 1."""
    return fairness(docks([won, 0, 0, 0], races, won), [won, 0, 0, 0], [won / 4] * 4,
                    races, won / races)


def test_the_fairness_verdict_waits_for_enough_wins():
    assert WINS_PER_DOCK * 4 == 20
    few = lopsided(10, 100)            # chi-square p is tiny, but 10 wins are not enough
    assert few["chi2_p"] < 0.001
    assert (few["verdict"], few["wins_needed"], few["more_races_needed"]) == (
        "inconclusive", 20, 100)
    assert lopsided(20, 100)["verdict"] == "unfair"
    none = lopsided(0, 100)
    assert (none["verdict"], none["more_races_needed"]) == ("inconclusive", None)


def result_of(won: int, races: int, deaths: int = 30) -> dict:
    return {"scenario": "Pits", "races": races, "planned": races, "robots": 4, "bot": "random",
            "seed": 0, "cancelled": False, "elapsed_s": 1.0,
            "completion": {"rate": won / races, "ci": [0.0, 0.1], "decided": won},
            "length": {"median": None, "median_ci": [None, None], "q1": None, "q3": None,
                       "histogram": [], "undecided": races - won},
            "docks": docks([won, 0, 0, 0], races, max(won, 1)),
            "fairness": lopsided(won, races), "time_trial": [],
            "legs": [{"to_flag": 1, "robots": 160, "median_rounds": None, "deaths": 0,
                      "death_rate": 0.0},
                     {"to_flag": 2, "robots": 100, "median_rounds": None, "deaths": deaths,
                      "death_rate": deaths / 100}],
            "heatmaps": {"width": 2, "height": 2, "per_races": 100, "deaths": [[0, 0], [0, 0]],
                         "deaths_by_cause": {}, "occupancy": [[0, 0], [0, 0]], "chains": []},
            "reentry_loops": [],
            "card": {"deadliest_square": {"x": 4, "y": 4, "cause": "pit"}}}


def test_the_verdict_leads_with_how_few_races_are_won():
    lead = few_wins(result_of(0, 40))
    assert lead.startswith("**No robot reached the last flag in 40 races**: most died on the "
                           "way to flag 2, the most at (4, 4) (pit).")
    assert "judged once 20 races are won (none is yet)" in lead
    assert few_wins(result_of(3, 40)).startswith("**Only 3 of 40 races were won**: most died")
    assert "no robot died" in few_wins(result_of(0, 40, deaths=0))
    assert few_wins(result_of(25, 40)) is None
    cardless = dict(result_of(0, 40), card=None)
    text = markdown(cardless, charts=False)
    assert few_wins(cardless) in text and "way to flag 2. The docks'" in text
    short = text.split("## In short")[1].split("\n## ")[0]
    assert "fair course" not in short and "Not settled" not in short and "Balance" not in short


def test_the_win_rate_chart_reaches_above_the_fair_band():
    assert win_rate_top(result_of(0, 40)) >= 0.30 * 1.15


def test_with_races_undecided_a_dock_is_told_by_its_share_of_the_races_won():
    """The words compare a dock's share of the decided races with a fair
    share: its figures are that share and its interval, not its win rate
    of all races (30% of races is not "well above" 25%)."""
    from rallyforge.engine.analysis.balance.in_short import in_short
    points = in_short(result_of(30, 100)).points
    assert points[0] == ("Dock 1 wins 100% of its decided races, well above the 25% of a fair "
                         "course (95% interval 89% to 100%, 30 decided races).")
    assert points[1].startswith("Dock 2 wins 0% of its decided races, well below")
    every = result_of(100, 100)                 # every race won: the win rate is that share
    assert in_short(every).points[0].startswith("Dock 1 wins 100% of races, well above the 25%")
