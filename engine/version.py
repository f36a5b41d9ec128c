"""The installed version of Rally Forge and its `rallyforge` commands with their one-line
help, for `--version`, `rallyforge --help` and the About box (readable without importing
the commands, which takes a moment)."""
from __future__ import annotations

COMMANDS = {
    "validate": "check scenario files: schema, structure and course (exit 1 on any error)",
    "run": "play a scenario with its scripted robots or with bots, and show the outcome",
    "test": "play scenario files' scripted checks and compare them (exit 1 on any failure)",
    "balance": "race a course many times and report how fair its docks are",
    "compare": "race two versions of a course on the same seeds and report what changed",
    "card": "how long, how hard and how fair a course is: race it and print its card",
    "suggest": "search for small edits that make a course fairer or the length you want",
    "import": "read a Tiled map (TMX or Tiled JSON) of this game as a course",
    "export": "write a course as a picture (PNG, SVG, PDF) or a Tiled map (TMX, Tiled JSON)",
    "assemble": "lay library boards and a docking bay out as one course",
    "published": "list the courses of the game's course manual, or write one as a file",
}


def version() -> str:
    from importlib.metadata import PackageNotFoundError, version as installed
    try:
        return installed("rallyforge")
    except PackageNotFoundError:    # run from a checkout that was never installed
        return "unknown"
