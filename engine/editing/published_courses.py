"""The published courses: the 34 courses of the game's 2005 course manual, one
course file each in ``published/`` beside this module (package data, made by
scripts/published_courses.py from the board library).

A course is listed from its file's text (its name, ``published`` object and
rules), without loading every course; ``team_race`` marks the courses raced
by teams or by players with two robots (docs/rules.md 13).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from rallyforge.engine.format.loader import read_dict
from rallyforge.engine.format.schema import SCHEMA
from rallyforge.engine.model.json_types import JsonObject
from rallyforge.engine.model.problems import Problem
from rallyforge.engine.model.scenario import Published, Scenario

FOLDER = Path(__file__).resolve().parent / "published"
# Special rules in words, as the list shows them (key, value -> words).
RULE_WORDS = {
    "flags_move": lambda v: "flags ride the belts",
    "robot_laser_damage": lambda v: f"robot lasers deal {v}x damage",
    "start_damage": lambda v: f"start with {v} damage",
    "power_down": lambda v: "no power down" if v is False else "",
    "repair_sites": lambda v: "repair sites give options" if v == "options" else "",
    "start_option_choice": lambda v: f"keep 1 of {v} options",
    "start_options": lambda v: f"{v} starting option{'s' if v != 1 else ''}",
    "programming_seconds": lambda v: f"{v} s to program",
    "superbot": lambda v: "SuperBot" if v else "",
    "board_turns_on_flag": lambda v: "boards turn on flags" if v else "",
    "victory": lambda v: f"team race ({v.replace('_', ' ')})",
}


class PublishedError(Exception):
    """A course id that is not in the library."""


@dataclass(frozen=True)
class Entry:
    id: str
    name: str
    number: int                     # the place in the manual
    page: int
    players: str
    length: str
    difficulty: str | None
    rules: tuple[str, ...]          # the special rules, in words
    team: bool                      # raced by teams (rules key victory)
    path: Path


def entries(folder: Path = FOLDER) -> list[Entry]:
    """Every published course, in the manual's order."""
    return sorted((_entry(p) for p in folder.glob("*.json")), key=lambda e: (e.number, e.name))


def find(course_id: str, folder: Path = FOLDER) -> Entry:
    for entry in entries(folder):
        if entry.id == course_id:
            return entry
    raise PublishedError(f"no published course {course_id!r} (see `rallyforge published` "
                         f"for the list)")


def read(path: Path) -> tuple[Scenario | None, list[Problem]]:
    """The course of a published course's file and the problems of reading it (None when it
    cannot be read: a special rule this version does not know). Its
    ``boards`` only records how it is laid out; where this version's format
    does not know that key yet, it is left aside."""
    doc = json.loads(path.read_text("utf-8"))
    if "boards" not in SCHEMA["properties"]:
        doc.pop("boards", None)
    scenario, problems = read_dict(doc)
    return (None if any(p.is_error for p in problems) else scenario), problems


def team_race(rules: JsonObject) -> bool:
    """A course raced by teams or players with two robots (its rules' victory)."""
    return rules.get("victory", "robot") != "robot"


def _entry(path: Path) -> Entry:
    doc = json.loads(path.read_text("utf-8"))
    p = doc["published"]
    published = Published(p["id"], p["page"], tuple(p["players"]), p["length"],
                           p.get("difficulty"))
    rules = doc.get("rules", {})
    words = tuple(w for key, value in rules.items() if key in RULE_WORDS
                  for w in [RULE_WORDS[key](value)] if w)
    return Entry(published.id, doc["name"], p.get("number", 0), published.page,
                 published.players_text,
                 published.length, published.difficulty, words, team_race(rules), path)
