"""The factory boards a course records, outlined and named."""
from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QPainter, QPen

from rallyforge.drawing.text import bold_font, fit_text
from rallyforge.engine.model.scenario import Scenario


_OUTLINE = QColor(255, 214, 90, 200)


def paint_factory_boards(p: QPainter, scenario: Scenario, s: float) -> None:
    """The outline of each factory board of the course's ``boards``, dashed,
    with its name (and its turn as placed) in its top-left corner."""
    pen = QPen(_OUTLINE, max(1.0, s * 0.05), Qt.PenStyle.DashLine)
    for part in scenario.boards:
        rect = QRectF(part.x * s, part.y * s, part.width * s, part.height * s)
        p.setPen(pen)
        p.setBrush(Qt.BrushStyle.NoBrush)
        inset = pen.widthF() / 2
        p.drawRect(rect.adjusted(inset, inset, -inset, -inset))
        name = part.name + (f" ↻{90 * part.turn}°" if part.turn else "")
        font = bold_font(round(s * 0.28))
        width = QFontMetricsF(font).horizontalAdvance(name) + s * 0.3
        label = QRectF(rect.x() + s * 0.1, rect.y() + s * 0.1, min(width, rect.width() - s * 0.2),
                       s * 0.42)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(20, 22, 26, 190))
        p.drawRoundedRect(label, s * 0.1, s * 0.1)
        fit_text(p, label, name, s * 0.28, _OUTLINE)
