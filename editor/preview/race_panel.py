"""The race panels of the engine preview.

`RacePanel` (the "Race" dock): who races (a number of robots on the docks
with a bot each, or the scenario's own robots), the seed and Run; the
transport (to start, step back, play/pause, step, step register, step
round, to end, a timeline slider, the speed); the program cards of the round
on screen with the active register highlighted; each robot's damage, lives,
flags, archive and state.

`RaceLogPanel` (the "Race Log" dock): the event list, in step with the
playback (click an event to jump there), and the course tests: Run course
tests plays the scenario's robots, lists each check passed or failed, and a
click on one (or the first failure, at once) jumps to its moment and shows
the expected and actual values.

Both are plain widgets; editor/preview/controller.py connects them.
"""
from __future__ import annotations

import html
import random
import re

from PySide6.QtCore import (
    QAbstractListModel, QItemSelection, QItemSelectionModel, QModelIndex, QSize, Qt, Signal,
)
from PySide6.QtGui import QBrush, QColor, QFont, QIcon, QPainter, QPixmap, QTextDocumentFragment
from PySide6.QtWidgets import (
    QAbstractItemView, QCheckBox, QComboBox, QFrame, QGridLayout, QHBoxLayout, QHeaderView,
    QLabel, QListView, QListWidget, QListWidgetItem, QPushButton, QSizePolicy, QSlider,
    QSpinBox, QStyle, QTableWidget, QTableWidgetItem, QTabWidget, QToolButton, QVBoxLayout,
    QWidget,
)

from rallyforge.drawing.style import ROBOT_COLORS
from rallyforge.editor.table_cell import cell
from rallyforge.engine.analysis.narration import (card_label, fire_control_locks, frame_label,
                                       last_option_uses, log_line)
from rallyforge.engine.analysis.replay import Timeline, option_charges
from rallyforge.engine.model.option_cards import BY_ID
from rallyforge.engine.rules.option_holding import COAT_POINTS, HOWITZER_SHOTS

from .animation import robot_colors
from .player import SPEEDS

MAX_ROBOTS = 8
MIN_ROBOTS = 2
_ACTIVE = QColor(255, 236, 150)
_PLAYED = QColor(128, 128, 128)
_LOCKED = QColor(255, 200, 120)
_PASS = QColor(40, 160, 70)
_FAIL = QColor(210, 40, 40)


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


def swatch(color: str | QColor, size: int = 12, text: str = "") -> QIcon:
    pm = QPixmap(size, size)
    pm.fill(Qt.GlobalColor.transparent)
    p = QPainter(pm)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setPen(QColor(20, 22, 26))
    p.setBrush(QColor(color))
    p.drawEllipse(1, 1, size - 2, size - 2)
    if text:
        f = QFont()
        f.setPixelSize(int(size * 0.62))
        f.setBold(True)
        p.setFont(f)
        p.setPen(QColor(255, 255, 255))
        p.drawText(pm.rect(), Qt.AlignmentFlag.AlignCenter, text)
    p.end()
    return QIcon(pm)


def team_rows(timeline) -> list[int]:
    """The robots (indices) in the order the panel lists them: on a team
    course grouped by team, teams in order of their first robot."""
    names, sides = timeline.names, timeline.sides
    if not sides:
        return list(range(len(names)))
    teams = list(dict.fromkeys(sides[n][0] for n in names))
    return sorted(range(len(names)), key=lambda i: (teams.index(sides[names[i]][0]), i))


def _line() -> QFrame:
    line = QFrame()
    line.setFrameShape(QFrame.Shape.HLine)
    line.setFrameShadow(QFrame.Shadow.Sunken)
    return line


def _bot_names() -> list[str]:
    from rallyforge.engine.bots import BOTS
    return sorted(BOTS)


def _default_bot() -> str:
    from rallyforge.engine.bots import DEFAULT_BOT
    return DEFAULT_BOT


