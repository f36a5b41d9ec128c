"""Build the 34 courses of the game's 2005 course manual, engine/editing/published/,
from the board library (engine/editing/boards/) and the facts below.

    python -m scripts.published_courses [--check]

The facts (which boards, where, turned how far; the docking bay; the flag
squares; players, printed length and difficulty; special rules) are the
manual's as two independent open implementations record them:

- anicolao/roborally's reviewed course catalogue (src/lib/game/course-catalog.ts,
  the version whose board turns were corrected against the manual's diagrams,
  as that repository's review of the published scenarios records). Its
  coordinates count from 1 and its board faces are the library's boards
  turned by FACE quarter turns; the placements below are converted to the
  library's frame (0, 0 at the top-left).
  Its bay "a" (no belts) is the library's docking-bay-2, its bay "b" (belts)
  docking-bay-1.
- inf112-v19/Blodige-roboter's maps (assets/maps/*.tmx, MIT licence), read with
  Rally Forge's Tiled importer: the flags and bay of each map are below
  (BLODIGE_FLAGS); every map lays each board in one orientation (BLODIGE_TURNS).

A third source, gbahns/robotmadness (lib/game/courses/courses.ts; read only as
a check, no licence stated), lays nine of the beginner courses: its board turns
are in GBAHNS_TURNS (its boards are the library's orientation). A board's turn
follows the majority of the sources where there is one; otherwise, and for
flags and bays, the course follows the catalogue, which was checked against
the manual's diagrams page by page. Every disagreement is named in the
course's description. Nothing of either source is kept but these facts. The seven
courses of the project's calibration set agree with Blodige-roboter's maps,
from which they were converted.

With --check nothing is written: the script only says whether the files in
engine/editing/published/ are what it would write.
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field, replace

from rallyforge.engine.editing import library
from rallyforge.engine.editing.published_courses import FOLDER
from rallyforge.engine.format.loader import document_text, to_dict, write_text_atomic
from rallyforge.engine.model.scenario import Dock, Flag, Goals, Published, Scenario

# The catalogue's board faces are the library's boards turned this far clockwise
# (found by matching its pits, repair sites, gears and lasers with the library's).
FACE = {"chess": 2, "chop-shop": 3, "cross": 2, "exchange": 0, "island": 3, "maelstrom": 3,
        "spin-zone": 0, "vault": 1}
# Blodige-roboter's maps lay every board turned this far from the library's.
# The board turns of gbahns/robotmadness's courses, in the library's frame
# (Around the World stacked there: turned back to the course's side-by-side layout).
GBAHNS_TURNS = {"risky-exchange": {"exchange": 0}, "checkmate": {"chess": 2},
                "dizzy-dash": {"spin-zone": 0}, "island-hop": {"island": 3},
                "chop-shop-challenge": {"chop-shop": 1}, "twister": {"spin-zone": 0},
                "bloodbath-chess": {"chess": 0}, "around-the-world": {"island": 2, "spin-zone": 2},
                "death-trap": {"island": 0}}
BLODIGE_TURNS = {"chess": 2, "chop-shop": 1, "cross": 1, "exchange": 0, "island": 3,
                 "maelstrom": 3, "spin-zone": 0, "vault": 0}
NAMES = {"chess": "Chess", "chop-shop": "Chop Shop", "cross": "Cross", "exchange": "Exchange",
         "island": "Island", "maelstrom": "Maelstrom", "spin-zone": "Spin Zone", "vault": "Vault",
         "docking-bay-1": "the docking bay with belts", "docking-bay-2": "the docking bay without belts"}
AUTHOR = ("Course of the RoboRally board game, 2005 course manual (Richard Garfield; Wizards of the "
          "Coast / Avalon Hill). Built by Rally Forge from its board library; layout facts from "
          "anicolao/roborally's reviewed course catalogue and inf112-v19/Blodige-roboter's maps "
          "(MIT licence).")
# The courses of the project's first calibration set (/work/shared/calibration),
# converted from Blodige-roboter's maps: their flags and docks are the maps'.
CALIBRATED = {"around-the-world", "checkmate", "chop-shop-challenge", "death-trap",
              "marathon-madness", "risky-exchange", "whirlwind-tour"}
BELOW = ("docking-bay-1", 0, 12, 0)           # the bay with belts below a single board
BELOW_PLAIN = ("docking-bay-2", 0, 12, 0)


@dataclass(frozen=True)
class Course:
    id: str
    name: str
    page: int
    players: tuple[int, ...]
    length: str
    difficulty: str | None                    # None: a team course (no printed difficulty)
    boards: tuple[tuple[str, int, int, int], ...]   # library board, x, y, quarter turns
    bay: tuple[str, int, int, int] | None
    flags: tuple[tuple[int, int], ...]
    rules: dict = field(default_factory=dict)
    what: str = ""                            # the special rules in words
    blodige: str | None = None                # the map's name
    blodige_flags: tuple[tuple[int, int], ...] = ()
    blodige_bay: str | None = None            # when it is not the catalogue's
    layout_note: str = ""                     # a disagreement the facts above cannot say


def P(a: int, b: int) -> tuple[int, ...]:
    return tuple(range(a, b + 1))


TEAMS = (4, 6, 8)

COURSES = (
    Course("risky-exchange", "Risky Exchange", 13, P(2, 8), "medium", "easy",
           (("exchange", 0, 0, 0),), BELOW, ((7, 1), (9, 7), (1, 4)),
           blodige="risky_exchange", blodige_flags=((7, 1), (9, 7), (1, 4))),
    Course("checkmate", "Checkmate", 13, P(5, 8), "short", "easy",
           (("chess", 0, 0, 2),), BELOW_PLAIN, ((7, 2), (3, 8)),
           blodige="checkmate", blodige_flags=((7, 2), (3, 8))),
    Course("dizzy-dash", "Dizzy Dash", 14, P(2, 8), "short", "easy",
           (("spin-zone", 0, 0, 0),), BELOW, ((5, 4), (10, 11), (1, 6)),
           blodige="dizzy_dash", blodige_flags=((5, 4), (10, 11), (1, 6))),
    Course("island-hop", "Island Hop", 14, P(2, 8), "medium", "mid",
           (("island", 0, 0, 3),), BELOW_PLAIN, ((6, 1), (1, 6), (11, 4)),
           blodige="island_hop", blodige_flags=((6, 1), (1, 6), (11, 4))),
    Course("chop-shop-challenge", "Chop Shop Challenge", 15, P(2, 4), "medium", "mid",
           (("chop-shop", 0, 0, 1),), BELOW_PLAIN, ((4, 9), (9, 11), (1, 10), (11, 7)),
           blodige="chop_shop_challenge", blodige_flags=((4, 9), (9, 11), (1, 10), (11, 7))),
    Course("twister", "Twister", 15, P(5, 8), "medium", "mid",
           (("spin-zone", 0, 0, 2),), BELOW, ((2, 9), (3, 2), (9, 2), (8, 9)),
           blodige="twister", blodige_flags=((2, 9), (3, 2), (9, 2), (8, 9))),
    Course("bloodbath-chess", "Bloodbath Chess", 16, P(2, 4), "medium", "mid",
           (("chess", 0, 0, 2),), BELOW_PLAIN, ((6, 5), (2, 9), (8, 7), (3, 4)),
           blodige="bloodbath_chess", blodige_flags=((6, 5), (2, 9), (8, 7), (3, 4))),
    Course("around-the-world", "Around the World", 16, P(5, 8), "long", "hard",
           (("island", 0, 0, 0), ("spin-zone", 12, 0, 0)), ("docking-bay-2", 24, 0, 3),
           ((12, 2), (1, 5), (22, 6)),
           blodige="around_the_world", blodige_flags=((12, 2), (1, 5), (22, 6)),
           layout_note=("By the note of the project's first calibration file, marcelpanse/"
                        "roborally turns the Island 90 degrees from Blodige-roboter's map, in a "
                        "direction the note does not say")),
    Course("death-trap", "Death Trap", 17, P(2, 4), "short", "hard",
           (("island", 0, 0, 3),), BELOW_PLAIN, ((7, 7), (0, 4), (6, 5)),
           blodige="death_trap", blodige_flags=((7, 7), (0, 4), (6, 5))),
    Course("pilgrimage", "Pilgrimage", 17, P(2, 8), "long", "hard",
           (("cross", 0, 0, 1), ("exchange", 12, 0, 1)), ("docking-bay-2", 24, 0, 3),
           ((8, 7), (19, 2), (14, 9)),
           blodige="pilgrimage", blodige_flags=((8, 7), (19, 2), (14, 9))),
    Course("vault-assault", "Vault Assault", 18, P(2, 4), "short", "expert",
           (("vault", 0, 0, 0),), BELOW, ((6, 3), (4, 11), (8, 5)),
           blodige="vault_assault", blodige_flags=((6, 3), (4, 11), (8, 5))),
    Course("whirlwind-tour", "Whirlwind Tour", 18, P(5, 8), "medium", "expert",
           (("maelstrom", 0, 0, 3),), BELOW_PLAIN, ((8, 0), (3, 11), (11, 6)),
           blodige="whirlwind_tour", blodige_flags=((8, 0), (3, 11), (11, 6))),
    Course("lost-bearings", "Lost Bearings", 19, P(2, 4), "medium", "expert",
           (("cross", 0, 0, 0),), BELOW_PLAIN, ((1, 2), (10, 9), (2, 8)),
           blodige="lost_bearings", blodige_flags=((1, 2), (10, 7), (2, 9))),
    Course("robot-stew", "Robot Stew", 19, P(2, 4), "medium", "expert",
           (("chop-shop", 0, 0, 3),), BELOW, ((0, 4), (9, 7), (2, 10)),
           blodige="robot_stew", blodige_flags=((0, 5), (9, 7), (3, 12))),
    Course("oddest-sea", "Oddest Sea", 20, P(5, 8), "long", "expert",
           (("vault", 0, 0, 3), ("maelstrom", 0, 12, 1)), ("docking-bay-2", 0, 24, 0),
           ((8, 6), (1, 4), (5, 8), (9, 2)),
           blodige="oddest_sea", blodige_flags=((8, 6), (2, 5), (5, 8), (9, 2))),
    Course("against-the-grain", "Against the Grain", 20, P(2, 4), "medium", "expert",
           (("chop-shop", 0, 0, 3), ("chess", 0, 12, 3)), ("docking-bay-2", 0, 24, 0),
           ((10, 9), (3, 3), (5, 17)),
           blodige="against_the_grain", blodige_flags=((9, 10), (3, 2), (5, 18))),
    Course("island-king", "Island King", 21, P(5, 8), "short", "expert",
           (("island", 0, 0, 1),), BELOW_PLAIN, ((5, 4), (7, 7), (5, 6)),
           blodige="island_king", blodige_flags=((5, 4), (7, 7), (6, 5))),
    Course("tricksy", "Tricksy", 21, P(2, 4), "long", "expert",
           (("cross", 0, 0, 2),), BELOW, ((9, 1), (0, 1), (8, 11), (3, 7)),
           {"start_option_choice": 3}, "each robot is dealt 3 option cards and keeps 1",
           blodige="tricksy", blodige_flags=((9, 1), (0, 2), (8, 11), (3, 8)),
           blodige_bay="docking-bay-2"),
    Course("moving-targets", "Moving Targets", 22, P(2, 8), "medium", "expert",
           (("maelstrom", 0, 0, 3),), BELOW_PLAIN, ((1, 0), (10, 11), (11, 5), (0, 6)),
           {"flags_move": True}, "the flags ride the conveyor belts",
           blodige="moving_targets", blodige_flags=((1, 0), (10, 11), (11, 5), (0, 6))),
    Course("set-to-kill", "Set to Kill", 22, P(5, 8), "medium", "expert",
           (("exchange", 0, 0, 2),), BELOW, ((5, 0), (2, 11), (10, 9), (2, 4)),
           {"robot_laser_damage": 2}, "robot lasers deal double damage",
           blodige="set_to_kill", blodige_flags=((4, 0), (2, 10), (10, 9), (2, 4))),
    Course("factory-rejects", "Factory Rejects", 23, P(5, 8), "short", "expert",
           (("chop-shop", 0, 0, 1),), BELOW, ((7, 1), (4, 11), (2, 4)),
           {"start_damage": 2, "power_down": False},
           "robots start with 2 damage and may not power down",
           blodige="factory_rejects", blodige_flags=((8, 1), (4, 11), (2, 4))),
    Course("option-world", "Option World", 23, P(2, 8), "medium", "expert",
           (("vault", 0, 0, 1),), BELOW, ((3, 5), (9, 1), (5, 8), (2, 0)),
           {"repair_sites": "options"}, "repair sites and flags hand out option cards",
           blodige="option_world", blodige_flags=((3, 5), (9, 1), (5, 8), (2, 0))),
    Course("ball-lightning", "Ball Lightning", 24, P(2, 8), "short", "expert",
           (("spin-zone", 0, 0, 1),), BELOW_PLAIN, ((7, 5), (2, 2), (5, 9), (10, 0)),
           {"programming_seconds": 30}, "30 seconds to program",
           blodige="ball_lighting", blodige_flags=((2, 9), (3, 2), (9, 2), (8, 9)),
           layout_note="Blodige-roboter's ball_lighting.tmx has Twister's flags and turn"),
    Course("tight-collar", "Tight Collar", 24, P(2, 8), "medium", "expert",
           (("chop-shop", 4, 0, 1), ("cross", 16, 0, 1)), ("docking-bay-2", 0, 0, 1),
           ((25, 4), (8, 9)),
           {"programming_seconds": 60}, "60 seconds to program",
           layout_note=("Blodige-roboter's tight_collar.tmx is another layout (the Maelstrom "
                        "alone, with Day of the SuperBot's flags); the catalogue's is followed")),
    Course("day-of-the-superbot", "Day of the SuperBot", 25, P(5, 8), "medium", "expert",
           (("maelstrom", 0, 0, 1),), BELOW, ((8, 0), (0, 5)),
           {"superbot": True}, "the robot on dock 1 starts as the SuperBot",
           layout_note=("Blodige-roboter's tight_collar.tmx has this course's flags and bay, "
                        "with the Maelstrom turned a half turn from the catalogue's")),
    Course("interference", "Interference", 26, P(2, 4), "medium", "expert",
           (("chess", 0, 0, 2),), BELOW, ((5, 2), (7, 8), (0, 0)),
           {"victory": "player"}, "each player programs a racer and a blocker",
           blodige="interference", blodige_flags=((5, 2), (7, 8), (0, 0))),
    Course("flag-fry", "Flag Fry", 26, P(2, 8), "short", "expert",
           (("cross", 0, 0, 0),), BELOW, ((3, 3), (9, 3), (3, 10)),
           {"start_options": 1}, "each robot starts with an option card",
           blodige="flag_fry", blodige_flags=((2, 4), (9, 3), (3, 10)), blodige_bay="docking-bay-2"),
    Course("frenetic-factory", "Frenetic Factory", 27, P(5, 8), "long", "expert",
           (("chess", 0, 0, 3), ("chop-shop", 12, 0, 2), ("island", 0, 12, 0), ("cross", 12, 12, 1)),
           ("docking-bay-2", 12, 24, 0), ((4, 6), (16, 10), (10, 19), (21, 1)),
           {"board_turns_on_flag": True}, "a board may turn when a robot touches its flag",
           blodige="frenetic_factory", blodige_flags=((3, 4), (16, 10), (10, 18), (20, 1))),
    Course("marathon-madness", "Marathon Madness", 28, P(5, 8), "long", "expert",
           (("vault", 12, 0, 3), ("spin-zone", 0, 12, 1), ("exchange", 12, 12, 2),
            ("maelstrom", 12, 24, 3)), ("docking-bay-2", 24, 12, 3),
           ((23, 30), (15, 6), (9, 21), (23, 17)),
           {"start_options": 1}, "each robot starts with an option card",
           blodige="marathon_madness", blodige_flags=((23, 30), (15, 6), (8, 21), (23, 16))),
    Course("tandem-carnage", "Tandem Carnage", 29, TEAMS, "medium", None,
           (("maelstrom", 0, 0, 1), ("exchange", 0, 12, 0)), ("docking-bay-2", 0, 24, 0),
           ((2, 14), (3, 0), (11, 10), (9, 21)),
           {"victory": "team_progress"}, "teammates share one flag progress",
           blodige="tandem_carnage", blodige_flags=((2, 14), (3, 0), (11, 8), (9, 21))),
    Course("all-for-one-or-one-for-all", "All for One or One for All?", 30, TEAMS, "long", None,
           (("vault", 0, 0, 1), ("spin-zone", 0, 12, 1)), ("docking-bay-1", 0, 24, 0),
           ((6, 18), (8, 5), (2, 1), (9, 21)),
           {"victory": "team_any"}, "a team wins when any one of its robots finishes",
           blodige="all_for_one_one_for_all", blodige_flags=((6, 18), (8, 5), (1, 2), (8, 21))),
    Course("capture-the-flag", "Capture the Flag", 31, TEAMS, "medium", None,
           (("chop-shop", 0, 0, 3), ("vault", 12, 0, 2)), None, ((2, 10), (20, 1)),
           {"victory": "capture"}, "each team carries the other's flag home",
           layout_note=("The manual has no docking bay: the team that wins a coin toss "
                        "chooses its home board, and each team deploys on the back rows of its "
                        "home board; here team A has the Chop Shop and team B the Vault, and "
                        "the docks stand on the outer column of each home board (team A west, "
                        "team B east)")),
    Course("toggle-boggle", "Toggle Boggle", 32, TEAMS, "medium", None,
           (("exchange", 0, 0, 1),), BELOW_PLAIN, ((5, 5), (9, 2), (9, 9)),
           {"victory": "flag_control"}, "a team must hold every flag at once"),
    Course("war-zone", "War Zone", 32, TEAMS, "medium", None,
           (("island", 0, 0, 1),), BELOW, (),
           {"victory": "elimination", "start_options": 1},
           "no flags: the last team with a robot left wins; each robot starts with an option card"),
)


# ---------------------------------------------------------------- building

def robots_for(course: Course) -> int:
    """The robots a race of the course is for: a table of four (two to four or
    two to eight players), of six (five to eight players); two of each player
    on Interference; two teams of two on a team course."""
    if course.rules.get("victory") == "player":
        return 2 * 4
    if course.players == TEAMS:
        return 4
    return 6 if course.players[0] >= 5 else 4


def team_robots(course: Course, docks: int) -> list[dict] | None:
    """The robots of a team course, with their team (and role on Interference);
    None for a course of single robots."""
    victory = course.rules.get("victory")
    if victory is None:
        return None
    robots = []
    for i in range(min(robots_for(course), docks)):
        if victory == "player":
            player, role = i // 2 + 1, ("racer", "blocker")[i % 2]
            robots.append({"name": f"Player {player} {role}", "dock": i + 1,
                           "team": str(player), "role": role, "bot": "search"})
        else:
            team = "AB"[i % 2]
            robots.append({"name": f"Team {team} robot {i // 2 + 1}", "dock": i + 1,
                           "team": team, "bot": "search"})
    return robots


def home_docks(course: Scenario) -> tuple[Dock, ...]:
    """Capture the Flag has no bay: four docks on the outer column of each home
    board, on plain squares nearest the middle row, teams taking turns."""
    busy = {(t.x, t.y) for t in course.board.tiles}
    rows = sorted(range(12), key=lambda y: (abs(2 * y - 11), y))
    sides = []
    for x, facing in ((0, "E"), (course.board.width - 1, "W")):
        sides.append([Dock(x, y, facing) for y in rows if (x, y) not in busy][:4])
    return tuple(d for pair in zip(*sides) for d in pair)


def votes(course: Course, stem: str, catalogue: int) -> list[tuple[str, int]]:
    """Each source's turn of a board of the course: the catalogue's first."""
    out = [("the catalogue", catalogue)]
    if course.blodige:
        out.append(("Blodige-roboter's map", BLODIGE_TURNS[stem]))
    if stem in GBAHNS_TURNS.get(course.id, {}):
        out.append(("gbahns/robotmadness", GBAHNS_TURNS[course.id][stem]))
    return out


def majority(turns: list[int]) -> int | None:
    best = max(turns, key=turns.count)
    return best if turns.count(best) > len(turns) / 2 else None


def turn(course: Course, stem: str, catalogue: int) -> int:
    """The majority of the sources' turns, or the catalogue's when there is none."""
    found = majority([q for _, q in votes(course, stem, catalogue)])
    return catalogue if found is None else found


def boards(course: Course) -> list[tuple[str, int, int, int]]:
    """The course's boards with the turns followed."""
    return [(s, x, y, turn(course, s, q)) for s, x, y, q in course.boards]


