"""A finished race as playback frames: pure Python, no widgets.

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

Animation: a frame's motions are spread over *slots*. Each move or turn of
the acting robot (its card's steps, a pusher's push) ends a slot, and the
robots it pushes move in the same slot; everything a belt or gear does
happens in one slot. ``Timeline.poses(i, u)`` gives every robot's pose
(position in squares, angle in degrees clockwise from north, opacity,
scale) at fraction ``u`` of frame i's animation.

    timeline = play_race(scenario, seed=7, robot_count=4)
    timeline.frames[-1].robots          # the final state
    timeline.poses(12, 0.5)             # half way through frame 12
"""
from __future__ import annotations

import itertools
import math
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, TypeVar, overload

from engine.model.directions import DX, DY, INDEX
from engine.model.element_kinds import FALL_CAUSES
from engine.model.events import Event
from engine.model.option_cards import BY_ID, WEAPONS
from engine.rules.outcome import RobotResult

if TYPE_CHECKING:
    from engine.analysis.scenario_checks import CheckResult
    from engine.model.scenario import Check

T = TypeVar("T")


def _given(value: T | None) -> T:
    """A field that the event's kind always carries (see engine.model.events)."""
    assert value is not None
    return value

# Robot colours, in robot order (hex, so that this module needs no Qt).
ROBOT_COLORS = ("#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#00a5a8",
                "#f032e6", "#9a6324")

ANGLE = {"N": 0.0, "E": 90.0, "S": 180.0, "W": 270.0}

# Where a step sits in a round: the start, registers 1-5, the clean-up, the end.
START, CLEANUP, END = 0, 6, 7
_ROUND_START_STEPS = {"power_down", "deal", "program", "announce"}
_CLEANUP_STEPS = {"repairs", "registers", "power_down_choice", "reentry"}
# Moves and turns of the robot that acts: each ends an animation slot.
_ACTING_CAUSES = {"card", "teleport", "pusher"}

STEP_NAMES = {
    "setup": "Start", "round": "Programs", "reveal": "Randomizers", "move": "Card",
    "express": "Express conveyors", "conveyors": "Conveyors", "currents": "Currents",
    "pushers": "Pushers", "gears": "Gears", "crushers": "Crushers", "lasers": "Lasers",
    "checkpoints": "Checkpoints", "cleanup": "Clean-up", "end": "Race over",
    "idle": "Nothing happens",
}

# Playback length of a frame at normal speed, in milliseconds.
SLOT_MS = 320
_DURATION_MS = {"setup": 0, "round": 450, "reveal": 350, "lasers": 550, "checkpoints": 350,
                "cleanup": 550, "end": 700, "idle": 150, "crushers": 450}

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
    step: str                   # a key of STEP_NAMES
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

    @property
    def label(self) -> str:
        if self.step == "setup":
            return "Start"
        if self.step == "end":
            return f"Round {self.round}: race over"
        where = f"Round {self.round}"
        if self.register is not None:
            where += f" · Register {self.register}"
        if self.step == "move":
            name, priority = card_label(self.card)
            what = f"{self.actor}: {name}" + (f" ({priority})" if priority else "")
        else:
            what = STEP_NAMES.get(self.step, self.step)
        return f"{where} · {what}"

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
    _event_starts: list[int] = field(default_factory=list, repr=False)
    _moments: list[tuple[int, int]] = field(default_factory=list, repr=False)
    _motions: list[dict[str, list[Motion]]] = field(default_factory=list, repr=False)

    def __post_init__(self):
        self._event_starts = [f.events[0] for f in self.frames]
        self._moments = [f.moment for f in self.frames]
        self._motions = []
        for f in self.frames:
            by_robot: dict[str, list[Motion]] = {}
            for m in f.motions:
                by_robot.setdefault(m.robot, []).append(m)
            self._motions.append(by_robot)

    def __len__(self) -> int:
        return len(self.frames)

    @property
    def colors(self) -> dict[str, str]:
        return {name: ROBOT_COLORS[i % len(ROBOT_COLORS)] for i, name in enumerate(self.names)}

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

    # ------------------------------------------------------------ animation

    def rest_pose(self, robot: RobotResult) -> Pose | None:
        if not robot.alive:
            return None
        return _pose(robot.x, robot.y, robot.facing)

    def poses(self, i: int, u: float = 1.0) -> dict[str, Pose | None]:
        """Every robot's pose at fraction u (0..1) of frame i's animation;
        None for a robot not on the board."""
        frame = self.frames[i]
        if u >= 1.0 or not frame.slots or i == 0:
            return {r.name: self.rest_pose(r) for r in frame.robots}
        before = self.frames[i - 1].robots
        motions = self._motions[i]
        at = max(0.0, u) * frame.slots
        slot = min(int(at), frame.slots - 1)
        t = at - slot
        out: dict[str, Pose | None] = {}
        for r in before:
            pose = self.rest_pose(r)
            for m in motions.get(r.name, ()):
                if m.slot < slot:
                    pose = _final(m)
                elif m.slot == slot:
                    pose = interpolate(m, t)
                    break
                else:
                    break
            out[r.name] = pose
        return out


