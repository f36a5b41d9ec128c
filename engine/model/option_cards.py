"""The 26 option cards (docs/rules.md 10): ids, names, effects, and the
script grammar of a register entry (docs/format.md, "Option cards in a script").

    card ["+" card] ["/" option] ["@" weapon [":" mode]]

where only Fire Control takes a mode: ``:1``-``:5`` (the register to lock),
``:option`` or ``:option=ID`` (the option to destroy; docs/rules.md 10, Fire Control).

This module knows the cards as data only; what they do is in the rules
code (engine/rules/option_play.py and the steps it hooks into).
"""
from __future__ import annotations

import re
from typing import NamedTuple


class OptionCard(NamedTuple):
    id: str
    name: str
    effect: str


OPTION_CARDS: tuple[OptionCard, ...] = (
    OptionCard("ablative-coat", "Ablative Coat",
               "Takes the next 3 points of damage the robot would take, then is discarded."),
    OptionCard("abort-switch", "Abort Switch",
               "Once per round, at the start of a register: that register's card and every "
               "later unlocked one are replaced by the top card of the deck."),
    OptionCard("brakes", "Brakes", "Each time the robot plays Move 1, it may move 0 squares."),
    OptionCard("circuit-breaker", "Circuit Breaker",
               "At clean-up, a robot with 3 or more damage powers down for the next round."),
    OptionCard("conditional-program", "Conditional Program",
               "A card left in the hand may be set aside and swapped into a register "
               "before it is revealed."),
    OptionCard("crab-legs", "Crab Legs",
               "A register may hold Move 1 with Rotate left or right: the robot steps 1 square "
               "sideways without turning."),
    OptionCard("double-barreled-laser", "Double-Barreled Laser",
               "The main laser does 2 damage instead of 1."),
    OptionCard("dual-processor", "Dual Processor",
               "A register may hold a move card (Move 1, 2, 3 or Back up) with a rotate card: "
               "the robot moves 1 square less (2 less with U-turn, Back up counting as 1), "
               "then turns."),
    OptionCard("extra-memory", "Extra Memory", "The robot is dealt 1 more card each round."),
    OptionCard("fire-control", "Fire Control",
               "Instead of the main laser's damage, the robot chooses: lock one of the "
               "target's registers with its card, or destroy one of the target's options."),
    OptionCard("flywheel", "Flywheel",
               "One card left in the hand may be kept; it returns to the hand in a later "
               "round of the robot's choice."),
    OptionCard("fourth-gear", "Fourth Gear", "Each time the robot plays Move 3, it may move 4."),
    OptionCard("gyroscopic-stabilizer", "Gyroscopic Stabilizer",
               "For a whole round, board elements do not turn the robot."),
    OptionCard("high-power-laser", "High-Power Laser",
               "The main laser passes through one wall or one robot (which takes the hit too)."),
    OptionCard("mechanical-arm", "Mechanical Arm",
               "Touches flags, repair and upgrade squares on the 8 squares around the robot "
               "with no wall between."),
    OptionCard("mini-howitzer", "Mini Howitzer",
               "5 shots: instead of the main laser, push the target 1 square away and do 1 damage."),
    OptionCard("power-down-shield", "Power-Down Shield",
               "While powered down, ignores the first point of damage from each side in each "
               "register (lasers, Mini Howitzer shells, Ramming Gear)."),
    OptionCard("pressor-beam", "Pressor Beam",
               "Instead of the main laser, push the target 1 square away. No damage."),
    OptionCard("radio-control", "Radio Control",
               "Instead of the main laser, the target copies the robot's cards for the rest "
               "of the round."),
    OptionCard("ramming-gear", "Ramming Gear",
               "A robot this robot pushes with its own card takes 1 damage."),
    OptionCard("rear-firing-laser", "Rear-Firing Laser", "The robot also fires backwards."),
    OptionCard("recompile", "Recompile",
               "Once per round after the deal: a new hand of the same size, for 1 damage."),
    OptionCard("reverse-gears", "Reverse Gears", "Each time the robot plays Back up, it may "
               "move 2 squares backwards."),
    OptionCard("scrambler", "Scrambler",
               "Instead of the main laser (not in register 5), the target's next card is "
               "replaced by the top card of the deck."),
    OptionCard("superior-archive-copy", "Superior Archive Copy",
               "A robot destroyed while holding it re-enters with 0 damage."),
    OptionCard("tractor-beam", "Tractor Beam",
               "Instead of the main laser, pull a robot that is not adjacent 1 square closer. "
               "No damage."),
)

