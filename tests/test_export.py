"""Exporting courses: PNG, SVG and real-size PDF files, the command line, and
atomic writes."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import replace

import pytest
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

from rallyforge.drawing import pictures as ex
from rallyforge.drawing import style
from rallyforge.editor.app import main
from rallyforge.engine.format.loader import save_file
from rallyforge.engine.model.scenario import Board, Dock, Flag, Laser, Level, Pusher, Scenario, Tile, Wall


def course(width: int = 12, height: int = 12, name: str = "Export test") -> Scenario:
    tiles = (Tile(1, 1, "conveyor", dir="E"), Tile(2, 1, "conveyor", dir="S", express=True),
             Tile(3, 3, "gear", rotation="ccw"), Tile(4, 4, "pit"),
             Tile(5, 5, "crusher", phases=(2, 4)), Tile(6, 6, "current", dir="W"))
    board = Board(width, height, tiles, walls=(Wall(0, 0, "N"), Wall(3, 2, "E")),
                  lasers=(Laser(0, 2, "E", 2),), pushers=(Pusher(5, 0, "S", (1, 3, 5)),))
    return Scenario(name, board, (Flag(width - 1, 0), Flag(0, height - 1)),
                    (Dock(1, height - 1, "N"), Dock(2, height - 1, "N")),
                    author="Tester", description="A course for export tests")


# The east half at level 1, reached by a ramp at (2, 1) up east.
LEVELLED = Scenario("Levels", Board(4, 2, (Tile(2, 1, "ramp", dir="E"),), levels=tuple(
    Level(x, y, 1) for x in (2, 3) for y in (0, 1))), (Flag(3, 0),), (Dock(0, 1, "E"),))


def pdf_pages(data: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", data))


def leftovers(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


# ---------------------------------------------------------------- PNG

def test_png_is_a_png_of_the_expected_size(qapp, tmp_path):
    out = tmp_path / "course.png"
    ex.export_png(course(12, 8), out, square_px=20)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    image = QImage(str(out))
    m = 2                                        # room for the outer walls' outline
    assert (image.width(), image.height()) == (240 + 2 * m, 160 + 2 * m)
    assert image.text("Title") == "Export test"
    x, y = style.sample_point("pit")
    assert image.pixelColor(m + int((4 + x) * 20), m + int((4 + y) * 20)).name() == \
        style.COLORS["pit"].name()
    assert leftovers(tmp_path) == []


def test_png_refuses_an_impossibly_large_image(qapp, tmp_path):
    with pytest.raises(ValueError, match="too large"):
        ex.export_png(course(100, 100), tmp_path / "huge.png", square_px=400)
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------- SVG

def test_svg_parses_with_title_and_description(qapp, tmp_path):
    out = tmp_path / "course.svg"
    ex.export_svg(course(), out, square_px=32)
    root = ET.parse(out).getroot()
    assert root.tag.endswith("svg")
    ns = {"svg": "http://www.w3.org/2000/svg"}
    assert root.find("svg:title", ns).text == "Export test"
    assert "12 x 12 squares" in root.find("svg:desc", ns).text
    assert root.get("viewBox").split() == ["0", "0", "388", "388"]     # and a 2-unit margin
    assert leftovers(tmp_path) == []


# ---------------------------------------------------------------- levels in every export

def _svg_image(path) -> QImage:
    svg = QSvgRenderer(str(path))
    image = QImage(svg.defaultSize(), QImage.Format_ARGB32_Premultiplied)
    image.fill(QColor("white"))
    painter = QPainter(image)
    svg.render(painter)
    painter.end()
    return image


@pytest.mark.parametrize("fmt", ["png", "svg"])
def test_png_and_svg_show_the_high_side_of_a_ledge(qapp, tmp_path, fmt):
    out = tmp_path / f"levels.{fmt}"
    getattr(ex, f"export_{fmt}")(LEVELLED, out, square_px=40)
    image = QImage(str(out)) if fmt == "png" else _svg_image(out)
    m = (image.width() - 4 * 40) // 2

    def light(x: float) -> int:                 # along row 0, x in squares
        return image.pixelColor(m + int(x * 40), m + 20).lightness()
    assert light(0.5) < light(2.5)              # the higher square is lighter
    assert light(1.95) < light(1.5) - 20        # a shadow on the low side of the ledge
    assert light(2.1) >= light(2.5)             # none on the high side


def _fill_alphas(data: bytes) -> set[bytes]:
    return set(re.findall(rb"/ca ([0-9.]+)", data))


def test_the_pdf_draws_ledge_shadows_translucent_without_gradients(qapp, tmp_path):
    """Qt's PDF output drops the alpha of gradients, which printed every
    shadow as a black bar: levels add translucent fills (the lift of higher
    squares, the shadow's steps), never a shading."""
    flat = replace(LEVELLED, board=replace(LEVELLED.board, levels=()))     # the ramp alone
    ex.export_pdf(LEVELLED, tmp_path / "levels.pdf")
    ex.export_pdf(flat, tmp_path / "flat.pdf")
    levelled = (tmp_path / "levels.pdf").read_bytes()
    assert b"/Shading" not in levelled
    assert _fill_alphas(levelled) > _fill_alphas((tmp_path / "flat.pdf").read_bytes())


# ---------------------------------------------------------------- PDF

def test_pdf_of_a_small_board_is_one_page(qapp, tmp_path):
    out = tmp_path / "small.pdf"
    assert ex.export_pdf(course(6, 6), out, square_mm=25) == 1
    data = out.read_bytes()
    assert data.startswith(b"%PDF")
    assert pdf_pages(data) == 1
    assert re.search(rb"/MediaBox\s*\[\s*0 0 595", data)            # A4 portrait


def test_pdf_of_a_large_board_is_split_over_pages(qapp, tmp_path):
    """20 x 12 squares of 25 mm = 500 x 300 mm: four A4 pages in landscape
    (two across, two down, each showing 277 x 180 mm, overlapping by 10 mm)."""
    out = tmp_path / "large.pdf"
    layout = ex.pdf_layout((500.0, 300.0))
    assert (layout.columns, layout.rows) == (2, 2)
    assert layout.window_mm == pytest.approx((297 - 20, 210 - 20 - ex.LABEL_MM), abs=0.5)
    assert ex.export_pdf(course(20, 12), out) == 4
    data = out.read_bytes()
    assert data.startswith(b"%PDF") and pdf_pages(data) == 4
    assert re.search(rb"/MediaBox\s*\[\s*0 0 84[12]", data)        # A4 landscape


def test_pdf_page_count_follows_the_square_size(qapp, tmp_path):
    out = tmp_path / "big.pdf"
    layout = ex.pdf_layout((40 * 25.0, 30 * 25.0))
    assert layout.pages == 18                    # portrait: 6 across, 3 down
    assert ex.export_pdf(course(40, 30), out, square_mm=25.0) == 18
    assert pdf_pages(out.read_bytes()) == 18
    assert ex.export_pdf(course(40, 30), out, square_mm=4.0) == 1


@pytest.mark.parametrize("board_mm", [(100.0, 100.0), (500.0, 300.0), (2500.0, 2500.0),
                                      (190.0, 50.0), (191.0, 50.0)])
def test_pdf_windows_cover_the_board_with_overlap(board_mm):
    layout = ex.pdf_layout(board_mm)
    for extent, window, step, count in zip(board_mm, layout.window_mm, layout.step_mm,
                                           (layout.columns, layout.rows)):
        assert step <= window - ex.OVERLAP_MM + 1e-9                  # pages overlap enough
        assert (count - 1) * step + window >= extent - 1e-6          # everything printed
        assert count == 1 or (count - 2) * step + window < extent    # no empty page
        if count > 1:                                                # shared out evenly:
            assert (count - 1) * step + window == pytest.approx(extent)   # no sliver page


def test_pdf_rejects_silly_square_sizes(qapp, tmp_path):
    with pytest.raises(ValueError, match="between"):
        ex.export_pdf(course(), tmp_path / "x.pdf", square_mm=0.1)


# ---------------------------------------------------------------- by extension, atomically

def test_export_picks_the_format_by_extension(qapp, tmp_path):
    for name, magic in (("a.PNG", b"\x89PNG"), ("b.svg", b"<?xml"), ("c.pdf", b"%PDF")):
        ex.export(course(4, 4), tmp_path / name)
        assert (tmp_path / name).read_bytes().startswith(magic), name
    with pytest.raises(ValueError, match=r"\.png, \.svg or \.pdf"):
        ex.export(course(4, 4), tmp_path / "d.jpg")
    assert not (tmp_path / "d.jpg").exists()


def test_a_failed_export_leaves_the_old_file_and_no_temporary(qapp, tmp_path, monkeypatch):
    out = tmp_path / "course.pdf"
    out.write_bytes(b"old")

    def broken(*args, **kwargs):
        raise RuntimeError("paint failed")

    monkeypatch.setattr(ex, "paint_board", broken)
    for exporter in (ex.export_pdf, ex.export_svg, ex.export_png):
        with pytest.raises(RuntimeError):
            exporter(course(), out)
    assert out.read_bytes() == b"old"
    assert leftovers(tmp_path) == []


# ---------------------------------------------------------------- the command line

@pytest.fixture
def course_file(tmp_path):
    path = tmp_path / "course.json"
    save_file(course(), path)
    return path


@pytest.mark.parametrize("ext, magic", [("png", b"\x89PNG"), ("svg", b"<?xml"), ("pdf", b"%PDF")])
def test_cli_exports(qapp, tmp_path, course_file, ext, magic, capsys):
    out = tmp_path / f"out.{ext}"
    assert main(["--export", str(course_file), str(out), "--square-mm", "20"]) == 0
    assert out.read_bytes().startswith(magic)
    assert leftovers(tmp_path) == []
    assert "exported" in capsys.readouterr().out


def test_cli_square_size_changes_the_pdf(qapp, tmp_path, course_file):
    out = tmp_path / "out.pdf"
    assert main(["--export", str(course_file), str(out), "--square-mm", "30"]) == 0
    assert pdf_pages(out.read_bytes()) == 4
    assert main(["--export", str(course_file), str(out), "--square-mm", "10"]) == 0
    assert pdf_pages(out.read_bytes()) == 1


def test_cli_bad_file_is_a_one_line_error(qapp, tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "rally-scenario", "version": 1', encoding="utf-8")
    out = tmp_path / "out.png"
    assert main(["--export", str(bad), str(out)]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "bad.json" in err and "not valid JSON" in err
    assert not out.exists()
    assert main(["--export", str(tmp_path / "missing.json"), str(out)]) == 1
    assert "no such file" in capsys.readouterr().err


def test_cli_invalid_course_is_an_error(qapp, tmp_path, capsys):
    path = tmp_path / "invalid.json"
    path.write_text('{"format": "rally-scenario", "version": 1, "name": "x", '
                    '"board": {"width": 3, "height": 3}, "flags": [], "docks": []}',
                    encoding="utf-8")
    assert main(["--export", str(path), str(tmp_path / "out.svg")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "invalid.json" in err


def test_cli_bad_extension(qapp, tmp_path, course_file, capsys):
    assert main(["--export", str(course_file), str(tmp_path / "out.jpg")]) == 1
    err = capsys.readouterr().err
    assert ".png, .svg or .pdf" in err and err.count("\n") == 1
    assert not (tmp_path / "out.jpg").exists()


def test_cli_unwritable_target(qapp, tmp_path, course_file, capsys):
    assert main(["--export", str(course_file), str(tmp_path / "no" / "such" / "out.png")]) == 1
    assert "cannot export" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["--export", "only-one.json"], ["a.json", "--export", "b.json",
                                  "c.png"], ["--square-mm", "20"], ["--export", "a.json", "b.pdf",
                                  "--square-mm", "-3"], ["--bogus"]])
def test_cli_bad_usage_is_2(argv, capsys):
    assert main(argv) == 2
    assert "usage" in capsys.readouterr().err


def test_cli_opens_the_window(qapp, course_file):
    from PySide6.QtCore import QTimer

    from rallyforge.editor.main_window import MainWindow

    def quit_once_shown():
        # (The window reads its file in an event loop of its own before it is
        # shown: leave that one alone, end the application's.)
        if any(isinstance(w, MainWindow) and w.isVisible() for w in qapp.topLevelWidgets()):
            qapp.exit(0)
        else:
            QTimer.singleShot(0, quit_once_shown)
    QTimer.singleShot(0, quit_once_shown)
    assert main([str(course_file)]) == 0
    assert qapp.applicationName() == "Rally Forge"
    assert any(isinstance(w, MainWindow) and w.doc.path == str(course_file)
               for w in qapp.topLevelWidgets())
    for widget in qapp.topLevelWidgets():
        widget.close()
