"""The editor's responsiveness (offscreen, software rendering), with the goals
the tests used to assert before timing left the unit suite:

- painting a 100x100 course with every element, at 16 and 64 px per square;
- a brush drag over 50 squares of a 24x28 course, with the repaint: < 2 s;
- the preview on the factory course: a race of 8 search robots ready to
  play < 1 s, one animation frame of the robot overlay < 16.7 ms (60 fps);
- the balance check: Cancel answered < 1 s, closing the window stops its
  worker < 1 s, and the window never frozen > 0.25 s during a run (timer
  ticks every 10 ms; at least ten a second).

    python -m bench.bench_editor
"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FACTORY = ROOT / "tests" / "fixtures" / "preview" / "factory.json"


def _app():
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication
    return QApplication.instance() or QApplication([])


def _window(path=None, scenario=None):
    from rallyforge.editor.main_window import MainWindow
    app = _app()
    window = MainWindow(path=str(path) if path else None)
    if scenario is not None:
        window.doc.reset(scenario, None)
    window.show()
    app.processEvents()
    window.view.fit()
    app.processEvents()
    return window


def _close(window) -> None:
    from PySide6.QtCore import QCoreApplication, QEvent
    window.deleteLater()
    # processEvents() outside an event loop never runs a deferred delete:
    # the window, and the lock on its course's backup, would stay
    QCoreApplication.sendPostedEvents(None, QEvent.DeferredDelete)
    _app().processEvents()


def _wait(condition, timeout: float = 60.0) -> float:
    """Process events until `condition()`; the seconds it took."""
    app, t0 = _app(), time.perf_counter()
    while not condition():
        app.processEvents()
        if time.perf_counter() - t0 > timeout:
            raise TimeoutError("the editor did not answer in time")
        time.sleep(0.001)
    return time.perf_counter() - t0


def paint_times(n: int = 100, squares=(16, 64)) -> list[tuple[int, float]]:
    """Seconds to paint the n x n course of every element at each square size."""
    from PySide6.QtGui import QImage, QPainter

    from rallyforge.drawing.board import paint_board
    from tests.test_render import big_course
    _app()
    scenario = big_course(n)
    out = []
    for square in squares:
        image = QImage(n * square, n * square, QImage.Format_ARGB32_Premultiplied)
        painter = QPainter(image)
        t0 = time.perf_counter()
        paint_board(painter, scenario, square=square)
        out.append((square, time.perf_counter() - t0))
        painter.end()
    return out


def brush_drag_time() -> float:
    """Seconds for a conveyor brush drag over 50 squares of an empty 24x28 course."""
    from rallyforge.editor.document import empty_scenario
    from tests.editor_support import centre, drag
    window = _window(scenario=empty_scenario(24, 28))
    window.set_tool("brush")
    window.state.set_brush(kind="conveyor", dir="E")
    squares = ([(x, 3) for x in range(24)] + [(x, 4) for x in reversed(range(24))]
               + [(0, 5), (1, 5)])
    points = [centre(window.view, s) for s in squares]
    t0 = time.perf_counter()
    drag(window.view, points)
    window.view.viewport().repaint()
    took = time.perf_counter() - t0
    _close(window)
    return took


def preview_times(robots: int = 8) -> tuple[float, float]:
    """(seconds until a race of `robots` search robots is ready to play as the
    worker measures it, ms per overlay frame over 200 frames x 4 steps)."""
    from rallyforge.editor.preview import install_preview
    window = _window(FACTORY)
    c = install_preview(window)
    c.panel.setup.robot_count.setValue(robots)
    c.panel.setup.seed.setValue(5)
    c.panel.setup.all_bots.setCurrentText("search")
    c.panel.setup.all_bots.activated.emit(c.panel.setup.all_bots.currentIndex())
    c.run_race()
    _wait(lambda: c.playback.timeline is not None and not c.worker.busy)
    ready = c.playback.shown.elapsed_s
    n, t0 = 0, time.perf_counter()
    for f in c.playback.timeline.frames[:200]:
        for u in (0.25, 0.5, 0.75, 1.0):
            c.overlay.show(f.index, u)
            n += 1
    per = (time.perf_counter() - t0) / n * 1e3
    c.shutdown()
    _close(window)
    return ready, per


def balance_dialog(window, races: int, bot: str):
    from rallyforge.editor.preview import install_preview
    c = install_preview(window)
    c.panel.setup.robot_count.setValue(4)
    dialog = c.balance.open_dialog()
    dialog.races.setValue(races)
    dialog.bot.setCurrentText(bot)
    dialog.workers.setValue(1)
    return c, dialog


def cancel_time() -> float:
    """Seconds from Cancel to the (cancelled) result of a long balance run."""
    window = _window(FACTORY)
    c, dialog = balance_dialog(window, 20_000, "search")
    results = []
    dialog.resultReady.connect(results.append)
    dialog.start_button.click()
    _wait(lambda: dialog.progress.value() > 0)
    t0 = time.perf_counter()
    dialog.cancel_button.click()
    _wait(lambda: results)
    took = time.perf_counter() - t0
    c.shutdown()
    _close(window)
    return took


def close_time() -> float:
    """Seconds for the preview to stop a running balance check when the window goes."""
    window = _window(FACTORY)
    c, dialog = balance_dialog(window, 20_000, "random")
    dialog.start_button.click()
    _wait(lambda: dialog.running)
    t0 = time.perf_counter()
    c.shutdown()
    took = time.perf_counter() - t0
    _close(window)
    return took


def responsiveness(races: int = 60) -> tuple[float, float, float]:
    """(run seconds, timer ticks per second, longest gap between ticks in s)
    while a balance check of `races` search races runs in its worker."""
    from PySide6.QtCore import QTimer
    window = _window(FACTORY)
    c, dialog = balance_dialog(window, races, "search")
    ticks: list[float] = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    timer.start(10)
    results = []
    dialog.resultReady.connect(results.append)
    t0 = time.perf_counter()
    dialog.start_button.click()
    took = _wait(lambda: results)
    timer.stop()
    during = [t for t in ticks if t0 <= t <= t0 + took]
    gaps = [b - a for a, b in zip([t0, *during], [*during, t0 + took])]
    c.shutdown()
    _close(window)
    return took, len(during) / took, max(gaps)


def main(argv: list[str] | None = None) -> None:
    del argv
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    paints = paint_times()
    print("  100x100 course with every element painted: " + ", ".join(
        f"{s} px/square {t * 1e3:.0f} ms" for s, t in paints))
    print(f"  brush drag over 50 squares on 24x28: {brush_drag_time() * 1e3:.0f} ms"
          "  goal < 2000 ms")
    ready, per = preview_times()
    print(f"  factory course, 8 search robots: ready to play in {ready * 1e3:.0f} ms"
          f"  goal < 1000 ms; robot overlay {per:.2f} ms per frame  goal < 16.7 ms")
    print(f"  balance check: Cancel answered in {cancel_time() * 1e3:.0f} ms  goal < 1000 ms")
    print(f"  closing the window stops the check in {close_time() * 1e3:.0f} ms"
          "  goal < 1000 ms")
    took, rate, gap = responsiveness()
    print(f"  during a {took:.1f} s check the window ticked {rate:.0f} times a second, "
          f"longest pause {gap * 1e3:.0f} ms  goals >= 10 a second, pause < 250 ms")


if __name__ == "__main__":
    main()
