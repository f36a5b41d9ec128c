"""The "Race" dock of the engine preview: who races (race_setup.py), the
transport (to start, step back, play/pause, step, step register, step
round, to end, a timeline slider, the speed), and the tables of the frame on
screen (race_tables.py). A plain widget; editor/preview/controller.py and
playback.py connect it.
"""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox, QFrame, QHBoxLayout, QLabel, QSlider, QStyle, QToolButton, QVBoxLayout, QWidget,
)

from rallyforge.engine.analysis.narration import frame_label
from rallyforge.engine.analysis.replay import Timeline

from .player import SPEEDS
from .race_setup import RaceSetup
from .race_tables import RaceTables


def _line() -> QFrame:
    line = QFrame()
    line.setFrameShape(QFrame.Shape.HLine)
    line.setFrameShadow(QFrame.Shadow.Sunken)
    return line


class RacePanel(QWidget):
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
        self._updating_slider = False
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.setSpacing(6)
        self.setup = RaceSetup()
        layout.addWidget(self.setup)

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

        self.tables = RaceTables()
        layout.addWidget(self.tables, 1)
        self.slider.valueChanged.connect(self._slider_moved)
        self.speed.currentIndexChanged.connect(
            lambda i: self.speedChanged.emit(float(self.speed.itemData(i))))
        self.set_timeline(None)

    def set_playing(self, playing: bool) -> None:
        icon = QStyle.StandardPixmap.SP_MediaPause if playing \
            else QStyle.StandardPixmap.SP_MediaPlay
        self.play_button.setIcon(self.style().standardIcon(icon))

    # ------------------------------------------------------------ the race on screen

    def set_timeline(self, timeline: Timeline | None) -> None:
        self.timeline = timeline
        on = timeline is not None
        for w in (self.start_button, self.back_button, self.play_button, self.step_button,
                  self.register_button, self.round_button, self.end_button, self.slider):
            w.setEnabled(on)
        self._updating_slider = True
        self.slider.setRange(0, len(timeline) - 1 if timeline is not None else 0)
        self.slider.setValue(0)
        self._updating_slider = False
        self.tables.set_timeline(timeline)
        if not on:
            self.where.setText("")
            self.set_playing(False)

    def show_frame(self, i: int) -> None:
        t = self.timeline
        if t is None:
            return
        frame = t.frames[i]
        self._updating_slider = True
        self.slider.setValue(i)
        self._updating_slider = False
        self.where.setText(f"{frame_label(frame)}   ({i + 1}/{len(t)})")
        self.tables.show_frame(t, frame)

    def _slider_moved(self, value: int) -> None:
        if not self._updating_slider:
            self.seekRequested.emit(value)
