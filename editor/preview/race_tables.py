"""The race panel's tables: the program cards of the round on screen, the
register being played highlighted and locked registers marked; each
robot's damage, lives, flags, archive, state and option cards (names
shortened to fit the column, whole in the tooltip).
"""
from __future__ import annotations

import html
import re

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QTextDocumentFragment
from PySide6.QtWidgets import (
    QAbstractItemView, QHeaderView, QLabel, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget,
)

from rallyforge.editor.table_cell import cell
from rallyforge.engine.analysis.narration import card_label, fire_control_locks, last_option_uses
from rallyforge.engine.analysis.replay import Timeline, option_charges
from rallyforge.engine.model.option_cards import BY_ID
from rallyforge.engine.rules.option_holding import COAT_POINTS, HOWITZER_SHOTS

from .animation import robot_colors
from .swatch import FAIL, swatch

_ACTIVE = QColor(255, 236, 150)
_PLAYED = QColor(128, 128, 128)
_LOCKED = QColor(255, 200, 120)


_CHARGES = {"mini-howitzer": HOWITZER_SHOTS, "ablative-coat": COAT_POINTS}


def short_name(name: str, level: int) -> str:
    """A card's name for a narrow column: level 0 whole, 1 every word but the
    last to its initial ("R. Gears", "D.-B. Laser"), 2 the initials ("RG")."""
    if level == 0:
        return name
    pieces = re.split(r"([ -])", name)          # words, and the spaces and hyphens between
    words, gaps = pieces[::2], pieces[1::2]
    if level == 1:
        return "".join(w + g for w, g in zip([w[0] + "." for w in words[:-1]] + words[-1:],
                                             gaps + [""]))
    return "".join(w[0] for w in words).upper()


def options_html(cards: tuple[str, ...], spent: dict[str, int], count: int,
                 last: dict[str, str] | None = None,
                 short: tuple[int, ...] = ()) -> tuple[str, str]:
    """A robot's option cards as rich text (names, each shortened to its
    level of short_name in `short`, whole if none; a pip per Mini Howitzer
    shot or Ablative Coat point, the spent ones grey, or at level 2 the
    charges left as "3/5"; a line breaks only between cards) and a tooltip
    with each card's whole name, effect and what it last did (`last`, from
    last_option_uses). Counted options (no cards) show their number."""
    if not cards:
        return ("" if not count else f"{count}"), ("" if not count else
                                                    f"{count} options (counted, not played)")
    parts, tips = [], []
    for i, card_id in enumerate(cards):
        card = BY_ID[card_id]
        level = short[i] if i < len(short) else 0
        text = html.escape(short_name(card.name, level)).replace(" ", "&nbsp;")
        total = _CHARGES.get(card_id)
        if total:
            used = min(total, spent.get(card_id, 0))
            text += (f"&nbsp;{total - used}/{total}" if level >= 2 else
                     "&nbsp;<span style='color:#222'>" + "●" * (total - used) + "</span>"
                     "<span style='color:#bbb'>" + "●" * used + "</span>")
        parts.append(text)
        tips.append(f"{card.name}: {card.effect}")
        if last and card_id in last:
            tips.append(f"    Last: {last[card_id]}")
    return ", ".join(parts), "\n".join(tips)


def team_rows(timeline) -> list[int]:
    """The robots (indices) in the order the panel lists them: on a team
    course grouped by team, teams in order of their first robot."""
    names, sides = timeline.names, timeline.sides
    if not sides:
        return list(range(len(names)))
    teams = list(dict.fromkeys(sides[n][0] for n in names))
    return sorted(range(len(names)), key=lambda i: (teams.index(sides[names[i]][0]), i))


