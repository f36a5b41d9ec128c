"""The search bot's movement options (docs/rules.md 10.12): a program with Fourth
Gear or a Crab Legs pair is kept when it scores better on the rules code,
and so is the Gyroscopic Stabilizer for a round."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from rallyforge.engine.bots import make_bot, new_race
from rallyforge.engine.bots.option_moves import PLANNED_OPTIONS, OptionMoves
from rallyforge.engine.bots.tables import tables_for
from rallyforge.engine.rules.bot_view import BotView
from rallyforge.engine.format.loader import load_dict, load_file
from rallyforge.engine.model.scenario import Card
from rallyforge.engine.rules.course import compile_course
from rallyforge.engine.rules.state import RobotState

HAND = [Card("move1", 500), Card("left", 70), Card("right", 80), Card("uturn", 10),
        Card("back", 430), Card("move2", 700), Card("move3", 800), Card("left", 90),
        Card("right", 100)]


def setup(flags, at, cards, tiles=(), lasers=()):
    doc = {"format": "rally-scenario", "version": 1, "name": "t",
           "board": {"width": 8, "height": 8, "tiles": list(tiles), "lasers": list(lasers)},
           "flags": [{"x": x, "y": y} for x, y in flags],
           "docks": [{"x": 0, "y": 7, "facing": "N"}]}
    s = load_dict(doc)
    course = compile_course(s.board)
    robot = RobotState(0, "A", course.square(*at), 0)
    robot.cards = list(cards)
    view = BotView(s.board, course, tuple(course.square(f.x, f.y) for f in s.flags), s.rules,
                   robot)
    bot = make_bot("search")
    bot.program(view, HAND, [1, 2, 3, 4, 5], random.Random(1))
    return bot, robot


def test_a_crab_step_onto_the_flag_beats_a_step_forward():
    bot, robot = setup([(2, 5), (2, 0)], (3, 5), ["crab-legs"])
    moves = bot._moves
    registers = [Card("move1", 500), Card("move2", 700), Card("right", 80), None, None]
    _, uses, pairs = moves.improve(robot, registers, [0, 1, 2, 3, 4], HAND)
    assert pairs[0] is not None and pairs[0][0].kind == "left"  # sideways onto flag 1
    assert pairs[0][1] == "crab-legs"
    assert uses == [None] * 5


def test_a_dual_processor_pair_of_move1_and_a_turn_is_the_turn_alone():
    """Move 1 with Rotate left on a Dual Processor plays as the turn alone
    (docs/rules.md 10, Dual Processor): with the flag to the west, the bot pairs the Move 1
    it holds in register 1 with a spare left turn and then moves 2 onto it."""
    bot, robot = setup([(1, 5), (1, 0)], (3, 5), ["dual-processor"])
    registers = [Card("move1", 500), Card("move2", 700), None, None, None]
    _, uses, pairs = bot._moves.improve(robot, registers, [0, 1, 2, 3, 4], HAND)
    assert pairs[0] is not None and (pairs[0][0].kind, pairs[0][1]) == ("left", "dual-processor")
    assert uses == [None] * 5


def test_fourth_gear_when_the_fourth_square_is_the_flag():
    bot, robot = setup([(3, 1), (3, 0)], (3, 5), ["fourth-gear"])
    registers = [Card("move3", 800), Card("move1", 500), None, None, None]
    _, uses, pairs = bot._moves.improve(robot, registers, [0, 1, 2, 3, 4], HAND)
    assert uses[0] == "fourth-gear" and pairs == [None] * 5


def test_without_movement_cards_the_bot_makes_no_plan():
    bot, _ = setup([(3, 1), (3, 0)], (3, 5), ["double-barreled-laser"])
    assert bot.option_plan is None and bot._moves is None


GEAR = {"x": 3, "y": 5, "type": "gear", "rotation": "cw"}


def test_the_stabilizer_when_a_gear_would_turn_the_robot_away():
    registers = [None, Card("move3", 800), None, None, None]     # the gear acts in register 1
    for tiles, cards, steady in (([GEAR], ["gyroscopic-stabilizer"], True),
                                 ((), ["gyroscopic-stabilizer"], False),
                                 ([GEAR], ["crab-legs"], False)):
        bot, robot = setup([(3, 2), (3, 0)], (3, 5), cards, tiles)
        assert bot._moves.steady(robot, registers, [None] * 5, [None] * 5) is steady


class _Planner:
    """A bot whose program is fixed, with a pair in register 1 (as the search
    bot gives it), and the Gyroscopic Stabilizer if `steady`."""

    def __init__(self, first=Card("move1", 500), steady=False):
        self.first = first
        self.option_plan = ([None] * 5, [(Card("left", 70), "crab-legs"), None, None, None, None],
                            steady)

    def program(self, view, hand, free_registers, rng):
        return [self.first]

    def power_down(self, view, rng):
        return False


def test_the_race_plays_the_bots_pair():
    doc = {"format": "rally-scenario", "version": 1, "name": "t",
           "board": {"width": 8, "height": 8}, "flags": [{"x": 7, "y": 0}],
           "docks": [{"x": 3, "y": 5, "facing": "N"}], "rules": {"options": "played"}}
    race = new_race(load_dict(doc), seed=1, robot_count=1, bots=[_Planner()])
    robot = race.robots[0]
    robot.cards, robot.options = ["crab-legs"], 1
    race.play_register()
    assert race.snapshot()[0].x == 2 and race.snapshot()[0].y == 5     # stepped left, not north
    assert race.snapshot()[0].facing == "N"


def test_the_race_steadies_a_bot_that_plans_the_stabilizer():
    doc = {"format": "rally-scenario", "version": 1, "name": "t",
           "board": {"width": 8, "height": 8, "tiles": [GEAR]}, "flags": [{"x": 7, "y": 0}],
           "docks": [{"x": 3, "y": 5, "facing": "N"}], "rules": {"options": "played"}}
    for steady, facing in ((True, "S"), (False, "W")):
        race = new_race(load_dict(doc), seed=1, robot_count=1,
                    bots=[_Planner(Card("uturn", 10), steady)])
        robot = race.robots[0]
        robot.cards, robot.options = ["gyroscopic-stabilizer"], 1
        race.play_register()
        assert race.snapshot()[0].facing == facing
        assert any(e.kind == "option_used" and e.card == "gyroscopic-stabilizer"
                   for e in race.events) is steady


class _Recorder:
    """A bot that plays the first cards of each hand and remembers the hands."""

    def __init__(self):
        self.hands = []

    def program(self, view, hand, free_registers, rng):
        self.hands.append(list(hand))
        return hand[:len(free_registers)]

    def power_down(self, view, rng):
        return False


class _Taker(_Recorder):
    """Takes back the card on its Flywheel every round."""

    def take_flywheel(self, view, hand, card, free_registers, rng):
        return True


@pytest.mark.parametrize("bot, takes", [(_Recorder, False), (_Taker, True)])
def test_a_bot_keeps_its_leftover_card_of_highest_priority_on_the_flywheel(bot, takes):
    """The card returns when the bot takes it; a bot without a search of its
    own takes it only to fill a short hand (docs/rules.md 10.12)."""
    doc = {"format": "rally-scenario", "version": 1, "name": "t",
           "board": {"width": 8, "height": 8}, "flags": [{"x": 7, "y": 0}],
           "docks": [{"x": 3, "y": 5, "facing": "N"}],
           "rules": {"options": "played", "robot_lasers": False}}
    race = new_race(load_dict(doc), seed=3, robot_count=1, bots=[bot := bot()])
    robot = race.robots[0]
    robot.cards, robot.options = ["flywheel"], 1
    race.play_round()
    kept = max(bot.hands[0][5:], key=lambda c: c.priority)
    assert robot.opt.flywheel == kept
    race.play_register()                # round 2 programmed
    assert (len(bot.hands[1]) == 10 and bot.hands[1][-1] == kept) is takes
    assert (robot.opt.flywheel == kept) is not takes           # it stays until taken
    assert [(e.round, e.cause) for e in race.events if e.kind == "option_used"
            and e.card == "flywheel"] == [(1, f"keeps {kept}")] + (
        [(2, f"takes back {kept}"), (2, f"keeps {robot.opt.flywheel}")] if takes else [])


def test_the_search_bot_takes_the_flywheel_card_when_a_program_is_better_with_it():
    bot, robot = setup([(3, 2), (3, 0)], (3, 5), ["flywheel"])
    view, rng = bot._view, random.Random(1)
    turns = [Card("left", 70), Card("right", 80)]
    assert bot.take_flywheel(view, turns, Card("move3", 800), [1, 2, 3, 4, 5], rng)
    assert not bot.take_flywheel(view, turns + [Card("move3", 790)], Card("move3", 800),
                                 [1, 2, 3, 4, 5], rng)       # one Move 3 reaches flag 1 already
    assert bot.take_flywheel(view, [], Card("left", 70), [1], rng)
    assert not bot.take_flywheel(view, turns, Card("move3", 800), [], rng)


def test_recompile_when_the_hand_cannot_move_and_not_when_it_reaches_the_flag():
    from rallyforge.engine.model.program_cards import DECK
    turns = [c for c in DECK if c.kind in ("left", "right")][:9]
    bot, robot = setup([(3, 2), (3, 0)], (3, 5), ["recompile"])
    view = bot._view
    assert bot.recompile(view, turns, [1, 2, 3, 4, 5], random.Random(1))
    assert not bot.recompile(view, HAND, [1, 2, 3, 4, 5], random.Random(1))   # move3: flag 1


@pytest.mark.parametrize("free", [[1, 2, 3, 4, 5], [1, 2, 3], [2, 3, 4, 5]])
@pytest.mark.parametrize("damage", [None, 1, 8])
def test_the_best_score_of_hands_is_the_highest_of_their_scored_programs(free, damage):
    # recompile judges draws by best_scores (one compiled call for all of
    # them where it applies); it must agree with scored, hand by hand
    from rallyforge.engine.model.program_cards import DECK
    # board lasers across the way to the flag: the damage argument counts
    bot, robot = setup([(3, 2), (3, 0)], (3, 5), ["recompile"],
                       lasers=[{"x": 0, "y": 4, "dir": "E", "beams": 2},
                               {"x": 7, "y": 3, "dir": "W", "beams": 2}])
    robot.damage = 4
    robot.registers = [Card("move1", 490), None, None, None, Card("uturn", 20)]
    view = bot._view
    rng = random.Random(3)
    hands = [rng.sample(DECK, 9) for _ in range(6)] + [HAND]
    assert bot.best_scores(view, hands, free, damage) == [
        bot.scored(view, hand, free, damage)[1].max() for hand in hands]


class _Recompiler(_Recorder):
    def recompile(self, view, hand, free_registers, rng):
        return True


def test_the_race_recompiles_for_a_bot_that_holds_the_card():
    doc = {"format": "rally-scenario", "version": 1, "name": "t",
           "board": {"width": 8, "height": 8}, "flags": [{"x": 7, "y": 0}],
           "docks": [{"x": 3, "y": 5, "facing": "N"}, {"x": 5, "y": 5, "facing": "N"}],
           "rules": {"options": "played", "robot_lasers": False}}
    bots = [_Recompiler(), _Recompiler()]
    race = new_race(load_dict(doc), seed=3, robot_count=2, bots=bots)
    race.robots[0].cards, race.robots[0].options = ["recompile"], 1
    race.play_register()
    used = [e.robot for e in race.events if e.kind == "option_used" and e.card == "recompile"]
    assert used == ["Robot 1"]                  # the other robot does not hold the card
    assert not [e for e in race.events if e.kind == "option_use_ignored"]      # nor tries
    assert [r.damage for r in race.robots] == [1, 0]


def test_a_bot_trades_a_card_for_the_point_of_its_first_recompile():
    """docs/rules.md 10.3: a bot trades its least valued card for a point that
    would lock a register from the race's start, the point of a Recompile
    before its first program too (its choices once began with that program)."""
    doc = {"format": "rally-scenario", "version": 1, "name": "t",
           "board": {"width": 8, "height": 8}, "flags": [{"x": 7, "y": 0}],
           "docks": [{"x": 3, "y": 5, "facing": "N"}],
           "rules": {"options": "played", "robot_lasers": False, "start_damage": 4}}
    race = new_race(load_dict(doc), seed=3, robot_count=1, bots=[_Recompiler()])
    robot = race.robots[0]
    robot.cards, robot.options = ["recompile", "brakes"], 2
    race.play_register()
    assert (robot.damage, robot.cards) == (4, ["recompile"])


class _Fixed:
    """A bot that programs the same cards every round, whatever its hand."""

    def __init__(self, *cards):
        self.cards = list(cards)

    def program(self, view, hand, free_registers, rng):
        return self.cards[:len(free_registers)]

    def power_down(self, view, rng):
        return False


def _duel(a, b, bots, flag=(4, 0), tiles=()):
    """A race of two bots on docks `a` and `b` ((x, y, facing)); the first
    fires along its row from behind a wall."""
    doc = {"format": "rally-scenario", "version": 1, "name": "t",
           "board": {"width": 8, "height": 8, "tiles": list(tiles),
                     "walls": [{"x": a[0], "y": a[1], "side": "W"}]},
           "flags": [{"x": flag[0], "y": flag[1]}],
           "docks": [{"x": x, "y": y, "facing": f} for x, y, f in (a, b)],
           "rules": {"options": "played"}}
    return new_race(load_dict(doc), seed=1, robot_count=2, bots=bots)


def test_a_bot_locks_the_revealed_register_whose_card_takes_the_target_on():
    """B steps into A's line in register 3; of its revealed cards (turn,
    turn, Move 1 toward its flag) A's Fire Control locks the Move 1's
    register, not the lowest unlocked one (docs/rules.md 10.12, a bot's policy)."""
    race = _duel((1, 2, "E"), (4, 3, "N"),
                 [_Fixed(), _Fixed(Card("left", 70), Card("right", 80), Card("move1", 490))])
    shooter, target = race.robots
    shooter.cards, shooter.options = ["fire-control"], 1
    for _ in range(3):
        race.play_register()
    assert [(e.target, e.cause) for e in race.events if e.kind == "option_used"] == [
        ("Robot 2", "lock register 3")]
    assert target.opt.fc_locks == [2] and target.damage == 0


@pytest.mark.parametrize("cards, damage, choice", [
    (["brakes"], 0, "2"),                       # a card ranked low: the lock
    (["brakes", "mini-howitzer"], 0, "option=mini-howitzer"),     # a weapon: destroyed
    (["brakes"], 9, None),                      # the laser's point destroys it: damage
])
def test_a_bots_fire_control_choice(cards, damage, choice):
    from rallyforge.engine.bots.option_policy import OptionPolicy
    race = _duel((1, 2, "E"), (4, 2, "N"), [_Fixed(), _Fixed()])
    race.play_register()
    shooter, target = race.robots
    shooter.cards = ["fire-control"]
    target.cards, target.damage = cards, damage
    target.registers = [Card("left", 70), Card("move2", 700), Card("right", 80), None, None]
    target.opt.fc_locks = []
    assert OptionPolicy().weapon(race.floor, shooter, [target], 0, 2, 1) == (
        ("fire-control", choice) if choice else None)


def test_a_bot_keeps_its_superior_archive_copy_and_re_enters_with_no_damage():
    """Destroyed holding Brakes and the Archive (its most recent card), a bot
    discards Brakes, which it ranks lower (a scripted robot would discard
    the Archive), and re-enters with 0 damage (docs/rules.md 10, Superior Archive Copy)."""
    race = _duel((1, 2, "E"), (4, 3, "N"), [_Fixed(Card("move1", 490)), _Fixed()],
                 tiles=[{"x": 2, "y": 2, "type": "pit"}])
    robot = race.robots[0]
    robot.cards, robot.options = ["brakes", "superior-archive-copy"], 2
    race.play_round()
    assert robot.deaths == 1 and robot.cards == ["superior-archive-copy"]
    assert robot.sq >= 0 and robot.damage == 0


@pytest.mark.parametrize("name", ("option-world.json", "marathon-madness.json"))
def test_a_plain_cards_move_from_the_tables_scores_as_the_round_played(name):
    """The option plan's scorer takes a plain card's move from the lone-robot
    tables on a board without levels (engine/bots/option_moves.py): every
    program scores as when each register is played by the rules code."""
    scenario = load_file(Path(__file__).parent.parent / "engine" / "editing" / "published" / name)
    course = compile_course(scenario.board)
    flags = tuple(course.square(f.x, f.y) for f in scenario.flags)
    view = BotView(scenario.board, course, flags, scenario.rules, RobotState(0, "A", 0, 0))
    tables = tables_for(view)
    layered = tables.layered()
    dead = [-10 - t for t in range(layered.F + 1)]
    by_tables, played = OptionMoves(tables, layered, dead), OptionMoves(tables, layered, dead)
    assert by_tables.ends is not None
    played.ends = None                  # every register by the rules code
    rng = random.Random(3)
    kinds = ("move1", "move2", "move3", "back", "left", "right", "uturn")
    uses = {"move1": "brakes", "move3": "fourth-gear", "back": "reverse-gears"}
    squares = [sq for sq in range(course.size) if course.death[sq] is None]
    for _ in range(3000):
        robot = RobotState(0, "A", rng.choice(squares), rng.randrange(4),
                           damage=rng.randrange(9))
        robot.flags = rng.randrange(layered.F)
        robot.cards = rng.sample(PLANNED_OPTIONS + ("ramming-gear",), 3)
        registers = [Card(rng.choice(kinds), 10 * r) if rng.random() < 0.9 else None
                     for r in range(5)]
        use = [uses.get(c.kind) if c is not None and rng.random() < 0.3 else None
               for c in registers]
        pairs = [(Card(rng.choice(("left", "right", "uturn")), 5), rng.choice(("crab-legs",
                                                                            "dual-processor")))
                 if c is not None and use[r] is None and rng.random() < 0.2 else None
                 for r, c in enumerate(registers)]
        steady = rng.random() < 0.2
        assert by_tables.score(robot, registers, use, pairs, steady) == \
            played.score(robot, registers, use, pairs, steady), (robot.sq, registers, use, pairs)
