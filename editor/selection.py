"""Edit-menu actions on the selected rectangle: cut, copy, paste, delete,
rotate and mirror. The clipboard is the editor's own (a Clip of engine/edit.py)."""
from __future__ import annotations

from editor import commands
from engine import edit


class SelectionActions:
    def __init__(self, doc, state, view):
        self.doc = doc
        self.state = state
        self.view = view
        self.clip: edit.Clip | None = None

    @property
    def rect(self):
        return self.state.selection

    def copy(self) -> bool:
        if self.rect is None:
            return False
        self.clip = edit.copy_region(self.doc.scenario, self.rect)
        return True

    def delete(self, text: str = "Delete selection") -> bool:
        if self.rect is None:
            return False
        return commands.change(self.doc, edit.delete_region(self.doc.scenario, self.rect), text)

    def cut(self) -> bool:
        return self.copy() and self.delete("Cut selection")

    def paste(self, at=None) -> bool:
        """Paste at `at`, else at the selection's corner, else at (0, 0); the
        pasted squares become the selection, ready to be dragged."""
        if self.clip is None:
            return False
        x, y = at or (self.rect[:2] if self.rect else (0, 0))
        new, rect = edit.paste(self.doc.scenario, self.clip, x, y)
        commands.change(self.doc, new, "Paste")
        self.state.set_selection(rect)
        return True

    def turn(self, quarter_turns: int = 0, mirror: str | None = None) -> bool:
        if self.rect is None:
            return False
        new, rect = edit.turn_region(self.doc.scenario, self.rect, quarter_turns, mirror)
        text = f"Mirror selection {mirror}ly" if mirror else "Rotate selection"
        commands.change(self.doc, new, text)
        self.state.set_selection(rect)
        return True
