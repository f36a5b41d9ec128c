"""The Balance dialog in the editor window, and what its result shows on the
board: the heatmap overlay and its legend, kept while small edits leave the
board's size alone (noted "from before your last edits"), dropped with a
new size or another course.
"""
from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from .heatmap_overlay import HeatmapLegend, HeatmapOverlay
from .race_worker import race_inputs


class BalanceLink(QObject):
    measured = Signal(object)               # the course card of a whole balance run's result
    modeChanged = Signal(object)            # the heatmap shown (None: none)
    measuredChanged = Signal(bool)          # a result to show on the board, or none
    suggestRequested = Signal(int)          # the dialog's Suggest Fixes, for robots per race

    def __init__(self, window, parent=None):
        super().__init__(parent)
        self.window, self.doc, self.view = window, window.doc, window.view
        self.heatmap = HeatmapOverlay(lambda: {(f.x, f.y) for f in self.doc.scenario.flags})
        self.view.scene().addItem(self.heatmap)
        self.legend = HeatmapLegend(self.view)
        self.view.tooltip_sources.append(self.heatmap.tooltip_at)
        self.dialog = None
        self.result: dict | None = None
        self.scenario = None                # the course the result was raced on
        self.mode: str | None = None

    def open_dialog(self):
        from .balance_dialog import BalanceDialog
        if self.dialog is None:
            self.dialog = BalanceDialog(lambda: self.doc.scenario, self.window)
            self.dialog.resultReady.connect(self.set_result)
            self.dialog.heatmapRequested.connect(self.set_heatmap_mode)
            self.dialog.suggestRequested.connect(self.suggestRequested.emit)
            self.dialog.issuesRequested.connect(self.window.show_issues)
        self.dialog.bring_up()
        return self.dialog

    def set_result(self, result: dict, scenario=None) -> None:
        self.result = result
        self.scenario = scenario or (self.dialog.result_scenario
                                     if self.dialog else self.doc.scenario)
        self.heatmap.set_heatmaps(result["heatmaps"], result["reentry_loops"])
        self.measuredChanged.emit(True)
        self.set_heatmap_mode("deaths")
        self.view.fit()         # the legend's strip took room: the whole board in view again
        if not result.get("cancelled"):
            self.measured.emit(result.get("card"))

    def set_heatmap_mode(self, mode: str | None) -> None:
        if self.result is None:
            mode = None
        self.mode = mode
        self.heatmap.set_mode(mode)
        self.modeChanged.emit(mode)
        if self.dialog is not None:
            self.dialog.set_heatmap_mode(mode)
        self._legend("from before your last edits" if mode is not None and self._stale() else "")

    def _stale(self) -> bool:
        """Whether the course raced differs from the document's now."""
        return self.scenario is not None and \
            race_inputs(self.scenario) != race_inputs(self.doc.scenario)

    def _legend(self, note: str = "") -> None:
        r = self.result
        if self.mode is None or r is None:
            self.legend.set_scale(None, 0.0)
            return
        if not note:
            note = f"{r['races']} races of {r['robots']} {r['bot']} robots"
        self.legend.set_scale(self.mode, self.heatmap.peak, note)

    def clear(self) -> None:
        self.result = None
        self.scenario = None
        self.heatmap.set_heatmaps(None)
        self.set_heatmap_mode(None)
        self.measuredChanged.emit(False)

    def course_changed(self, scenario) -> None:
        """The heatmap goes with a new board size; other edits mark it old."""
        if self.dialog is not None:
            self.dialog.refresh_course()
        if self.result is None or self.scenario is None:
            return
        old, new = self.scenario.board, scenario.board
        if (old.width, old.height) != (new.width, new.height):
            self.clear()
        elif self._stale():
            self._legend(note="from before your last edits")

    def shutdown(self) -> None:
        """Stop the dialog's run and wait for its report (the window is closing)."""
        if self.dialog is not None:
            self.dialog.cancel()
            self.dialog.pool.waitForDone(10000)
