"""Fit the course card's length and difficulty classes to the classes the
game's publisher printed for its courses, and say how well the fit predicts
a course it has not seen (leave-one-out: fit on all but one, predict it).

    python -m bench.calibrate [--dir DIR] [--races 300]
                              [--bot search] [--seed 0] [--workers 2]
                              [--measures FILE]   # reuse (or save) the races' measures

The courses are the project's published ones (engine/editing/published/) that
have a printed difficulty, each raced with its goals' robots; ``--dir`` reads
another set instead from a README table (| file | length | ... (level) | players |).
A course this version cannot read (a special rule it does not know yet) is
named and left out. Agreement is judged so that a constant guess cannot pass
(bench/agreement.py): exact matches, balanced accuracy over the difficulty
classes, classes two off, Spearman's rank correlation of each measure with the
printed class. The fit is the
same for both classes: the printed class as an ordinal number (length short
1, medium 2, long 3; difficulty the five printed levels 1 to 5) by least
squares on one measure, a + b * f(measure), rounded and clipped, so that
the classes are bands of the measure whose edges are where the line crosses
k + 0.5. Two parameters for seven courses: it cannot memorise them. The
printed difficulty levels 4 and 5 (expert, hardest expert) are both the
card's expert. The edges it prints go into engine/analysis/balance/course_card.py
(DEATHS_UNDER) and engine/analysis/card/timemodel.py (SHORT_UNDER, LONG_OVER).
"""
from __future__ import annotations

import argparse
import json
import math
import re
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from bench.agreement import balanced_accuracy, exact, off_by_two, spearman

# The measures the card's classes are fitted on (written by --measures).
MEASURES = Path(__file__).resolve().parent / "calibration-measures.json"
LENGTHS = ("short", "medium", "long")
# printed difficulty level (1 beginner easy, 2 beginner mid, 3 beginner hard,
# 4 expert, 5 hardest expert) -> the card's class
DIFFICULTY_OF_LEVEL = {1: "easy", 2: "medium", 3: "hard", 4: "expert", 5: "expert"}
CARD_DIFFICULTY = ("easy", "medium", "hard", "expert")
# a published course's printed difficulty (its file's published.difficulty) -> level
LEVEL_OF_PRINTED = {"easy": 1, "mid": 2, "hard": 3, "expert": 4}


@dataclass(frozen=True)
class Course:
    file: str
    length: str         # printed: short, medium, long
    level: int          # printed difficulty, 1 to 5
    players: int


def courses(directory: Path) -> list[Course]:
    """The README's table: | file | length | difficulty (n) | players |."""
    rows = re.findall(r"^\|\s*(\S+\.json)\s*\|\s*(\w+)\s*\|[^|]*\((\d)\)\s*\|\s*(\d+)\s*\|",
                      (directory / "README.md").read_text(encoding="utf-8"), re.M)
    return [Course(file, length, int(level), int(players)) for file, length, level, players in rows]


def published() -> list[Course]:
    """The published courses with a printed difficulty (the team courses have
    none), with their goals' robots."""
    from rallyforge.engine.editing.published_courses import entries
    out = []
    for entry in entries():
        doc = json.loads(entry.path.read_text("utf-8"))
        if entry.difficulty is not None:
            out.append(Course(str(entry.path), entry.length, LEVEL_OF_PRINTED[entry.difficulty],
                              doc["goals"]["robots"]))
    return out


def readable(path: Path):
    """The course of a file, or why it is left out: the first error that
    keeps this version from reading it."""
    from rallyforge.engine.editing.published_courses import read
    scenario, problems = read(path)
    errors = [p.message for p in problems if p.is_error]
    return (None, errors[0]) if scenario is None else (scenario, None)


def measure(path: Path, players: int, races: int, bot: str, seed: int, workers: int) -> dict:
    """What the simulator measures on one course: median rounds (read
    between whole rounds), table minutes (engine/analysis/card/timemodel.py), deaths
    per robot per leg (pooled over the legs), the mean flag score."""
    from rallyforge.engine.analysis.balance import balance
    from rallyforge.engine.analysis.card import timemodel
    from rallyforge.engine.analysis.card.flags import course_score, flag_scores
    scenario, _ = readable(path)
    result = balance(scenario, races, players, bot, seed, workers=workers)
    rounds = result["length"]["median_between"]
    deaths = sum(leg["deaths"] for leg in result["legs"])
    robots = sum(leg["robots"] for leg in result["legs"])
    return {"rounds": rounds, "minutes": timemodel.table_minutes(rounds, players),
            "deaths": deaths / robots, "flag_score": course_score(flag_scores(scenario)),
            "races": races, "bot": bot, "seed": seed}


# ------------------------------------------------------------------ the fit

