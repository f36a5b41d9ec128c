"""A finished race replayed from its event log as playback frames.

A *frame* is one step of the race as a viewer sees it: the start, the cards
dealt at the start of a round, one robot's card, the express conveyors, the
conveyors, the currents, the pushers, the gears, the crushers, the lasers,
the checkpoints, the clean-up, the end. Steps in which nothing happens have
no frame, except that every register played has at least one, so that
"the end of register r" always exists. Each frame carries every robot's
state once its events are done (a ``RobotResult``, as the engine's
``Race.snapshot()`` gives it), the slice of the event log it covers, and
what to animate: the moves and turns (``Motion``), laser beams (``Beam``)
and deaths (``Death``).

States are computed by replaying the event log, never by asking the
engine: the ``place`` events give the robots' starting state, the
``program`` events each round's registers. No rule is applied here: where a
rule sets a value (damage after a power down or a re-entry, lives and options
left after a destruction) the event carries it. The tests check that the
state at the end of every register equals the engine's own snapshot there.

A frame's motions are spread over *slots*. Each move or turn of the acting
robot (its card's steps, a pusher's push) ends a slot, and the robots it
pushes move in the same slot; everything a belt or gear does happens in one
slot; ``duration_ms`` is the frame's playback length at normal speed. How a
robot looks part way through a slot is the editor's (editor/preview/animation.py);
the words for each event are narration.py's.

    timeline = play_race(scenario, seed=7, robot_count=4)
    timeline.frames[-1].robots          # the final state
"""
from __future__ import annotations

import itertools
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any, overload

from rallyforge.engine.model.events import Event
from rallyforge.engine.model.scenario import Board, Check, Scenario
from rallyforge.engine.model.turning import turn_part
from rallyforge.engine.rules.outcome import RobotResult

if TYPE_CHECKING:
    from rallyforge.engine.analysis.scenario_checks import CheckResult

ANGLE = {"N": 0.0, "E": 90.0, "S": 180.0, "W": 270.0}

# Where a step sits in a round: the start, registers 1-5, the clean-up, the end.
START, CLEANUP, END = 0, 6, 7
_ROUND_START_STEPS = {"power_down", "deal", "program", "announce"}
CLEANUP_STEPS = {"repairs", "registers", "power_down_choice", "reentry"}
# Moves and turns of the robot that acts: each ends an animation slot.
_ACTING_CAUSES = {"card", "teleport", "pusher"}

# Playback length of a frame at normal speed, in milliseconds.
SLOT_MS = 320
_DURATION_MS = {"setup": 0, "round": 450, "reveal": 350, "lasers": 550, "checkpoints": 350,
                "cleanup": 550, "end": 700, "idle": 150, "crushers": 450}


@dataclass(frozen=True)
class Pose:
    x: float            # the square's column (a robot's centre is x + 0.5)
    y: float
    angle: float        # degrees clockwise from north
    opacity: float = 1.0
    scale: float = 1.0


@dataclass(frozen=True)
class Motion:
    """What one robot does in one slot of a frame."""
    robot: str
    slot: int
    src: Pose
    dst: Pose
    cause: str                  # card, push, express, conveyor, current, pusher, teleport,
                                # gear, reenter, fall (a move down a ledge), slide (up a
                                # ramp's foot and back), and for vanishing: the death's
                                # cause or "leave"
    dies: bool = False          # destroyed (or leaves the board) at the end of it
    appears: bool = False       # re-enters the board

    @property
    def moved(self) -> bool:
        return (self.src.x, self.src.y) != (self.dst.x, self.dst.y)

    @property
    def jump(self) -> bool:
        return self.cause == "teleport"


@dataclass(frozen=True)
class Beam:
    shooter: str | None         # None for a board laser
    src: tuple[int, int]        # the laser's square, or the shooting robot's
    facing: str
    path: tuple[tuple[int, int], ...]
    target: str | None
    amount: int


@dataclass(frozen=True)
class Death:
    robot: str
    x: int
    y: int
    cause: str
    lives: int