class RaceTables(QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        self.cards = QTableWidget(0, 5)
        self.cards.setMinimumHeight(24 + 2 * 32)
        self.cards.setHorizontalHeaderLabels(["1", "2", "3", "4", "5"])
        self.cards.setToolTip("Program cards of the round on screen; the register being "
                              "played is highlighted, locked registers (by damage or Fire "
                              "Control) are orange")
        self.cards.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.cards.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.cards.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.cards.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.cards.verticalHeader().setDefaultSectionSize(32)
        small = QFont(self.cards.font())
        small.setPixelSize(11)
        self.cards.setFont(small)
        self.cards.setWordWrap(True)
        self.cards.setIconSize(QSize(14, 14))
        self.cards.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        layout.addWidget(self.cards, 3)

        self.robots = QTableWidget(0, 6)
        self.robots.setHorizontalHeaderLabels(["Damage", "Lives", "Flags", "Archive", "State",
                                               "Options"])
        self.robots.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.robots.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.robots.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        header = self.robots.horizontalHeader()
        # Card names are the longest texts: the Options column takes what the
        # others leave, and names too long for it are shortened (whole in the tooltip).
        for c in range(5):
            header.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(5, QHeaderView.ResizeMode.Stretch)

        def refit(column: int, old: int, new: int) -> None:
            if column == 5:     # (columnWidth may still give the old width while this is said)
                self._fit_options(new)
        header.sectionResized.connect(refit)
        self._rows: list[int] = []      # the robot (index) each row shows (team_rows)
        # row -> what options_html shows there (its arguments)
        self._options: dict[int, tuple[tuple[str, ...], dict[str, int], int,
                                       dict[str, str] | None]] = {}
        # (a scroll bar that came and went with the rows' heights would change the room)
        self.robots.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self.robots.verticalHeader().setDefaultSectionSize(22)
        self.robots.setIconSize(QSize(14, 14))
        layout.addWidget(self.robots, 2)

    def set_timeline(self, timeline: Timeline | None) -> None:
        """Empty tables, and a row per robot of `timeline` (None: none)."""
        self.cards.setRowCount(0)
        self.robots.setRowCount(0)
        self._options.clear()
        for c in range(5):
            head = self.cards.horizontalHeaderItem(c)
            if head is not None:
                head.setText(str(c + 1))
                f = head.font()
                f.setBold(False)
                head.setFont(f)
        if timeline is None:
            return
        colors = robot_colors(timeline)
        names = timeline.names
        self._rows = team_rows(timeline)
        self.cards.setRowCount(len(names))
        self.robots.setRowCount(len(names))
        for row, i in enumerate(self._rows):
            name = names[i]
            side = timeline.sides.get(name)
            label = name if side is None else f"{side[0]} · {name}" + (
                " (blocker)" if side[1] == "blocker" else "")
            for table in (self.cards, self.robots):
                head = QTableWidgetItem(swatch(colors[name], 14, str(i + 1)), label)
                table.setVerticalHeaderItem(row, head)
            options = QLabel()
            options.setTextFormat(Qt.TextFormat.RichText)
            options.setContentsMargins(4, 0, 4, 0)
            self.robots.setCellWidget(row, 5, options)
            for c in range(5):
                self.cards.setItem(row, c, QTableWidgetItem())
                self.robots.setItem(row, c, QTableWidgetItem())
                cell(self.robots, row, c).setTextAlignment(
                    Qt.AlignmentFlag.AlignCenter if c < 3
                    else Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft)
                cell(self.cards, row, c).setTextAlignment(Qt.AlignmentFlag.AlignCenter)

    def show_frame(self, t: Timeline, frame) -> None:
        self._show_cards(t, frame)
        self._show_robots(t, frame)

    def _show_cards(self, t: Timeline, frame) -> None:
        cards, locked = t.program(frame.index)
        held = fire_control_locks(t.events, frame.events[1]) if t.fire_control_locked else {}
        if frame.phase == 0 or frame.round == 0:
            active = 0                  # nothing played yet this round
        elif frame.register is not None:
            active = frame.register
        else:
            active = 6                  # the clean-up or the end: all played
        bold = QFont(self.cards.font())
        bold.setBold(True)
        plain = QFont(self.cards.font())
        for c in range(5):
            head = self.cards.horizontalHeaderItem(c)
            if head is not None:
                head.setFont(bold if c + 1 == active else plain)
                head.setText(f"▸{c + 1}" if c + 1 == active else str(c + 1))
        for row, i in enumerate(self._rows):
            name = t.names[i]
            program = cards.get(name, (None,) * 5)
            locks = locked.get(name, 0)
            fired = held.get(name, {})
            for c in range(5):
                item = cell(self.cards, row, c)
                kind, priority = card_label(program[c], short=True)
                text = f"{kind}\n{priority}" if priority else kind
                by_damage = c >= 5 - locks and program[c] is not None
                is_locked = by_damage or c + 1 in fired
                if item.text() != text:
                    item.setText(text)
                tip = program[c] or "no card"
                if by_damage:
                    tip += " (locked by damage)"
                elif c + 1 in fired:
                    tip += f" ({fired[c + 1]})"
                item.setToolTip(tip)
                if c + 1 == active:
                    current = frame.step == "move" and frame.actor == name
                    item.setBackground(QBrush(QColor(robot_colors(t)[name]).lighter(170)
                                              if current else _ACTIVE))
                    item.setForeground(QBrush(QColor(20, 20, 20)))
                    item.setFont(bold)
                elif is_locked:
                    item.setBackground(QBrush(_LOCKED))
                    item.setForeground(QBrush(QColor(20, 20, 20)))
                    item.setFont(plain)
                else:
                    item.setBackground(QBrush())
                    item.setForeground(QBrush(_PLAYED) if c + 1 < active else QBrush())
                    item.setFont(plain)

    def _show_robots(self, t: Timeline, frame) -> None:
        held = any(r.option_cards for r in frame.robots)
        spent = option_charges(t.events, frame.events[1]) if held else {}
        last = last_option_uses(t.events, frame.events[1]) if held else {}
        for row, i in enumerate(self._rows):
            r = frame.robots[i]
            self._options[row] = (r.option_cards, spent.get(r.name, {}), r.options,
                                  last.get(r.name))
            if r.out:
                state = "out"
            elif r.finished is not None:
                state = f"finished (round {r.finished[0]})"
            elif not r.alive:
                state = "destroyed"
            elif r.powered_down:
                state = "powered down"
            else:
                state = f"{r.x},{r.y} {r.facing}"
            values = (f"{r.damage}", f"{r.lives}", f"{r.flags}",
                      f"{r.archive[0]},{r.archive[1]}", state)
            for c, v in enumerate(values):
                item = cell(self.robots, row, c)
                if item.text() != v:
                    item.setText(v)
            damage = cell(self.robots, row, 0)
            damage.setForeground(QBrush(FAIL) if r.damage >= 5 else QBrush())
        self._fit_options()

    def _fit_options(self, column_width: int | None = None) -> None:
        """Each robot's option cards on one line of the column (`column_width`
        wide, default its width now): the longest names shortened first, as
        far as needed (the tooltip has them whole); when even initials are
        too long, the row grows a line."""
        column_width = column_width or self.robots.columnWidth(5)
        for row, shown in self._options.items():
            label = self.robots.cellWidget(row, 5)
            if not isinstance(label, QLabel):
                continue
            m = label.contentsMargins()
            room = column_width - m.left() - m.right() - 2
            cards = shown[0]
            levels = [0] * len(cards)

            def width(text: str) -> int:
                return label.fontMetrics().horizontalAdvance(
                    QTextDocumentFragment.fromHtml(text).toPlainText())
            text, tip = options_html(*shown, short=tuple(levels))
            while width(text) > room and min(levels, default=2) < 2:
                longest = max((i for i in range(len(cards)) if levels[i] < 2), key=lambda i: len(
                    short_name(BY_ID[cards[i]].name, levels[i])))
                levels[longest] += 1
                text, tip = options_html(*shown, short=tuple(levels))
            wrap = width(text) > room
            if label.text() != text or label.wordWrap() != wrap:
                label.setWordWrap(wrap)
                label.setText(text)
            if label.toolTip() != tip:          # what a card last did changes under the same text
                label.setToolTip(tip)
            self.robots.setRowHeight(row, max(22, label.heightForWidth(column_width - 1) + 2)
                                     if wrap else 22)