def least_squares(rows: list[list[float]], ys: list[float]) -> list[float]:
    """Coefficients c (intercept first) minimising sum (y - c0 - c . row)^2,
    by the normal equations (one or two measures: tiny and well conditioned)."""
    xs = [[1.0, *row] for row in rows]
    m = len(xs[0])
    a = [[sum(x[i] * x[j] for x in xs) for j in range(m)] for i in range(m)]
    b = [sum(x[i] * y for x, y in zip(xs, ys)) for i in range(m)]
    for col in range(m):                        # Gauss-Jordan with partial pivoting
        pivot = max(range(col, m), key=lambda r: abs(a[r][col]))
        a[col], a[pivot], b[col], b[pivot] = a[pivot], a[col], b[pivot], b[col]
        for r in range(m):
            if r != col and a[col][col]:
                f = a[r][col] / a[col][col]
                a[r] = [v - f * w for v, w in zip(a[r], a[col])]
                b[r] -= f * b[col]
    return [b[i] / a[i][i] for i in range(m)]


def predict(coef: list[float], row: list[float], low: int, high: int) -> int:
    value = coef[0] + sum(c * x for c, x in zip(coef[1:], row))
    return min(high, max(low, math.floor(value + 0.5)))


def edges(coef: list[float], low: int, high: int, inverse) -> list[float]:
    """The measure's values where a one-measure fit moves up a level: where
    c0 + c1 * f(x) = k + 0.5 for k = low .. high - 1."""
    return [inverse((k + 0.5 - coef[0]) / coef[1]) for k in range(low, high)]


def fit(rows: list[list[float]], ys: list[int], low: int, high: int
        ) -> tuple[list[float], list[int], list[int]]:
    """The coefficients on all courses, the in-sample predictions and the
    leave-one-out ones (each course predicted by the fit on the others)."""
    coef = least_squares(rows, [float(y) for y in ys])
    inside = [predict(coef, row, low, high) for row in rows]
    loo = []
    for i, row in enumerate(rows):
        others = least_squares(rows[:i] + rows[i + 1:], [float(y) for y in ys[:i] + ys[i + 1:]])
        loo.append(predict(others, row, low, high))
    return coef, inside, loo


# ------------------------------------------------------------------ report

def _agreement(name: str, printed: list[str], inside: list[str], loo: list[str],
               order: tuple[str, ...]) -> str:
    exact = sum(p == q for p, q in zip(printed, inside))
    loo_exact = sum(p == q for p, q in zip(printed, loo))
    worst = max(abs(order.index(p) - order.index(q)) for p, q in zip(printed, loo))
    return (f"{name}: in-sample {exact}/{len(printed)} exact, leave-one-out {loo_exact}/"
            f"{len(printed)} exact, at most {worst} class{'es' if worst != 1 else ''} off")


def length_fit(cs: list[Course], measures: list[dict]):
    """The length fit on ln minutes: (coefficients, in-sample, leave-one-out)."""
    return fit([[math.log(m["minutes"])] for m in measures],
               [LENGTHS.index(c.length) + 1 for c in cs], 1, 3)


def difficulty_fit(cs: list[Course], measures: list[dict]):
    """The difficulty fit on deaths per robot per leg, to the five printed
    levels: (coefficients, in-sample, leave-one-out)."""
    return fit([[m["deaths"]] for m in measures], [c.level for c in cs], 1, 5)


def fitted_edges(cs: list[Course], measures: list[dict]) -> tuple[list[float], list[float]]:
    """The length classes' edges in minutes (short under, long from) and the
    difficulty classes' in deaths per robot per leg (easy, medium, hard
    under): the card's constants."""
    return (edges(length_fit(cs, measures)[0], 1, 3, math.exp),
            edges(difficulty_fit(cs, measures)[0], 1, 4, lambda v: v))


def report(cs: list[Course], measures: list[dict]) -> list[str]:
    out = []
    lcoef, lin, lloo = length_fit(cs, measures)
    (short, long_), bounds = fitted_edges(cs, measures)
    out.append(f"Length: class = round({lcoef[0]:.3f} + {lcoef[1]:.3f} ln minutes): short under "
               f"{short:.1f} min, long from {long_:.1f} min")
    levels = [c.level for c in cs]
    dcoef, din, dloo = difficulty_fit(cs, measures)
    out.append(f"Difficulty: level = round({dcoef[0]:.3f} + {dcoef[1]:.3f} deaths per robot per "
               f"leg): easy under {bounds[0]:.3f}, medium under {bounds[1]:.3f}, hard under "
               f"{bounds[2]:.3f}, else expert")
    both = [[m["deaths"], m["flag_score"]] for m in measures]
    _, fin, floo = fit(both, levels, 1, 5)
    logged = [[math.log(m["deaths"])] for m in measures]
    _, gin, gloo = fit(logged, levels, 1, 5)
    printed_d = [DIFFICULTY_OF_LEVEL[c.level] for c in cs]
    card_l, card_d = card_classes(measures)

    def named(ls: list[int]) -> list[str]:
        return [DIFFICULTY_OF_LEVEL[v] for v in ls]

    out.append("")
    out.append("| course | players | rounds | minutes | deaths/robot/leg | flag score | printed "
               "length | card | left out | printed difficulty | card | left out |")
    out.append("|---|---:|---:|---:|---:|---:|---|---|---|---|---|---|")
    for i, (c, m) in enumerate(zip(cs, measures)):
        out.append(f"| {Path(c.file).stem} | {c.players} | {m['rounds']:.1f} | "
                   f"{m['minutes']:.0f} | {m['deaths']:.3f} | {m['flag_score']:.2f} | {c.length} | "
                   f"{card_l[i]} | {LENGTHS[lloo[i] - 1]} | {printed_d[i]} ({c.level}) | "
                   f"{card_d[i]} | {named(dloo)[i]} |")
    out.append("")
    out.append(_agreement("Length on ln minutes", [c.length for c in cs],
                          [LENGTHS[v - 1] for v in lin], [LENGTHS[v - 1] for v in lloo], LENGTHS))
    out.append(_agreement("Difficulty on deaths", printed_d, named(din), named(dloo),
                          CARD_DIFFICULTY))
    out.append(_agreement("Difficulty on deaths and flag score", printed_d, named(fin),
                          named(floo), CARD_DIFFICULTY))
    out.append(_agreement("Difficulty on ln deaths", printed_d, named(gin), named(gloo),
                          CARD_DIFFICULTY))
    out.append("")
    out.extend(judged("the card's classes as they are", cs, measures, card_l, card_d))
    out.extend(judged("leave-one-out (fit on the others, predict each)", cs, measures,
                      [LENGTHS[v - 1] for v in lloo], named(dloo)))
    return out


