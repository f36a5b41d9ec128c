"""A scenario's checks (docs/format.md, `checks`): play the race to the
last checked moment, take each robot's state at every checked moment, and
compare the values each check lists; ``check_file`` does it for a file, as
`rallyforge test` reports it."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypedDict

from rallyforge.engine.bots import new_race
from rallyforge.engine.model.problems import problem_line
from rallyforge.engine.model.scenario import Check, Scenario
from rallyforge.engine.rules.outcome import RobotResult
from rallyforge.engine.rules.race import Race
from rallyforge.engine.validation.validator import read_valid_file

_END_OF_ROUND = 6       # sorts a round's end after its five registers


def _order(moment: tuple[int, int | None]) -> tuple[int, int]:
    round, register = moment
    return round, _END_OF_ROUND if register is None else register


class CheckDoc(TypedDict):
    """A check's result in the `rallyforge run --json` document."""
    index: int
    passed: bool
    expected: dict[str, Any]
    actual: dict[str, Any]


@dataclass(frozen=True)
class CheckResult:
    index: int                  # 1-based place in the scenario's checks
    check: Check
    passed: bool
    expected: dict[str, Any]     # by RobotResult field
    actual: dict[str, Any]       # the same keys; empty when the robot does not exist

    @property
    def moment(self) -> str:
        c = self.check
        return (f"after round {c.round}" if c.register is None
                else f"after round {c.round} register {c.register}")

    def describe(self) -> str:
        """`check 3, robot Zoom after round 1 register 2: expected x=5 y=4, got x=4 y=4`"""
        head = f"check {self.index}, robot {self.check.robot} {self.moment}"
        if not self.actual and self.expected:
            return f"{head}: there is no robot named {self.check.robot!r}"
        expected = " ".join(f"{k}={_show(k, v)}" for k, v in self.expected.items())
        if self.passed:
            return f"{head}: {expected} as expected"
        actual = " ".join(f"{k}={_show(k, v)}" for k, v in self.actual.items())
        return f"{head}: expected {expected}, got {actual}"

    def to_json(self) -> CheckDoc:
        return {"index": self.index, "passed": self.passed,
                "expected": _json_values(self.expected), "actual": _json_values(self.actual)}


def _show(key: str, value: object) -> str:
    if isinstance(value, bool) or value is None:
        return {True: "true", False: "false", None: "null"}[value]
    if key == "option_cards" and isinstance(value, tuple):
        return f"[{', '.join(value)}]"
    if isinstance(value, tuple):
        return f"({value[0]},{value[1]})"
    return str(value)


def _json_values(values: dict[str, Any]) -> dict[str, Any]:
    return {k: {"x": v[0], "y": v[1]} if k == "archive" else v for k, v in values.items()}


def _same(expected: object, actual: object) -> bool:
    # True == 1 in Python; a check for damage 1 must not pass on `true`
    return expected == actual and isinstance(expected, bool) == isinstance(actual, bool)


def play_checked(race: Race, checks: tuple[Check, ...], to_end: bool = False) -> list[CheckResult]:
    """Play `race` up to the last checked moment (to its end with `to_end`)
    and compare every check. A moment after the race's end is compared with
    the final state."""
    wanted = {(c.round, c.register) for c in checks}
    last = max((_order(m) for m in wanted), default=(0, 0))
    seen: dict[tuple[int, int | None], tuple[RobotResult, ...]] = {}
    while not race.over and (to_end or _order(race.moment) < last):
        if race.moment[1] == 5:
            race.play_round()           # the clean-up
        else:
            race.play_register()
        if race.moment in wanted:
            seen[race.moment] = race.snapshot()
    final = race.snapshot()
    results = []
    for i, check in enumerate(checks, 1):
        state = seen.get((check.round, check.register), final)
        robot = next((r for r in state if r.name == check.robot), None)
        expected = check.expected
        actual = {k: tuple(sorted(robot.option_cards)) if k == "option_cards" else getattr(robot, k)
                  for k in expected} if robot is not None else {}
        passed = robot is not None and all(_same(v, actual[k]) for k, v in expected.items())
        results.append(CheckResult(i, check, passed, expected, actual))
    return results


def run_checks(scenario: Scenario, seed: int = 0) -> list[CheckResult]:
    """The checks of a scenario, on a race with its scripted robots."""
    return play_checked(new_race(scenario, seed=seed, record_events=False), scenario.checks)


def check_file(name: str, seed: int = 0) -> tuple[bool | None, list[str]]:
    """Whether every check of a file passes (None: it has none), and the
    lines `rallyforge test` prints for it: PASS, FAIL with the first failed
    check or the file's errors, or SKIP."""
    scenario, problems = read_valid_file(name)
    if scenario is None:                # it has errors
        return False, ([f"FAIL {name}: invalid scenario"]
                       + ["  " + problem_line(name, p) for p in problems if p.is_error])
    if not scenario.checks:
        return None, [f"SKIP {name}: no checks"]
    try:
        results = run_checks(scenario, seed)
    except Exception as exc:     # never a traceback: report it as the file's failure
        return False, [f"FAIL {name}: the engine failed ({type(exc).__name__}: {exc}); "
                       f"please report it"]
    return _summary(name, results)


def _summary(name: str, results: list[CheckResult]) -> tuple[bool, list[str]]:
    failed = [r for r in results if not r.passed]
    if not failed:
        return True, [f"PASS {name} ({len(results)} check{'s' * (len(results) != 1)})"]
    more = f" (and {len(failed) - 1} more failing)" if len(failed) > 1 else ""
    return False, [f"FAIL {name}: {failed[0].describe()}{more}"]
