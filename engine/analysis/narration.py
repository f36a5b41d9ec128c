"""A race's event log in English: one line per event (``describe``), its
moment as round·register (``moment_text``), a frame's label, card names, and
what the option cards did and hold, as the editor's race log and
``rallyforge run --events --words`` print them.

    for e in race.events:
        print(log_line(e))
"""
from __future__ import annotations

import itertools
from collections.abc import Sequence

from rallyforge.engine.analysis.replay import CLEANUP_STEPS, Frame
from rallyforge.engine.model.events import Event
from rallyforge.engine.model.option_cards import BY_ID, WEAPONS

STEP_NAMES = {
    "setup": "Start", "round": "Programs", "reveal": "Randomizers", "move": "Card",
    "express": "Express conveyors", "conveyors": "Conveyors", "currents": "Currents",
    "pushers": "Pushers", "gears": "Gears", "crushers": "Crushers", "lasers": "Lasers",
    "checkpoints": "Checkpoints", "cleanup": "Clean-up", "end": "Race over",
    "idle": "Nothing happens",
}

CARD_NAMES = {"move1": "Move 1", "move2": "Move 2", "move3": "Move 3", "back": "Back up",
              "left": "Turn left", "right": "Turn right", "uturn": "U-turn"}

CARD_SHORT = {"move1": "Move 1", "move2": "Move 2", "move3": "Move 3", "back": "Back",
              "left": "Left", "right": "Right", "uturn": "U-turn"}


def card_label(card: str | None, short: bool = False) -> tuple[str, str]:
    """("Move 2", "700") for "move2:700"; ("", "") for no card."""
    if not card:
        return "", ""
    kind, _, priority = card.partition(":")
    return (CARD_SHORT if short else CARD_NAMES).get(kind, kind), priority


def frame_label(frame: Frame) -> str:
    """Where a frame is and what happens in it, for the playback bar."""
    if frame.step == "setup":
        return "Start"
    if frame.step == "end":
        return f"Round {frame.round}: race over"
    where = f"Round {frame.round}"
    if frame.register is not None:
        where += f" · Register {frame.register}"
    if frame.step == "move":
        name, priority = card_label(frame.card)
        what = f"{frame.actor}: {name}" + (f" ({priority})" if priority else "")
    else:
        what = STEP_NAMES.get(frame.step, frame.step)
    return f"{where} · {what}"


_MOVED_BY: dict[str | None, str] = {"card": "", "push": " (pushed)", "teleport": " (teleport)"}


def _sq(square: tuple[int, int] | None) -> str:
    return f"({square[0]},{square[1]})" if square is not None else "?"


# Team races (docs/rules.md 13)
_TEAM_WORDS = {
    "team_flag": lambda e, who: f"Team {e.target} now holds flag {e.amount} ({who})",
    "pick_up": lambda e, who: f"{who} picks up {e.target} at {_sq(e.src)}",
    "drop": lambda e, who: (f"{who} drops {e.target}, which goes back to {_sq(e.src)}"
                            if e.cause == "home" else f"{who} drops {e.target} at {_sq(e.src)}"),
    "spared": lambda e, who: (f"{who} was destroyed on the other team's home board: it loses "
                              f"no life and re-enters on its own, at {_sq(e.dst)}"),
    "sits_out": lambda e, who: f"{who} sits out the next round",
    "team_wins": lambda e, who: f"Team {e.target} wins",
}