def _final(m: Motion) -> Pose | None:
    if m.cause == "slide":
        return m.src                    # back where it started
    return None if m.dies else m.dst


def _ease(t: float) -> float:
    return t * t * (3 - 2 * t)


def interpolate(m: Motion, t: float) -> Pose | None:
    """The pose of a robot `t` (0..1) of the way through its motion."""
    if m.appears:
        k = _ease(min(1.0, t * 1.5))
        return Pose(m.dst.x, m.dst.y, m.dst.angle, k, 1.5 - 0.5 * k)
    if m.dies:
        # move in the first 60%, then shrink and fade (a fall), or fade (a wreck)
        k = _ease(min(1.0, t / 0.6)) if m.moved else 1.0
        fade = 0.0 if t < 0.6 else (t - 0.6) / 0.4
        if t >= 1.0:
            return None
        base = _lerp(m.src, m.dst, k)
        return Pose(base.x, base.y, base.angle, 1.0 - fade,
                    1.0 - 0.7 * fade if m.cause in FALL_CAUSES else 1.0)
    if m.cause == "slide":      # halfway up the ramp and back down
        k = 0.5 * math.sin(math.pi * t)
        return _lerp(m.src, m.dst, k)
    if m.cause == "fall":       # over the edge, smaller as it drops, then back to size
        base = _lerp(m.src, m.dst, _ease(t))
        return Pose(base.x, base.y, base.angle, 1.0, 1.0 - 0.35 * math.sin(math.pi * t))
    if m.jump:          # a teleport: fade out, fade in
        if t < 0.5:
            return Pose(m.src.x, m.src.y, m.src.angle, 1.0 - 2 * t, 1.0)
        return Pose(m.dst.x, m.dst.y, m.dst.angle, 2 * t - 1.0, 1.0)
    return _lerp(m.src, m.dst, _ease(t))


def _lerp(a: Pose, b: Pose, k: float) -> Pose:
    return Pose(a.x + (b.x - a.x) * k, a.y + (b.y - a.y) * k,
                a.angle + (b.angle - a.angle) * k)


# ---------------------------------------------------------------- building


class _Robot:
    """The replayed state of one robot (the fields of RobotResult)."""

    FIELDS = ("name", "x", "y", "facing", "damage", "lives", "flags", "alive", "out",
              "powered_down", "options", "option_cards", "archive", "finished", "deaths")
    __slots__ = FIELDS + ("cached",)
    name: str
    x: int | None
    y: int | None
    facing: str | None
    damage: int
    lives: int
    flags: int
    alive: bool
    out: bool
    powered_down: bool
    options: int
    option_cards: tuple[str, ...]
    archive: tuple[int, int]
    finished: tuple[int, int] | None
    deaths: int

    def __init__(self, r: RobotResult):
        for key in self.FIELDS:
            setattr(self, key, getattr(r, key))
        self.cached = r

    def result(self) -> RobotResult:
        """The state as a RobotResult, made anew only when it changed."""
        values = (self.name, self.x, self.y, self.facing, self.damage, self.lives,
                  self.flags, self.alive, self.out, self.powered_down, self.options,
                  self.option_cards, self.archive, self.finished, self.deaths)
        c = self.cached
        if values != (c.name, c.x, c.y, c.facing, c.damage, c.lives, c.flags, c.alive, c.out,
                      c.powered_down, c.options, c.option_cards, c.archive, c.finished,
                      c.deaths):
            self.cached = RobotResult(*values)
        return self.cached

    def pose(self) -> Pose:
        return _pose(self.x, self.y, self.facing)

    @property
    def in_race(self) -> bool:
        return not self.out and self.finished is None


