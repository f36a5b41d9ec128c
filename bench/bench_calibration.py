"""The course card on the calibration courses: its classes next to the ones
the game's publisher printed (the calibration courses, not part of the
project: skipped unless --dir names their folder). Each course is raced with the players its
README gives, the card's default bot.

    python -m bench.bench_calibration [--dir DIR] [--races N] [--workers W]
"""
from __future__ import annotations

import argparse
from pathlib import Path

from bench.calibrate import DIFFICULTY_OF_LEVEL, courses, missing

RACES = 200


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench_calibration", description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, help="the folder of the calibration courses")
    parser.add_argument("--races", type=int, default=RACES)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    if (why := missing("bench_calibration", args.dir)) is not None:
        print(why)
        return
    from rallyforge.engine.analysis.balance import balance
    from rallyforge.engine.format.loader import load_file
    print(f"card classes on the calibration courses ({args.races} races each):")
    print(f"{'course':22} {'players':>7} {'printed length':>15} {'card length':>24} "
          f"{'printed difficulty':>19} {'card difficulty':>24}")
    same_length = same_difficulty = 0
    cs = courses(args.dir)
    for c in cs:
        card = balance(load_file(args.dir / c.file), args.races, c.players,
                       workers=args.workers)["card"]
        length, difficulty = card["length"], card["difficulty"]
        printed = DIFFICULTY_OF_LEVEL[c.level]
        same_length += length["class"] == c.length
        same_difficulty += difficulty["class"] == printed
        rounds = "never" if length["rounds"] is None else f"{length['rounds']:.1f} rounds"
        print(f"{c.file.removesuffix('.json'):22} {c.players:>7} {c.length:>15} "
              f"{length['class'] + ' (' + rounds + ')':>24} {printed + f' ({c.level})':>19} "
              f"{difficulty['class'] + ' (' + format(difficulty['deaths_per_robot_leg'], '.3f') + ')':>24}")
    print(f"the card agrees with the printed length on {same_length} of {len(cs)}, with the "
          f"printed difficulty on {same_difficulty} of {len(cs)}")


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])
