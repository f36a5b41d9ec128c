"""The course card on the published courses with a printed difficulty: its
classes next to the ones the game's publisher printed (or on the courses of
a README table with --dir). Each course is raced with its goals' robots (the
README's players), the card's default bot; a course this version cannot read
or race (a team race, a special rule it does not know) is named and left out.

    python -m bench.bench_calibration [--dir DIR] [--races N] [--workers W]
"""
from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path

from bench.calibrate import DIFFICULTY_OF_LEVEL, courses, published, readable

RACES = 200


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench_calibration", description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, help="a folder of courses with a README table")
    parser.add_argument("--races", type=int, default=RACES)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    if args.dir is not None and not (args.dir / "README.md").exists():
        print(f"bench_calibration: {args.dir} has no README.md table; skipped")
        return
    from rallyforge.engine.analysis.balance import balance
    print(f"card classes on the calibration courses ({args.races} races each):")
    print(f"{'course':22} {'players':>7} {'printed length':>15} {'card length':>24} "
          f"{'printed difficulty':>19} {'card difficulty':>24}")
    same_length = same_difficulty = 0
    cs = published() if args.dir is None else [
        replace(c, file=str(args.dir / c.file)) for c in courses(args.dir)]
    raced = 0
    for c in cs:
        scenario, why = readable(Path(c.file))
        if scenario is None:
            print(f"{Path(c.file).stem:22} left out: {why}")
            continue
        raced += 1
        card = balance(scenario, args.races, c.players, workers=args.workers)["card"]
        length, difficulty = card["length"], card["difficulty"]
        printed = DIFFICULTY_OF_LEVEL[c.level]
        same_length += length["class"] == c.length
        same_difficulty += difficulty["class"] == printed
        rounds = "never" if length["rounds"] is None else f"{length['rounds']:.1f} rounds"
        print(f"{Path(c.file).stem:22} {c.players:>7} {c.length:>15} "
              f"{length['class'] + ' (' + rounds + ')':>24} {printed + f' ({c.level})':>19} "
              f"{difficulty['class'] + ' (' + format(difficulty['deaths_per_robot_leg'], '.3f') + ')':>24}")
    print(f"the card agrees with the printed length on {same_length} of {raced}, with the "
          f"printed difficulty on {same_difficulty} of {raced}")


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])