OPTION_IDS: tuple[str, ...] = tuple(c.id for c in OPTION_CARDS)
BY_ID: dict[str, OptionCard] = {c.id: c for c in OPTION_CARDS}


def card_name(card: str) -> str:
    """An option card's printed name ("Ablative Coat"), or the id as written if unknown."""
    return BY_ID[card].name if card in BY_ID else card


_BY_WORDS: dict[str, str] = {key: c.id for c in OPTION_CARDS
                             for key in (c.id, c.name.lower().replace(" ", "-"))}


def card_id(words: str) -> str | None:
    """The id of the option card `words` names, by its id or its printed
    name, case and spaces ignored ("mini howitzer", "Mini-Howitzer"); None
    if no card is named so."""
    return _BY_WORDS.get(words.strip().lower().replace(" ", "-"))

# Uses a register entry may carry (docs/format.md, "Option cards in a script").
MOVE_USES = ("brakes", "fourth-gear", "reverse-gears")
PAIR_USES = ("crab-legs", "dual-processor")
WEAPONS = ("pressor-beam", "tractor-beam", "mini-howitzer", "fire-control", "radio-control",
           "scrambler")
# Which card kinds each use applies to (the move card of a pair first).
USE_KINDS: dict[str, tuple[tuple[str, ...], ...]] = {
    "brakes": (("move1",),),
    "fourth-gear": (("move3",),),
    "reverse-gears": (("back",),),
    "crab-legs": (("move1",), ("left", "right")),
    "dual-processor": (("move1", "move2", "move3", "back"), ("left", "right", "uturn")),
}
_FIRE_CONTROL_MODE = re.compile(r"^(?P<register>[1-5])$|^option(=(?P<option>.*))?$")

_CARD = r"(move1|move2|move3|back|left|right|uturn)(:[1-9][0-9]{0,2})?"
_ENTRY = re.compile(r"^(?P<card>[^+/@]*)(\+(?P<pair>[^+/@]*))?(/(?P<use>[^+/@]*))?"
                    r"(@(?P<weapon>[^+/@:]*)(:(?P<mode>[^+/@]*))?)?$")


def entry_problem(text: str) -> str | None:
    """What is wrong with a register entry's text, in words (None: nothing)."""
    m = _ENTRY.match(text)
    if m is None:
        return "a register takes at most one '+', one '/' and one '@'"
    card, pair, use, weapon, mode = m.group("card", "pair", "use", "weapon", "mode")
    for part in (card, pair):
        if part is not None and not re.fullmatch(_CARD, part):
            return (f"{part!r} is not a card (cards are move1, move2, move3, back, left, right, "
                    f"uturn, optionally with :PRIORITY 1-999)")
    if use is not None:
        if use not in BY_ID:
            return f"{use!r} is not an option card"
        if use not in MOVE_USES + PAIR_USES:
            return (f"the option after '/' must be one of {', '.join(MOVE_USES + PAIR_USES)}, "
                    f"not {use!r}")
    if pair is not None or use in PAIR_USES:
        if pair is None or use not in PAIR_USES:
            return "two cards in one register need /crab-legs or /dual-processor after them"
        moves, turns = USE_KINDS[use]
        if card.partition(":")[0] not in moves or pair.partition(":")[0] not in turns:
            return (f"{use} pairs {' or '.join(moves)} (first) with {' or '.join(turns)}, "
                    f"not {card} with {pair}")
    if weapon is not None:
        if weapon not in BY_ID:
            return f"{weapon!r} is not an option card"
        if weapon not in WEAPONS:
            return f"the option after '@' must be one of {', '.join(WEAPONS)}, not {weapon!r}"
        if mode is not None:
            if weapon != "fire-control":
                return "only @fire-control takes a mode after ':'"
            m = _FIRE_CONTROL_MODE.match(mode)
            if m is None:
                return (f"@fire-control takes :1 to :5 (the register to lock), :option or "
                        f":option=ID (the option to destroy), not :{mode}")
            if m.group("option") is not None and m.group("option") not in BY_ID:
                return f"{m.group('option')!r} is not an option card"
    return None