def describe(e: Event) -> str:
    """One line for the event list."""
    who = e.robot or ""
    k = e.kind
    if k == "place":
        state = f", damage {e.start.damage}" if e.start and e.start.damage else ""
        state += ", powered down" if e.start and e.start.powered_down else ""
        return f"{who} starts on {_sq(e.dst)} facing {e.facing}{state}"
    if k == "program":
        cards = ", ".join(" ".join(card_label(c, short=True)) if c else "—" for c in e.cards or ())
        locked = f" ({e.amount} locked)" if e.amount else ""
        return f"{who} programs {cards}{locked}"
    if k == "powered_down":
        return f"{who} is powered down"
    if k == "dealt":
        return f"{who} is dealt {e.amount} cards"
    if k == "announce":
        return f"{who} announces a power down"
    if k == "randomized":
        by = f" ({e.cause})" if e.cause else ""
        return f"{who}'s card is replaced by {e.card}{by}"
    if k == "card":
        name, priority = card_label(e.card)
        copy = " (a copy, by radio control)" if e.cause == "radio control" else ""
        return f"{who} plays {name}" + (f" ({priority})" if priority else "") + copy
    if k == "move":
        by = _MOVED_BY.get(e.cause, f" ({e.cause})")
        return f"{who} moves {_sq(e.src)} → {_sq(e.dst)}{by}"
    if k == "turn":
        how = {1: "right", 2: "around", 3: "left"}[e.amount or 0]
        return f"{who} turns {how} to {e.facing}" + ("" if e.cause == "card" else f" ({e.cause})")
    if k == "laser":
        source = f"{who}'s laser" if e.robot else f"Laser at {_sq(e.src)}"
        hit = f"hits {e.target}" if e.target else "hits nothing"
        return f"{source} fires {e.facing}: {hit}"
    if k == "damage":
        by = "" if e.cause in (None, "laser") else f" ({e.cause})"
        return f"{who} takes {e.amount} damage{by}"
    if k == "fall":
        return f"{who} falls from {_sq(e.src)} to {_sq(e.dst)}, {e.amount} damage"
    if k == "slide":
        return f"{who} slides back down the ramp at {_sq(e.src)} to {_sq(e.dst)}"
    if k == "destroyed":
        return f"{who} is destroyed ({e.cause}) at {_sq(e.src)}, {e.amount} lives left"
    if k == "out":
        return f"{who} is out of the race"
    if k == "flag":
        if e.cause == "team":           # shared progress (docs/rules.md 13.3)
            return f"{who} counts flag {e.amount}, touched by a teammate"
        return f"{who} touches flag {e.amount}"
    if k == "finish":
        return f"{who} finishes (place {e.amount})"
    if k == "leave":
        return f"{who} leaves the board"
    if k == "flag_move":
        if e.cause in ("express", "conveyor"):
            return f"Flag {e.amount} rides the belt to {_sq(e.dst)}"
        where = "off the board" if e.cause == "off board" else f"into a {e.cause}"
        return f"Flag {e.amount} is carried {where} and goes back to {_sq(e.dst)}"
    if k == "archive":
        return f"{who}'s archive moves to {_sq(e.dst)}"
    if k == "repair":
        if e.cause == "superbot":
            return f"{who}, the SuperBot, discards its {e.amount} damage"
        return f"{who} repairs {e.amount} damage"
    if k == "superbot":
        if e.target:
            return f"the SuperBot title passes to {who} (who destroyed {e.target})"
        return f"{who} starts as the SuperBot"
    if k == "board_turn":
        if e.amount:
            return f"the {e.target} board turns a quarter clockwise"
        return f"the coin falls tails: the {e.target} board stays as it is"
    if k == "option":
        return f"{who} gains an option"
    if k in _OPTION_WORDS:
        return _OPTION_WORDS[k](e, who)
    if k == "reenter":
        return f"{who} re-enters on {_sq(e.dst)} facing {e.facing}, damage {e.amount}"
    if k in _TEAM_WORDS:
        return _TEAM_WORDS[k](e, who)
    if k == "end":
        winners = ", ".join(e.target or ())
        return f"Race over: {winners} wins" if winners else "Race over: no winner"
    return f"{who} {k}"


def _card(e: Event) -> str:
    card = BY_ID.get(e.card or "")
    return f"the {card.name}" if card is not None else str(e.card)


def _used(e: Event, who: str) -> str:
    if e.cause in ("pushed", "pulled"):
        return f"{who} fires {_card(e)}: {e.target} {e.cause} to {_sq(e.dst) if e.dst else 'off the board'}"
    if e.cause == "blocked":
        return f"{who} fires {_card(e)}: {e.target} does not move"
    if e.cause == "target gone":
        return f"{who} fires {_card(e)}: {e.target} is already gone"
    if e.card == "fire-control" and e.target:
        return f"{who} fires {_card(e)} at {e.target} to {_fire_control_choice(e.cause)}"
    if e.card in WEAPONS and e.target:
        return f"{who} fires {_card(e)} at {e.target}"
    on = f" on {e.target}" if e.target else ""
    why = f" ({e.cause})" if e.cause else ""
    return f"{who} uses {_card(e)}{on}{why}"


