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
named and left out.

The fit (bench/ordinal.py): each class is how many fitted edges a score of
the card's measures passes, a weighted cumulative-logit model in which every
printed class weighs alike. Length: ln table minutes and ln flag path.
Difficulty: ln deaths per robot per leg, the special rules in play and the
flag score. The printed difficulty levels 4 and 5 (expert, hardest expert)
are both the card's expert. The weights and edges it prints go into
engine/analysis/course_card/calibration.py.

Agreement is judged so that a constant guess cannot pass (bench/agreement.py):
exact matches, balanced accuracy over the classes, classes two off,
Spearman's rank correlation of the card's scores with the printed class;
leave-one-out (fit on all courses but one, predict it) is the honest figure,
as every course is in the fit. Each measure's step is reported: a measure is
kept only where it improves leave-one-out agreement. Each length step also
reports its ceiling: the most courses any weighted sum of its measures, cut
anywhere, puts in the printed class even chosen knowing every course.
"""
from __future__ import annotations

import argparse
import json
import math
import re
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import numpy as np

from bench.agreement import balanced_accuracy, best_cuts, exact, off_by_two, spearman
from bench.ordinal import Ordinal, fit, left_out
from rallyforge.engine.analysis.course_card import calibration

# The measures the card's classes are fitted on (written by --measures).
MEASURES = Path(__file__).resolve().parent / "calibration-measures.json"
ROOT = Path(__file__).resolve().parent.parent       # the kept files are named from here
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
    between whole rounds), table minutes (engine/analysis/course_card/timemodel.py), deaths
    per robot per leg (pooled over the legs); and what the course says without
    racing: the mean flag score, the flag path, the special rules in play."""
    from rallyforge.engine.analysis.balance import balance
    from rallyforge.engine.analysis.course_card import timemodel
    from rallyforge.engine.analysis.course_card.flags import course_score, flag_path, flag_scores
    from rallyforge.engine.model.scenario import course_rules
    scenario, _ = readable(path)
    result = balance(scenario, races, players, bot, seed, workers=workers)
    rounds = result["length"]["median_between"]
    deaths = sum(leg["deaths"] for leg in result["legs"])
    robots = sum(leg["robots"] for leg in result["legs"])
    return {"rounds": rounds, "minutes": timemodel.table_minutes(rounds, players),
            "deaths": deaths / robots, "flag_score": course_score(flag_scores(scenario)),
            "flag_path": flag_path(scenario, players),
            "special_rules": len(course_rules(scenario.rules)),
            "races": races, "bot": bot, "seed": seed}


# ------------------------------------------------------------------ the fit

# The card's measures (engine/analysis/course_card/calibration.py), as the fit reads them.
def length_measures(m: dict) -> list[float]:
    return [math.log(m["minutes"]), math.log(max(m["flag_path"], calibration.PATH_FLOOR))]


def difficulty_measures(m: dict) -> list[float]:
    return [math.log(max(m["deaths"], calibration.DEATHS_FLOOR)), float(m["special_rules"]),
            m["flag_score"] or 0.0]


# Each step adds one measure to the one before; a measure is kept only where
# its step improves the agreement of courses left out.
LENGTH_STEPS = (("ln minutes", 1), ("+ ln flag path", 2))
DIFFICULTY_STEPS = (("ln deaths", 1), ("+ special rules", 2), ("+ flag score", 3))


@dataclass(frozen=True)
class Fitted:
    model: Ordinal
    inside: list[int]           # each course's class by the fit on all
    left_out: list[int]         # each course's class by the fit on the others


def fitted(rows: list[list[float]], printed: list[int], count: int) -> Fitted:
    model = fit(rows, printed, count)
    return Fitted(model, model.classes(rows).tolist(), left_out(rows, printed, count).tolist())


def length_fit(cs: list[Course], measures: list[dict], used: int = 2) -> Fitted:
    return fitted([length_measures(m)[:used] for m in measures],
                  [LENGTHS.index(c.length) for c in cs], len(LENGTHS))


