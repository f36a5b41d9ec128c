"""A card kept in the course file, and the hash that says what it measured.

``play_hash`` is the SHA-256 of the canonical JSON of everything that
affects play: the board (tiles, walls, lasers, pushers), the flags in order,
the docks in order and the rules, with every note left out; under
``board_turns_on_flag`` the factory boards too (``boards``), which turn. The name,
description, robots list, checks and notes do not change it: a card stays
true when they change.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from rallyforge.engine.model.scenario import Scenario, StoredCourseCard

PLAY_KEYS = ("board", "flags", "docks", "rules")


def _without_notes(value: object) -> object:
    if isinstance(value, dict):
        return {k: _without_notes(v) for k, v in value.items() if k != "note"}
    if isinstance(value, list):
        return [_without_notes(v) for v in value]
    return value


def play_hash(scenario: Scenario) -> str:
    from rallyforge.engine.format.loader import to_dict  # the loader reads cards: import it late
    doc = to_dict(scenario)
    play: dict[str, Any] = {key: _without_notes(doc.get(key, {})) for key in PLAY_KEYS}
    play["rules"] = scenario.rules.changed()        # the options default spelled out
    play["rules"].pop("note", None)
    if scenario.rules.board_turns_on_flag:          # which boards turn (docs/rules.md 12.10)
        play["boards"] = _without_notes(doc.get("boards", []))
    text = json.dumps(play, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def stale(scenario: Scenario) -> bool:
    """Whether the course keeps a card measured on another course."""
    return scenario.card is not None and scenario.card.play_hash != play_hash(scenario)


def with_card(scenario: Scenario, card: Mapping[str, Any]) -> Scenario:
    """The course keeping `card` (a card of engine/analysis/balance/course_card.py)."""
    text = json.dumps(card, ensure_ascii=False, allow_nan=False)
    return replace(scenario, card=StoredCourseCard(card["play_hash"], text))
