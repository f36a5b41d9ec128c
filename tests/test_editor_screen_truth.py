"""What the screen says must be true: the Race panel after an edit, and the
balance wording and bar colours against the verdict."""
from PySide6.QtCore import Qt

from rallyforge.editor.preview import balance_run
from tests.editor_support import answers, click, make_window, window_on_copy  # noqa: F401
from tests.test_preview_ui import preview, run_race  # noqa: F401


def test_an_edit_makes_the_race_panel_say_out_of_date_and_offer_a_rerun(qtbot, preview):
    window, c = preview()
    run_race(qtbot, c, seed=4)
    assert "round" in c.panel.setup.status.text()             # "7 rounds, Robot 2 wins · seed 4 ..."
    window.set_tool("brush")
    window.state.set_brush(kind="pit")
    click(window.view, 5.5, 5.5)                        # a pit where robots may pass
    status = c.panel.setup.status.text()
    assert "round" not in status and "win" not in status
    assert "out of date" in status.lower()
    assert "out of date" in c.panel.setup.banner_text.text().lower()
    assert c.panel.setup.rerun_button.isVisible()
    with qtbot.waitSignal(c.worker.finished, timeout=5000):
        qtbot.mouseClick(c.panel.setup.rerun_button, Qt.LeftButton)
    assert c.playback.shown.seed == 4 and "round" in c.panel.setup.status.text()
    assert c.playback.shown.scenario.board.tile_at(5, 5).type == "pit"


def test_balance_sentences_and_bars_never_contradict_the_verdict(qtbot, preview, monkeypatch):
    """Dock 1 clearly above a fair share on its own, while all docks together
    show no clear bias: no "well above", no red bar, and one line on why."""
    real = balance_run.run_balance

    def lone_dock_apart(*args, **kwargs):
        result = real(*args, **kwargs)
        a, b, *rest = result["docks"]
        for d in rest:
            d.update(races=0, wins=0, win_rate=0.0, share=0.0, decided=0)
        a.update(races=40, wins=25, win_rate=0.625, ci=[0.51, 0.74], share=0.625,
                 share_ci=[0.51, 0.74], decided=40)
        b.update(races=40, wins=15, win_rate=0.375, ci=[0.26, 0.49], share=0.375,
                 share_ci=[0.26, 0.49], decided=40)
        result["fairness"].update(verdict="inconclusive", more_races_needed=120)
        result.update(races=40)                     # each of 40 races won: enough for a verdict
        result["completion"].update(decided=40)
        return result
    monkeypatch.setattr(balance_run, "run_balance", lone_dock_apart)
    window, c = preview()
    dialog = c.balance.open_dialog()
    dialog.races.setValue(4)
    dialog.robots.setValue(2)
    dialog.bot.setCurrentText("random")
    dialog.workers.setValue(1)
    with qtbot.waitSignal(dialog.resultReady, timeout=30000):
        qtbot.mouseClick(dialog.start_button, Qt.LeftButton)
    text = dialog.summary.text() + dialog.report_view.toPlainText()
    assert "Not settled" in dialog.verdict.text()
    assert "well above" not in text and "well below" not in text
    assert ("Dock 1 wins 62% of races, above the 50% of a fair course (95% interval 51% to 74%, "
            "40 races), though the course as a whole shows no clear bias.") in text
    assert "Why both:" in text
    from matplotlib.container import BarContainer
    axes = dialog.win_canvas.figure.axes[0]
    bars = next(c for c in axes.containers if isinstance(c, BarContainer)).patches[:2]
    colours = {tuple(round(v, 2) for v in bar.get_facecolor()[:3]) for bar in bars}
    assert colours == {(0.3, 0.47, 0.66)}               # one neutral blue: no dock called out
