"""Save a pyqtgraph layout as SVG or PNG through ``scene().render``, with its items in export mode.

Not pyqtgraph's own exporters: its SVG exporter fails on the closed paths Qt 6.11 writes ("ValueError: not enough
values to unpack" in ``correctCoordinates``, pyqtgraph issue #3485), and its PNG exporter scales the axes' text but
not a legend's. Export mode makes scatter symbols draw as vectors instead of cached pixmaps.
"""

from __future__ import annotations

import pyqtgraph as pg
import pyqtgraph.exporters
from PySide6.QtCore import QRectF, QSize
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtSvg import QSvgGenerator


def export_item(view: pg.GraphicsView, item, path: str, scale: float = 2.0, title: str = "", description: str = "") -> None:
    """Save ``item`` (e.g. a GraphicsLayoutWidget's ``ci``) as SVG, or as PNG at ``scale`` x its on-screen size."""
    source = item.sceneBoundingRect()
    w, h = int(source.width()), int(source.height())
    if path.lower().endswith(".svg"):
        device = QSvgGenerator()
        device.setFileName(path)
        device.setResolution(view.logicalDpiX())  # as on screen, or fonts and pixel-sized items drift apart
        device.setSize(QSize(w, h))
        device.setViewBox(QRectF(0, 0, w, h))
        device.setTitle(title)
        device.setDescription(description)
    else:
        device = QImage(int(w * scale), int(h * scale), QImage.Format.Format_ARGB32)
        device.setDevicePixelRatio(scale)
        device.fill(QColor("white"))
    target = QRectF(0, 0, w, h)
    modes = pg.exporters.ImageExporter(item)  # only for its setExportMode over every painted item
    painter = QPainter(device)
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        modes.setExportMode(True, {"antialias": True, "background": QColor("white"), "painter": painter,
                                   "resolutionScale": 1.0})
        painter.fillRect(target, QColor("white"))
        view.scene().render(painter, target, source)
    finally:
        modes.setExportMode(False)
        painter.end()
    if isinstance(device, QImage) and not device.save(path):
        raise OSError(f"cannot write {path}")