def disagreements(course: Course) -> list[str]:
    """Where the sources differ from each other, and what is followed."""
    notes = []
    for stem, x, y, q in course.boards:
        said = votes(course, stem, q)
        if len({t for _, t in said}) > 1:
            chosen = turn(course, stem, q)
            how = "the catalogue" if majority([t for _, t in said]) is None else "the majority"
            notes.append(f"{NAMES[stem]} is turned " + ", ".join(
                f"{t * 90} degrees by {who}" for who, t in said)
                + f" (followed: {how}, {chosen * 90})")
    for n, (ours, theirs) in enumerate(zip(course.flags, course.blodige_flags), 1):
        if ours != theirs:
            notes.append(f"flag {n} is at {ours} in the catalogue, at {theirs} in "
                         f"Blodige-roboter's map (followed: the catalogue)")
    if course.blodige_bay:
        notes.append(f"Blodige-roboter's map uses {NAMES[course.blodige_bay]} (followed: the "
                     f"catalogue's)")
    return notes


def description(course: Course) -> str:
    layout = ", ".join(f"{NAMES[s]} at ({x}, {y})" + (f" turned {q * 90} degrees" if q else "")
                       for s, x, y, q in boards(course))
    if course.bay:
        stem, x, y, q = course.bay
        layout += f"; {NAMES[stem]} at ({x}, {y})" + (f" turned {q * 90} degrees" if q else "")
    printed = f"printed {course.length}" + (f", {course.difficulty}" if course.difficulty else "")
    text = (f"{course.name}: course manual page {course.page}, for "
            f"{Published(course.id, course.page, course.players, course.length).players_text} "
            f"players, {printed}.")
    if course.what:
        text += f" Special rules: {course.what}."
    text += f" Boards (clockwise turns from the board library's): {layout}."
    if _has_gaps(course):
        text += " Squares no board covers are pits (off the factory floor)."
    text += (" Layout facts from anicolao/roborally's reviewed course catalogue (checked against "
             "the manual's diagrams)")
    sources = [f"Blodige-roboter's {course.blodige}.tmx (MIT)"] if course.blodige else []
    if course.blodige and course.blodige.replace("_", "-") in CALIBRATED:
        sources[0] += ", from which the project's first calibration file of the course was made,"
    if course.id in GBAHNS_TURNS:
        sources.append("gbahns/robotmadness")
    notes = disagreements(course)
    if not sources:
        text += "; no other source has this course."
    elif not notes:
        text += f"; {' and '.join(sources)} agree on the boards, bay and flags."
    else:
        text += f", compared with {' and '.join(sources)}: " + "; ".join(notes) + "."
    if course.layout_note:
        text += f" {course.layout_note}."
    return text


