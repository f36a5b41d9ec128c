"""Stamps: cached pixmaps on raster devices, vectors elsewhere."""
from __future__ import annotations

import math
from collections import OrderedDict

from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage, QPaintEngine, QPainter, QPixmap, QTransform

from rallyforge.drawing.painters import PAINTERS
from rallyforge.drawing.style import GRID


_VECTOR_ENGINES = {QPaintEngine.Type.SVG, QPaintEngine.Type.Pdf, QPaintEngine.Type.Picture}
_MAX_CACHED_PX = 320
_CACHE_BUDGET = 96 * 1024 * 1024     # bytes of cached pixmaps
_PIXMAPS: OrderedDict[tuple, QPixmap] = OrderedDict()
_cache_bytes = 0


def pixmap(key: tuple, px: int, grid: bool = False) -> QPixmap:
    """The stamp `key` drawn into a transparent pixmap of px x px device
    pixels; with `grid`, the grid lines on its top and left edges too."""
    global _cache_bytes
    cache_key = (px, grid, key)
    pix = _PIXMAPS.get(cache_key)
    if pix is not None:
        _PIXMAPS.move_to_end(cache_key)
        return pix
    image = QImage(px, px, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(0)
    p = QPainter(image)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    PAINTERS[key[0]](p, float(px), *key[1:])
    if grid:
        p.fillRect(QRectF(0, 0, px, 1), GRID)
        p.fillRect(QRectF(0, 1, 1, px - 1), GRID)
    p.end()
    pix = QPixmap.fromImage(image)
    _PIXMAPS[cache_key] = pix
    _cache_bytes += px * px * 4
    while _cache_bytes > _CACHE_BUDGET and len(_PIXMAPS) > 1:
        _, old = _PIXMAPS.popitem(last=False)
        _cache_bytes -= old.width() * old.height() * 4
    return pix


class Stamper:
    """Puts stamps on squares: cached pixmaps on raster devices, vectors elsewhere."""

    def __init__(self, painter: QPainter, s: float):
        self.p = painter
        self.s = s
        t = painter.deviceTransform()
        engine = painter.paintEngine()
        px = s * math.hypot(t.m11(), t.m12())       # device pixels per square
        turned = (t.type().value > QTransform.TransformationType.TxScale.value
                  or abs(abs(t.m11()) - abs(t.m22())) > 1e-6)
        self.vector = (engine is None or engine.type() in _VECTOR_ENGINES or turned
                       or px > _MAX_CACHED_PX)
        self.px = max(1, round(px))

    def stamp(self, key: tuple, x: float, y: float) -> None:
        s, p = self.s, self.p
        if self.vector:
            p.save()
            p.translate(x * s, y * s)
            PAINTERS[key[0]](p, s, *key[1:])
            p.restore()
        else:
            p.drawPixmap(QRectF(x * s, y * s, s, s), pixmap(key, self.px),
                         QRectF(0, 0, self.px, self.px))
