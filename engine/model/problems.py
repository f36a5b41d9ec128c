"""Problems found in a scenario: the one currency of the loader and the validator."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

ERROR = "error"
WARNING = "warning"
INFO = "info"          # a fact worth knowing, not a problem (validate --format json)


class ProblemDoc(TypedDict):
    """A problem as JSON (``rallyforge validate --format json``)."""
    severity: str
    code: str
    message: str
    pointer: str
    x: int | None
    y: int | None
    accepted: bool


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a scenario, with the place it was found.

    ``pointer`` is a JSON pointer into the file ("" for the whole document);
    ``x`` and ``y`` name the square when the problem has one.
    """

    severity: str
    code: str
    message: str
    pointer: str = ""
    x: int | None = None
    y: int | None = None
    accepted: bool = False      # a warning the file lists under "accept"

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR

    def as_dict(self) -> ProblemDoc:
        return {
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "pointer": self.pointer,
            "x": self.x,
            "y": self.y,
            "accepted": self.accepted,
        }


def problem_line(name: str, p: Problem) -> str:
    """`FILE:x,y: error E301: message` (`FILE:/pointer: ...` where the problem
    has no square, `FILE: ...` for the whole file)."""
    if p.x is not None and p.y is not None:
        where = f"{name}:{p.x},{p.y}:"
    elif p.pointer:
        where = f"{name}:{p.pointer}:"
    else:
        where = f"{name}:"
    return f"{where} {p.severity} {p.code}: {p.message}"


class ScenarioError(ValueError):
    """A scenario that cannot be loaded; carries every problem found."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        first = self.problems[0].message if self.problems else "invalid scenario"
        more = f" (and {len(self.problems) - 1} more)" if len(self.problems) > 1 else ""
        super().__init__(first + more)


def pointer(*parts: object) -> str:
    """Build a JSON pointer from path parts, escaping as RFC 6901 asks."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def pointer_parts(text: str) -> list[str]:
    """The parts of a JSON pointer ("/robots/1/options/0"), unescaped."""
    return [p.replace("~1", "/").replace("~0", "~") for p in text.split("/")[1:]]
