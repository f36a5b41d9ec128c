"""Who races in the race panel: a number of robots on the docks with a bot
each (one for all, or each its own), or the scenario's own robots; the
seed; Run and the status of the race; the banner offering a re-run when the
course changed under a race.
"""
from __future__ import annotations

import random

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox, QComboBox, QFrame, QGridLayout, QHBoxLayout, QLabel, QPushButton, QSizePolicy,
    QSpinBox, QToolButton, QVBoxLayout, QWidget,
)

from rallyforge.drawing.style import ROBOT_COLORS
from rallyforge.engine.analysis.balance.play import bot_names, default_bot

from .swatch import swatch

MAX_ROBOTS = 8
MIN_ROBOTS = 2


class RaceSetup(QWidget):
    runRequested = Signal()
    rerunRequested = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self._scenario_has_robots = False
        self._docks = 0
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)

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
        self.all_bots.addItems(bot_names())
        self.all_bots.setCurrentText(default_bot())
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
            combo.addItems(bot_names())
            combo.setCurrentText(default_bot())
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
        self.robot_count.valueChanged.connect(self._show_bot_rows)
        self.robot_count.valueChanged.connect(self._bots_changed)
        self.use_scenario.toggled.connect(self._show_bot_rows)
        self.all_bots.activated.connect(self._set_all_bots)
        self.each_bot.toggled.connect(self._show_bot_rows)
        self.new_seed.clicked.connect(lambda: self.seed.setValue(random.randrange(1, 1_000_000)))
        self.run_button.clicked.connect(self.runRequested.emit)
        self.rerun_button.clicked.connect(self.rerunRequested.emit)
        self._show_bot_rows()

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
