"""The board library: the factory boards and docking bays of the game, one
course file each in ``boards/`` beside this module (package data), and courses assembled from them.

A library file is a whole course so that it validates and races on its own:
a factory board carries one flag and one dock (marked as the library's, in
their notes) that assembling leaves behind; a docking bay carries its docks,
which come along. The flags of an assembled course are the designer's.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from rallyforge.engine.editing.edit import canonical
from rallyforge.engine.editing.transform import (insert_board, on_squares, rotate_accepts, rotate_board,
                                                  rotate_markers, stamp)
from rallyforge.engine.format.loader import read_file
from rallyforge.engine.model.scenario import Board, FactoryBoard, Scenario, Tile
from rallyforge.engine.model.turning import rotate_rectangle

LIBRARY = Path(__file__).resolve().parent / "boards"
BAY_PREFIX = "docking-bay"
ARRANGEMENTS = ("side", "stack", "grid")      # side by side, stacked, two by two


class LibraryError(Exception):
    """A board that is not in the library, or an arrangement that cannot be made."""


def board_files(folder: Path = LIBRARY) -> list[Path]:
    return sorted(folder.glob("*.json"))


def is_bay(path: Path) -> bool:
    return path.stem.startswith(BAY_PREFIX)


def find(name: str, folder: Path = LIBRARY) -> Path:
    """A library board by its file name without .json ("chess", "docking-bay-1"), or any
    course file by its path."""
    path = Path(name)
    shown = name if len(name) <= 60 else name[:59] + "…"
    try:
        if path.suffix == ".json" and path.exists():
            return path
        candidate = folder / f"{name}.json"
        if candidate.exists():
            return candidate
    except (OSError, ValueError) as exc:      # a name too long for a file name, a NUL in it
        raise LibraryError(f"no board {shown!r}: {getattr(exc, 'strerror', None) or exc}") from None
    known = ", ".join(p.stem for p in board_files(folder))
    raise LibraryError(f"no board {shown!r} in the library (it has: {known})")


def load(path: Path) -> Scenario:
    scenario, problems = read_file(path)
    if scenario is None:
        raise LibraryError(f"{path}: " + "; ".join(p.message for p in problems))
    return scenario


def part(scenario: Scenario, bay: bool) -> Scenario:
    """What a library file brings to an assembled course: its board, and its
    docks if it is a docking bay; never its flags. The warnings it accepts on
    its squares (a belt printed running off the board, W405) stay accepted,
    as printed on it."""
    accept = tuple(replace(a, note=f"as printed on {scenario.name}: {a.note}" if a.note
                           else f"as printed on {scenario.name}")
                   for a in on_squares(scenario.accept))
    return replace(scenario, flags=(), docks=scenario.docks if bay else (), accept=accept)


def turned(scenario: Scenario, quarter_turns: int) -> Scenario:
    """The library board turned, recorded as one factory board with its turn."""
    b = scenario.board
    flags, docks = rotate_markers(scenario.flags, scenario.docks, b.width, b.height,
                                  quarter_turns)
    whole = FactoryBoard(scenario.name, 0, 0, b.width, b.height)
    return replace(scenario, board=rotate_board(b, quarter_turns), flags=flags, docks=docks,
                   boards=(rotate_rectangle(whole, b.width, b.height, quarter_turns),),
                   accept=rotate_accepts(scenario.accept, b.width, b.height, quarter_turns))


def course_name(board_names: list[str]) -> str:
    """The name of a course assembled from these boards, unless the designer gives one."""
    return " + ".join(board_names) or "Untitled"


def assemble(boards: list[tuple[Scenario, int]], bay: tuple[Scenario, int] | None,
             arrangement: str, name: str) -> Scenario:
    """Factory boards (each with its quarter turns clockwise) laid side by side
    (west to east), stacked (north to south) or two by two (the first two on
    top), and the bay below them, flush with the west edge."""
    if not boards:
        raise LibraryError("choose at least one board")
    if arrangement not in ARRANGEMENTS:
        raise LibraryError(f"the arrangement is one of {', '.join(ARRANGEMENTS)}, "
                           f"not {arrangement!r}")
    if arrangement == "grid" and len(boards) != 4:
        raise LibraryError(f"two by two takes four boards, not {len(boards)}")
    pieces = [part(turned(b, q), bay=False) for b, q in boards]
    try:
        if arrangement == "grid":
            top = _join(pieces[:2], "en")
            course = insert_board(top, _join(pieces[2:], "en"), "sw", 0)
        else:
            course = _join(pieces, "en" if arrangement == "side" else "sw")
        if bay is not None:
            course = insert_board(course, part(bay[0], bay=True), "sw", bay[1])
    except ValueError as exc:       # too big a board: "a board is 1 to 100 squares each way, ..."
        raise LibraryError(f"the boards do not fit on one course: {exc}") from None
    return canonical(replace(course, name=name, author=None, description=None, note=None))


def _join(pieces: list[Scenario], corner: str) -> Scenario:
    course = pieces[0]
    for piece in pieces[1:]:
        course = insert_board(course, piece, corner, 0)
    return course


def place(boards: list[tuple[Scenario, int, int, int]], bay: tuple[Scenario, int, int, int] | None,
          name: str) -> Scenario:
    """Factory boards and a docking bay each at its own square (x, y) of the
    course, turned clockwise by its quarter turns, as a course manual lays
    them out; a square no board covers is off the table (void)."""
    pieces = [(part(turned(b, q), bay=False), x, y) for b, x, y, q in boards]
    if bay is not None:
        pieces.append((part(turned(bay[0], bay[3]), bay=True), bay[1], bay[2]))
    width = max(x + p.board.width for p, x, y in pieces)
    height = max(y + p.board.height for p, x, y in pieces)
    board, docks = Board(width, height), []
    covered: set[tuple[int, int]] = set()
    for piece, x, y in pieces:
        squares = {(x + i, y + j) for i in range(piece.board.width)
                   for j in range(piece.board.height)}
        if squares & covered:
            raise LibraryError(f"{piece.name} at ({x}, {y}) overlaps another board")
        covered |= squares
        board = stamp(board, piece.board, x, y)
        docks += [replace(d, x=d.x + x, y=d.y + y) for d in piece.docks]
    gaps = tuple(Tile(x, y, "void") for y in range(height) for x in range(width)
                 if (x, y) not in covered)
    board = replace(board, tiles=board.tiles + gaps)
    return canonical(Scenario(name=name, board=board, flags=(), docks=tuple(docks)))
