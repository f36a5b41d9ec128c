"""Undo commands. The model is immutable, so one generic command serves every
edit: it holds the scenario before and after (sharing all unchanged parts).

A mouse stroke pushes one ChangeScenario per step with the same `stroke`
number; consecutive steps of one stroke merge, so Ctrl+Z undoes the stroke.
Property edits (typing a name, a spin box) merge the same way by their key.
"""
from __future__ import annotations

import itertools

from PySide6.QtGui import QUndoCommand

from rallyforge.engine.model.scenario import Scenario

MERGE_ID = 1
_strokes = itertools.count(1)


def new_stroke() -> int:
    """A fresh merge key for one mouse stroke."""
    return next(_strokes)


def union(a, b):
    if a is None or b is None:
        return None
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


class ChangeScenario(QUndoCommand):
    def __init__(self, doc, new: Scenario, text: str, area=None, merge_key=None):
        super().__init__(text)
        self.doc = doc
        self.before = doc.scenario
        self.after = new
        self.area = area
        self.merge_key = merge_key

    def id(self) -> int:
        return MERGE_ID if self.merge_key is not None else -1

    def redo(self) -> None:
        self.doc.apply(self.after, self.area)

    def undo(self) -> None:
        self.doc.apply(self.before, self.area)

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, ChangeScenario) or other.merge_key != self.merge_key:
            return False
        self.after = other.after
        self.setText(other.text())      # what the merged steps came to ("Set lives to 5")
        self.area = union(self.area, other.area)
        self.setObsolete(self.after is self.before)
        return True


def change(doc, new: Scenario, text: str, area=None, merge_key=None) -> bool:
    """Push a change unless it changes nothing; True when pushed."""
    if new is doc.scenario or new == doc.scenario:
        return False
    doc.push(ChangeScenario(doc, new, text, area, merge_key))
    return True
