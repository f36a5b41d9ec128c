"""Races do not change when the engine is made faster: the output of
`rallyforge run --json --events` on every rule case and example course, and
of a small `rallyforge balance --json`, is pinned by its SHA-256 digest in
tests/fixtures/race_digests.json.

A change meant to change races (a rule, a bot) rewrites the fixture, after
a look at what changed and why:

    PYTHONPATH=$PWD python tests/test_race_digests.py --write
"""
from __future__ import annotations

import contextlib
import hashlib
import io
import json
import sys
from pathlib import Path

import pytest

from rallyforge.engine.analysis.balance import compiled

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "race_digests.json"

# (file, seeds, bot) per run: rule cases play their own robots; example
# courses with the fast bots on two seeds, and the aware bot (slow) over
# the first rounds of a few of them.
RUNS = ([(p, (0,), "search", None) for p in sorted((ROOT / "tests" / "rules").glob("*.json"))]
        + [(p, (0, 1), bot, None) for p in sorted((ROOT / "scenarios").glob("*.json"))
           for bot in ("search", "random", "greedy")]
        + [(ROOT / "scenarios" / name, (0,), "aware", 4)
           for name in ("standard-course.json", "gauntlet.json", "highlands.json")])
BALANCE = ["scenarios/standard-course.json", "--races", "40", "--workers", "1", "--quiet"]


def _cli(argv: list[str]) -> str:
    from rallyforge.engine.cli.main import main
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(argv)
    return out.getvalue()


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _run_key(path: Path, seed: int, bot: str, rounds: int | None) -> str:
    return f"{path.relative_to(ROOT)} seed {seed} {bot}" + (f" {rounds} rounds" if rounds else "")


def run_digest(path: Path, seed: int, bot: str, rounds: int | None) -> str:
    argv = ["run", str(path), "--json", "--events", "--seed", str(seed), "--bot", bot]
    return _digest(_cli(argv + (["--rounds", str(rounds)] if rounds else [])))


def balance_digest() -> str:
    """The balance JSON's digest, its timing and engine name left out: the
    same with or without the compiled part (the engine is checked apart)."""
    doc = json.loads(_cli(["balance", str(ROOT / BALANCE[0]), *BALANCE[1:], "--json", "-"]))
    doc.pop("elapsed_s")
    assert doc.pop("engine") == ("compiled" if compiled.built() else "python")
    return _digest(json.dumps(doc, sort_keys=True))


def digests() -> dict[str, str]:
    out = {_run_key(path, seed, bot, rounds): run_digest(path, seed, bot, rounds)
           for path, seeds, bot, rounds in RUNS for seed in seeds}
    out["balance " + " ".join(BALANCE)] = balance_digest()
    return out


def _pinned() -> dict[str, str]:
    return json.loads(FIXTURE.read_text())


@pytest.mark.parametrize("path, seed, bot, rounds",
                         [(p, s, b, r) for p, seeds, b, r in RUNS for s in seeds],
                         ids=lambda v: v.name if isinstance(v, Path) else str(v))
def test_a_race_is_the_race_it_was(path, seed, bot, rounds):
    assert run_digest(path, seed, bot, rounds) == _pinned()[_run_key(path, seed, bot, rounds)]


def test_a_balance_run_is_the_run_it_was():
    assert balance_digest() == _pinned()["balance " + " ".join(BALANCE)]


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/test_race_digests.py --write")
    FIXTURE.write_text(json.dumps(digests(), indent=1) + "\n")