def card_classes(measures: list[dict]) -> tuple[list[str], list[str]]:
    """The classes the card gives each course now (its fitted constants)."""
    from rallyforge.engine.analysis.balance import course_card
    from rallyforge.engine.analysis.card import timemodel
    return ([timemodel.length_class(m["minutes"]) for m in measures],
            [course_card.DIFFICULTY[course_card._band(m["deaths"], course_card.DEATHS_UNDER)]
             for m in measures])


def judged(what: str, cs: list[Course], measures: list[dict], lengths: list[str],
           difficulties: list[str]) -> list[str]:
    """Agreement of predicted classes with the printed ones, as a constant
    guess cannot pass (bench/agreement.py)."""
    printed_l = [c.length for c in cs]
    printed_d = [DIFFICULTY_OF_LEVEL[c.level] for c in cs]
    n = len(cs)
    return [
        f"Agreement, {what}, {n} courses:",
        f"  length: {exact(printed_l, lengths)}/{n} exact, "
        f"{off_by_two(printed_l, lengths, LENGTHS)} two off; Spearman of minutes with the "
        f"printed length {spearman([m['minutes'] for m in measures], [LENGTHS.index(p) for p in printed_l]):.2f}",
        f"  difficulty: {exact(printed_d, difficulties)}/{n} exact, balanced accuracy "
        f"{balanced_accuracy(printed_d, difficulties, CARD_DIFFICULTY):.2f} (a constant guess: "
        f"{1 / len(set(printed_d)):.2f}), {off_by_two(printed_d, difficulties, CARD_DIFFICULTY)} "
        f"two off; Spearman of deaths per robot per leg with the printed difficulty "
        f"{spearman([m['deaths'] for m in measures], [c.level for c in cs]):.2f}",
    ]


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench.calibrate", description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path,
                        help="a folder of courses with a README table (default: the published "
                             "courses)")
    parser.add_argument("--races", type=int, default=300)
    parser.add_argument("--bot", default="search")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--measures", type=Path,
                        help="a JSON file of the courses and their measures: read if it "
                             f"exists, else written (the card's are in {MEASURES.name})")
    args = parser.parse_args(argv)
    if args.measures is not None and args.measures.exists():
        cs, measures = read_measures(args.measures)
    else:
        if args.dir is not None and not (args.dir / "README.md").exists():
            print(f"bench.calibrate: {args.dir} has no README.md table; skipped")
            return
        every = published() if args.dir is None else [
            replace(c, file=str(args.dir / c.file)) for c in courses(args.dir)]
        cs = []
        for c in every:
            _, why = readable(Path(c.file))
            if why is None:
                cs.append(c)
            else:
                print(f"left out {Path(c.file).stem}: this version cannot read it ({why})")
        measures = [measure(Path(c.file), c.players, args.races, args.bot, args.seed,
                            args.workers) for c in cs]
        if args.measures is not None:
            args.measures.write_text(json.dumps({Path(c.file).name: dict(asdict(c), **m)
                                                 for c, m in zip(cs, measures)}, indent=1) + "\n")
    m = measures[0]
    print(f"{len(cs)} courses, {m['races']} races each of `{m['bot']}` robots, seed {m['seed']}")
    print("\n".join(report(cs, measures)))


def read_measures(path: Path) -> tuple[list[Course], list[dict]]:
    """The courses and their measures, as ``--measures`` wrote them."""
    saved = json.loads(path.read_text())
    fields = ("file", "length", "level", "players")
    return ([Course(*(row[f] for f in fields)) for row in saved.values()],
            [{k: v for k, v in row.items() if k not in fields} for row in saved.values()])


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])