def _has_gaps(course: Course) -> bool:
    pieces = list(course.boards) + ([course.bay] if course.bay else [])
    area = sum((4 if s.startswith("docking") else 12) * 12 for s, *_ in pieces)
    w = max(x + (12 if not s.startswith("docking") or q % 2 == 0 else 4) for s, x, y, q in pieces)
    h = max(y + (12 if not s.startswith("docking") or q % 2 == 1 else 4) for s, x, y, q in pieces)
    return w * h > area


def build(course: Course) -> str:
    placed = [(library.load(library.find(s)), x, y, q) for s, x, y, q in boards(course)]
    bay = None
    if course.bay:
        stem, x, y, q = course.bay
        bay = (library.load(library.find(stem)), x, y, q)
    made = library.place(placed, bay, course.name)
    if bay is None:
        made = replace(made, docks=home_docks(made))
    made = replace(made, flags=tuple(Flag(x, y) for x, y in course.flags), author=AUTHOR,
                   description=description(course),
                   goals=Goals(robots=min(robots_for(course), len(made.docks))),
                   published=Published(course.id, course.page, course.players, course.length,
                                       course.difficulty, number=COURSES.index(course) + 1))
    doc = to_dict(made)
    if course.rules:
        doc["rules"] = {**doc.get("rules", {}), **course.rules}
    robots = team_robots(course, len(made.docks))
    if robots:
        doc["robots"] = robots
    doc["boards"] = [{"name": NAMES[s], "x": x, "y": y, "width": 12, "height": 12, "turn": q}
                     for s, x, y, q in boards(course)]
    if course.rules.get("victory") == "capture":
        doc["teams"] = capture_teams(doc["boards"], made.docks)
    return document_text(_ordered(doc))


