"""Text in the style: bold, centred, shrunk until it fits."""
from __future__ import annotations

from functools import lru_cache

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter


@lru_cache(maxsize=64)
def bold_font(pixels: int) -> QFont:
    font = QFont("DejaVu Sans")
    font.setStyleHint(QFont.StyleHint.SansSerif)
    font.setBold(True)
    font.setPixelSize(max(1, pixels))
    return font


def fit_text(p: QPainter, rect: QRectF, text: str, size: float, color: QColor) -> None:
    """Text centred in rect, in a bold font of `size` pixels, made smaller
    until every line fits the rect's width."""
    font = bold_font(round(size))
    while font.pixelSize() > 4:
        metrics = QFontMetricsF(font)
        if max(metrics.horizontalAdvance(line) for line in text.split("\n")) <= rect.width():
            break
        font = bold_font(font.pixelSize() - 1)
    p.setFont(font)
    p.setPen(color)
    p.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)


def phases_text(phases, vertical: bool = False) -> str:
    """Register numbers: "1 3 5", closer together when there are many, or one
    per line."""
    if vertical:
        return "\n".join(str(n) for n in phases)
    return (" " if len(phases) <= 3 else "\u2009").join(str(n) for n in phases)
