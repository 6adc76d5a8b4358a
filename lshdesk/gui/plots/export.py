"""Save any pyqtgraph plot as SVG or PNG through ``scene().render``, with its items in export mode; the one export
path of every plot (S-curve, bucket sizes, the lessons and experiments), and its context-menu action.

Not pyqtgraph's own exporters: its SVG exporter fails on the closed paths Qt 6.11 writes ("ValueError: not enough
values to unpack" in ``correctCoordinates``, pyqtgraph issue #3485), and its PNG exporter scales the axes' text but
not a legend's. Export mode makes scatter symbols draw as vectors instead of cached pixmaps. The file shows the plot
as on screen, background included (white, or dark under a dark palette). The picture is drawn in memory and
written atomically: a failed export leaves an existing file as it was.
"""

from __future__ import annotations

from collections.abc import Callable

import pyqtgraph as pg
import pyqtgraph.exporters
from PySide6.QtCore import QBuffer, QIODevice, QPoint, QRectF, QSize, Qt
from PySide6.QtGui import QAction, QColor, QImage, QPainter
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from lshdesk.core.persistence.atomic import write_atomic

EXPORT_FILTER = "PNG image (*.png);;SVG drawing (*.svg)"


def export_item(
    view: pg.GraphicsView,
    item,
    path: str,
    scale: float = 2.0,
    title: str = "",
    description: str = "",
    heading: str = "",
) -> None:
    """Save ``item`` (e.g. a GraphicsLayoutWidget's ``ci``) as SVG, or as PNG at ``scale`` x its on-screen size;
    a ``heading`` (what the plot shows and its parameters) is written above it, the plot itself left as it is."""
    source = item.sceneBoundingRect()
    w, plot_h = int(source.width()), int(source.height())
    fm, pad = view.fontMetrics(), view.fontMetrics().height() // 2
    flags = Qt.TextFlag.TextWordWrap
    head = fm.boundingRect(0, 0, max(w - 2 * pad, 1), 10_000, flags, heading).height() + 2 * pad if heading else 0
    h = plot_h + head
    background = (
        view.backgroundBrush().color() if view.backgroundBrush().style() != Qt.BrushStyle.NoBrush else QColor("white")
    )
    device, buffer = _device(path, w, h, scale, background, view.logicalDpiX(), title, description)
    target = QRectF(0, head, w, plot_h)
    modes = pg.exporters.ImageExporter(item)  # only for its setExportMode over every painted item
    painter = QPainter(device)
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        modes.setExportMode(
            True, {"antialias": True, "background": background, "painter": painter, "resolutionScale": 1.0}
        )
        painter.fillRect(QRectF(0, 0, w, h), background)
        if heading:
            painter.setPen(_ink(background))
            painter.setFont(view.font())
            painter.drawText(QRectF(pad, pad, w - 2 * pad, head - pad), flags, heading)
        view.scene().render(painter, target, source)
    finally:
        modes.setExportMode(False)
        painter.end()
    _write(device, buffer, path)


def _device(path: str, w: int, h: int, scale: float, background: QColor, dpi: int, title: str, description: str = ""):
    """What to paint on, in memory: an SVG generator (by the extension) or an image at ``scale``; and its buffer."""
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if path.lower().endswith(".svg"):
        device = QSvgGenerator()
        device.setOutputDevice(buffer)
        device.setResolution(dpi)  # as on screen, or fonts and pixel-sized items drift apart
        device.setSize(QSize(w, h))
        device.setViewBox(QRectF(0, 0, w, h))
        device.setTitle(title)
        device.setDescription(description)
        return device, buffer
    image = QImage(int(w * scale), int(h * scale), QImage.Format.Format_ARGB32)
    image.setDevicePixelRatio(scale)
    image.fill(background)
    return image, buffer


def _write(device, buffer: QBuffer, path: str) -> None:
    """The painted picture to ``path``, atomically (an OSError says why it could not be)."""
    # the format as str: PySide refuses the bytes its type stub asks for
    if isinstance(device, QImage) and not device.save(buffer, "PNG"):  # type: ignore[call-overload]
        raise OSError(f"cannot draw the picture as PNG for {path}")
    data = bytes(buffer.data().data())
    if not data:
        raise OSError(f"cannot draw the picture for {path}")
    write_atomic(path, data)


def _ink(background: QColor) -> QColor:
    """Black or white text, whichever reads on the plot's background."""
    return QColor("#161616") if background.lightness() >= 128 else QColor("#f4f4f4")


def export_plot(
    view: pg.GraphicsView, path: str, title: str = "", description: str = "", scale: float = 2.0, heading: str = ""
) -> None:
    """Save a PlotWidget's plot, or everything in a GraphicsLayoutWidget, as PNG or SVG (by the extension)."""
    item = view.ci if isinstance(view, pg.GraphicsLayoutWidget) else view.getPlotItem()
    export_item(view, item, path, scale, title, description, heading)


def choose_path(parent: QWidget, caption: str, name: str) -> str:
    """Ask where to save (PNG or SVG); '' if cancelled. A name typed without an extension gets the chosen filter's."""
    path, chosen = QFileDialog.getSaveFileName(parent, caption, f"{name}.png", EXPORT_FILTER)
    if path and not path.lower().endswith((".png", ".svg")):
        path += ".svg" if "svg" in chosen.lower() else ".png"
    return path


def choose_and_export(parent: QWidget, export: Callable[[str], None], name: str, caption: str) -> str:
    """Ask for a file and write it with ``export(path)``; a failure is shown in a (non-blocking) message box.
    Returns the path written, or ''."""
    path = choose_path(parent, caption, name)
    if not path:
        return ""
    try:
        export(path)
    except OSError as e:
        QMessageBox(
            QMessageBox.Icon.Warning, "Export failed", f"Cannot write {path}: {e.strerror or e}", parent=parent
        ).open()
        return ""
    return path


def add_export_action(view: pg.GraphicsView, export: Callable[[str], None], name: str, caption: str) -> QAction:
    """Give a plot view a right-click menu with 'Export plot as PNG or SVG…' (pyqtgraph's own menus are switched off:
    their exporters are the ones that fail)."""
    for item in view.scene().items():
        if isinstance(item, pg.PlotItem):
            item.setMenuEnabled(False)
    action = QAction("Export plot as PNG or SVG…", view)
    action.triggered.connect(lambda: choose_and_export(view, export, name, caption))
    view.addAction(action)
    view.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
    return action


def export_widget(widget: QWidget, path: str, title: str, scale: float = 2.0) -> None:
    """Save a widget as drawn (a lesson's table or tables) under a title line, as PNG (at ``scale``) or SVG."""
    fm = widget.fontMetrics()
    pad = fm.height() // 2
    head = fm.boundingRect(0, 0, widget.width(), 10_000, Qt.TextFlag.TextWordWrap, title).height() + 2 * pad
    w, h = widget.width(), widget.height() + head
    background = widget.palette().color(widget.backgroundRole())
    device, buffer = _device(path, w, h, scale, background, widget.logicalDpiX(), title)
    painter = QPainter(device)
    try:
        painter.fillRect(QRectF(0, 0, w, h), background)
        painter.setPen(widget.palette().color(widget.foregroundRole()))
        painter.setFont(widget.font())
        painter.drawText(QRectF(pad, pad, w - 2 * pad, head - pad), Qt.TextFlag.TextWordWrap, title)
        widget.render(painter, QPoint(0, head))
    finally:
        painter.end()
    _write(device, buffer, path)