def difficulty_fit(cs: list[Course], measures: list[dict], used: int = 3) -> Fitted:
    return fitted([difficulty_measures(m)[:used] for m in measures],
                  [printed_difficulty(c) for c in cs], len(CARD_DIFFICULTY))


def printed_difficulty(c: Course) -> int:
    return CARD_DIFFICULTY.index(DIFFICULTY_OF_LEVEL[c.level])


# ------------------------------------------------------------------ report

def report(cs: list[Course], measures: list[dict]) -> list[str]:
    out = []
    length, difficulty = length_fit(cs, measures), difficulty_fit(cs, measures)
    lw, le = length.model.weights, length.model.edges
    dw, de = difficulty.model.weights, difficulty.model.edges
    out.append(f"Length score = {lw[0]:.4f} ln minutes + {lw[1]:.4f} ln flag path; "
               f"edges {le[0]:.4f}, {le[1]:.4f}")
    out.append(f"Difficulty score = {dw[0]:.4f} ln deaths + {dw[1]:.4f} special rules + "
               f"{dw[2]:.4f} flag score; edges {de[0]:.4f}, {de[1]:.4f}, {de[2]:.4f}")
    out.append("(engine/analysis/course_card/calibration.py keeps these)")
    card_l, card_d = card_classes(cs, measures)
    out.append("")
    out.append("| course | players | rounds | minutes | flag path | deaths/robot/leg | special "
               "rules | flag score | printed length | card | left out | printed difficulty | "
               "card | left out |")
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|---|---|---|---|---|---|")
    for i, (c, m) in enumerate(zip(cs, measures)):
        out.append(f"| {Path(c.file).stem} | {c.players} | {m['rounds']:.1f} | "
                   f"{m['minutes']:.0f} | {m['flag_path']:.1f} | {m['deaths']:.3f} | "
                   f"{m['special_rules']} | {m['flag_score'] or 0:.2f} | {c.length} | {card_l[i]} | "
                   f"{LENGTHS[length.left_out[i]]} | {DIFFICULTY_OF_LEVEL[c.level]} ({c.level}) | "
                   f"{card_d[i]} | {CARD_DIFFICULTY[difficulty.left_out[i]]} |")
    out.append("")
    out.append("Each measure's step, left out (fit on the others, predict each):")
    printed_lengths = [LENGTHS.index(c.length) for c in cs]
    for name, used in LENGTH_STEPS:
        top = ceiling([length_measures(m)[:used] for m in measures], printed_lengths, len(LENGTHS))
        out.append("  length " + _step(name, printed_lengths, length_fit(cs, measures, used).left_out,
                                        LENGTHS) + f"; ceiling {top}/{len(cs)}")
    for name, used in DIFFICULTY_STEPS:
        out.append("  difficulty " + _step(name, [printed_difficulty(c) for c in cs],
                                            difficulty_fit(cs, measures, used).left_out,
                                            CARD_DIFFICULTY))
    out.append("")
    out.extend(judged("the card's classes as they are", cs, measures, card_l, card_d))
    out.extend(judged("leave-one-out (fit on the others, predict each)", cs, measures,
                      [LENGTHS[v] for v in length.left_out],
                      [CARD_DIFFICULTY[v] for v in difficulty.left_out]))
    return out


def _step(name: str, printed: list[int], predicted: list[int], order: tuple[str, ...]) -> str:
    p = [order[v] for v in printed]
    q = [order[v] for v in predicted]
    return (f"{name}: {exact(p, q)}/{len(p)} exact, balanced accuracy "
            f"{balanced_accuracy(p, q, order):.2f}, {off_by_two(p, q, order)} two off")