def _fire_control_choice(cause: str | None) -> str:
    """Fire Control's choice as the engine tells it (engine/rules/option_weapons.py), in words."""
    what, _, which = (cause or "lock").partition(" ")
    if what == "lock":
        return f"lock its {which}" if which else "lock its lowest unlocked register"
    card = BY_ID.get(which)
    return f"destroy its {card.name}" if card is not None else "destroy its most recent option"


def _lost(e: Event, who: str) -> str:
    if e.cause == "fire control":
        return f"{who}'s {_card(e).removeprefix('the ')} is destroyed by Fire Control"
    return f"{who} discards {_card(e)} ({e.cause})"


def _prevented(e: Event, who: str) -> str:
    if e.card in ("ablative-coat", "power-down-shield"):
        return f"{_card(e)[0].upper()}{_card(e)[1:]} takes 1 damage for {who}"
    return f"{who} gives up {_card(e)} instead of 1 damage"


# Option events in words (engine/model/events.py; docs/rules.md 9).
_OPTION_WORDS = {
    "option_gained": lambda e, who: f"{who} gains {_card(e)}" + (
        {"start": " at the start", "upgrade": " on an upgrade square",
         "flag": " for touching a flag", "repair site": " on a repair site",
         "flag square": " standing on a flag"}.get(
            e.cause or "", f", kept from a {e.cause}" if (e.cause or "").startswith("draft")
            else "")),
    "option_lost": _lost,
    "option_used": _used,
    "option_use_ignored": lambda e, who: f"{who} cannot use {_card(e)}: {e.cause}",
    "damage_prevented": _prevented,
    "register_locked": lambda e, who: f"{who}'s register {e.amount} is locked by Fire Control",
    "register_unlocked": lambda e, who: f"{who}'s register {e.amount} is unlocked",
}


def fire_control_locks(events: Sequence[Event], stop: int) -> dict[str, dict[int, str]]:
    """Per robot, its registers (1-5) locked by Fire Control after the events
    before index `stop`, each with who locked it when, in words ("locked by
    A's Fire Control in 1·2"). The locks lift together: after a repair, at a
    power down, at a destruction (docs/rules.md 10.9)."""
    locks: dict[str, dict[int, str]] = {}
    shooter: dict[str, str] = {}            # the target's last Fire Control shooter
    for e in itertools.islice(events, stop):
        k = e.kind
        if k == "option_used" and e.card == "fire-control" and isinstance(e.target, str):
            shooter[e.target] = e.robot or ""
        elif k == "register_locked" and e.robot and e.amount:
            by = shooter.get(e.robot)
            locks.setdefault(e.robot, {})[e.amount] = (
                f"locked by {by}'s Fire Control in {moment_text(e)}" if by else
                f"locked by Fire Control in {moment_text(e)}")
        elif k in ("register_unlocked", "powered_down", "destroyed") and e.robot:
            locks.pop(e.robot, None)
    return locks


def last_option_uses(events: Sequence[Event], stop: int) -> dict[str, dict[str, str]]:
    """Per robot, what each of its option cards last did in the events before
    index `stop`, in words after its moment ("1·2: A fires the Fire Control
    at B to lock its register 4"); a card gained or lost starts fresh."""
    last: dict[str, dict[str, Event]] = {}
    for e in itertools.islice(events, stop):
        if not (e.robot and e.card):
            continue
        if e.kind in ("option_used", "option_use_ignored", "damage_prevented"):
            last.setdefault(e.robot, {})[e.card] = e
        elif e.kind in ("option_gained", "option_lost"):
            last.get(e.robot, {}).pop(e.card, None)
    return {robot: {card: f"{moment_text(e)}: {describe(e)}" for card, e in cards.items()}
            for robot, cards in last.items()}


def moment_text(e: Event) -> str:
    if e.round == 0:
        return "start"
    if e.register is None:
        return f"{e.round}·" + ("end" if e.step == "end" else
                               "clean" if e.step in CLEANUP_STEPS else "deal")
    return f"{e.round}·{e.register}"


def log_line(e: Event) -> str:
    """One line of the race log: the event's moment, right-aligned, then its words."""
    return f"{moment_text(e):>6}  {describe(e)}"