@dataclass(frozen=True)
class Frame:
    index: int
    round: int
    register: int | None        # None outside the registers
    phase: int                  # START, 1..5, CLEANUP or END: where in the round
    step: str                   # a key of narration.STEP_NAMES
    events: tuple[int, int]     # [start, stop) in the event log
    robots: tuple[RobotResult, ...]     # everyone's state after this frame
    actor: str | None = None    # the robot whose card this is
    card: str | None = None
    motions: tuple[Motion, ...] = ()
    slots: int = 0
    beams: tuple[Beam, ...] = ()
    deaths: tuple[Death, ...] = ()
    register_end: bool = False  # the last frame of its register
    round_end: bool = False     # the last frame of its round
    duration_ms: int = 0

    @property
    def moment(self) -> tuple[int, int]:
        return self.round, self.phase

    def robot(self, name: str) -> RobotResult:
        return next(r for r in self.robots if r.name == name)


@dataclass
class Timeline:
    frames: list[Frame]
    events: list[Event]
    names: tuple[str, ...]
    # Program cards per round: {round: {robot: (card or None,) * 5}}
    programs: dict[int, dict[str, tuple[str | None, ...]]] = field(default_factory=dict)
    # Registers locked by damage when the round's cards were dealt: {round: {robot: count}}
    locked: dict[int, dict[str, int]] = field(default_factory=dict)
    winners: tuple[str, ...] = ()
    seed: int = 0
    over: bool = False
    # a team course: each robot's (team, role) by name (docs/rules.md 13); empty otherwise
    sides: dict[str, tuple[str, str]] = field(default_factory=dict)
    _event_starts: list[int] = field(default_factory=list, repr=False)
    _moments: list[tuple[int, int]] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        self._event_starts = [f.events[0] for f in self.frames]
        self._moments = [f.moment for f in self.frames]

    def __len__(self) -> int:
        return len(self.frames)

    # ------------------------------------------------------------ finding frames

    def frame_of_event(self, index: int) -> int:
        """The frame whose events include event `index`."""
        i = max(0, bisect_right(self._event_starts, index) - 1)
        # (frames with no events, of empty registers, share a start with the next one)
        while i + 1 < len(self.frames) and self.frames[i].events[1] <= index:
            i += 1
        return i

    def moment_frame(self, round: int, register: int | None) -> int:
        """The frame that ends `register` of `round` (None: the whole round,
        clean-up included); the last frame when the race ended before."""
        key = (round, CLEANUP if register is None else register)
        best = max(0, bisect_right(self._moments, key) - 1)
        if best == len(self.frames) - 2 and self.frames[-1].step == "end":
            return best + 1     # the race ended at that moment: show its end
        return best

    def next_register_end(self, i: int) -> int:
        for f in self.frames[i + 1:]:
            if f.register_end:
                return f.index
        return len(self.frames) - 1

    def next_round_end(self, i: int) -> int:
        for f in self.frames[i + 1:]:
            if f.round_end:
                return f.index
        return len(self.frames) - 1

    @cached_property
    def fire_control_locked(self) -> bool:
        """Whether Fire Control locks a register at some moment of this race."""
        return any(e.kind == "register_locked" for e in self.events)

    def program(self, i: int) -> tuple[dict[str, tuple[str | None, ...]], dict[str, int]]:
        """The program cards shown at frame i (the round in play or just
        played) and the registers locked per robot."""
        round = self.frames[i].round
        return self.programs.get(round, {}), self.locked.get(round, {})

# ---------------------------------------------------------------- building


