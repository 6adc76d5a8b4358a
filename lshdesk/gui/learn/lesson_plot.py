"""A lesson's plot: the palette's colours, fonts that follow the page's zoom, export with a title and parameters."""

from __future__ import annotations

from collections.abc import Callable

import pyqtgraph as pg
from PySide6.QtCore import QSize
from PySide6.QtWidgets import QWidget

from lshdesk.gui.plots.export import add_export_action, export_plot
from lshdesk.gui.theme import plot_colors, style_plot_item, watch_palette

MIN_LINES = 14  # a plot's least height in lines of its font: axes, a legend row or two, and room for the data


class Plot(pg.PlotWidget):
    """A lesson's plot in the palette's colours, whose size hint is modest so a page's text and controls fit above
    it; right-click exports it as PNG or SVG."""

    def __init__(self, height: int = 260, name: str = "plot", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._height = height
        self.setMinimumHeight(height - 40)
        self.showGrid(x=True, y=True, alpha=0.25)
        self.name = name
        self.setAccessibleName(name.replace("_", " ").capitalize() + " plot")
        self.restyle()
        self.apply_font()
        watch_palette(self, self.restyle)
        add_export_action(self, self.export, name, "Export the plot")

    def legend_below(self, columns: int = 3) -> pg.LegendItem:
        """A legend in its own row under the plot (it never covers a curve, at any zoom), in the exports too."""
        item = self.getPlotItem()
        legend = pg.LegendItem(offset=None, colCount=columns)
        item.layout.addItem(legend, 4, 1)
        item.legend = legend  # the plot's named items go into it, and apply_font sizes it
        for data in item.listDataItems():  # those named before the legend was made
            if data.name():
                legend.addItem(data, data.name())
        self.restyle()
        self.apply_font()
        return legend

    def addLegend(self, *args, **kwargs):
        legend = self.getPlotItem().addLegend(*args, **kwargs)
        self.restyle()
        self.apply_font()
        return legend

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == event.Type.FontChange:
            self.apply_font()

    def apply_font(self) -> None:
        """Axes (ticks and titles), the legend and text items in the widget's font size (zoom, a 16 pt desktop); at
        least ``MIN_LINES`` lines of that font tall, so that large text never squeezes the curves out."""
        font = self.font()
        self.setMinimumHeight(max(self._height - 40, MIN_LINES * self.fontMetrics().height()))
        pt = f"{font.pointSizeF():g}pt"
        item = self.getPlotItem()
        for name in ("bottom", "left"):
            axis = item.getAxis(name)
            axis.setStyle(tickFont=font)
            axis.labelStyle = {**axis.labelStyle, "font-size": pt}
            axis._updateLabel()
        if item.legend is not None:
            item.legend.setLabelTextSize(pt)
            for _, label in item.legend.items:
                label.setText(label.text)  # setLabelTextSize alone does not redraw the labels
            item.legend.updateSize()
        for it in self.scene().items():
            if isinstance(it, pg.TextItem):
                it.setFont(font)

    def restyle(self) -> None:
        if getattr(self, "closed", False):  # pyqtgraph's close() has deleted the scene's items
            return
        c = plot_colors()
        self.setBackground(c.background)
        style_plot_item(self.getPlotItem(), c)

    title_fn: Callable[[], str] | None = None  # the page's title with its parameters, drawn on exported plots

    def export(self, path: str) -> None:
        """Save the plot as PNG or SVG (by the extension), headed with what it shows and its parameters."""
        title = self.title_fn() if self.title_fn is not None else self.name.replace("_", " ")
        export_plot(self, path, title, f"lshdesk: {title}", heading=title)

    def sizeHint(self) -> QSize:
        return QSize(600, self._height)


def unit_plot(height: int, name: str, x_label: str, y_label: str) -> Plot:
    """A lesson's plot of quantities between 0 and 1 on both axes (similarities, probabilities)."""
    plot = Plot(height, name)
    plot.setLabel("bottom", x_label)
    plot.setLabel("left", y_label)
    plot.setXRange(0, 1, padding=0.02)
    plot.setYRange(0, 1, padding=0.02)
    return plot
