"""Exports from the window: whole outer walls in PNG and SVG, and a PDF that
turns and splits its pages to need as few as it can, on A4, Letter or A3."""
import re
import xml.etree.ElementTree as ET

from PySide6.QtGui import QColor, QImage

from rallyforge.drawing import pictures as export
from rallyforge.drawing import style
from rallyforge.drawing.walls import edge_margin
from rallyforge.engine.model.scenario import Board, Dock, Flag, Laser, Pusher, Scenario, Wall
from tests.editor_support import answers, make_window  # noqa: F401

EDGES = Scenario("Edges", Board(4, 4, walls=(Wall(0, 0, "N"), Wall(1, 0, "N"), Wall(3, 2, "E"),
                                             Wall(1, 3, "S"), Wall(0, 2, "W")),
                                lasers=(Laser(0, 1, "E", 2),),
                                pushers=(Pusher(3, 0, "W", (1, 3)), Pusher(2, 3, "N", (2,)))),
                 (Flag(2, 2),), (Dock(1, 1, "N"),))


def exported(w, answers, tmp_path, fmt, **options):
    answers.save_path = str(tmp_path / f"edges.{fmt}")
    for key, value in options.items():
        setattr(answers, key, value)
    w.menus.actions[f"export_{fmt}"].trigger()
    return tmp_path / f"edges.{fmt}"


def dark(color: QColor) -> bool:
    return color.alpha() > 200 and max(color.red(), color.green(), color.blue()) < 80


def test_png_and_svg_show_outer_walls_whole(make_window, answers, tmp_path):
    w = make_window(scenario=EDGES)
    image = QImage(str(exported(w, answers, tmp_path, "png")))
    m = (image.width() - 4 * 64) // 2
    assert m >= 2 and image.height() == 4 * 64 + 2 * m           # room all round the board
    # each outer wall has its dark outline on the outside too, as inner walls have on both sides
    assert dark(image.pixelColor(m + 96, m - 1))                     # N of (1, 0)
    assert dark(image.pixelColor(m - 1, m + 160))                    # W of (0, 2)
    assert dark(image.pixelColor(m + 96, m + 256))                   # S of (1, 3)
    assert dark(image.pixelColor(m + 256, m + 160))                  # E of (3, 2)
    yellow = style.COLORS["wall"]
    assert image.pixelColor(m + 96, m + 3).name() == yellow.name()   # the band itself inside
    root = ET.parse(exported(w, answers, tmp_path, "svg")).getroot()
    view = [float(v) for v in root.get("viewBox").split()]
    assert view[2] == view[3] == 4 * 64 + 2 * m


def pdf_pages(path) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", path.read_bytes()))


def test_pdf_needs_as_few_pages_as_it_can_with_a_choice_of_paper(make_window, answers, tmp_path):
    from rallyforge.editor.document import empty_scenario
    w = make_window(scenario=empty_scenario(12, 12))
    out = exported(w, answers, tmp_path, "pdf", square_mm=25.0, paper="A3")
    assert pdf_pages(out) == 2                                       # 30 cm square on A3
    assert re.search(rb"/MediaBox\s*\[\s*0 0 119[01]", out.read_bytes())     # A3 landscape:
    # one page across, two down, fuller pages than two across in portrait
    out = exported(w, answers, tmp_path, "pdf", paper="Letter")
    assert re.search(rb"/MediaBox\s*\[\s*0 0 (612|792)", out.read_bytes())    # Letter
    out = exported(w, answers, tmp_path, "pdf", paper="A4")
    assert pdf_pages(out) == 4
    # the four A4 pages share the board out evenly: no page with a sliver of two rows
    edge = 2 * edge_margin(25.0)
    layout = export.pdf_layout((300 + edge, 300 + edge))
    for extent, window, step in zip((300 + edge,) * 2, layout.window_mm, layout.step_mm):
        last = extent - step                                         # what the second page shows
        assert last == window                                        # as much as the first
        assert window - step >= export.OVERLAP_MM