class _Robot:
    """The replayed state of one robot (the fields of RobotResult)."""

    FIELDS = ("name", "x", "y", "facing", "damage", "lives", "flags", "alive", "out",
              "powered_down", "options", "option_cards", "archive", "finished", "deaths",
              "superbot")
    __slots__ = FIELDS + ("cached",)

    def __init__(self, r: RobotResult):
        (self.name, self.x, self.y, self.facing, self.damage, self.lives, self.flags, self.alive,
         self.out, self.powered_down, self.options, self.option_cards, self.archive,
         self.finished, self.deaths, self.superbot) = (
            r.name, r.x, r.y, r.facing, r.damage, r.lives, r.flags, r.alive, r.out,
            r.powered_down, r.options, r.option_cards, r.archive, r.finished, r.deaths,
            r.superbot)
        self.cached = r

    def result(self) -> RobotResult:
        """The state as a RobotResult, made anew only when it changed."""
        values = (self.name, self.x, self.y, self.facing, self.damage, self.lives,
                  self.flags, self.alive, self.out, self.powered_down, self.options,
                  self.option_cards, self.archive, self.finished, self.deaths, self.superbot)
        c = self.cached
        if values != (c.name, c.x, c.y, c.facing, c.damage, c.lives, c.flags, c.alive, c.out,
                      c.powered_down, c.options, c.option_cards, c.archive, c.finished,
                      c.deaths, c.superbot):
            self.cached = RobotResult(*values)
        return self.cached

    def pose(self) -> Pose:
        """Where the robot stands (it is on the board)."""
        assert self.x is not None and self.y is not None and self.facing is not None
        return Pose(self.x, self.y, ANGLE[self.facing])

    @property
    def in_race(self) -> bool:
        return not self.out and self.finished is None


def _phase(e: Event) -> int:
    if e.round == 0:
        return CLEANUP
    if e.step == "end":
        return END
    if e.register is not None:
        return e.register
    if e.step in _ROUND_START_STEPS:
        return START
    if e.step in CLEANUP_STEPS:
        return CLEANUP
    return CLEANUP      # the set-up counts as the end of round 0


def _group(e: Event) -> str:
    if e.round == 0:
        return "setup"
    if e.step == "end":
        return "end"
    if e.step in _ROUND_START_STEPS:
        return "round"
    if e.step in CLEANUP_STEPS:
        return "cleanup"
    return e.step


def _placed(e: Any) -> RobotResult:
    """A robot's state as its ``place`` event (an Event) puts it on the board."""
    s = e.start
    return RobotResult(e.robot, e.dst[0], e.dst[1], e.facing, s.damage, s.lives, s.flags,
                       True, False, s.powered_down, s.options, (), tuple(e.dst), None, 0)


def initial_state(events: Sequence[Event]) -> tuple[RobotResult, ...]:
    """Every robot's state before the race, from the log's ``place`` events."""
    return tuple(_placed(e) for e in events if e.kind == "place")