def ceiling(rows: list[list[float]], printed: list[int], count: int) -> int:
    """The most courses that cuts of any weighted sum of one or two measures
    put in their printed class, the weights and cuts chosen knowing every
    printed class (no course left out): what no fit of these measures can
    pass. Two measures are standardised and weighed at every half degree."""
    x = np.asarray(rows, dtype=float)
    if x.shape[1] == 1:
        directions = np.array([[1.0], [-1.0]])
    elif x.shape[1] == 2:
        x = (x - x.mean(axis=0)) / x.std(axis=0)
        angles = np.radians(np.arange(0.0, 360.0, 0.5))
        directions = np.column_stack([np.cos(angles), np.sin(angles)])
    else:
        raise ValueError("the ceiling is found for one or two measures")
    return max(best_cuts((x @ d).tolist(), printed, count) for d in directions)


def card_classes(cs: list[Course], measures: list[dict]) -> tuple[list[str], list[str]]:
    """The classes the card gives each course now (its fitted constants)."""
    from rallyforge.engine.analysis.balance.course_card import DIFFICULTY
    from rallyforge.engine.analysis.course_card import timemodel
    return ([timemodel.length_class(m["minutes"], m["flag_path"]) for m in measures],
            [DIFFICULTY[calibration.band(m["deaths"], calibration.death_bands(
                m["special_rules"], m["flag_score"]))] for m in measures])


def judged(what: str, cs: list[Course], measures: list[dict], lengths: list[str],
           difficulties: list[str]) -> list[str]:
    """Agreement of predicted classes with the printed ones, as a constant
    guess cannot pass (bench/agreement.py); the ranks are of the card's
    scores."""
    printed_l = [c.length for c in cs]
    printed_d = [DIFFICULTY_OF_LEVEL[c.level] for c in cs]
    n = len(cs)
    length_scores = Ordinal(calibration.LENGTH_WEIGHTS, calibration.LENGTH_EDGES).scores(
        [length_measures(m) for m in measures])
    difficulty_scores = Ordinal(calibration.DIFFICULTY_WEIGHTS,
                                calibration.DIFFICULTY_EDGES).scores(
        [difficulty_measures(m) for m in measures])
    return [
        f"Agreement, {what}, {n} courses:",
        f"  length: {exact(printed_l, lengths)}/{n} exact, "
        f"{off_by_two(printed_l, lengths, LENGTHS)} two off, balanced accuracy "
        f"{balanced_accuracy(printed_l, lengths, LENGTHS):.2f}; Spearman of the card's length "
        f"score with the printed length "
        f"{spearman(length_scores.tolist(), [LENGTHS.index(p) for p in printed_l]):.2f}",
        f"  difficulty: {exact(printed_d, difficulties)}/{n} exact, balanced accuracy "
        f"{balanced_accuracy(printed_d, difficulties, CARD_DIFFICULTY):.2f} (a constant guess: "
        f"{1 / len(set(printed_d)):.2f}), {off_by_two(printed_d, difficulties, CARD_DIFFICULTY)} "
        f"two off; Spearman of the card's difficulty score with the printed difficulty "
        f"{spearman(difficulty_scores.tolist(), [c.level for c in cs]):.2f}",
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
            args.measures.write_text(json.dumps(
                {Path(c.file).name: dict(asdict(c), file=_named(c.file), **m)
                 for c, m in zip(cs, measures)}, indent=1) + "\n")
    m = measures[0]
    print(f"{len(cs)} courses, {m['races']} races each of `{m['bot']}` robots, seed {m['seed']}")
    print("\n".join(report(cs, measures)))


def _named(file: str) -> str:
    """A course's file as the kept measures name it: from the repository's root."""
    path = Path(file).resolve()
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else file


def read_measures(path: Path) -> tuple[list[Course], list[dict]]:
    """The courses and their measures, as ``--measures`` wrote them."""
    saved = json.loads(path.read_text())
    fields = ("file", "length", "level", "players")
    return ([Course(*(row[f] for f in fields)) for row in saved.values()],
            [{k: v for k, v in row.items() if k not in fields} for row in saved.values()])


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])
