"""The scenario model: an immutable course plus flags, docks, rules, robots and checks.

Everything here is frozen. Derived lookups (tile per square, walls per
square with both sides of an edge folded together and the walls implied
behind lasers and pushers) are computed once per board on first use.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from functools import cached_property, lru_cache
from typing import Any

from rallyforge.engine.model.directions import INDEX, NAMES, opposite

CARD_KINDS = ("move1", "move2", "move3", "back", "left", "right", "uturn")


@dataclass(frozen=True)
class Tile:
    """A square's element; which of the optional fields a type uses is in
    elements_table.TILES."""
    x: int
    y: int
    type: str
    dir: str | None = None          # conveyor, current; ramp: the way up
    express: bool = False           # conveyor
    rotation: str | None = None     # gear: "cw" or "ccw"
    phases: tuple[int, ...] = ()    # crusher
    note: str | None = None


@dataclass(frozen=True)
class Wall:
    x: int
    y: int
    side: str
    note: str | None = None


MAX_LEVEL = 3       # the highest level of a square


@dataclass(frozen=True)
class Level:
    """A square's level (1-3; squares not listed are at level 0)."""
    x: int
    y: int
    level: int
    note: str | None = None


@dataclass(frozen=True)
class Laser:
    x: int
    y: int
    dir: str
    beams: int = 1
    note: str | None = None


@dataclass(frozen=True)
class Pusher:
    x: int
    y: int
    dir: str
    phases: tuple[int, ...]
    note: str | None = None


def edge_key(x: int, y: int, side: str) -> tuple[int, int, str]:
    """The one name of an edge: its N or W side, so (x, y, S) == (x, y+1, N)."""
    if side == "S":
        return (x, y + 1, "N")
    if side == "E":
        return (x + 1, y, "W")
    return (x, y, side)


def board_order(item: Any) -> tuple[int, int, int, _Tie]:
    """Where an element of a board list comes in a saved file: by row, then
    column, then side or direction (walls, lasers), then all it says (two
    lasers on one square firing one way, a wall listed twice): one order
    whatever order the elements were given in."""
    facing = getattr(item, "side", None) or getattr(item, "dir", None)
    return (item.y, item.x, INDEX.get(facing, len(INDEX)) if isinstance(facing, str) else 0,
            _Tie(item))


class _Tie:
    """An element compared by all it says, only when its square and side
    tie with another's (a repr per element would slow every sort)."""

    def __init__(self, item: object):
        self.item = item

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Tie) and repr(self.item) == repr(other.item)

    def __lt__(self, other: _Tie) -> bool:
        return repr(self.item) < repr(other.item)