def _pose(x: int | None, y: int | None, facing: str | None) -> Pose:
    """The pose of a robot on the board (where x, y and facing are known)."""
    assert x is not None and y is not None and facing is not None
    return Pose(x, y, ANGLE[facing])


def _phase(e: Event) -> int:
    if e.round == 0:
        return CLEANUP
    if e.step == "end":
        return END
    if e.register is not None:
        return e.register
    if e.step in _ROUND_START_STEPS:
        return START
    if e.step in _CLEANUP_STEPS:
        return CLEANUP
    return CLEANUP      # the set-up counts as the end of round 0


def _group(e: Event) -> str:
    if e.round == 0:
        return "setup"
    if e.step == "end":
        return "end"
    if e.step in _ROUND_START_STEPS:
        return "round"
    if e.step in _CLEANUP_STEPS:
        return "cleanup"
    return e.step


def _placed(e: Event) -> RobotResult:
    """A robot's state as its ``place`` event puts it on the board."""
    s, (x, y) = _given(e.start), _given(e.dst)
    return RobotResult(_given(e.robot), x, y, e.facing, s.damage, s.lives, s.flags,
                       True, False, s.powered_down, s.options, (), (x, y), None, 0)


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

    def add(self, round: int, phase: int, step: str, start: int, stop: int, **extra) -> None:
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
            e = self.events[k]
            kind = e.kind
            # the kinds that need no robot on the board first
            if kind == "card":
                actor, card = e.robot, e.card
                continue
            if kind == "laser":
                target = e.target if isinstance(e.target, str) else None    # a robot's name
                beams.append(Beam(e.robot, _given(e.src), _given(e.facing), e.path or (),
                                  target, e.amount or 0))
                continue
            if kind == "fall":
                # the move just before it went down the ledge: show it as a drop
                # (its damage comes in the damage event that follows)
                at = last_motion.get(_given(e.robot))
                if at is not None:
                    motions[at] = replace(motions[at], cause="fall")
                continue
            if kind == "program":
                self.locked.setdefault(round, {})[_given(e.robot)] = _given(e.amount)
                continue
            if kind == "end":
                self.winners = tuple(e.target or ())
                self.over = True
                continue
            r = robots.get(e.robot) if e.robot is not None else None
            if r is None:
                continue
            name = r.name
            if kind == "powered_down":
                r.powered_down = True
                r.damage = _given(e.amount)
            elif kind == "move":
                src = r.pose()
                x, y = _given(e.dst)
                r.x, r.y = x, y
                dst = Pose(x, y, src.angle)
                self._motion(motions, last_motion, name, slot, src, dst, _given(e.cause))
                if e.cause in _ACTING_CAUSES:
                    slot += 1
            elif kind == "turn":
                src = r.pose()
                before = src.angle
                r.facing = e.facing
                delta = {1: 90.0, 2: 180.0, 3: -90.0}[_given(e.amount)]
                # a belt's turn goes with the move it came with, in the same slot
                merge = e.cause not in _ACTING_CAUSES
                if merge and name in last_motion and \
                        motions[last_motion[name]].slot == slot:
                    m = motions[last_motion[name]]
                    motions[last_motion[name]] = replace(
                        m, dst=replace(m.dst, angle=m.dst.angle + delta))
                else:
                    self._motion(motions, last_motion, name, slot, src,
                                 replace(src, angle=before + delta), _given(e.cause))
                if e.cause in _ACTING_CAUSES:
                    slot += 1
            elif kind == "damage":
                r.damage += _given(e.amount)
            elif kind == "slide":
                pose = r.pose()
                sx, sy = _given(e.src)
                self._motion(motions, last_motion, name, slot, pose,
                             Pose(sx, sy, pose.angle), "slide")
                slot += 1
            elif kind == "destroyed":
                sx, sy = _given(e.src)
                deaths.append(Death(name, sx, sy, _given(e.cause), _given(e.amount)))
                self._vanish(motions, last_motion, r, slot if not lasers else 1, _given(e.cause))
                r.alive = False
                r.x = r.y = r.facing = None
                r.lives = _given(e.amount)
                r.options = _given(e.options)
                r.deaths += 1
            elif kind == "out":
                r.out = True
                r.powered_down = False
            elif kind == "flag":
                r.flags = _given(e.amount)
            elif kind == "finish":
                r.finished = (round, phase)
            elif kind == "leave":
                self._vanish(motions, last_motion, r, 0, "leave")
                r.alive = False
                r.x = r.y = r.facing = None
                r.powered_down = False
            elif kind == "archive":
                ax, ay = _given(e.dst)
                r.archive = (ax, ay)
            elif kind == "repair":
                r.damage -= _given(e.amount)
            elif kind == "option":
                r.options += _given(e.amount)
            elif kind == "option_gained":
                r.options += 1
                r.option_cards += (_given(e.card),)
            elif kind == "option_lost":
                r.options -= 1
                cards = list(r.option_cards)
                cards.remove(_given(e.card))
                r.option_cards = tuple(cards)
            elif kind == "reenter":
                r.x, r.y = _given(e.dst)
                r.facing = e.facing
                r.damage = _given(e.amount)
                r.alive = True
                pose = r.pose()
                motions.append(Motion(name, 0, pose, pose, "reenter", appears=True))
                last_motion[name] = len(motions) - 1
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
    def _motion(motions, last_motion, name, slot, src, dst, cause) -> None:
        motions.append(Motion(name, slot, src, dst, cause))
        last_motion[name] = len(motions) - 1

    def _vanish(self, motions, last_motion, r: _Robot, slot: int, cause: str) -> None:
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
    return Timeline(frames, list(events), tuple(r.name for r in initial), programs,
                    builder.locked, builder.winners, seed, builder.over)