class _Builder:
    def __init__(self, events: Sequence[Event]):
        self.events = events
        self.initial = initial_state(events)
        self.robots = {r.name: _Robot(r) for r in self.initial}
        self.order = [r.name for r in self.initial]
        self.frames: list[Frame] = []
        self.locked: dict[int, dict[str, int]] = {}
        self.winners: tuple[str, ...] = ()
        self.over = False
        self.round = 0

    def snapshot(self) -> tuple[RobotResult, ...]:
        return tuple(self.robots[n].result() for n in self.order)

    def add(self, round: int, phase: int, step: str, start: int, stop: int, **extra: Any) -> None:
        register = phase if 1 <= phase <= 5 else None
        self.frames.append(Frame(len(self.frames), round, register, phase, step, (start, stop),
                                 self.snapshot(), **extra))

    def fill(self, round: int, phase_from: int, phase_to: int, at: int) -> None:
        """Empty frames for the registers of `round` after phase_from and before phase_to."""
        for register in range(max(1, phase_from + 1), min(6, phase_to)):
            self.add(round, register, "idle", at, at, duration_ms=_DURATION_MS["idle"])

    def build(self) -> list[Frame]:
        events = self.events
        n = len(events)
        i = 0
        last = (0, CLEANUP)     # the moment of the frame before
        while i < n:
            e = events[i]
            group, phase = _group(e), _phase(e)
            round = e.round
            # the registers that passed without events
            # (the end comes after the register it ended, or after the clean-up)
            until = phase if phase != END else (e.register + 1 if e.register else CLEANUP)
            if round >= 1 and (round, until) > last:
                if round == last[0]:
                    self.fill(round, last[1], until, i)
                else:
                    if last[0] >= 1:
                        self.fill(last[0], last[1], CLEANUP, i)
                    self.fill(round, START, until, i)
            j = i + 1
            if group == "move":
                # one card: from its "card" event to the next one
                while j < n and events[j].kind != "card" and _group(events[j]) == "move" \
                        and events[j].register == e.register and events[j].round == round:
                    j += 1
            else:
                while j < n and _group(events[j]) == group and events[j].round == round \
                        and events[j].register == e.register:
                    j += 1
            if round != self.round and round >= 1:
                self.new_round(round)
            self.frame(group, round, phase, i, j)
            last = (round, phase)
            i = j
        return self.mark_ends()

    def new_round(self, round: int) -> None:
        """A round starts: powered down is decided again for every robot in the race."""
        self.round = round
        for r in self.robots.values():
            if r.in_race:
                r.powered_down = False

    def frame(self, group: str, round: int, phase: int, start: int, stop: int) -> None:
        motions: list[Motion] = []
        last_motion: dict[str, int] = {}        # robot -> index in motions
        beams: list[Beam] = []
        deaths: list[Death] = []
        slot = 0
        actor = card = None
        robots = self.robots
        lasers = group == "lasers"
        for k in range(start, stop):
            # (an event's fields are those its kind sets: engine/model/events.py)
            e: Any = self.events[k]
            kind = e.kind
            if kind == "laser":
                beams.append(Beam(e.robot, e.src, e.facing, e.path or (), e.target,
                                  e.amount or 0))
                continue
            if kind == "end":
                self.winners = tuple(e.target or ())
                self.over = True
                continue
            r = robots.get(e.robot)
            if r is None:
                continue
            if kind == "powered_down":
                r.powered_down = True
                r.damage = e.amount
            elif kind == "card":
                actor, card = e.robot, e.card
            elif kind == "move":
                src = r.pose()
                x, y = e.dst
                r.x, r.y = x, y
                dst = Pose(x, y, src.angle)
                self._motion(motions, last_motion, e.robot, slot, src, dst, e.cause)
                if e.cause in _ACTING_CAUSES:
                    slot += 1
            elif kind == "turn":
                src = r.pose()
                r.facing = e.facing
                delta = {1: 90.0, 2: 180.0, 3: -90.0}[e.amount]
                # a belt's turn goes with the move it came with, in the same slot
                merge = e.cause not in _ACTING_CAUSES
                if merge and e.robot in last_motion and \
                        motions[last_motion[e.robot]].slot == slot:
                    m = motions[last_motion[e.robot]]
                    motions[last_motion[e.robot]] = replace(
                        m, dst=replace(m.dst, angle=m.dst.angle + delta))
                else:
                    self._motion(motions, last_motion, e.robot, slot, src,
                                 replace(src, angle=src.angle + delta), e.cause)
                if e.cause in _ACTING_CAUSES:
                    slot += 1
            elif kind == "damage":
                r.damage += e.amount
            elif kind == "fall":
                # the move just before it went down the ledge: show it as a drop
                # (its damage comes in the damage event that follows)
                last = last_motion.get(e.robot)
                if last is not None:
                    motions[last] = replace(motions[last], cause="fall")
            elif kind == "slide":
                pose = r.pose()
                self._motion(motions, last_motion, e.robot, slot, pose,
                             Pose(e.src[0], e.src[1], pose.angle), "slide")
                slot += 1
            elif kind == "destroyed":
                deaths.append(Death(e.robot, e.src[0], e.src[1], e.cause, e.amount))
                self._vanish(motions, last_motion, r, slot if not lasers else 1, e.cause)
                r.alive = False
                r.x = r.y = r.facing = None
                r.lives = e.amount
                r.options = e.options
                r.deaths += 1
            elif kind == "out":
                r.out = True
                r.powered_down = False
            elif kind == "flag":
                r.flags = e.amount
            elif kind == "finish":
                r.finished = (round, phase)
            elif kind == "leave":
                self._vanish(motions, last_motion, r, 0, "leave")
                r.alive = False
                r.x = r.y = r.facing = None
                r.powered_down = False
            elif kind in ("archive", "spared"):     # spared: it re-enters at home (rules 13.7)
                r.archive = tuple(e.dst)
            elif kind == "repair":
                r.damage -= e.amount
            elif kind == "option":
                r.options += e.amount
            elif kind == "option_gained":
                r.options += 1
                r.option_cards += (e.card,)
            elif kind == "option_lost":
                r.options -= 1
                cards = list(r.option_cards)
                cards.remove(e.card)
                r.option_cards = tuple(cards)
            elif kind == "reenter":
                r.x, r.y = e.dst
                r.facing = e.facing
                r.damage = e.amount
                r.alive = True
                pose = r.pose()
                motions.append(Motion(e.robot, 0, pose, pose, "reenter", appears=True))
                last_motion[e.robot] = len(motions) - 1
            elif kind == "program":
                self.locked.setdefault(round, {})[e.robot] = e.amount
            elif kind == "superbot":
                r.superbot = True
                if e.target in robots:
                    robots[e.target].superbot = False
            # place (the builder starts from it), dealt, announce, randomized:
            # nothing to show on the board
        slots = max((m.slot for m in motions), default=-1) + 1
        if lasers and deaths:
            slots = 2
        if group == "move" or group == "pushers":
            duration = max(1, slots) * SLOT_MS
        else:
            duration = _DURATION_MS.get(group, SLOT_MS + 80 if slots else 300)
        if beams and not any(b.target for b in beams):
            duration = 300
        self.add(round, phase, group, start, stop, actor=actor, card=card,
                 motions=tuple(motions), slots=slots, beams=tuple(beams), deaths=tuple(deaths),
                 duration_ms=duration)

    @staticmethod
    def _motion(motions: list[Motion], last_motion: dict[str, int], name: str, slot: int, src: Pose,
                dst: Pose, cause: str) -> None:
        motions.append(Motion(name, slot, src, dst, cause))
        last_motion[name] = len(motions) - 1

    def _vanish(self, motions: list[Motion], last_motion: dict[str, int], r: _Robot, slot: int,
                cause: str) -> None:
        """A robot leaves the board: its last motion in this frame ends in
        its death, or it fades where it stands."""
        k = last_motion.get(r.name)
        if k is not None and not motions[k].appears:
            motions[k] = replace(motions[k], dies=True, cause=cause
                                 if cause != "leave" else motions[k].cause)
            return
        if r.alive and r.x is not None:
            pose = r.pose()
            motions.append(Motion(r.name, slot, pose, pose, cause, dies=True))
            last_motion[r.name] = len(motions) - 1

    def mark_ends(self) -> list[Frame]:
        frames = self.frames
        out = []
        for k, f in enumerate(frames):
            nxt = frames[k + 1] if k + 1 < len(frames) else None
            register_end = f.register is not None and (
                nxt is None or nxt.round != f.round or nxt.register != f.register)
            round_end = f.round >= 1 and (nxt is None or nxt.round != f.round)
            out.append(replace(f, register_end=register_end, round_end=round_end))
        return out