@dataclass(frozen=True)
class Board:
    width: int
    height: int
    tiles: tuple[Tile, ...] = ()
    walls: tuple[Wall, ...] = ()
    lasers: tuple[Laser, ...] = ()
    pushers: tuple[Pusher, ...] = ()
    note: str | None = None
    levels: tuple[Level, ...] = ()      # after note: older positional calls stay valid

    # Its hash is remembered: caches keyed by a board (its compiled course,
    # its lone-robot model) hash it race after race, a millisecond each for
    # a board of a thousand elements. Equal boards hash alike, as the
    # dataclass's own hash of its fields would.
    def __hash__(self) -> int:
        return self._hash

    @cached_property
    def _hash(self) -> int:
        return hash((self.width, self.height, self.tiles, self.walls, self.lasers, self.pushers,
                     self.note, self.levels))

    def __getstate__(self) -> dict[str, object]:
        # not the remembered hash: another process hashes strings otherwise
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}

    def in_bounds(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height

    def canonical(self) -> Board:
        """The board with its lists in the order a saved file lists them (the
        loader reads every board in it, so that boards listing the same
        elements in another order are equal)."""
        board = Board(self.width, self.height, tuple(sorted(self.tiles, key=board_order)),
                      tuple(sorted(self.walls, key=board_order)),
                      tuple(sorted(self.lasers, key=board_order)),
                      tuple(sorted(self.pushers, key=board_order)), self.note,
                      tuple(sorted(self.levels, key=board_order)))
        return self if board == self else board

    def index(self, x: int, y: int) -> int:
        return y * self.width + x

    @cached_property
    def tile_map(self) -> dict[tuple[int, int], Tile]:
        return {(t.x, t.y): t for t in self.tiles}

    def tile_at(self, x: int, y: int) -> Tile | None:
        """The tile listed on (x, y); None means plain floor."""
        return self.tile_map.get((x, y))

    def type_at(self, x: int, y: int) -> str:
        tile = self.tile_map.get((x, y))
        return tile.type if tile else "floor"

    @cached_property
    def level_map(self) -> dict[tuple[int, int], int]:
        return {(v.x, v.y): v.level for v in self.levels}

    def level_at(self, x: int, y: int) -> int:
        return self.level_map.get((x, y), 0)

    @cached_property
    def pusher_map(self) -> dict[tuple[int, int], Pusher]:
        return {(p.x, p.y): p for p in self.pushers}

    @cached_property
    def wall_edges(self) -> frozenset[tuple[int, int, str]]:
        """Every walled edge by its edge_key: listed walls plus the mounting
        walls of lasers and pushers."""
        edges = {edge_key(w.x, w.y, w.side) for w in self.walls}
        for mounted in self.lasers + self.pushers:
            edges.add(edge_key(mounted.x, mounted.y, NAMES[opposite(INDEX[mounted.dir])]))
        return frozenset(edges)

    def has_wall(self, x: int, y: int, side: str) -> bool:
        return edge_key(x, y, side) in self.wall_edges

    @cached_property
    def wall_mask(self) -> tuple[int, ...]:
        """Per square (by index), bit d set when side d of the square is walled."""
        masks = [0] * (self.width * self.height)
        for ex, ey, side in self.wall_edges:
            if side == "N":
                if self.in_bounds(ex, ey):
                    masks[self.index(ex, ey)] |= 1 << INDEX["N"]
                if self.in_bounds(ex, ey - 1):
                    masks[self.index(ex, ey - 1)] |= 1 << INDEX["S"]
            else:
                if self.in_bounds(ex, ey):
                    masks[self.index(ex, ey)] |= 1 << INDEX["W"]
                if self.in_bounds(ex - 1, ey):
                    masks[self.index(ex - 1, ey)] |= 1 << INDEX["E"]
        return tuple(masks)

    def blocked(self, x: int, y: int, d: int) -> bool:
        """Whether a wall stands on side d of in-board square (x, y)."""
        return bool(self.wall_mask[y * self.width + x] >> d & 1)


@dataclass(frozen=True)
class Flag:
    x: int
    y: int
    note: str | None = None


@dataclass(frozen=True)
class FactoryBoard:
    """One factory board a course is made of (the file's ``boards``): its
    name, the rectangle it covers and the quarter turns clockwise it was
    placed with. A rule (a board that turns) or the editor refers to it."""
    name: str
    x: int
    y: int
    width: int
    height: int
    turn: int = 0
    note: str | None = None

    def covers(self, x: int, y: int) -> bool:
        return self.x <= x < self.x + self.width and self.y <= y < self.y + self.height

    @property
    def turns_in_place(self) -> bool:
        """A quarter turn fits it in its own rectangle: it is square."""
        return self.width == self.height


@dataclass(frozen=True)
class Dock:
    x: int
    y: int
    facing: str
    note: str | None = None


# An element of a course on one square: a board's element or a marker, each
# with its square (x, y) and its note.
Element = Tile | Wall | Level | Laser | Pusher | Flag | Dock


@dataclass(frozen=True)
class Rules:
    lives: int = 3
    hand_size: int = 9
    destroy_at_damage: int = 10
    lock_from_damage: int = 5
    respawn_damage: int = 2
    robot_lasers: bool = True
    flags_repair: bool = True
    archive_on_any_flag: bool = True
    teleport_backup_distance: int = 2
    max_rounds: int = 100
    finish: str = "first"
    # option cards (docs/rules.md 10): "counted" (a number only) or "played"; the
    # default a file gets is Scenario.implied_options(), see the loader
    options: str = "counted"
    start_options: int = 0
    flag_gives_option: bool = False
    fall_damage: int = 2
    # special course rules (docs/rules.md 12)
    flags_move: bool = False
    robot_laser_damage: int = 1
    start_damage: int = 0
    power_down: bool = True
    repair_sites: str = "repair"           # or "options"
    start_option_choice: int = 0
    programming_seconds: int | None = None  # None: no clock
    superbot: bool = False
    board_turns_on_flag: bool = False       # needs the scenario's `boards`
    note: str | None = None
    victory: str = "robot"      # docs/rules.md 13: VICTORIES


    def changed(self) -> dict[str, Any]:
        """The options that differ from their defaults, in the format's order."""
        default = Rules()
        return {f.name: getattr(self, f.name) for f in fields(self)
                if getattr(self, f.name) != getattr(default, f.name)}


def starting_options(rules: Rules) -> int:
    """Option cards a robot without its own holds at the start: `start_options`,
    or the one kept of a draft (docs/rules.md 12.6)."""
    return rules.start_options or min(1, rules.start_option_choice)


RULE_NAMES = tuple(f.name for f in fields(Rules) if f.name != "note")
# the rules some published courses change (docs/rules.md 12)
SPECIAL_RULES = ("flags_move", "robot_laser_damage", "start_damage", "power_down", "repair_sites",
                 "start_option_choice", "programming_seconds")
# What a course may change of the game beyond its board (docs/rules.md 12 and
# 13): the rules above, starting options, the SuperBot, turning boards and a
# team victory.
COURSE_RULES = (*SPECIAL_RULES, "start_options", "superbot", "board_turns_on_flag", "victory")


def course_rules(rules: Rules) -> list[str]:
    """The rules of COURSE_RULES that `rules` changes from the game's, in its order."""
    changed = rules.changed()
    return [name for name in COURSE_RULES if name in changed]


@dataclass(frozen=True)
class Card:
    kind: str
    priority: int | None = None     # None: the highest priority of its kind in the deck

    def __str__(self) -> str:
        return self.kind if self.priority is None else f"{self.kind}:{self.priority}"

    @classmethod
    def parse(cls, text: str) -> "Card":
        kind, _, prio = text.partition(":")
        return cls(kind, int(prio) if prio else None)


@dataclass(frozen=True)
class Entry:
    """One register of a scripted round (docs/format.md,
    "Option cards in a script"):
    ``card ["+" pair] ["/" use] ["@" weapon [":" mode]]``."""
    card: Card
    pair: Card | None = None
    use: str | None = None          # brakes, fourth-gear, reverse-gears, crab-legs, dual-processor
    weapon: str | None = None       # a weapon for this register's laser step
    mode: str | None = None         # after fire-control: "1"-"5", "option" or "option=ID"

    def __str__(self) -> str:
        text = str(self.card)
        if self.pair is not None:
            text += f"+{self.pair}"
        if self.use is not None:
            text += f"/{self.use}"
        if self.weapon is not None:
            text += f"@{self.weapon}"
            if self.mode is not None:
                text += f":{self.mode}"
        return text

    @property
    def plain(self) -> bool:
        return self.pair is None and self.use is None and self.weapon is None

    @classmethod
    def parse(cls, text: str) -> "Entry":
        """Read an entry whose text the schema accepted (ValueError otherwise)."""
        return _entry(text)

    @classmethod
    def _read(cls, text: str) -> "Entry":
        rest, _, weapon = text.partition("@")
        weapon_id, _, mode = weapon.partition(":")
        rest, _, use = rest.partition("/")
        card, _, pair = rest.partition("+")
        return cls(Card.parse(card), Card.parse(pair) if pair else None, use or None,
                   weapon_id or None, mode or None)


@lru_cache(maxsize=4096)
def _entry(text: str) -> Entry:
    """Entries are values, and scripts repeat a few texts many times: each text is read once."""
    return Entry._read(text)


@dataclass(frozen=True)
class ProgramRound:
    cards: tuple[Entry, ...] = ()
    power_down: bool = False
    note: str | None = None
    # option choices of the round (docs/format.md, "Option cards in a script")
    use: tuple[str, ...] = ()               # gyroscopic-stabilizer
    abort_at: int | None = None             # Abort Switch at the start of this register
    recompile: bool = False
    conditional: tuple[Card, int] | None = None     # (card, register) of Conditional Program
    flywheel: Card | None = None
    take_flywheel: bool = False             # the Flywheel card joins this round's hand

    @property
    def uses_options(self) -> bool:
        return bool(self.use or self.abort_at or self.recompile or self.conditional
                    or self.flywheel or self.take_flywheel
                    or not all(e.plain for e in self.cards))

    @property
    def as_object(self) -> bool:
        """Whether the canonical file writes this round as an object."""
        return (self.power_down or self.note is not None or bool(self.use)
                or self.abort_at is not None or self.recompile or self.conditional is not None
                or self.flywheel is not None or self.take_flywheel)


@dataclass(frozen=True)
class Placement:
    x: int
    y: int
    facing: str
    note: str | None = None


# The bots a file may name for a robot (engine/bots makes them), and the one
# a robot gets when none is named: the list the command line's help and
# checks read without importing the bots (numpy and their tables).
BOT_NAMES = ("random", "greedy", "search", "aware", "team")
DEFAULT_BOT = "search"


@dataclass(frozen=True)
class RobotSpec:
    name: str
    dock: int | None = None         # None: its place in the list
    at: Placement | None = None
    damage: int | None = None       # None: the rules' start_damage
    lives: int | None = None        # None: the rules' lives
    flags: int = 0
    # a count, or the ids of the cards held (docs/rules.md 10.2); None: rules.start_options
    options: int | tuple[str, ...] | None = None
    powered_down: bool = False
    bot: str | None = None
    program: tuple[ProgramRound, ...] = ()
    shield_with_options: bool = False
    note: str | None = None
    team: str | None = None         # None: from `teams` or the seating rule (Scenario.seats)
    role: str | None = None         # "racer" or "blocker"; None: as `team` says

    def start_damage(self, rules: Rules) -> int:
        return rules.start_damage if self.damage is None else self.damage

    def option_count(self, rules: Rules) -> int:
        if self.options is None:
            return starting_options(rules)
        return self.options if isinstance(self.options, int) else len(self.options)


CHECK_KEYS = ("x", "y", "facing", "damage", "lives", "flags", "alive", "out",
              "powered_down", "superbot", "options", "option_cards", "archive", "won", "carries")


@dataclass(frozen=True)
class Accept:
    """A warning the designer has looked at and accepted (a belt that runs
    off the board by design): `code` and, for a warning on a square, that
    square. Accepted warnings are listed apart and greyed, not counted."""
    code: str
    x: int | None = None
    y: int | None = None
    note: str | None = None

    def covers(self, code: str, x: int | None, y: int | None) -> bool:
        return (self.code, self.x, self.y) == (code, x, y)


@dataclass(frozen=True)
class Check:
    round: int
    robot: str
    register: int | None = None     # None: end of the round, after clean-up
    # Expected values, in CHECK_KEYS order; "archive" is an (x, y) tuple,
    # "option_cards" a sorted tuple of ids.
    expect: tuple[tuple[str, object], ...] = ()
    note: str | None = None
    archive_note: str | None = None

    @property
    def expected(self) -> dict[str, object]:
        return dict(self.expect)


@dataclass(frozen=True)
class Published:
    """A course of the game's own course manual as the publisher printed it
    (the file's ``published``): its id in the library, the manual page, the
    player counts it is printed for, and the printed length and difficulty
    (``None`` for the team courses, which have no printed difficulty), and its
    place among the manual's courses (``number``, from 1)."""
    id: str
    page: int
    players: tuple[int, ...]
    length: str
    difficulty: str | None = None
    number: int | None = None
    note: str | None = None

    @property
    def players_text(self) -> str:
        """"2-8", or "4, 6 or 8" when the counts are not a run."""
        p = self.players
        if list(p) == list(range(p[0], p[-1] + 1)):
            return f"{p[0]}-{p[-1]}" if len(p) > 1 else str(p[0])
        return ", ".join(str(n) for n in p[:-1]) + f" or {p[-1]}"


@dataclass(frozen=True)
class Goals:
    """What the designer wants of the course (the file's ``goals``), read by
    ``suggest`` and the course card. ``fair``: every dock wins as often;
    ``length``: a length class (engine/analysis/course_card/timemodel.py) or ``rounds``: a median
    race length; ``deaths_per_leg``: at most this many deaths per robot on
    any leg; all for ``robots`` robots (None: 4, or every dock if fewer)."""
    fair: bool = True
    length: str | None = None
    rounds: int | None = None
    deaths_per_leg: float | None = None
    robots: int | None = None
    note: str | None = None
    team_size: int | None = None    # robots per team on a team course (None: 2)


def robots_for(goals: Goals | None, docks: int) -> int:
    """The robots per race of a course with `docks` docks and `goals`: the
    goals' when the course has that many docks, else 4, or every dock if fewer."""
    wanted = goals.robots if goals is not None else None
    return wanted if wanted is not None and wanted <= docks else min(4, docks)


@dataclass(frozen=True)
class StoredCourseCard:
    """A course card kept in the file (engine/analysis/course_card/):
    `play_hash` names the course it was measured on, `text` is the card as
    canonical JSON."""
    play_hash: str
    text: str

    @property
    def data(self) -> dict[str, Any]:
        return json.loads(self.text)


# Team races (docs/rules.md 13): who wins. "robot" is the base game; the
# others need teams (a "player" is a team of a racer and a blocker).
VICTORIES = ("robot", "player", "team_progress", "team_any", "flag_control", "elimination",
             "capture")
ROLES = ("racer", "blocker")
TEAM_NAMES = ("Red", "Blue", "Green", "Yellow", "Orange", "Purple", "White", "Black")


@dataclass(frozen=True)
class Area:
    """A rectangle of squares (a team's home board)."""
    x: int
    y: int
    width: int
    height: int

    def contains(self, x: int, y: int) -> bool:
        return self.x <= x < self.x + self.width and self.y <= y < self.y + self.height


@dataclass(frozen=True)
class Team:
    """A team of the file's `teams`: its docks (numbers), the role of the
    robot on each (default racer) and, for "capture", its home board."""
    name: str
    docks: tuple[int, ...] = ()
    roles: tuple[str, ...] = ()
    home: Area | None = None
    note: str | None = None

    def role_at(self, dock: int) -> str:
        k = self.docks.index(dock)
        return self.roles[k] if k < len(self.roles) else "racer"


@dataclass(frozen=True)
class Seat:
    """A robot's side: its team (None: it races for itself) and role."""
    team: str | None
    role: str = "racer"


@dataclass(frozen=True)
class Scenario:
    name: str
    board: Board
    flags: tuple[Flag, ...]
    docks: tuple[Dock, ...]
    rules: Rules = field(default_factory=Rules)
    robots: tuple[RobotSpec, ...] = ()
    checks: tuple[Check, ...] = ()
    author: str | None = None
    description: str | None = None
    note: str | None = None
    card: StoredCourseCard | None = None
    accept: tuple[Accept, ...] = ()     # acknowledged warnings
    goals: Goals | None = None      # None: the file states none (fair docks is assumed)
    boards: tuple[FactoryBoard, ...] = ()   # the factory boards it is made of, if recorded

    def board_under(self, x: int, y: int) -> FactoryBoard | None:
        """The factory board (of ``boards``) that square (x, y) lies on."""
        return next((b for b in self.boards if b.covers(x, y)), None)
    published: Published | None = None  # a course of the game's manual, with its printed ratings

    teams: tuple[Team, ...] = ()    # docs/rules.md 13; none: the seating rule (seats)

    @property
    def team_race(self) -> bool:
        """Whether robots race in teams or roles (docs/rules.md 13)."""
        return (self.rules.victory != "robot" or bool(self.teams)
                or any(s.team is not None or s.role is not None for s in self.robots))

    def robot_docks(self, count: int | None = None) -> tuple[int | None, ...]:
        """The dock number of each robot (None: placed with `at`): the listed
        robots', else `count` robots on docks 1..count."""
        if self.robots:
            return tuple(None if spec.at is not None else
                         spec.dock if spec.dock is not None else i + 1
                         for i, spec in enumerate(self.robots))
        return tuple(range(1, (count or 0) + 1))

    def seats(self, count: int | None = None) -> tuple[Seat, ...]:
        """Each robot's team and role (docs/rules.md 13.1): what its entry
        says, else the team of `teams` holding its dock, else the seating
        rule: on a team course, seats alternate round the docks between
        len // team_size teams, and under "player" each player's first robot
        is its racer, the second its blocker."""
        return self.seats_on(self.robot_docks(count), self.robots)

    def seats_on(self, docks: tuple[int | None, ...],
                 specs: tuple[RobotSpec, ...] = ()) -> tuple[Seat, ...]:
        """``seats`` of robots on `docks` (their entries `specs`; none: robots
        with no team or role of their own, as a balance run's)."""
        specs_or_none = specs or (None,) * len(docks)
        default = self.default_seats(len(docks))
        rank = self.seat_ranks(docks)
        seats = []
        for i, (dock, spec) in enumerate(zip(docks, specs_or_none)):
            team = next((t for t in self.teams if dock in t.docks), None)
            seat = (Seat(team.name, team.role_at(dock)) if team is not None and dock is not None
                    else default[rank[i]])
            if spec is not None:
                seat = Seat(spec.team or seat.team, spec.role or seat.role)
            seats.append(seat)
        return tuple(seats)

    @staticmethod
    def seat_ranks(docks: tuple[int | None, ...]) -> list[int]:
        """Each robot's seat: its place round the docks in use (dock order;
        robots placed with `at` after them, in list order), from 0."""
        order = sorted(range(len(docks)), key=lambda i: (docks[i] is None, docks[i] or 0, i))
        rank = [0] * len(docks)
        for seat, i in enumerate(order):
            rank[i] = seat
        return rank

    def team_count(self, robots: int) -> int:
        """Teams of the seating rule for `robots` robots."""
        size = self.goals.team_size if self.goals and self.goals.team_size else 2
        return max(1, robots // size)

    def default_seats(self, robots: int) -> tuple[Seat, ...]:
        if self.rules.victory == "robot" or self.teams:
            return (Seat(None),) * robots
        n = self.team_count(robots)
        names = [TEAM_NAMES[t] if t < len(TEAM_NAMES) else f"Team {t + 1}" for t in range(n)]
        player = self.rules.victory == "player"
        return tuple(Seat(names[i % n], "blocker" if player and i >= n else "racer")
                     for i in range(robots))

    def implied_options(self) -> str:
        """The `rules.options` a file means when it does not say (docs/format.md,
        `rules`): "played" when it uses any option feature."""
        r = self.rules
        uses = (r.start_options or r.flag_gives_option or r.start_option_choice
                or r.repair_sites == "options"
                or any(isinstance(s.options, tuple)
                       or any(p.uses_options for p in s.program) for s in self.robots)
                or any(k == "option_cards" for c in self.checks for k, _ in c.expect))
        return "played" if uses else "counted"

    def robot_start(self, index: int) -> tuple[int, int, str] | None:
        """Start square and facing of robot `index` of the robots list (None when
        its dock does not exist)."""
        spec = self.robots[index]
        if spec.at is not None:
            return spec.at.x, spec.at.y, spec.at.facing
        number = spec.dock if spec.dock is not None else index + 1
        if not 1 <= number <= len(self.docks):
            return None
        dock = self.docks[number - 1]
        return dock.x, dock.y, dock.facing