def _programs(events: Sequence[Event]) -> dict:
    """Each round's cards per robot in the race: its ``program`` event, with
    the cards actually played (randomizers) over them."""
    out: dict[int, dict[str, list[str | None]]] = {}
    for e in events:
        if e.kind == "program":
            out.setdefault(e.round, {})[_given(e.robot)] = list(_given(e.cards))
        elif e.kind in ("card", "randomized") and e.register is not None:
            cards = out.setdefault(e.round, {}).setdefault(_given(e.robot), [None] * 5)
            cards[e.register - 1] = e.card
    return {rnd: {name: tuple(cards) for name, cards in robots.items()}
            for rnd, robots in out.items()}


# ---------------------------------------------------------------- playing a race


@overload
def play_race(scenario, seed: int = 0, robot_count: int | None = None,
              bot: str | None = None, bots: Sequence[str] | None = None,
              checks: None = None) -> Timeline: ...
@overload
def play_race(scenario, seed: int = 0, robot_count: int | None = None,
              bot: str | None = None, bots: Sequence[str] | None = None, *,
              checks: Sequence[Check]) -> tuple[Timeline, list[CheckResult]]: ...
def play_race(scenario, seed: int = 0, robot_count: int | None = None,
              bot: str | None = None, bots: Sequence[str] | None = None,
              checks: Sequence[Check] | None = None
              ) -> Timeline | tuple[Timeline, list[CheckResult]]:
    """Play a whole race with its event log and turn it into a timeline.
    With a `robot_count`, that many robots race from the first docks with
    `bots` (or `bot`), whatever robots the scenario lists; without, the
    scenario's robots (or the default number of default bots). With
    `checks`, the scenario's checks are compared on the way
    (engine.checks.play_checked) and (timeline, results) is returned."""
    from engine.bots import new_race
    if robot_count is not None:
        scenario = replace(scenario, robots=(), checks=())
    race = new_race(scenario, seed=seed, robot_count=robot_count, bot=bot,
                    bots=list(bots) if bots is not None else None)
    if checks is None:
        race.run()
        return build_timeline(_given(race.events), seed=seed)   # new races keep a log
    from engine.analysis.scenario_checks import play_checked
    results = play_checked(race, tuple(checks), to_end=True)
    return build_timeline(_given(race.events), seed=seed), results