def build_timeline(events: Sequence[Event], *, seed: int = 0) -> Timeline:
    """Frames from a race's event log, from its start (``place`` events)."""
    builder = _Builder(list(events))
    initial = builder.initial
    frames = builder.build()
    if not frames:
        frames = [Frame(0, 0, None, CLEANUP, "setup", (0, 0), tuple(initial))]
    if frames[0].step != "setup":
        frames.insert(0, Frame(0, 0, None, CLEANUP, "setup", (0, 0), tuple(initial)))
        frames = [replace(f, index=k) for k, f in enumerate(frames)]
    programs = _programs(events)
    sides = {str(e.robot): (str(e.target), str(e.cause)) for e in events
             if e.kind == "place" and e.target is not None}
    return Timeline(frames, list(events), tuple(r.name for r in initial), programs,
                    builder.locked, builder.winners, seed, builder.over, sides)


def _programs(events: Sequence[Event]) -> dict[int, dict[str, tuple[str | None, ...]]]:
    """Each round's cards per robot in the race: its ``program`` event, with
    the cards actually played (randomizers) over them."""
    out: dict[int, dict[str, list[str | None]]] = {}
    for e in events:
        if e.robot is None:
            continue
        if e.kind == "program":
            out.setdefault(e.round, {})[e.robot] = list(e.cards or ())
        elif e.kind in ("card", "randomized") and e.register is not None:
            cards = out.setdefault(e.round, {}).setdefault(e.robot, [None] * 5)
            cards[e.register - 1] = e.card
    return {rnd: {name: tuple(cards) for name, cards in robots.items()}
            for rnd, robots in out.items()}


