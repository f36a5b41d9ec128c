"""The race rules again, in C, for balance runs (a copy of the rules beside
them, kept equal by the differential tests): ``race`` says what the copy
plays and builds its course; ``_race.c`` plays it, its robots programmed by
a compiled bot that answers ``_race_bot.h`` (the search bot's lives with the
bots, engine/bots/_search_race.c); ``_limits.h`` holds the compiled part's
limits. A change to a rule in engine/rules is made in _race.c too, or
``race.FIELDS`` refuses the courses that use it."""
from __future__ import annotations

import os

# RALLYFORGE_COMPILED=0 in the environment: no compiled part (neither this
# race nor the search bot's compiled loop), every race played by the Python engine
COMPILED_SWITCH = "RALLYFORGE_COMPILED"


def switched_off() -> bool:
    """Whether the environment rules the compiled part out (README)."""
    return os.environ.get(COMPILED_SWITCH, "1") == "0"
