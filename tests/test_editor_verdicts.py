"""Verdicts the editor can be trusted for (pytest-qt, real input): the Race
panel races what it shows, the Robots table takes only names it knows, no
numbers for a course with errors, and a course nobody finishes says so."""
from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt

from editor.preview import install_preview
from engine.race import Race
from tests.editor_support import answers, make_window  # noqa: F401

ROOT = Path(__file__).resolve().parent.parent
HIGHLANDS = ROOT / "scenarios" / "highlands.json"       # lists four scripted robots


@pytest.fixture
def opened(make_window, tmp_path):
    """A main window with the preview on a copy of a course (the file itself
    may be open in another test's window)."""
    def make(path):
        copy = tmp_path / Path(path).name
        shutil.copyfile(path, copy)
        window = make_window(copy)
        assert window.doc.path is not None
        return window, install_preview(window)
    return make


def places(robots) -> dict:
    return {r.name: (r.x, r.y, r.facing, r.flags) if r.alive else None for r in robots}


def tick(qtbot, box) -> None:
    """Click a check box on its box (its widget may be wider than its label)."""
    qtbot.mouseClick(box, Qt.LeftButton, pos=QPoint(8, box.height() // 2))


def f5_race(qtbot, window, controller):
    controller.timeline = None
    qtbot.keyClick(window, Qt.Key_F5)
    qtbot.waitUntil(lambda: controller.timeline is not None and not controller.worker.busy,
                    timeout=20000)
    return controller.timeline


def test_f5_races_the_panels_bots_unless_the_files_robots_are_ticked(qtbot, opened):
    window, c = opened(HIGHLANDS)
    scenario = window.doc.scenario
    panel = c.panel
    if not panel.use_scenario.isChecked():
        tick(qtbot, panel.use_scenario)
    assert panel.use_scenario.isChecked()
    assert f5_race(qtbot, window, c).names == tuple(r.name for r in scenario.robots)

    tick(qtbot, panel.use_scenario)                                 # unticked
    assert not panel.use_scenario.isChecked()
    panel.robot_count.setFocus()
    panel.robot_count.selectAll()
    qtbot.keyClicks(panel.robot_count, "4")
    assert panel.robot_count.value() == 4
    assert panel.all_bots.currentText() == "search"
    seed = panel.seed.value()
    timeline = f5_race(qtbot, window, c)
    assert timeline.names == ("Robot 1", "Robot 2", "Robot 3", "Robot 4")
    starts = {e.robot: e.dst for e in timeline.events if e.kind == "place"}
    assert list(starts.values()) == [(d.x, d.y) for d in scenario.docks[:4]]
    race = Race(replace(scenario, robots=(), checks=()), seed=seed, robot_count=4, bot="search")
    race.run()
    assert places(timeline.frames[-1].robots) == places(race.snapshot())
    assert timeline.frames[-1].round == race.round
