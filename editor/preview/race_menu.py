"""The Race menu of the editor window: run, re-run, the transport, the
course tests, the balance check and suggested fixes, and the Heatmap
submenu; which of them can be used now. The controller (controller.py)
makes the menu; the menu is typed with RaceActions, what it uses of it."""
from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from PySide6.QtGui import QAction, QActionGroup

from rallyforge.engine.model.element_kinds import DEATH_CAUSES

from .heatmap_overlay import CAUSE_NAMES, mode_title

if TYPE_CHECKING:
    from .balance_link import BalanceLink
    from .playback import Playback
    from .player import Player
    from .suggest_link import SuggestLink

# The actions that need a race on the board.
ON_A_RACE = ("step", "back", "step_register", "step_round", "clear")


class RaceActions(Protocol):
    """What the menu's actions call: the preview controller's races and parts."""
    player: Player
    playback: Playback
    balance: BalanceLink
    suggest: SuggestLink

    def run_race(self) -> None: ...
    def rerun(self) -> None: ...
    def toggle_play(self) -> None: ...
    def run_checks(self) -> None: ...


class RaceMenu:
    def __init__(self, window, c: RaceActions):
        p, action = c.player, window.menus.action
        a = self.actions = {
            "run": action("&Run Race", c.run_race, "F5",
                          "Play a race with the Race panel's robots and seed"),
            "rerun": action("Re-run, Same Se&ed", c.rerun, "Ctrl+F5",
                            "Play the last race again on the course as it is now"),
            "play": action("&Play / Pause", c.toggle_play, "F6"),
            "step": action("&Step", p.step, "F7",
                           "One step: a card, belts, pushers, gears, lasers, checkpoints"),
            "back": action("Step &Back", p.step_back, "Shift+F7"),
            "step_register": action("Step Re&gister", p.step_register, "F8"),
            "step_round": action("Step R&ound", p.step_round, "F9"),
            "clear": action("&Clear Race", lambda: c.playback.clear(),
                            tip="Take the robots off the board"),
            "checks": action("Run Course &Tests", c.run_checks, "Ctrl+T",
                             "Race the scenario's robots and compare its checks"),
            "balance": action("Bal&ance Check…", c.balance.open_dialog,
                              tip="Race the course many times and judge its docks"),
            "suggest": action("Su&ggest Fixes…", c.suggest.open_dialog,
                              tip="Search for small edits that bring the course closer "
                                  "to its goals: fair docks, a length, fewer deaths"),
        }
        menu = self.menu = window.menuBar().addMenu("&Race")
        window.menus.by_name["race"] = menu
        menu.addActions([a["run"], a["rerun"]])
        menu.addSeparator()
        menu.addActions([a["play"], a["step"], a["back"], a["step_register"],
                         a["step_round"], a["clear"]])
        menu.addSeparator()
        menu.addAction(a["checks"])
        menu.addSeparator()
        menu.addAction(a["balance"])
        menu.addAction(a["suggest"])
        self.heat_menu = menu.addMenu("&Heatmap")
        self.heat_group = QActionGroup(self.heat_menu)
        self.heat_group.setExclusive(True)
        self.heat_actions: dict[str | None, QAction] = {}
        modes = [(None, "&Off"), ("deaths", "&Deaths"), ("deaths_by_cause", "Deaths by &Cause")]
        modes += [(f"deaths:{cause}", f"Deaths: {CAUSE_NAMES[cause]}") for cause in DEATH_CAUSES]
        modes += [("occupancy", "&Occupancy")]
        for mode, text in modes:
            heat = action(text, lambda _=False, m=mode: c.balance.set_heatmap_mode(m),
                          checkable=True)
            if mode is not None:
                heat.setStatusTip(mode_title(mode))
            self.heat_group.addAction(heat)
            self.heat_menu.addAction(heat)
            self.heat_actions[mode] = heat
            if mode in ("deaths_by_cause", f"deaths:{DEATH_CAUSES[-1]}"):
                self.heat_menu.addSeparator()
        self.heat_actions[None].setChecked(True)
        self.heat_menu.setEnabled(False)
        c.balance.modeChanged.connect(lambda mode: self.heat_actions[mode].setChecked(True))
        c.balance.measuredChanged.connect(self.heat_menu.setEnabled)

    def update(self, race_shown: bool, can_rerun: bool) -> None:
        for key in ON_A_RACE:
            self.actions[key].setEnabled(race_shown)
        self.actions["rerun"].setEnabled(can_rerun)