# ---------------------------------------------------------------- playing a race


@overload
def play_race(scenario: Scenario, seed: int = 0, robot_count: int | None = None,
              bot: str | None = None, bots: Sequence[str] | None = None,
              checks: None = None) -> Timeline: ...
@overload
def play_race(scenario: Scenario, seed: int = 0, robot_count: int | None = None,
              bot: str | None = None, bots: Sequence[str] | None = None, *,
              checks: Sequence[Check]) -> tuple[Timeline, list[CheckResult]]: ...
def play_race(scenario: Scenario, seed: int = 0, robot_count: int | None = None,
              bot: str | None = None, bots: Sequence[str] | None = None,
              checks: Sequence[Check] | None = None
              ) -> Timeline | tuple[Timeline, list[CheckResult]]:
    """Play a whole race with its event log and turn it into a timeline.
    With a `robot_count`, that many robots race from the first docks with
    `bots` (or `bot`), whatever robots the scenario lists; without, the
    scenario's robots (or the default number of default bots). With
    `checks`, the scenario's checks are compared on the way
    (rallyforge.engine.checks.play_checked) and (timeline, results) is returned."""
    from rallyforge.engine.bots import new_race
    if robot_count is not None:
        scenario = replace(scenario, robots=(), checks=())
    race = new_race(scenario, seed=seed, robot_count=robot_count, bot=bot,
                    bots=list(bots) if bots is not None else None)
    if checks is None:
        race.run()
        return build_timeline(race.events or (), seed=seed)
    from rallyforge.engine.analysis.scenario_checks import play_checked
    results = play_checked(race, tuple(checks), to_end=True)
    return build_timeline(race.events or (), seed=seed), results


def turned_boards(scenario: Scenario, events: Sequence[Event]) -> list[tuple[int, Board]]:
    """The board after each factory board turn of the race (docs/rules.md
    12.10), with the index of its ``board_turn`` event: the course as it
    stands from that event on. Empty when no board turned."""
    out = []
    board = scenario.board
    for i, e in enumerate(events):
        if e.kind == "board_turn" and e.amount and e.src is not None:
            part = scenario.board_under(*e.src)
            if part is not None:
                board = turn_part(board, part, e.amount)
                out.append((i, board))
    return out


def board_at(turns: list[tuple[int, Board]], stop: int) -> Board | None:
    """The board after the events before index `stop`, of ``turned_boards``'
    list; None when none of them has turned it yet."""
    k = bisect_right([i for i, _ in turns], stop - 1)
    return turns[k - 1][1] if k else None


def option_charges(events: Sequence[Event], stop: int) -> dict[str, dict[str, int]]:
    """Per robot, what its Mini Howitzer and Ablative Coat have spent (shots,
    points) in the events before index `stop`; a card gained or lost starts
    fresh."""
    spent: dict[str, dict[str, int]] = {}
    for e in itertools.islice(events, stop):
        k = e.kind
        if k == "option_used" and e.card == "mini-howitzer" and e.robot:
            mine = spent.setdefault(e.robot, {})
            mine["mini-howitzer"] = mine.get("mini-howitzer", 0) + 1
        elif k == "damage_prevented" and e.card == "ablative-coat" and e.robot:
            mine = spent.setdefault(e.robot, {})
            mine["ablative-coat"] = mine.get("ablative-coat", 0) + 1
        elif k in ("option_gained", "option_lost") and e.robot and e.card:
            spent.get(e.robot, {}).pop(e.card, None)
    return spent