# ---------------------------------------------------------------- describing events


def _sq(square) -> str:
    return f"({square[0]},{square[1]})" if square is not None else "?"


def describe(e: Event) -> str:
    """One line for the event list."""
    who = e.robot or ""
    k = e.kind
    if k == "place":
        start = _given(e.start)
        state = f", damage {start.damage}" if start.damage else ""
        state += ", powered down" if start.powered_down else ""
        return f"{who} starts on {_sq(e.dst)} facing {e.facing}{state}"
    if k == "program":
        cards = ", ".join(" ".join(card_label(c, short=True)) if c else "—"
                          for c in _given(e.cards))
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
        by = {"card": "", "push": " (pushed)", "teleport": " (teleport)"}.get(
            _given(e.cause), f" ({e.cause})")
        return f"{who} moves {_sq(e.src)} → {_sq(e.dst)}{by}"
    if k == "turn":
        how = {1: "right", 2: "around", 3: "left"}[_given(e.amount)]
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
        return f"{who} touches flag {e.amount}"
    if k == "finish":
        return f"{who} finishes (place {e.amount})"
    if k == "leave":
        return f"{who} leaves the board"
    if k == "archive":
        return f"{who}'s archive moves to {_sq(e.dst)}"
    if k == "repair":
        return f"{who} repairs {e.amount} damage"
    if k == "option":
        return f"{who} gains an option"
    if k in _OPTION_WORDS:
        return _OPTION_WORDS[k](e, who)
    if k == "reenter":
        return f"{who} re-enters on {_sq(e.dst)} facing {e.facing}, damage {e.amount}"
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


# Option events in words (engine/model/events.py; options.md 6.27).
_OPTION_WORDS = {
    "option_gained": lambda e, who: f"{who} gains {_card(e)}" + (
        {"start": " at the start", "upgrade": " on an upgrade square",
         "flag": " for touching a flag"}.get(e.cause or "", "")),
    "option_lost": _lost,
    "option_used": _used,
    "option_use_ignored": lambda e, who: f"{who} cannot use {_card(e)}: {e.cause}",
    "damage_prevented": _prevented,
    "register_locked": lambda e, who: f"{who}'s register {e.amount} is locked by Fire Control",
    "register_unlocked": lambda e, who: f"{who}'s register {e.amount} is unlocked",
}


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


def fire_control_locks(events: Sequence[Event], stop: int) -> dict[str, dict[int, str]]:
    """Per robot, its registers (1-5) locked by Fire Control after the events
    before index `stop`, each with who locked it when, in words ("locked by
    A's Fire Control in 1·2"). The locks lift together: after a repair, at a
    power down, at a destruction (options.md 6.15)."""
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
                               "clean" if e.step in _CLEANUP_STEPS else "deal")
    return f"{e.round}·{e.register}"


def beam_segment(beam: Beam) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """The beam's line in squares (x, y of its ends): a board laser from the
    wall it hangs on, a robot's from the front of the robot; to the target's
    centre or through the last square of its path."""
    d = INDEX[beam.facing]
    dx, dy = DX[d], DY[d]
    sx, sy = beam.src
    if beam.shooter is None:
        start = (sx + 0.5 - dx * 0.5, sy + 0.5 - dy * 0.5)
    else:
        start = (sx + 0.5 + dx * 0.35, sy + 0.5 + dy * 0.35)
    if not beam.path:
        return None if beam.shooter is not None else (start, (sx + 0.5, sy + 0.5))
    lx, ly = beam.path[-1]
    if beam.target is not None:
        end = (lx + 0.5 - dx * 0.25, ly + 0.5 - dy * 0.25)
    else:
        end = (lx + 0.5 + dx * 0.5, ly + 0.5 + dy * 0.5)
    return start, end
