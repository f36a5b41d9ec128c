"""Suggested fixes: small edits that bring a course closer to its goals
(fair docks, a length, a deadliness bound), found by racing candidate edits
against the course on the same seeds.

``candidates`` proposes edits near and far from where a first run shows
trouble, ``edits`` says what each does and applies it, ``screen`` ranks
them all with the lone-robot model before any race and says why,
``score`` measures the goals on a set of races, ``search`` races the most
promising and ranks them. ``suggest(scenario, ...)`` does
it all in one call, for the command line and the editor (run it in a worker
thread; ``should_stop`` for a Cancel button, ``progress`` for a bar).
"""
from __future__ import annotations

from rallyforge.engine.analysis.suggest.search import DEFAULT_BUDGET, MIN_BUDGET, applied, suggest

__all__ = ["DEFAULT_BUDGET", "MIN_BUDGET", "applied", "suggest"]