def capture_teams(placed: list[dict], docks: tuple) -> list[dict]:
    """Capture the Flag's two teams: team A's home is the first board, team
    B's the second, and each team takes the docks on its home board."""
    teams = []
    for name, home in zip("AB", placed):
        area = {key: home[key] for key in ("x", "y", "width", "height")}
        on = [i + 1 for i, d in enumerate(docks) if home["x"] <= d.x < home["x"] + home["width"]
              and home["y"] <= d.y < home["y"] + home["height"]]
        teams.append({"name": name, "docks": on, "home": area})
    return teams


ORDER = ("format", "version", "name", "author", "description", "published", "board", "boards",
         "flags", "docks", "rules", "goals", "robots", "teams")


def _ordered(doc: dict) -> dict:
    return {k: doc[k] for k in sorted(doc, key=lambda k: ORDER.index(k) if k in ORDER else 99)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    stale = []
    for course in COURSES:
        text = build(course)
        target = FOLDER / f"{course.id}.json"
        if args.check:
            if not target.exists() or target.read_text("utf-8") != text:
                stale.append(course.id)
        else:
            FOLDER.mkdir(parents=True, exist_ok=True)
            write_text_atomic(target, text)
    extra = sorted({p.stem for p in FOLDER.glob("*.json")} - {c.id for c in COURSES})
    for name in stale + extra:
        print(f"{FOLDER / name}.json: not what the script writes", file=sys.stderr)
    print(f"{len(COURSES)} courses{' checked' if args.check else ' written'}; "
          f"{len(stale) + len(extra)} stale", file=sys.stderr)
    return 1 if stale or extra else 0


if __name__ == "__main__":
    sys.exit(main())