class RacePanel(QWidget):
    runRequested = Signal()
    rerunRequested = Signal()
    # transport
    toStart = Signal()
    stepBack = Signal()
    playToggled = Signal()
    stepForward = Signal()
    stepRegister = Signal()
    stepRound = Signal()
    toEnd = Signal()
    seekRequested = Signal(int)
    speedChanged = Signal(float)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.timeline: Timeline | None = None
        self._scenario_has_robots = False
        self._docks = 0
        self._updating_slider = False
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.setSpacing(6)

        # ---------------------------------------------------------- who races
        setup = QGridLayout()
        setup.setHorizontalSpacing(6)
        setup.setVerticalSpacing(4)
        self.robot_count = QSpinBox()
        self.robot_count.setRange(MIN_ROBOTS, MAX_ROBOTS)
        self.robot_count.setValue(4)
        self.robot_count.setToolTip("Robots on docks 1, 2, ... (2 to 8, at most the docks)")
        self.use_scenario = QCheckBox("Scenario's robots")
        self.use_scenario.setToolTip("Race the robots listed in the scenario, with their own "
                                     "bots and scripted programs")
        self.seed = QSpinBox()
        self.seed.setRange(0, 2_000_000_000)
        self.seed.setToolTip("The same seed replays the same race")
        self.new_seed = QToolButton()
        self.new_seed.setText("New")
        self.new_seed.setToolTip("A random seed")
        self.all_bots = QComboBox()
        self.all_bots.addItems(_bot_names())
        self.all_bots.setCurrentText(_default_bot())
        self.all_bots.setToolTip("Set every robot's bot")
        setup.addWidget(QLabel("Robots"), 0, 0)
        setup.addWidget(self.robot_count, 0, 1)
        setup.addWidget(self.use_scenario, 0, 2, 1, 2)
        setup.addWidget(QLabel("Seed"), 1, 0)
        setup.addWidget(self.seed, 1, 1)
        setup.addWidget(self.new_seed, 1, 2)
        self.each_bot = QToolButton()
        self.each_bot.setText("Each robot")
        self.each_bot.setCheckable(True)
        self.each_bot.setToolTip("Choose a bot for each robot")
        setup.addWidget(QLabel("Bots"), 2, 0)
        setup.addWidget(self.all_bots, 2, 1)
        setup.addWidget(self.each_bot, 2, 2, 1, 2, Qt.AlignmentFlag.AlignLeft)
        setup.setColumnStretch(3, 1)
        layout.addLayout(setup)

        self.bot_grid = QGridLayout()
        self.bot_grid.setHorizontalSpacing(4)
        self.bot_grid.setVerticalSpacing(2)
        self.bot_combos: list[QComboBox] = []
        self.bot_labels: list[QLabel] = []
        for i in range(MAX_ROBOTS):
            label = QLabel()
            label.setPixmap(swatch(ROBOT_COLORS[i], 16, str(i + 1)).pixmap(16, 16))
            combo = QComboBox()
            combo.addItems(_bot_names())
            combo.setCurrentText(_default_bot())
            combo.setToolTip(f"The bot that programs robot {i + 1}")
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
            combo.activated.connect(self._bots_changed)
            row, col = divmod(i, 2)
            self.bot_grid.addWidget(label, row, col * 2)
            self.bot_grid.addWidget(combo, row, col * 2 + 1)
            self.bot_combos.append(combo)
            self.bot_labels.append(label)
        self.bot_grid.setColumnStretch(1, 1)
        self.bot_grid.setColumnStretch(3, 1)
        layout.addLayout(self.bot_grid)

        run_row = QHBoxLayout()
        self.run_button = QPushButton("Run race")
        self.run_button.setToolTip("Play a race with these robots and seed (F5)")
        self.run_button.setDefault(True)
        self.status = QLabel("No race yet.")
        self.status.setWordWrap(True)
        self.status.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        run_row.addWidget(self.run_button)
        run_row.addWidget(self.status, 1)
        layout.addLayout(run_row)

        # the course changed under the race
        self.banner = QFrame()
        self.banner.setFrameShape(QFrame.Shape.StyledPanel)
        self.banner.setStyleSheet("QFrame { background: #fff3cd; color: #5c4400; "
                                  "border: 1px solid #e0c36a; border-radius: 4px; }")
        banner = QHBoxLayout(self.banner)
        banner.setContentsMargins(6, 4, 6, 4)
        self.banner_text = QLabel("The course changed, so the race was cleared.")
        self.banner_text.setWordWrap(True)
        self.banner_text.setStyleSheet("border: none;")
        self.rerun_button = QPushButton("Re-run, same seed")
        banner.addWidget(self.banner_text, 1)
        banner.addWidget(self.rerun_button)
        self.banner.hide()
        layout.addWidget(self.banner)

        # ---------------------------------------------------------- transport
        layout.addWidget(_line())
        style = self.style()
        transport = QHBoxLayout()
        transport.setSpacing(2)

        def button(icon, text, tip, signal):
            b = QToolButton()
            if icon is not None:
                b.setIcon(style.standardIcon(icon))
            if text:
                b.setText(text)
                b.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon if icon is not None
                                     else Qt.ToolButtonStyle.ToolButtonTextOnly)
            b.setToolTip(tip)
            b.setAutoRaise(True)
            b.clicked.connect(signal.emit)
            transport.addWidget(b)
            return b
        icons = QStyle.StandardPixmap
        self.start_button = button(icons.SP_MediaSkipBackward, "", "To the start", self.toStart)
        self.back_button = button(icons.SP_MediaSeekBackward, "", "Step back (Shift+F7)",
                                  self.stepBack)
        self.play_button = button(icons.SP_MediaPlay, "", "Play / pause (F6)", self.playToggled)
        self.step_button = button(icons.SP_MediaSeekForward, "", "Step: one card, belt, "
                                  "pusher, gear, laser or checkpoint step (F7)", self.stepForward)
        self.register_button = button(None, "Reg ▸", "Step one register (F8)", self.stepRegister)
        self.round_button = button(None, "Round ▸", "Step one round (F9)", self.stepRound)
        self.end_button = button(icons.SP_MediaSkipForward, "", "To the end", self.toEnd)
        transport.addStretch(1)
        self.speed = QComboBox()
        for s in SPEEDS:
            self.speed.addItem(f"{s:g}×", s)
        self.speed.setCurrentIndex(SPEEDS.index(1.0))
        self.speed.setToolTip("Playback speed")
        transport.addWidget(self.speed)
        layout.addLayout(transport)

        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(0, 0)
        self.slider.setToolTip("Scrub through the race")
        layout.addWidget(self.slider)
        self.where = QLabel("")
        f = self.where.font()
        f.setBold(True)
        self.where.setFont(f)
        self.where.setWordWrap(True)
        layout.addWidget(self.where)

        # ---------------------------------------------------------- robots
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
            if column == 5:
                self._fit_options()
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

        # ---------------------------------------------------------- wiring
        self.robot_count.valueChanged.connect(self._show_bot_rows)
        self.robot_count.valueChanged.connect(self._bots_changed)
        self.use_scenario.toggled.connect(self._show_bot_rows)
        self.all_bots.activated.connect(self._set_all_bots)
        self.each_bot.toggled.connect(self._show_bot_rows)
        self.new_seed.clicked.connect(lambda: self.seed.setValue(random.randrange(1, 1_000_000)))
        self.run_button.clicked.connect(self.runRequested.emit)
        self.rerun_button.clicked.connect(self.rerunRequested.emit)
        self.slider.valueChanged.connect(self._slider_moved)
        self.speed.currentIndexChanged.connect(
            lambda i: self.speedChanged.emit(float(self.speed.itemData(i))))
        self._show_bot_rows()
        self.set_timeline(None)

    # ------------------------------------------------------------ settings

    def set_scenario(self, scenario) -> None:
        """Fit the choices to the course: robots up to its docks, its own robots."""
        self._scenario_has_robots = bool(scenario.robots)
        self._docks = len(scenario.docks)
        self.use_scenario.setEnabled(self._scenario_has_robots)
        if not self._scenario_has_robots:
            self.use_scenario.setChecked(False)
        top = max(1, min(MAX_ROBOTS, self._docks))
        self.robot_count.setRange(min(MIN_ROBOTS, top), top)
        self._show_bot_rows()

    def can_run(self) -> tuple[bool, str]:
        if self.use_scenario.isChecked() and self._scenario_has_robots:
            return True, ""
        if self._docks < 1:
            return False, "Place at least one dock to race."
        return True, ""

    def settings(self) -> tuple[int, int | None, tuple[str, ...] | None]:
        """(seed, robot count or None for the scenario's robots, bots)."""
        if self.use_scenario.isChecked() and self._scenario_has_robots:
            return self.seed.value(), None, None
        count = min(self.robot_count.value(), self._docks)
        return self.seed.value(), count, tuple(c.currentText() for c in self.bot_combos[:count])

    def _show_bot_rows(self) -> None:
        own = self.use_scenario.isChecked() and self._scenario_has_robots
        count = self.robot_count.value()
        self.robot_count.setEnabled(not own)
        self.all_bots.setEnabled(not own)
        each = self.each_bot.isChecked()
        self.each_bot.setEnabled(not own)
        for i, (label, combo) in enumerate(zip(self.bot_labels, self.bot_combos)):
            visible = not own and each and i < count
            label.setVisible(visible)
            combo.setVisible(visible)

    def _set_all_bots(self) -> None:
        for combo in self.bot_combos:
            combo.setCurrentText(self.all_bots.currentText())
        self._bots_changed()

    def _bots_changed(self) -> None:
        chosen = {c.currentText() for c in self.bot_combos[:self.robot_count.value()]}
        mixed = len(chosen) > 1
        self.each_bot.setText("Each robot (mixed)" if mixed else "Each robot")
        if len(chosen) == 1:
            self.all_bots.setCurrentText(chosen.pop())

    # ------------------------------------------------------------ status

    def set_busy(self, busy: bool, text: str = "") -> None:
        self.run_button.setEnabled(not busy)
        if text:
            self.status.setText(text)

    def show_banner(self, text: str | None, rerun: bool = True) -> None:
        if text is None:
            self.banner.hide()
            return
        self.banner_text.setText(text)
        self.rerun_button.setVisible(rerun)
        self.banner.show()

    def set_playing(self, playing: bool) -> None:
        icon = QStyle.StandardPixmap.SP_MediaPause if playing \
            else QStyle.StandardPixmap.SP_MediaPlay
        self.play_button.setIcon(self.style().standardIcon(icon))

    # ------------------------------------------------------------ the race on screen

    def set_timeline(self, timeline) -> None:
        self.timeline = timeline
        on = timeline is not None
        for w in (self.start_button, self.back_button, self.play_button, self.step_button,
                  self.register_button, self.round_button, self.end_button, self.slider):
            w.setEnabled(on)
        self._updating_slider = True
        self.slider.setRange(0, len(timeline) - 1 if on else 0)
        self.slider.setValue(0)
        self._updating_slider = False
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
        if not on:
            self.where.setText("")
            self.set_playing(False)
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

    def show_frame(self, i: int) -> None:
        t = self.timeline
        if t is None:
            return
        frame = t.frames[i]
        self._updating_slider = True
        self.slider.setValue(i)
        self._updating_slider = False
        self.where.setText(f"{frame_label(frame)}   ({i + 1}/{len(t)})")
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
            damage.setForeground(QBrush(_FAIL) if r.damage >= 5 else QBrush())
        self._fit_options()

    def _fit_options(self) -> None:
        """Each robot's option cards on one line of the column: the longest
        names shortened first, as far as needed (the tooltip has them
        whole); when even initials are too long, the row grows a line."""
        for row, shown in self._options.items():
            label = self.robots.cellWidget(row, 5)
            if not isinstance(label, QLabel):
                continue
            m = label.contentsMargins()
            room = self.robots.columnWidth(5) - m.left() - m.right() - 2
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
            self.robots.setRowHeight(row, max(22, label.heightForWidth(
                self.robots.columnWidth(5) - 1) + 2) if wrap else 22)

    def _slider_moved(self, value: int) -> None:
        if not self._updating_slider:
            self.seekRequested.emit(value)


