"""A small coloured disc (a robot's, a team's, a test's pass or fail), as an
icon, with a number or letter on it if given; the colours of pass and fail."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QIcon, QPainter, QPixmap

PASS = QColor(40, 160, 70)
FAIL = QColor(210, 40, 40)


def swatch(color: str | QColor, size: int = 12, text: str = "") -> QIcon:
    pm = QPixmap(size, size)
    pm.fill(Qt.GlobalColor.transparent)
    p = QPainter(pm)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setPen(QColor(20, 22, 26))
    p.setBrush(QColor(color))
    p.drawEllipse(1, 1, size - 2, size - 2)
    if text:
        f = QFont()
        f.setPixelSize(int(size * 0.62))
        f.setBold(True)
        p.setFont(f)
        p.setPen(QColor(255, 255, 255))
        p.drawText(pm.rect(), Qt.AlignmentFlag.AlignCenter, text)
    p.end()
    return QIcon(pm)
