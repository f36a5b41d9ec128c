"""What every tool shares: access to the document, the view and the edit
state, and pushing one undo step per mouse stroke.

A tool gets press/move/release with scene positions from the view (left and
right buttons only), never edits scene items, and changes the course only by
pushing commands with engine/editing/edit.py results.
"""
from __future__ import annotations

from PySide6.QtCore import QPointF, Qt

from rallyforge.editor import commands
from rallyforge.editor.board_view import square_path
from rallyforge.engine.model.scenario import Scenario


def squares_between(a: tuple[int, int], b: tuple[int, int]) -> list[tuple[int, int]]:
    """The squares on a line from a to b, b included, a not (so that a fast
    mouse move leaves no gaps)."""
    (x0, y0), (x1, y1) = a, b
    n = max(abs(x1 - x0), abs(y1 - y0))
    return [(round(x0 + (x1 - x0) * i / n), round(y0 + (y1 - y0) * i / n)) for i in range(1, n + 1)]


def steps_between(a: tuple[int, int], b: tuple[int, int]) -> list[tuple[int, int]]:
    """Orthogonal steps from a to b (b included, a not): along the longer
    axis first, as a belt would run."""
    (x, y), (x1, y1) = a, b
    out = []
    first_x = abs(x1 - x) >= abs(y1 - y)
    for axis in ("x", "y") if first_x else ("y", "x"):
        if axis == "x":
            while x != x1:
                x += 1 if x1 > x else -1
                out.append((x, y))
        else:
            while y != y1:
                y += 1 if y1 > y else -1
                out.append((x, y))
    return out


def area_of(squares) -> tuple[int, int, int, int] | None:
    squares = list(squares)
    if not squares:
        return None
    xs = [x for x, _ in squares]
    ys = [y for _, y in squares]
    return min(xs), min(ys), max(xs), max(ys)


class Tool:
    name = ""           # shown in menus and the toolbar
    key = ""            # keyboard shortcut
    tip = ""
    cursor = Qt.CursorShape.CrossCursor

    def __init__(self, doc, view, state):
        self.doc = doc
        self.view = view
        self.state = state
        self.stroke = None      # merge key of the stroke in progress

    @property
    def scenario(self) -> Scenario:
        return self.doc.scenario

    def activate(self) -> None:
        pass

    def deactivate(self) -> None:
        self.cancel()

    def cancel(self) -> None:
        self.stroke = None
        self.view.clear_preview()

    def hover_square(self, pos: QPointF) -> tuple[int, int] | None:
        """The square under pos (None off the board), outlined as the hover preview."""
        square = self.view.square_at(pos)
        self.view.show_preview(square_path([square]) if square else None)
        return square

    def press(self, pos: QPointF, event) -> None:
        pass

    def move(self, pos: QPointF, event) -> None:
        pass

    def release(self, pos: QPointF, event) -> None:
        self.stroke = None

    def begin_stroke(self) -> None:
        self.stroke = commands.new_stroke()

    def push(self, new: Scenario, text: str, area=None) -> bool:
        """One change; within a stroke it merges with the stroke's earlier steps."""
        return commands.change(self.doc, new, text, area, self.stroke)


class DragTool(Tool):
    """A tool that draws strokes: `last` is the square (or edge) the stroke
    in progress has reached. Tools that paint squares implement apply() and
    use start_stroke()/drag_to()."""

    def __init__(self, doc, view, state):
        super().__init__(doc, view, state)
        self.last: tuple[int, int] | None = None

    def release(self, pos: QPointF, event) -> None:
        super().release(pos, event)
        self.last = None

    def start_stroke(self, square) -> None:
        self.begin_stroke()
        self.last = square
        if square:
            self.apply([square])

    def drag_to(self, square) -> None:
        """Apply to the squares from the last one to square (no gaps)."""
        if self.stroke is None or square is None or square == self.last:
            return
        squares = squares_between(self.last, square) if self.last else [square]
        self.last = square
        self.apply(squares)

    def apply(self, squares) -> None:
        raise NotImplementedError