# ---------------------------------------------------------------- the log


class EventModel(QAbstractListModel):
    """The race's events, one line each, made when shown."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.events = []
        self.colors: dict[str, QColor] = {}
        self._icons: dict[str, QIcon] = {}
        self._blank = QIcon()

    def set_timeline(self, timeline) -> None:
        self.beginResetModel()
        self.events = timeline.events if timeline is not None else []
        self.colors = ({n: QColor(c) for n, c in robot_colors(timeline).items()}
                       if timeline is not None else {})
        self._icons = {n: swatch(c, 10) for n, c in self.colors.items()}
        blank = QPixmap(10, 10)
        blank.fill(Qt.GlobalColor.transparent)
        self._blank = QIcon(blank)
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.events)

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        e = self.events[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return log_line(e)
        if role == Qt.ItemDataRole.DecorationRole:
            return self._icons.get(e.robot, self._blank)
        if role == Qt.ItemDataRole.ForegroundRole and e.kind in ("dealt", "place", "archive"):
            return QBrush(QColor(120, 120, 120))
        if role == Qt.ItemDataRole.ForegroundRole and e.kind in ("destroyed", "out"):
            return QBrush(_FAIL)
        if role == Qt.ItemDataRole.FontRole and e.kind in ("card", "finish", "end", "flag"):
            f = QFont()
            f.setBold(True)
            return f
        return None


class RaceLogPanel(QWidget):
    eventActivated = Signal(int)        # index in the event log
    runChecksRequested = Signal()
    checkActivated = Signal(int)        # place in the check results

    def __init__(self, parent=None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.tabs = QTabWidget()
        layout.addWidget(self.tabs)

        events = QWidget()
        el = QVBoxLayout(events)
        el.setContentsMargins(4, 4, 4, 4)
        self.model = EventModel(self)
        self.events = QListView()
        self.events.setModel(self.model)
        self.events.setUniformItemSizes(True)
        self.events.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.events.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.events.setIconSize(QSize(10, 10))
        self.events.clicked.connect(lambda index: self.eventActivated.emit(index.row()))
        self.events.activated.connect(lambda index: self.eventActivated.emit(index.row()))
        el.addWidget(self.events)
        self.tabs.addTab(events, "Events")

        tests = QWidget()
        tl = QVBoxLayout(tests)
        tl.setContentsMargins(4, 4, 4, 4)
        row = QHBoxLayout()
        self.run_checks = QPushButton("Run course tests")
        self.run_checks.setToolTip("Race the scenario's robots (seed 0, as `rallyforge test`) "
                                   "and compare its checks (Ctrl+T)")
        self.checks_summary = QLabel("")
        self.checks_summary.setWordWrap(True)
        row.addWidget(self.run_checks)
        row.addWidget(self.checks_summary, 1)
        tl.addLayout(row)
        self.checks = QListWidget()
        self.checks.setWordWrap(True)
        self.checks.setIconSize(QSize(14, 14))
        self.checks.currentRowChanged.connect(self._check_chosen)
        self.checks.itemClicked.connect(lambda item: self.checkActivated.emit(
            self.checks.row(item)))
        tl.addWidget(self.checks, 2)
        self.detail = QTableWidget(0, 3)
        self.detail.setHorizontalHeaderLabels(["", "Expected", "Actual"])
        self.detail.verticalHeader().hide()
        self.detail.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.detail.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.detail.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.detail.verticalHeader().setDefaultSectionSize(20)
        tl.addWidget(self.detail, 1)
        self.tabs.addTab(tests, "Course tests")
        self.run_checks.clicked.connect(self.runChecksRequested.emit)
        self.results = []

    # ------------------------------------------------------------ events

    def set_timeline(self, timeline) -> None:
        self.model.set_timeline(timeline)

    def show_frame(self, timeline, i: int) -> None:
        """Select the events of frame i and bring them into view."""
        if timeline is None or not self.model.events:
            return
        start, stop = timeline.frames[i].events
        sel = self.events.selectionModel()
        if stop <= start:
            sel.clearSelection()
            target = self.model.index(min(start, len(self.model.events) - 1))
            self.events.scrollTo(target, QAbstractItemView.ScrollHint.PositionAtCenter)
            return
        top, bottom = self.model.index(start), self.model.index(stop - 1)
        sel.select(QItemSelection(top, bottom), QItemSelectionModel.SelectionFlag.ClearAndSelect)
        sel.setCurrentIndex(top, QItemSelectionModel.SelectionFlag.NoUpdate)
        self.events.scrollTo(bottom, QAbstractItemView.ScrollHint.EnsureVisible)
        self.events.scrollTo(top, QAbstractItemView.ScrollHint.EnsureVisible)

    # ------------------------------------------------------------ checks

    def set_checks_busy(self, busy: bool) -> None:
        self.run_checks.setEnabled(not busy)
        if busy:
            self.checks_summary.setText("Racing…")

    def set_check_results(self, results, message: str = "") -> None:
        self.results = list(results or [])
        self.checks.blockSignals(True)
        self.checks.clear()
        for r in self.results:
            item = QListWidgetItem(swatch(_PASS if r.passed else _FAIL, 14),
                                   ("passed: " if r.passed else "FAILED: ") + r.describe())
            item.setForeground(QBrush(_FAIL) if not r.passed else QBrush())
            self.checks.addItem(item)
        self.checks.blockSignals(False)
        self.detail.setRowCount(0)
        failed = sum(not r.passed for r in self.results)
        if message:
            self.checks_summary.setText(message)
        elif not self.results:
            self.checks_summary.setText("The scenario has no checks.")
        elif failed:
            self.checks_summary.setText(f"<b style='color:#c02828'>{failed} of "
                                        f"{len(self.results)} failed</b>")
        else:
            self.checks_summary.setText(f"<b style='color:#28a046'>All {len(self.results)} "
                                        f"passed</b>")

    def select_check(self, row: int) -> None:
        self.checks.setCurrentRow(row)

    def _check_chosen(self, row: int) -> None:
        self.detail.setRowCount(0)
        if not 0 <= row < len(self.results):
            return
        r = self.results[row]
        keys = list(r.expected)
        self.detail.setRowCount(len(keys))
        for k, key in enumerate(keys):
            exp, act = r.expected[key], r.actual.get(key, "—")
            cells = (key, _show(exp), _show(act))
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if c and exp != act:
                    item.setForeground(QBrush(_FAIL))
                    f = item.font()
                    f.setBold(True)
                    item.setFont(f)
                self.detail.setItem(k, c, item)
        self.checkActivated.emit(row)


def _show(value) -> str:
    if isinstance(value, bool) or value is None:
        return {True: "true", False: "false", None: "null"}[value]
    if isinstance(value, tuple):
        return f"({value[0]}, {value[1]})"
    return str(value)
