"""Edit-menu actions on the selected rectangle: cut, copy, paste, delete,
rotate and mirror. The clipboard is the editor's own (a Clip of engine/editing/edit.py)."""
from __future__ import annotations

from rallyforge.editor import commands
from rallyforge.engine.editing import edit


class SelectionActions:
    def __init__(self, doc, state, view, say=lambda text: None):
        self.doc = doc
        self.state = state
        self.view = view
        self.say = say              # a message for the status bar
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
        clipped = edit.clipped_by_paste(self.doc.scenario, self.clip, x, y)
        new, rect = edit.paste(self.doc.scenario, self.clip, x, y)
        if rect is None:
            self.say("Nothing pasted: the clipboard would land off the board")
            return False
        commands.change(self.doc, new, "Paste")
        self.state.set_selection(rect)
        w, h = self.clip.board.width, self.clip.board.height
        if (rect[2] - rect[0] + 1, rect[3] - rect[1] + 1) != (w, h):
            lost = f": {edit.count_text(clipped)} left out" if clipped else ""
            self.say(f"Pasted {rect[2] - rect[0] + 1} x {rect[3] - rect[1] + 1} of the "
                     f"{w} x {h} squares copied; the rest fell off the board{lost} "
                     "(Ctrl+Z to undo)")
        return True

    def turn(self, quarter_turns: int = 0, mirror: str | None = None) -> bool:
        """Turn about the centre; refused, with a message, when the turned
        rectangle would leave the board or cover anything outside it."""
        if self.rect is None:
            return False
        off, blockers = edit.turn_blockers(self.doc.scenario, self.rect, quarter_turns)
        if off or blockers:
            where = "leave the board" if off else \
                f"cover {edit.count_text(blockers)} outside the selection"
            self.say(f"Not rotated: the turned selection would {where}. Make room beside it "
                     "first (or select a square area).")
            return False
        new, rect = edit.turn_region(self.doc.scenario, self.rect, quarter_turns, mirror)
        text = f"Mirror selection {mirror}ly" if mirror else "Rotate selection"
        commands.change(self.doc, new, text)
        self.state.set_selection(rect)
        return True
