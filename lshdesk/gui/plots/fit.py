"""Fitting the S-curve plot to its room: legend columns, a legend that steps aside, a title that elides.

pyqtgraph makes a legend's and a title's natural width the plot's minimum: past the view's width, the view showed
the plot cut on the right (at 1024 x 768 the x axis ended near 0.85). Both are fitted on every resize.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QFontMetrics

MIN_PLOT_HEIGHT = 240  # the plot keeps this much height; below it the legend steps aside
MARGIN = 16  # pixels the legend leaves free across the plot's width
TITLE_ROOM = 130  # pixels beside the title: the left axis (~90) and the layout's margins
LEGEND_WORDS = (
    "line: P(J) of this scheme; star: its threshold; shaded: false-positive and false-negative areas; circles: "
    "candidate pairs; crosses: missed pairs; triangles: other pairs; squares: measured rate per bin"
)


def fit_legend(plot) -> None:
    """As many legend columns as fit the width; the legend steps aside (its words go to the tooltip) where even one
    column is too wide or the plot would fall below ``MIN_PLOT_HEIGHT``."""
    legend, width = plot.legend, plot.width() - MARGIN
    for cols in (3, 2, 1):
        if cols != legend.columnCount:
            legend.setColumnCount(cols)
        if legend.layout.effectiveSizeHint(Qt.SizeHint.PreferredSize).width() <= width:
            break
    natural = legend.layout.effectiveSizeHint(Qt.SizeHint.PreferredSize)  # whether shown or not
    show = plot.height() - natural.height() >= MIN_PLOT_HEIGHT and natural.width() <= width
    if show != legend.isVisible():
        legend.setVisible(show)  # it stays in the layout (and the scene); its row folds to nothing
        legend.setMaximumSize(1e6 if show else 0, 1e6 if show else 0)  # folded away: no height, no width
        legend.setMinimumHeight(0)
        plot.ci.layout.setRowSpacing(0, 5 if show else 0)
        plot.setToolTip("" if show else "The legend is hidden to keep the plot whole: " + LEGEND_WORDS)


def show_title(plot, title: str, color: str) -> None:
    """``title`` on the plot, elided to its width (the whole text in the tooltip of an elided one is not needed:
    the side panel says the same)."""
    font = QFont()
    font.setPointSize(10)
    room = max(80, plot.width() - TITLE_ROOM)
    shown = QFontMetrics(font).elidedText(title, Qt.TextElideMode.ElideRight, room)
    plot.plot_item.setTitle(shown, color=color, size="10pt")
    plot.ci.setGeometry(plot.range)  # a shorter title lowers the minimum: take the view's width again
